/**
 * The flows SQL builder run on chDB against a 2-day demo network, checked against an independent
 * recomputation in TypeScript from flows_5m rows read with a plain SELECT.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ASN } from "~db/demo/catalog";
import type { FlowFilter } from "~/features/filter/filters";
import { sankey, timeseries, topTable } from "~/features/flows/sql";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { openDemoStores } from "../helpers/demo-template";
import { chRows, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
/** A fixed end of the period on a 5-minute boundary. */
const NOW = demoTestNow();
/** The last full day of the demo period. */
const RANGE = { start: NOW - DAY, end: NOW };

type Row = FlowRow;

let stores: TestStores;
let rows: Row[];

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  rows = await readFlowRows(stores, RANGE);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const ingress = (r: Row) => r.as_hnd !== OPERATOR_ASN;
const bps = (bytes: bigint, seconds: number) => (Number(bytes) * 8) / seconds;

function sumBy(list: Row[], key: (r: Row) => number | string): Map<string, bigint> {
  const m = new Map<string, bigint>();
  for (const r of list) {
    const k = String(key(r));
    m.set(k, (m.get(k) ?? 0n) + r.bytes);
  }
  return m;
}

function top(m: Map<string, bigint>, n: number): [string, bigint][] {
  return [...m].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : Number(a[0]) - Number(b[0]))).slice(0, n);
}

type TableRow = { bps: number; total_bytes: string } & Record<string, unknown>;

