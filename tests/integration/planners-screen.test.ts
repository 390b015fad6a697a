/**
 * The Border Planner and Core Planner screens (loaders of /border-planner and /core-planner, their
 * exports, the alias routes) on real stores: inventory links, interface_util_5m and flows_5m rows
 * inserted here, every figure the screens show checked against a recomputation in this file from
 * those rows (brute force, independent of the kernel's figures.ts), delegated visibility (nothing
 * beyond the account's links), and bad address values answered with notices, never a 500.
 */
import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellText } from "~/features/planners/cells";
import { PlannerView } from "~/features/planners/ui/PlannerView";
import { delegationRestrictions, userPermissions, userSettings, users } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { formatBitsPerSecond, formatPercent } from "~/lib/units";
import * as borderRoute from "~/routes/_app.border-planner";
import * as coreRoute from "~/routes/_app.core-planner";
import * as externalLinksRoute from "~/routes/_app.external-links";
import * as linksRoute from "~/routes/_app.links";
import * as borderExport from "~/routes/border-planner.export";
import * as coreExport from "~/routes/core-planner.export";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const DAYS = 3;
// Whole UTC days ending at yesterday's midnight: recent (the tables' TTL), the same shape every run.
const END = Math.floor(Date.now() / 1000 / DAY) * DAY - DAY;
const START = END - DAYS * DAY;
const FULL = (bps: number) => (bps * 300) / 8;
const CAP = { et1: 10e9, et2: 1e9, c1: 40e9 };

type UtilRow = {
  time: number;
  router: string;
  interface: string;
  kind: string;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
  source: string;
};
const util: UtilRow[] = [];
/** A deterministic spread in [0, 1) (no Math.random: the same figures on every run). */
const spread = (i: number, salt: number) => (((i * 7919 + salt * 104_729) % 1000) + 0.5) / 1000;
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  const hour = ((t % DAY) / 3600) | 0;
  const busy = hour >= 18 && hour < 22 ? 1 : 0.4;
  util.push({
    time: t,
    router: "r1",
    interface: "et-1",
    kind: "external",
    in_bytes: Math.round(FULL(CAP.et1) * busy * (0.5 + 0.4 * spread(i, 1))),
    out_bytes: Math.round(FULL(CAP.et1) * 0.2 * spread(i, 2)),
    capacity_bps: CAP.et1,
    source: "snmp",
  });
  util.push({
    time: t,
    router: "r2",
    interface: "et-2",
    kind: "external",
    in_bytes: Math.round(FULL(CAP.et2) * 0.3 * spread(i, 3)),
    out_bytes: Math.round(FULL(CAP.et2) * busy * 0.9 * spread(i, 4)),
    capacity_bps: CAP.et2,
    source: "snmp",
  });
  util.push({
    time: t,
    router: "r1",
    interface: "c-1",
    kind: "core",
    in_bytes: Math.round(FULL(CAP.c1) * 0.2 * spread(i, 5)),
    out_bytes: Math.round(FULL(CAP.c1) * busy * 0.6 * spread(i, 6)),
    capacity_bps: CAP.c1,
    source: "snmp",
  });
}
// Flows on et-1: incoming from AS 65010 and 65020, outgoing to 65030; one row on et-2 that et-1's detail must not count.
const flows = [
  { time: START + 600, ingress_router: "r1", in_if: "et-1", as_src: 65010, as_dst: 64500, bytes: 9_000_000 },
  { time: START + 900, ingress_router: "r1", in_if: "et-1", as_src: 65010, as_dst: 64500, bytes: 1_000_000 },
  { time: START + 900, ingress_router: "r1", in_if: "et-1", as_src: 65020, as_dst: 64500, bytes: 4_000_000 },
  { time: START + 1200, egress_router: "r1", out_if: "et-1", as_src: 64500, as_dst: 65030, bytes: 3_000_000 },
  { time: START + 1200, ingress_router: "r2", in_if: "et-2", as_src: 65010, as_dst: 64500, bytes: 7_000_000 },
];

