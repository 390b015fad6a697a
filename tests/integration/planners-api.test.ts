/**
 * The link-utilisation calls (api/linkutil/*) on an inventory of two routers (four external links,
 * one internal link) and eight days of interface_util_5m rows the test writes: every figure of the
 * answers against an independent recomputation in TypeScript from those rows (one row per interval,
 * SNMP before flows before the demo's; peak hour; billing 95th; Theil–Sen trend); validation (400
 * naming the field), permissions (403), a delegated account's links, the LINK_UTILIZATION_95TH rule,
 * and the timeseries body sent as a JSON string.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import { createInterface, createRouter } from "~/features/inventory/inventory.server";
import type { Permission } from "~/lib/permissions";
import * as datesRoute from "~/routes/api.linkutil.$x.dateswithdata";
import * as externalRoute from "~/routes/api.linkutil.external";
import * as summaryRoute from "~/routes/api.linkutil.external.summary";
import * as timeseriesRoute from "~/routes/api.linkutil.external.timeseries";
import * as interfacesRoute from "~/routes/api.linkutil.interfaces";
import * as statisticsRoute from "~/routes/api.linkutil.interfacestatistics";
import * as internalRoute from "~/routes/api.linkutil.internal";
import { chInsert } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { updateUserSetting } from "~/server/settings/user-settings.server";
import { resultStore } from "~/server/result-cache.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, getRequest, jsonRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const SAMPLE = 300;
const QUARTER = 900;
/** Eight whole UTC days (the test users' timezone is the default, UTC), ending yesterday at midnight. */
const TODAY = Math.floor(Date.now() / 1000 / DAY) * DAY;
const START = TODAY - 9 * DAY;
const END = START + 8 * DAY;
const DAYS = 8;

// ---------------------------------------------------------------------------------------------------------------
// The network and its rows

type LinkDef = {
  router: string;
  iface: string;
  kind: "external" | "core";
  asn: number | null;
  capacity: number;
  /** Peak utilisation of the first day (in), its change per day, and out as a share of in. */
  base: number;
  growth: number;
  outShare: number;
};
const ET1: LinkDef = { router: "pa-r1", iface: "et-1", kind: "external", asn: 64601, capacity: 10e9, base: 0.5, growth: 0, outShare: 0.7 };
const ET2: LinkDef = {
  router: "pa-r1",
  iface: "et-2",
  kind: "external",
  asn: 64602,
  capacity: 1e9,
  base: 0.6,
  growth: 0.04,
  outShare: 0.5,
};
const ET3: LinkDef = {
  router: "pa-r2",
  iface: "et-3",
  kind: "external",
  asn: 64601,
  capacity: 10e9,
  base: 0.3,
  growth: -0.02,
  outShare: 1.3,
};
const ET4: LinkDef = { router: "pa-r2", iface: "et-4", kind: "external", asn: null, capacity: 100e9, base: 0.1, growth: 0, outShare: 0.9 };
/** The internal link's end that sorts first (its rows: out = towards pa-r2 ae-1). */
const AE9: LinkDef = { router: "pa-r1", iface: "ae-9", kind: "core", asn: null, capacity: 100e9, base: 0.4, growth: 0.01, outShare: 0.8 };
const EXTERNAL = [ET1, ET2, ET3, ET4];
const keyOf = (l: LinkDef) => `${l.router}|${l.iface}`;
const INTERNAL_KEY = "pa-r1|ae-9>pa-r2|ae-1";
/** The far end's capacity is lower: the link's capacity is the smaller one. */
const AE1_CAPACITY = 40e9;