describe("flows queries on chDB", () => {
  it("has demo rows in both directions", () => {
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.some(ingress)).toBe(true);
    expect(rows.some((r) => r.as_hnd === OPERATOR_ASN && r.as_nxt !== OPERATOR_ASN)).toBe(true);
  });

  it("top 10 by AS_SRC_INGRESS over a day", async () => {
    const q = topTable(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", limit: 10 });
    const got = await chRows<TableRow>(stores, q.sql, q.params);
    const expected = top(
      sumBy(rows.filter(ingress), (r) => r.as_src),
      10,
    );
    expect(got.map((r) => String(r.AS_SRC_INGRESS))).toEqual(expected.map(([k]) => k));
    expect(got.map((r) => BigInt(r.total_bytes))).toEqual(expected.map(([, b]) => b));
    got.forEach((r, i) => expect(r.bps).toBeCloseTo(bps(expected[i][1], DAY), 3));
  });

  it("a negated filter removes exactly the matching rows", async () => {
    const all = top(
      sumBy(rows.filter(ingress), (r) => r.as_src),
      3,
    );
    const excluded = Number(all[0][0]);
    const filters: FlowFilter[] = [{ dimension: "AS_SRC_INGRESS", value: String(excluded), isNegation: true }];
    const q = topTable(["AS_HND_INGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", filters, limit: 1000 });
    const got = await chRows<TableRow>(stores, q.sql, q.params);
    const expected = sumBy(
      rows.filter((r) => ingress(r) && r.as_src !== excluded),
      (r) => r.as_hnd,
    );
    expect(new Map(got.map((r) => [String(r.AS_HND_INGRESS), BigInt(r.total_bytes)]))).toEqual(expected);
    const totalWithout = [...expected.values()].reduce((a, b) => a + b, 0n);
    const totalAll = rows.filter(ingress).reduce((a, r) => a + r.bytes, 0n);
    expect(totalAll - totalWithout).toBe(all[0][1]);
  });

  it("an IP-version filter", async () => {
    const q = topTable(["AS_DST_INGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", ipVersion: 6, limit: 1000 });
    const got = await chRows<TableRow>(stores, q.sql, q.params);
    const expected = sumBy(
      rows.filter((r) => ingress(r) && r.ip_version === 6),
      (r) => r.as_dst,
    );
    expect(expected.size).toBeGreaterThan(0);
    expect(new Map(got.map((r) => [String(r.AS_DST_INGRESS), BigInt(r.total_bytes)]))).toEqual(expected);
  });

  it("a sankey of AS_HND_INGRESS → AS_DST_INGRESS", async () => {
    const topN = 5;
    const q = sankey(["AS_HND_INGRESS", "AS_DST_INGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", topN });
    const got = await chRows<{ step: number; source: string; target: string; bps: number }>(stores, q.sql, q.params);
    const inRows = rows.filter(ingress);
    const topHnd = new Set(
      top(
        sumBy(inRows, (r) => r.as_hnd),
        topN,
      ).map(([k]) => Number(k)),
    );
    const topDst = new Set(
      top(
        sumBy(inRows, (r) => r.as_dst),
        topN,
      ).map(([k]) => Number(k)),
    );
    const expected = sumBy(inRows, (r) => `${topHnd.has(r.as_hnd) ? r.as_hnd : -101}>${topDst.has(r.as_dst) ? r.as_dst : -101}`);
    expect(got.every((r) => Number(r.step) === 0)).toBe(true);
    expect(got.length).toBe(expected.size);
    for (const r of got) {
      const e = expected.get(`${r.source}>${r.target}`);
      expect(e, `${r.source}>${r.target}`).toBeDefined();
      expect(r.bps).toBeCloseTo(bps(e!, DAY), 3);
    }
  });

  it("egress rows and an interface filter (router|interface key)", async () => {
    const egress = (r: Row) => r.as_hnd === OPERATOR_ASN && r.as_nxt !== OPERATOR_ASN;
    const q = topTable(["AS_NEIGHBOR_EGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", limit: 1000 });
    const got = await chRows<TableRow>(stores, q.sql, q.params);
    expect(new Map(got.map((r) => [String(r.AS_NEIGHBOR_EGRESS), BigInt(r.total_bytes)]))).toEqual(
      sumBy(rows.filter(egress), (r) => r.as_nxt),
    );

    const topIface = topTable(["INTERFACE_IN"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", limit: 1 });
    const ifaces = await chRows<TableRow>(stores, topIface.sql, topIface.params);
    const iface = String(ifaces[0].INTERFACE_IN);
    expect(iface).toMatch(/^[^|]+\|.+$/);
    const filtered = topTable(["ROUTER_IN"], {
      range: RANGE,
      operatorAsn: OPERATOR_ASN,
      table: "flows_5m",
      filters: [{ dimension: "INTERFACE_IN", value: iface, isNegation: false }],
    });
    const byRouter = await chRows<TableRow>(stores, filtered.sql, filtered.params);
    expect(byRouter.map((r) => r.ROUTER_IN)).toEqual([iface.split("|")[0]]);
    expect(byRouter[0].total_bytes).toBe(ifaces[0].total_bytes);
  });

  it("the timeseries summed over buckets equals the table total", async () => {
    const filters: FlowFilter[] = [];
    const ts = timeseries("AS_SRC_INGRESS", { range: RANGE, operatorAsn: OPERATOR_ASN, window: 900, topN: 10, filters });
    const series = await chRows<{ bucket: string; value: number; bps: number }>(stores, ts.sql, ts.params);
    const table = topTable(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OPERATOR_ASN, table: "flows_5m", limit: 100_000 });
    const tableRows = await chRows<TableRow>(stores, table.sql, table.params);
    const seriesBits = series.reduce((a, r) => a + r.bps * 900, 0);
    const tableBits = tableRows.reduce((a, r) => a + r.bps * DAY, 0);
    expect(seriesBits / tableBits).toBeCloseTo(1, 9);
    const independent = Number(rows.filter(ingress).reduce((a, r) => a + r.bytes, 0n)) * 8;
    expect(seriesBits / independent).toBeCloseTo(1, 9);
    // Quarter-hour buckets aligned to the epoch (the day is not, so 97 with both edges partial),
    // at most top 10 + Others per bucket, the top 10 being the table's.
    const buckets = new Set(rows.filter(ingress).map((r) => Math.floor(r.time / 900)));
    expect(new Set(series.map((r) => r.bucket)).size).toBe(buckets.size);
    const values = new Set(series.map((r) => String(r.value)));
    const top10 = tableRows.slice(0, 10).map((r) => String(r.AS_SRC_INGRESS));
    for (const v of values) expect(v === "-101" || top10.includes(v), v).toBe(true);
    expect(values.size).toBeLessThanOrEqual(11);
  });
});