let stores: TestStores;
let cookie = "";
let delegatedCookie = "";
/** A planner whose thresholds are all its own: planner ones apart from the timeseries ones and from the defaults. */
let customCookie = "";
const CUSTOM = { ext: { medium: 0.2, high: 0.5 }, int: { medium: 0.3, high: 0.6 }, timeseries: { medium: 0.4, high: 0.7 } };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const base = { city: "Berlin", country: "Germany" };
  await createRouter(stores, {
    ...base,
    name: "r2",
    loopback: "192.0.2.2",
    interfaces: [
      { name: "et-2", ifindex: 2, capacity: CAP.et2, kind: "external", peering: "Peering", neighbour_as: 64502 },
      { name: "c-1", ifindex: 10, capacity: CAP.c1, kind: "core" },
    ],
  });
  await createRouter(stores, {
    ...base,
    name: "r1",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: CAP.et1, kind: "external", peering: "Transit", neighbour_as: 64501 },
      { name: "c-1", ifindex: 10, capacity: CAP.c1, kind: "core", remote: { router: "r2", interface: "c-1" } },
    ],
  });
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: util });
  await chInsert(stores.ch, { name: "test.flows", table: "flows_5m", values: flows });
  const [planner] = await stores.pg.db
    .insert(users)
    .values({ email: "planner@screen.test", firstName: "P", passwordHash: "x", hasConsented: true, consentedAt: new Date() })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values([
    { userId: planner.id, permission: "FRONTEND_LINK_UTIL_EXTERNAL" },
    { userId: planner.id, permission: "API_LINK_UTIL_INTERNAL" },
  ]);
  // Timeseries thresholds apart from the planner's (and from the defaults): the charts' lines take these.
  await stores.pg.db
    .insert(userSettings)
    .values({ userId: planner.id, timeseriesUtilThresholdMedium: 0.4, timeseriesUtilThresholdHigh: 0.7 });
  cookie = await sessionCookie(stores, planner.id);
  const [custom] = await stores.pg.db
    .insert(users)
    .values({ email: "custom@screen.test", firstName: "C", passwordHash: "x", hasConsented: true, consentedAt: new Date() })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values([
    { userId: custom.id, permission: "FRONTEND_LINK_UTIL_EXTERNAL" },
    { userId: custom.id, permission: "API_LINK_UTIL_INTERNAL" },
  ]);
  await stores.pg.db.insert(userSettings).values({
    userId: custom.id,
    extlinksUtilThresholdMedium: CUSTOM.ext.medium,
    extlinksUtilThresholdHigh: CUSTOM.ext.high,
    intlinksUtilThresholdMedium: CUSTOM.int.medium,
    intlinksUtilThresholdHigh: CUSTOM.int.high,
    timeseriesUtilThresholdMedium: CUSTOM.timeseries.medium,
    timeseriesUtilThresholdHigh: CUSTOM.timeseries.high,
  });
  customCookie = await sessionCookie(stores, custom.id);
  const [delegated] = await stores.pg.db
    .insert(users)
    .values({
      email: "delegated@screen.test",
      firstName: "D",
      passwordHash: "x",
      isDelegated: true,
      hasConsented: true,
      consentedAt: new Date(),
    })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values({ userId: delegated.id, permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
  await stores.pg.db
    .insert(delegationRestrictions)
    .values({ userId: delegated.id, externalLinksViewsRestrictions: { ASNumberList: [64502], routerList: [], interfaceList: [] } });
  delegatedCookie = await sessionCookie(stores, delegated.id);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

// ---- the independent recomputation ----------------------------------------------------------------

const samplesOf = (router: string, iface: string) => util.filter((r) => r.router === router && r.interface === iface);
const bpsOf = (bytes: number) => (bytes * 8) / 300;
/** Transit billing: sort, drop the top 5 % (floor), the highest remaining. */
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length - 1 - Math.floor(sorted.length * 0.05)];
}
/** Per UTC day the highest mean of 12 consecutive samples starting on a quarter hour inside the day; the max over the days. */
function maxPeakHour(values: { time: number; v: number }[]): number {
  let best = -1;
  for (let day = START; day < END; day += DAY)
    for (let q = day; q + 3600 <= day + DAY; q += 900) {
      const hour = values.filter((s) => s.time >= q && s.time < q + 3600);
      if (hour.length === 12) best = Math.max(best, hour.reduce((a, s) => a + s.v, 0) / 12);
    }
  return best;
}
function expected(router: string, iface: string, capacity: number, thresholds = { medium: 0.75, high: 0.95 }) {
  const s = samplesOf(router, iface);
  const inP95 = bpsOf(p95(s.map((r) => r.in_bytes)));
  const outP95 = bpsOf(p95(s.map((r) => r.out_bytes)));
  const inMax = maxPeakHour(s.map((r) => ({ time: r.time, v: bpsOf(r.in_bytes) }))) / capacity;
  const outMax = maxPeakHour(s.map((r) => ({ time: r.time, v: bpsOf(r.out_bytes) }))) / capacity;
  const top = Math.max(inMax, outMax);
  return {
    inP95,
    outP95,
    billed: Math.max(inP95, outP95),
    inMax,
    outMax,
    status: top >= thresholds.high ? "high" : top >= thresholds.medium ? "medium" : "normal",
  };
}
const E1 = expected("r1", "et-1", CAP.et1);
const E2 = expected("r2", "et-2", CAP.et2);

