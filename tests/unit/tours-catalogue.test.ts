// The guided tours' catalogue (app/features/help/tours.ts): every tour of the issue, at least 3 steps each, and every
// step's anchor written as a data-tour attribute in the source of the screen the step is on, so a renamed element
// fails here before the browser walker (tests/e2e/tours.e2e.ts) runs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { indexOfScreen } from "~/features/help/tour-index";
import { TOURS, mayTakeTour, stepScreen, tourIndexEntry } from "~/features/help/tours";

const ROOT = path.resolve(__dirname, "../..");

/** The source folders and files of each screen a tour visits. */
const SCREEN_SOURCES: Record<string, string[]> = {
  "/flow-explorer": ["app/features/flows/ui", "app/features/shared/table"],
  "/as-flows-analysis": ["app/features/flows/ui"],
  "/border-planner": ["app/features/planners/ui", "app/features/shared/table"],
  "/core-planner": ["app/features/planners/ui", "app/features/shared/table"],
  "/manage-delegated-users": ["app/features/users/delegated-users/ui"],
  "/lookingglass": ["app/features/lookingglass/ui"],
  "/controlplane": ["app/features/controlplane/ui"],
  "/rna": ["app/features/rna/ui", "app/features/shared/table"],
  "/revenues-and-costs": ["app/features/revenues/ui", "app/features/shared/table"],
  "/as-relations": ["app/features/asrelations/ui", "app/features/shared/table"],
  "/welcome": ["app/routes/_app.welcome.tsx"],
  "/manage-tags": ["app/features/tags/ui"],
  "/site-settings/data-sources": ["app/features/collector/data-sources/ui"],
  "/settings/security": ["app/features/settings/ui/SecurityView.tsx"],
  "/manage-users": ["app/features/users/ui"],
};

function files(p: string): string[] {
  const abs = path.join(ROOT, p);
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs).flatMap((f) => files(path.join(p, f)));
}

/** The data-tour values written in these sources: data-tour="x", "data-tour": "x", and the tag forms' template. */
function anchorsIn(screen: string): Set<string> {
  const text = (SCREEN_SOURCES[screen] ?? [])
    .flatMap(files)
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  const found = new Set<string>();
  for (const m of text.matchAll(/data-tour(?:"?\s*[:=]\s*|=\{[^}]*?)"([a-z0-9-]+)"/g)) found.add(m[1]);
  if (text.includes('`${what === "tag" ? "tag" : "tag-group"}-form`')) found.add("tag-form").add("tag-group-form");
  return found;
}

const ISSUE_IDS = [
  "analytics-chapter-1",
  "analytics-chapter-2",
  "border-planner",
  "core-planner",
  "delegated-users",
  "demolytics",
  "looking-glass",
  "control-plane",
  "rna",
  "revenues-and-costs",
  "as-relations",
  "welcome",
];

describe("tour catalogue", () => {
  it("has every tour of the issue, nine how-to tours, unique ids and at least 3 steps each", () => {
    const ids = TOURS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ISSUE_IDS) expect(ids).toContain(id);
    expect(TOURS.filter((t) => t.kind === "how-to")).toHaveLength(9);
    expect(TOURS.length).toBe(21);
    for (const t of TOURS) {
      expect([t.id, t.steps.length >= 3]).toEqual([t.id, true]);
      expect(t.id).toMatch(/^[a-z0-9-]+$/);
      for (const s of t.steps) expect([t.id, s.title.length > 0 && s.body.length > 20]).toEqual([t.id, true]);
    }
  });

  it("every step's anchor is a data-tour attribute in the source of its screen", () => {
    const missing: string[] = [];
    for (const t of TOURS)
      for (const s of t.steps) {
        const screen = stepScreen(t, s);
        expect([t.id, screen, screen in SCREEN_SOURCES]).toEqual([t.id, screen, true]);
        if (!anchorsIn(screen).has(s.anchor)) missing.push(`${t.id}: ${s.anchor} on ${screen}`);
      }
    expect(missing).toEqual([]);
  });

  it("the check itself finds a missing anchor", () => {
    expect(anchorsIn("/controlplane").has("cp-query")).toBe(true);
    expect(anchorsIn("/controlplane").has("explorer-chart")).toBe(false);
  });

  it("TOUR_DEMOLYTICS gates the demo tour; the welcome tour is for welcome-page accounts; staff-only how-tos", () => {
    const demo = TOURS.find((t) => t.id === "demolytics")!;
    const all = new Set(TOURS.flatMap((t) => t.audience.permissions ?? []));
    const viewer = (perms: Set<string>, extra: Partial<{ isStaff: boolean; welcomePage: boolean }> = {}) => ({
      permissions: perms,
      isStaff: false,
      isSuperuser: false,
      welcomePage: false,
      ...extra,
    });
    expect(mayTakeTour(demo, viewer(all))).toBe(true);
    const withoutDemo = new Set([...all].filter((p) => p !== "TOUR_DEMOLYTICS"));
    expect(mayTakeTour(demo, viewer(withoutDemo))).toBe(false);
    const welcome = TOURS.find((t) => t.id === "welcome")!;
    expect(mayTakeTour(welcome, viewer(all))).toBe(false);
    expect(mayTakeTour(welcome, viewer(new Set(), { welcomePage: true }))).toBe(true);
    const adopt = TOURS.find((t) => t.id === "how-to-adopt-an-exporter")!;
    expect(mayTakeTour(adopt, viewer(all))).toBe(false);
    expect(mayTakeTour(adopt, viewer(new Set(), { isStaff: true }))).toBe(true);
  });

  it("a screen's tours are those that visit it", () => {
    const index = TOURS.map(tourIndexEntry);
    const onControlPlane = indexOfScreen("/controlplane/", index).map((t) => t.id);
    expect(onControlPlane).toEqual(["demolytics", "control-plane", "how-to-find-why-traffic-moved"]);
    expect(
      indexOfScreen(
        "/controlplane",
        index.filter((t) => t.id === "rna"),
      ),
    ).toEqual([]);
    // The index the header gets: no step text, the step count.
    expect(index.find((t) => t.id === "rna")).toEqual({
      id: "rna",
      title: TOURS.find((t) => t.id === "rna")!.title,
      summary: TOURS.find((t) => t.id === "rna")!.summary,
      screens: ["/rna"],
      steps: TOURS.find((t) => t.id === "rna")!.steps.length,
    });
  });
});
