/**
 * What each view of the Flow Explorer costs in ClickHouse (app/features/flows/explorer.server.ts
 * explorerNeeds), counted at the query door (observeQueries) on a 2-day demo network: every view
 * reads its table once, and only what it shows besides (the timeseries for the chart or the detailed
 * table, the Sankey, what a view with a direction leaves out, the previous period when compared);
 * nothing is read twice, also when the range is clamped to the data and reads another window than
 * the one requested. The exports read less than the screen: no left-out totals, no chart for a table.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/postgres/schema";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import * as exportRoute from "~/routes/api.flows.export";
import { observeQueries } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import type { TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = `start=${NOW - DAY}&end=${NOW}`;
/**
 * Reads a request may make besides its view's: the menu's check of which tables hold rows and the
 * data's range (each kept for a while by its module and shared by every screen), at most once each.
 */
const SHARED_READS = ["flows.dataRange", "menu.tablesWithRows"];

let stores: TestStores;
let cookie = "";

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  const id = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "operator@flowlens.example")))[0].id;
  cookie = await sessionCookie(stores, id);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

/** The loader's data (or the export's response) and the names of the view's reads the request made, sorted. */
async function load(route: { loader: unknown }, path: string) {
  const names: string[] = [];
  const stop = observeQueries((e) => {
    if (e.inRequest) names.push(e.name);
  });
  try {
    const request = new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie, Accept: "text/html" } });
    // As server.mjs serves it: the request's own reads tell from the background refresh of the data's range.
    const out = await runInRequestScope(Object.fromEntries(request.headers), () => runRoute(route.loader, request), "GET");
    expect(out.status, path).toBe(200);
    for (const shared of SHARED_READS) expect(names.filter((n) => n === shared).length, `${path}: ${shared}`).toBeLessThanOrEqual(1);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { data: out.data as any, reads: names.filter((n) => !SHARED_READS.includes(n)).sort() };
  } finally {
    stop();
  }
}

const screen = (search: string) => load(explorerRoute, `/flow-explorer?${search}`);
const exported = (search: string) => load(exportRoute, `/api/flows/export?${search}`);

describe("ClickHouse queries per Flow Explorer view", () => {
  it("timeseries view: the table, the timeseries and, for a view with a direction, what it leaves out", async () => {
    const ingress = await screen(`dimension=AS_SRC_INGRESS&${RANGE}`);
    expect(ingress.reads).toEqual(["flows.leftOut", "flows.table", "flows.timeseries"]);
    expect(ingress.data.chart.drawable).toBe(true);
    expect(ingress.data.flows.table.length).toBeGreaterThan(0);
    expect(ingress.data.leftOut).not.toBeNull();
    // A view without a direction counts all traffic: nothing left out to total.
    const router = await screen(`dimension=ROUTER_OUT&${RANGE}`);
    expect(router.reads).toEqual(["flows.table", "flows.timeseries"]);
    expect(router.data.leftOut).toBeNull();
  });

  it("a preset clamped to the data (another window than requested) reads its table once", async () => {
    // The demo ends at NOW, a day or more before the real clock's "last 2 days" end: the clamped range reads a finer window.
    const preset = await screen("dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS");
    expect(preset.data.rangeNotice).not.toBeNull();
    expect(preset.reads).toEqual(["flows.leftOut", "flows.table", "flows.timeseries"]);
  });

  it("detailed table: made of the timeseries, on either chart", async () => {
    expect((await screen(`dimension=AS_SRC_INGRESS&${RANGE}&table=detailed`)).reads).toEqual([
      "flows.leftOut",
      "flows.table",
      "flows.timeseries",
    ]);
    expect((await screen(`dimension=AS_SRC_INGRESS&${RANGE}&table=detailed&view=sankey&dimension2=AS_DST_INGRESS`)).reads).toEqual([
      "flows.leftOut",
      "flows.sankey",
      "flows.table",
      "flows.timeseries",
    ]);
  });

  it("Sankey view: the table and the Sankey, no timeseries", async () => {
    const sankey = await screen(`dimension=AS_SRC_INGRESS&${RANGE}&view=sankey&dimension2=AS_DST_INGRESS`);
    expect(sankey.reads).toEqual(["flows.leftOut", "flows.sankey", "flows.table"]);
    expect(sankey.data.sankey.links.length).toBeGreaterThan(0);
    expect(sankey.data.flows.timeseries.buckets).toEqual([]);
    // A Sankey that cannot be drawn reads nothing for it.
    expect((await screen(`dimension=AS_SRC_INGRESS&${RANGE}&view=sankey`)).reads).toEqual(["flows.leftOut", "flows.table"]);
  });

  it("compared: the previous period's table, and its totals for the timeseries chart's overlay only", async () => {
    const compared = await screen(`dimension=AS_SRC_INGRESS&${RANGE}&compare=1`);
    expect(compared.reads).toEqual(["flows.leftOut", "flows.table", "flows.table", "flows.timeseries", "flows.timeseries"]);
    expect(compared.data.comparison.rows.length).toBeGreaterThan(0);
    const sankey = await screen(`dimension=AS_SRC_INGRESS&${RANGE}&compare=1&view=sankey&dimension2=AS_DST_INGRESS`);
    expect(sankey.reads).toEqual(["flows.leftOut", "flows.sankey", "flows.table", "flows.table"]);
    expect(sankey.data.comparison.totals).toBeNull();
  });

  it("the chart's own request (after the page): its table and timeseries, no left-out totals; compared, the previous period's too", async () => {
    const chart = await screen(`dimension=AS_SRC_INGRESS&${RANGE}&chartData=1`);
    expect(chart.reads).toEqual(["flows.table", "flows.timeseries"]);
    expect(chart.data.flows.timeseries.buckets.length).toBeGreaterThan(0);
    const compared = await screen(`dimension=AS_SRC_INGRESS&${RANGE}&chartData=1&compare=1`);
    expect(compared.reads).toEqual(["flows.table", "flows.table", "flows.timeseries", "flows.timeseries"]);
    expect(compared.data.comparison.totals.length).toBeGreaterThan(0);
  });

  it("predicted: one more timeseries read, the history the prediction is made of", async () => {
    expect((await screen(`dimension=AS_SRC_INGRESS&${RANGE}&predict=1`)).reads).toEqual([
      "flows.leftOut",
      "flows.table",
      "flows.timeseries",
      "flows.timeseries",
    ]);
  });

  it("exports: a table file reads the table only (the detailed one its timeseries), an image its chart", async () => {
    expect((await exported(`dimension=AS_SRC_INGRESS&${RANGE}`)).reads).toEqual(["flows.table"]);
    expect((await exported(`dimension=AS_SRC_INGRESS&${RANGE}&table=detailed`)).reads).toEqual(["flows.table", "flows.timeseries"]);
    expect((await exported(`dimension=AS_SRC_INGRESS&${RANGE}&format=svg`)).reads).toEqual(["flows.table", "flows.timeseries"]);
    expect((await exported(`dimension=AS_SRC_INGRESS&${RANGE}&format=svg&view=sankey&dimension2=AS_DST_INGRESS`)).reads).toEqual([
      "flows.sankey",
      "flows.table",
    ]);
  });
});