// ---- helpers -------------------------------------------------------------------------------------

const RANGE_Q = `start=${START}&end=${END}`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function load(route: { loader: unknown }, path: string, as = cookie): Promise<any> {
  const out = await runRoute(route.loader, new Request(`${ORIGIN}${path}`, { headers: { Cookie: as, Accept: "text/html" } }));
  expect(out.status).toBe(200);
  return out.data;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const rowsOf = (data: any) => data.groups.flatMap((g: any) => g.rows);
/** The screen as the server renders it (no JavaScript): the view of the route with the loader's data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function renderScreen(data: any, title: string, path: string): string {
  const element = createElement(PlannerView, { data, title, path });
  const router = createMemoryRouter([{ path: "/", element }]);
  // Entities as text: the assertions read the words people read.
  return renderToString(createElement(MantineProvider, null, createElement(RouterProvider, { router }))).replace(/&#x27;/g, "'");
}
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(1e-6, Math.abs(b) * 1e-9));

describe("Border Planner screen", () => {
  it("shows every figure of the external links as recomputed from the rows", async () => {
    const data = await load(
      borderRoute,
      `/border-planner?${RANGE_Q}&columns=router,interface,neighbour,capacity,status,inMax,outMax,inP95,outP95,billedP95`,
    );
    expect(data.notices).toEqual([]);
    expect(data.range).toEqual({ start: START, end: END });
    expect(data.summary.links).toBe(2);
    expect(data.summary.totalCapacityBps).toBe(CAP.et1 + CAP.et2);
    close(data.summary.billedP95SumBps, E1.billed + E2.billed);
    const counts = { high: 0, medium: 0, normal: 0, "no data": 0 };
    for (const e of [E1, E2]) counts[e.status as keyof typeof counts] += 1;
    expect(data.summary.statusCounts).toEqual(counts);
    const rows = rowsOf(data);
    const r1 = rows.find((r: { key: string }) => r.key === "r1|et-1");
    expect(r1.cells).toMatchObject({
      router: "r1",
      interface: "et-1",
      neighbour: "AS64501",
      capacity: formatBitsPerSecond(CAP.et1),
      status: { high: "High", medium: "Medium", normal: "Normal" }[E1.status],
      inP95: formatBitsPerSecond(E1.inP95),
      outP95: formatBitsPerSecond(E1.outP95),
      billedP95: formatBitsPerSecond(E1.billed),
      inMax: formatPercent(E1.inMax),
      outMax: formatPercent(E1.outMax),
    });
    expect(r1.status).toBe(E1.status);
    const r2 = rows.find((r: { key: string }) => r.key === "r2|et-2");
    expect(r2.cells.billedP95).toBe(formatBitsPerSecond(E2.billed));
    expect(r2.cells.outMax).toBe(formatPercent(E2.outMax));
    // The timeseries: 15-minute buckets for 3 days (shell §9), the sums of both links' mean rates.
    expect(data.timeseries.bucketSeconds).toBe(900);
    const bucket = data.timeseries.points.find((p: { time: number }) => p.time === START + 900);
    const inBucket = util.filter((r) => r.kind === "external" && r.time >= START + 900 && r.time < START + 1800);
    close(bucket.inBps, inBucket.reduce((a, r) => a + bpsOf(r.in_bytes), 0) / 3);
    expect(data.timeseries.capacityBps).toBe(CAP.et1 + CAP.et2);
    // The heatmap: per link and day the highest 5-minute utilisation of either direction.
    expect(data.heatmap.ok).toBe(true);
    const hm = data.heatmap.rows.find((r: { key: string }) => r.key === "r1|et-1");
    const day0 = samplesOf("r1", "et-1").filter((r) => r.time < START + DAY);
    close(hm.values[0], (Math.max(...day0.flatMap((r) => [r.in_bytes, r.out_bytes])) * 8) / 300 / CAP.et1);
  });

  it("groups by neighbour AS (default), router or interface; sorts and filters on the server", async () => {
    const byAs = await load(borderRoute, `/border-planner?${RANGE_Q}`);
    expect(byAs.groups.map((g: { label: string }) => g.label).sort()).toEqual(["AS64501", "AS64502"]);
    const byRouter = await load(borderRoute, `/border-planner?${RANGE_Q}&group=router`);
    expect(byRouter.groups.map((g: { label: string }) => g.label).sort()).toEqual(["r1", "r2"]);
    const asc = await load(borderRoute, `/border-planner?${RANGE_Q}&sort=billedP95&order=asc`);
    const expectedOrder = [
      ["r1|et-1", E1.billed],
      ["r2|et-2", E2.billed],
    ]
      .sort((a, b) => (a[1] as number) - (b[1] as number))
      .map((x) => x[0]);
    expect(rowsOf(asc).map((r: { key: string }) => r.key)).toEqual(expectedOrder);
    const big = await load(borderRoute, `/border-planner?${RANGE_Q}&capacity=%3E5G`);
    expect(rowsOf(big).map((r: { key: string }) => r.key)).toEqual(["r1|et-1"]);
    expect(big.summary.links).toBe(1);
    const as = await load(borderRoute, `/border-planner?${RANGE_Q}&as=AS64502`);
    expect(rowsOf(as).map((r: { key: string }) => r.key)).toEqual(["r2|et-2"]);
  });

  it("opens a link's detail: 5-minute samples, figures and the traffic by AS from the flows", async () => {
    const data = await load(borderRoute, `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}`);
    const d = data.detail;
    expect(d.key).toBe("r1|et-1");
    // The planner's thresholds (defaults here) for the status and the detail chart alike; the user's
    // timeseries thresholds (set apart in beforeAll) only for the traffic chart of the shown links.
    expect(data.thresholds).toEqual({ medium: 0.75, high: 0.95 });
    expect(data.timeseriesThresholds).toEqual({ medium: 0.4, high: 0.7 });
    expect(d.samples).toHaveLength(DAYS * 288);
    const first = samplesOf("r1", "et-1")[0];
    expect(d.samples[0][0]).toBe(first.time);
    close(d.samples[0][1], bpsOf(first.in_bytes) / CAP.et1);
    close(d.plan.in.p95.bps, E1.inP95);
    expect(d.plan.in.daily).toHaveLength(DAYS);
    const seconds = END - START;
    expect(d.trafficIn.map((r: { asn: number; bps: number }) => [r.asn, r.bps])).toEqual([
      [65010, (10_000_000 * 8) / seconds],
      [65020, (4_000_000 * 8) / seconds],
    ]);
    expect(d.trafficOut.map((r: { asn: number; bps: number }) => [r.asn, r.bps])).toEqual([[65030, (3_000_000 * 8) / seconds]]);
  });

  it("answers bad address values with notices and the defaults, never an error", async () => {
    const data = await load(
      borderRoute,
      "/border-planner?dateRange=NEVER&group=planet&sort=x&order=sideways&capacity=%3D3&page=abc&link=nope",
    );
    expect(data.notices.length).toBeGreaterThanOrEqual(6);
    expect(data.params.dateRange).toBe("LAST_30_DAYS");
    expect(data.params.filterErrors.capacity).toBe("=3 is not a valid Capacity input");
    expect(data.detail).toBeNull();
    expect(data.notices.join(" ")).toMatch(/link=nope is not a link you can see/);
    const past = await load(borderRoute, `/border-planner?${RANGE_Q}&page=7`);
    expect(past.page).toBe(1);
    expect(past.notices[0]).toMatch(/past the last page/);
  });

  it("a delegated account sees only the links of its AS numbers: table, summary, timeseries, options, detail", async () => {
    const data = await load(borderRoute, `/border-planner?${RANGE_Q}`, delegatedCookie);
    expect(rowsOf(data).map((r: { key: string }) => r.key)).toEqual(["r2|et-2"]);
    expect(data.summary.links).toBe(1);
    expect(data.summary.totalCapacityBps).toBe(CAP.et2);
    expect(data.options.asns.map((a: { asn: number }) => a.asn)).toEqual([64502]);
    expect(data.options.routers).toEqual(["r2"]);
    expect(data.timeseries.capacityBps).toBe(CAP.et2);
    const bucket = data.timeseries.points.find((p: { time: number }) => p.time === START);
    const only = util.filter((r) => r.interface === "et-2" && r.time >= START && r.time < START + 900);
    close(bucket.inBps, only.reduce((a, r) => a + bpsOf(r.in_bytes), 0) / 3);
    expect(data.heatmap.rows.map((r: { key: string }) => r.key)).toEqual(["r2|et-2"]);
    // Another account's link: no detail, a notice, no figure of it anywhere.
    const asked = await load(
      borderRoute,
      `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}&as=64501&router=r1`,
      delegatedCookie,
    );
    expect(asked.detail).toBeNull();
    expect(asked.totalRows).toBe(0);
    const { groups, summary, timeseries, heatmap, options, detail } = asked;
    expect(JSON.stringify({ groups, summary, timeseries, heatmap, options, detail })).not.toContain("et-1");
    // The export holds the same.
    const file = await runRoute(
      borderExport.loader,
      new Request(`${ORIGIN}/border-planner/export?${RANGE_Q}`, { headers: { Cookie: delegatedCookie } }),
    );
    expect(file.status).toBe(200);
    expect(String(file.data)).not.toContain("et-1");
    // No Core Planner for a delegated account (no internal links, no permission).
    const core = await runRoute(
      coreRoute.loader,
      new Request(`${ORIGIN}/core-planner`, { headers: { Cookie: delegatedCookie, Accept: "text/html" } }),
    );
    expect(core.status).toBe(302);
  });

  it("exports the table as csv with the recomputed figures, and refuses an empty one", async () => {
    const out = await runRoute(
      borderExport.loader,
      new Request(`${ORIGIN}/border-planner/export?${RANGE_Q}&columns=router,interface,billedP95,inMax&sort=router&order=asc`, {
        headers: { Cookie: cookie },
      }),
    );
    expect(out.status).toBe(200);
    expect(out.headers.get("Content-Disposition")).toMatch(/flowlens_border-planner_links_\d{8}-\d{8}\.csv/);
    const lines = String(out.data).trim().split(/\r?\n/);
    // Columns in the table's order, whatever order the address lists them in.
    expect(lines[0]).toBe("Router,Interface,In peak hour (max) (%),Billed 95th (bit/s)");
    expect(lines[1]).toBe(`r1,et-1,${Number((E1.inMax * 100).toFixed(2))},${Math.round(E1.billed)}`);
    expect(lines[2]).toBe(`r2,et-2,${Number((E2.inMax * 100).toFixed(2))},${Math.round(E2.billed)}`);
    const empty = await runRoute(
      borderExport.loader,
      new Request(`${ORIGIN}/border-planner/export?${RANGE_Q}&capacity=%3E1T`, { headers: { Cookie: cookie } }),
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.data)).toContain("Table is empty, nothing to export");
    const bad = await runRoute(
      borderExport.loader,
      new Request(`${ORIGIN}/border-planner/export?format=pdf`, { headers: { Cookie: cookie } }),
    );
    expect(bad.status).toBe(400);
  });

  it("says when there is no data in the range, and when the account sees no link at all", async () => {
    const before = await load(borderRoute, `/border-planner?start=${START - 10 * DAY}&end=${START - 3 * DAY}`);
    expect(before.noData).toBe(true);
    expect(before.noLinks).toBe(false);
    expect(before.summary.links).toBe(2);
    expect(before.summary.statusCounts["no data"]).toBe(2);
    expect(before.summary.billedP95SumBps).toBe(0);
    const [nobody] = await stores.pg.db
      .insert(users)
      .values({
        email: "nolinks@screen.test",
        firstName: "N",
        passwordHash: "x",
        isDelegated: true,
        hasConsented: true,
        consentedAt: new Date(),
      })
      .returning({ id: users.id });
    await stores.pg.db.insert(userPermissions).values({ userId: nobody.id, permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
    await stores.pg.db
      .insert(delegationRestrictions)
      .values({ userId: nobody.id, externalLinksViewsRestrictions: { ASNumberList: [65999], routerList: [], interfaceList: [] } });
    const empty = await load(borderRoute, `/border-planner?${RANGE_Q}`, await sessionCookie(stores, nobody.id));
    expect(empty.noLinks).toBe(true);
    expect(empty.isStaff).toBe(false);
    expect(empty.groups).toEqual([]);
    expect(empty.summary.links).toBe(0);
  });

  it("the alias /external-links keeps the search params", async () => {
    const out = await runRoute(
      externalLinksRoute.loader,
      new Request(`${ORIGIN}/external-links?group=router`, { headers: { Cookie: cookie } }),
    );
    expect(out.status).toBe(302);
    expect(out.location).toBe("/border-planner?group=router");
  });
});

describe("the planners' thresholds are the user's settings everywhere", () => {
  it("Core Planner: the list's status, the Status filter, the detail chart's lines and the forecast's level", async () => {
    const c = expected("r1", "c-1", CAP.c1, CUSTOM.int);
    const key = "r1|c-1>r2|c-1";
    const data = await load(coreRoute, `/core-planner?${RANGE_Q}&link=${encodeURIComponent(key)}`, customCookie);
    expect(data.thresholds).toEqual(CUSTOM.int);
    expect(rowsOf(data)[0].status).toBe(c.status);
    expect(data.detail.plan.status).toBe(c.status);
    expect(data.detail.plan.forecast.level).toBe(CUSTOM.int.high);
    const html = renderScreen(data, "Core Planner", "/core-planner");
    const medium = formatPercent(CUSTOM.int.medium);
    const high = formatPercent(CUSTOM.int.high);
    // The list's sentence, the chart's lines and the Status filter's choices name the same two figures.
    expect(html).toContain(`medium from ${medium}, high from ${high} (your settings)`);
    expect(html).toContain(`Medium ${medium} (your setting)`);
    expect(html).toContain(`High ${high} (your setting)`);
    expect(html).toContain(`High (from ${high})`);
    expect(html).toContain(`Medium or high (from ${medium})`);
    // The timeseries thresholds are the traffic chart's alone, said in its words; outside them neither
    // they nor the planner defaults appear anywhere.
    const words = /Your timeseries thresholds: [^<]*/.exec(html)?.[0] ?? "";
    expect(words).toContain(`medium ${formatPercent(CUSTOM.timeseries.medium)} (`);
    expect(words).toContain(`high ${formatPercent(CUSTOM.timeseries.high)} (`);
    const rest = html.replace(/<p[^>]*data-testid="planner-traffic-words"[^>]*>[^<]*<\/p>/, "").replace(/<svg[\s\S]*?<\/svg>/g, "");
    for (const other of [CUSTOM.timeseries.medium, CUSTOM.timeseries.high, 0.75, 0.95, 0.5, 0.85])
      expect(rest).not.toContain(formatPercent(other));
    // No "> 80 %" status filter: the status is chosen by its words; a utilisation filter suggests the medium threshold.
    expect(html).not.toContain("80 %");
    expect(html).toContain(`placeholder="&gt; ${medium}"`);
  });

  it("Border Planner: the Status filter keeps the links of the chosen statuses, decided by the user's thresholds", async () => {
    const e = [
      ["r1|et-1", expected("r1", "et-1", CAP.et1, CUSTOM.ext).status],
      ["r2|et-2", expected("r2", "et-2", CAP.et2, CUSTOM.ext).status],
    ] as const;
    for (const status of ["high", "medium", "normal"] as const) {
      const data = await load(borderRoute, `/border-planner?${RANGE_Q}&status=${status}`, customCookie);
      expect(data.notices).toEqual([]);
      expect(rowsOf(data).map((r: { key: string }) => r.key)).toEqual(e.filter(([, st]) => st === status).map(([k]) => k));
      expect(data.summary.links).toBe(e.filter(([, st]) => st === status).length);
    }
    const both = await load(borderRoute, `/border-planner?${RANGE_Q}&status=medium,high`, customCookie);
    expect(
      rowsOf(both)
        .map((r: { key: string }) => r.key)
        .sort(),
    ).toEqual(e.filter(([, st]) => st !== "normal").map(([k]) => k));
    // The old numeric filter on the status rank is gone; an unknown status is said and left out.
    const old = await load(borderRoute, `/border-planner?${RANGE_Q}&status=%3E80`, customCookie);
    expect(old.notices.join(" ")).toMatch(/status=>80 is not a status/);
    expect(rowsOf(old)).toHaveLength(2);
  });
});

