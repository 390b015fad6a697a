/**
 * What a planner page costs in ClickHouse, and what its cache may share (app/features/planners,
 * app/server/result-cache.server.ts), on real stores:
 *   - a deterministic budget of queries per page, counted at the query door (observeQueries): the
 *     figures' scan, the sampling confidence and the dates with data; a link detail adds its
 *     samples (and, on the Border Planner, the two traffic-by-AS reads of the flows); the same page
 *     again within its 5-minute bucket reads nothing;
 *   - the timeseries and the heatmap derived from the figures' scan equal those of their own
 *     queries (plannerTimeseries, plannerHeatmap), in timezones whose days begin on a half or a
 *     quarter hour and over a range that does not begin on a quarter hour;
 *   - a cached result is never served to a viewer with other restrictions (delegated accounts);
 *   - served as server.mjs serves it (a request scope: the reads are analytics queries), a page and
 *     its detail run their reads in turn, so none waits in the limiter's queue behind another of
 *     the same request (on the embedded engine one user runs one query at a time, and a wait past
 *     ANALYTICS_QUEUE_WAIT_SECONDS would answer the page 503).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import {
  heatmapOfQuarters,
  plannerHeatmap,
  plannerTimeseries,
  planWithQuarters,
  timeseriesOfQuarters,
  visibleLinks,
} from "~/features/planners/plan.server";
import type { LinkKind, Viewer } from "~/features/planners/types";
import { chInsert, observeQueries } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { resultStore } from "~/server/result-cache.server";
import { useServicesForTests } from "~/server/services.server";
import { DEFAULT_USER_SETTINGS } from "~/server/settings/user-settings.server";
import * as borderRoute from "~/routes/_app.border-planner";
import * as coreRoute from "~/routes/_app.core-planner";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const DAYS = 3;
const END = Math.floor(Date.now() / 1000 / DAY) * DAY - DAY;
const START = END - DAYS * DAY;
const FULL = (bps: number) => (bps * 300) / 8;
const CAP = { et1: 10e9, et2: 1e9, c1: 40e9 };
/** A deterministic spread in [0, 1). */
const spread = (i: number, salt: number) => (((i * 7919 + salt * 104_729) % 1000) + 0.5) / 1000;

const util: Record<string, unknown>[] = [];
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  // A spike now and then, so each day's maximum sits somewhere else.
  const spike = i % 97 === 0 ? 1.6 : 1;
  const row = (router: string, iface: string, kind: string, capacity: number, a: number, b: number) => ({
    time: t,
    router,
    interface: iface,
    kind,
    in_bytes: Math.round(FULL(capacity) * a * spike),
    out_bytes: Math.round(FULL(capacity) * b),
    capacity_bps: capacity,
    source: "snmp",
  });
  // et-2 misses some intervals: buckets and days with fewer samples, or none.
  util.push(row("r1", "et-1", "external", CAP.et1, 0.3 + 0.4 * spread(i, 1), 0.2 * spread(i, 2)));
  if (i % 13 !== 0 && !(i > 400 && i < 430)) util.push(row("r2", "et-2", "external", CAP.et2, 0.3 * spread(i, 3), 0.9 * spread(i, 4)));
  util.push(row("r1", "c-1", "core", CAP.c1, 0.2 * spread(i, 5), 0.6 * spread(i, 6)));
}
const flows = [
  { time: START + 600, ingress_router: "r1", in_if: "et-1", as_src: 65010, as_dst: 64500, bytes: 9_000_000 },
  { time: START + 1200, egress_router: "r1", out_if: "et-1", as_src: 64500, as_dst: 65030, bytes: 3_000_000 },
];

let stores: TestStores;
const cookies = { operator: "", delegated: "", otherDelegated: "" };

