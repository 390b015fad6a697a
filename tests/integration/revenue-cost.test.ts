/**
 * The bills of a month on real stores (PGlite, chDB): inventory interfaces, contracts and a whole
 * calendar month of interface_util_5m rows inserted here (the previous month: inside the table's
 * TTL), each contract's bill checked against a recomputation in this file from the inserted rows
 * (source rule by brute force, the 95th by dropping the top 5 % one by one, the charges by the
 * formula); the Border Planner's billed 95th of a link for that calendar month equal to this bill's;
 * the month's refusals (month 13, the future, before any data) and the access rule (delegated 403).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces, userPermissions, users } from "~db/postgres/schema";
import * as apiRoute from "~/routes/api.revenue_cost";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { createRouter } from "~/features/inventory/inventory.server";
import { planLinks, viewerFor } from "~/features/planners/plan.server";
import { createContract, listContracts, type ContractChange } from "~/features/revenues/contracts.server";
import { billsOfMonth, revenueCostMonth, RevenueCostError } from "~/features/revenues/revenue-cost.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const now = new Date();
const YEAR = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const MONTH = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const START = Date.UTC(YEAR, MONTH - 1, 1) / 1000;
const END = Date.UTC(YEAR, MONTH, 1) / 1000;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);

function noise(n: number, ...seed: number[]): number {
  let h = 2166136261;
  for (const s of seed) {
    h ^= s;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h % n;
}

type Row = {
  time: number;
  router: string;
  interface: string;
  kind: string;
  neighbor_asn: number;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
  source: string;
  interpolated: number;
};
const rows: Row[] = [];
const row = (time: number, iface: string, inMbps: number, outMbps: number, source = "snmp") =>
  rows.push({
    time,
    router: "r1",
    interface: iface,
    kind: "external",
    neighbor_asn: 0,
    in_bytes: bytesOf(inMbps),
    out_bytes: bytesOf(outMbps),
    capacity_bps: 10e9,
    source,
    interpolated: 0,
  });

for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  const day = 0.5 + 0.5 * Math.sin(((t % 86400) / 86400) * 2 * Math.PI);
  // The transit's two ports: out-heavy, peaks at different times of day; flows rows beside SNMP on every 3rd (SNMP wins).
  row(t, "et-1", 400 + 300 * day + noise(50, i, 1), 1500 + 1800 * day + noise(400, i, 2));
  row(t, "et-2", 300 + noise(60, i, 3), 900 + 1400 * (1 - day) + noise(300, i, 4));
  if (i % 3 === 0) row(t, "et-1", 10, 9000, "flows");
  // The customer: in-heavy (their upload is our in), 1 sample in 60 missing (98.3 %: flagged).
  if (i % 60 !== 5) row(t, "et-3", 200 + 500 * day + noise(80, i, 5), 50 + noise(20, i, 6));
}

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
      { name: "et-2", ifindex: 2, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-3", ifindex: 3, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64510 },
    ],
  });
  const ids = Object.fromEntries((await stores.pg.db.select().from(interfaces)).map((r) => [r.name, r.id]));
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: rows });
  const by = { user: manager };
  await createContract(
    stores.pg.db,
    {
      name: "Transit",
      direction: "cost",
      partnerAsn: 3356,
      method: "Max 95th",
      commitMbps: 3000,
      commitPriceEur: 0.3,
      burstPriceEur: 0.4,
      portFeeEur: 250,
      crossConnectFeeEur: 80,
      validFrom: "2020-01-01",
      interfaceIds: [ids["et-1"], ids["et-2"]],
    },
    by,
  );
  await createContract(
    stores.pg.db,
    {
      name: "Customer",
      direction: "revenue",
      partnerAsn: 64510,
      method: "Max 95th",
      commitMbps: 500,
      commitPriceEur: 1.2,
      burstPriceEur: 1.5,
      minimumFeeEur: 400,
      validFrom: `${YEAR}-${String(MONTH).padStart(2, "0")}-16`,
      interfaceIds: [ids["et-3"]],
    },
    by,
  );
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
});

// ---- the independent recomputation -------------------------------------------------------------

const RANK: Record<string, number> = { snmp: 3, flows: 2, demo: 1 };
function chosen(iface: string, from: number, to: number): Map<number, Row> {
  const best = new Map<number, Row>();
  for (const r of rows) {
    if (r.interface !== iface || r.time < from || r.time >= to) continue;
    const b = best.get(r.time);
    if (!b || RANK[r.source] > RANK[b.source]) best.set(r.time, r);
  }
  return best;
}
/** Drop the largest value floor(n/20) times, then take the largest left. */
function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return left.reduce((a, b) => Math.max(a, b), -Infinity);
}
const mbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e6;