describe("the planners' timeseries: complete buckets only", () => {
  it("a range ending inside a bucket flags that bucket incomplete; the chart leaves it out and says so", async () => {
    // Two days and 10 minutes: 15-minute buckets, the last one cut after 10 minutes.
    const end = START + 2 * DAY + 600;
    const data = await load(borderRoute, `/border-planner?start=${START}&end=${end}`);
    expect(data.range).toEqual({ start: START, end });
    const points = data.timeseries.points as { time: number; complete: boolean }[];
    expect(data.timeseries.bucketSeconds).toBe(900);
    expect(points.map((p) => p.complete)).toEqual(points.map((p) => p.time >= START && p.time + 900 <= end));
    expect(points.at(-1)).toMatchObject({ time: START + 2 * DAY, complete: false });
    expect(points.filter((p) => !p.complete)).toHaveLength(1);
    const html = renderScreen(data, "Border Planner", "/border-planner");
    expect(html).toContain("is not complete and is not drawn");
    // The whole days of the first test: every bucket complete, nothing said.
    const whole = await load(borderRoute, `/border-planner?${RANGE_Q}`);
    expect(whole.timeseries.points.every((p: { complete: boolean }) => p.complete)).toBe(true);
    expect(renderScreen(whole, "Border Planner", "/border-planner")).not.toContain("is not complete");
  });
});

