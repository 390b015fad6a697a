/**
 * The Raw Network Analyzer screen (/rna) on chDB with raw flow records this test inserts: every
 * figure of the page — the rows and their cells, the total, the sums, what the routers dropped,
 * prefix-aggregated groups, the timeseries of a page, the export — against an independent
 * recomputation from the inserted records; the filters of the address, keyset pages, a delegated
 * user's view (only records inside the restriction), and the notices for values that cannot apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { RibRow } from "~db/demo/rib";
import {
  asInfo,
  delegationRestrictions,
  rnaQueryHistory,
  routers,
  routerVrfs,
  siteSettings,
  userPermissions,
  users,
  vantagePoints,
} from "~db/postgres/schema";
import { rnaHistoryPage } from "~/features/rna/history.server";
import type { RnaScreen } from "~/features/rna/screen.server";
import * as exportRoute from "~/routes/rna.export";
import * as route from "~/routes/_app.rna";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { readCsv } from "../helpers/csv";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const NOW = Math.floor(Date.now() / 1000);
const MIN = 60;

type Fixture = {
  t: number;
  exporter: string;
  src: string;
  dst: string;
  v: 4 | 6;
  proto: number;
  sport: number;
  dport: number;
  bytes: number;
  packets: number;
  rate: number;
  asDst: number;
  counted?: 0 | 1;
  status?: number;
};

/** IPv4 addresses as the collector stores them: IPv4-mapped. */
const stored = (f: Fixture, a: string) => (f.v === 4 ? `::ffff:${a}` : a);

const RECORDS: Fixture[] = [
  {
    t: NOW - 10 * MIN,
    exporter: "edge-1",
    src: "10.1.2.3",
    dst: "192.0.2.10",
    v: 4,
    proto: 6,
    sport: 51000,
    dport: 443,
    bytes: 1000,
    packets: 10,
    rate: 10,
    asDst: 64500,
    status: 64,
  },
  {
    t: NOW - 9 * MIN,
    exporter: "edge-1",
    src: "10.1.2.4",
    dst: "192.0.2.11",
    v: 4,
    proto: 17,
    sport: 53000,
    dport: 53,
    bytes: 200,
    packets: 2,
    rate: 100,
    asDst: 64501,
  },
  {
    t: NOW - 8 * MIN,
    exporter: "edge-2",
    src: "2001:db8::1",
    dst: "2001:db8:1::5",
    v: 6,
    proto: 6,
    sport: 40000,
    dport: 80,
    bytes: 5000,
    packets: 5,
    rate: 1,
    asDst: 64500,
    status: 130,
  },
  // A copy of the first record exported again by edge-2.
  {
    t: NOW - 10 * MIN,
    exporter: "edge-2",
    src: "10.1.2.3",
    dst: "192.0.2.10",
    v: 4,
    proto: 6,
    sport: 51000,
    dport: 443,
    bytes: 1000,
    packets: 10,
    rate: 10,
    asDst: 64500,
    counted: 0,
  },
  {
    t: NOW - 7 * MIN,
    exporter: "edge-1",
    src: "10.1.3.9",
    dst: "192.0.2.200",
    v: 4,
    proto: 6,
    sport: 50123,
    dport: 22,
    bytes: 300,
    packets: 3,
    rate: 10,
    asDst: 64502,
  },
  {
    t: NOW - 6 * MIN,
    exporter: "edge-1",
    src: "2001:db8::2",
    dst: "2001:db8:1::6",
    v: 6,
    proto: 17,
    sport: 5353,
    dport: 5353,
    bytes: 700,
    packets: 7,
    rate: 2,
    asDst: 64501,
  },
  // Outside the default hour.
  {
    t: NOW - 3 * 3600,
    exporter: "edge-1",
    src: "10.9.9.9",
    dst: "192.0.2.99",
    v: 4,
    proto: 6,
    sport: 1234,
    dport: 443,
    bytes: 9999,
    packets: 99,
    rate: 1,
    asDst: 64500,
  },
];
/** 60 records of one exporter: more than a page. */
const BULK: Fixture[] = Array.from({ length: 60 }, (_, i) => ({
  t: NOW - 20 * MIN + (i % 7) * MIN,
  exporter: "bulk-1",
  src: `10.7.${i % 3}.${i + 1}`,
  dst: "192.0.2.77",
  v: 4,
  proto: 6,
  sport: 10000 + i,
  dport: 443,
  bytes: 100 + (i % 5),
  packets: 1 + (i % 2),
  rate: 1 + (i % 4),
  asDst: 64503,
}));

