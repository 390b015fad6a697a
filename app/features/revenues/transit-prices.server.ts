/**
 * The effective price per billed Mbit/s of each transit (or any partner AS with cost contracts) for a
 * month, from the month's bills: what AS Relations' peering candidates use to price the transit
 * traffic a direct session would save. Null for a viewer who may not see prices.
 */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { canSeeRevenuesAndCosts, listContracts } from "./contracts.server";
import { billsOfMonth } from "./revenue-cost.server";

/** Only the contracts of the given partner ASes are billed (a bill reads the month's samples of its ports). */
export type PricesOfMonth = (year: number, month: number, partners: readonly number[], now?: number) => Promise<Map<number, number> | null>;

/** € per billed Mbit/s per partner AS: the month's cost contracts' total ÷ their billed 95th (contracts without a 95th are left out). */
export function transitPrices(
  bills: readonly {
    contract: { direction: string; partnerAsn: number | null };
    traffic: { billed95thMbps: number | null };
    charges: { totalEur: number };
  }[],
): Map<number, number> {
  const sums = new Map<number, { eur: number; mbps: number }>();
  for (const b of bills) {
    if (b.contract.direction !== "cost" || b.contract.partnerAsn === null || !b.traffic.billed95thMbps) continue;
    const s = sums.get(b.contract.partnerAsn) ?? { eur: 0, mbps: 0 };
    s.eur += b.charges.totalEur;
    s.mbps += b.traffic.billed95thMbps;
    sums.set(b.contract.partnerAsn, s);
  }
  return new Map([...sums].filter(([, s]) => s.mbps > 0).map(([asn, s]) => [asn, s.eur / s.mbps]));
}

/** The month's prices per partner AS for this viewer, or null when they may not see Revenues & Costs. */
export function transitPricesFor(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "permissions" | "isDelegated">,
): PricesOfMonth {
  return async (year, month, partners, now = Date.now()) => {
    if (!canSeeRevenuesAndCosts(user)) return null;
    const wanted = new Set(partners);
    const contracts = (await listContracts(services.pg.db)).filter(
      (c) => c.direction === "cost" && c.partnerAsn !== null && wanted.has(c.partnerAsn),
    );
    return transitPrices(await billsOfMonth(services, contracts, year, month, now));
  };
}
