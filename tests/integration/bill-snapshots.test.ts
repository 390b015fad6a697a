/**
 * Closed months (docs/revenues-and-costs.md "Closed months") on real stores: the previous calendar
 * month of interface_util_5m rows inserted here, closed (its bills frozen with their inputs), a contract
 * edited and late samples written after the close (the closed bill stays, the open month changes),
 * the month recomputed on purpose by staff (audited), and the closed month read after every 5-minute
 * row is gone. Figures are checked against a recomputation in this file from the inserted rows.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, billMonths, interfaces } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { readClosedMonth } from "~/features/revenues/closing.server";
import {
  ContractAccessError,
  createContract,
  listContracts,
  updateContract,
  type ContractChange,
} from "~/features/revenues/contracts.server";
import {
  billsOfMonth,
  closeMonth,
  closePreviousMonth,
  monthOverAt,
  recomputeMonth,
  revenueCostMonth,
  RevenueCostError,
} from "~/features/revenues/revenue-cost.server";
import { chCommand, chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const now = new Date();
const YEAR = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const MONTH = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const START = Date.UTC(YEAR, MONTH - 1, 1) / 1000;
const END = Date.UTC(YEAR, MONTH, 1) / 1000;
const THIS_START = END;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);
const mbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e6;

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
const sample = (time: number, iface: string, inMbps: number, outMbps: number): Row => ({
  time,
  router: "r1",
  interface: iface,
  kind: "external",
  neighbor_asn: 0,
  in_bytes: bytesOf(inMbps),
  out_bytes: bytesOf(outMbps),
  capacity_bps: 10e9,
  source: "snmp",
  interpolated: 0,
});
const rows: Row[] = [];
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  rows.push(sample(t, "et-1", 200 + (i % 7) * 10, 1500 + ((i * 37) % 101) * 10));
  // The customer's second half of the month arrives late (after the close).
  if (t < START + 14 * 86400) rows.push(sample(t, "et-3", 300 + ((i * 13) % 50) * 4, 40));
}
const late: Row[] = [];
for (let t = START + 14 * 86400; t < END; t += 300) late.push(sample(t, "et-3", 900, 40));
const current: Row[] = [];
for (let t = THIS_START; t < Math.min(Date.now() / 1000 - 600, THIS_START + 86400); t += 300) current.push(sample(t, "et-1", 100, 800));

/** Drop the largest value floor(n/20) times, then take the largest left. */
function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return left.reduce((a, b) => Math.max(a, b), -Infinity);
}
const transitRows = rows.filter((r) => r.interface === "et-1");
const transitBilled = Math.max(mbpsOf(p95(transitRows.map((r) => r.in_bytes))), mbpsOf(p95(transitRows.map((r) => r.out_bytes))));
const transitBill = (commitPrice: number) => Math.round((1000 * commitPrice + Math.max(0, transitBilled - 1000) * 0.5 + 200) * 100) / 100;

