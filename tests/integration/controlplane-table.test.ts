/**
 * The Control Plane table's sorting and filters (/controlplane?sort=…&order=…&q=…&localPref=…) on
 * chDB with routing history this test inserts: every order and filter is checked against the same
 * sort or filter computed here over the inserted rows, across both pages; values that cannot apply
 * are reported with the spec's message instead of being dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import { vantagePoints } from "~db/postgres/schema";
import { CONTROL_PLANE_PAGE_SIZE } from "~/features/controlplane/params";
import { MESSAGES } from "~/lib/messages";
import * as screenRoute from "~/routes/_app.controlplane";
import { BODY_TEXTS } from "~/server/request-body.server";
import { useServicesForTests } from "~/server/services.server";
import { controlPlaneScreen, controlPlaneUser } from "../helpers/controlplane";
import { ORIGIN, runRoute } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chInsert } from "~/server/clickhouse/query.server";

const T0 = 1_790_000_000;
/** Keys sort the other way round from the names the table shows. */
const VANTAGE_POINTS = {
  "a-vp": { router: "zrh-er1", city: "Zurich", country: "Switzerland", ip: "198.18.0.1" },
  "z-vp": { router: "ams-er1", city: "Amsterdam", country: "Netherlands", ip: "198.18.0.2" },
} as const;
const shownName = (key: keyof typeof VANTAGE_POINTS) =>
  `${VANTAGE_POINTS[key].router} ${VANTAGE_POINTS[key].city}, ${VANTAGE_POINTS[key].country}`;

/** 70 updates (two pages): prefixes and next hops whose text order is not their address order, withdrawals among them. */
const ROWS: RibRow[] = Array.from({ length: 70 }, (_, i) => {
  const vp = i % 3 === 0 ? "a-vp" : "z-vp";
  const octet = [2, 10, 33, 4, 100][i % 5];
  const len = 16 + (i % 3) * 4;
  const withdrawn = i % 11 === 5;
  return {
    timestamp: T0 + i * 60,
    vantage_point: vp,
    router_ip: VANTAGE_POINTS[vp].ip,
    peer_ip: "198.51.100.1",
    peer_asn: 1299,
    route_distinguisher: "",
    prefix: `10.${octet}.0.0/${len}`,
    prefix_addr: `10.${octet}.0.0`,
    prefix_len: len,
    afi: 1,
    safi: 1,
    is_withdrawn: withdrawn ? 1 : 0,
    as_path: withdrawn ? [] : i % 2 ? [1299, 3320] : [174, 6939 + (i % 3)],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: withdrawn ? 0 : (i * 37) % 250,
    med: 0,
    bgp_next_hop: withdrawn ? "" : `192.0.2.${((i * 13) % 30) + 1}`,
    origin: i % 7 === 0 ? "EGP" : "IGP",
    aggregator: "",
    originator_id: "",
    communities: withdrawn ? [] : i % 4 === 0 ? ["3320:100", "65000:7"] : [`65000:${i % 9}`],
    expire_at: 0,
  };
});
const END = T0 + 70 * 60;
const QUERY = `queryType=IpPrefixQuery&queryTerm=10.0.0.0/8&start=${T0}&end=${END}`;

// ---- The independent computation: orders and filters written over the inserted rows.
type Key = number | string | number[];
const ipNumber = (ip: string) => (ip ? ip.split(".").reduce((n, o) => n * 256 + Number(o), 0) : -1);
function compare(a: Key, b: Key): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
const SORT_KEY: Record<string, (r: RibRow) => Key> = {
  timestamp: (r) => r.timestamp,
  vantagePoint: (r) => shownName(r.vantage_point as keyof typeof VANTAGE_POINTS),
  prefix: (r) => [ipNumber(r.prefix_addr), r.prefix_len],
  localPref: (r) => r.local_pref,
  BGPNextHop: (r) => ipNumber(r.bgp_next_hop),
  ASPathSeq: (r) => r.as_path,
  communityIndex: (r) => r.communities.join("\u0000"),
  withdrawn: (r) => r.is_withdrawn,
};
/** Path attributes of a withdrawal are empty cells: last in either direction. */
const PATH_ATTRIBUTE = new Set(["localPref", "BGPNextHop", "ASPathSeq", "communityIndex"]);
function expectedOrder(rows: RibRow[], column: string, order: "asc" | "desc"): RibRow[] {
  const sign = order === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (PATH_ATTRIBUTE.has(column) && a.is_withdrawn !== b.is_withdrawn) return a.is_withdrawn - b.is_withdrawn;
    return sign * compare(SORT_KEY[column](a), SORT_KEY[column](b)) || b.timestamp - a.timestamp;
  });
}
function shownTexts(r: RibRow): string[] {
  const texts = [
    r.prefix,
    r.router_ip,
    r.is_withdrawn ? "Withdrawn" : "Announced",
    shownName(r.vantage_point as keyof typeof VANTAGE_POINTS),
  ];
  if (!r.is_withdrawn) texts.push(r.as_path.join(" "), r.bgp_next_hop, String(r.local_pref), r.origin, r.communities.join(" "));
  return texts;
}
const contains = (r: RibRow, text: string) => shownTexts(r).some((t) => t.toLowerCase().includes(text.toLowerCase()));
const identity = (r: { timestamp: number; prefix: string }) => `${r.timestamp} ${r.prefix}`;

