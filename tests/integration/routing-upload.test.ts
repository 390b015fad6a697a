/**
 * The administrators' MRT upload (/site-settings/routing-data): a multipart form streamed into the
 * importer — counts and rows read back from rib_entries, admins only, the CSRF field, an unknown
 * vantage point, a file that is not MRT, an empty file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, vantagePoints } from "~db/postgres/schema";
import { controlPlaneQuery } from "~/features/routing/controlplane.server";
import { runLookingGlassQuery } from "~/features/routing/lookingglass.server";
import * as uploadRoute from "~/routes/_app.site-settings_.routing-data";
import { useServicesForTests } from "~/server/services.server";
import { attributes, bgp4mpUpdate, gzip, peerIndexTable, ribRecord } from "../fixtures/mrt";
import { CSRF_TOKEN, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const cookies = { admin: "", user: "" };

const SESSION = { peerAsn: 64496, localAsn: 64500, peerIp: "198.51.100.10", localIp: "198.51.100.1" };
/** A dump of two prefixes from one peer, then one update withdrawing one and announcing another. */
function fixture(): Buffer {
  const attrs = (path: number[]) => attributes({ origin: 0, asPath: [{ type: "sequence", asns: path }], nextHop: "198.51.100.10" });
  return Buffer.concat([
    peerIndexTable({
      timestamp: 1_700_000_000,
      collectorId: "198.51.100.1",
      peers: [{ bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 }],
    }),
    ribRecord({
      timestamp: 1_700_000_000,
      sequence: 0,
      prefix: "192.0.2.0/24",
      entries: [{ peerIndex: 0, originatedTime: 1_699_999_000, attributes: attrs([64496, 3320]) }],
    }),
    ribRecord({
      timestamp: 1_700_000_000,
      sequence: 1,
      prefix: "198.18.0.0/15",
      entries: [{ peerIndex: 0, originatedTime: 1_699_999_500, attributes: attrs([64496, 174, 6939]) }],
    }),
    bgp4mpUpdate({
      timestamp: 1_700_000_600,
      session: SESSION,
      withdrawn: ["198.18.0.0/15"],
      attributes: attrs([64496, 1299]),
      nlri: ["203.0.113.0/24"],
    }),
  ]);
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db
    .insert(vantagePoints)
    .values({ key: "upl1", city: "Frankfurt", country: "Germany", router: "upl-r1", ip: "198.51.100.1" });
  const [admin] = await stores.pg.db
    .insert(users)
    .values({ email: "admin@upload.test", firstName: "A", passwordHash: "!unusable", hasConsented: true, isStaff: true })
    .returning({ id: users.id });
  const [user] = await stores.pg.db
    .insert(users)
    .values({ email: "user@upload.test", firstName: "U", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  cookies.admin = await sessionCookie(stores, admin.id);
  cookies.user = await sessionCookie(stores, user.id);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

function upload(file: { name: string; bytes: Buffer } | null, options: { vantagePoint?: string; csrf?: string; cookie?: string } = {}) {
  const form = new FormData();
  form.set("csrfmiddlewaretoken", options.csrf ?? CSRF_TOKEN);
  form.set("vantagePoint", options.vantagePoint ?? "upl1");
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  return runRoute(
    uploadRoute.action,
    new Request(`${ORIGIN}/site-settings/routing-data`, {
      method: "POST",
      body: form,
      headers: { Cookie: options.cookie ?? cookies.admin },
    }),
  );
}

describe("MRT upload", () => {
  it("imports a gzip file and reports what it read; the rows are in rib_entries", async () => {
    const out = await upload({ name: "sample.mrt.gz", bytes: gzip(fixture()) });
    expect(out.status).toBe(200);
    expect(out.data.error).toBeNull();
    expect(out.data.summary).toMatchObject({
      fileName: "sample.mrt.gz",
      vantagePoint: "upl1",
      compression: "gzip",
      records: 4,
      announcements: 3,
      withdrawals: 1,
      errors: 0,
      rowsWritten: 4,
      stoppedEarly: null,
    });
    const rows = await chRows<{ prefix: string; w: number; path: string }>(
      stores,
      "SELECT prefix, is_withdrawn AS w, arrayStringConcat(as_path, ' ') AS path FROM rib_entries WHERE vantage_point = 'upl1' ORDER BY timestamp, prefix",
    );
    expect(rows.map((r) => `${r.prefix} ${r.w} ${r.path}`)).toEqual([
      "192.0.2.0/24 0 64496 3320",
      "198.18.0.0/15 0 64496 174 6939",
      "198.18.0.0/15 1 ",
      "203.0.113.0/24 0 64496 1299",
    ]);
  });

  it("the Looking Glass and the Control Plane answer from the imported file", async () => {
    // Current state: 192.0.2.0/24 and 203.0.113.0/24 announced, 198.18.0.0/15 withdrawn by the update.
    const lpm = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: "192.0.2.77",
      vantagePoints: ["upl1"],
    });
    expect(lpm.results.upl1).toMatchObject([{ Prefix: "192.0.2.0/24", "BGP as_path": "64496 3320" }]);
    const withdrawn = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: "198.18.0.0/15",
      vantagePoints: ["upl1"],
    });
    expect(withdrawn.results.upl1).toBe("VantagePointWithNoData");
    const byPath = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "AsPathQuery",
      queryTerm: "64496 *",
      vantagePoints: ["upl1"],
    });
    expect((byPath.results.upl1 as { Prefix: string }[]).map((r) => r.Prefix).sort()).toEqual(["192.0.2.0/24", "203.0.113.0/24"]);
    // History: the announcement of 198.18.0.0/15 from the dump and its withdrawal from the update.
    const history = await controlPlaneQuery(stores, {
      queryType: "IpPrefixQuery",
      queryTerm: "198.18.0.0/15",
      startDate: 1_699_000_000,
      endDate: 1_701_000_000,
    });
    expect(history.data.map((r) => [r.timestamp, r.withdrawn])).toEqual([
      [1_700_000_600, true],
      [1_699_999_500, false],
    ]);
  });

  it("refuses users who are not administrators, and a wrong CSRF field", async () => {
    const denied = await upload({ name: "x.mrt", bytes: fixture() }, { cookie: cookies.user });
    expect(denied.status).toBe(403);
    const csrf = await upload({ name: "x.mrt", bytes: fixture() }, { csrf: "not-the-token" });
    expect(csrf.status).toBe(403);
    expect(csrf.data.exception_code).toBe("csrf_failed");
  });

  it("explains an unknown vantage point, a file that is not MRT, an empty file and a missing file", async () => {
    const unknown = await upload({ name: "x.mrt", bytes: fixture() }, { vantagePoint: "nowhere" });
    expect(unknown.status).toBe(400);
    expect(unknown.data.error).toMatch(/unknown vantage point "nowhere"; known: upl1/);
    const garbage = await upload({ name: "notes.txt", bytes: Buffer.from("this is not an MRT file at all, just some text that goes on") });
    expect(garbage.status).toBe(400);
    expect(garbage.data.error.length).toBeGreaterThan(10);
    const empty = await upload({ name: "empty.mrt", bytes: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    expect(empty.data.error).toMatch(/holds no MRT records|empty/i);
    const none = await upload(null);
    expect(none.status).toBe(400);
    expect(none.data.error).toBe("Choose an MRT file to upload.");
  });
});
