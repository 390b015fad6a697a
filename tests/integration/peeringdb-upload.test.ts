/**
 * PeeringDB's JSON imported on /site-settings/routing-data (the PeeringDB section's upload,
 * streamed into the importer) and by the daily sync from PEERINGDB_SYNC_URL (here a local HTTP
 * server): the objects stored and the section's dump date and counts against the fixture, the
 * replace, bad and too large files refused with their reason and the previous import whole, who
 * may upload, the audit entry, and failed syncs (HTTP 500, a bad answer, an unreachable address)
 * that keep the previous import and show the attempt.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, peeringDbImport, peeringDbObjects, systemState, users } from "~db/postgres/schema";
import { PEERINGDB_SYNC_KEY, peeringDbSyncTask, syncDue, syncPeeringDb } from "~/features/routing/peeringdb/sync.server";
import { formatDateLongBare } from "~/lib/date-format";
import * as routingDataRoute from "~/routes/_app.site-settings_.routing-data";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, ORIGIN, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { FIXTURE, FIXTURE_GENERATED, fixtureAnswer, fixtureDump } from "../helpers/peeringdb-fixture";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let server: Server;
let base = "";
const cookies = { admin: "", superuser: "", user: "" };
/** What the local server answers per path: status and body. */
const answers = new Map<string, { status: number; body: string }>();

/** The fixture's objects but the deleted ones, per type (the section's counts, recomputed). */
const live = (kind: keyof typeof FIXTURE) => FIXTURE[kind].filter((o) => o.status !== "deleted").length;

async function storedIds(): Promise<string[]> {
  const rows = await stores.pg.db.select({ kind: peeringDbObjects.kind, id: peeringDbObjects.id }).from(peeringDbObjects);
  return rows.map((r) => `${r.kind} ${r.id}`).sort();
}

/** The upload as the section's form sends it: intent first, then the CSRF field, then the file. */
function upload(file: { name: string; text: string } | null, cookie = cookies.admin) {
  const form = new FormData();
  form.set("intent", "peeringdb-import");
  form.set("csrfmiddlewaretoken", CSRF_TOKEN);
  if (file) form.set("peeringdbFile", new Blob([file.text]), file.name);
  return runRoute(
    routingDataRoute.action,
    new Request(`${ORIGIN}/site-settings/routing-data`, { method: "POST", body: form, headers: { Cookie: cookie } }),
  );
}

const screen = async (cookie = cookies.admin) =>
  (await runRoute(routingDataRoute.loader, getRequest("/site-settings/routing-data", cookie))).data;

/** A dump of one network only (the fixture's first), dated `generated`. */
const oneNetDump = (generated: number) =>
  JSON.stringify({ net: { data: [FIXTURE.net[0]], meta: { generated } }, org: { data: [FIXTURE.org[0]], meta: { generated } } });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/slow") return; // never answers
    if (req.url === "/private.json" && req.headers.authorization !== `Basic ${Buffer.from("mirror:s3cr:t").toString("base64")}`) {
      res.writeHead(401).end();
      return;
    }
    const answer = answers.get(req.url ?? "") ?? { status: 404, body: "not found" };
    res.writeHead(answer.status, { "Content-Type": "application/json" });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stores = await openTestStores({ env: { PEERINGDB_SYNC_URL: `${base}/peeringdb.json`, MAX_PEERINGDB_UPLOAD: "1m" } });
  useServicesForTests(stores);
  const account = async (email: string, flags: { isStaff?: boolean; isSuperuser?: boolean }) => {
    const [row] = await stores.pg.db
      .insert(users)
      .values({ email, firstName: "P", passwordHash: "!unusable", hasConsented: true, ...flags })
      .returning({ id: users.id });
    return sessionCookie(stores, row.id);
  };
  cookies.admin = await account("staff@pdb-upload.test", { isStaff: true });
  cookies.superuser = await account("root@pdb-upload.test", { isSuperuser: true });
  cookies.user = await account("user@pdb-upload.test", {});
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
}, 60_000);