let stores: TestStores;
let cookie = "";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  for (const [key, vp] of Object.entries(VANTAGE_POINTS)) {
    await stores.pg.db.insert(vantagePoints).values({
      key,
      city: vp.city,
      country: vp.country,
      router: vp.router,
      legacyDescription: key,
      description: `${vp.city}, ${vp.country}`,
      ip: vp.ip,
      isPublic: true,
    });
  }
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
  cookie = await controlPlaneUser(stores, "cp-table@cp.test");
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const screen = (search: string) => controlPlaneScreen(cookie, search);

/** Every row of a table state, page after page. */
async function allRows(search: string): Promise<string[]> {
  const first = await screen(search);
  const rows = [...first.rows];
  for (let page = 2; page <= first.pages; page++) rows.push(...(await screen(`${search}&page=${page}`)).rows);
  expect(rows.length).toBe(first.totalRows);
  return rows.map(identity);
}

describe("Control Plane table: sorting and filters in the address", () => {
  it("sorts by each column in both directions as the table shows the values, across the pages", async () => {
    for (const column of Object.keys(SORT_KEY)) {
      for (const order of ["asc", "desc"] as const) {
        const got = await allRows(`${QUERY}&sort=${column}&order=${order}`);
        expect(got, `${column} ${order}`).toEqual(expectedOrder(ROWS, column, order).map(identity));
      }
    }
    const first = await screen(`${QUERY}&sort=localPref&order=desc`);
    expect(first.pages).toBe(2);
    expect(first.rows.length).toBe(CONTROL_PLANE_PAGE_SIZE);
    expect(first.table).toMatchObject({ sort: "localPref", order: "desc" });
  });

  it("without a sort: newest first; a column alone starts in its first direction", async () => {
    expect(await allRows(QUERY)).toEqual(expectedOrder(ROWS, "timestamp", "desc").map(identity));
    expect(await allRows(`${QUERY}&sort=prefix`)).toEqual(expectedOrder(ROWS, "prefix", "asc").map(identity));
  });

  it("'>' and '<' filters on the local preference and the search text keep the rows that pass", async () => {
    const above = await allRows(`${QUERY}&localPref=${encodeURIComponent(">150")}&sort=localPref&order=asc`);
    expect(above).toEqual(
      expectedOrder(
        ROWS.filter((r) => !r.is_withdrawn && r.local_pref > 150),
        "localPref",
        "asc",
      ).map(identity),
    );
    expect(above.length).toBeGreaterThan(0);
    const below = await allRows(`${QUERY}&localPref=${encodeURIComponent("< 100")}&q=3320:100`);
    const expectedBelow = ROWS.filter((r) => !r.is_withdrawn && r.local_pref < 100 && contains(r, "3320:100"));
    expect(below).toEqual(expectedOrder(expectedBelow, "timestamp", "desc").map(identity));
    expect(below.length).toBeGreaterThan(0);
    for (const text of ["zurich", "192.0.2.1", "withdrawn", "EGP", "1299 3320"]) {
      const got = await allRows(`${QUERY}&q=${encodeURIComponent(text)}`);
      const expected = ROWS.filter((r) => contains(r, text));
      expect(got, text).toEqual(expectedOrder(expected, "timestamp", "desc").map(identity));
      expect(expected.length, text).toBeGreaterThan(0);
      expect(expected.length, text).toBeLessThan(ROWS.length);
    }
    const data = await screen(`${QUERY}&q=${encodeURIComponent("no such text")}`);
    expect(data.status).toBe("NoData");
    expect(data.problem).toBe(MESSAGES.noDataForSearch);
    expect(data.table.search).toBe("no such text");
  });

  it("reports a filter or sort that cannot apply with the spec's message, and applies the rest", async () => {
    const data = await screen(`${QUERY}&localPref=${encodeURIComponent("=100")}&sort=bogus&order=up&q=zurich`);
    expect(data.table.errors).toEqual({ localPref: "=100 is not a valid Local preference input" });
    expect(data.notices).toEqual([
      "sort=bogus in the address is not a column; the rows are sorted by Time, newest first.",
      "order=up in the address is not a sort order (asc or desc); descending was used.",
      "=100 is not a valid Local preference input",
    ]);
    expect(data.totalRows).toBe(ROWS.filter((r) => contains(r, "zurich")).length);
    for (const bad of [">", "100", ">5%", ">2 bit/s", "<>3", ">abc"]) {
      const out = await screen(`${QUERY}&localPref=${encodeURIComponent(bad)}`);
      expect(out.table.errors.localPref, bad).toBe(`${bad.trim()} is not a valid Local preference input`);
      expect(out.totalRows, bad).toBe(ROWS.length);
    }
    // A NUL is refused before the screen reads the address, as on every screen (requireUser): a 400 naming the parameter.
    const nul = await runRoute(
      screenRoute.loader,
      new Request(`${ORIGIN}/controlplane?${QUERY}&q=${encodeURIComponent("ab\u0000c")}`, { headers: { Cookie: cookie } }),
    );
    expect(nul.status).toBe(400);
    expect(nul.data.errors).toEqual([{ field: "q", message: BODY_TEXTS.fieldControlCharacter }]);
  });
});
