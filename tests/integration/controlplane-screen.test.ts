/**
 * The Control Plane screen's loader (/controlplane) on chDB with routing history this test
 * inserts: the dates with data, the reset and clamp rules, the new-data minutes, the rows of a
 * query checked against a filter of the inserted rows, paging, bad terms and the empty history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import { vantagePoints } from "~db/postgres/schema";
import { CONTROL_PLANE_PAGE_SIZE } from "~/features/controlplane/params";
import { NO_DATES_WITH_DATA } from "~/features/controlplane/screen.server";
import { MESSAGES } from "~/lib/messages";
import { toDateTimeField } from "~/lib/date-format";
import { useServicesForTests } from "~/server/services.server";
import { controlPlaneScreen, controlPlaneUser } from "../helpers/controlplane";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chInsert } from "~/server/clickhouse/query.server";

const T0 = 1_790_000_000;
const MIN = 60;

function row(prefix: string, timestamp: number, asPath: number[], withdrawn = 0): RibRow {
  const [addr, len] = prefix.split("/");
  return {
    timestamp,
    vantage_point: "fra1",
    router_ip: "192.0.2.1",
    peer_ip: "198.51.100.1",
    peer_asn: asPath[0] ?? 0,
    route_distinguisher: "",
    prefix,
    prefix_addr: addr,
    prefix_len: Number(len),
    afi: 1,
    safi: 1,
    is_withdrawn: withdrawn,
    as_path: asPath,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
  };
}

// 130 updates of 10.9.0.0/16 from AS 3320 every minute (3 pages), one other prefix, one other origin.
const ROWS: RibRow[] = [
  ...Array.from({ length: 130 }, (_, i) => row("10.9.0.0/16", T0 + i * MIN, [1299, 3320])),
  row("172.16.0.0/12", T0 + 5 * MIN, [174, 3320]),
  row("10.9.0.0/16", T0 + 7 * MIN, [174, 6939]),
];
const MAX = Math.max(...ROWS.map((r) => r.timestamp));
/** The screen's ranges are whole minutes: the default is the 60 minutes before the newest data's minute. */
const minute = (t: number) => t - (t % MIN);
const NEWEST = Math.ceil(MAX / MIN) * MIN;
const DEFAULT_RANGE = { start: minute(MAX - 3600), end: NEWEST };

let stores: TestStores;
let cookie = "";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(vantagePoints).values({
    key: "fra1",
    city: "Frankfurt",
    country: "Germany",
    router: "fra-er1",
    legacyDescription: "FRA-ER1 Frankfurt",
    description: "Frankfurt, Germany",
    ip: "192.0.2.1",
    isPublic: true,
  });
  cookie = await controlPlaneUser(stores, "cp-screen@cp.test");
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const screen = (search: string) => controlPlaneScreen(cookie, search);

