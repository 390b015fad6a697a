/**
 * Root-cause analysis of the demo network's events (docs/root-cause.md, "Demo events and how they
 * classify"; the events in docs/architecture.md §8): each event, analysed over its period for the object it
 * moves, classifies as stated — the handover shift as a Handover AS Shift, the router shift and the
 * transit port outage (a failover to another router) as Router Shifts, the private interconnect's
 * failover to the exchange port of the same router as an Interface Shift, the full private
 * interconnect whose excess arrives through transit as an Indirect Overflow — and a normal evening
 * and the same kind of evening with 20 % more traffic spread evenly over every part are Organic.
 * The evidence figures are checked against the demo's own rows (flows_5m, interface_util_5m).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { DEMO_DAYS, DEMO_SEED } from "~db/demo/load";
import { createRandom } from "~db/demo/random";
import { buildTopology } from "~db/demo/topology";
import { buildAddressPlan, buildTraffic, CAP_FILL, type DemoEvent } from "~db/demo/traffic";
import {
  NEAR_CAPACITY,
  DIRECT_CAPPED_MAX_RISE,
  INDIRECT_MIN_RISE,
  SHIFT_MIN_MOVED,
  ORGANIC_TOLERANCE,
} from "~/features/flows/rootcause/classify";
import { rootCauseBodySchema, runRootCause, type RootCauseResult } from "~/features/flows/rootcause/analysis.server";
import { PERMISSIONS } from "~/lib/permissions";
import type { UserContext } from "~/server/auth/user-context.server";
import { chCommand, chQuery } from "~/server/clickhouse/query.server";
import { demoTestNow } from "../helpers/clock";
import { openDemoStores } from "../helpers/demo-template";
import type { TestStores } from "../helpers/stores";

const DAY = 86_400;
const HOUR = 3600;
const NOW = demoTestNow();
const START = NOW - DEMO_DAYS * DAY;
const LAST_MIDNIGHT = Math.floor(NOW / DAY) * DAY;
/** A normal evening (19:00–23:00 Central European time) of the biggest content network, and one with 20 % more. */
const NORMAL_EVENING = LAST_MIDNIGHT - 2 * DAY + 18 * HOUR;
const GROWN_EVENING = LAST_MIDNIGHT - 4 * DAY + 18 * HOUR;
const GROWTH = 0.2;

const random = createRandom(DEMO_SEED);
const topology = buildTopology(DEMO_ASES, random);
const model = buildTraffic({
  ases: DEMO_ASES,
  operatorAsn: OPERATOR_ASN,
  topology,
  addresses: buildAddressPlan(DEMO_ASES, OPERATOR_ASN),
  random,
  start: START,
  end: NOW,
  totalInboundBps: 700e9,
});
const eventOf = (kind: DemoEvent["kind"]) => {
  const e = model.events.find((x) => x.kind === kind);
  if (!e) throw new Error(`no ${kind} event in the demo`);
  return e;
};
const biggestContent = [...DEMO_ASES].filter((a) => a.category === "content").sort((a, b) => b.weight - a.weight)[0];

const user: UserContext = {
  id: 1,
  email: "analyst@example.net",
  firstName: "Ana",
  lastName: "Lyst",
  isStaff: true,
  isSuperuser: true,
  isDelegated: false,
  hasConsented: true,
  canChangeOwnGroup: false,
  permissions: [...PERMISSIONS],
  featureFlags: [],
  groups: [],
};

let stores: TestStores;
beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: DEMO_DAYS });
  // The grown evening: every flows_5m row of the network in the period once more at a fifth of its
  // bytes, so each handover AS, router and interface grows by the same 20 %.
  await chCommand(stores.ch, {
    name: "test.growth",
    sql: `INSERT INTO flows_5m SELECT * REPLACE (toUInt64(round(bytes * {growth:Float64})) AS bytes,
            toUInt64(round(packets * {growth:Float64})) AS packets)
          FROM flows_5m WHERE as_src = {asn:Int64} AND time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')`,
    params: { growth: GROWTH, asn: biggestContent.asn, start: GROWN_EVENING, end: GROWN_EVENING + 4 * HOUR },
  });
}, 900_000);
afterAll(async () => stores?.dispose());

const analyse = (dimension: string, value: number | string, start: number, duration = "4h") =>
  runRootCause(
    stores,
    user,
    rootCauseBodySchema.parse({ dimension, value: String(value), start: new Date(start * 1000).toISOString(), duration }),
  );