type UtilRow = {
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

/** A fixed pseudo-random fraction in [0, 1) for an integer (no Math.random: the figures must be the same on every run). */
const jitter = (n: number) => (Math.imul(n + 1, 2_654_435_761) >>> 0) / 4_294_967_296;

/** Whether the generator leaves a sample out: gaps that make quarters incomplete (day 2) and a day without any complete quarter (day 5). */
function missing(l: LinkDef, day: number, slot: number): boolean {
  if (l !== ET1) return false;
  if (day === 2) return slot >= 120 && slot < 170 && slot % 7 === 3;
  if (day === 5) return slot % 3 === 1;
  return false;
}

const rows: UtilRow[] = [];
function generate(l: LinkDef, index: number) {
  for (let day = 0; day < DAYS; day++)
    for (let slot = 0; slot < DAY / SAMPLE; slot++) {
      if (missing(l, day, slot)) continue;
      const time = START + day * DAY + slot * SAMPLE;
      // A daily cycle with its high point in the afternoon, the link's trend and some noise.
      const cycle = 0.55 + 0.45 * Math.sin((2 * Math.PI * (slot - 108)) / 288);
      const u = Math.max(0, l.base * (1 + l.growth * day) * cycle + 0.04 * (jitter(index * 100_000 + day * 1_000 + slot) - 0.5));
      const inBytes = Math.round((u * l.capacity * SAMPLE) / 8);
      rows.push({
        time,
        router: l.router,
        interface: l.iface,
        kind: l.kind,
        neighbor_asn: l.asn ?? 0,
        in_bytes: inBytes,
        out_bytes: Math.round(inBytes * l.outShare),
        capacity_bps: l.capacity,
        source: "demo",
        interpolated: 0,
      });
    }
}
[...EXTERNAL, AE9].forEach(generate);
/** Day 0 of et-1 from 12:00 to 14:00 also measured by SNMP (higher: SNMP wins, so the peak hour moves there) and by flows. */
const SNMP_FROM = START + 12 * 3_600;
const SNMP_SLOTS = 24;
for (let i = 0; i < SNMP_SLOTS; i++) {
  const time = SNMP_FROM + i * SAMPLE;
  const demo = rows.find((r) => r.router === ET1.router && r.interface === ET1.iface && r.time === time)!;
  const snmp = {
    ...demo,
    in_bytes: demo.in_bytes * 2 + 7,
    out_bytes: demo.out_bytes * 2 + 3,
    source: "snmp" as const,
    interpolated: i < 3 ? 1 : 0,
  };
  rows.push(snmp);
  rows.push({
    ...snmp,
    in_bytes: Math.round(snmp.in_bytes * 0.9),
    out_bytes: Math.round(snmp.out_bytes * 0.95),
    source: "flows",
    interpolated: 0,
  });
}

/** Flow aggregates of the last day on pa-r1 (and a few rows that must not count): the traffic by AS of interfacestatistics. */
type FlowRow = {
  time: number;
  as_src: number;
  as_hnd: number;
  as_nxt: number;
  as_dst: number;
  ingress_router: string;
  in_if: string;
  egress_router: string;
  out_if: string;
  bytes: number;
  packets: number;
  flows: number;
};
const OPERATOR = 64500;
const FLOWS_FROM = END - DAY;
const flows: FlowRow[] = [];
function flow(
  time: number,
  dir: "in" | "out",
  router: string,
  iface: string,
  as: { src: number; hnd: number; nxt: number; dst: number },
  bytes: number,
) {
  const [inSide, outSide] =
    dir === "in"
      ? [
          [router, iface],
          ["pa-core", "ae-0"],
        ]
      : [
          ["pa-core", "ae-0"],
          [router, iface],
        ];
  flows.push({
    time,
    as_src: as.src,
    as_hnd: as.hnd,
    as_nxt: as.nxt,
    as_dst: as.dst,
    ingress_router: inSide[0],
    in_if: inSide[1],
    egress_router: outSide[0],
    out_if: outSide[1],
    bytes,
    packets: Math.ceil(bytes / 1000),
    flows: 1,
  });
}
for (let slot = 0; slot < DAY / SAMPLE; slot++) {
  const t = FLOWS_FROM + slot * SAMPLE;
  const into = (src: number, hnd: number) => ({ src, hnd, nxt: OPERATOR, dst: OPERATOR });
  // et-1 carries nothing at all in every fourth interval (no sample there); 2906 only every other interval, 64601 itself every fifth.
  if (slot % 4 !== 3) {
    flow(t, "in", "pa-r1", "et-1", into(15169, 64601), 100_000_000 + ((slot * 7_919) % 1_000) * 100_000);
    if (slot % 2 === 0) flow(t, "in", "pa-r1", "et-1", into(2906, 64601), 50_000_000 + ((slot * 104_729) % 1_000) * 10_000);
    if (slot % 5 === 0) flow(t, "in", "pa-r1", "et-1", into(64601, 64601), 10_000_000);
    flow(t, "out", "pa-r1", "et-1", { src: OPERATOR, hnd: OPERATOR, nxt: 64601, dst: slot % 3 ? 3320 : 64601 }, 20_000_000 + slot * 1_000);
  }
  flow(t, "in", "pa-r1", "et-2", into(13335, 64602), 30_000_000 + ((slot * 31) % 97) * 100_000);
  // Not on pa-r1: never counted for it.
  flow(t, "in", "pa-r2", "et-3", into(15169, 64601), 999_000_000);
}
// Before the range asked for: not counted.
flow(FLOWS_FROM - SAMPLE, "in", "pa-r1", "et-1", { src: 15169, hnd: 64601, nxt: OPERATOR, dst: OPERATOR }, 5_000_000_000);

// ---------------------------------------------------------------------------------------------------------------
// The independent recomputation

type Sample = { time: number; in: number; out: number; source: string; interpolated: number };
const RANK: Record<string, number> = { snmp: 3, flows: 2, demo: 1 };

/** One sample per interval of an interface in [from, to): the best source. */
function samplesOf(l: LinkDef, from = START, to = END): Sample[] {
  const best = new Map<number, UtilRow>();
  for (const r of rows) {
    if (r.router !== l.router || r.interface !== l.iface || r.time < from || r.time >= to) continue;
    const known = best.get(r.time);
    if (!known || RANK[r.source] > RANK[known.source]) best.set(r.time, r);
  }
  return [...best.values()]
    .sort((a, b) => a.time - b.time)
    .map((r) => ({ time: r.time, in: r.in_bytes, out: r.out_bytes, source: r.source, interpolated: r.interpolated }));
}

type Dir = "in" | "out";
type Daily = { day: string; bps: number | null; utilisation: number | null; windowStart: number | null };

/** Peak hour per UTC day: the 4 consecutive complete quarters (3 samples each) with the highest mean; the earliest on a tie. */
function dailyPeaks(samples: Sample[], dir: Dir, capacity: number): Daily[] {
  const byTime = new Map(samples.map((s) => [s.time, s]));
  const out: Daily[] = [];
  for (let d = 0; d < DAYS; d++) {
    const dayStart = START + d * DAY;
    const quarters: (number | null)[] = [];
    for (let q = 0; q < DAY / QUARTER; q++) {
      const parts = [0, 1, 2].map((i) => byTime.get(dayStart + q * QUARTER + i * SAMPLE));
      quarters.push(parts.every(Boolean) ? parts.reduce((a, s) => a + s![dir], 0) : null);
    }
    let best: { bps: number; start: number } | null = null;
    for (let w = 0; w + 4 <= quarters.length; w++) {
      const four = quarters.slice(w, w + 4);
      if (four.some((q) => q === null)) continue;
      const bps = (four.reduce((a, q) => a! + q!, 0)! * 8) / 3_600;
      if (!best || bps > best.bps) best = { bps, start: dayStart + w * QUARTER };
    }
    out.push({
      day: new Date(dayStart * 1000).toISOString().slice(0, 10),
      bps: best?.bps ?? null,
      utilisation: best ? best.bps / capacity : null,
      windowStart: best?.start ?? null,
    });
  }
  return out;
}

/** Billing 95th: sort the 5-minute rates, drop the top floor(n/20), take the highest remaining. */
function p95(samples: Sample[], dir: Dir): number | null {
  if (!samples.length) return null;
  const sorted = samples.map((s) => (s[dir] * 8) / SAMPLE).sort((a, b) => a - b);
  return sorted[sorted.length - 1 - Math.floor(sorted.length / 20)];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Theil–Sen over the days' higher peak-hour utilisation of in and out; days left until the level (the user's high threshold). */
function trend(inDaily: Daily[], outDaily: Daily[], level: number) {
  const ys = inDaily.map((d, i) => {
    const values = [d.utilisation, outDaily[i].utilisation].filter((v): v is number => v !== null);
    return values.length ? Math.max(...values) : null;
  });
  const points = ys.flatMap((y, x) => (y === null ? [] : [[x, y] as const]));
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) slopes.push((points[j][1] - points[i][1]) / (points[j][0] - points[i][0]));
  const slope = median(slopes);
  const intercept = median(points.map(([x, y]) => y - slope * x));
  const fittedLast = intercept + slope * (ys.length - 1);
  const daysLeft = fittedLast >= level ? 0 : slope <= 0 ? null : Math.ceil((level - fittedLast) / slope);
  return { points: points.length, slope, fittedLast, daysLeft };
}