let stores: TestStores;
let manager: ContractChange["user"];
let transitId: number;

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
    ],
  });
  const ids = Object.fromEntries((await stores.pg.db.select().from(interfaces)).map((r) => [r.name, r.id]));
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: [...rows, ...current] });
  const by = { user: manager };
  transitId = (
    await createContract(
      stores.pg.db,
      {
        name: "Transit",
        direction: "cost",
        partnerAsn: 3356,
        method: "Max 95th",
        commitMbps: 1000,
        commitPriceEur: 0.3,
        burstPriceEur: 0.5,
        crossConnectFeeEur: 200,
        validFrom: "2020-01-01",
        interfaceIds: [ids["et-1"]],
      },
      by,
    )
  ).id;
  await createContract(
    stores.pg.db,
    {
      name: "Customer",
      direction: "revenue",
      partnerAsn: 64510,
      method: "Max 95th",
      commitMbps: 100,
      commitPriceEur: 1,
      burstPriceEur: 1.2,
      validFrom: "2020-01-01",
      interfaceIds: [ids["et-3"]],
    },
    by,
  );
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("closed months", () => {
  it("does not close a month before it is over in every billing timezone", async () => {
    expect(await closeMonth(stores, now.getUTCFullYear(), now.getUTCMonth() + 1)).toBe(false);
    expect(await readClosedMonth(stores.pg.db, now.getUTCFullYear(), now.getUTCMonth() + 1)).toBeNull();
    // A contract billed in Los Angeles: the month ends there 8 (or 7) hours after UTC.
    expect(monthOverAt([{ timezone: "America/Los_Angeles" }], 2026, 1) - Date.UTC(2026, 1, 1) / 1000).toBe(8 * 3600);
    // A month without any data is never closed.
    expect(await closeMonth(stores, 2019, 1, Date.UTC(2019, 1, 1, 0, 30))).toBe(false);
  });

  it("closes the previous month: its bills frozen with their inputs, equal to the recomputation from the rows", async () => {
    expect(await readClosedMonth(stores.pg.db, YEAR, MONTH)).toBeNull();
    expect(await closePreviousMonth(stores)).toBe(true);
    expect(await closeMonth(stores, YEAR, MONTH)).toBe(false); // once
    const closed = (await readClosedMonth(stores.pg.db, YEAR, MONTH))!;
    expect(closed.bills.map((b) => b.contract.name)).toEqual(["Customer", "Transit"]);
    const transit = closed.bills.find((b) => b.contract.name === "Transit")!;
    expect(transit.traffic.billed95thMbps).toBeCloseTo(transitBilled, 6);
    expect(transit.charges.totalEur).toBeCloseTo(transitBill(0.3), 2);
    expect(closed.terms.get(transitId)).toMatchObject({
      commitPriceEur: 0.3,
      commitMbps: 1000,
      ports: [{ router: "r1", interface: "et-1" }],
    });
    const customer = closed.bills.find((b) => b.contract.name === "Customer")!;
    expect(customer.traffic.complete).toBe(false);
    const m = await revenueCostMonth(stores, manager, YEAR, MONTH);
    expect(m.closed).toMatchObject({ recomputedAt: null, recomputedBy: null });
    expect(m.bills).toEqual(closed.bills);
  });

  it("keeps the closed bill after a contract edit and late samples; the open month changes", async () => {
    const frozen = await revenueCostMonth(stores, manager, YEAR, MONTH);
    const [transit] = (await listContracts(stores.pg.db)).filter((c) => c.id === transitId);
    const { id: _id, ports, updatedAt: _u, ...fields } = transit;
    await updateContract(
      stores.pg.db,
      transitId,
      { ...fields, commitPriceEur: 0.4, interfaceIds: ports.map((p) => p.interfaceId) },
      { user: manager },
    );
    await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: late });
    const after = await revenueCostMonth(stores, manager, YEAR, MONTH);
    expect(after.bills).toEqual(frozen.bills);
    expect(after.totals).toEqual(frozen.totals);
    // Computed afresh, the month would differ: the new price and the late samples.
    const live = await billsOfMonth(stores, await listContracts(stores.pg.db), YEAR, MONTH);
    expect(live.find((b) => b.contract.name === "Transit")!.charges.totalEur).toBeCloseTo(transitBill(0.4), 2);
    expect(live.find((b) => b.contract.name === "Customer")!.traffic.billed95thMbps).toBeCloseTo(900, 6);
    // The open month bills at the new price (commit 1000 × 0.4 × the whole month).
    const open = await revenueCostMonth(stores, manager, now.getUTCFullYear(), now.getUTCMonth() + 1);
    expect(open.closed).toBeNull();
    expect(open.bills.find((b) => b.contract.name === "Transit")!.charges.commitEur).toBeCloseTo(400, 2);
    expect(open.previous.totals).toEqual(frozen.totals);
  });

  it("recomputes a closed month on purpose: staff with MANAGE_CONTRACTS only, audited", async () => {
    const before = await revenueCostMonth(stores, manager, YEAR, MONTH);
    const noc = { ...manager, id: manager.id, isStaff: false, isSuperuser: false, permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"] };
    await expect(recomputeMonth(stores, YEAR, MONTH, { user: noc })).rejects.toBeInstanceOf(ContractAccessError);
    const open = await recomputeMonth(stores, now.getUTCFullYear(), now.getUTCMonth() + 1, { user: manager }).catch((e: unknown) => e);
    expect(open).toBeInstanceOf(RevenueCostError);
    expect((open as RevenueCostError).field).toBe("month");
    const result = await recomputeMonth(stores, YEAR, MONTH, { user: manager, clientAddress: "192.0.2.9", reason: "price corrected" });
    const m = await revenueCostMonth(stores, manager, YEAR, MONTH);
    const transit = m.bills.find((b) => b.contract.name === "Transit")!;
    expect(transit.charges.totalEur).toBeCloseTo(transitBill(0.4), 2);
    expect(m.bills.find((b) => b.contract.name === "Customer")!.traffic.billed95thMbps).toBeCloseTo(900, 6);
    expect(m.closed?.recomputedBy).toBe("finance@example.org");
    expect(result.before).toEqual(before.totals);
    expect({ costEur: result.costEur, revenueEur: result.revenueEur, marginEur: result.marginEur }).toEqual(m.totals);
    const entries = await stores.pg.db.select().from(auditLog).where(eq(auditLog.action, "bill.recompute"));
    expect(entries).toHaveLength(1);
    const label = `${YEAR}-${String(MONTH).padStart(2, "0")}`;
    expect(entries[0]).toMatchObject({
      targetType: "bill_month",
      targetId: label,
      actorEmail: "finance@example.org",
      clientAddress: "192.0.2.9",
    });
    expect(entries[0].before).toEqual({
      bills: Object.fromEntries(before.bills.map((b) => [b.contract.name, b.charges.totalEur])),
      totals: before.totals,
    });
    expect(entries[0].after).toMatchObject({ totals: m.totals, reason: "price corrected" });
  });

  it("keeps the closed month readable after its 5-minute rows have expired", async () => {
    const frozen = await revenueCostMonth(stores, manager, YEAR, MONTH);
    await chCommand(stores.ch, { name: "test.truncate", sql: "TRUNCATE TABLE interface_util_5m" });
    const m = await revenueCostMonth(stores, manager, YEAR, MONTH);
    expect(m.bills).toEqual(frozen.bills);
    expect(m.totals.costEur).toBeCloseTo(transitBill(0.4), 2);
    // An open month needs its data.
    const open = await revenueCostMonth(stores, manager, now.getUTCFullYear(), now.getUTCMonth() + 1).catch((e: unknown) => e);
    expect(open).toBeInstanceOf(RevenueCostError);
    const [row] = await stores.pg.db
      .select()
      .from(billMonths)
      .where(and(eq(billMonths.year, YEAR), eq(billMonths.month, MONTH)));
    expect(row.recomputedBy).toBe("finance@example.org");
  });
});
