/**
 * The AS Flows Egress screen (/as-flows-egress) and its export on a 2-day demo network: egress
 * traffic only (handover AS = the operator, next-hop AS ≠ the operator), also for dimensions
 * without a direction, checked against independent sums of flows_5m rows.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ASN } from "~db/demo/catalog";
import { users } from "~db/postgres/schema";
import * as egressRoute from "~/routes/_app.as-flows-egress";
import * as exportRoute from "~/routes/api.flows.export";
import { useServicesForTests } from "~/server/services.server";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };

let stores: TestStores;
let rows: FlowRow[];
let cookie = "";

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  rows = await readFlowRows(stores, RANGE);
  const operatorId = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "operator@flowlens.example")))[0].id;
  cookie = await sessionCookie(stores, operatorId);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const egress = (r: FlowRow) => r.as_hnd === OPERATOR_ASN && r.as_nxt !== OPERATOR_ASN;
const bps = (list: FlowRow[]) => (Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8) / (RANGE.end - RANGE.start);
const query = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ start: String(RANGE.start), end: String(RANGE.end), ...extra }).toString();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function screen(extra: Record<string, string> = {}): Promise<any> {
  const request = new Request(`${ORIGIN}/as-flows-egress?${query(extra)}`, { headers: { Cookie: cookie, Accept: "text/html" } });
  const out = await runRoute(egressRoute.loader, request);
  expect(out.status).toBe(200);
  return out.data;
}

describe("AS Flows Egress", () => {
  it("opens on the egress neighbour AS and offers no ingress dimension", async () => {
    const data = await screen();
    expect(data.dimension.id).toBe("AS_NEIGHBOR_EGRESS");
    expect(data.notices).toEqual([]);
    const offered = (data.dimensions as { value: string; direction: string | null }[]).map((d) => d.direction);
    expect(offered).not.toContain("INGRESS");
    expect(offered).toContain("EGRESS");
  });

  it("the neighbour table equals an independent sum of egress rows per next-hop AS", async () => {
    const data = await screen();
    const expectedTotal = bps(rows.filter(egress));
    expect(expectedTotal).toBeGreaterThan(0);
    expect(data.total / expectedTotal).toBeCloseTo(1, 9);
    const perNeighbour = new Map<string, FlowRow[]>();
    for (const r of rows.filter(egress)) perNeighbour.set(String(r.as_nxt), [...(perNeighbour.get(String(r.as_nxt)) ?? []), r]);
    for (const row of data.flows.table as { key: string; bps: number }[]) {
      expect(row.bps / bps(perNeighbour.get(row.key) ?? [])).toBeCloseTo(1, 9);
    }
  });

  it("a direction-free dimension (egress router) counts egress traffic only", async () => {
    const data = await screen({ dimension: "ROUTER_OUT" });
    expect(data.dimension.id).toBe("ROUTER_OUT");
    const expectedTotal = bps(rows.filter(egress));
    expect(data.total / expectedTotal).toBeCloseTo(1, 9);
    const allTraffic = bps(rows);
    expect(data.total).toBeLessThan(allTraffic * 0.999);
    for (const row of data.flows.table as { key: string; bps: number }[]) {
      expect(row.bps / bps(rows.filter((r) => egress(r) && r.egress_router === row.key))).toBeCloseTo(1, 9);
    }
  });

  it("a direction-free dimension says what the screen leaves out (all but egress) and links to the Flow Explorer's view of it", async () => {
    const data = await screen({ dimension: "ROUTER_OUT" });
    const leftOut = rows.filter((r) => !egress(r));
    expect(data.leftOut.bps / bps(leftOut)).toBeCloseTo(1, 9);
    expect(data.leftOut.fromNeighboursBps / bps(leftOut.filter((r) => r.as_hnd !== OPERATOR_ASN))).toBeCloseTo(1, 9);
    expect(data.leftOut.text).toMatch(/entering from neighbours/);
    const href = new URL(data.leftOut.link.href, ORIGIN);
    expect(href.pathname).toBe("/flow-explorer");
    expect(Object.fromEntries(href.searchParams)).toEqual({ start: String(RANGE.start), end: String(RANGE.end), dimension: "ROUTER_IN" });
  });

  it("an ingress dimension in the URL falls back with a notice", async () => {
    const data = await screen({ dimension: "AS_SRC_INGRESS" });
    expect(data.dimension.id).toBe("AS_NEIGHBOR_EGRESS");
    expect(data.errors.join(" ")).toMatch(
      /dimension=AS_SRC_INGRESS was not applied \(not available to your account here\); showing Neighbor AS \(egress\) instead/,
    );
  });

  it("the sankey of egress router → neighbour AS carries the egress total", async () => {
    const data = await screen({ dimension: "ROUTER_OUT", dimension2: "AS_NEIGHBOR_EGRESS", view: "sankey" });
    expect(data.sankeyError).toBeNull();
    const linkSum = (data.sankey.links as { value: number }[]).reduce((a, l) => a + l.value, 0);
    expect(linkSum / bps(rows.filter(egress))).toBeCloseTo(1, 6);
  });

  it("the export of the egress screen (scope=EGRESS) has the egress rows", async () => {
    const request = new Request(`${ORIGIN}/api/flows/export?${query({ dimension: "ROUTER_OUT", scope: "EGRESS" })}`, {
      headers: { Cookie: cookie },
    });
    const res = (await exportRoute.loader({ request, params: {}, context: {} })) as Response;
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split(/\r?\n/).slice(1);
    const expectedRouters = new Set(rows.filter(egress).map((r) => r.egress_router));
    expect(lines.length).toBe(expectedRouters.size);
  });
});