async function account(email: string, permissions: string[], asns?: number[]): Promise<string> {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "P", passwordHash: "x", hasConsented: true, consentedAt: new Date(), isDelegated: asns !== undefined })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })) as never);
  if (asns)
    await stores.pg.db
      .insert(delegationRestrictions)
      .values({ userId: row.id, externalLinksViewsRestrictions: { ASNumberList: asns, routerList: [], interfaceList: [] } });
  return sessionCookie(stores, row.id);
}

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
  cookies.operator = await account("operator@budget.test", ["FRONTEND_LINK_UTIL_EXTERNAL", "API_LINK_UTIL_INTERNAL"]);
  cookies.delegated = await account("delegated@budget.test", ["FRONTEND_LINK_UTIL_EXTERNAL"], [64502]);
  cookies.otherDelegated = await account("other@budget.test", ["FRONTEND_LINK_UTIL_EXTERNAL"], [64501]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

beforeEach(async () => {
  await resultStore(stores.ch).clear();
});

/**
 * The page's loader data and the names of the planners' ClickHouse reads it made. The one other
 * read allowed is the menu's check of which tables hold rows (the access check of every tool,
 * kept by the menu for a while of its own), at most once.
 */
async function load(route: { loader: unknown }, path: string, cookie = cookies.operator) {
  const reads: string[] = [];
  const stop = observeQueries((e) => reads.push(e.name));
  try {
    const out = await runRoute(route.loader, new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie, Accept: "text/html" } }));
    expect(out.status).toBe(200);
    const others = reads.filter((name) => !name.startsWith("planners."));
    expect(others.filter((name) => name !== "menu.tablesWithRows")).toEqual([]);
    expect(others.length).toBeLessThanOrEqual(1);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { data: out.data as any, reads: reads.filter((name) => name.startsWith("planners.")).sort() };
  } finally {
    stop();
  }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const keysOf = (data: any): string[] => data.groups.flatMap((g: { rows: { key: string }[] }) => g.rows.map((r) => r.key)).sort();

const RANGE_Q = `start=${START}&end=${END}`;
const PAGE_READS = ["planners.datesWithData", "planners.linkFigures", "planners.samplingConfidence"];

describe("ClickHouse queries per planner page", () => {
  it("Border Planner: three for the page, none for it again, three more for a link's detail", async () => {
    const page = await load(borderRoute, `/border-planner?${RANGE_Q}`);
    expect(page.reads).toEqual(PAGE_READS);
    expect(page.data.timeseries.points.length).toBeGreaterThan(0);
    expect(page.data.heatmap.ok).toBe(true);
    expect((await load(borderRoute, `/border-planner?${RANGE_Q}`)).reads).toEqual([]);
    // Another order, group or page of the same range reads nothing either.
    expect((await load(borderRoute, `/border-planner?${RANGE_Q}&group=router&sort=billedP95&order=asc`)).reads).toEqual([]);
    const detail = await load(borderRoute, `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}`);
    expect(detail.reads).toEqual(["planners.interfaceStatistics", "planners.interfaceStatistics", "planners.series"]);
    expect(detail.data.detail.samples).toHaveLength(DAYS * 288);
    expect(detail.data.detail.trafficIn.map((r: { asn: number }) => r.asn)).toEqual([65010]);
    expect((await load(borderRoute, `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}`)).reads).toEqual([]);
  });

  it("a link's detail opened first reads the page's three and its own", async () => {
    const detail = await load(borderRoute, `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r2|et-2")}`);
    expect(detail.reads).toEqual([...PAGE_READS, "planners.interfaceStatistics", "planners.interfaceStatistics", "planners.series"].sort());
  });

  it("Core Planner: three for the page, one more (the samples) for a link's detail", async () => {
    const page = await load(coreRoute, `/core-planner?${RANGE_Q}`);
    expect(page.reads).toEqual(PAGE_READS);
    expect(keysOf(page.data)).toEqual(["r1|c-1>r2|c-1"]);
    const detail = await load(coreRoute, `/core-planner?${RANGE_Q}&link=${encodeURIComponent("r1|c-1>r2|c-1")}`);
    expect(detail.reads).toEqual(["planners.series"]);
  });

  it("a range of a day or less (5-minute buckets, finer than the quarter hours): the timeseries is one query more", async () => {
    const page = await load(borderRoute, `/border-planner?start=${END - DAY}&end=${END}`);
    expect(page.reads).toEqual([...PAGE_READS, "planners.timeseries"].sort());
    expect(page.data.timeseries.bucketSeconds).toBe(300);
  });
});