type Expected = {
  in: Daily[];
  out: Daily[];
  inP95: number | null;
  outP95: number | null;
  maxDailyUtilisation: number | null;
  status: string;
  trend: ReturnType<typeof trend>;
  samples: number;
  interpolated: number;
  sources: string[];
};
const THRESHOLDS = { medium: 0.75, high: 0.95 };

function expected(l: LinkDef, capacity = l.capacity): Expected {
  const samples = samplesOf(l);
  const inDaily = dailyPeaks(samples, "in", capacity);
  const outDaily = dailyPeaks(samples, "out", capacity);
  const utilisations = [...inDaily, ...outDaily].map((d) => d.utilisation).filter((u): u is number => u !== null);
  const max = utilisations.length ? Math.max(...utilisations) : null;
  return {
    in: inDaily,
    out: outDaily,
    inP95: p95(samples, "in"),
    outP95: p95(samples, "out"),
    maxDailyUtilisation: max,
    status: max === null ? "no data" : max >= THRESHOLDS.high ? "high" : max >= THRESHOLDS.medium ? "medium" : "normal",
    trend: trend(inDaily, outDaily, THRESHOLDS.high),
    samples: samples.length,
    interpolated: samples.filter((s) => s.interpolated).length,
    sources: ["snmp", "flows", "demo"].filter((s) => samples.some((x) => x.source === s)),
  };
}

/** The day with the highest peak-hour value (the earliest on a tie). */
function maxDay(daily: Daily[]): Daily | null {
  let best: Daily | null = null;
  for (const d of daily) if (d.bps !== null && (!best || d.bps > best.bps!)) best = d;
  return best;
}

