/**
 * No permission or message of the spec is defined without effect (issue: settings and texts that
 * are stored but never used are worse than missing ones). Each permission name must be used in the
 * application outside its definitions (the list, the administrators' catalogue, the catalogue
 * entries of tools not built yet); each message of MESSAGES must be read somewhere as
 * `MESSAGES.<key>`. The exemptions name what belongs to tools this version does not have yet; the
 * lists shrink as those tools are built, and an exemption that is no longer needed fails the test.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { FEATURE_FLAGS, PERMISSIONS, type FeatureFlag } from "~/lib/permissions";
import { TOOL_ROUTES, UNBUILT_TOOL_GRANTS } from "~/lib/routes";

const APP = join(__dirname, "../../app");
/** Where permissions and messages are defined or described, not used. */
const DEFINITIONS = new Set(["lib/permissions.ts", "lib/permission-catalogue.ts", "lib/messages.ts", "lib/routes.ts"]);

/** Messages of tools not built yet. */
const UNBUILT_MESSAGES: Record<string, string> = {};

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) ? [{ path: relative(APP, full), text: readFileSync(full, "utf8") }] : [];
  });
}

const files = sources(APP);
const uses = (pattern: RegExp) => files.filter((f) => !DEFINITIONS.has(f.path) && pattern.test(f.text)).map((f) => f.path);

describe("the spec's permissions and messages have an effect", () => {
  it("every permission is checked or granted somewhere outside its definitions (a built tool's route counts)", () => {
    const builtRoutePermissions = new Set(TOOL_ROUTES.filter((r) => r.built && r.permission).map((r) => r.permission));
    const unused = PERMISSIONS.filter((p) => !builtRoutePermissions.has(p) && uses(new RegExp(`["'\`]${p}["'\`]`)).length === 0);
    // The permissions without an effect are those of the tools this version does not have (app/lib/routes.ts).
    expect(unused.filter((p) => !UNBUILT_TOOL_GRANTS.has(p))).toEqual([]);
    // A grant listed there whose tool is built is removed from it: its permission opens no built route.
    const unbuiltPermissions = PERMISSIONS.filter((p) => UNBUILT_TOOL_GRANTS.has(p));
    expect(unbuiltPermissions.filter((p) => builtRoutePermissions.has(p))).toEqual([]);
    expect(unbuiltPermissions.length).toBeGreaterThanOrEqual(unused.length);
  });

  it("every feature flag of a tool this version does not have is read nowhere but its definitions", () => {
    // Since the Raw Network Analyzer (rnaTagColumn) no flag of the spec belongs to a missing tool; a new one would be checked here.
    const unbuiltFlags = FEATURE_FLAGS.filter((f: FeatureFlag) => UNBUILT_TOOL_GRANTS.has(f));
    expect(unbuiltFlags).toEqual([]);
    expect(unbuiltFlags.filter((f) => uses(new RegExp(`["'\`]${f}["'\`]`)).length > 0)).toEqual([]);
  });

  it("every message is shown somewhere (read as MESSAGES.<key>)", () => {
    const unused = Object.keys(MESSAGES).filter((key) => uses(new RegExp(`MESSAGES\\.${key}\\b`)).length === 0);
    expect(unused.filter((key) => !(key in UNBUILT_MESSAGES))).toEqual([]);
    expect(Object.keys(UNBUILT_MESSAGES).filter((key) => !unused.includes(key))).toEqual([]);
  });
});