describe("planner readability", () => {
  it("a small non-zero utilisation reads '< 1 %', none reads '0 %'; the grouping and its order are said; heatmap rows name the neighbour AS", async () => {
    const data = await load(borderRoute, `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}`);
    const plan = data.detail.plan;
    const withIn = (u: number) => ({ ...plan, in: { ...plan.in, maxDaily: { ...plan.in.maxDaily, utilisation: u } } });
    expect(cellText("border", withIn(0.004), "inMax")).toBe("< 1 %");
    expect(cellText("border", withIn(0), "inMax")).toBe("0 %");
    expect(cellText("border", withIn(0.0123), "inMax")).toBe(formatPercent(0.0123));
    const html = renderScreen(data, "Border Planner", "/border-planner");
    expect(html).toContain("grouped by neighbour AS; sorted by Status (descending) within each neighbour AS");
    expect(html).not.toContain("neighbour as");
    expect(data.heatmap.rows.find((r: { key: string }) => r.key === "r1|et-1").label).toBe("r1 et-1 (AS64501)");
    // The heatmap's colour scale is drawn with its title.
    expect(html).toContain("Daily maximum utilisation (grey: no samples)");
  });
});

describe("Core Planner screen", () => {
  it("shows the internal link per direction (a → b = out of a) as recomputed, all links or one pair", async () => {
    const c = expected("r1", "c-1", CAP.c1);
    const data = await load(
      coreRoute,
      `/core-planner?${RANGE_Q}&columns=router,interface,remoteRouter,remoteInterface,outMax,inMax,outP95,inP95,billedP95,status`,
    );
    const rows = rowsOf(data);
    expect(rows).toHaveLength(1);
    expect(rows[0].cells).toMatchObject({
      router: "r1",
      interface: "c-1",
      remoteRouter: "r2",
      remoteInterface: "c-1",
      outP95: formatBitsPerSecond(c.outP95),
      inP95: formatBitsPerSecond(c.inP95),
      outMax: formatPercent(c.outMax),
      inMax: formatPercent(c.inMax),
      billedP95: formatBitsPerSecond(c.billed),
    });
    expect(rows[0].status).toBe(c.status);
    const pair = await load(
      coreRoute,
      `/core-planner?${RANGE_Q}&dataType=single_interface_pair&inRouter=r2&startInterface=c-1&outRouter=r1&endInterface=c-1`,
    );
    expect(pair.notices).toEqual([]);
    expect(rowsOf(pair)).toHaveLength(1);
    const wrong = await load(
      coreRoute,
      `/core-planner?${RANGE_Q}&dataType=single_interface_pair&inRouter=r2&startInterface=x&outRouter=r1&endInterface=c-1`,
    );
    expect(wrong.notices[0]).toMatch(/is not an internal link/);
    const out = await runRoute(
      coreExport.loader,
      new Request(`${ORIGIN}/core-planner/export?${RANGE_Q}&format=xlsx`, { headers: { Cookie: cookie } }),
    );
    expect(out.status).toBe(200);
    expect(out.headers.get("Content-Type")).toMatch(/spreadsheetml/);
  });

  it("the alias /links keeps the search params", async () => {
    const out = await runRoute(linksRoute.loader, new Request(`${ORIGIN}/links?dataType=all_links`, { headers: { Cookie: cookie } }));
    expect(out.location).toBe("/core-planner?dataType=all_links");
  });
});