/** The analysis's main figures, printed for docs/root-cause.md. */
function summary(label: string, r: RootCauseResult) {
  const moved = (l: keyof RootCauseResult["levels"]) => `${(r.levels[l].moved * 100).toFixed(1)} %`;
  const path = r.path
    ? ` direct ${(r.path.directBaselineBps / 1e9).toFixed(2)} → ${(r.path.directAnomalyBps / 1e9).toFixed(2)} Gbit/s, indirect ${(r.path.indirectBaselineBps / 1e9).toFixed(2)} → ${(r.path.indirectAnomalyBps / 1e9).toFixed(2)} Gbit/s, utilisation ${r.directUtilisation === null ? "–" : (r.directUtilisation * 100).toFixed(1) + " %"}`
    : "";
  console.log(
    `${label}: ${r.classification} — ${r.reason} total ${(r.totals.baselineBps / 1e9).toFixed(2)} → ${(r.totals.anomalyBps / 1e9).toFixed(2)} Gbit/s; moved AS ${moved("handoverAs")}, router ${moved("router")}, interface ${moved("interface")};${path}; top rows ${[
      "handoverAs",
      "router",
      "interface",
    ]
      .map((l) =>
        r.levels[l as "router"].rows
          .slice(0, 2)
          .map((x) => `${x.name} ${x.conclusion}`)
          .join(" / "),
      )
      .join(" | ")}`,
  );
}

const utilRow = z.object({ interface: z.string(), in_bytes: z.number(), capacity_bps: z.number(), peak: z.number() });
async function utilisation(router: string, from: number, to: number) {
  return chQuery(stores.ch, {
    name: "test.util",
    sql: `SELECT interface, toFloat64(sum(u.in_bytes)) AS in_bytes, toFloat64(max(u.capacity_bps)) AS capacity_bps,
                 max(greatest(u.in_bytes, u.out_bytes) * 8 / 300 / u.capacity_bps) AS peak
          FROM interface_util_5m AS u FINAL WHERE u.router = {router:String}
            AND u.time >= toDateTime({from:UInt32}, 'UTC') AND u.time < toDateTime({to:UInt32}, 'UTC') GROUP BY interface`,
    params: { router, from, to },
    schema: utilRow,
  });
}
async function flowBytesIn(router: string, iface: string, from: number, to: number) {
  const [row] = await chQuery(stores.ch, {
    name: "test.flowsIn",
    sql: `SELECT toFloat64(sum(bytes)) AS bytes FROM flows_5m WHERE ingress_router = {router:String} AND in_if = {iface:String}
            AND time >= toDateTime({from:UInt32}, 'UTC') AND time < toDateTime({to:UInt32}, 'UTC')`,
    params: { router, iface, from, to },
    schema: z.object({ bytes: z.number() }),
  });
  return row.bytes;
}