describe("Control Plane screen", () => {
  it("an empty routing history: no dates with data", async () => {
    const data = await screen("queryType=AsPathQuery&queryTerm=3320");
    expect(data.dates).toBeNull();
    expect(data.status).toBe("NoData");
    expect(data.problem).toBe(NO_DATES_WITH_DATA);
  });

  it("without a query: Idle, the last 60 minutes of data and the new-data minutes", async () => {
    await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
    const data = await screen("");
    expect(data.status).toBe("Idle");
    expect(data.dates).toEqual({ min: T0, max: MAX });
    expect(data.range).toEqual(DEFAULT_RANGE);
    // Minutes since the newest data, read around the request (a minute may tick over meanwhile).
    const minutesAfter = Math.floor((Math.floor(Date.now() / 1000) - MAX) / 60);
    expect([minutesAfter - 1, minutesAfter]).toContain(data.minutesSinceNewest);
  });

  it("an AS path query over the whole history: the rows of a filter of the inserted rows, newest first, paged", async () => {
    const data = await screen(`queryType=AS_PATH_QUERY&queryTerm=${encodeURIComponent("* 3320")}&start=${T0}&end=${MAX}`);
    const expected = ROWS.filter((r) => r.as_path[r.as_path.length - 1] === 3320).sort((a, b) => b.timestamp - a.timestamp);
    expect(data.status).toBe("Completed");
    expect(data.notices).toEqual([]);
    expect(data.totalRows).toBe(expected.length);
    expect(data.pages).toBe(Math.ceil(expected.length / CONTROL_PLANE_PAGE_SIZE));
    expect(data.rows.map((r: { timestamp: number; prefix: string }) => `${r.timestamp} ${r.prefix}`)).toEqual(
      expected.slice(0, CONTROL_PLANE_PAGE_SIZE).map((r) => `${r.timestamp} ${r.prefix}`),
    );
    const last = await screen(`queryType=AsPathQuery&queryTerm=${encodeURIComponent("* 3320")}&start=${T0}&end=${MAX}&page=99`);
    expect(last.page).toBe(data.pages);
    expect(last.rows.length).toBe(expected.length - (data.pages - 1) * CONTROL_PLANE_PAGE_SIZE);
  });

  it("a start before the data is reset to 60 minutes before the newest, an end after it clamped", async () => {
    const data = await screen(`queryType=IpPrefixQuery&queryTerm=10.9.0.0/16&start=${T0 - 86_400}&end=${MAX + 86_400}`);
    expect(data.range).toEqual(DEFAULT_RANGE);
    expect(data.notices).toEqual([
      "The start (20.09.2026 14:13 UTC) is outside the routing data (21.09.2026 14:13 UTC – 21.09.2026 16:22 UTC); it was set to 60 minutes before the newest data: 21.09.2026 15:22 UTC – 21.09.2026 16:23 UTC.",
      "The end (22.09.2026 16:23 UTC) is after the newest routing data; it was set to the newest data: 21.09.2026 15:22 UTC – 21.09.2026 16:23 UTC.",
    ]);
    const expected = ROWS.filter(
      (r) => r.prefix === "10.9.0.0/16" && r.timestamp >= DEFAULT_RANGE.start && r.timestamp <= DEFAULT_RANGE.end,
    );
    expect(data.totalRows).toBe(expected.length);
  });

  it("times as the form's fields write them (dd.MM.yyyy HH:mm) and as links do (ISO) are read in the user's timezone (UTC here)", async () => {
    const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 16);
    const from = T0 - (T0 % 60) + 60; // whole minutes: the form's fields have no seconds
    const field = (t: number) => encodeURIComponent(toDateTimeField(t, "UTC"));
    for (const [start, end] of [
      [field(from), field(from + 540)],
      [iso(from), iso(from + 540)],
    ]) {
      const data = await screen(`queryType=IpPrefixQuery&queryTerm=172.16.0.0/12&start=${start}&end=${end}`);
      expect(data.range, start).toEqual({ start: from, end: from + 540 });
      expect(data.totalRows).toBe(1);
    }
  });

  it("no matching rows: NoData with the no-data message; a bad term: the field error", async () => {
    const none = await screen(`queryType=IpPrefixQuery&queryTerm=192.0.2.0/24&start=${T0}&end=${MAX}`);
    expect(none.status).toBe("NoData");
    expect(none.problem).toBe(MESSAGES.noDataForSearch);
    const bad = await screen(`queryType=IpPrefixQuery&queryTerm=10.9.0.0/99&start=${T0}&end=${MAX}`);
    expect(bad.status).toBe("Idle");
    expect(bad.termError).toBe("Network is not a CIDR or IP");
  });

  it("says which address values were not applied, with the value and what was used instead", async () => {
    const data = await screen("queryType=BOGUS&queryTerm=3320&dateRange=NEXT_CENTURY");
    expect(data.params.queryType).toBe("AsPathQuery");
    expect(data.range).toEqual(DEFAULT_RANGE);
    expect(data.notices).toEqual([
      "queryType=BOGUS in the address is not a query type; AS Path was used instead.",
      "dateRange=NEXT_CENTURY in the address is not a date range; 21.09.2026 15:22 UTC – 21.09.2026 16:23 UTC was used instead.",
    ]);
    const unreadable = await screen("queryTerm=3320&start=yesterday");
    expect(unreadable.notices).toEqual([
      "start=yesterday in the address is not a date (write 01.11.2026, 01.11.2026 14:00 or unix seconds); 21.09.2026 15:22 UTC – 21.09.2026 16:23 UTC was used instead.",
    ]);
  });

  it("accepts ISO dates in the address; an end before the start is swapped and said", async () => {
    const iso = await screen("queryType=IpPrefixQuery&queryTerm=172.16.0.0/12&start=2026-09-21T14:14&end=2026-09-21T14:30:00Z");
    expect(iso.notices).toEqual([]);
    expect(iso.range).toEqual({ start: Date.UTC(2026, 8, 21, 14, 14) / 1000, end: Date.UTC(2026, 8, 21, 14, 30) / 1000 });
    expect(iso.totalRows).toBe(1);
    const swapped = await screen("queryType=IpPrefixQuery&queryTerm=172.16.0.0/12&start=2026-09-21T14:30&end=2026-09-21T14:14");
    expect(swapped.range).toEqual(iso.range);
    expect(swapped.notices).toEqual([
      "The end (21.09.2026 14:14 UTC) was before the start (21.09.2026 14:30 UTC); the two were swapped: 21.09.2026 14:14 UTC – 21.09.2026 14:30 UTC.",
    ]);
    expect(swapped.notices.join(" ")).not.toContain("newest data");
  });

  it("names vantage points 'Router City, Country' and picks the table's columns from the address", async () => {
    const data = await screen(`queryType=IpPrefixQuery&queryTerm=172.16.0.0/12&start=${T0}&end=${MAX}`);
    expect(data.vantagePointNames).toEqual({ fra1: "fra-er1 Frankfurt, Germany" });
    expect(data.columns).toEqual(["timestamp", "vantagePoint", "withdrawn", "prefix", "ASPathSeq", "BGPNextHop"]);
    const picked = await screen(
      `queryType=IpPrefixQuery&queryTerm=172.16.0.0/12&start=${T0}&end=${MAX}&columns=communityIndex&columns=prefix&columns=nonsense`,
    );
    expect(picked.columns).toEqual(["prefix", "communityIndex"]);
  });
});
