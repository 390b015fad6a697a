/**
 * PeeringDB data imported from PeeringDB's JSON (a dump, or per-object API answers) and read back
 * by api/peering_db/?asn: the objects stored, the replace, the dump's date, files refused with the
 * reason and nothing half-imported, the answer's facts against the fixture, the spec's 404
 * message, bad AS numbers, who may call, and `npm run peeringdb:import`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, peeringDbImport, peeringDbObjects, userPermissions, users } from "~db/postgres/schema";
import { importPeeringDb, kindOfFileName, PeeringDbFileError, type PeeringDbSource } from "~/features/routing/peeringdb/import.server";
import { peeringDbNetwork } from "~/features/routing/peeringdb/lookup.server";
import * as peeringDbRoute from "~/routes/api.peering_db";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { chunksOf, FIXTURE, FIXTURE_GENERATED, fixtureAnswer, fixtureDump } from "../helpers/peeringdb-fixture";
import { runScript } from "../helpers/run-script";
import { createThrowawayDatabase, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const cookies = { relations: "", other: "" };

const source = (name: string, text: string, size = 37): PeeringDbSource => ({ name, chunks: chunksOf(text, size) });
const imported = (sources: PeeringDbSource[]) => importPeeringDb(stores, { sources, actor: null });

async function storedIds(): Promise<string[]> {
  const rows = await stores.pg.db.select({ kind: peeringDbObjects.kind, id: peeringDbObjects.id }).from(peeringDbObjects);
  return rows.map((r) => `${r.kind} ${r.id}`).sort();
}

/** Every object of the fixture but the deleted ones, as "kind id". */
const FIXTURE_IDS = Object.entries(FIXTURE)
  .flatMap(([kind, list]) => list.filter((o) => o.status !== "deleted").map((o) => `${kind} ${o.id}`))
  .sort();

async function refusal(sources: PeeringDbSource[]): Promise<PeeringDbFileError> {
  const error = await imported(sources).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PeeringDbFileError);
  return error as PeeringDbFileError;
}

async function createUser(email: string, permissions: "AS_RELATIONS"[]) {
  const [r] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: r.id, permission })));
  return r.id;
}

const ask = (asn: string, cookie = cookies.relations) =>
  callRoute(peeringDbRoute, `/api/peering_db/?asn=${encodeURIComponent(asn)}`, { cookie });

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  cookies.relations = await sessionCookie(stores, await createUser("relations@pdb.test", ["AS_RELATIONS"]));
  cookies.other = await sessionCookie(stores, await createUser("other@pdb.test", []));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("before any import", () => {
  it("api/peering_db/ answers 404 with the spec's message", async () => {
    const res = await ask("64500");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "The requested ASN was not found in PeeringDB." });
  });
});