let stores: TestStores;
const cookies: Record<"superuser" | "delegated" | "plain", string> = { superuser: "", delegated: "", plain: "" };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await chInsert(stores.ch, {
    name: "rna-screen fixture",
    table: "flows_raw",
    values: [...RECORDS, ...BULK].map((f) => ({
      time_received: f.t,
      exporter_name: f.exporter,
      ip_version: f.v,
      src_addr: stored(f, f.src),
      dst_addr: stored(f, f.dst),
      protocol: f.proto,
      src_port: f.sport,
      dst_port: f.dport,
      bytes: f.bytes,
      packets: f.packets,
      sampling_rate: f.rate,
      as_dst: f.asDst,
      counted: f.counted ?? 1,
      forwarding_status: f.status ?? 0,
    })),
  });
  // The restriction's ingress dimensions need the operator's AS (a configured site has it).
  await stores.pg.db.insert(asInfo).values({ asn: 64496, name: "RNA Carrier", category: "operator" });
  cookies.superuser = await sessionCookie(stores, await insertSuperuser(stores, "root@rna.test"));
  const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) =>
    (
      await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  const plain = await insert("plain@rna.test", {});
  await stores.pg.db.insert(userPermissions).values({ userId: plain, permission: "RAW_NETWORK_ANALYZER" });
  cookies.plain = await sessionCookie(stores, plain);
  const delegated = await insert("delegated@rna.test", { isDelegated: true, delegatedById: plain });
  await stores.pg.db.insert(userPermissions).values({ userId: delegated, permission: "RAW_NETWORK_ANALYZER" });
  await stores.pg.db.insert(delegationRestrictions).values({
    userId: delegated,
    flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["64500"], output: "AS_SRC_INGRESS" }],
  });
  cookies.delegated = await sessionCookie(stores, delegated);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

async function screen(query: string, cookie = cookies.superuser): Promise<RnaScreen> {
  const res = await runRoute(route.loader, getRequest(`/rna${query ? `?${query}` : ""}`, cookie));
  expect(res.status).toBe(200);
  return res.data as RnaScreen;
}

const inDefaultHour = (f: Fixture) => f.t >= NOW - 3600 - MIN && f.t <= NOW + MIN;
const isDropped = (f: Fixture) => (f.status ?? 0) >> 6 === 2;
/** The sums of records as the aggregates count them: counted once, scaled by each record's rate, the dropped apart. */
function sums(list: readonly Fixture[]) {
  const carried = list.filter((f) => (f.counted ?? 1) === 1 && !isDropped(f));
  const dropped = list.filter((f) => (f.counted ?? 1) === 1 && isDropped(f));
  const add = (l: Fixture[]) => ({
    bytes: l.reduce((s, f) => s + f.bytes * f.rate, 0),
    packets: l.reduce((s, f) => s + f.packets * f.rate, 0),
    flows: l.length,
  });
  return { carried: add(carried), dropped: add(dropped) };
}
const column = (data: RnaScreen, id: string) => data.params.columns.indexOf(id as never);
const cellsOf = (data: RnaScreen, id: string) => data.rows.map((r) => r.cells[column(data, id)]);

