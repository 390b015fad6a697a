/**
 * VRP files imported by staff on /site-settings/routing-data (and by `npm run rpki:import`), and
 * the RPKI field of the Looking Glass rows they give: both formats, the states of routes the test
 * writes into rib_entries (maxLength, AS0, an AS_SET origin, an empty path, IPv4 and IPv6), bad
 * files that replace nothing, who may import, the removal, the screen's figures and the audit log.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import { auditLog, rpkiSources, rpkiVrps, siteSettings, users, vantagePoints } from "~db/postgres/schema";
import { runLookingGlassQuery } from "~/features/routing/lookingglass.server";
import { MAX_ROA_FILE_BYTES } from "~/features/routing/rpki/roa-import.server";
import { publicQueryCache } from "~/features/routing/lookingglass-cache.server";
import * as routingDataRoute from "~/routes/_app.site-settings_.routing-data";
import * as lookingGlassRoute from "~/routes/api.lookingglass";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, ORIGIN, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { runScript } from "../helpers/run-script";
import { createThrowawayDatabase, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const cookies = { admin: "", user: "" };
const T0 = 1_790_000_000;

/** A route on vantage point rp1, learned from the peer AS 64496. */
function route(prefix: string, asPath: number[], asPathSet: number[] = []): RibRow {
  const v6 = prefix.includes(":");
  return {
    timestamp: T0,
    vantage_point: "rp1",
    router_ip: "192.0.2.1",
    peer_ip: "198.51.100.1",
    peer_asn: 64496,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: Number(prefix.split("/")[1]),
    afi: v6 ? 2 : 1,
    safi: 1,
    is_withdrawn: 0,
    as_path: asPath,
    as_path_set: asPathSet,
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: v6 ? "2001:db8:ffff::1" : "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
  };
}

const ROUTES = [
  route("192.0.2.0/24", [64496, 64500]),
  route("192.0.2.128/25", [64496, 64500]),
  route("198.51.100.0/24", [64496, 64999]),
  route("203.0.113.0/24", [64496], [64500, 64501]),
  route("100.64.0.0/24", [64496, 64500]),
  // Originated inside the network: no AS path; the peer's AS (the network's own) is the origin.
  route("10.0.0.0/24", []),
  route("2001:db8:1::/48", [64496, 64510]),
  route("2001:db9:1::/48", [64496, 64510]),
  route("2001:dba::/32", [64496, 64510]),
];

/** rpki-client's JSON. */
const JSON_FILE = JSON.stringify({
  metadata: { buildmachine: "rp.example.net", roas: 7 },
  roas: [
    { asn: 64500, prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe", expires: 1_800_000_000 },
    { asn: 64501, prefix: "198.51.100.0/22", maxLength: 24, ta: "ripe", expires: 1_800_000_000 },
    { asn: 64500, prefix: "203.0.113.0/24", maxLength: 24, ta: "arin", expires: 1_800_000_000 },
    { asn: 64496, prefix: "10.0.0.0/8", maxLength: 24, ta: "ripe", expires: 1_800_000_000 },
    { asn: 64510, prefix: "2001:db8::/32", maxLength: 48, ta: "ripe", expires: 1_800_000_000 },
    { asn: 0, prefix: "2001:db9::/32", maxLength: 128, ta: "ripe", expires: 1_800_000_000 },
    { asn: 64500, prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe", expires: 1_800_000_000 },
  ],
});
const JSON_STATES = {
  "192.0.2.0/24": "valid",
  "192.0.2.128/25": "invalid", // beyond maxLength 24
  "198.51.100.0/24": "invalid", // covered, another AS
  "203.0.113.0/24": "invalid", // the path ends in an AS_SET: no origin
  "100.64.0.0/24": "not-found",
  "10.0.0.0/24": "valid", // empty path: the peer's AS 64496
  "2001:db8:1::/48": "valid",
  "2001:db9:1::/48": "invalid", // AS0
  "2001:dba::/32": "not-found",
};

/** Routinator's CSV: without the 198.51.100.0/22 VRP, and 192.0.2.0/24 allowed up to /25. */
const CSV_FILE = [
  "ASN,IP Prefix,Max Length,Trust Anchor",
  "AS64500,192.0.2.0/24,25,ripe",
  "AS64500,203.0.113.0/24,24,arin",
  "AS64496,10.0.0.0/8,24,ripe",
  "AS64510,2001:db8::/32,48,ripe",
  "AS0,2001:db9::/32,128,ripe",
  "",
].join("\n");

function post(form: FormData, cookie = cookies.admin) {
  return runRoute(
    routingDataRoute.action,
    new Request(`${ORIGIN}/site-settings/routing-data`, { method: "POST", body: form, headers: { Cookie: cookie } }),
  );
}

/** The upload as the screen's form sends it: intent first, then the CSRF field, then the file. */
function upload(file: { name: string; text: string } | null, options: { csrf?: string; cookie?: string; intent?: string } = {}) {
  const form = new FormData();
  form.set("intent", options.intent ?? "rpki-import");
  form.set("csrfmiddlewaretoken", options.csrf ?? CSRF_TOKEN);
  if (file) form.set("roaFile", new Blob([file.text]), file.name);
  return post(form, options.cookie);
}

function clear(options: { csrf?: string; cookie?: string } = {}) {
  const body = new URLSearchParams({ intent: "rpki-clear", csrfmiddlewaretoken: options.csrf ?? CSRF_TOKEN });
  return runRoute(
    routingDataRoute.action,
    new Request(`${ORIGIN}/site-settings/routing-data`, {
      method: "POST",
      body,
      headers: { Cookie: options.cookie ?? cookies.admin, "Content-Type": "application/x-www-form-urlencoded" },
    }),
  );
}

/** The RPKI field of every row, by prefix (private variant). */
async function states(): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const term of ["0.0.0.0/0", "::/0"]) {
    const result = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: term,
      vantagePoints: ["rp1"],
    });
    const rows = result.results.rp1;
    if (rows === "VantagePointWithNoData") continue;
    for (const row of rows) out[row.Prefix] = row.RPKI;
  }
  return out;
}