describe("the bills of a month", () => {
  it("bills the transit on the 95th of its two ports' summed series, as recomputed from the rows", async () => {
    const [transit] = await billsOfMonth(
      stores,
      (await listContracts(stores.pg.db)).filter((c) => c.name === "Transit"),
      YEAR,
      MONTH,
    );
    const a = chosen("et-1", START, END);
    const b = chosen("et-2", START, END);
    const times = [...a.keys()];
    const inSum = times.map((t) => a.get(t)!.in_bytes + b.get(t)!.in_bytes);
    const outSum = times.map((t) => a.get(t)!.out_bytes + b.get(t)!.out_bytes);
    const billed = Math.max(mbpsOf(p95(inSum)), mbpsOf(p95(outSum)));
    expect(transit.traffic.billed95thMbps).toBeCloseTo(billed, 6);
    expect(transit.traffic.sources).toEqual(["snmp"]);
    expect([transit.traffic.samples, transit.traffic.expectedSamples, transit.traffic.complete]).toEqual([
      (END - START) / 300,
      (END - START) / 300,
      true,
    ]);
    const expected = 3000 * 0.3 + Math.max(0, billed - 3000) * 0.4 + 250 + 80;
    expect(billed).toBeGreaterThan(3000); // the fixture bursts
    expect(transit.charges.totalEur).toBeCloseTo(Math.round(expected * 100) / 100, 2);
    expect(transit.contract.ports).toEqual(["r1 et-1", "r1 et-2"]);
  });

  it("bills the customer from the 16th, prorated, its month flagged incomplete", async () => {
    const [customer] = await billsOfMonth(
      stores,
      (await listContracts(stores.pg.db)).filter((c) => c.name === "Customer"),
      YEAR,
      MONTH,
    );
    const days = (END - START) / 86400;
    const from = START + 15 * 86400;
    const c = [...chosen("et-3", from, END).values()];
    const billed = Math.max(mbpsOf(p95(c.map((r) => r.in_bytes))), mbpsOf(p95(c.map((r) => r.out_bytes))));
    expect(customer.traffic.billed95thMbps).toBeCloseTo(billed, 6);
    expect(customer.traffic.expectedSamples).toBe((END - from) / 300);
    expect(customer.traffic.samples).toBe(c.length);
    expect(customer.traffic.complete).toBe(false);
    const f = (days - 15) / days;
    const subtotal = 500 * 1.2 * f + Math.max(0, billed - 500) * 1.5;
    expect(customer.charges.proration).toBeCloseTo(f, 12);
    expect(customer.charges.totalEur).toBeCloseTo(Math.round(Math.max(subtotal, 400 * f) * 100) / 100, 2);
  });

  it("gives the Border Planner's billed 95th of a link for the calendar month: one rule", async () => {
    const [{ id }] = await stores.pg.db
      .insert(users)
      .values({ email: "planner@example.org", firstName: "P", passwordHash: "x" })
      .returning({ id: users.id });
    const viewer = await viewerFor(stores, { id, isDelegated: false });
    const plans = await planLinks(stores, viewer, { kind: "external", range: { start: START, end: END } });
    const planned = Object.fromEntries(plans.map((p) => [p.link.key, p.billedP95!.bps / 1e6]));
    const contracts = await listContracts(stores.pg.db);
    // A billing group billed per port is the sum of each port's billed 95th, each the planner's figure.
    const perPort = contracts.filter((c) => c.name === "Transit").map((c) => ({ ...c, groupMode: "per_port" as const }));
    const [transit] = await billsOfMonth(stores, perPort, YEAR, MONTH);
    expect(transit.traffic.billed95thMbps).toBeCloseTo(planned["r1|et-1"] + planned["r1|et-2"], 6);
    // One port for the whole month.
    const wholeMonth = contracts.filter((c) => c.name === "Customer").map((c) => ({ ...c, validFrom: "2020-01-01" }));
    const [customer] = await billsOfMonth(stores, wholeMonth, YEAR, MONTH);
    expect(customer.traffic.billed95thMbps).toBeCloseTo(planned["r1|et-3"], 9);
    expect(customer.traffic.billed95thMbps).not.toBeNull();
  });

  it("answers totals, margin and the change against the previous month (no data then: the commits and fees only)", async () => {
    const m = await revenueCostMonth(stores, manager, YEAR, MONTH);
    const cost = m.bills.find((b) => b.contract.name === "Transit")!.charges.totalEur;
    const revenue = m.bills.find((b) => b.contract.name === "Customer")!.charges.totalEur;
    expect(m.totals).toEqual({ costEur: cost, revenueEur: revenue, marginEur: Math.round((revenue - cost) * 100) / 100 });
    expect(m.incompleteContracts).toBe(1);
    // The month before: the transit's commit and fees (no traffic); the customer not valid yet.
    expect(m.previous.totals).toEqual({ costEur: 3000 * 0.3 + 250 + 80, revenueEur: 0, marginEur: -(3000 * 0.3 + 250 + 80) });
    expect(m.change.costEur).toBeCloseTo(cost - (3000 * 0.3 + 330), 2);
  });

  it("refuses month 13, a month in the future and a month before any data, naming the field", async () => {
    const refused = async (year: number, month: number): Promise<unknown[] | null> =>
      revenueCostMonth(stores, manager, year, month).then(
        () => null,
        (e: unknown) => (e instanceof RevenueCostError ? [e.status, e.field, e.message] : [e]),
      );
    expect(await refused(YEAR, 13)).toEqual([400, "month", "month must be a whole number from 1 to 12"]);
    expect(await refused(YEAR, 0)).toEqual([400, "month", "month must be a whole number from 1 to 12"]);
    expect((await refused(now.getUTCFullYear() + 1, 1))?.slice(0, 2)).toEqual([400, "year"]);
    const before = MONTH === 1 ? [YEAR - 1, 12] : [YEAR, MONTH - 1];
    expect(await refused(before[0], before[1])).toEqual([
      400,
      "month",
      `${before[0]}-${String(before[1]).padStart(2, "0")} is before any data (the first sample is of ${YEAR}-${String(MONTH).padStart(2, "0")})`,
    ]);
  });

  it("is 403 for a delegated account whatever it holds, and without REVENUES_AND_COSTS", async () => {
    for (const user of [
      { permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"], isDelegated: true },
      { permissions: ["LINK_UTILIZATION_95TH"], isDelegated: false },
    ]) {
      const e = await revenueCostMonth(stores, user, YEAR, MONTH).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RevenueCostError);
      expect((e as RevenueCostError).status).toBe(403);
    }
  });

  it("POST api/revenue_cost/ answers the same figures; 400 naming the field; 403 for delegated accounts and without the permission", async () => {
    const cookie = await sessionCookie(stores, manager.id);
    const ok = await callRoute(apiRoute, "/api/revenue_cost/", { method: "POST", cookie, body: { month: MONTH, year: YEAR } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(JSON.parse(JSON.stringify(await revenueCostMonth(stores, manager, YEAR, MONTH))));
    const bad = await callRoute(apiRoute, "/api/revenue_cost/", { method: "POST", cookie, body: { month: 13, year: YEAR } });
    expect([bad.status, await bad.json()]).toEqual([
      400,
      {
        detail: "month must be a whole number from 1 to 12",
        errors: [{ field: "month", message: "month must be a whole number from 1 to 12" }],
      },
    ]);
    const text = await callRoute(apiRoute, "/api/revenue_cost/", { method: "POST", cookie, body: { month: "3", year: YEAR } });
    expect(text.status).toBe(400);
    expect((await text.json()).errors[0].field).toBe("month");
    const extra = await callRoute(apiRoute, "/api/revenue_cost/", { method: "POST", cookie, body: { month: 3, year: YEAR, day: 1 } });
    expect(extra.status).toBe(400);
    const account = async (email: string, isDelegated: boolean, permissions: string[]) => {
      const [{ id }] = await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated })
        .returning({ id: users.id });
      for (const permission of permissions) await stores.pg.db.insert(userPermissions).values({ userId: id, permission });
      return sessionCookie(stores, id);
    };
    for (const c of [
      await account("customer@example.org", true, ["REVENUES_AND_COSTS"]),
      await account("noc@example.org", false, ["LINK_UTILIZATION_95TH"]),
    ]) {
      const refused = await callRoute(apiRoute, "/api/revenue_cost/", { method: "POST", cookie: c, body: { month: MONTH, year: YEAR } });
      expect([refused.status, (await refused.json()).exception_code]).toEqual([403, "permission_denied"]);
    }
  });
});
