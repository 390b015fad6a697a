/**
 * The store of closed months (PostgreSQL bill_months, bill_snapshots; docs/revenues-and-costs.md
 * "Closed months"): a month's bills frozen with their inputs (the contract's terms and billing group
 * as they were, the traffic figures and the charges), read back instead of recomputed, so later
 * contract edits and late samples change open months only and a closed month stays readable after
 * its 5-minute rows have expired. Writing happens in revenue-cost.server.ts (close, recompute).
 */
import { and, asc, eq } from "drizzle-orm";
import { billMonths, billSnapshots } from "~db/postgres/schema";
import { recordAudit, type AuditActor } from "~/server/audit/audit-log.server";
import type { Db } from "~/server/postgres.server";
import type { ContractView } from "./contracts.server";
import type { ContractBill } from "./revenue-cost.server";

export type ClosedMonthInfo = { closedAt: string; recomputedAt: string | null; recomputedBy: string | null };
export type ClosedMonth = ClosedMonthInfo & { bills: ContractBill[]; terms: Map<number, ContractView> };

/** The closed month's frozen bills (by contract name), or null when the month is open. */
export async function readClosedMonth(db: Db, year: number, month: number): Promise<ClosedMonth | null> {
  const [m] = await db
    .select()
    .from(billMonths)
    .where(and(eq(billMonths.year, year), eq(billMonths.month, month)));
  if (!m) return null;
  const rows = await db
    .select()
    .from(billSnapshots)
    .where(and(eq(billSnapshots.year, year), eq(billSnapshots.month, month)))
    .orderBy(asc(billSnapshots.contractName), asc(billSnapshots.contractId));
  return {
    closedAt: m.closedAt.toISOString(),
    recomputedAt: m.recomputedAt?.toISOString() ?? null,
    recomputedBy: m.recomputedBy,
    bills: rows.map((r) => r.bill as ContractBill),
    terms: new Map(rows.map((r) => [r.contractId, r.terms as ContractView])),
  };
}

const snapshotRows = (year: number, month: number, bills: readonly ContractBill[], terms: ReadonlyMap<number, ContractView>) =>
  bills.map((b) => ({
    year,
    month,
    contractId: b.contract.id,
    contractName: b.contract.name,
    direction: b.contract.direction,
    totalEur: b.charges.totalEur,
    terms: terms.get(b.contract.id) ?? null,
    bill: b,
  }));

/** Freezes a month's bills; false when it was closed already (by another process: nothing is written). */
export async function writeClosedMonth(
  db: Db,
  year: number,
  month: number,
  bills: readonly ContractBill[],
  terms: ReadonlyMap<number, ContractView>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(billMonths).values({ year, month }).onConflictDoNothing().returning({ year: billMonths.year });
    if (!inserted.length) return false;
    const rows = snapshotRows(year, month, bills, terms);
    if (rows.length) await tx.insert(billSnapshots).values(rows);
    return true;
  });
}

const summary = (bills: readonly ContractBill[]) => Object.fromEntries(bills.map((b) => [b.contract.name, b.charges.totalEur]));

/** Replaces a closed month's bills with freshly computed ones, with the audit entry (bill.recompute) in the same transaction. */
export async function replaceClosedMonth(
  db: Db,
  year: number,
  month: number,
  before: readonly ContractBill[],
  bills: readonly ContractBill[],
  terms: ReadonlyMap<number, ContractView>,
  who: { actor: AuditActor; clientAddress: string | null; reason: string },
  totals: { before: Record<string, number>; after: Record<string, number> },
): Promise<void> {
  const label = `${year}-${String(month).padStart(2, "0")}`;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.delete(billSnapshots).where(and(eq(billSnapshots.year, year), eq(billSnapshots.month, month)));
    const rows = snapshotRows(year, month, bills, terms);
    if (rows.length) await tx.insert(billSnapshots).values(rows);
    await tx
      .update(billMonths)
      .set({ recomputedAt: new Date(), recomputedBy: who.actor?.email ?? null })
      .where(and(eq(billMonths.year, year), eq(billMonths.month, month)));
    await recordAudit(tx, {
      actor: who.actor,
      action: "bill.recompute",
      targetType: "bill_month",
      targetId: label,
      targetLabel: `Bills of ${label}`,
      before: { bills: summary(before), totals: totals.before },
      after: { bills: summary(bills), totals: totals.after, reason: who.reason },
      clientAddress: who.clientAddress,
    });
  });
}