describe("the default view", () => {
  it("shows the last hour's records with time, exporter, addresses, ports, protocol, bytes and packets", async () => {
    const data = await screen("filter=EXPORTER:edge-1,edge-2");
    for (const id of ["time_received", "exporter_name", "src_addr", "dst_addr", "src_port", "dst_port", "protocol", "bytes", "packets"])
      expect(data.params.columns).toContain(id);
    const expected = RECORDS.filter((f) => inDefaultHour(f) && (f.counted ?? 1) === 1);
    expect(data.rows).toHaveLength(expected.length);
    expect(data.total).toEqual({ count: expected.length, exact: true });
    // Newest first by default.
    const byTime = [...expected].sort((a, b) => b.t - a.t);
    expect(cellsOf(data, "src_addr")).toEqual(byTime.map((f) => f.src));
    expect(cellsOf(data, "dst_port")).toEqual(byTime.map((f) => String(f.dport)));
    expect(cellsOf(data, "bytes").map((c) => Number(c.replace(/[^\d]/g, "")))).toEqual(byTime.map((f) => f.bytes));
    expect(cellsOf(data, "bytes_scaled").map((c) => Number(c.replace(/[^\d]/g, "")))).toEqual(byTime.map((f) => f.bytes * f.rate));
    expect(cellsOf(data, "protocol")).toEqual(byTime.map((f) => (f.proto === 6 ? "TCP" : "UDP")));
    // The record the router dropped says so; the others do not.
    expect(data.rows.map((r) => r.dropped)).toEqual(byTime.map(isDropped));
    const { carried, dropped } = sums(expected);
    expect(data.sums).toEqual(carried);
    expect(data.dropped).toEqual(dropped);
    expect(data.notices).toEqual([]);
    expect(data.problem).toBeNull();
  });

  it("shows re-exported copies, marked, only with the switch on, and then counts them in the sums too", async () => {
    const data = await screen("filter=EXPORTER:edge-2&copies=1");
    const expected = RECORDS.filter((f) => inDefaultHour(f) && f.exporter === "edge-2");
    expect(data.rows).toHaveLength(expected.length);
    expect(data.rows.filter((r) => r.copy)).toHaveLength(expected.filter((f) => f.counted === 0).length);
    expect(data.sums).toEqual(sums(expected.map((f) => ({ ...f, counted: 1 }))).carried);
    const without = await screen("filter=EXPORTER:edge-2");
    expect(without.rows.some((r) => r.copy)).toBe(false);
    expect(without.sums).toEqual(sums(expected).carried);
  });
});

describe("filters of the address", () => {
  it("applies dimension filters, the nfdump expression and the '>' / '<' column filters to every page", async () => {
    const byAs = await screen("filter=AS_DST:64500");
    const asRows = [...RECORDS, ...BULK].filter((f) => inDefaultHour(f) && f.asDst === 64500 && (f.counted ?? 1) === 1);
    expect(byAs.rows).toHaveLength(asRows.length);
    expect(byAs.sums).toEqual(sums(asRows).carried);

    const udp = await screen("q=proto+udp");
    const udpRows = [...RECORDS, ...BULK].filter((f) => inDefaultHour(f) && f.proto === 17 && (f.counted ?? 1) === 1);
    expect(cellsOf(udp, "src_addr").sort()).toEqual(udpRows.map((f) => f.src).sort());

    const low = await screen("q=not+proto+udp&dst_port=%3C100");
    const lowRows = [...RECORDS, ...BULK].filter((f) => inDefaultHour(f) && f.proto !== 17 && f.dport < 100 && (f.counted ?? 1) === 1);
    expect(cellsOf(low, "src_addr").sort()).toEqual(lowRows.map((f) => f.src).sort());
  });
});

