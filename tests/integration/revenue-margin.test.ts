/**
 * The margin per neighbour AS (docs/revenues-and-costs.md) on real stores: a transit billed on out,
 * its month of interface_util_5m samples and the flows_5m rows behind them inserted here (a customer
 * AS sending steadily, an AS outside the tracked set — folded into Others — bursting at a tenth of the
 * intervals, which set the 95th), two customers' contracts; the transit's bill allocated by the
 * month's bytes and at the 95th's intervals (the two differ), each figure checked against a
 * recomputation in this file from the inserted rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { createContract, type ContractChange } from "~/features/revenues/contracts.server";
import { marginOfMonth } from "~/features/revenues/margin.server";
import { chInsert } from "~/server/clickhouse/query.server";
import * as screenRoute from "~/routes/_app.revenues-and-costs";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const now = new Date();
const YEAR = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const MONTH = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const START = Date.UTC(YEAR, MONTH - 1, 1) / 1000;
const END = Date.UTC(YEAR, MONTH, 1) / 1000;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);

type Flow = {
  time: number;
  as_src: number;
  as_dst: number;
  ingress_router: string;
  in_if: string;
  egress_router: string;
  out_if: string;
  bytes: number;
};
const flows: Flow[] = [];
const util: Record<string, unknown>[] = [];
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  const steady = bytesOf(100 + (i % 5));
  const other = bytesOf(i % 10 === 0 ? 500 : 10);
  // Out of the transit: the customers' traffic, by its source AS.
  flows.push({
    time: t,
    as_src: 64510,
    as_dst: 3356,
    ingress_router: "r1",
    in_if: "et-3",
    egress_router: "r1",
    out_if: "et-1",
    bytes: steady,
  });
  flows.push({
    time: t,
    as_src: -101,
    as_dst: 3356,
    ingress_router: "r1",
    in_if: "et-4",
    egress_router: "r1",
    out_if: "et-1",
    bytes: other,
  });
  // Into the transit, to the customer: not what the transit bills (out), never allocated.
  flows.push({
    time: t,
    as_src: 3356,
    as_dst: 64510,
    ingress_router: "r1",
    in_if: "et-1",
    egress_router: "r1",
    out_if: "et-3",
    bytes: bytesOf(50),
  });
  util.push({
    time: t,
    router: "r1",
    interface: "et-1",
    kind: "external",
    neighbor_asn: 3356,
    in_bytes: bytesOf(50),
    out_bytes: steady + other,
    capacity_bps: 10e9,
    source: "snmp",
    interpolated: 0,
  });
}

/** Drop the largest value floor(n/20) times, then take the largest left. */
function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return left.reduce((a, b) => Math.max(a, b), -Infinity);
}
const outSeries = util.map((u) => [u.time as number, u.out_bytes as number] as const);
const billedMbps = (p95(outSeries.map(([, v]) => v)) * 8) / 300 / 1e6;
const transitCost = Math.round((100 * 1 + Math.max(0, billedMbps - 100) * 2) * 100) / 100;
function expectedShares(at: Set<number> | null): Map<number, number> {
  const by = new Map<number, number>();
  let total = 0;
  for (const f of flows)
    if (f.out_if === "et-1" && (at === null || at.has(f.time))) {
      by.set(f.as_src, (by.get(f.as_src) ?? 0) + f.bytes);
      total += f.bytes;
    }
  return new Map([...by].map(([a, b]) => [a, b / total]));
}
const threshold = p95(outSeries.map(([, v]) => v));
const peaks = new Set(outSeries.filter(([, v]) => v >= threshold).map(([t]) => t));

