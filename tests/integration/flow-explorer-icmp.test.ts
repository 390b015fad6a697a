/**
 * The Flow Explorer's protocol views split ICMP and IPv6-ICMP by type, by name: raw records with ICMP
 * types written the collector's way (flows_raw → flows_5m_mv → flows_1h_mv), then the screen's table,
 * timeseries and sankey, its CSV export and the JSON API, each checked against sums recomputed here
 * from the records themselves: the rows of a protocol add up to that protocol, the shares to the
 * total, dropped and re-exported records count nowhere, and a filter on the protocol selects every type.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, userPermissions, users } from "~db/postgres/schema";
import type { FlowRow } from "~/features/collector/enrich/flow-row";
import { flowRowWriter } from "~/features/collector/enrich/flow-row-writer";
import { flowRowFormat, insertFlowRows } from "~/features/collector/runtime/collector.server";
import { parseCsv } from "~/lib/csv-read";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import * as flowsRoute from "~/routes/api.flows";
import * as exportRoute from "~/routes/api.flows.export";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const OPERATOR = 64500;
const HOUR = 3600;
// Two whole hours, recent (the retention TTLs would remove rows of a fixed past date).
const START = demoTestNow() - (demoTestNow() % HOUR) - 3 * HOUR;
const RANGE = { start: START, end: START + 2 * HOUR };
const SECONDS = RANGE.end - RANGE.start;

/** The names the screen must show, written out from the IANA registries (not from the code under test). */
const NAMES: Record<string, string> = {
  "6": "TCP",
  "17": "UDP",
  "1/8": "ICMP Echo Request",
  "1/0": "ICMP Echo Reply",
  "1/3": "ICMP Destination Unreachable",
  "1/11": "ICMP Time Exceeded",
  "1/200": "ICMP type 200",
  "1/-1": "ICMP (type not known)",
  "58/128": "IPv6-ICMP Echo Request",
  "58/1": "IPv6-ICMP Destination Unreachable",
};

type Kind = { protocol: number; type: number | null; code: number | null; bytes: number; router: string; extra?: Partial<FlowRow> };
const KINDS: Kind[] = [
  { protocol: 6, type: null, code: null, bytes: 9_000, router: "fra1-r1" },
  { protocol: 17, type: null, code: null, bytes: 3_000, router: "ber1-r1" },
  // An exporter's stray ICMP element on UDP is no ICMP type: the row stays UDP.
  { protocol: 17, type: 3, code: 0, bytes: 500, router: "fra1-r1" },
  { protocol: 1, type: 8, code: 0, bytes: 84, router: "fra1-r1" },
  { protocol: 1, type: 8, code: 0, bytes: 84, router: "ber1-r1" },
  { protocol: 1, type: 0, code: 0, bytes: 84, router: "ber1-r1" },
  // Two codes of one type: one row in the views, which split by type.
  { protocol: 1, type: 3, code: 3, bytes: 70, router: "fra1-r1" },
  { protocol: 1, type: 3, code: 1, bytes: 56, router: "ber1-r1" },
  { protocol: 1, type: 11, code: 0, bytes: 70, router: "fra1-r1" },
  { protocol: 1, type: 200, code: 1, bytes: 40, router: "fra1-r1" },
  { protocol: 1, type: null, code: null, bytes: 64, router: "ber1-r1" },
  { protocol: 58, type: 128, code: 0, bytes: 104, router: "fra1-r1", extra: { ip_version: 6 } },
  { protocol: 58, type: 1, code: 4, bytes: 110, router: "ber1-r1", extra: { ip_version: 6 } },
  // Not carried: a dropped echo request (ACL deny) and one exported again on a core interface.
  { protocol: 1, type: 8, code: 0, bytes: 5_000, router: "fra1-r1", extra: { forwarding_status: 0x81 } },
  { protocol: 1, type: 8, code: 0, bytes: 5_000, router: "ber1-r1", extra: { counted: 0 } },
];

function record(kind: Kind, at: number, i: number): FlowRow {
  return {
    time_received: at,
    exporter_address: kind.router === "fra1-r1" ? "::ffff:192.0.2.1" : "::ffff:192.0.2.2",
    exporter_name: kind.router,
    sampling_rate: kind.router === "fra1-r1" ? 1000 : 100,
    ip_version: 4,
    src_addr: "::ffff:198.18.0.1",
    dst_addr: "::ffff:203.0.113.9",
    src_prefix_len: 24,
    dst_prefix_len: 24,
    protocol: kind.protocol,
    src_port: kind.type === null ? 50_000 : 0,
    dst_port: kind.type === null ? 443 : 0,
    tcp_flags: 0,
    // A little variation per record, so each bucket's and each kind's sums differ.
    bytes: kind.bytes * (1 + (i % 3)),
    packets: 1 + (i % 2),
    vrf_name: "",
    ingress_router: kind.router,
    in_if: "et-0/0/1",
    egress_router: "",
    out_if: "",
    link_start_router: "",
    link_start_if: "",
    link_end_router: "",
    link_end_if: "",
    as_src: 3356,
    as_hnd: 3356,
    as_nxt: OPERATOR,
    as_dst: OPERATOR,
    application: "",
    infrastructure: "",
    in_if_index: 501,
    out_if_index: 0,
    flow_protocol: "ipfix",
    next_hop: "::",
    counted: 1,
    icmp_type: kind.type,
    icmp_code: kind.code,
    forwarding_status: 0,
    post_nat_src_addr: "::",
    post_nat_dst_addr: "::",
    post_nat_src_port: 0,
    post_nat_dst_port: 0,
    src_vlan: 0,
    src_inner_vlan: 0,
    dst_vlan: 0,
    mpls_labels: [],
    ...kind.extra,
  };
}