describe("prefix aggregation", () => {
  it("folds the addresses and sums each group after scaling each record by its own rate", async () => {
    const data = await screen(
      "columns=src_addr,bytes_scaled,packets_scaled,flows&aggregationPrefixV4=24&aggregationPrefixV6=32&filter=EXPORTER:edge-1",
    );
    expect(data.aggregated).toBe(true);
    const records = RECORDS.filter((f) => inDefaultHour(f) && f.exporter === "edge-1" && (f.counted ?? 1) === 1 && !isDropped(f));
    const groups = new Map<string, { bytes: number; packets: number; flows: number }>();
    for (const f of records) {
      const key = f.v === 4 ? `${f.src.split(".").slice(0, 3).join(".")}.0/24` : `${f.src.split(":").slice(0, 2).join(":")}::/32`;
      const g = groups.get(key) ?? { bytes: 0, packets: 0, flows: 0 };
      groups.set(key, { bytes: g.bytes + f.bytes * f.rate, packets: g.packets + f.packets * f.rate, flows: g.flows + 1 });
    }
    const shown = new Map(
      data.rows.map((r) => [
        r.cells[0],
        {
          bytes: Number(r.cells[1].replace(/[^\d]/g, "")),
          packets: Number(r.cells[2].replace(/[^\d]/g, "")),
          flows: Number(r.cells[3].replace(/[^\d]/g, "")),
        },
      ]),
    );
    expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(groups));
  });

  it("says the spec's messages for prefixes it cannot apply, and shows the records unaggregated", async () => {
    const data = await screen("aggregationPrefixV4=33&aggregationPrefixV6=x");
    expect(data.params.aggregationErrors).toEqual({
      v4: "Please type a prefix between /1 and /32 to aggregate the data",
      v6: "Wrong IPv6 prefix format",
    });
    expect(data.aggregated).toBe(false);
    expect(data.notices.some((n) => n.includes("Please type a prefix between /1 and /32 to aggregate the data"))).toBe(true);
  });
});