describe("the timeseries and the heatmap from the figures' scan", () => {
  const close = (a: number | null, b: number | null) => {
    if (a === null || b === null) return expect(a).toBe(b);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(1e-9, Math.abs(b) * 1e-12));
  };
  const viewer = (timezone: string): Viewer => ({
    userId: 0,
    isDelegated: false,
    settings: { ...DEFAULT_USER_SETTINGS, timezone },
    timezone,
  });

  for (const timezone of ["UTC", "Asia/Kathmandu", "America/St_Johns"])
    for (const kind of ["external", "internal"] as LinkKind[])
      it(`equal their own queries' (${kind} links, ${timezone}, a range beginning off the quarter hour)`, async () => {
        const v = viewer(timezone);
        const range = { start: START + 600, end: END - 300 };
        const links = await visibleLinks(stores, v, kind);
        const { quarters } = await planWithQuarters(stores, v.settings, kind, links, range);
        const now = END + DAY;
        const derived = timeseriesOfQuarters(links, quarters, range, now)!;
        const queried = await plannerTimeseries(stores, v, { kind, range }, now);
        expect(derived.bucketSeconds).toBe(queried.bucketSeconds);
        expect(derived.capacityBps).toBe(queried.capacityBps);
        expect(derived.points.map((p) => [p.time, p.complete])).toEqual(queried.points.map((p) => [p.time, p.complete]));
        derived.points.forEach((p, i) => {
          close(p.inBps, queried.points[i].inBps);
          close(p.outBps, queried.points[i].outBps);
        });
        const heat = heatmapOfQuarters(links, quarters, range, timezone);
        const heatQueried = await plannerHeatmap(stores, v, { kind, range });
        if (!heat.ok || !heatQueried.ok) throw new Error("heatmap refused");
        expect(heat.days).toEqual(heatQueried.days);
        expect(heat.rows.map((r) => [r.key, r.label])).toEqual(heatQueried.rows.map((r) => [r.key, r.label]));
        heat.rows.forEach((row, i) => row.values.forEach((value, d) => close(value, heatQueried.rows[i].values[d])));
        // Something to compare: days with values, and the spikes seen.
        expect(heat.rows.flatMap((r) => r.values).filter((x) => x !== null).length).toBeGreaterThan(links.length * DAYS - 1);
      });
});

describe("the cache and the viewer's restrictions", () => {
  it("never serves one viewer's result to a viewer with other restrictions", async () => {
    const url = `/border-planner?${RANGE_Q}`;
    const operator = await load(borderRoute, url);
    expect(keysOf(operator.data)).toEqual(["r1|et-1", "r2|et-2"]);
    // The delegated account reads for itself (its own scope), and sees its link only.
    const delegated = await load(borderRoute, url, cookies.delegated);
    expect(delegated.reads).toEqual(PAGE_READS);
    expect(keysOf(delegated.data)).toEqual(["r2|et-2"]);
    expect(delegated.data.summary.totalCapacityBps).toBe(CAP.et2);
    expect(delegated.data.timeseries.capacityBps).toBe(CAP.et2);
    expect(JSON.stringify(delegated.data)).not.toContain("et-1");
    // Kept for each: the operator and the delegated account each read nothing again, and still see their own.
    const again = await load(borderRoute, url, cookies.delegated);
    expect(again.reads).toEqual([]);
    expect(keysOf(again.data)).toEqual(["r2|et-2"]);
    expect(again.data.timeseries).toEqual(delegated.data.timeseries);
    const operatorAgain = await load(borderRoute, url);
    expect(operatorAgain.reads).toEqual([]);
    expect(operatorAgain.data.summary).toEqual(operator.data.summary);
    // Another delegated account with other restrictions: read for it, its link only.
    const other = await load(borderRoute, url, cookies.otherDelegated);
    expect(other.reads).toEqual(PAGE_READS);
    expect(keysOf(other.data)).toEqual(["r1|et-1"]);
    expect(JSON.stringify(other.data)).not.toContain("et-2");
    // A detail the delegated account may not see stays hidden, cached or not.
    const hidden = await load(borderRoute, `${url}&link=${encodeURIComponent("r1|et-1")}`, cookies.delegated);
    expect(hidden.data.detail).toBeNull();
  });
});

describe("the page's reads and the query limiter", () => {
  it("runs them in turn: no read of the page waits behind another of its own", async () => {
    const limiter = stores.ch.limiter;
    expect(limiter.settings.perUser).toBe(1);
    for (let i = 0; i < 500 && (limiter.snapshot().running > 0 || limiter.snapshot().waiting > 0); i++)
      await new Promise((r) => setTimeout(r, 20));
    // The limiter's queue, looked at every few milliseconds while the page loads (each query takes longer).
    let most = 0;
    let reads = 0;
    const poll = setInterval(() => (most = Math.max(most, limiter.snapshot().waiting)), 2);
    const stop = observeQueries(() => (reads += 1));
    try {
      const path = `/border-planner?${RANGE_Q}&link=${encodeURIComponent("r1|et-1")}`;
      const request = new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookies.operator, Accept: "text/html" } });
      const out = await runInRequestScope(Object.fromEntries(request.headers), () => runRoute(borderRoute.loader, request), "GET");
      expect(out.status).toBe(200);
      expect(out.data.detail.key).toBe("r1|et-1");
    } finally {
      clearInterval(poll);
      stop();
    }
    expect(reads).toBeGreaterThanOrEqual(6);
    expect(most).toBe(0);
  });
});
