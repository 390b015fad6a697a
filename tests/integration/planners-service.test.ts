/**
 * The planners' service on real stores (PGlite, chDB): inventory links and interface_util_5m rows
 * inserted here (times relative to the clock: the table's TTL), every figure of planLinks, the
 * summary, the heatmap, the timeseries and the detail checked against a recomputation in this file
 * from the inserted rows — written independently of figures.ts (brute force over the samples).
 * Source rule (SNMP over demo, flows), the far end of an internal link, sampling confidence, a
 * non-UTC timezone and delegated visibility.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delegationRestrictions, users } from "~db/postgres/schema";
import { createRouter, updateRouter } from "~/features/inventory/inventory.server";
import { forecastBuildout } from "~/lib/forecast";
import { MESSAGES } from "~/lib/messages";
import {
  datesWithData,
  linkDetail,
  planLinks,
  plannerHeatmap,
  plannerSummary,
  plannerTimeseries,
  viewerFor,
  visibleLinks,
} from "~/features/planners/plan.server";
import type { LinkPlan, PlanRange, Viewer } from "~/features/planners/types";
import { PlannerError } from "~/features/planners/types";
import { chInsert } from "~/server/clickhouse/query.server";
import { DEFAULT_USER_SETTINGS } from "~/server/settings/user-settings.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const DAYS = 9;
// Whole UTC days ending at yesterday's midnight: recent (TTL) and the same shape on every run.
const END = Math.floor(Date.now() / 1000 / DAY) * DAY - DAY;
const START = END - DAYS * DAY;
const RANGE: PlanRange = { start: START, end: END };

type Row = {
  time: number;
  router: string;
  interface: string;
  kind: string;
  neighbor_asn: number;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
  source: "snmp" | "flows" | "demo";
  interpolated: number;
};

const CAP = { et1: 10e9, et2: 1e9, ix: 100e9, coreA: 100e9, coreB: 40e9 };
const FULL_5M = (bps: number) => (bps * 300) / 8;

/** A deterministic pseudo-random integer in [0, n) from a few numbers (no Math.random: reproducible). */
function noise(n: number, ...seed: number[]): number {
  let h = 2166136261;
  for (const s of seed) {
    h ^= s;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h % n;
}

/** Utilisation shape over the day: low at night, busy around 20:00 UTC. */
const shape = (time: number) => 0.4 + 0.6 * Math.max(0, Math.sin((((time % DAY) / DAY) * 2 - 0.25) * Math.PI));

const rows: Row[] = [];
function row(time: number, router: string, iface: string, capacity: number, inB: number, outB: number, extra: Partial<Row> = {}): Row {
  const r: Row = {
    time,
    router,
    interface: iface,
    kind: extra.kind ?? "external",
    neighbor_asn: 0,
    in_bytes: Math.round(inB),
    out_bytes: Math.round(outB),
    capacity_bps: capacity,
    source: "snmp",
    interpolated: 0,
    ...extra,
  };
  rows.push(r);
  return r;
}

for (let t = START; t < END; t += 300) {
  const d = Math.floor((t - START) / DAY);
  const i = (t - START) / 300;
  // et-1: growing 2 % of capacity a day; every 7th sample interpolated; a demo row on every 5th (SNMP wins).
  const u1 = (0.3 + 0.02 * d) * shape(t);
  row(t, "r1", "et-1", CAP.et1, FULL_5M(CAP.et1) * u1 + noise(1e6, i, 1), FULL_5M(CAP.et1) * u1 * 0.5 + noise(1e6, i, 2), {
    interpolated: i % 7 === 0 ? 1 : 0,
  });
  if (i % 5 === 0) row(t, "r1", "et-1", CAP.et1, 1, 1, { source: "demo" });
  // et-2: flat; gaps: one sample of every 13 missing (incomplete quarters); flows rows beside SNMP on every 4th (confidence).
  if (i % 13 !== 6) {
    const u2 = 0.5 * shape(t);
    const inB = FULL_5M(CAP.et2) * u2 + noise(1e5, i, 3);
    const outB = FULL_5M(CAP.et2) * u2 * 0.8 + noise(1e5, i, 4);
    row(t, "r1", "et-2", CAP.et2, inB, outB);
    if (i % 4 === 0) row(t, "r1", "et-2", CAP.et2, inB * 0.9, outB * 0.9, { source: "flows" });
  }
  // The IX port: demo only, and only on the first 3 days.
  if (d < 3) row(t, "r1", "et-ix", CAP.ix, FULL_5M(CAP.ix) * 0.1 + noise(1e7, i, 5), noise(1e7, i, 6), { source: "demo" });
  // The internal link r1 c-1 ↔ r2 c-1: measured on r1 (a) on even samples, on r2 (b, in/out seen from there) on odd ones.
  const core = FULL_5M(CAP.coreB) * 0.6 * shape(t);
  if (i % 2 === 0) row(t, "r1", "c-1", CAP.coreA, core + noise(1e6, i, 7), core * 0.7, { kind: "core" });
  else row(t, "r2", "c-1", CAP.coreB, core * 0.7, core + noise(1e6, i, 8), { kind: "core" });
  // Every 10th interval both ends measured it (differently): the near end a counts.
  if (i % 10 === 0) row(t, "r2", "c-1", CAP.coreB, core * 0.5, core * 0.9, { kind: "core" });
}

let stores: TestStores;
let viewer: Viewer;

const external = (name: string, ifindex: number, capacity: number, extra: Record<string, unknown>) => ({
  name,
  ifindex,
  capacity,
  kind: "external",
  ...extra,
});

beforeAll(async () => {
  stores = await openTestStores();
  const base = { city: "Frankfurt", country: "Germany", loopback: "192.0.2.1" };
  // Only r1 declares the pair (the inventory needs the remote end to exist first).
  await createRouter(stores, {
    ...base,
    loopback: "192.0.2.2",
    name: "r2",
    interfaces: [{ name: "c-1", ifindex: 10, capacity: CAP.coreB, kind: "core" }],
  });
  await createRouter(stores, {
    ...base,
    name: "r1",
    interfaces: [
      external("et-1", 1, CAP.et1, { peering: "Transit", neighbour_as: 64501, description: "Transit A" }),
      external("et-2", 2, CAP.et2, { peering: "Peering", neighbour_as: 64502, connection: "PNI" }),
      external("et-ix", 3, CAP.ix, { peering: "Peering", connection: "DE-CIX" }),
      { name: "c-1", ifindex: 10, capacity: CAP.coreA, kind: "core", remote: { router: "r2", interface: "c-1" } },
    ],
  });
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: rows.map((r) => ({ ...r, time: r.time })) });
  const [{ id }] = await stores.pg.db
    .insert(users)
    .values({ email: "planner@plan.test", firstName: "P", passwordHash: "x" })
    .returning({ id: users.id });
  viewer = await viewerFor(stores, { id, isDelegated: false });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

// ---- the independent recomputation --------------------------------------------------------------

const RANK = { snmp: 3, flows: 2, demo: 1 } as const;
type Chosen = { time: number; inB: number; outB: number; source: string; interpolated: number };

/** The samples of a link as the rule says: per time the best source, then the near end; the far end swapped. */
function chosen(ends: { router: string; iface: string; swap: boolean; pref: number }[]): Chosen[] {
  const best = new Map<number, { rank: [number, number]; c: Chosen }>();
  for (const r of rows)
    for (const e of ends) {
      if (r.router !== e.router || r.interface !== e.iface) continue;
      const rank: [number, number] = [RANK[r.source], e.pref];
      const c = {
        time: r.time,
        inB: e.swap ? r.out_bytes : r.in_bytes,
        outB: e.swap ? r.in_bytes : r.out_bytes,
        source: r.source,
        interpolated: r.interpolated,
      };
      const before = best.get(r.time);
      if (!before || rank[0] > before.rank[0] || (rank[0] === before.rank[0] && rank[1] > before.rank[1])) best.set(r.time, { rank, c });
    }
  return [...best.values()].map((b) => b.c).sort((a, b) => a.time - b.time);
}

const LINKS: Record<string, { ends: { router: string; iface: string; swap: boolean; pref: number }[]; capacity: number }> = {
  "r1|et-1": { ends: [{ router: "r1", iface: "et-1", swap: false, pref: 2 }], capacity: CAP.et1 },
  "r1|et-2": { ends: [{ router: "r1", iface: "et-2", swap: false, pref: 2 }], capacity: CAP.et2 },
  "r1|et-ix": { ends: [{ router: "r1", iface: "et-ix", swap: false, pref: 2 }], capacity: CAP.ix },
  "r1|c-1>r2|c-1": {
    ends: [
      { router: "r1", iface: "c-1", swap: false, pref: 2 },
      { router: "r2", iface: "c-1", swap: true, pref: 1 },
    ],
    capacity: Math.min(CAP.coreA, CAP.coreB),
  },
};

const dayName = (t: number, tz: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(t * 1000));

/** Brute force: for every 5-minute-aligned hour start on a quarter hour, the 12 samples must exist and share the day. */
function peakHours(samples: Chosen[], tz: string, dir: "inB" | "outB") {
  const at = new Map(samples.map((s) => [s.time, s]));
  const days: string[] = [];
  for (let t = RANGE.start; t < RANGE.end; t += 300) if (!days.includes(dayName(t, tz))) days.push(dayName(t, tz));
  const best = new Map<string, { start: number; sum: number }>();
  for (let q = RANGE.start; q + 3600 <= RANGE.end; q += 900) {
    const day = dayName(q, tz);
    if (dayName(q + 3599, tz) !== day) continue;
    let sum = 0;
    let ok = true;
    for (let k = 0; k < 12 && ok; k++) {
      const s = at.get(q + k * 300);
      if (!s) ok = false;
      else sum += s[dir];
    }
    if (!ok) continue;
    const b = best.get(day);
    if (!b || sum > b.sum) best.set(day, { start: q, sum });
  }
  return days.map((day) => {
    const b = best.get(day);
    return { day, windowStart: b?.start ?? null, bps: b ? (b.sum * 8) / 3600 : null };
  });
}

function p95(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[s.length - 1 - Math.floor(s.length / 20)];
}

function expectClose(actual: number | null | undefined, expected: number | null, digits = 6) {
  if (expected === null) expect(actual ?? null).toBeNull();
  else expect(actual).toBeCloseTo(expected, digits);
}

function checkPlan(plan: LinkPlan, tz: string) {
  const def = LINKS[plan.link.key];
  const samples = chosen(def.ends);
  expect(plan.capacityBps).toBe(def.capacity);
  expect(plan.samples).toBe(samples.length);
  expect(plan.interpolated).toBe(samples.filter((s) => s.interpolated).length);
  expect(plan.sources).toEqual(["snmp", "flows", "demo"].filter((src) => samples.some((s) => s.source === src)));
  for (const [dir, key] of [
    ["in", "inB"],
    ["out", "outB"],
  ] as const) {
    const expected = peakHours(samples, tz, key);
    expect(plan[dir].daily.map((d) => d.day)).toEqual(expected.map((e) => e.day));
    plan[dir].daily.forEach((d, i) => {
      expect(d.windowStart).toBe(expected[i].windowStart);
      expectClose(d.bps, expected[i].bps, 3);
      expectClose(d.utilisation, expected[i].bps === null ? null : expected[i].bps! / def.capacity, 9);
    });
    const bytes95 = p95(samples.map((s) => s[key]));
    expectClose(plan[dir].p95?.bps, bytes95 === null ? null : (bytes95 * 8) / 300, 3);
  }
  const inP = p95(samples.map((s) => s.inB));
  const outP = p95(samples.map((s) => s.outB));
  const billed = inP === null ? null : (Math.max(inP, outP!) * 8) / 300;
  expectClose(plan.billedP95?.bps, billed, 3);
  // Status and forecast from the per-day maximum of both directions.
  const inDaily = peakHours(samples, tz, "inB");
  const outDaily = peakHours(samples, tz, "outB");
  const dailyMax = inDaily.map((d, i) => {
    const v = [d.bps, outDaily[i].bps].filter((x): x is number => x !== null);
    return v.length ? Math.max(...v) / def.capacity : null;
  });
  const present = dailyMax.filter((v): v is number => v !== null);
  const maxDaily = present.length ? Math.max(...present) : null;
  expectClose(plan.maxDailyUtilisation, maxDaily, 9);
  const high = viewer.settings.extlinks_util_threshold_high;
  const medium = viewer.settings.extlinks_util_threshold_medium;
  expect(plan.status).toBe(maxDaily === null ? "no data" : maxDaily >= high ? "high" : maxDaily >= medium ? "medium" : "normal");
  const forecast = forecastBuildout(dailyMax, { level: high, type: "DAYS" });
  expect(plan.forecast.outcome).toBe(forecast.outcome);
  expect(plan.forecast.daysLeft).toBe(forecast.daysLeft);
  expectClose(plan.forecast.percentAtHorizon, forecast.percentAtHorizon, 6);
}

// ---- the tests ----------------------------------------------------------------------------------

describe("planners service", () => {
  it("plans every external link: peak hour per day, 95th, billed, status, forecast, samples and sources", async () => {
    const plans = await planLinks(stores, viewer, { kind: "external", range: RANGE });
    expect(plans.map((p) => p.link.key)).toEqual(["r1|et-1", "r1|et-2", "r1|et-ix"]);
    for (const plan of plans) checkPlan(plan, "UTC");
    const [et1, et2, ix] = plans;
    expect(et1.link).toMatchObject({ neighbourAs: 64501, peering: "Transit", description: "Transit A" });
    expect(ix.link).toMatchObject({ neighbourAs: null, connection: "DE-CIX" });
    // et-1's SNMP rows win over the demo's (1 byte) rows: no sample is the demo's.
    expect(et1.sources).toEqual(["snmp"]);
    expect(et1.forecast.outcome).toBe("reaches");
    expect(et2.in.daily.some((d) => d.bps === null)).toBe(false);
    // The IX port has demo rows on 3 days only: 6 days without a value, not enough for a forecast.
    expect(ix.in.daily.filter((d) => d.bps !== null)).toHaveLength(3);
    expect(ix.forecast).toMatchObject({ outcome: "not enough data", words: "Not enough data (3 of 7 days)" });
  }, 60_000);

  it("sampling confidence: flows bytes over SNMP bytes where both measured the interval", async () => {
    const [et2] = await planLinks(stores, viewer, { kind: "external", range: RANGE, keys: ["r1|et-2"] });
    const both = rows.filter((r) => r.interface === "et-2" && r.source === "flows");
    const snmp = new Map(rows.filter((r) => r.interface === "et-2" && r.source === "snmp").map((r) => [r.time, r]));
    const flowsBytes = both.reduce((s, r) => s + r.in_bytes + r.out_bytes, 0);
    const snmpBytes = both.reduce((s, r) => s + snmp.get(r.time)!.in_bytes + snmp.get(r.time)!.out_bytes, 0);
    expect(et2.samplingConfidence?.intervals).toBe(both.length);
    expect(et2.samplingConfidence?.ratio).toBeCloseTo(flowsBytes / snmpBytes, 9);
    const [et1] = await planLinks(stores, viewer, { kind: "external", range: RANGE, keys: ["r1|et-1"] });
    expect(et1.samplingConfidence).toBeNull();
  }, 60_000);

  it("plans the internal link from both ends (the far end's in and out swapped), capacity the smaller end's", async () => {
    const plans = await planLinks(stores, viewer, { kind: "internal", range: RANGE });
    expect(plans.map((p) => p.link.key)).toEqual(["r1|c-1>r2|c-1"]);
    checkPlan(plans[0], "UTC");
    expect(plans[0].samples).toBe(DAYS * 288);
  }, 60_000);

  it("days are the viewer's calendar days (Europe/Berlin)", async () => {
    const berlin: Viewer = { ...viewer, settings: { ...viewer.settings, timezone: "Europe/Berlin" }, timezone: "Europe/Berlin" };
    const plans = await planLinks(stores, berlin, { kind: "external", range: RANGE, keys: ["r1|et-1"] });
    // A UTC-midnight range touches one Berlin day more than it has UTC days.
    expect(plans[0].in.daily).toHaveLength(DAYS + 1);
    checkPlan(plans[0], "Europe/Berlin");
    const heat = await plannerHeatmap(stores, berlin, { kind: "external", range: RANGE, keys: ["r1|et-1"] });
    if (!heat.ok) throw new Error(heat.message);
    const samples = chosen(LINKS["r1|et-1"].ends);
    expect(heat.days).toEqual(plans[0].in.daily.map((d) => d.day));
    heat.days.forEach((day, i) => {
      const ofDay = samples.filter((s) => dayName(s.time, "Europe/Berlin") === day);
      const max = ofDay.length ? Math.max(...ofDay.map((s) => Math.max(s.inB, s.outB))) : null;
      expectClose(heat.rows[0].values[i], max === null ? null : (max * 8) / 300 / CAP.et1, 9);
    });
  }, 60_000);

  it("summary: links, capacity, billed 95th sum, statuses and build-outs due", async () => {
    const plans = await planLinks(stores, viewer, { kind: "external", range: RANGE });
    const summary = await plannerSummary(stores, viewer, { kind: "external", range: RANGE });
    expect(summary.links).toBe(3);
    expect(summary.totalCapacityBps).toBe(CAP.et1 + CAP.et2 + CAP.ix);
    const billed = Object.keys(LINKS)
      .filter((k) => !k.includes(">"))
      .map((k) => {
        const s = chosen(LINKS[k].ends);
        return (Math.max(p95(s.map((x) => x.inB)) ?? 0, p95(s.map((x) => x.outB)) ?? 0) * 8) / 300;
      });
    expect(summary.billedP95SumBps).toBeCloseTo(
      billed.reduce((a, b) => a + b, 0),
      2,
    );
    const counts = { high: 0, medium: 0, normal: 0, "no data": 0 };
    for (const p of plans) counts[p.status] += 1;
    expect(summary.statusCounts).toEqual(counts);
    // DAYS with the default threshold of 90 days: due when the forecast reaches the level within 90 days.
    const due = plans.filter(
      (p) => p.forecast.daysLeft !== null && p.forecast.daysLeft <= DEFAULT_USER_SETTINGS.extlinks_buildout_threshold,
    );
    expect(summary.buildoutDue).toBe(due.length);
  }, 60_000);

  it("timeseries: per bucket the sum of each link's mean rate; the range's aggregation window", async () => {
    const ts = await plannerTimeseries(stores, viewer, { kind: "external", range: RANGE });
    expect(ts.bucketSeconds).toBe(3600);
    expect(ts.capacityBps).toBe(CAP.et1 + CAP.et2 + CAP.ix);
    const expected = new Map<number, { inBps: number; outBps: number }>();
    for (const k of ["r1|et-1", "r1|et-2", "r1|et-ix"]) {
      const buckets = new Map<number, Chosen[]>();
      for (const s of chosen(LINKS[k].ends)) {
        const b = Math.floor(s.time / 3600) * 3600;
        buckets.set(b, [...(buckets.get(b) ?? []), s]);
      }
      for (const [b, list] of buckets) {
        const e = expected.get(b) ?? { inBps: 0, outBps: 0 };
        e.inBps += (list.reduce((a, s) => a + s.inB, 0) * 8) / (list.length * 300);
        e.outBps += (list.reduce((a, s) => a + s.outB, 0) * 8) / (list.length * 300);
        expected.set(b, e);
      }
    }
    expect(ts.points.map((p) => p.time)).toEqual([...expected.keys()].sort((a, b) => a - b));
    for (const p of ts.points) {
      expect(p.inBps).toBeCloseTo(expected.get(p.time)!.inBps, 2);
      expect(p.outBps).toBeCloseTo(expected.get(p.time)!.outBps, 2);
    }
  }, 60_000);

  it("heatmap: daily max 5-minute utilisation in UTC; refused beyond 62 days", async () => {
    const heat = await plannerHeatmap(stores, viewer, { kind: "internal", range: RANGE });
    if (!heat.ok) throw new Error(heat.message);
    const samples = chosen(LINKS["r1|c-1>r2|c-1"].ends);
    expect(heat.rows.map((r) => r.label)).toEqual(["r1 c-1 → r2 c-1"]);
    heat.days.forEach((day, i) => {
      const max = Math.max(...samples.filter((s) => dayName(s.time, "UTC") === day).map((s) => Math.max(s.inB, s.outB)));
      expect(heat.rows[0].values[i]).toBeCloseTo((max * 8) / 300 / Math.min(CAP.coreA, CAP.coreB), 9);
    });
    const long = await plannerHeatmap(stores, viewer, { kind: "internal", range: { start: END - 63 * DAY, end: END } });
    expect(long).toEqual({ ok: false, message: MESSAGES.heatmapRangeTooLong });
    const edge = await plannerHeatmap(stores, viewer, { kind: "internal", range: { start: END - 62 * DAY, end: END } });
    expect(edge.ok).toBe(true);
  }, 60_000);

  it("detail: the 5-minute series with source and interpolated; 404 for an unknown link", async () => {
    const detail = await linkDetail(stores, viewer, "external", "r1|et-1", RANGE);
    const samples = chosen(LINKS["r1|et-1"].ends);
    expect(detail.samples).toHaveLength(samples.length);
    detail.samples.forEach((s, i) => {
      expect(s.time).toBe(samples[i].time);
      expect(s.inBps).toBeCloseTo((samples[i].inB * 8) / 300, 3);
      expect(s.outUtilisation).toBeCloseTo((samples[i].outB * 8) / 300 / CAP.et1, 9);
      expect(s.source).toBe("snmp");
      expect(s.interpolated).toBe(samples[i].interpolated === 1);
    });
    checkPlan(detail.plan, "UTC");
    await expect(linkDetail(stores, viewer, "external", "r1|nope", RANGE)).rejects.toMatchObject({ status: 404 });
  }, 60_000);

  it("refuses a bad range with 400 naming the field", async () => {
    for (const [range, field] of [
      [{ start: START + 1, end: END }, "start"],
      [{ start: START, end: END + 60 }, "end"],
      [{ start: END, end: START }, "end"],
      [{ start: Number.NaN, end: END }, "start"],
    ] as const) {
      const error = await planLinks(stores, viewer, { kind: "external", range }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlannerError);
      expect(error).toMatchObject({ status: 400, field });
    }
  });

  it("dates with data: first and last sample of the kind's links", async () => {
    expect(await datesWithData(stores, viewer, "external")).toEqual({ first: START, last: END - 300 });
    expect(await datesWithData(stores, viewer, "internal")).toEqual({ first: START, last: END - 300 });
  });

  it("delegated accounts see the external links of their AS numbers, narrowed by routers and interfaces; no internal links", async () => {
    const delegated = async (email: string, external: { ASNumberList: number[]; routerList: string[]; interfaceList: string[] } | null) => {
      const [{ id }] = await stores.pg.db
        .insert(users)
        .values({ email, firstName: "D", passwordHash: "x", isDelegated: true })
        .returning({ id: users.id });
      if (external) await stores.pg.db.insert(delegationRestrictions).values({ userId: id, externalLinksViewsRestrictions: external });
      return viewerFor(stores, { id, isDelegated: true });
    };
    const keys = async (v: Viewer) => (await planLinks(stores, v, { kind: "external", range: RANGE })).map((p) => p.link.key);
    const one = await delegated("as1@plan.test", { ASNumberList: [64501], routerList: [], interfaceList: [] });
    expect(await keys(one)).toEqual(["r1|et-1"]);
    expect(await planLinks(stores, one, { kind: "internal", range: RANGE })).toEqual([]);
    const narrowed = await delegated("as2@plan.test", { ASNumberList: [64501, 64502], routerList: ["r1"], interfaceList: ["r1|et-2"] });
    expect(await keys(narrowed)).toEqual(["r1|et-2"]);
    const otherRouter = await delegated("as3@plan.test", { ASNumberList: [64501, 64502], routerList: ["r9"], interfaceList: [] });
    expect(await keys(otherRouter)).toEqual([]);
    expect(await keys(await delegated("none@plan.test", { ASNumberList: [], routerList: [], interfaceList: [] }))).toEqual([]);
    expect(await keys(await delegated("norow@plan.test", null))).toEqual([]);
    await expect(linkDetail(stores, one, "external", "r1|et-2", RANGE)).rejects.toMatchObject({ status: 404 });
    const summary = await plannerSummary(stores, one, { kind: "external", range: RANGE });
    expect(summary.links).toBe(1);
  }, 60_000);

  it("a pair declared on both ends is one link (run last: it changes the inventory)", async () => {
    await updateRouter(stores, "r2", {
      city: "Frankfurt",
      country: "Germany",
      loopback: "192.0.2.2",
      name: "r2",
      interfaces: [{ name: "c-1", ifindex: 10, capacity: CAP.coreB, kind: "core", remote: { router: "r1", interface: "c-1" } }],
    });
    const links = await visibleLinks(stores, viewer, "internal");
    expect(links.map((l) => l.key)).toEqual(["r1|c-1>r2|c-1"]);
    expect(links[0]).toMatchObject({ capacityBps: CAP.coreB, a: { router: "r1" }, b: { router: "r2" } });
  });
});