describe("root-cause analysis of the demo's events", () => {
  it("has the five events inside the period, each with four weeks or more of history but the failover (three)", () => {
    expect(model.events.map((e) => e.kind)).toEqual([
      "handover-shift",
      "interface-failover",
      "router-shift",
      "peer-overflow",
      "interface-outage",
    ]);
    for (const e of model.events) expect(e.at - START).toBeGreaterThan(3 * 7 * DAY);
  });

  it("the handover shift (the source AS moves between transit providers) is a Handover AS Shift", async () => {
    const e = eventOf("handover-shift");
    const r = await analyse("AS_SRC_INGRESS", e.asn, e.at);
    summary("handover-shift", r);
    expect(r.classification).toBe("Handover AS Shift");
    expect(r.levels.handoverAs.moved).toBeGreaterThan(0.95);
    const [loser, gainer] = [...r.levels.handoverAs.rows]
      .sort((a, b) => (a.changeBps ?? 0) - (b.changeBps ?? 0))
      .filter((_, i, a) => i === 0 || i === a.length - 1);
    expect([loser.conclusion, gainer.conclusion]).toEqual(["Yes (Loss)", "Yes (Gain)"]);
  });

  it("the router shift (the peer moves its peering to another router's exchange port) is a Router Shift", async () => {
    const e = eventOf("router-shift");
    const r = await analyse("AS_SRC_INGRESS", e.asn, e.at);
    summary("router-shift", r);
    expect(r.classification).toBe("Router Shift");
    expect(r.levels.handoverAs.moved).toBeLessThan(SHIFT_MIN_MOVED);
    expect(r.levels.router.moved).toBeGreaterThan(0.95);
  });

  it("the 4-hour transit port outage (failover to the transit's port on another router) is a Router Shift", async () => {
    const e = eventOf("interface-outage");
    for (const dimension of ["AS_HND_INGRESS", "AS_SRC_INGRESS"]) {
      const r = await analyse(dimension, e.asn, e.at);
      summary(`interface-outage ${dimension}`, r);
      expect(r.classification).toBe("Router Shift");
      expect(r.levels.handoverAs.moved).toBeLessThan(SHIFT_MIN_MOVED);
      expect(r.levels.router.moved).toBeGreaterThanOrEqual(SHIFT_MIN_MOVED);
    }
  });

  it("the private interconnect's failover to the same router's exchange port is an Interface Shift, and the counters agree", async () => {
    const e = eventOf("interface-failover");
    const pni = topology.attachments.get(e.asn)![0];
    const r = await analyse("AS_SRC_INGRESS", e.asn, e.at);
    summary("interface-failover", r);
    expect(r.classification).toBe("Interface Shift");
    expect(r.levels.handoverAs.moved).toBeLessThan(ORGANIC_TOLERANCE);
    expect(r.levels.router.moved).toBeLessThan(ORGANIC_TOLERANCE);
    expect(r.levels.interface.moved).toBeGreaterThan(0.95);
    // One router; the interconnect loses all, the exchange port gains it.
    expect(r.levels.router.rows.map((x) => x.key)).toEqual([pni.router]);
    const rows = r.levels.interface.rows;
    const lost = rows.find((x) => x.conclusion === "Yes (Loss)")!;
    const gained = rows.find((x) => x.conclusion === "Yes (Gain)")!;
    expect(lost.anomalyBps).toBe(0);
    expect(gained.key.startsWith(`${pni.router}|`)).toBe(true);
    // Interface counters: the interconnect carries nothing in the period; the exchange port's in-bytes
    // are its flows' bytes, and rose by the interconnect's usual traffic.
    const [pniName, ixName] = [lost.key.split("|")[1], gained.key.split("|")[1]];
    const during = await utilisation(pni.router, e.at, e.until!);
    const weekBefore = await utilisation(pni.router, e.at - 7 * DAY, e.until! - 7 * DAY);
    const inOf = (rows: z.infer<typeof utilRow>[], name: string) => rows.find((x) => x.interface === name)!.in_bytes;
    expect(inOf(during, pniName)).toBe(0);
    expect(inOf(weekBefore, pniName)).toBeGreaterThan(0);
    expect(inOf(during, ixName)).toBe(await flowBytesIn(pni.router, ixName, e.at, e.until!));
    const rise = (inOf(during, ixName) - inOf(weekBefore, ixName)) / inOf(weekBefore, pniName);
    expect(rise).toBeGreaterThan(0.8);
    expect(rise).toBeLessThan(1.25);
  });

  it("the peer's full private interconnect, its excess through transit, is an Indirect Overflow", async () => {
    const e = eventOf("peer-overflow");
    const r = await analyse("AS_SRC_INGRESS", e.asn, e.at);
    summary("peer-overflow", r);
    expect(r.classification).toBe("Indirect Overflow");
    const p = r.path!;
    expect((p.directAnomalyBps - p.directBaselineBps) / p.directBaselineBps).toBeLessThanOrEqual(DIRECT_CAPPED_MAX_RISE);
    expect((p.indirectAnomalyBps - p.indirectBaselineBps) / (p.directBaselineBps + p.indirectBaselineBps)).toBeGreaterThanOrEqual(
      INDIRECT_MIN_RISE,
    );
    expect(r.directUtilisation!).toBeGreaterThanOrEqual(NEAR_CAPACITY);
    // The utilisation is the interconnect's counters over the period, near CAP_FILL and never over its capacity.
    const router = model.saturated!.iface.router;
    // The interconnect: the interface named after the peer (its description), on the peer's router.
    const direct = r.levels.interface.rows.find((x) => x.key.startsWith(`${router}|`) && x.name.includes(`AS${e.asn})`))!;
    expect(direct.conclusion).toBe("No");
    const [ifRow] = (await utilisation(router, e.at, e.until!)).filter((x) => `${router}|${x.interface}` === direct.key);
    expect(r.directUtilisation!).toBeCloseTo((ifRow.in_bytes * 8) / (e.until! - e.at) / ifRow.capacity_bps, 9);
    expect(r.directUtilisation!).toBeLessThanOrEqual(CAP_FILL);
    const wholePeriod = await utilisation(router, START, NOW);
    expect(Math.max(...wholePeriod.map((x) => x.peak))).toBeLessThanOrEqual(1);
    const transitRouter = model.saturated!.transitIface.router;
    const transitWhole = await utilisation(transitRouter, START, NOW);
    expect(Math.max(...transitWhole.map((x) => x.peak)), "no port of the transit's router is over its capacity").toBeLessThanOrEqual(1);
  });

  it("a normal evening is Organic", async () => {
    const r = await analyse("AS_SRC_INGRESS", biggestContent.asn, NORMAL_EVENING);
    summary("normal evening", r);
    expect(r.classification).toBe("Organic");
    expect(Math.abs(r.totals.change!)).toBeLessThan(0.05);
  });

  it("an evening with 20 % more traffic spread evenly is Organic", async () => {
    const r = await analyse("AS_SRC_INGRESS", biggestContent.asn, GROWN_EVENING);
    summary("grown evening", r);
    expect(r.classification).toBe("Organic");
    expect(r.totals.change!).toBeGreaterThan(0.15);
    expect(r.totals.change!).toBeLessThan(0.3);
    // The period's figure is the flows' own, the copy included.
    const [row] = await chQuery(stores.ch, {
      name: "test.grown",
      sql: `SELECT toFloat64(sum(bytes)) AS bytes FROM flows_5m WHERE as_src = {asn:Int64}
              AND time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')`,
      params: { asn: biggestContent.asn, start: GROWN_EVENING, end: GROWN_EVENING + 4 * HOUR },
      schema: z.object({ bytes: z.number() }),
    });
    expect(r.totals.anomalyBps).toBeCloseTo((row.bytes * 8) / (4 * HOUR), 0);
  });
});
