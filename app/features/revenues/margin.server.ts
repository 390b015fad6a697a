/**
 * The margin per neighbour AS of a month (docs/revenues-and-costs.md "Margin per neighbour AS"): the
 * revenue of the customers' contracts against the cost of the transit and peering links their
 * traffic enters or leaves by, each link's bill allocated to the ASes of its flows_5m traffic by the
 * chosen method. ASes outside the tracked set are folded into Others (−101) in flows_5m: their share
 * of the cost is Others' row, and a customer AS folded so is marked as such.
 */
import { z } from "zod";
import { chQuery } from "~/server/clickhouse/query.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { billingWindow } from "./bill";
import { readClosedMonth } from "./closing.server";
import { listContracts, type ContractView } from "./contracts.server";
import { countedDirections, peakIntervals, sharesOf, type Allocation, type FlowBytes } from "./margin";
import { revenueCostMonth, type RevenueCostMonth } from "./revenue-cost.server";
import { groupFlowsQuery, portSamplesQuery, trackedAsQuery } from "./sql";

export type LinkShare = { contractId: number; contract: string; share: number; costEur: number };
export type AsMargin = {
  /** The neighbour AS (−101: Others, the ASes outside the tracked set; null: revenue of contracts without a partner AS). */
  asn: number | null;
  revenueEur: number;
  costEur: number;
  marginEur: number;
  /** A customer AS outside the tracked set: its traffic, and so its share of the cost, is in the Others row. */
  foldedIntoOthers: boolean;
  links: LinkShare[];
};
export type MarginOfMonth = {
  year: number;
  month: number;
  allocation: Allocation;
  rows: AsMargin[];
  /** Cost links whose month has no flows to share their bill by (kept whole, not spread). */
  unallocated: { contractId: number; contract: string; costEur: number }[];
  bills: RevenueCostMonth;
};

const FlowRow = z.object({ t: z.coerce.number(), dir: z.enum(["in", "out"]), asn: z.coerce.number(), b: z.coerce.number() });
const SampleRow = z.object({
  port: z.string(),
  t: z.coerce.number(),
  in_b: z.coerce.number(),
  out_b: z.coerce.number(),
  sample_source: z.string(),
});
const cents = (x: number) => Math.round(x * 100) / 100;

/** A cost link's shares by AS: by the month's bytes, or at the intervals that set its billed 95th (the summed series of its ports). */
async function linkShares(
  services: Pick<Services, "ch">,
  c: ContractView,
  dirs: readonly ("in" | "out")[],
  year: number,
  month: number,
  allocation: Allocation,
): Promise<Map<number, number>> {
  const window = billingWindow(c, year, month);
  if (!window || !c.ports.length) return new Map();
  const ports = c.ports.map((p) => ({ router: p.router, interface: p.interface }));
  const range = { start: window.activeStart, end: window.activeEnd };
  const flows: FlowBytes[] = await chQuery(services.ch, { ...groupFlowsQuery(ports, range), schema: FlowRow });
  if (allocation === "bytes") return sharesOf(flows, dirs, null);
  const samples = await chQuery(services.ch, { ...portSamplesQuery(ports, range), schema: SampleRow });
  const series = new Map<number, number>();
  for (const s of samples)
    series.set(s.t, (series.get(s.t) ?? 0) + (dirs.includes("in") ? s.in_b : 0) + (dirs.includes("out") ? s.out_b : 0));
  return sharesOf(flows, dirs, peakIntervals(series));
}

export async function marginOfMonth(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "permissions" | "isDelegated">,
  year: number,
  month: number,
  allocation: Allocation,
  now = Date.now(),
): Promise<MarginOfMonth> {
  const bills = await revenueCostMonth(services, user, year, month, now);
  const closed = await readClosedMonth(services.pg.db, year, month);
  // A closed month shares its frozen bills by the billing groups they were computed on.
  const terms = closed ? closed.terms : new Map((await listContracts(services.pg.db)).map((c) => [c.id, c]));
  const rows = new Map<number | null, AsMargin>();
  const row = (asn: number | null) => {
    let r = rows.get(asn);
    if (!r) rows.set(asn, (r = { asn, revenueEur: 0, costEur: 0, marginEur: 0, foldedIntoOthers: false, links: [] }));
    return r;
  };
  const unallocated: MarginOfMonth["unallocated"] = [];
  for (const b of bills.bills) {
    if (b.contract.direction === "revenue") {
      row(b.contract.partnerAsn).revenueEur += b.charges.totalEur;
      continue;
    }
    const c = terms.get(b.contract.id);
    if (b.charges.totalEur === 0) continue;
    const shares = c
      ? await linkShares(
          services,
          c,
          countedDirections(c.billedDirection, b.traffic.in95thMbps, b.traffic.out95thMbps),
          year,
          month,
          allocation,
        )
      : new Map<number, number>();
    if (!shares.size) {
      unallocated.push({ contractId: b.contract.id, contract: b.contract.name, costEur: b.charges.totalEur });
      continue;
    }
    for (const [asn, share] of shares) {
      const r = row(asn);
      const costEur = b.charges.totalEur * share;
      r.costEur += costEur;
      r.links.push({ contractId: b.contract.id, contract: b.contract.name, share, costEur });
    }
  }
  const customers = [...rows.values()].filter((r) => r.asn !== null && r.asn > 0 && r.revenueEur > 0).map((r) => r.asn!);
  const tracked = customers.length
    ? new Set(
        (await chQuery(services.ch, { ...trackedAsQuery(customers), schema: z.object({ asn: z.coerce.number() }) })).map((r) => r.asn),
      )
    : new Set<number>();
  for (const r of rows.values()) {
    r.foldedIntoOthers = r.asn !== null && r.asn > 0 && r.revenueEur > 0 && !tracked.has(r.asn);
    r.revenueEur = cents(r.revenueEur);
    r.costEur = cents(r.costEur);
    r.marginEur = cents(r.revenueEur - r.costEur);
  }
  return {
    year,
    month,
    allocation,
    rows: [...rows.values()].sort((a, b) => b.revenueEur - a.revenueEur || b.costEur - a.costEur || (a.asn ?? 0) - (b.asn ?? 0)),
    unallocated,
    bills,
  };
}
