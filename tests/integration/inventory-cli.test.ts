/**
 * npm run inventory and rib:import --new-vantage-point, run as operators run them (tsx, a child
 * process) against stores of their own: a database of the test run's PostgreSQL server when
 * DATABASE_URL is set, else PGlite in a temporary DATA_DIR.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_INVENTORY, SECRETS_OF_SAMPLE } from "../fixtures/inventory";
import { attributes, peerIndexTable, ribRecord } from "../fixtures/mrt";
import { openTestStores, type TestStores } from "../helpers/stores";

const ROOT = path.resolve(__dirname, "../..");
const KEY = "11".repeat(32);

let dir: string;
let serverStores: TestStores | null = null;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "flowlens-inventory-cli-"));
  env = { DATA_DIR: path.join(dir, "data"), INVENTORY_SECRET_KEY: KEY, DEMO_DATA: "off" };
  if (process.env.DATABASE_URL) {
    serverStores = await openTestStores();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${serverStores.databaseName}`;
    env.DATABASE_URL = url.toString();
    env.SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";
  }
}, 120_000);

afterAll(async () => {
  await serverStores?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function run(script: string, args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

const inventory = (...args: string[]) => run("scripts/inventory.ts", args);
const file = (name: string, text?: string) => {
  const at = path.join(dir, name);
  if (text !== undefined) writeFileSync(at, text);
  return at;
};
async function exported(): Promise<string> {
  const result = await inventory("export");
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("npm run inventory", () => {
  it("imports a file and reports what it created", async () => {
    const result = await inventory("import", file("sample.yaml", SAMPLE_INVENTORY));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "routers: 2 created (ber1-r1, fra1-r1), 0 updated, 0 removed, 0 unchanged",
      "interfaces: 3 created (ber1-r1 HundredGigE0/0/0/0, fra1-r1 et-0/0/0, fra1-r1 et-0/0/1), 0 updated, 0 removed, 0 unchanged",
      "vantage points: 1 created (fra1), 0 updated, 0 removed, 0 unchanged",
      "",
    ]);
  }, 60_000);

  it("round-trips: export → import → export gives the same file, with secrets only as markers", async () => {
    const first = await exported();
    for (const secret of SECRETS_OF_SAMPLE) expect(first).not.toContain(secret);
    expect(first).toContain("auth_password: { secret: set }");
    expect(first).toContain("private_key: { secret: set }");
    expect(first).toContain("community: { secret: set }");
    expect(first).toContain("exporters: [ 192.0.2.1, 2001:db8::1 ]");
    expect(first).toContain("capacity: 2500M");

    const again = await inventory("import", file("first.yaml", first));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("routers: 0 created, 0 updated, 0 removed, 2 unchanged");
    expect(again.stdout).toContain("interfaces: 0 created, 0 updated, 0 removed, 3 unchanged");
    expect(await exported()).toBe(first);
  }, 90_000);

  it("dry run: reports the changes and writes nothing", async () => {
    const before = await exported();
    const changed = before.replace("description: Transit AS3356", "description: Transit AS1299").replace("city: Berlin", "city: Potsdam");
    const result = await inventory("import", file("changed.yaml", changed), "--dry-run");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("routers: 0 created, 1 updated (ber1-r1), 0 removed, 1 unchanged");
    expect(result.stdout).toContain("interfaces: 0 created, 1 updated (fra1-r1 et-0/0/1), 0 removed, 2 unchanged");
    expect(result.stdout).toContain("dry run: nothing was written");
    expect(await exported()).toBe(before);
  }, 90_000);

  it("refuses a bad file naming each place in it, exit code 1, nothing written", async () => {
    const before = await exported();
    const bad = SAMPLE_INVENTORY.replace("loopback: 198.51.100.2", "loopback: 198.51.100.300")
      .replace("capacity: 2.5G", "capacity: 2.5X")
      .replace(
        "city: Frankfurt\n    country: Germany\n    role: edge",
        "city: Frankfurt\n    country: Germany\n    role: edge\n    colour: blue",
      );
    const result = await inventory("import", file("bad.yaml", bad));
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toBe("nothing was written");
    expect(lines).toContainEqual(expect.stringMatching(/bad\.yaml: routers\[0\]\.interfaces\[1\]\.capacity: must be bits per second/));
    expect(lines).toContainEqual(expect.stringMatching(/bad\.yaml: routers\[1\]\.loopback: must be an IPv4 or IPv6 address/));
    expect(lines).toContainEqual(expect.stringMatching(/bad\.yaml: routers\[0\]: .*colour/));
    expect(await exported()).toBe(before);
  }, 90_000);

  it("is all or nothing: a link to an interface that does not exist undoes the routers written before it", async () => {
    const before = await exported();
    const text = `${before}`.replace(
      "vantage_points:",
      `  - name: ham1-r1
    city: Hamburg
    country: Germany
    loopback: 198.51.100.3
    interfaces:
      - { name: xe-0/0/0, ifindex: 1, capacity: 10G, kind: core, remote: { router: fra1-r1, interface: et-9/9/9 } }
vantage_points:`,
    );
    const result = await inventory("import", file("dangling.yaml", text));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("routers[2].interfaces[0].remote: no interface et-9/9/9 on router fra1-r1");
    expect(await exported()).toBe(before);
  }, 90_000);

  it("names the missing key when a file brings a secret and INVENTORY_SECRET_KEY is unset", async () => {
    const result = await run("scripts/inventory.ts", ["import", file("sample.yaml")], { INVENTORY_SECRET_KEY: "" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "sample.yaml: routers[0].snmp.auth_password: INVENTORY_SECRET_KEY is not set, so secrets cannot be saved",
    );
  }, 60_000);

  it("--replace removes the routers and vantage points the file does not list", async () => {
    const only = SAMPLE_INVENTORY.slice(0, SAMPLE_INVENTORY.indexOf("  - name: ber1-r1"))
      .replace("        remote: { router: ber1-r1, interface: HundredGigE0/0/0/0 }\n", "")
      .replace(/auth_password: .*/, "auth_password: { secret: set }")
      .replace(/priv_password: .*/, "priv_password: { secret: set }")
      .replace(/private_key: .*/, "private_key: { secret: set }");
    const result = await inventory("import", file("only.yaml", `${only}vantage_points: []\n`), "--replace");
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("routers: 0 created, 0 updated, 1 removed (ber1-r1), 1 unchanged");
    expect(result.stdout).toContain(
      "interfaces: 0 created, 1 updated (fra1-r1 et-0/0/0), 1 removed (ber1-r1 HundredGigE0/0/0/0), 1 unchanged",
    );
    expect(result.stdout).toContain("vantage points: 0 created, 0 updated, 1 removed (fra1), 0 unchanged");
    const after = await exported();
    expect(after).not.toContain("ber1-r1");
    expect(after).toContain("auth_password: { secret: set }");
  }, 60_000);
});