const close = (actual: number | null | undefined, wanted: number | null, what: string) => {
  if (wanted === null) return expect(actual, what).toBeNull();
  expect(actual, what).not.toBeNull();
  expect(Math.abs((actual as number) - wanted), `${what}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(
    1e-9 * Math.max(1, Math.abs(wanted)),
  );
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are walked as JSON
type Json = any;

/** One direction of an answer against the recomputation (95th only when it is expected to be shown). */
function checkDirection(actual: Json, daily: Daily[], p95Bps: number | null, capacity: number, show95: boolean, what: string) {
  expect(actual.daily.map((d: Json) => d.day)).toEqual(daily.map((d) => d.day));
  daily.forEach((d, i) => {
    close(actual.daily[i].bps, d.bps, `${what} ${d.day} bps`);
    close(actual.daily[i].utilisation, d.utilisation, `${what} ${d.day} utilisation`);
    expect(actual.daily[i].peakHourStart, `${what} ${d.day} peak hour`).toBe(d.windowStart);
  });
  const max = maxDay(daily);
  close(actual.maxDailyBps, max?.bps ?? null, `${what} max daily`);
  expect(actual.maxDailyDay).toBe(max?.day ?? null);
  const latest = [...daily].reverse().find((d) => d.bps !== null) ?? null;
  close(actual.latestDailyBps, latest?.bps ?? null, `${what} latest daily`);
  if (show95) {
    close(actual.p95Bps, p95Bps, `${what} 95th`);
    close(actual.p95Utilisation, p95Bps === null ? null : p95Bps / capacity, `${what} 95th utilisation`);
  } else {
    expect(actual).not.toHaveProperty("p95Bps");
    expect(actual).not.toHaveProperty("p95Utilisation");
  }
}

/** The figures every link has. */
function checkFigures(actual: Json, e: Expected, capacity: number, show95: boolean, what: string) {
  expect(actual.capacityBps).toBe(capacity);
  close(actual.maxDailyUtilisation, e.maxDailyUtilisation, `${what} max daily utilisation`);
  expect(actual.status, what).toBe(e.status);
  expect(actual.samples, what).toBe(e.samples);
  expect(actual.interpolatedSamples, what).toBe(e.interpolated);
  expect(actual.sources, what).toEqual(e.sources);
  expect(actual.forecast.points, what).toBe(e.trend.points);
  close(actual.forecast.slopePerDay, e.trend.slope, `${what} trend`);
  expect(actual.forecast.daysLeft, what).toBe(e.trend.daysLeft);
  // The default build-out setting: DAYS, 90 — due when the level is reached within 90 days; null without a figure (no growth).
  expect(actual.buildoutDue, what).toBe(e.trend.daysLeft === null ? null : e.trend.daysLeft <= 90);
  if (show95) {
    const billed = e.inP95 === null && e.outP95 === null ? null : Math.max(e.inP95 ?? 0, e.outP95 ?? 0);
    close(actual.billedP95Bps, billed, `${what} billed 95th`);
  } else {
    expect(actual).not.toHaveProperty("billedP95Bps");
    expect(actual).not.toHaveProperty("billedP95Utilisation");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Stores, inventory, users

let stores: TestStores;
const uid = { full: 0, no95: 0, frontendOnly: 0, delegated: 0, delegatedNoAs: 0, externalOnly: 0, flow95: 0 };

async function createUser(email: string, permissions: Permission[], external?: { ASNumberList: number[]; routerList: string[] }) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated: !!external })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (external) {
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: row.id,
      flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["64601"], output: "AS_SRC_INGRESS" }],
      externalLinksViewsRestrictions: { ...external, interfaceList: [] },
    });
  }
  return row.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const router = (name: string, loopback: string) => createRouter(stores, { name, city: "Paris", country: "France", loopback });
  await router("pa-r1", "198.51.100.11");
  await router("pa-r2", "198.51.100.12");
  let ifindex = 1;
  for (const l of EXTERNAL) {
    await createInterface(stores, l.router, {
      name: l.iface,
      ifindex: ifindex++,
      capacity: l.capacity,
      kind: "external",
      peering: l.asn === null ? "Peering" : "Transit",
      connection: l.asn === null ? "DE-CIX" : null,
      neighbour_as: l.asn,
    });
  }
  await createInterface(stores, "pa-r1", { name: "ae-9", ifindex: ifindex++, capacity: AE9.capacity, kind: "core" });
  await createInterface(stores, "pa-r2", {
    name: "ae-1",
    ifindex: ifindex++,
    capacity: AE1_CAPACITY,
    kind: "core",
    remote: { router: "pa-r1", interface: "ae-9" },
  });
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: rows });
  await chInsert(stores.ch, { name: "test.flows", table: "flows_5m", values: flows });

  const both: Permission[] = ["API_LINK_UTIL_EXTERNAL", "API_LINK_UTIL_INTERNAL"];
  uid.full = await createUser("full@planners.test", [...both, "LINK_UTILIZATION_95TH"]);
  uid.no95 = await createUser("no95@planners.test", both);
  uid.frontendOnly = await createUser("frontend@planners.test", ["FRONTEND_LINK_UTIL_EXTERNAL", "API_LINK_UTIL_INTERNAL"]);
  uid.externalOnly = await createUser("external@planners.test", ["API_LINK_UTIL_EXTERNAL"]);
  uid.flow95 = await createUser("flow95@planners.test", ["API_LINK_UTIL_EXTERNAL", "NETFLOW95TH"]);
  // Sees the links to AS64601 on pa-r1 only (pa-r2 et-3 is AS64601 too, on a router it may not see).
  uid.delegated = await createUser("delegated@planners.test", ["API_LINK_UTIL_EXTERNAL", "LINK_UTILIZATION_95TH"], {
    ASNumberList: [64601],
    routerList: ["pa-r1"],
  });
  uid.delegatedNoAs = await createUser("delegated-no-as@planners.test", ["API_LINK_UTIL_EXTERNAL"], { ASNumberList: [], routerList: [] });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

type Module = { loader: unknown; action: unknown };
async function post(module: Module, path: string, userId: number, body: unknown): Promise<{ status: number; data: Json }> {
  const res = await callRoute(module as never, path, { method: "POST", cookie: await sessionCookie(stores, userId), body });
  return { status: res.status, data: await res.json() };
}
async function get(
  module: Module,
  path: string,
  userId: number,
  params: Record<string, string> = {},
): Promise<{ status: number; data: Json }> {
  const res = await callRoute(module as never, path, { cookie: await sessionCookie(stores, userId), params });
  return { status: res.status, data: await res.json() };
}
const fieldsOf = (data: Json) => (data.errors ?? []).map((e: { field: string }) => e.field);
const isoDay = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
const RANGE_BODY = { startTime: START, endTime: END };
const DATES = { startDate: isoDay(START), endDate: isoDay(END - DAY) };

// ---------------------------------------------------------------------------------------------------------------

describe("POST api/linkutil/external/", () => {
  it("answers every external link's figures, grouped by neighbour AS, equal to the recomputation from the rows", async () => {
    const { status, data } = await post(externalRoute, "/api/linkutil/external/", uid.full, RANGE_BODY);
    expect(status).toBe(200);
    expect(data.range).toEqual({ start: START, end: END });
    expect(data.grouping).toBe("AS_NUMBER");
    expect(data.thresholds).toEqual(THRESHOLDS);
    expect(data.links).toBe(4);
    expect(data.groups.map((g: Json) => [g.value, g.label, g.links.map((l: Json) => l.key)])).toEqual([
      ["64601", "AS64601", [keyOf(ET1), keyOf(ET3)]],
      ["64602", "AS64602", [keyOf(ET2)]],
      ["", "Internet exchange (several neighbours)", [keyOf(ET4)]],
    ]);
    for (const l of EXTERNAL) {
      const link = data.groups.flatMap((g: Json) => g.links).find((x: Json) => x.key === keyOf(l));
      const e = expected(l);
      expect(link).toMatchObject({ router: l.router, interface: l.iface, neighbourAs: l.asn });
      checkDirection(link.in, e.in, e.inP95, l.capacity, true, `${keyOf(l)} in`);
      checkDirection(link.out, e.out, e.outP95, l.capacity, true, `${keyOf(l)} out`);
      checkFigures(link, e, l.capacity, true, keyOf(l));
    }
    // Sampling confidence of et-1: flow bytes against SNMP bytes over the intervals both measured.
    const both = rows.filter((r) => r.router === ET1.router && r.interface === ET1.iface && r.source !== "demo");
    const sum = (source: string) => both.filter((r) => r.source === source).reduce((a, r) => a + r.in_bytes + r.out_bytes, 0);
    const et1 = data.groups[0].links[0];
    expect(et1.samplingConfidence.intervals).toBe(SNMP_SLOTS);
    close(et1.samplingConfidence.ratio, sum("flows") / sum("snmp"), "sampling confidence");
    expect(data.groups[0].links[1].samplingConfidence).toBeNull();
    const as64601 = data.groups[0];
    expect(as64601.linkCount).toBe(2);
    expect(as64601.capacityBps).toBe(ET1.capacity + ET3.capacity);
    const [e1, e3] = [expected(ET1), expected(ET3)];
    close(as64601.maxDailyUtilisation, Math.max(e1.maxDailyUtilisation!, e3.maxDailyUtilisation!), "group max daily");
    const billed = (e: Expected) => Math.max(e.inP95!, e.outP95!);
    close(as64601.billedP95SumBps, billed(e1) + billed(e3), "group billed 95th");
  });

  it("covers what the fixture is for: SNMP wins over the demo's row, gaps, a day without a value, a growing link", () => {
    const e1 = expected(ET1);
    // The SNMP rows (twice the demo's bytes) put day 0's peak hour inside 12:00–14:00.
    expect(e1.in[0].windowStart).toBeGreaterThanOrEqual(SNMP_FROM);
    expect(e1.in[0].windowStart).toBeLessThan(SNMP_FROM + SNMP_SLOTS * SAMPLE);
    expect(e1.in[5].bps).toBeNull();
    expect(e1.interpolated).toBe(3);
    expect(e1.sources).toEqual(["snmp", "demo"]);
    expect(expected(ET2).status).toBe("medium");
    expect(expected(ET2).trend.daysLeft).toBeGreaterThan(0);
    expect(expected(ET3).trend.daysLeft).toBeNull();
  });

  it("groups by router or interface, keeps only the displayed groups, and applies the filters", async () => {
    const byRouter = await post(externalRoute, "/api/linkutil/external/", uid.full, { ...RANGE_BODY, groupByRouter: true });
    expect(byRouter.data.grouping).toBe("ROUTER");
    expect(byRouter.data.groups.map((g: Json) => [g.value, g.linkCount])).toEqual([
      ["pa-r1", 2],
      ["pa-r2", 2],
    ]);
    const byInterface = await post(externalRoute, "/api/linkutil/external/", uid.full, {
      ...RANGE_BODY,
      dimension: "INTERFACE",
      currentlyDisplayedValues: [keyOf(ET2), keyOf(ET4)],
    });
    expect(byInterface.data.groups.map((g: Json) => g.value)).toEqual([keyOf(ET2), keyOf(ET4)]);
    const displayedAs = await post(externalRoute, "/api/linkutil/external/", uid.full, {
      ...RANGE_BODY,
      currentlyDisplayedValues: ["AS64602"],
    });
    expect(displayedAs.data.groups.map((g: Json) => g.value)).toEqual(["64602"]);
    const filtered = await post(externalRoute, "/api/linkutil/external/", uid.full, {
      ...RANGE_BODY,
      filters: [
        { dimension: "AS_NUMBER", value: "64601", isNegation: false, type: "primitive", name: "AS64601" },
        { dimension: "ROUTER", value: "!pa-r1" },
      ],
    });
    expect(filtered.data.groups.flatMap((g: Json) => g.links.map((l: Json) => l.key))).toEqual([keyOf(ET3)]);
  });

  it("leaves the 95th-percentile fields out without LINK_UTILIZATION_95TH", async () => {
    const { status, data } = await post(externalRoute, "/api/linkutil/external/", uid.no95, RANGE_BODY);
    expect(status).toBe(200);
    const link = data.groups[0].links[0];
    const e = expected(ET1);
    checkDirection(link.in, e.in, e.inP95, ET1.capacity, false, "no95 in");
    checkFigures(link, e, ET1.capacity, false, "no95");
    expect(data.groups[0]).not.toHaveProperty("billedP95SumBps");
  });

  it("refuses bad bodies with 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ endTime: END }, "startTime"],
      [{ startTime: END, endTime: START }, "startTime"],
      [{ startTime: 0, endTime: 801 * DAY }, "startTime"],
      [{ ...RANGE_BODY, filters: [{ dimension: "AS_NUMBER", value: "Google" }] }, "filters.0.value"],
      [{ ...RANGE_BODY, filters: [{ dimension: "AS_SRC_INGRESS", value: "1" }] }, "filters.0.dimension"],
      [{ ...RANGE_BODY, groupByRouter: true, groupByInterface: true }, "groupByInterface"],
      [{ ...RANGE_BODY, currentlyDisplayedValues: [{}] }, "currentlyDisplayedValues.0"],
    ];
    for (const [body, field] of cases) {
      const { status, data } = await post(externalRoute, "/api/linkutil/external/", uid.full, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(data), JSON.stringify(body)).toContain(field);
    }
  });

  it("needs API_LINK_UTIL_EXTERNAL (the Border Planner screen's FRONTEND_LINK_UTIL_EXTERNAL is not enough)", async () => {
    const { status, data } = await post(externalRoute, "/api/linkutil/external/", uid.frontendOnly, RANGE_BODY);
    expect(status).toBe(403);
    expect(data.exception_code).toBe("permission_denied");
  });

  it("shows a delegated account only its links; one without an AS number has no access at all", async () => {
    const { status, data } = await post(externalRoute, "/api/linkutil/external/", uid.delegated, RANGE_BODY);
    expect(status).toBe(200);
    expect(data.groups.flatMap((g: Json) => g.links.map((l: Json) => l.key))).toEqual([keyOf(ET1)]);
    const filteredOut = await post(externalRoute, "/api/linkutil/external/", uid.delegated, {
      ...RANGE_BODY,
      filters: [{ dimension: "ROUTER", value: "pa-r2" }],
    });
    expect(filteredOut.data.groups).toEqual([]);
    expect((await post(externalRoute, "/api/linkutil/external/", uid.delegatedNoAs, RANGE_BODY)).status).toBe(403);
  });
});

describe("POST api/linkutil/external/summary/ and timeseries/", () => {
  it("summarise the links: count, capacity, billed 95th, statuses, build-outs due", async () => {
    const { status, data } = await post(summaryRoute, "/api/linkutil/external/summary/", uid.full, DATES);
    expect(status).toBe(200);
    expect(data.range).toEqual({ start: START, end: END });
    const all = EXTERNAL.map((l) => expected(l));
    expect(data.links).toBe(4);
    expect(data.totalCapacityBps).toBe(EXTERNAL.reduce((a, l) => a + l.capacity, 0));
    close(
      data.billedP95SumBps,
      all.reduce((a, e) => a + Math.max(e.inP95!, e.outP95!), 0),
      "billed 95th sum",
    );
    const count = (s: string) => all.filter((e) => e.status === s).length;
    expect(data.statusCounts).toEqual({ high: count("high"), medium: count("medium"), normal: count("normal"), noData: count("no data") });
    expect(data.buildoutDue).toBe(all.filter((e) => e.trend.daysLeft !== null && e.trend.daysLeft <= 90).length);

    const no95 = await post(summaryRoute, "/api/linkutil/external/summary/", uid.no95, DATES);
    expect(no95.data).not.toHaveProperty("billedP95SumBps");
    expect(no95.data.links).toBe(4);

    const delegated = await post(summaryRoute, "/api/linkutil/external/summary/", uid.delegated, DATES);
    expect(delegated.data.links).toBe(1);
    expect(delegated.data.totalCapacityBps).toBe(ET1.capacity);
  });

  it("read days in the caller's timezone and answer with the caller's thresholds", async () => {
    const tokyo = await createUser("tokyo@planners.test", ["API_LINK_UTIL_EXTERNAL"]);
    await updateUserSetting(stores.pg.db, tokyo, "timezone", "Asia/Tokyo");
    await updateUserSetting(stores.pg.db, tokyo, "extlinks_util_threshold_high", 0.9);
    const { status, data } = await post(summaryRoute, "/api/linkutil/external/summary/", tokyo, DATES);
    expect(status).toBe(200);
    // Tokyo is UTC+9 all year: its days start 9 hours before UTC's.
    expect(data.range).toEqual({ start: START - 9 * 3_600, end: END - 9 * 3_600 });
    const links = await post(externalRoute, "/api/linkutil/external/", tokyo, RANGE_BODY);
    expect(links.data.thresholds).toEqual({ medium: THRESHOLDS.medium, high: 0.9 });
    expect(links.data.groups.flatMap((g: Json) => g.links.map((l: Json) => l.in.daily[0].day))[0]).toBe(isoDay(START + 9 * 3_600));
  });

  it("timeseries: per 5-minute bucket of the last day, the sum of the links' rates; the body may be a JSON string", async () => {
    const lastDay = { startDate: END - DAY, endDate: END };
    const asObject = await post(timeseriesRoute, "/api/linkutil/external/timeseries/", uid.full, lastDay);
    const asString = await post(timeseriesRoute, "/api/linkutil/external/timeseries/", uid.full, JSON.stringify(lastDay));
    expect(asObject.status).toBe(200);
    expect(asString).toEqual(asObject);
    const { data } = asObject;
    expect(data.bucketSeconds).toBe(SAMPLE);
    expect(data.capacityBps).toBe(EXTERNAL.reduce((a, l) => a + l.capacity, 0));
    const want = new Map<number, { in: number; out: number }>();
    for (const l of EXTERNAL)
      for (const s of samplesOf(l, END - DAY, END)) {
        const point = want.get(s.time) ?? { in: 0, out: 0 };
        point.in += (s.in * 8) / SAMPLE;
        point.out += (s.out * 8) / SAMPLE;
        want.set(s.time, point);
      }
    expect(data.points.map((p: Json) => p.time)).toEqual([...want.keys()].sort((a, b) => a - b));
    for (const p of data.points) {
      close(p.inBps, want.get(p.time)!.in, `in at ${p.time}`);
      close(p.outBps, want.get(p.time)!.out, `out at ${p.time}`);
    }
    const delegated = await post(timeseriesRoute, "/api/linkutil/external/timeseries/", uid.delegated, JSON.stringify(lastDay));
    const et1 = samplesOf(ET1, END - DAY, END);
    expect(delegated.data.capacityBps).toBe(ET1.capacity);
    expect(delegated.data.points.map((p: Json) => p.time)).toEqual(et1.map((s) => s.time));
    delegated.data.points.forEach((p: Json, i: number) => close(p.inBps, (et1[i].in * 8) / SAMPLE, "delegated in"));
  });

  it("refuse bad bodies naming the field, and callers without API_LINK_UTIL_EXTERNAL", async () => {
    const cases: [Module, string, unknown, string][] = [
      [summaryRoute, "/api/linkutil/external/summary/", { ...DATES, startDate: "2026-02-30" }, "startDate"],
      [summaryRoute, "/api/linkutil/external/summary/", { startDate: DATES.endDate, endDate: DATES.startDate }, "startDate"],
      [summaryRoute, "/api/linkutil/external/summary/", { ...DATES, filters: "ROUTER:pa-r1" }, "filters"],
      [timeseriesRoute, "/api/linkutil/external/timeseries/", JSON.stringify({ startDate: DATES.startDate }), "endDate"],
      [timeseriesRoute, "/api/linkutil/external/timeseries/", "{not json", "(body)"],
    ];
    for (const [module, path, body, field] of cases) {
      const { status, data } = await post(module, path, uid.full, body);
      expect(status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(fieldsOf(data), `${path} ${JSON.stringify(body)}`).toContain(field);
    }
    expect((await post(summaryRoute, "/api/linkutil/external/summary/", uid.frontendOnly, DATES)).status).toBe(403);
    expect((await post(timeseriesRoute, "/api/linkutil/external/timeseries/", uid.frontendOnly, DATES)).status).toBe(403);
  });
});

describe("GET api/linkutil/internal/ and interfaces/", () => {
  const capacity = Math.min(AE9.capacity, AE1_CAPACITY);

  it("all links: the internal link from its first end, figures per direction equal to the recomputation", async () => {
    const { status, data } = await get(internalRoute, `/api/linkutil/internal/?startDate=${START}&endDate=${END}`, uid.full);
    expect(status).toBe(200);
    expect(data.dataType).toBe("all_links");
    expect(data.links.map((l: Json) => l.key)).toEqual([INTERNAL_KEY]);
    const [link] = data.links;
    expect(link.from).toEqual({ router: "pa-r1", interface: "ae-9", description: "", capacityBps: AE9.capacity });
    expect(link.to).toEqual({ router: "pa-r2", interface: "ae-1", description: "", capacityBps: AE1_CAPACITY });
    const e = expected(AE9, capacity);
    checkDirection(link.forward, e.out, e.outP95, capacity, true, "pa-r1 → pa-r2");
    checkDirection(link.reverse, e.in, e.inP95, capacity, true, "pa-r2 → pa-r1");
    checkFigures(link, e, capacity, true, INTERNAL_KEY);
  });

  it("a single interface pair, seen from the start interface; 404 for interfaces no link joins", async () => {
    const pair = "dataType=single_interface_pair&inRouter=pa-r2&startInterface=ae-1&outRouter=pa-r1&endInterface=ae-9";
    const { status, data } = await get(
      internalRoute,
      `/api/linkutil/internal/?${pair}&startDate=${DATES.startDate}&endDate=${DATES.endDate}`,
      uid.no95,
    );
    expect(status).toBe(200);
    expect(data.links).toHaveLength(1);
    const [link] = data.links;
    expect([link.from.router, link.to.router]).toEqual(["pa-r2", "pa-r1"]);
    const e = expected(AE9, capacity);
    checkDirection(link.forward, e.in, e.inP95, capacity, false, "pa-r2 → pa-r1");
    checkDirection(link.reverse, e.out, e.outP95, capacity, false, "pa-r1 → pa-r2");
    checkFigures(link, e, capacity, false, "pair");
    const none = await get(
      internalRoute,
      `/api/linkutil/internal/?dataType=single_interface_pair&inRouter=pa-r2&startInterface=ae-1&outRouter=pa-r1&endInterface=et-1&startDate=${START}&endDate=${END}`,
      uid.full,
    );
    expect(none.status).toBe(404);
  });

  it("interfaces: the pairs between two routers with their samples in the range", async () => {
    const { status, data } = await get(
      interfacesRoute,
      `/api/linkutil/interfaces/?inRouter=pa-r2&outRouter=pa-r1&startDate=${START}&endDate=${END}`,
      uid.full,
    );
    expect(status).toBe(200);
    expect(data.interfaces).toEqual([
      {
        key: INTERNAL_KEY,
        inRouter: "pa-r2",
        startInterface: "ae-1",
        outRouter: "pa-r1",
        endInterface: "ae-9",
        capacityBps: capacity,
        samples: samplesOf(AE9).length,
      },
    ]);
    const other = await get(
      interfacesRoute,
      `/api/linkutil/interfaces/?inRouter=pa-r2&outRouter=pa-r3&startDate=${START}&endDate=${END}`,
      uid.full,
    );
    expect(other.data.interfaces).toEqual([]);
  });

  it("refuse bad parameters naming the field, and callers without API_LINK_UTIL_INTERNAL", async () => {
    const cases: [Module, string, string][] = [
      [internalRoute, `/api/linkutil/internal/?startDate=${START}`, "endDate"],
      [internalRoute, `/api/linkutil/internal/?dataType=pairs&startDate=${START}&endDate=${END}`, "dataType"],
      [
        internalRoute,
        `/api/linkutil/internal/?dataType=single_interface_pair&inRouter=pa-r1&startDate=${START}&endDate=${END}`,
        "outRouter",
      ],
      [internalRoute, `/api/linkutil/internal/?startDate=2026-11-31&endDate=${END}`, "startDate"],
      [internalRoute, `/api/linkutil/internal/?startDate=0&endDate=${END}`, "startDate"],
      [interfacesRoute, `/api/linkutil/interfaces/?startDate=${START}&endDate=${END}`, "inRouter"],
      [interfacesRoute, `/api/linkutil/interfaces/?inRouter=pa-r1&startDate=${END}&endDate=${START}`, "startDate"],
    ];
    for (const [module, path, field] of cases) {
      const { status, data } = await get(module, path, uid.full);
      expect(status, path).toBe(400);
      expect(fieldsOf(data), path).toContain(field);
    }
    expect((await get(internalRoute, `/api/linkutil/internal/?startDate=${START}&endDate=${END}`, uid.externalOnly)).status).toBe(403);
    expect(
      (await get(interfacesRoute, `/api/linkutil/interfaces/?inRouter=pa-r1&startDate=${START}&endDate=${END}`, uid.delegated)).status,
    ).toBe(403);
  });
});

describe("GET api/linkutil/{x}/dateswithdata/", () => {
  const span = (list: LinkDef[]) => {
    const times = rows.filter((r) => list.some((l) => l.router === r.router && l.iface === r.interface)).map((r) => r.time);
    return [{ minTimestamp: Math.min(...times), maxTimestamp: Math.max(...times) }];
  };

  it("answers the first and last sample of the caller's links of that kind", async () => {
    expect((await get(datesRoute, "/api/linkutil/external/dateswithdata/", uid.full, { x: "external" })).data).toEqual(span(EXTERNAL));
    expect((await get(datesRoute, "/api/linkutil/internal/dateswithdata/", uid.full, { x: "internal" })).data).toEqual(span([AE9]));
    expect((await get(datesRoute, "/api/linkutil/external/dateswithdata/", uid.delegated, { x: "external" })).data).toEqual(span([ET1]));
  });

  it("needs the permission of that kind; another x is a 400 naming it", async () => {
    expect((await get(datesRoute, "/api/linkutil/internal/dateswithdata/", uid.externalOnly, { x: "internal" })).status).toBe(403);
    expect((await get(datesRoute, "/api/linkutil/external/dateswithdata/", uid.frontendOnly, { x: "external" })).status).toBe(403);
    const bad = await get(datesRoute, "/api/linkutil/sideways/dateswithdata/", uid.full, { x: "sideways" });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.data)).toEqual(["x"]);
  });
});

describe("under load", () => {
  it("the calls wait for the analytics query limiter: a user over their own limit gets 429 with Retry-After", async () => {
    const limiter = stores.ch.limiter!;
    const { perUser, queuePerUser } = limiter.settings;
    for (let i = 0; i < 500 && (limiter.snapshot().running > 0 || limiter.snapshot().waiting > 0); i++)
      await new Promise((r) => setTimeout(r, 20));
    // Results kept by the calls above need no query slot (they are answered from the result cache):
    // forget them, so each call has to query.
    await resultStore(stores.ch).clear();
    // Hold the user's slots and queue places with work that does not finish during the test.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holders = Array.from({ length: perUser + queuePerUser }, () => limiter.run(`user:${uid.full}`, () => gate));
    try {
      const cookie = await sessionCookie(stores, uid.full);
      // As server.mjs serves a request: inside a request scope, where ClickHouse reads are analytics queries.
      const served = (fn: unknown, request: Request) => runInRequestScope(Object.fromEntries(request.headers), () => runRoute(fn, request));
      const outcomes = [
        await served(externalRoute.action, jsonRequest("/api/linkutil/external/", RANGE_BODY, { cookie })),
        await served(summaryRoute.action, jsonRequest("/api/linkutil/external/summary/", DATES, { cookie })),
        await served(internalRoute.loader, getRequest(`/api/linkutil/internal/?startDate=${START}&endDate=${END}`, cookie)),
      ];
      for (const outcome of outcomes) {
        expect(outcome.status).toBe(429);
        expect(Number(outcome.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
        expect(outcome.data.exception_code).toBe("too_many_queries");
      }
    } finally {
      open();
      await Promise.allSettled(holders);
    }
  });
});

describe("GET api/linkutil/interfacestatistics/", () => {
  const range = `startDate=${FLOWS_FROM}&endDate=${END}`;
  const column = {
    source: { in: "as_src", out: "as_src" },
    neighbour: { in: "as_hnd", out: "as_nxt" },
    destination: { in: "as_dst", out: "as_dst" },
  } as const;

  /** Mean bit/s, share and the 95th (zero-filled over the intervals with any flow on the links) per AS, from the rows above. */
  function recompute(interfaces: string[], dir: "in" | "out", dimension: keyof typeof column) {
    const mine = flows.filter(
      (f) =>
        f.time >= FLOWS_FROM &&
        f.time < END &&
        (dir === "in"
          ? f.ingress_router === "pa-r1" && interfaces.includes(f.in_if)
          : f.egress_router === "pa-r1" && interfaces.includes(f.out_if)),
    );
    const intervals = [...new Set(mine.map((f) => f.time))];
    const key = column[dimension][dir];
    const asns = [...new Set(mine.map((f) => f[key]))];
    const total = mine.reduce((a, f) => a + f.bytes, 0);
    return {
      totalBps: (total * 8) / DAY,
      intervals: intervals.length,
      rows: asns.map((asn) => {
        const own = mine.filter((f) => f[key] === asn);
        const bytes = own.reduce((a, f) => a + f.bytes, 0);
        const series = intervals.map((t) => own.filter((f) => f.time === t).reduce((a, f) => a + f.bytes, 0)).sort((a, b) => a - b);
        const p95 = series[series.length - 1 - Math.floor(series.length / 20)];
        return { asn, bytes, bps: (bytes * 8) / DAY, share: bytes / total, p95Bps: (p95 * 8) / SAMPLE };
      }),
    };
  }

  function check(data: Json, want: ReturnType<typeof recompute>, with95: boolean) {
    close(data.totalBps, want.totalBps, "total");
    expect(data.rows.map((r: Json) => r.asn).sort((a: number, b: number) => a - b)).toEqual(
      want.rows.map((r) => r.asn).sort((a, b) => a - b),
    );
    const bps = data.rows.map((r: Json) => r.bps);
    expect(bps).toEqual([...bps].sort((a, b) => b - a));
    for (const w of want.rows) {
      const row = data.rows.find((r: Json) => r.asn === w.asn);
      expect(row.bytes).toBe(String(w.bytes));
      close(row.bps, w.bps, `AS${w.asn} bps`);
      close(row.share, w.share, `AS${w.asn} share`);
      if (with95) close(row.p95Bps, w.p95Bps, `AS${w.asn} 95th`);
      else expect(row).not.toHaveProperty("p95Bps");
    }
    if (with95) expect(data.p95Intervals).toBe(want.intervals);
    else expect(data).not.toHaveProperty("p95Intervals");
  }

  it("the traffic entering on the links to the listed neighbours, by source AS, with each AS's 95th for NETFLOW95TH holders", async () => {
    const path = `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=AS64601&dimension=source&isDirectedIn=true&${range}`;
    const with95 = await get(statisticsRoute, path, uid.flow95);
    expect(with95.status).toBe(200);
    expect(with95.data).toMatchObject({
      router: "pa-r1",
      interfaces: ["et-1"],
      isDirectedIn: true,
      dimension: "source",
      p95IntervalSeconds: SAMPLE,
    });
    const want = recompute(["et-1"], "in", "source");
    expect(want.rows.map((r) => r.asn).sort((a, b) => a - b)).toEqual([2906, 15169, 64601]);
    // 2906 and 64601 are absent from part of the intervals: their 95th counts those as zero.
    expect(want.intervals).toBe(216);
    check(with95.data, want, true);
    const without = await get(statisticsRoute, path, uid.full);
    check(without.data, want, false);
  });

  it("several neighbours' links add up; out of the network by neighbour and destination; an interface alone", async () => {
    const both = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=64601,64602&dimension=neighbour&isDirectedIn=1&${range}`,
      uid.flow95,
    );
    expect(both.data.interfaces).toEqual(["et-1", "et-2"]);
    check(both.data, recompute(["et-1", "et-2"], "in", "neighbour"), true);
    const out = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=64601&dimension=destination&isDirectedIn=false&${range}`,
      uid.flow95,
    );
    check(out.data, recompute(["et-1"], "out", "destination"), true);
    expect(out.data.dimensionLabel).toBe("Destination AS");
    const one = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&interface=et-2&dimension=source&isDirectedIn=true&${range}`,
      uid.full,
    );
    check(one.data, recompute(["et-2"], "in", "source"), false);
    const ix = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r2&interface=et-4&dimension=neighbour&isDirectedIn=true&${range}`,
      uid.flow95,
    );
    expect(ix.status).toBe(200);
    expect(ix.data).toMatchObject({ totalBps: 0, rows: [], p95Intervals: 0 });
  });

  it("a delegated account: its links only; a router or AS number outside its lists is refused", async () => {
    const ok = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=64601&dimension=source&isDirectedIn=true&${range}`,
      uid.delegated,
    );
    expect(ok.status).toBe(200);
    check(ok.data, recompute(["et-1"], "in", "source"), false);
    const router = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r2&ASNumberList=64601&dimension=source&isDirectedIn=true&${range}`,
      uid.delegated,
    );
    expect(router.status).toBe(403);
    expect(router.data.detail).toContain("pa-r2");
    const as = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=64601,64602&dimension=source&isDirectedIn=true&${range}`,
      uid.delegated,
    );
    expect(as.status).toBe(403);
    expect(as.data.detail).toContain("AS64602");
    const ix = await get(
      statisticsRoute,
      `/api/linkutil/interfacestatistics/?router=pa-r1&interface=et-2&dimension=source&isDirectedIn=true&${range}`,
      uid.delegated,
    );
    expect(ix.status).toBe(404);
    expect(
      (
        await get(
          statisticsRoute,
          `/api/linkutil/interfacestatistics/?router=pa-r1&ASNumberList=64601&dimension=source&isDirectedIn=true&${range}`,
          uid.delegatedNoAs,
        )
      ).status,
    ).toBe(403);
  });

  it("refuses bad parameters naming the field; 404 for links that do not exist; 403 without API_LINK_UTIL_EXTERNAL", async () => {
    const base = `/api/linkutil/interfacestatistics/?router=pa-r1&${range}`;
    const cases: [string, string][] = [
      [`${base}&dimension=source&isDirectedIn=true`, "ASNumberList"],
      [`${base}&ASNumberList=Google&dimension=source&isDirectedIn=true`, "ASNumberList"],
      [`${base}&ASNumberList=64601&dimension=AS_SRC_INGRESS&isDirectedIn=true`, "dimension"],
      [`${base}&ASNumberList=64601&dimension=source`, "isDirectedIn"],
      [`/api/linkutil/interfacestatistics/?ASNumberList=64601&dimension=source&isDirectedIn=true&${range}`, "router"],
    ];
    for (const [path, field] of cases) {
      const { status, data } = await get(statisticsRoute, path, uid.full);
      expect(status, path).toBe(400);
      expect(fieldsOf(data), path).toContain(field);
    }
    expect((await get(statisticsRoute, `${base}&ASNumberList=65000&dimension=source&isDirectedIn=true`, uid.full)).status).toBe(404);
    expect((await get(statisticsRoute, `${base}&ASNumberList=64601&dimension=source&isDirectedIn=true`, uid.frontendOnly)).status).toBe(
      403,
    );
  });
});