describe("pages, sort, timeseries and export", () => {
  it("pages by cursor: the pages together are the whole sorted query, each record once", async () => {
    const first = await screen("filter=EXPORTER:bulk-1&sort=src_port:asc&columns=src_port,bytes");
    expect(first.rows).toHaveLength(50);
    expect(first.total).toEqual({ count: BULK.length, exact: true });
    expect(first.next).not.toBeNull();
    const second = await screen(
      `filter=EXPORTER:bulk-1&sort=src_port:asc&columns=src_port,bytes&after=${encodeURIComponent(first.next!)}&start=${first.range.start}&end=${first.range.end}`,
    );
    expect(second.next).toBeNull();
    const ports = [...cellsOf(first, "src_port"), ...cellsOf(second, "src_port")].map(Number);
    expect(ports).toEqual(BULK.map((f) => f.sport).sort((a, b) => a - b));
  });

  it("draws the page's rows over time, grouped by a column: each group's traffic is its records'", async () => {
    const data = await screen("filter=EXPORTER:edge-1,edge-2,bulk-1&timeseries=exporter_name");
    const view = data.timeseries!;
    expect(view.column).toBe("exporter_name");
    const window = view.window;
    const shownExporters = new Set(cellsOf(data, "exporter_name"));
    expect(new Set(view.series.map((s) => s.label))).toEqual(shownExporters);
    const pageKeys = new Set(data.rows.map((r) => r.key));
    expect(pageKeys.size).toBe(data.rows.length);
    // Each line is the traffic of every record of the query with that value (the page names the values).
    for (const s of view.series) {
      const bits = s.bps.reduce((sum, v) => sum + v * window, 0);
      const records = [...RECORDS, ...BULK].filter(
        (f) => inDefaultHour(f) && f.exporter === s.label && (f.counted ?? 1) === 1 && !isDropped(f),
      );
      expect(bits).toBeCloseTo(
        records.reduce((sum, f) => sum + f.bytes * f.rate * 8, 0),
        0,
      );
    }
  });

  it("exports the query's rows as they are on screen, and refuses an empty table with the spec's words", async () => {
    const data = await screen("filter=EXPORTER:edge-1&columns=src_addr,dst_port,bytes_scaled");
    const res = await runRoute(
      exportRoute.loader,
      getRequest("/rna/export?filter=EXPORTER:edge-1&columns=src_addr,dst_port,bytes_scaled&format=csv", cookies.superuser),
    );
    expect(res.status).toBe(200);
    const rows = readCsv(String(res.data), ",");
    expect(rows[0]).toEqual(["Source address", "Destination port", "Bytes"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(cellsOf(data, "src_addr"));
    expect(rows.slice(1).map((r) => Number(r[2]))).toEqual(cellsOf(data, "bytes_scaled").map((c) => Number(c.replace(/[^\d]/g, ""))));
    const empty = await runRoute(exportRoute.loader, getRequest("/rna/export?filter=EXPORTER:nobody&format=xlsx", cookies.superuser));
    expect(empty.status).toBe(400);
    expect(empty.data.detail).toBe("Table is empty, nothing to export");
    expect((await runRoute(exportRoute.loader, getRequest("/rna/export?format=png", cookies.superuser))).status).toBe(400);
  });
});

describe("who sees what", () => {
  it("shows a delegated user only the records inside the restriction, with their sums", async () => {
    const data = await screen("", cookies.delegated);
    const inside = [...RECORDS, ...BULK].filter((f) => inDefaultHour(f) && f.asDst === 64500 && (f.counted ?? 1) === 1);
    expect(data.total).toEqual({ count: inside.length, exact: true });
    expect(cellsOf(data, "src_addr").sort()).toEqual(inside.map((f) => f.src).sort());
    expect(data.sums).toEqual(sums(inside).carried);
    // A filter outside the restriction reads nothing outside it.
    const outside = await screen("filter=AS_DST:64501", cookies.delegated);
    expect(outside.rows.every((r) => r.cells[column(outside, "src_addr")] !== "10.1.2.4")).toBe(true);
  });

  it("leaves the application columns to those who may see them", async () => {
    const data = await screen("columns=application,src_addr", cookies.plain);
    expect(data.params.columns).toEqual(["src_addr"]);
    expect(data.catalogue.map((c) => c.id)).not.toContain("application");
    expect(data.notices.some((n) => n.includes("application"))).toBe(true);
  });
});

describe("values that cannot apply", () => {
  it("fall back with a notice, never a 500", async () => {
    const data = await screen("columns=&sort=nope&dateRange=FOREVER&q=proto+tcp+and&copies=maybe&timeseries=nope&filter=junk");
    expect(data.notices).toContain("Column picker needs at least one column selected; the default columns are shown.");
    expect(data.notices.some((n) => n.startsWith("sort=nope"))).toBe(true);
    expect(data.notices.some((n) => n.startsWith("dateRange=FOREVER"))).toBe(true);
    expect(data.notices.some((n) => n.startsWith("q=proto tcp and"))).toBe(true);
    expect(data.params.qError).toMatch(/^Column \d+/);
    expect(data.rows.length).toBeGreaterThan(0);
    // A range older than what flows_raw keeps is clamped, and said so.
    const old = await screen("start=946684800&end=946771200");
    expect(old.notices.some((n) => n.startsWith("No data for the chosen start or end: the time range is set to the last 30 minutes"))).toBe(
      true,
    );
    expect(old.range.start).toBeGreaterThan(NOW - 2 * 3600);
  });
});

describe("the site's default query and the user's history", () => {
  const setDefault = (value: Record<string, unknown>) =>
    stores.pg.db.update(siteSettings).set({ rnaDefaultQuery: value }).where(eq(siteSettings.id, 1));

  it("opens with the site's default query: its columns, expression and range", async () => {
    await setDefault({ columns: ["time_received", "protocol", "src_addr", "bytes"], filterExpression: "proto udp", range: "LAST_3_HOURS" });
    try {
      const data = await screen("");
      expect(data.params.columns).toEqual(["time_received", "protocol", "src_addr", "bytes"]);
      expect(data.params.dateRange).toBe("LAST_3_HOURS");
      // Only the UDP records of the last three hours, counted once.
      const udp = [...RECORDS, ...BULK].filter((f) => f.proto === 17 && f.t >= NOW - 3 * 3600 && (f.counted ?? 1) === 1);
      expect(data.total?.count).toBe(udp.length);
      expect(new Set(cellsOf(data, "protocol"))).toEqual(new Set(["UDP"]));
      expect(new Set(cellsOf(data, "src_addr"))).toEqual(new Set(udp.map((f) => f.src)));
      // The address still wins over the default.
      const asked = await screen("columns=src_addr,dst_port&q=proto+tcp");
      expect(asked.params.columns).toEqual(["src_addr", "dst_port"]);
      expect(asked.params.q).toBe("proto tcp");
    } finally {
      await setDefault({});
    }
  });

  it("shows the built-in default with a notice when the stored value does not fit", async () => {
    await setDefault({ columns: ["no_such_column"], range: "FOREVER" });
    try {
      const data = await screen("");
      expect(data.notices.some((n) => n.startsWith("The site's default query (rna_default_query) does not fit"))).toBe(true);
      expect(data.params.columns).toContain("src_addr");
      expect(data.rows.length).toBeGreaterThan(0);
    } finally {
      await setDefault({});
    }
  });

  it("records each query's first page in the user's history, not its further pages", async () => {
    const plainId = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "plain@rna.test")))[0].id;
    await stores.pg.db.delete(rnaQueryHistory).where(eq(rnaQueryHistory.userId, plainId));
    const first = await screen("filter=EXPORTER:bulk-1&columns=src_addr,bytes", cookies.plain);
    expect(first.next).not.toBeNull();
    await screen(`filter=EXPORTER:bulk-1&columns=src_addr,bytes&after=${encodeURIComponent(first.next!)}`, cookies.plain);
    // Recording does not hold up the answer: wait for it to land.
    let history = await rnaHistoryPage(stores, { id: plainId }, 1);
    for (let i = 0; i < 50 && history.entries.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      history = await rnaHistoryPage(stores, { id: plainId }, 1);
    }
    await new Promise((r) => setTimeout(r, 300));
    history = await rnaHistoryPage(stores, { id: plainId }, 1);
    expect(history.entries).toHaveLength(1);
    const entry = history.entries[0];
    expect(entry.rowCount).toBe(BULK.length);
    expect(entry.query?.columns).toEqual(["src_addr", "bytes"]);
    expect(entry.query?.filters).toEqual([{ dimension: "EXPORTER", values: ["bulk-1"] }]);
    // Its re-run link opens the same query on the screen.
    const again = await screen(entry.rerunUrl!.replace(/^\/rna\?/, ""), cookies.plain);
    expect(again.total?.count).toBe(BULK.length);
    expect(again.params.columns).toEqual(["src_addr", "bytes"]);
  });
});