describe("npm run rib:import -- --new-vantage-point", () => {
  it("adds the vantage point with the router's city, country and address, then imports under it", async () => {
    const mrt = Buffer.concat([
      peerIndexTable({
        timestamp: 1_700_000_000,
        collectorId: "198.51.100.1",
        peers: [{ bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 }],
      }),
      ribRecord({
        timestamp: 1_700_000_000,
        sequence: 0,
        prefix: "192.0.2.0/24",
        entries: [
          {
            peerIndex: 0,
            originatedTime: 1_699_990_000,
            attributes: attributes({ origin: 0, asPath: [{ type: "sequence", asns: [64496] }], nextHop: "198.51.100.10" }),
          },
        ],
      }),
    ]);
    const mrtFile = path.join(dir, "rib.mrt");
    writeFileSync(mrtFile, mrt);

    const refused = await run("scripts/rib-import.ts", ["--new-vantage-point", "lab1", "--router", "lab-r1", mrtFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--city: is required: router lab-r1 is not in the inventory to take it from");

    const result = await run("scripts/rib-import.ts", ["--new-vantage-point", "fra2", "--router", "fra1-r1", "--public", mrtFile]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("vantage point fra2 added to the inventory");
    expect(result.stdout).toMatch(/rib\.mrt: 2 records, 1 prefixes, 1 announcements/);
    expect(await exported()).toContain(
      "  - key: fra2\n    router: fra1-r1\n    city: Frankfurt\n    country: Germany\n    ip: 198.51.100.1\n    public: true\n",
    );
  }, 120_000);
});