async function fileVrps(): Promise<string[]> {
  const rows = await stores.pg.db.select().from(rpkiVrps).where(eq(rpkiVrps.source, "file"));
  return rows.map((r) => `${r.prefix} ${r.maxLength} ${r.asn} ${r.trustAnchor}`).sort();
}

async function fileSource() {
  const [row] = await stores.pg.db.select().from(rpkiSources).where(eq(rpkiSources.source, "file"));
  return row;
}

const screen = async (cookie = cookies.admin) =>
  (await runRoute(routingDataRoute.loader, getRequest("/site-settings/routing-data", cookie))).data;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db
    .insert(vantagePoints)
    .values({ key: "rp1", city: "Frankfurt", country: "Germany", router: "rp-r1", ip: "192.0.2.1", isPublic: true });
  const [admin] = await stores.pg.db
    .insert(users)
    .values({ email: "admin@rpki.test", firstName: "A", passwordHash: "!unusable", hasConsented: true, isStaff: true })
    .returning({ id: users.id });
  const [user] = await stores.pg.db
    .insert(users)
    .values({ email: "user@rpki.test", firstName: "U", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  cookies.admin = await sessionCookie(stores, admin.id);
  cookies.user = await sessionCookie(stores, user.id);
  await chInsert(stores.ch, { name: "test.routes", table: "rib_entries", values: ROUTES });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("before any VRP is loaded", () => {
  it("every Looking Glass row has RPKI null, and the screen says no VRPs are loaded", async () => {
    const before = await states();
    expect(Object.keys(before).sort()).toEqual(Object.keys(JSON_STATES).sort());
    expect(new Set(Object.values(before))).toEqual(new Set([null]));
    const data = await screen();
    expect(data.rpki).toMatchObject({ anyInUse: false, inUse: "0", file: null, rtr: null });
  });
});

describe("ROA file import", () => {
  it("imports rpki-client's JSON: the VRPs stored, the rows' states, the screen's figures, the audit entry", async () => {
    const res = await upload({ name: "rpki-client.json", text: JSON_FILE });
    expect(res.status).toBe(200);
    expect(res.data.rpki).toMatchObject({
      intent: "rpki-import",
      error: null,
      summary: { fileName: "rpki-client.json", format: "json", entries: 7, vrps: 6, duplicates: 1, ipv4: 4, ipv6: 2, replaced: 0 },
    });
    expect(await fileVrps()).toEqual([
      "10.0.0.0/8 24 64496 ripe",
      "192.0.2.0/24 24 64500 ripe",
      "198.51.100.0/22 24 64501 ripe",
      "2001:db8::/32 48 64510 ripe",
      "2001:db9::/32 128 0 ripe",
      "203.0.113.0/24 24 64500 arin",
    ]);
    expect(await states()).toEqual(JSON_STATES);
    const data = await screen();
    expect(data.rpki).toMatchObject({
      anyInUse: true,
      inUse: "6",
      file: { vrps: "6", fileName: "rpki-client.json", importedBy: "admin@rpki.test", hasVrps: true },
    });
    const [entry] = await stores.pg.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "rpki_file.import"), eq(auditLog.targetId, "file")));
    expect(entry).toMatchObject({ actorEmail: "admin@rpki.test", after: { vrp_count: 6, file_name: "rpki-client.json" } });
  });

  it("the public variant of api/lookingglass/ carries the RPKI field too", async () => {
    await stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: true }).where(eq(siteSettings.id, 1));
    publicQueryCache.clear();
    const res = await runRoute(
      lookingGlassRoute.loader,
      new Request(`${ORIGIN}/api/lookingglass/?queryTerm=192.0.2.0/24&queryType=IpPrefixQuery&vantagePoints=rp1`, {
        headers: { Accept: "application/json" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.data.results.rp1.map((r: { Prefix: string; RPKI: string }) => `${r.Prefix} ${r.RPKI}`).sort()).toEqual([
      "192.0.2.0/24 valid",
      "192.0.2.128/25 invalid",
    ]);
    expect(res.data.results.rp1[0]).not.toHaveProperty("BGP community");
    await stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: false }).where(eq(siteSettings.id, 1));
  });

  it("Routinator's CSV replaces the file's set in one go", async () => {
    const generation = (await fileSource()).generation;
    const res = await upload({ name: "routinator.csv", text: CSV_FILE });
    expect(res.status).toBe(200);
    expect(res.data.rpki.summary).toMatchObject({ format: "csv", entries: 5, vrps: 5, replaced: 6 });
    expect(await fileVrps()).toEqual([
      "10.0.0.0/8 24 64496 ripe",
      "192.0.2.0/24 25 64500 ripe",
      "2001:db8::/32 48 64510 ripe",
      "2001:db9::/32 128 0 ripe",
      "203.0.113.0/24 24 64500 arin",
    ]);
    expect((await fileSource()).generation).toBe(generation + 1);
    expect(await states()).toEqual({ ...JSON_STATES, "192.0.2.128/25": "valid", "198.51.100.0/24": "not-found" });
  });

  it("a file with bad entries is refused with each entry or line named, and nothing is replaced", async () => {
    const before = { vrps: await fileVrps(), source: await fileSource() };
    const badJson = JSON.stringify({
      roas: [
        { asn: 64500, prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
        { asn: 64500, prefix: "192.0.2.0/24", maxLength: 16, ta: "ripe" },
        { asn: "AS-X", prefix: "198.51.100.0/24", maxLength: 24, ta: "ripe" },
      ],
    });
    const json = await upload({ name: "bad.json", text: badJson });
    expect(json.status).toBe(400);
    expect(json.data.rpki).toMatchObject({
      summary: null,
      error: "bad.json was not imported: nothing was changed.",
      problems: [
        "roas entry 2 (192.0.2.0/24): maxLength 16 is shorter than the prefix length 24",
        'roas entry 3 (198.51.100.0/24): AS number "AS-X" is not a number or "AS" and a number',
      ],
      problemCount: 2,
    });
    const csv = await upload({ name: "bad.csv", text: "ASN,IP Prefix,Max Length,Trust Anchor\nAS1,192.0.2.1/24,24,ripe\n" });
    expect(csv.status).toBe(400);
    expect(csv.data.rpki.problems).toEqual(['line 2: prefix "192.0.2.1/24" has host bits set (the network is 192.0.2.0/24)']);
    const other = await upload({ name: "notes.txt", text: "hello" });
    expect(other.data.rpki.problems[0]).toMatch(/^line 1: expected the header/);
    const binary = await upload({ name: "x.bin", text: "\u00ff" });
    expect(binary.status).toBe(400);
    const empty = await upload({ name: "empty.json", text: "" });
    expect(empty.data.rpki.error).toBe("empty.json is empty.");
    const none = await upload(null);
    expect(none.data.rpki.error).toBe("Choose a ROA file to upload.");
    expect(await fileVrps()).toEqual(before.vrps);
    expect(await fileSource()).toEqual(before.source);
  });

  it("refuses a file larger than the limit before reading it (413)", async () => {
    const form = new FormData();
    form.set("intent", "rpki-import");
    form.set("csrfmiddlewaretoken", CSRF_TOKEN);
    form.set("roaFile", new Blob([JSON_FILE]), "huge.json");
    const res = await runRoute(
      routingDataRoute.action,
      new Request(`${ORIGIN}/site-settings/routing-data`, {
        method: "POST",
        body: form,
        headers: { Cookie: cookies.admin, "Content-Length": String(MAX_ROA_FILE_BYTES + 1024 * 1024) },
      }),
    );
    expect(res.status).toBe(413);
    expect(res.data.rpki.error).toMatch(/^The file is larger than 256 MB/);
  });

  it("refuses users who are not administrators and a wrong CSRF field", async () => {
    const before = await fileVrps();
    const denied = await upload({ name: "x.json", text: JSON_FILE }, { cookie: cookies.user });
    expect(denied.status).toBe(403);
    const csrf = await upload({ name: "x.json", text: JSON_FILE }, { csrf: "not-the-token" });
    expect(csrf.status).toBe(403);
    expect(csrf.data.exception_code).toBe("csrf_failed");
    expect((await clear({ cookie: cookies.user })).status).toBe(403);
    expect((await clear({ csrf: "not-the-token" })).status).toBe(403);
    expect((await runRoute(routingDataRoute.loader, getRequest("/site-settings/routing-data", cookies.user))).status).toBe(403);
    expect(await fileVrps()).toEqual(before);
  });

  it("an upload without intent is still the MRT upload", async () => {
    const form = new FormData();
    form.set("csrfmiddlewaretoken", CSRF_TOKEN);
    form.set("vantagePoint", "rp1");
    form.set("file", new Blob(["not mrt"]), "x.mrt");
    const res = await post(form);
    expect(res.status).toBe(400);
    expect(res.data).not.toHaveProperty("rpki");
    expect(res.data.summary).toBeNull();
  });

  it("removing the file's VRPs leaves the rows without ROA data", async () => {
    const res = await clear();
    expect(res.status).toBe(200);
    expect(res.data.rpki).toMatchObject({ intent: "rpki-clear", removed: 5, error: null });
    expect(await fileVrps()).toEqual([]);
    expect(new Set(Object.values(await states()))).toEqual(new Set([null]));
    expect((await screen()).rpki).toMatchObject({ anyInUse: false, file: { vrps: "0", fileName: null, hasVrps: false } });
    const entries = await stores.pg.db.select().from(auditLog).where(eq(auditLog.action, "rpki_file.clear"));
    expect(entries.map((e) => e.before)).toEqual([{ vrp_count: 5, file_name: "routinator.csv" }]);
  });
});

