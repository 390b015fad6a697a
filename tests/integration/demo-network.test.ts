/**
 * The demo network, loaded into fresh stores, checked against itself: every figure is recomputed
 * here from the source rows (raw flows, 5-minute aggregates, PostgreSQL inventory, routing table)
 * rather than by running the generator's SQL a second time.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "~db/postgres/schema";
import { MODERATORS_GROUP } from "~/lib/permissions";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { DEMO_DAYS, DEMO_SEED, loadDemoNetwork, type DemoSummary } from "~db/demo/load";
import { createRandom } from "~db/demo/random";
import { buildRib, type RibRow } from "~db/demo/rib";
import { buildTopology } from "~db/demo/topology";
import { buildAddressPlan, buildTraffic } from "~db/demo/traffic";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const BUCKET = 300;
const HOUR = 3600;
const DAY = 86_400;
/** A fixed end of the period, on a 5-minute boundary (2026-11-18 11:10 UTC). */
const NOW = demoTestNow();
const DAYS = 3;
const START = NOW - DAYS * DAY;
const RAW_FROM = NOW - DAY;

const OTHERS = -101;
const UNTRACKED = -999;
const NOT_ROUTABLE = -1;

let stores: TestStores;
let summary: DemoSummary;
let tracked: Set<number>;

beforeAll(async () => {
  stores = await openTestStores();
  summary = await loadDemoNetwork(stores, { now: NOW, days: DAYS });
  const rows = await chRows<{ asn: number }>(stores, "SELECT asn FROM tracked_as");
  tracked = new Set(rows.map((r) => Number(r.asn)));
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

/** The top-200 rule, written out here: special values (< 0) stay, untracked ASes become Others. */
const fold = (asn: number) => (asn < 0 || tracked.has(asn) ? asn : OTHERS);

/** Adds `value` to the entry `key` of a map of BigInt sums. */
function add(map: Map<string, bigint>, key: string, value: bigint) {
  map.set(key, (map.get(key) ?? 0n) + value);
}

/** Differences between two maps of sums (missing entries count as 0), for readable failures. */
function differences(expected: Map<string, bigint>, actual: Map<string, bigint>, limit = 10) {
  const out: string[] = [];
  let total = 0;
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const e = expected.get(key) ?? 0n;
    const a = actual.get(key) ?? 0n;
    if (e !== a) {
      total++;
      if (out.length < limit) out.push(`${key}: expected ${e}, got ${a}`);
    }
  }
  return { total, sample: out };
}

function sortedAsns(): number[] {
  return [...DEMO_ASES].sort((a, b) => b.weight - a.weight || a.asn - b.asn).map((a) => a.asn);
}

// ---------------------------------------------------------------------------------------------
// Longest-prefix match over IPv4 and IPv6, all in one 128-bit space (IPv4 as ::ffff:a.b.c.d/96+n).

const V4_MAPPED = 0xffffn << 32n;

function ipv4Value(text: string): bigint {
  const parts = text.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`bad IPv4 ${text}`);
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

/** An address as ClickHouse prints it ("2001:db8::1", "::ffff:1.2.3.4") or as written ("1.2.3.4"). */
function addressValue(text: string): bigint {
  if (!text.includes(":")) return V4_MAPPED | ipv4Value(text);
  let head = text;
  let v4tail: bigint | null = null;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    v4tail = ipv4Value(text.slice(lastColon + 1));
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) throw new Error(`bad IPv6 ${text}`);
  const groups = (s: string) => (s ? s.split(":") : []);
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < 0 || left.length + fill + right.length !== 8) throw new Error(`bad IPv6 ${text}`);
  const all = [...left, ...Array<string>(fill).fill("0"), ...right];
  let value = 0n;
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) throw new Error(`bad IPv6 ${text}`);
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (v4tail !== null) value = (value & ~0xffffffffn) | v4tail;
  return value;
}

/** "a.b.c.d/n" or "x::/n" as a 128-bit network and length. */
function prefixValue(text: string): { network: bigint; length: number } {
  const [address, lengthText] = text.split("/");
  const length = Number(lengthText) + (address.includes(":") ? 0 : 96);
  return { network: addressValue(address) & maskOf(length), length };
}

const maskCache = new Map<number, bigint>();
function maskOf(length: number): bigint {
  let mask = maskCache.get(length);
  if (mask === undefined) {
    mask = length === 0 ? 0n : ((1n << BigInt(length)) - 1n) << BigInt(128 - length);
    maskCache.set(length, mask);
  }
  return mask;
}

/** A tiny longest-prefix-match table: one map per prefix length, searched from the longest. */
class PrefixTable<T> {
  private byLength = new Map<number, Map<bigint, T[]>>();
  private lengths: number[] = [];

  insert(prefix: string, value: T) {
    const { network, length } = prefixValue(prefix);
    let table = this.byLength.get(length);
    if (!table) {
      table = new Map();
      this.byLength.set(length, table);
      this.lengths = [...this.byLength.keys()].sort((a, b) => b - a);
    }
    table.set(network, [...(table.get(network) ?? []), value]);
  }

  /** The entries of the longest prefix covering `address`, or null. */
  lookup(address: string): T[] | null {
    const value = addressValue(address);
    for (const length of this.lengths) {
      const hit = this.byLength.get(length)!.get(value & maskOf(length));
      if (hit) return hit;
    }
    return null;
  }
}