describe("import", () => {
  it("names a per-object file's type from its name", () => {
    expect(
      ["net.json", "/tmp/netixlan.json", "peeringdb-ixpfx-2026.json", "ix.json", "IXLAN.JSON", "fac", "dump.json"].map(kindOfFileName),
    ).toEqual(["net", "netixlan", "ixpfx", "ix", "ixlan", "fac", null]);
  });

  it("stores every object of a dump read in small chunks (deleted ones skipped), with the dump's date and an audit entry", async () => {
    const summary = await imported([source("peeringdb.json", fixtureDump())]);
    expect(summary.counts).toEqual({ net: 2, org: 2, ix: 2, ixlan: 2, ixpfx: 2, netixlan: 3, fac: 2, netfac: 2, poc: 2 });
    expect([summary.skipped, summary.replaced, summary.dumpDate?.getTime()]).toEqual([1, 0, FIXTURE_GENERATED * 1000]);
    expect(await storedIds()).toEqual(FIXTURE_IDS);
    const [state] = await stores.pg.db.select().from(peeringDbImport);
    expect(state).toMatchObject({ generation: 1, source: "peeringdb.json", importedBy: "command line", counts: summary.counts });
    const [row] = await stores.pg.db.select().from(peeringDbObjects).where(eq(peeringDbObjects.id, 11));
    expect(row.data).toEqual(FIXTURE.org[1]);
    const audit = await stores.pg.db.select().from(auditLog).where(eq(auditLog.action, "peeringdb.import"));
    expect(audit.map((a) => a.before)).toEqual([{ objects: 0 }]);
  });

  it("api/peering_db/ answers the network's facts, organisation, NOC contact, IX and facility presence", async () => {
    for (const asn of ["64500", "AS64500", "as64500"]) {
      const res = await ask(asn);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        asn: 64500,
        net_id: 100,
        name: "Example Transit",
        aka: "ExTransit",
        website: "https://transit.example",
        irr_as_set: "AS-EXTRANSIT",
        info_type: "NSP",
        info_traffic: "1-5Tbps",
        info_ratio: "Mostly Outbound",
        info_scope: "Global",
        info_prefixes4: 1200,
        info_prefixes6: 300,
        policy_general: "Selective",
        policy_url: "https://transit.example/peering",
        org: { id: 10, name: "Example Transit GmbH" },
        noc_email: "noc@transit.example",
        ix_presence: [
          {
            ix_id: 201,
            name: "AMS-IX",
            city: "Amsterdam",
            country: "NL",
            speed: 10000,
            ipaddr4: null,
            ipaddr6: "2001:db8:1::10",
            is_rs_peer: false,
          },
          {
            ix_id: 200,
            name: "FRA-IX",
            city: "Frankfurt",
            country: "DE",
            speed: 100000,
            ipaddr4: "192.0.2.10",
            ipaddr6: null,
            is_rs_peer: true,
          },
        ],
        facility_presence: [
          { fac_id: 600, name: "Equinix FR5", city: "Frankfurt", country: "DE" },
          { fac_id: 601, name: "Interxion AMS7", city: "Amsterdam", country: "NL" },
        ],
        dump_date: new Date(FIXTURE_GENERATED * 1000).toISOString(),
        imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
    const content = await peeringDbNetwork(stores, 64501);
    expect(content).toMatchObject({
      name: "Content Net",
      info_ratio: "Not Disclosed",
      org: { name: "Inhalte Köln — Content Org" },
      noc_email: null,
    });
    expect(content?.ix_presence.map((p) => p.name)).toEqual(["FRA-IX"]);
    expect(content?.facility_presence).toEqual([]);
  });

  it("api/peering_db/: 404 with the spec's message for an AS PeeringDB does not know (or lists as deleted), 400 for a bad AS number", async () => {
    for (const asn of ["64999", "64502"]) {
      const res = await ask(asn);
      expect([res.status, await res.json()]).toEqual([404, { detail: "The requested ASN was not found in PeeringDB." }]);
    }
    for (const asn of ["", "x", "!64500", "-5", "0", "AS", "99999999999", "4294967296", "64500.5"]) {
      const res = await ask(asn);
      expect([asn, res.status]).toEqual([asn, 400]);
      expect((await res.json()).errors).toEqual([{ field: "asn", message: expect.stringContaining("AS number") }]);
    }
    const missing = await callRoute(peeringDbRoute, "/api/peering_db/", { cookie: cookies.relations });
    expect(missing.status).toBe(400);
  });

  it("api/peering_db/ needs AS_RELATIONS", async () => {
    expect((await ask("64500", cookies.other)).status).toBe(403);
    // Without a session: the contract answers 403 as for every call that needs a login.
    expect((await callRoute(peeringDbRoute, "/api/peering_db/?asn=64500")).status).toBe(403);
  });

  it("replaces the whole previous import with per-object API answers named after their types", async () => {
    const summary = await imported([source("net.json", fixtureAnswer("net")), source("ix.json", fixtureAnswer("ix"), 5)]);
    expect(summary.counts).toMatchObject({ net: 2, ix: 2, org: 0, netixlan: 0 });
    expect(summary.replaced).toBe(FIXTURE_IDS.length);
    // No meta.generated in these answers: the newest `updated` of the objects.
    expect(summary.dumpDate?.toISOString()).toBe("2026-09-20T10:00:00.000Z");
    expect(await storedIds()).toEqual(["ix 200", "ix 201", "net 100", "net 101"]);
    expect((await peeringDbNetwork(stores, 64500))?.ix_presence).toEqual([]);
    const [state] = await stores.pg.db.select().from(peeringDbImport);
    expect(state).toMatchObject({ generation: 2, source: "net.json, ix.json" });
  });

  it("refuses bad files with the reason and leaves the previous import whole", async () => {
    const before = await storedIds();
    const [stateBefore] = await stores.pg.db.select().from(peeringDbImport);
    const dump = JSON.parse(fixtureDump());
    const withBad = structuredClone(dump);
    withBad.net.data.push({ id: 103, name: "No ASN" }, { id: 104, asn: "AS1", name: "Text ASN" });
    withBad.netixlan.data.push({ id: 500, net_id: 100, ixlan_id: 300, asn: 64500 });
    const bad = await refusal([source("bad.json", JSON.stringify(withBad))]);
    expect(bad.problems).toEqual([
      "bad.json: net 103: asn is missing",
      'bad.json: net 104: asn is not a valid number ("AS1")',
      "bad.json: netixlan 500 appears twice",
    ]);
    expect(bad.problemCount).toBe(3);

    const truncated = fixtureDump().slice(0, 900);
    expect((await refusal([source("cut.json", truncated)])).message).toMatch(
      /^cut\.json: The file ends before its JSON does \(at character 900\): truncated\?$/,
    );
    expect((await refusal([source("list.json", "[1, 2]")])).message).toContain("list.json: Not valid JSON at character 1");
    expect((await refusal([source("dump.json", fixtureAnswer("net"))])).message).toBe(
      "dump.json: a single object list must be named after its type (net.json, ix.json, netixlan.json …).",
    );
    expect((await refusal([source("empty.json", "{}")])).message).toBe(
      "empty.json holds no PeeringDB objects (net, org, ix, ixlan, ixpfx, netixlan, fac, netfac, poc).",
    );
    expect((await refusal([source("ix.json", fixtureAnswer("ix"))])).message).toBe("ix.json holds no networks (net): not imported.");
    const latin1: PeeringDbSource = {
      name: "latin1.json",
      chunks: (async function* () {
        yield Uint8Array.from([...Buffer.from('{"net": {"data": [{"id": 1, "asn": 1, "name": "K'), 0xf6, ...Buffer.from('ln"}]}}')]);
      })(),
    };
    expect((await refusal([latin1])).message).toBe("latin1.json is not a text file (UTF-8 JSON).");
    // A good file first, then a bad one: the good one is not kept either.
    await refusal([source("net.json", fixtureAnswer("net")), source("cut.json", truncated)]);

    expect(await storedIds()).toEqual(before);
    const [stateAfter] = await stores.pg.db.select().from(peeringDbImport);
    expect(stateAfter).toEqual(stateBefore);
  });
});

describe("npm run peeringdb:import", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "flowlens-peeringdb-cli-"));
  const env: Record<string, string> = { DATA_DIR: path.join(dir, "data"), DEMO_DATA: "off", LOG_LEVEL: "warn" };
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) return;
    database = await createThrowawayDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = database.url;
    env.SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports a dump, replaces it, refuses a bad file with its problems on stderr (exit 1)", async () => {
    writeFileSync(path.join(dir, "peeringdb.json"), fixtureDump());
    writeFileSync(path.join(dir, "net.json"), fixtureAnswer("net"));
    const bad = JSON.parse(fixtureAnswer("net"));
    bad.data[0].asn = 0;
    writeFileSync(path.join(dir, "bad-net.json"), JSON.stringify(bad));
    const first = await runScript("peeringdb-import.ts", [path.join(dir, "peeringdb.json")], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toMatch(
      /^peeringdb\.json: 2 net, 2 org, 2 ix, 2 ixlan, 2 ixpfx, 3 netixlan, 2 fac, 2 netfac, 2 poc stored \(1 deleted or of other types skipped\), replacing 0 objects of the previous import; dump of 2026-09-21T\d\d:\d\d:\d\d\.000Z, in \d+\.\d s$/,
    );
    const refused = await runScript("peeringdb-import.ts", [path.join(dir, "bad-net.json")], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toEqual([
      "bad-net.json not imported: nothing was changed.",
      "bad-net.json: net 100: asn is not a valid number (0)",
    ]);
    const second = await runScript("peeringdb-import.ts", [path.join(dir, "net.json")], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("replacing 19 objects of the previous import");
    const missing = await runScript("peeringdb-import.ts", [path.join(dir, "nope.json")], env);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `${path.join(dir, "nope.json")}: no such file`]);
    const usage = await runScript("peeringdb-import.ts", [], env);
    expect([usage.code, usage.stderr.trim()]).toEqual([
      1,
      expect.stringMatching(/^no file given; usage: npm run peeringdb:import -- FILE/),
    ]);
  }, 300_000);
});