describe("PeeringDB upload", () => {
  it("before any import the section says so, names the sync address and the size limit", async () => {
    const data = await screen();
    expect(data.peeringdb).toMatchObject({ current: null, maxFileMegabytes: 1, sync: { url: `${base}/peeringdb.json`, last: null } });
  });

  it("imports a dump streamed from the form; the section shows its date, who imported it and the counts; an audit entry", async () => {
    const res = await upload({ name: "peeringdb-dump.json", text: fixtureDump() });
    expect(res.status).toBe(200);
    expect(res.data.peeringdb).toMatchObject({
      error: null,
      summary: { source: "peeringdb-dump.json", dumpDate: new Date(FIXTURE_GENERATED * 1000).toISOString(), replaced: 0, skipped: 1 },
    });
    const expectedIds = Object.entries(FIXTURE)
      .flatMap(([kind, list]) => list.filter((o) => o.status !== "deleted").map((o) => `${kind} ${o.id}`))
      .sort();
    expect(await storedIds()).toEqual(expectedIds);
    const data = await screen();
    const tz = data.peeringdb.timezone;
    expect(data.peeringdb.current).toEqual({
      dumpDate: formatDateLongBare(new Date(FIXTURE_GENERATED * 1000), tz),
      importedAt: expect.any(String),
      importedBy: "staff@pdb-upload.test",
      source: "peeringdb-dump.json",
      counts: [
        { kind: "net", label: "Networks", value: String(live("net")) },
        { kind: "ix", label: "Exchanges", value: String(live("ix")) },
        { kind: "fac", label: "Facilities", value: String(live("fac")) },
        { kind: "netixlan", label: "Exchange ports (netixlan)", value: String(live("netixlan")) },
        { kind: "netfac", label: "Facility presences (netfac)", value: String(live("netfac")) },
      ],
      objects: String(expectedIds.length),
    });
    const [row] = await stores.pg.db.select().from(peeringDbImport);
    expect(data.peeringdb.current.importedAt).toBe(formatDateLongBare(row.importedAt, tz));
    const entries = await stores.pg.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "peeringdb.import"), eq(auditLog.actorEmail, "staff@pdb-upload.test")));
    expect(entries).toHaveLength(1);
    expect(entries[0].after).toMatchObject({ net: live("net"), source: "peeringdb-dump.json" });
  });

  it("a superuser's per-object answer replaces the whole previous import", async () => {
    const res = await upload({ name: "net.json", text: fixtureAnswer("net") }, cookies.superuser);
    expect(res.status).toBe(200);
    expect(res.data.peeringdb.summary).toMatchObject({ source: "net.json", replaced: Object.values(FIXTURE).flat().length - 1 });
    expect(await storedIds()).toEqual(FIXTURE.net.filter((o) => o.status !== "deleted").map((o) => `net ${o.id}`));
    const data = await screen();
    expect(data.peeringdb.current).toMatchObject({ importedBy: "root@pdb-upload.test", source: "net.json", objects: String(live("net")) });
    expect(data.peeringdb.current.counts.map((c: { value: string }) => c.value)).toEqual([String(live("net")), "0", "0", "0", "0"]);
  });

  it("refuses bad files with the reason (400) and keeps the previous import whole", async () => {
    await upload({ name: "peeringdb-dump.json", text: fixtureDump() });
    const before = await storedIds();
    const [importBefore] = await stores.pg.db.select().from(peeringDbImport);
    const badObject = JSON.parse(fixtureDump());
    badObject.netixlan.data.push({ id: 599, net_id: 100, ixlan_id: 300, asn: "lots", status: "ok" });
    const cases: [string, string, RegExp][] = [
      ["truncated.json", fixtureDump().slice(0, 500), /truncated\.json/],
      ["notes.json", "this is not JSON", /notes\.json/],
      ["bad-object.json", JSON.stringify(badObject), /bad-object\.json was not imported: 1 bad objects/],
      ["empty.json", "", /empty\.json/],
    ];
    for (const [name, text, reason] of cases) {
      const res = await upload({ name, text });
      expect(res.status, name).toBe(400);
      expect(res.data.peeringdb.summary).toBeNull();
      expect(res.data.peeringdb.error).toMatch(reason);
      expect(res.data.peeringdb.error).toMatch(/Nothing was changed: the previous import stays\.$/);
    }
    const refused = await upload({ name: "bad-object.json", text: JSON.stringify(badObject) });
    expect(refused.data.peeringdb.problems).toEqual(['bad-object.json: netixlan 599: asn is not a valid number ("lots")']);
    expect(await storedIds()).toEqual(before);
    const [importAfter] = await stores.pg.db.select().from(peeringDbImport);
    expect(importAfter).toEqual(importBefore);
  });

  it("refuses a file above MAX_PEERINGDB_UPLOAD with 413, declared or found while it streams, and no file with 400", async () => {
    const before = await storedIds();
    const big = JSON.parse(fixtureDump());
    big.net.data[0].notes = "x".repeat(1100 * 1024);
    const res = await upload({ name: "big.json", text: JSON.stringify(big) });
    expect(res.status).toBe(413);
    expect(res.data.peeringdb.error).toBe("The file is larger than 1 MB (MAX_PEERINGDB_UPLOAD).");
    // The same body without Content-Length: the limit stops the import midway, which is rolled back.
    const form = new FormData();
    form.set("intent", "peeringdb-import");
    form.set("csrfmiddlewaretoken", CSRF_TOKEN);
    form.set("peeringdbFile", new Blob([JSON.stringify(big)]), "big.json");
    const encoded = new Response(form);
    const streamed = await runRoute(
      routingDataRoute.action,
      new Request(`${ORIGIN}/site-settings/routing-data`, {
        method: "POST",
        body: encoded.body,
        headers: { Cookie: cookies.admin, "Content-Type": encoded.headers.get("Content-Type")! },
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(streamed.data.peeringdb.error).toBe("The file is larger than 1 MB (MAX_PEERINGDB_UPLOAD).");
    expect(await storedIds()).toEqual(before);
    const none = await upload(null);
    expect(none.status).toBe(400);
    expect(none.data.peeringdb.error).toBe("Choose a PeeringDB JSON file to upload.");
  });

  it("is for staff and superusers only: 403 for others, nothing changed", async () => {
    const before = await storedIds();
    const res = await upload({ name: "net.json", text: fixtureAnswer("net") }, cookies.user);
    expect(res.status).toBe(403);
    expect(await storedIds()).toEqual(before);
    expect((await runRoute(routingDataRoute.loader, getRequest("/site-settings/routing-data", cookies.user))).status).toBe(403);
  });
});

describe("daily sync from PEERINGDB_SYNC_URL", () => {
  it("imports what the address serves, by 'daily sync', and the section shows the attempt", async () => {
    answers.set("/peeringdb.json", { status: 200, body: oneNetDump(1_795_000_000) });
    expect(await syncDue(stores)).toBe(true);
    const attempt = await syncPeeringDb(stores, { now: new Date("2026-12-04T03:00:00Z") });
    expect(attempt).toMatchObject({ ok: true, at: "2026-12-04T03:00:00.000Z" });
    expect(await storedIds()).toEqual([`net ${FIXTURE.net[0].id}`, `org ${FIXTURE.org[0].id}`]);
    const [row] = await stores.pg.db.select().from(peeringDbImport);
    expect(row).toMatchObject({ importedBy: "daily sync", source: `${base}/peeringdb.json`, dumpDate: new Date(1_795_000_000_000) });
    expect(await syncDue(stores, new Date("2026-12-05T02:59:00Z"))).toBe(false);
    expect(await syncDue(stores, new Date("2026-12-05T03:00:00Z"))).toBe(true);
    const data = await screen();
    const tz = data.peeringdb.timezone;
    expect(data.peeringdb.current).toMatchObject({
      importedBy: "daily sync",
      dumpDate: formatDateLongBare(new Date(1_795_000_000_000), tz),
    });
    expect(data.peeringdb.sync.last).toEqual({
      at: formatDateLongBare(new Date("2026-12-04T03:00:00Z"), tz),
      ok: true,
      message: expect.stringContaining(`imported from ${base}/peeringdb.json`),
    });
    // User name and password of the address go as basic authentication, and are neither stored nor shown.
    answers.set("/private.json", { status: 200, body: oneNetDump(1_795_000_000) });
    const withCredentials = {
      ...stores,
      config: { ...stores.config, PEERINGDB_SYNC_URL: `http://mirror:s3cr%3At@${base.slice(7)}/private.json` },
    };
    expect(await syncPeeringDb(withCredentials)).toMatchObject({ ok: true });
    const [privateRow] = await stores.pg.db.select().from(peeringDbImport);
    expect(privateRow.source).toBe(`${base}/private.json`);
    expect(JSON.stringify(await stores.pg.db.select().from(auditLog))).not.toContain("s3cr");
  });

  it("a failed attempt (HTTP 500, a bad answer, an unreachable address) keeps the previous import and is shown", async () => {
    const before = await storedIds();
    const [importBefore] = await stores.pg.db.select().from(peeringDbImport);
    answers.set("/peeringdb.json", { status: 500, body: "{}" });
    const failed = await syncPeeringDb(stores);
    expect(failed).toMatchObject({
      ok: false,
      message: `${base}/peeringdb.json answered HTTP 500 Internal Server Error; the previous import stays`,
    });
    answers.set("/peeringdb.json", { status: 200, body: '{"net": {"data": [{"id": 1' });
    const bad = await syncPeeringDb(stores);
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(new RegExp(`^${base}/peeringdb\\.json: .*; the previous import stays$`));
    answers.set("/peeringdb.json", {
      status: 200,
      body: JSON.stringify({ net: { data: [{ ...FIXTURE.net[0], notes: "x".repeat(1100 * 1024) }] } }),
    });
    const large = await syncPeeringDb(stores);
    expect(large).toMatchObject({
      ok: false,
      message: `${base}/peeringdb.json: the answer is larger than 1,048,576 bytes (MAX_PEERINGDB_UPLOAD); the previous import stays`,
    });
    const slow = await syncPeeringDb({ ...stores, config: { ...stores.config, PEERINGDB_SYNC_URL: `${base}/slow` } }, { timeoutMs: 300 });
    expect(slow).toMatchObject({
      ok: false,
      message: `${base}/slow: no complete answer within the time allowed; the previous import stays`,
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await syncPeeringDb({
      ...stores,
      config: { ...stores.config, PEERINGDB_SYNC_URL: `http://127.0.0.1:${closedPort}/x.json` },
    });
    expect(unreachable).toMatchObject({
      ok: false,
      message: `http://127.0.0.1:${closedPort}/x.json unreachable (ECONNREFUSED); the previous import stays`,
    });
    expect(await storedIds()).toEqual(before);
    const [importAfter] = await stores.pg.db.select().from(peeringDbImport);
    expect(importAfter).toEqual(importBefore);
    const data = await screen();
    expect(data.peeringdb.sync.last).toMatchObject({ ok: false, message: unreachable.message });
  });

  it("the background task runs on the component host and fetches only when the last attempt is a day old", async () => {
    expect(peeringDbSyncTask.where).toBe("component host");
    answers.set("/peeringdb.json", { status: 200, body: oneNetDump(1_797_000_000) });
    const [before] = await stores.pg.db.select().from(peeringDbImport);
    // The last attempt (the previous test's) is recent: starting the task fetches nothing.
    peeringDbSyncTask.start(stores);
    await peeringDbSyncTask.stop();
    expect(await stores.pg.db.select().from(peeringDbImport)).toEqual([before]);
    const dayAgo = { at: new Date(Date.now() - 25 * 3600_000).toISOString(), ok: false, message: "earlier" };
    await stores.pg.db.update(systemState).set({ value: dayAgo }).where(eq(systemState.key, PEERINGDB_SYNC_KEY));
    peeringDbSyncTask.start(stores);
    await peeringDbSyncTask.stop();
    const [after] = await stores.pg.db.select().from(peeringDbImport);
    expect(after).toMatchObject({ importedBy: "daily sync", generation: before.generation + 1, dumpDate: new Date(1_797_000_000_000) });
    expect((await screen()).peeringdb.sync.last).toMatchObject({ ok: true });
    // Without PEERINGDB_SYNC_URL the task does nothing, even when an attempt is due.
    await stores.pg.db.update(systemState).set({ value: dayAgo }).where(eq(systemState.key, PEERINGDB_SYNC_KEY));
    peeringDbSyncTask.start({ ...stores, config: { ...stores.config, PEERINGDB_SYNC_URL: undefined } });
    await peeringDbSyncTask.stop();
    expect(await stores.pg.db.select().from(peeringDbImport)).toEqual([after]);
    expect((await screen()).peeringdb.sync.last).toMatchObject({ ok: false, message: "earlier" });
  });
});