let stores: TestStores;
let manager: ContractChange["user"];

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  manager = {
    id: await insertSuperuser(stores, "finance@example.org"),
    email: "finance@example.org",
    permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"],
    isDelegated: false,
    isStaff: true,
    isSuperuser: true,
  };
  await createRouter(stores, {
    name: "r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-3", ifindex: 3, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64510 },
      { name: "et-4", ifindex: 4, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64520 },
    ],
  });
  const ids = Object.fromEntries((await stores.pg.db.select().from(interfaces)).map((r) => [r.name, r.id]));
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: util });
  await chInsert(stores.ch, {
    name: "test.flows",
    table: "flows_5m",
    values: flows.map((f) => ({ ...f, as_hnd: 0, as_nxt: 0, ip_version: 4, packets: 1, flows: 1 })),
  });
  await chInsert(stores.ch, {
    name: "test.tracked",
    table: "tracked_as",
    values: [3356, 64510].map((asn, rank) => ({ asn, rank, updated_at: Math.floor(Date.now() / 1000) })),
  });
  const by = { user: manager };
  const common = { validFrom: "2020-01-01" };
  await createContract(
    stores.pg.db,
    {
      ...common,
      name: "Transit",
      direction: "cost",
      partnerAsn: 3356,
      method: "Max 95th",
      billedDirection: "out",
      commitMbps: 100,
      commitPriceEur: 1,
      burstPriceEur: 2,
      interfaceIds: [ids["et-1"]],
    },
    by,
  );
  await createContract(
    stores.pg.db,
    {
      ...common,
      name: "Tracked customer",
      direction: "revenue",
      partnerAsn: 64510,
      method: "Flatrate",
      flatPriceEur: 1000,
      interfaceIds: [ids["et-3"]],
    },
    by,
  );
  await createContract(
    stores.pg.db,
    {
      ...common,
      name: "Small customer",
      direction: "revenue",
      partnerAsn: 64520,
      method: "Flatrate",
      flatPriceEur: 800,
      interfaceIds: [ids["et-4"]],
    },
    by,
  );
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("the margin per neighbour AS", () => {
  it("allocates the transit's bill at the intervals that set its 95th by default, and by the month's bytes on request: they differ", async () => {
    const byPeak = await marginOfMonth(stores, manager, YEAR, MONTH, "p95");
    const byBytes = await marginOfMonth(stores, manager, YEAR, MONTH, "bytes");
    expect(byPeak.bills.bills.find((b) => b.contract.name === "Transit")!.charges.totalEur).toBeCloseTo(transitCost, 2);
    for (const [m, at] of [
      [byPeak, peaks],
      [byBytes, null],
    ] as const) {
      const shares = expectedShares(at);
      expect([...shares.keys()].sort()).toEqual([-101, 64510]);
      for (const [asn, share] of shares) {
        const r = m.rows.find((x) => x.asn === asn)!;
        expect(r.links).toHaveLength(1);
        expect(r.links[0].share).toBeCloseTo(share, 9);
        expect(r.costEur).toBeCloseTo(Math.round(transitCost * share * 100) / 100, 2);
      }
    }
    const others = (m: typeof byPeak) => m.rows.find((r) => r.asn === -101)!.costEur;
    // The bursting Others caused most of the 95th but carried a small part of the bytes.
    expect(others(byPeak)).toBeGreaterThan(transitCost * 0.8);
    expect(others(byBytes)).toBeLessThan(transitCost * 0.4);
    expect(peaks.size).toBeLessThan(util.length / 5);
  });

  it("sets each customer's revenue against its allocated cost; a customer outside the tracked set is shown folded into Others", async () => {
    const m = await marginOfMonth(stores, manager, YEAR, MONTH, "p95");
    const tracked = m.rows.find((r) => r.asn === 64510)!;
    const share = expectedShares(peaks).get(64510)!;
    expect(tracked.revenueEur).toBe(1000);
    expect(tracked.marginEur).toBeCloseTo(1000 - Math.round(transitCost * share * 100) / 100, 2);
    expect(tracked.foldedIntoOthers).toBe(false);
    const folded = m.rows.find((r) => r.asn === 64520)!;
    expect([folded.revenueEur, folded.costEur, folded.foldedIntoOthers]).toEqual([800, 0, true]);
    const others = m.rows.find((r) => r.asn === -101)!;
    expect([others.revenueEur, others.foldedIntoOthers]).toEqual([0, false]);
    const cost = m.rows.reduce((s, r) => s + r.costEur, 0);
    expect(cost).toBeCloseTo(transitCost, 1);
    expect(m.unallocated).toEqual([]);
  });
  it("shows the margin table on the screen, when asked, the allocation in the URL (p95 by default, a bad one a notice), Others named as such", async () => {
    const cookie = await sessionCookie(stores, manager.id);
    const key = `${YEAR}-${String(MONTH).padStart(2, "0")}`;
    const load = async (search: string) => (await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs${search}`, cookie))).data;
    // Asked for: the margin reads every cost link's flows of the month.
    expect((await load(`?month=${key}`)).margins).toBeNull();
    const byDefault = await load(`?month=${key}&allocation=`);
    expect(byDefault.allocation).toBe("p95");
    const byBytes = await load(`?month=${key}&allocation=bytes`);
    expect(byBytes.allocation).toBe("bytes");
    const cost = (d: typeof byDefault, asn: number) => d.margins.find((r: { asn: number }) => r.asn === asn).costEur;
    const shares = { p95: expectedShares(peaks), bytes: expectedShares(null) };
    expect(cost(byDefault, -101)).toBeCloseTo(Math.round(transitCost * shares.p95.get(-101)! * 100) / 100, 2);
    expect(cost(byBytes, -101)).toBeCloseTo(Math.round(transitCost * shares.bytes.get(-101)! * 100) / 100, 2);
    expect(byDefault.margins.find((r: { asn: number }) => r.asn === -101).neighbour).toBe("Others (ASes outside the tracked set)");
    expect(byDefault.margins.find((r: { asn: number }) => r.asn === 64520).foldedIntoOthers).toBe(true);
    const bad = await load(`?month=${key}&allocation=evenly`);
    expect(bad.allocation).toBe("p95");
    expect(bad.notices).toContain(`Allocation "evenly" is not one of p95, bytes: showing share at the intervals that set the link's 95th.`);
  });
});