describe("the route at the time of a record", () => {
  it("is looked up for the record the address names, on its page; another key says so", async () => {
    const page = await screen("filter=EXPORTER:edge-1&columns=src_addr,dst_addr");
    const row = page.rows[0];
    const data = await screen(`filter=EXPORTER:edge-1&columns=src_addr,dst_addr&route=${encodeURIComponent(row.key)}`);
    // The test's inventory has no vantage point for edge-1: the answer says so rather than guessing a route.
    expect(data.route?.key).toBe(row.key);
    expect(data.route?.result.kind).toBe("no-vantage-point");
    expect(data.params.columns).toEqual(["src_addr", "dst_addr"]);
    const forged = await screen("filter=EXPORTER:edge-1&columns=src_addr,dst_addr&route=bm90LWEta2V5");
    expect(forged.route).toBeNull();
    expect(forged.notices).toContain("The record whose route was asked for is not on this page; no route is shown.");
    const grouped = await screen(`filter=EXPORTER:edge-1&aggregationPrefixV4=24&route=${encodeURIComponent(row.key)}`);
    expect(grouped.route).toBeNull();
  });
});

describe("the route at the time of a record of a VRF", () => {
  // Last in the file: its records would change the figures of the tests above.
  const T0 = NOW - 20 * MIN;
  const rib = (prefix: string, rd: string, asPath: number[]): RibRow => ({
    timestamp: T0 - 3600,
    vantage_point: "vrf-pe1",
    router_ip: "198.18.7.1",
    peer_ip: "198.51.100.7",
    peer_asn: asPath[0],
    route_distinguisher: rd,
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: Number(prefix.split("/")[1]),
    afi: 1,
    safi: rd ? 128 : 1,
    is_withdrawn: 0,
    as_path: asPath,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "198.51.100.7",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
  });

  beforeAll(async () => {
    const [router] = await stores.pg.db
      .insert(routers)
      .values({ name: "vrf-pe1", city: "Basel", country: "Switzerland", loopback: "198.18.7.1" })
      .returning({ id: routers.id });
    await stores.pg.db
      .insert(vantagePoints)
      .values({ key: "vrf-pe1", router: "vrf-pe1", city: "Basel", country: "Switzerland", ip: "198.18.7.1" });
    await stores.pg.db.insert(routerVrfs).values({ routerId: router.id, name: "CUST_A", routeDistinguisher: "64500:7" });
    await chInsert(stores.ch, {
      name: "rna-screen vrf fixture",
      table: "rib_entries",
      values: [rib("10.77.0.0/16", "", [64510]), rib("10.77.0.0/24", "64500:7", [64520])],
    });
    const record = (src: string, vrf: string) => ({
      time_received: T0,
      exporter_name: "vrf-pe1",
      ip_version: 4,
      src_addr: `::ffff:${src}`,
      dst_addr: "::ffff:10.77.0.5",
      protocol: 6,
      src_port: 40000,
      dst_port: 443,
      bytes: 500,
      packets: 5,
      sampling_rate: 1,
      vrf_name: vrf,
      counted: 1,
    });
    await chInsert(stores.ch, {
      name: "rna-screen vrf records",
      table: "flows_raw",
      values: [record("10.5.0.1", "CUST_A"), record("10.5.0.2", ""), record("10.5.0.3", "CUST_B")],
    });
  });

  it("reads the VRF's table for a record of the VRF, the global one for the others, saying so for a VRF without a table", async () => {
    const query = "filter=EXPORTER:vrf-pe1&columns=src_addr,dst_addr";
    const page = await screen(query);
    const keyOf = (src: string) => page.rows.find((r) => r.cells[0] === src)!.key;
    const routeOf = async (src: string) => (await screen(`${query}&route=${encodeURIComponent(keyOf(src))}`)).route?.result;
    expect(await routeOf("10.5.0.1")).toMatchObject({
      kind: "route",
      vrf: "CUST_A",
      routeDistinguisher: "64500:7",
      route: { prefix: "10.77.0.0/24", asPath: [{ asn: 64520 }] },
    });
    expect(await routeOf("10.5.0.2")).toMatchObject({
      kind: "route",
      vrf: null,
      routeDistinguisher: "",
      route: { prefix: "10.77.0.0/16" },
    });
    expect(await routeOf("10.5.0.3")).toMatchObject({ kind: "route", vrf: null, unmappedVrf: "CUST_B", route: { prefix: "10.77.0.0/16" } });
    // The VRF column was not asked for: it is read for the route, not shown.
    expect((await screen(`${query}&route=${encodeURIComponent(keyOf("10.5.0.1"))}`)).params.columns).toEqual(["src_addr", "dst_addr"]);
  });
});