describe("longest-prefix match helper", () => {
  it("prefers the most specific prefix, across both families", () => {
    const table = new PrefixTable<string>();
    table.insert("10.0.0.0/8", "a");
    table.insert("10.1.0.0/16", "b");
    table.insert("2001:db8::/32", "c");
    table.insert("2001:db8:1::/48", "d");
    expect(table.lookup("::ffff:10.1.2.3")).toEqual(["b"]);
    expect(table.lookup("10.2.0.1")).toEqual(["a"]);
    expect(table.lookup("::ffff:11.0.0.1")).toBeNull();
    expect(table.lookup("2001:db8:1:ffff::1")).toEqual(["d"]);
    expect(table.lookup("2001:db8:2::1")).toEqual(["c"]);
    expect(table.lookup("2001:db9::1")).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

describe("demo network", () => {
  it("loads the period asked for", () => {
    expect(summary.period).toEqual({ start: new Date(START * 1000).toISOString(), end: new Date(NOW * 1000).toISOString() });
    for (const table of ["flows_raw", "flows_5m", "flows_1h", "interface_util_5m", "rib_entries", "rib_current", "tracked_as"]) {
      expect(summary.rows[`clickhouse.${table}`], table).toBeGreaterThan(0);
    }
  });

  it("1. raw flows of the last day add up to the 5-minute aggregates (top-200 rule applied)", async () => {
    const raw = await chRows<{ t: number; as_src: number; ingress_router: string; in_if: string; bytes: string }>(
      stores,
      `SELECT toUInt32(toStartOfFiveMinutes(time_received)) AS t, as_src, ingress_router, in_if,
              toString(sum(bytes * sampling_rate)) AS bytes
       FROM flows_raw GROUP BY t, as_src, ingress_router, in_if`,
    );
    const agg = await chRows<{ t: number; as_src: number; ingress_router: string; in_if: string; bytes: string }>(
      stores,
      `SELECT toUInt32(time) AS t, as_src, ingress_router, in_if, toString(sum(bytes)) AS bytes
       FROM flows_5m WHERE time >= toDateTime({from:UInt32}, 'UTC') GROUP BY t, as_src, ingress_router, in_if`,
      { from: RAW_FROM },
    );
    const expected = new Map<string, bigint>();
    let minT = Infinity;
    let maxT = -Infinity;
    for (const r of raw) {
      add(expected, `${r.t}|${fold(Number(r.as_src))}|${r.ingress_router}|${r.in_if}`, BigInt(r.bytes));
      minT = Math.min(minT, Number(r.t));
      maxT = Math.max(maxT, Number(r.t));
    }
    const actual = new Map<string, bigint>();
    for (const r of agg) add(actual, `${r.t}|${r.as_src}|${r.ingress_router}|${r.in_if}`, BigInt(r.bytes));

    // The raw day is exactly the last 24 h: 288 buckets.
    expect(minT).toBe(RAW_FROM);
    expect(maxT).toBe(NOW - BUCKET);
    expect(new Set(raw.map((r) => Number(r.t))).size).toBe(DAY / BUCKET);
    // Folding actually happened (untracked sources exist in the raw day), so the check has teeth.
    expect(raw.some((r) => fold(Number(r.as_src)) === OTHERS)).toBe(true);
    expect(expected.size).toBeGreaterThan(1000);
    const diff = differences(expected, actual);
    expect(diff, `${diff.total} of ${expected.size} keys differ`).toEqual({ total: 0, sample: [] });
  });

  it("2. hourly aggregates equal the sum of their 5-minute aggregates, per hour and as_dst", async () => {
    const fiveMinute = await chRows<{ t: number; as_dst: number; bytes: string }>(
      stores,
      "SELECT toUInt32(time) AS t, as_dst, toString(sum(bytes)) AS bytes FROM flows_5m GROUP BY t, as_dst",
    );
    const hourly = await chRows<{ t: number; as_dst: number; bytes: string }>(
      stores,
      "SELECT toUInt32(time) AS t, as_dst, toString(sum(bytes)) AS bytes FROM flows_1h GROUP BY t, as_dst",
    );
    const expected = new Map<string, bigint>();
    for (const r of fiveMinute) add(expected, `${Math.floor(Number(r.t) / HOUR) * HOUR}|${r.as_dst}`, BigInt(r.bytes));
    const actual = new Map<string, bigint>();
    for (const r of hourly) add(actual, `${r.t}|${r.as_dst}`, BigInt(r.bytes));

    // The whole period: 3 days starting at 11:10 cover 73 clock hours.
    const hours = new Set(hourly.map((r) => Number(r.t)));
    expect(Math.min(...hours)).toBe(Math.floor(START / HOUR) * HOUR);
    expect(Math.max(...hours)).toBe(Math.floor((NOW - 1) / HOUR) * HOUR);
    expect(hours.size).toBe(73);
    const diff = differences(expected, actual);
    expect(diff, `${diff.total} of ${expected.size} keys differ`).toEqual({ total: 0, sample: [] });
  });

  it("3. only the operator and the top 200 ASes keep their numbers in the aggregates", async () => {
    const trackedRows = await chRows<{ asn: number; rank: number }>(stores, "SELECT asn, rank FROM tracked_as ORDER BY rank");
    const top200 = sortedAsns().slice(0, 200);
    expect(trackedRows).toHaveLength(201);
    expect(trackedRows.map((r) => Number(r.asn))).toEqual([OPERATOR_ASN, ...top200]);
    expect(trackedRows.map((r) => Number(r.rank))).toEqual(Array.from({ length: 201 }, (_, i) => i));

    const aggregated = await chRows<{ column: string; asn: number }>(
      stores,
      `SELECT DISTINCT 'as_src' AS column, as_src AS asn FROM flows_5m
       UNION ALL SELECT DISTINCT 'as_hnd', as_hnd FROM flows_5m
       UNION ALL SELECT DISTINCT 'as_nxt', as_nxt FROM flows_5m
       UNION ALL SELECT DISTINCT 'as_dst', as_dst FROM flows_5m`,
    );
    const bySrc = new Set(aggregated.filter((r) => r.column === "as_src").map((r) => Number(r.asn)));
    expect(bySrc.has(OTHERS), "Others (-101)").toBe(true);
    expect(bySrc.has(UNTRACKED), "Untracked (-999)").toBe(true);
    expect(bySrc.has(NOT_ROUTABLE), "Not routable (-1)").toBe(true);
    const leaked = aggregated.filter((r) => Number(r.asn) > 0 && !tracked.has(Number(r.asn))).map((r) => `${r.column}=${r.asn}`);
    expect(leaked, "untracked AS numbers in flows_5m").toEqual([]);
    const leaked1h = await chRows<{ asn: number }>(
      stores,
      "SELECT DISTINCT as_src AS asn FROM flows_1h WHERE as_src > 0 AND as_src NOT IN (SELECT asn FROM tracked_as)",
    );
    expect(leaked1h, "untracked AS numbers in flows_1h").toEqual([]);

    // The raw records keep the real numbers: every AS beyond the top 200 sends traffic in the raw day.
    const rawSources = await chRows<{ asn: number }>(stores, "SELECT DISTINCT as_src AS asn FROM flows_raw");
    const untrackedInRaw = new Set(rawSources.map((r) => Number(r.asn)).filter((asn) => asn > 0 && !tracked.has(asn)));
    const tail = sortedAsns().slice(200);
    expect(tail.length).toBeGreaterThan(0);
    expect([...untrackedInRaw].sort((a, b) => a - b)).toEqual([...tail].sort((a, b) => a - b));
  });

  it("4. interface utilisation matches the flows crossing each interface, every interface and 5 minutes", async () => {
    const pgInterfaces = await stores.pg.db
      .select({ router: schema.routers.name, name: schema.interfaces.name, capacityBps: schema.interfaces.capacityBps })
      .from(schema.interfaces)
      .innerJoin(schema.routers, eq(schema.interfaces.routerId, schema.routers.id));
    // Interfaces and buckets as dense indexes: sums in Float64Arrays (exact: every sum stays far below 2^53).
    const interfaceIndex = new Map(pgInterfaces.map((i, index) => [`${i.router}|${i.name}`, index]));
    expect(interfaceIndex.size).toBe(pgInterfaces.length);
    const buckets = (NOW - START) / BUCKET;
    const cells = pgInterfaces.length * buckets;
    const cell = (t: number, router: string, name: string) => {
      const index = interfaceIndex.get(`${router}|${name}`);
      if (index === undefined || t < START || t >= NOW || (t - START) % BUCKET)
        throw new Error(`unexpected interface or time ${router}|${name} @ ${t}`);
      return ((t - START) / BUCKET) * pgInterfaces.length + index;
    };
    const label = (c: number) =>
      `${pgInterfaces[c % pgInterfaces.length].router}|${pgInterfaces[c % pgInterfaces.length].name} @ ${new Date((START + Math.floor(c / pgInterfaces.length) * BUCKET) * 1000).toISOString()}`;

    const util = await chRows<{ t: number; router: string; interface: string; in_bytes: number; out_bytes: number; capacity_bps: number }>(
      stores,
      "SELECT toUInt32(time) AS t, router, interface, in_bytes, out_bytes, capacity_bps FROM interface_util_5m",
    );
    // One flows_5m group per bucket and route through the network (the interface columns joined by '|').
    const flows = await chRows<{ t: number; route: string; bytes: number }>(
      stores,
      `SELECT toUInt32(time) AS t,
              concat(ingress_router, '|', in_if, '|', egress_router, '|', out_if, '|', link_start_router, '|', link_start_if,
                     '|', link_end_router, '|', link_end_if) AS route,
              sum(bytes) AS bytes
       FROM flows_5m GROUP BY t, route`,
    );

    // Expected bytes per interface and bucket: in where traffic enters a router (ingress, or the
    // far end of the core link), out where it leaves (egress, or the near end of the core link).
    const expectedIn = new Float64Array(cells);
    const expectedOut = new Float64Array(cells);
    let maxSum = 0;
    const halfLinks = new Set<string>();
    for (const f of flows) {
      const [ingressRouter, inIf, egressRouter, outIf, linkStartRouter, linkStartIf, linkEndRouter, linkEndIf] = f.route.split("|");
      const t = Number(f.t);
      const bytes = Number(f.bytes);
      expectedIn[cell(t, ingressRouter, inIf)] += bytes;
      expectedOut[cell(t, egressRouter, outIf)] += bytes;
      if (linkStartIf) expectedOut[cell(t, linkStartRouter, linkStartIf)] += bytes;
      if (linkEndIf) expectedIn[cell(t, linkEndRouter, linkEndIf)] += bytes;
      if (Boolean(linkStartIf) !== Boolean(linkEndIf)) halfLinks.add(f.route);
    }
    expect([...halfLinks], "core links with one end only").toEqual([]);
    for (let c = 0; c < cells; c++) maxSum = Math.max(maxSum, expectedIn[c], expectedOut[c]);
    expect(maxSum).toBeLessThan(Number.MAX_SAFE_INTEGER / 16);

    const actualIn = new Float64Array(cells);
    const actualOut = new Float64Array(cells);
    const rowsPerCell = new Uint16Array(cells);
    const wrongCapacity: string[] = [];
    for (const u of util) {
      const c = cell(Number(u.t), u.router, u.interface);
      rowsPerCell[c]++;
      actualIn[c] += Number(u.in_bytes);
      actualOut[c] += Number(u.out_bytes);
      const pg = Number(pgInterfaces[c % pgInterfaces.length].capacityBps);
      if (Number(u.capacity_bps) !== pg) wrongCapacity.push(`${label(c)}: ${u.capacity_bps} in ClickHouse, ${pg} in PostgreSQL`);
    }

    const problems: string[] = [];
    let busy = 0;
    for (let c = 0; c < cells; c++) {
      if (rowsPerCell[c] !== 1) problems.push(`${label(c)}: ${rowsPerCell[c]} util rows`);
      if (actualIn[c] !== expectedIn[c]) problems.push(`${label(c)}: in_bytes ${actualIn[c]}, flows say ${expectedIn[c]}`);
      if (actualOut[c] !== expectedOut[c]) problems.push(`${label(c)}: out_bytes ${actualOut[c]}, flows say ${expectedOut[c]}`);
      if (actualIn[c] > 0) busy++;
    }
    expect(problems.slice(0, 12), `${problems.length} problems over ${cells} interface/bucket pairs`).toEqual([]);
    expect(wrongCapacity.slice(0, 12), `${wrongCapacity.length} util rows with another capacity than PostgreSQL`).toEqual([]);
    // Exactly one row per inventory interface and bucket, and nothing else.
    expect(util.length).toBe(cells);
    // The check has teeth: most interfaces carry traffic in most buckets.
    expect(busy).toBeGreaterThan(cells * 0.8);
  });

  /** Per vantage point, the longest-prefix-match table of the active routes of rib_current. */
  type Route = {
    prefix: string;
    peer_ip: string;
    peer_asn: number;
    as_path: number[];
    local_pref: number;
    med: number;
    origin: string;
    timestamp: string;
  };
  type Flow = { exporter: string; dst: string; asNxt: number; asDst: number };

  /** BGP best-path selection, the steps that apply here: local-pref, AS path length, origin, MED, eBGP over iBGP, lowest peer. */
  const ORIGIN: Record<string, number> = { IGP: 0, EGP: 1, INCOMPLETE: 2 };
  const compareAddresses = (a: string, b: string) => {
    const x = a ? addressValue(a) : -1n;
    const y = b ? addressValue(b) : -1n;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const best = (candidates: Route[]) =>
    [...candidates].sort(
      (a, b) =>
        b.local_pref - a.local_pref ||
        a.as_path.length - b.as_path.length ||
        ORIGIN[a.origin] - ORIGIN[b.origin] ||
        a.med - b.med ||
        Number(Number(a.peer_asn) === OPERATOR_ASN) - Number(Number(b.peer_asn) === OPERATOR_ASN) ||
        compareAddresses(a.peer_ip, b.peer_ip),
    )[0];
  const describeRoute = (c: Route) =>
    `[${c.as_path.join(" ")}] ${c.prefix} from ${c.peer_ip} (AS${c.peer_asn}) lp ${c.local_pref} med ${c.med} @${c.timestamp}`;

  /**
   * Checks flows against routing tables: `bestMismatches` where the best route's AS path does not
   * run from as_nxt to as_dst, `competing` where another active route leads through another neighbour.
   */
  function checkFlowsAgainstRib(flows: Flow[], tables: Map<string, PrefixTable<Route>>, vantageOf: Map<string, string>) {
    const bestMismatches = { byAsDst: {} as Record<number, number>, examples: [] as string[] };
    const competing = { byAsDst: {} as Record<number, number>, examples: [] as string[] };
    for (const f of flows) {
      const vantagePoint = vantageOf.get(f.exporter);
      const candidates = (vantagePoint && tables.get(vantagePoint)?.lookup(f.dst)) || [];
      const route = candidates.length ? best(candidates) : null;
      const path = route?.as_path.map(Number) ?? [];
      const where = `${f.exporter} (${vantagePoint}) -> ${f.dst}, flow as_nxt ${f.asNxt} as_dst ${f.asDst}`;
      if (!route || path[0] !== f.asNxt || path[path.length - 1] !== f.asDst) {
        bestMismatches.byAsDst[f.asDst] = (bestMismatches.byAsDst[f.asDst] ?? 0) + 1;
        if (bestMismatches.examples.length < 6) {
          bestMismatches.examples.push(
            `${where}: ${route ? `best ${describeRoute(route)}; all: ${candidates.map(describeRoute).join("; ")}` : "no route"}`,
          );
        }
      }
      const elsewhere = candidates.filter((c) => Number(c.as_path[0]) !== f.asNxt || Number(c.as_path[c.as_path.length - 1]) !== f.asDst);
      if (route && elsewhere.length) {
        competing.byAsDst[f.asDst] = (competing.byAsDst[f.asDst] ?? 0) + 1;
        if (competing.examples.length < 6) competing.examples.push(`${where}: also ${elsewhere.map(describeRoute).join("; ")}`);
      }
    }
    return { bestMismatches, competing };
  }

  let ribCheck: Promise<{ flows: number; result: ReturnType<typeof checkFlowsAgainstRib> }> | undefined;
  /** Outbound raw flows (operator to a positive ASN) against rib_current, computed once for tests 5 and 5b. */
  function checkLoadedRib() {
    ribCheck ??= (async () => {
      const vantagePoints = await stores.pg.db
        .select({ key: schema.vantagePoints.key, router: schema.vantagePoints.router })
        .from(schema.vantagePoints);
      const vantageOf = new Map(vantagePoints.map((v) => [v.router, v.key]));
      const routes = await chRows<Route & { vantage_point: string }>(
        stores,
        `SELECT vantage_point, prefix, peer_ip, peer_asn, as_path, local_pref, med, origin, toString(timestamp) AS timestamp
         FROM rib_current FINAL WHERE is_withdrawn = 0`,
      );
      const tables = new Map<string, PrefixTable<Route>>();
      for (const r of routes) {
        if (!tables.has(r.vantage_point)) tables.set(r.vantage_point, new PrefixTable());
        tables.get(r.vantage_point)!.insert(r.prefix, r);
      }
      expect([...tables.keys()].sort(), "every vantage point has a routing table").toEqual(vantagePoints.map((v) => v.key).sort());
      // All of the distinct outbound rows (a few thousand), not a sample: cheap, and nothing can hide.
      const rows = await chRows<{ exporter_name: string; dst_addr: string; as_nxt: number; as_dst: number }>(
        stores,
        `SELECT DISTINCT exporter_name, toString(dst_addr) AS dst_addr, as_nxt, as_dst
         FROM flows_raw WHERE as_src = {operator:Int64} AND as_dst > 0`,
        { operator: OPERATOR_ASN },
      );
      const flows = rows.map((r) => ({ exporter: r.exporter_name, dst: r.dst_addr, asNxt: Number(r.as_nxt), asDst: Number(r.as_dst) }));
      return { flows: flows.length, result: checkFlowsAgainstRib(flows, tables, vantageOf) };
    })();
    return ribCheck;
  }

  it("5. the routing table agrees with the outbound flows (best route: first AS = as_nxt, last = as_dst)", async () => {
    const [state] = await stores.pg.db.select().from(schema.systemState).where(eq(schema.systemState.key, "demo"));
    const demo = state.value as {
      loaded: boolean;
      start: number;
      end: number;
      events: { kind: string; at: string; description: string }[];
    };
    expect(demo.loaded).toBe(true);
    expect([demo.start, demo.end]).toEqual([START, NOW]);
    // rib_current is the state at the end of the period and the flows come from the last day: an
    // event inside the raw day would make both routes legitimately appear; there is none.
    const events = demo.events.map((e) => ({ kind: e.kind, at: Date.parse(e.at) / 1000 }));
    // Only events inside the generated period happen (3 days: just the outage).
    expect(events.every((e) => e.at > START && e.at < NOW)).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(["interface-outage"]);
    expect(
      events.filter((e) => e.at >= RAW_FROM),
      "no event changes the paths during the raw day",
    ).toEqual([]);

    const { flows, result } = await checkLoadedRib();
    expect(flows).toBeGreaterThan(200);
    expect(result.bestMismatches, `outbound rows (of ${flows}) whose best route disagrees`).toEqual({ byAsDst: {}, examples: [] });
  });

  it("5b. no other active route at the exporter leads through another neighbour AS than the flows", async () => {
    // In the demo model every destination AS is reached through one neighbour AS at a time (its
    // own sessions, or its one transit provider); the events move it. A second, competing route
    // means the routing table kept a route an event withdrew.
    const { result } = await checkLoadedRib();
    const early = await chRows<{ at: string; rows: number }>(
      stores,
      `SELECT toString(timestamp) AS at, toUInt32(count()) AS rows FROM rib_entries
       WHERE timestamp < toDateTime({start:UInt32}, 'UTC') GROUP BY at ORDER BY at`,
      { start: START },
    );
    expect(
      result.competing,
      `outbound rows with a competing route; rib_entries dated before the period start (${new Date(START * 1000).toISOString()}): ${JSON.stringify(early)}`,
    ).toEqual({ byAsDst: {}, examples: [] });
  });

  it.each([
    ["the loaded 3 days", DAYS],
    ["the default period (DEMO_DAYS), with every event inside it", DEMO_DAYS],
  ])("5c. the routing model agrees with the outbound paths at the end of %s", (_label, days) => {
    // Pure model: the paths valid at the end and the newest RIB row per route, as rib_current keeps it.
    const start = NOW - days * DAY;
    const random = createRandom(DEMO_SEED);
    const topology = buildTopology(DEMO_ASES, random);
    const addresses = buildAddressPlan(DEMO_ASES, OPERATOR_ASN);
    const traffic = buildTraffic({
      ases: DEMO_ASES,
      operatorAsn: OPERATOR_ASN,
      topology,
      addresses,
      random,
      start,
      end: NOW,
      totalInboundBps: 700e9,
    });
    const rib = buildRib({ ases: DEMO_ASES, operatorAsn: OPERATOR_ASN, topology, addresses, events: traffic.events, start, end: NOW });
    const newest = new Map<string, RibRow>();
    for (const row of rib) {
      const key = `${row.vantage_point}|${row.route_distinguisher}|${row.prefix}|${row.peer_ip}`;
      const seen = newest.get(key);
      if (!seen || row.timestamp >= seen.timestamp) newest.set(key, row);
    }
    const tables = new Map<string, PrefixTable<Route>>();
    for (const r of newest.values()) {
      if (r.is_withdrawn) continue;
      if (!tables.has(r.vantage_point)) tables.set(r.vantage_point, new PrefixTable());
      tables.get(r.vantage_point)!.insert(r.prefix, { ...r, timestamp: new Date(r.timestamp * 1000).toISOString() });
    }
    const vantageOf = new Map(topology.routers.map((r) => [r.name, r.vantagePointKey]));
    const flows = traffic.paths
      .filter((p) => p.asSrc === OPERATOR_ASN && p.asDst > 0 && p.validFrom < NOW && p.validTo >= NOW)
      .flatMap((p) => p.dstHosts.map((dst) => ({ exporter: p.exporterName, dst, asNxt: p.asNxt, asDst: p.asDst })));
    expect(flows.length).toBeGreaterThan(200);
    const { bestMismatches } = checkFlowsAgainstRib(flows, tables, vantageOf);
    const events = traffic.events.map(
      (e) => `${e.kind} ${new Date(e.at * 1000).toISOString()} ${e.at >= start ? "inside" : "before"} the period`,
    );
    expect(bestMismatches, `period from ${new Date(start * 1000).toISOString()}; events: ${events.join(", ")}`).toEqual({
      byAsDst: {},
      examples: [],
    });
  });

  it("5d. the routing history runs up to the end of the period: sessions flap, and come back", async () => {
    const [r] = await chRows<{ newest: number; withdrawn: number; back: number }>(
      stores,
      `SELECT toUInt32(max(timestamp)) AS newest,
              toUInt32(countIf(is_withdrawn = 1 AND timestamp >= toDateTime({from:UInt32}, 'UTC'))) AS withdrawn,
              toUInt32(countIf(is_withdrawn = 0 AND timestamp >= toDateTime({from:UInt32}, 'UTC'))) AS back
       FROM rib_entries`,
      { from: NOW - DAY },
    );
    // The Control Plane's "new data" is minutes old right after the load, not days.
    expect(Number(r.newest)).toBeGreaterThan(NOW - 600);
    expect(Number(r.newest)).toBeLessThan(NOW);
    expect(Number(r.withdrawn)).toBeGreaterThan(100);
    // Every flap is followed by the same routes again (tests 5 and 5c check the table they leave).
    expect(Number(r.back)).toBeGreaterThanOrEqual(Number(r.withdrawn));
  });

  it("6. the traffic model is deterministic for a seed and differs for another seed", () => {
    const model = (seed: number) => {
      const random = createRandom(seed);
      const topology = buildTopology(DEMO_ASES, random);
      const addresses = buildAddressPlan(DEMO_ASES, OPERATOR_ASN);
      return buildTraffic({
        ases: DEMO_ASES,
        operatorAsn: OPERATOR_ASN,
        topology,
        addresses,
        random,
        start: START,
        end: NOW,
        totalInboundBps: 700e9,
      });
    };
    const first = model(DEMO_SEED);
    const second = model(DEMO_SEED);
    expect(first.paths.length).toBeGreaterThan(1000);
    expect(second.paths).toEqual(first.paths);
    expect(second.events).toEqual(first.events);
    expect(second.tracked).toEqual(first.tracked);
    const other = model(DEMO_SEED + 1);
    expect(other.paths).not.toEqual(first.paths);
    // The loaded events are those of the model for the seed used.
    expect(summary.events.map((e) => ({ kind: e.kind, at: Date.parse(e.at) / 1000, description: e.description }))).toEqual(
      first.events.map((e) => ({ kind: e.kind, at: e.at, description: e.description })),
    );
  });

  it("7. inbound traffic peaks in the evening: 20:00 UTC above 04:00 UTC on every full day", async () => {
    const rows = await chRows<{ t: number; bytes: string }>(
      stores,
      "SELECT toUInt32(time) AS t, toString(sum(bytes)) AS bytes FROM flows_5m WHERE as_dst = {operator:Int64} GROUP BY t",
      { operator: OPERATOR_ASN },
    );
    const perHour = new Map<number, bigint>();
    const bucketsPerHour = new Map<number, number>();
    for (const r of rows) {
      const hour = Math.floor(Number(r.t) / HOUR) * HOUR;
      perHour.set(hour, (perHour.get(hour) ?? 0n) + BigInt(r.bytes));
      bucketsPerHour.set(hour, (bucketsPerHour.get(hour) ?? 0) + 1);
    }
    const fullDays: number[] = [];
    for (let day = Math.ceil(START / DAY) * DAY; day + DAY <= NOW; day += DAY) fullDays.push(day);
    expect(fullDays).toHaveLength(DAYS - 1);
    for (const day of fullDays) {
      const evening = day + 20 * HOUR;
      const night = day + 4 * HOUR;
      expect(bucketsPerHour.get(evening), "complete hour").toBe(12);
      expect(bucketsPerHour.get(night), "complete hour").toBe(12);
      const label = new Date(day * 1000).toISOString().slice(0, 10);
      expect(perHour.get(evening)! > perHour.get(night)!, `${label}: 20:00 ${perHour.get(evening)} vs 04:00 ${perHour.get(night)}`).toBe(
        true,
      );
    }
  });

  it("9. link notifications name the external links whose peak of the last week reached 75 %, with the right figure", async () => {
    // Recomputed from interface_util_5m (not from the generator's own peak query).
    const util = await chRows<{ router: string; interface: string; peak: number; capacity: number }>(
      stores,
      `SELECT router, interface, max(greatest(in_bytes, out_bytes)) * 8 / 300 AS peak, any(capacity_bps) AS capacity
       FROM interface_util_5m FINAL WHERE kind = 'external' AND time >= toDateTime({from:UInt32}) GROUP BY router, interface`,
      { from: NOW - 7 * DAY },
    );
    const expected = util
      .filter((u) => Number(u.peak) / Number(u.capacity) >= 0.75)
      .map((u) => ({ key: `${u.router} ${u.interface}`, pct: Math.round((Number(u.peak) / Number(u.capacity)) * 100) }));
    const operator = (await stores.pg.db.select().from(schema.users).where(eq(schema.users.email, "operator@flowlens.example")))[0];
    const rows = await stores.pg.db.select().from(schema.notifications).where(eq(schema.notifications.userId, operator.id));
    const got = rows.map((n) => {
      const m = /^Border link (\S+) (\S+) peaked at (\d+) %$/.exec(n.title)!;
      return { key: `${m[1]} ${m[2]}`, pct: Number(m[3]) };
    });
    expect(got.length).toBeGreaterThan(0);
    expect(got.sort((a, b) => a.key.localeCompare(b.key))).toEqual(expected.sort((a, b) => a.key.localeCompare(b.key)));
  });

  it("8. PostgreSQL holds the demo users, routers, vantage points, interfaces and AS names", async () => {
    const db = stores.pg.db;
    const users = await db.select().from(schema.users);
    expect(users).toHaveLength(5);
    const superusers = users.filter((u) => u.isSuperuser);
    expect(superusers).toHaveLength(1);
    const delegated = users.filter((u) => u.isDelegated);
    expect(delegated).toHaveLength(1);
    expect(delegated[0].isSuperuser).toBe(false);
    // Delegated by another, ordinary user (the operator).
    const delegator = users.find((u) => u.id === delegated[0].delegatedById);
    expect(delegator, "delegating user").toBeDefined();
    expect(delegator!.isDelegated || delegator!.isSuperuser).toBe(false);
    expect(users.filter((u) => u.isStaff && !u.isSuperuser)).toHaveLength(1);
    const [moderators] = await db.select().from(schema.groups).where(eq(schema.groups.name, MODERATORS_GROUP));
    expect(moderators, "moderators group").toBeDefined();
    const members = await db.select().from(schema.userGroups).where(eq(schema.userGroups.groupId, moderators.id));
    expect(members, "one moderator").toHaveLength(1);
    const moderator = users.find((u) => u.id === members[0].userId)!;
    expect(moderator.isSuperuser || moderator.isDelegated || moderator.isStaff).toBe(false);
    // One user per kind: five different accounts that each can log in.
    expect(new Set(users.map((u) => u.email)).size).toBe(5);
    expect(users.every((u) => u.passwordHash && u.isActive)).toBe(true);

    const restrictions = await db.select().from(schema.delegationRestrictions);
    expect(restrictions).toHaveLength(1);
    expect(restrictions[0].userId).toBe(delegated[0].id);
    const interfaces = await db.select().from(schema.interfaces);
    const customerAsns = new Set(interfaces.filter((i) => i.peeringType === "Customer").map((i) => String(i.neighborAsn)));
    expect(customerAsns.size).toBeGreaterThan(0);
    const named = restrictions[0].flowsViewsRestrictions.flatMap((r) => r.constrained_values);
    expect(named.length).toBeGreaterThan(0);
    expect(
      named.every((v) => customerAsns.has(String(v))),
      `${named} are customer ASNs`,
    ).toBe(true);

    const routers = await db.select().from(schema.routers);
    expect(routers).toHaveLength(9);
    // One exporter address per router, a loopback address the built-in flow generator can send from.
    const exporters = await db.select().from(schema.routerExporters);
    expect(exporters.map((e) => e.routerId).sort()).toEqual(routers.map((r) => r.id).sort());
    expect(exporters.every((e) => /^127\.0\.1\.\d+$/.test(e.address))).toBe(true);
    // The raw flows name each router by the address it exports from, as the collector would.
    const nameOf = new Map(routers.map((r) => [r.id, r.name]));
    const inventoryPairs = exporters.map((e) => `${nameOf.get(e.routerId)} ${e.address}`).sort();
    const rawPairs = await chRows<{ pair: string }>(
      stores,
      "SELECT DISTINCT concat(exporter_name, ' ', replaceOne(toString(exporter_address), '::ffff:', '')) AS pair FROM flows_raw",
    );
    expect(rawPairs.map((r) => r.pair).sort()).toEqual(inventoryPairs);
    const vantagePoints = await db.select().from(schema.vantagePoints);
    expect(vantagePoints).toHaveLength(9);
    expect(new Set(vantagePoints.map((v) => v.router))).toEqual(new Set(routers.map((r) => r.name)));
    const publicCount = vantagePoints.filter((v) => v.isPublic).length;
    expect(publicCount).toBeGreaterThan(0);
    expect(publicCount).toBeLessThan(9);

    expect(interfaces.length).toBeGreaterThanOrEqual(55);
    expect(interfaces.length).toBeLessThanOrEqual(80);
    const badCapacity = interfaces.filter((i) => !(Number(i.capacityBps) > 0 && Number(i.capacityBps) % 10_000_000_000 === 0));
    expect(badCapacity.map((i) => `${i.routerId}/${i.name}: ${i.capacityBps}`)).toEqual([]);

    const asInfo = await db.select().from(schema.asInfo);
    expect(asInfo.length).toBeGreaterThanOrEqual(250);
    expect(asInfo.some((a) => Number(a.asn) === OPERATOR_ASN)).toBe(true);
  });

  it("12. Revenues & Costs: a contract per transit AS, private peering, exchange port and customer, each billing that partner's ports", async () => {
    const { listContracts } = await import("~/features/revenues/contracts.server");
    const { billsOfMonth } = await import("~/features/revenues/revenue-cost.server");
    const contracts = await listContracts(stores.pg.db);
    const external = await stores.pg.db.select().from(schema.interfaces).where(eq(schema.interfaces.kind, "external"));
    const asns = (type: string, pni?: boolean) =>
      [
        ...new Set(
          external
            .filter((i) => i.peeringType === type && i.neighborAsn !== null && (pni === undefined || (i.connection === "PNI") === pni))
            .map((i) => i.neighborAsn),
        ),
      ].sort();
    const of = (prefix: string) => contracts.filter((c) => c.name.startsWith(prefix));
    expect(
      of("Transit ")
        .map((c) => c.partnerAsn)
        .sort(),
    ).toEqual(asns("Transit"));
    expect(
      of("PNI ")
        .map((c) => c.partnerAsn)
        .sort(),
    ).toEqual(asns("Peering", true));
    expect(
      of("Customer ")
        .map((c) => c.partnerAsn)
        .sort(),
    ).toEqual(asns("Customer"));
    expect(of("IX port ")).toHaveLength(external.filter((i) => i.peeringType === "Peering" && i.neighborAsn === null).length);
    for (const c of contracts) {
      expect(c.ports.length, c.name).toBeGreaterThan(0);
      if (c.partnerAsn !== null) for (const p of c.ports) expect([c.name, p.neighborAsn]).toEqual([c.name, c.partnerAsn]);
    }
    expect(
      of("Transit ").every((c) => c.method === "Max 95th" && c.direction === "cost" && c.commitPriceEur >= 0.2 && c.commitPriceEur <= 0.45),
    ).toBe(true);
    // The month the demo's data ends in has real bills: every transit's billed 95th from the demo's samples.
    const last = new Date(Date.parse(summary.period.end) - 1000);
    const bills = await billsOfMonth(stores, of("Transit "), last.getUTCFullYear(), last.getUTCMonth() + 1);
    expect(bills).toHaveLength(of("Transit ").length);
    for (const b of bills) {
      expect(b.traffic.billed95thMbps, b.contract.name).toBeGreaterThan(0);
      expect(b.charges.totalEur).toBeGreaterThan(0);
    }
  });

  it("10. every interface's name says its speed, and its capacity is that speed (a bundle: members of one speed)", async () => {
    const rows = await stores.pg.db
      .select({
        router: schema.routers.name,
        vendor: schema.routers.vendor,
        name: schema.interfaces.name,
        capacityBps: schema.interfaces.capacityBps,
      })
      .from(schema.interfaces)
      .innerJoin(schema.routers, eq(schema.interfaces.routerId, schema.routers.id));
    // What a network engineer reads from a name: Juniper ge- 1GE, xe- 10GE, et- 40/100/400GE, aeN a bundle;
    // Cisco GigabitEthernet, TenGigE, FortyGigE/HundredGigE, FourHundredGigE, Bundle-EtherN.
    const SPEEDS: [RegExp, number[]][] = [
      [/^ge-\d+\/\d+\/\d+$/, [1e9]],
      [/^xe-\d+\/\d+\/\d+$/, [10e9]],
      [/^et-\d+\/\d+\/\d+$/, [40e9, 100e9, 400e9]],
      [/^GigabitEthernet[\d/]+$/, [1e9]],
      [/^TenGigE[\d/]+$/, [10e9]],
      [/^FortyGigE[\d/]+$/, [40e9]],
      [/^HundredGigE[\d/]+$/, [100e9]],
      [/^FourHundredGigE[\d/]+$/, [400e9]],
    ];
    const BUNDLE = /^(ae\d+|Bundle-Ether\d+)$/;
    const wrong = rows.filter((r) => {
      const capacity = Number(r.capacityBps);
      if (BUNDLE.test(r.name))
        return ![10e9, 100e9, 400e9].some((member) => capacity % member === 0 && capacity / member >= 2 && capacity / member <= 8);
      const rule = SPEEDS.find(([pattern]) => pattern.test(r.name));
      if (!rule) return true;
      const juniperName = /^(ge|xe|et)-/.test(r.name);
      return !rule[1].includes(capacity) || juniperName !== (r.vendor === "juniper");
    });
    expect(wrong.map((r) => `${r.router} ${r.name} (${r.vendor}): ${Number(r.capacityBps) / 1e9} Gbit/s`)).toEqual([]);
    // The flows name the same interfaces.
    const flowNames = await chRows<{ router: string; name: string }>(
      stores,
      "SELECT DISTINCT ingress_router AS router, in_if AS name FROM flows_5m",
    );
    const known = new Set(rows.map((r) => `${r.router}|${r.name}`));
    expect(flowNames.map((f) => `${f.router}|${f.name}`).filter((k) => !known.has(k))).toEqual([]);
  });

  it("11. no interface carries more than its capacity in any 5 minutes of the period", async () => {
    const over = await chRows<{ router: string; interface: string; peak: number; capacity: number }>(
      stores,
      `SELECT router, interface, max(greatest(in_bytes, out_bytes)) * 8 / 300 AS peak, any(capacity_bps) AS capacity
       FROM interface_util_5m FINAL GROUP BY router, interface HAVING peak > capacity`,
    );
    expect(
      over.map((o) => `${o.router} ${o.interface}: ${(Number(o.peak) / 1e9).toFixed(1)} of ${Number(o.capacity) / 1e9} Gbit/s`),
    ).toEqual([]);
    // Not idle either: every border link is used.
    const idle = await chRows<{ n: number }>(
      stores,
      "SELECT count() AS n FROM (SELECT router, interface, max(in_bytes + out_bytes) AS b FROM interface_util_5m FINAL WHERE kind = 'external' GROUP BY router, interface HAVING b = 0)",
    );
    expect(Number(idle[0].n)).toBe(0);
  });

  it("12. notifications give the utilisation of the port's own size", async () => {
    const ports = await stores.pg.db
      .select({ router: schema.routers.name, name: schema.interfaces.name, capacityBps: schema.interfaces.capacityBps })
      .from(schema.interfaces)
      .innerJoin(schema.routers, eq(schema.interfaces.routerId, schema.routers.id));
    const capacityOf = new Map(ports.map((p) => [`${p.router} ${p.name}`, Number(p.capacityBps)]));
    const rows = await stores.pg.db.select().from(schema.notifications);
    expect(rows.length).toBeGreaterThan(0);
    for (const n of rows) {
      const port = /^Border link (\S+ \S+) peaked at/.exec(n.title)![1];
      const said = /of (\d+) Gbit\/s\.$|\((\d+) Gbit\/s\)\.$/.exec(n.message ?? "");
      expect(said, n.message ?? "").not.toBeNull();
      expect(Number(said![1] ?? said![2]) * 1e9, `${n.title}: ${n.message}`).toBe(capacityOf.get(port));
    }
  });

  it("13. withdrawn routes carry no path attributes", async () => {
    const [row] = await chRows<{ withdrawn: number; with_attributes: number }>(
      stores,
      `SELECT countIf(is_withdrawn = 1) AS withdrawn,
              countIf(is_withdrawn = 1 AND (length(as_path) > 0 OR local_pref != 0 OR med != 0 OR bgp_next_hop != '' OR length(communities) > 0 OR originator_id != '')) AS with_attributes
       FROM rib_entries`,
    );
    expect(Number(row.withdrawn)).toBeGreaterThan(0);
    expect(Number(row.with_attributes)).toBe(0);
  });

  it("14. route origins are IGP for almost every network, Google's included; INCOMPLETE only for a few small networks", async () => {
    const origins = await chRows<{ origin: string; n: number; google: number }>(
      stores,
      `SELECT toString(origin) AS origin, count() AS n, countIf(as_path[-1] = 15169) AS google FROM rib_entries WHERE is_withdrawn = 0 AND length(as_path) > 0 GROUP BY origin`,
    );
    const count = (o: string) => Number(origins.find((r) => r.origin === o)?.n ?? 0);
    const total = origins.reduce((s, r) => s + Number(r.n), 0);
    expect(count("IGP") / total).toBeGreaterThan(0.9);
    expect(count("INCOMPLETE")).toBeGreaterThan(0);
    expect(Number(origins.find((r) => r.origin === "IGP")?.google ?? 0)).toBeGreaterThan(0);
    expect(origins.filter((r) => r.origin !== "IGP").reduce((s, r) => s + Number(r.google), 0)).toBe(0);
    const incomplete = await chRows<{ asn: number }>(
      stores,
      "SELECT DISTINCT as_path[-1] AS asn FROM rib_entries WHERE origin = 'INCOMPLETE' AND is_withdrawn = 0",
    );
    const small = new Set(DEMO_ASES.filter((a) => a.category === "customer" || a.category === "enterprise").map((a) => a.asn));
    expect(incomplete.map((r) => Number(r.asn)).filter((asn) => !small.has(asn))).toEqual([]);
  });

  it("15. every external link carries outbound traffic in the flows and in the counters; transit and private interconnects less than inbound", async () => {
    const external = await stores.pg.db
      .select({ router: schema.routers.name, name: schema.interfaces.name, peeringType: schema.interfaces.peeringType })
      .from(schema.interfaces)
      .innerJoin(schema.routers, eq(schema.interfaces.routerId, schema.routers.id))
      .where(eq(schema.interfaces.kind, "external"));
    expect(external.length).toBeGreaterThan(30);
    // Per interface over the whole period: bytes the flows carry out of it and into it, and the counters' out_bytes.
    const sums = async (sql: string) =>
      new Map((await chRows<{ port: string; bytes: string }>(stores, sql)).map((r) => [r.port, BigInt(r.bytes)] as const));
    const flowsOut = await sums(
      "SELECT concat(egress_router, '|', out_if) AS port, toString(sum(bytes)) AS bytes FROM flows_5m GROUP BY port",
    );
    const flowsIn = await sums(
      "SELECT concat(ingress_router, '|', in_if) AS port, toString(sum(bytes)) AS bytes FROM flows_5m GROUP BY port",
    );
    const countersOut = await sums(
      "SELECT concat(router, '|', interface) AS port, toString(sum(out_bytes)) AS bytes FROM interface_util_5m FINAL GROUP BY port",
    );
    const problems: string[] = [];
    for (const i of external) {
      const port = `${i.router}|${i.name}`;
      const [out, into, counted] = [flowsOut, flowsIn, countersOut].map((m) => m.get(port) ?? 0n);
      if (out === 0n) problems.push(`${port} (${i.peeringType}): no outbound flows`);
      if (counted === 0n) problems.push(`${port} (${i.peeringType}): outbound counter 0`);
      // An eyeball network's requests and uploads: a fraction of what arrives, more than a trickle.
      const ratio = Number(out) / Number(into);
      if (i.peeringType !== "Customer" && !(ratio >= 0.02 && ratio < 1))
        problems.push(`${port} (${i.peeringType}): outbound ${(ratio * 100).toFixed(1)} % of inbound`);
    }
    expect(problems).toEqual([]);
  });
});