describe("npm run rpki:import", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "flowlens-rpki-cli-"));
  const env: Record<string, string> = { DATA_DIR: path.join(dir, "data"), DEMO_DATA: "off", LOG_LEVEL: "warn" };
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  beforeAll(async () => {
    // With a PostgreSQL server (CI), the command works on a throwaway database of its own, as the app would.
    if (!process.env.DATABASE_URL) return;
    database = await createThrowawayDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = database.url;
    env.SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports a file, replaces it with the next, and refuses a bad one with its lines on stderr (exit 1)", async () => {
    writeFileSync(path.join(dir, "vrps.json"), JSON_FILE);
    writeFileSync(path.join(dir, "vrps.csv"), CSV_FILE);
    writeFileSync(path.join(dir, "bad.csv"), "ASN,IP Prefix,Max Length\nAS1,192.0.2.0/24,24\nAS1,192.0.2.0/24,99\nAS1,10.0.0.0,8\n");
    const first = await runScript("rpki-import.ts", [path.join(dir, "vrps.json")], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toMatch(
      /^vrps\.json: JSON \(rpki-client, Routinator\), 7 entries, 6 VRPs stored \(4 IPv4, 2 IPv6; 1 repeated entries\), replacing 0 of the previous file, in \d+\.\d s$/,
    );
    const second = await runScript("rpki-import.ts", [path.join(dir, "vrps.csv")], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("5 VRPs stored (3 IPv4, 2 IPv6; 0 repeated entries), replacing 6 of the previous file");
    const bad = await runScript("rpki-import.ts", [path.join(dir, "bad.csv")], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toEqual([
      "bad.csv was not imported: nothing was changed.",
      "line 3: maxLength 99 is longer than an IPv4 address (32)",
      'line 4: prefix "10.0.0.0" has no length (e.g. 192.0.2.0/24)',
    ]);
    // Nothing was replaced: the next import still replaces the CSV's 5.
    const again = await runScript("rpki-import.ts", [path.join(dir, "vrps.json")], env);
    expect(again.stdout).toContain("replacing 5 of the previous file");
    const missing = await runScript("rpki-import.ts", [path.join(dir, "nope.json")], env);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `${path.join(dir, "nope.json")}: no such file`]);
    const usage = await runScript("rpki-import.ts", [], env);
    expect([usage.code, usage.stderr.trim()]).toEqual([1, expect.stringMatching(/^no file given; usage: npm run rpki:import -- FILE/)]);
  }, 300_000);
});