/** Every kind in every 5 minutes of the range but one bucket per kind, so the timeseries is no constant. */
const RECORDS: FlowRow[] = KINDS.flatMap((kind, k) =>
  Array.from({ length: SECONDS / 300 }, (_, b) => b)
    .filter((b) => b % KINDS.length !== k)
    .map((b) => record(kind, RANGE.start + b * 300 + 17, b + k)),
);

/** The protocol view's row of a record as docs/glossary.md states the rule; null: not carried. */
function rowKey(r: FlowRow): string | null {
  if (r.counted !== 1 || r.forwarding_status >> 6 === 2) return null;
  return r.protocol === 1 || r.protocol === 58 ? `${r.protocol}/${r.icmp_type ?? -1}` : String(r.protocol);
}

/** Bytes (scaled by the sampling rate) per row key, over the records `keep` selects. */
function bytesBy(key: (r: FlowRow) => string | null, keep: (r: FlowRow) => boolean = () => true): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of RECORDS) {
    const k = key(r);
    if (k === null || !keep(r)) continue;
    out.set(k, (out.get(k) ?? 0) + r.bytes * r.sampling_rate);
  }
  return out;
}
const bpsOf = (bytes: number, seconds = SECONDS) => (bytes * 8) / seconds;
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

let stores: TestStores;
let cookie = "";
let userId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(asInfo).values({ asn: OPERATOR, name: "Test Carrier", category: "operator" });
  const [user] = await stores.pg.db
    .insert(users)
    .values({ email: "icmp@explorer.test", firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  userId = user.id;
  await stores.pg.db
    .insert(userPermissions)
    .values(["API_FLOWS_4D", "API_FLOWS_INTERFACES", "SANKEY_TOPOLOGY"].map((permission) => ({ userId, permission })));
  cookie = await sessionCookie(stores, userId);
  const writer = flowRowWriter(flowRowFormat(stores.ch));
  for (const r of RECORDS) writer.row(r);
  await insertFlowRows(stores, { chunks: [writer.take()], bytes: 0, rows: RECORDS.length });
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

function search(extra: Record<string, string> = {}): string {
  return new URLSearchParams({ dimension: "IANA_PROTOCOL", start: String(RANGE.start), end: String(RANGE.end), ...extra }).toString();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function screen(extra: Record<string, string> = {}): Promise<any> {
  const request = new Request(`${ORIGIN}/flow-explorer?${search(extra)}`, { headers: { Cookie: cookie, Accept: "text/html" } });
  const out = await runRoute(explorerRoute.loader, request);
  expect(out.status).toBe(200);
  return out.data;
}

type TableRow = { key: string; name: string; bps: number; bytes: string };

describe("the Flow Explorer's protocol view splits ICMP by type", () => {
  it("the fixture covers what the rule distinguishes", () => {
    const expected = bytesBy(rowKey);
    expect([...expected.keys()].sort()).toEqual(Object.keys(NAMES).sort());
    // The left-out records would change the echo requests' figure if they were counted.
    expect(RECORDS.filter((r) => rowKey(r) === null).length).toBeGreaterThan(10);
  });

  it("table: one row per protocol, ICMP and IPv6-ICMP per type, by name, with the bit/s and bytes of the records", async () => {
    const data = await screen();
    expect(data.errors).toEqual([]);
    const table = data.flows.table as TableRow[];
    const expected = bytesBy(rowKey);
    expect(table.map((r) => r.key).sort()).toEqual([...expected.keys()].sort());
    for (const row of table) {
      expect(row.name, row.key).toBe(NAMES[row.key]);
      expect(Number(row.bytes), row.key).toBe(expected.get(row.key));
      expect(row.bps / bpsOf(expected.get(row.key)!), row.key).toBeCloseTo(1, 9);
    }
    // Shares are of the one total of every carried record; the ICMP rows add up to the ICMP traffic.
    expect(data.total / bpsOf(sum(expected.values()))).toBeCloseTo(1, 9);
    const icmpRows = table.filter((r) => r.key.startsWith("1/"));
    const icmpBytes = sum(
      bytesBy(
        (r) => (rowKey(r) === null ? null : String(r.protocol)),
        (r) => r.protocol === 1,
      ).values(),
    );
    expect(sum(icmpRows.map((r) => Number(r.bytes)))).toBe(icmpBytes);
    expect(data.traffic.code).toBe("ALL");
  });

  it("a filter on the protocol number selects every type of it; its negation none", async () => {
    const only = await screen({ filter: "IANA_PROTOCOL:1,58" });
    expect(only.errors).toEqual([]);
    const table = only.flows.table as TableRow[];
    const expected = bytesBy(rowKey, (r) => r.protocol === 1 || r.protocol === 58);
    expect(new Map(table.map((r) => [r.key, Number(r.bytes)]))).toEqual(expected);
    expect(only.filterLabels).toEqual(["IANA protocol: ICMP", "IANA protocol: IPv6-ICMP"]);
    const without = await screen({ filter: "IANA_PROTOCOL:!1" });
    expect((without.flows.table as TableRow[]).map((r) => r.key).sort()).toEqual(
      [...bytesBy(rowKey, (r) => r.protocol !== 1).keys()].sort(),
    );
  });

  it("timeseries: a series per row, named as the table, each bucket the records' bit/s", async () => {
    const data = await screen({ view: "timeseries", chartData: "1" });
    const { buckets, series } = data.flows.timeseries as { buckets: number[]; series: { key: string; name: string; values: number[] }[] };
    const window = data.flows.window as number;
    expect(window).toBe(300);
    // Ten rows: the default top 10 folds nothing.
    expect(series.map((s) => s.key).sort()).toEqual(Object.keys(NAMES).sort());
    let emptyBuckets = 0;
    for (const s of series) {
      expect(s.name).toBe(NAMES[s.key]);
      const perBucket = buckets.map((b) =>
        bpsOf(bytesBy(rowKey, (r) => r.time_received >= b && r.time_received < b + window).get(s.key) ?? 0, window),
      );
      emptyBuckets += perBucket.filter((v) => v === 0).length;
      s.values.forEach((v, i) =>
        perBucket[i] === 0 ? expect(v).toBe(0) : expect(v / perBucket[i], `${s.key} @${buckets[i]}`).toBeCloseTo(1, 9),
      );
    }
    // Buckets where a row had no records read 0: the series are no constant.
    expect(emptyBuckets).toBeGreaterThan(0);
  });

  it("sankey: ingress routers to the protocol rows, with the records' bit/s per pair", async () => {
    const data = await screen({ view: "sankey", dimension: "ROUTER_IN", dimension2: "IANA_PROTOCOL" });
    expect(data.sankeyError).toBeNull();
    const { nodes, links } = data.sankey as {
      nodes: { id: string; key: string; name: string; dimension: string }[];
      links: { source: string; target: string; value: number }[];
    };
    for (const n of nodes.filter((x) => x.dimension === "IANA_PROTOCOL")) expect(n.name).toBe(NAMES[n.key]);
    const expected = bytesBy((r) => {
      const k = rowKey(r);
      return k === null ? null : `ROUTER_IN:${r.ingress_router}>IANA_PROTOCOL:${k}`;
    });
    expect(links.map((l) => `${l.source}>${l.target}`).sort()).toEqual([...expected.keys()].sort());
    for (const l of links) expect(l.value / bpsOf(expected.get(`${l.source}>${l.target}`)!)).toBeCloseTo(1, 9);
  });

  it("the CSV export shows the same names and figures", async () => {
    const request = new Request(`${ORIGIN}/api/flows/export?${search()}`, { headers: { Cookie: cookie } });
    const res = (await exportRoute.loader({ request, params: {}, context: {} })) as Response;
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(await res.text(), ",").map((l) => l.fields);
    expect(header).toEqual(["IANA protocol", "Name", "Bits per second", "Share (%)", "Bytes"]);
    const expected = bytesBy(rowKey);
    const total = sum(expected.values());
    const byName = new Map([...expected].map(([k, bytes]) => [NAMES[k], bytes]));
    expect(lines.map((l) => l[0]).sort()).toEqual([...byName.keys()].sort());
    for (const [value, name, bits, share, bytes] of lines) {
      expect(name).toBe(value);
      expect(Number(bytes)).toBe(byName.get(value));
      expect(Number(bits)).toBe(Math.round(bpsOf(byName.get(value)!)));
      expect(Number(share)).toBeCloseTo((byName.get(value)! / total) * 100, 2);
    }
  });

  it("api/flows names the same rows, also from the hourly aggregates", async () => {
    const res = await callRoute(flowsRoute, "/api/flows", {
      method: "POST",
      cookie,
      body: { dimension: "IANA_PROTOCOL", startTimestamp: RANGE.start, endTimestamp: RANGE.end, window: HOUR },
    });
    expect(res.status).toBe(200);
    const data = (await res.json()) as { table: TableRow[] };
    const expected = bytesBy(rowKey);
    expect(new Map(data.table.map((r) => [r.key, Number(r.bytes)]))).toEqual(expected);
    for (const r of data.table) expect(r.name).toBe(NAMES[r.key]);
  });
});
