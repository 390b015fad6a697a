/**
 * The bills of a calendar month (docs/revenues-and-costs.md): every contract valid in the month with
 * its billed 95th, completeness and source of the samples, and its charges; the totals (cost,
 * revenue, margin) and their change against the previous month. For REVENUES_AND_COSTS holders, never
 * for a delegated account. POST api/revenue_cost/ and the screen answer these figures.
 */
import { z } from "zod";
import { chQuery } from "~/server/clickhouse/query.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { billingWindow, chargesOf, MBPS, trafficFigures, type Charges, type PortSamples, type TrafficFigures } from "./bill";
import { canSeeRevenuesAndCosts, listContracts, type ContractView } from "./contracts.server";
import { firstSampleQuery, portSamplesQuery } from "./sql";

export class RevenueCostError extends Error {
  constructor(
    readonly status: 400 | 403,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = "RevenueCostError";
  }
}

export type ContractBill = {
  contract: { id: number; name: string; direction: "cost" | "revenue"; method: string; partnerAsn: number | null; ports: string[] };
  traffic: {
    billed95thMbps: number | null;
    in95thMbps: number | null;
    out95thMbps: number | null;
    meanMbps: number | null;
    samples: number;
    expectedSamples: number;
    completeness: number;
    complete: boolean;
    sources: string[];
  };
  charges: Charges;
};

export type MonthTotals = { costEur: number; revenueEur: number; marginEur: number };

export type RevenueCostMonth = {
  year: number;
  month: number;
  bills: ContractBill[];
  totals: MonthTotals;
  previous: { year: number; month: number; totals: MonthTotals };
  change: MonthTotals;
  incompleteContracts: number;
};

const SampleRow = z.object({
  port: z.string(),
  t: z.coerce.number(),
  in_b: z.coerce.number(),
  out_b: z.coerce.number(),
  sample_source: z.string(),
});
const FirstRow = z.object({ first: z.coerce.number(), rows: z.coerce.number() });

const mbps = (bps: number | null) => (bps === null ? null : bps / MBPS);
const cents = (x: number) => Math.round(x * 100) / 100;

/** The month's bill of each given contract valid in it (contracts without one are left out). */
export async function billsOfMonth(
  services: Pick<Services, "ch">,
  contracts: readonly ContractView[],
  year: number,
  month: number,
  now = Date.now(),
): Promise<ContractBill[]> {
  const bills: ContractBill[] = [];
  for (const c of contracts) {
    const window = billingWindow(c, year, month);
    if (!window) continue;
    const ports = c.ports.map((p) => ({ router: p.router, interface: p.interface }));
    const rows = ports.length
      ? await chQuery(services.ch, { ...portSamplesQuery(ports, { start: window.activeStart, end: window.activeEnd }), schema: SampleRow })
      : [];
    const series: PortSamples[] = ports.map((p) => {
      const key = `${p.router}|${p.interface}`;
      return {
        key,
        samples: rows.filter((r) => r.port === key).map((r) => ({ t: r.t, inBytes: r.in_b, outBytes: r.out_b, source: r.sample_source })),
      };
    });
    const traffic: TrafficFigures = trafficFigures(series, c, window, Math.floor(now / 1000));
    bills.push({
      contract: {
        id: c.id,
        name: c.name,
        direction: c.direction,
        method: c.method,
        partnerAsn: c.partnerAsn,
        ports: c.ports.map((p) => `${p.router} ${p.interface}`),
      },
      traffic: {
        billed95thMbps: mbps(traffic.billedBps),
        in95thMbps: mbps(traffic.inP95Bps),
        out95thMbps: mbps(traffic.outP95Bps),
        meanMbps: mbps(traffic.meanBps),
        samples: traffic.samples,
        expectedSamples: traffic.expected,
        completeness: traffic.completeness,
        complete: traffic.complete,
        sources: traffic.sources,
      },
      charges: chargesOf(c, traffic, window),
    });
  }
  return bills;
}

export function totalsOf(bills: readonly ContractBill[]): MonthTotals {
  let cost = 0;
  let revenue = 0;
  for (const b of bills) {
    if (b.contract.direction === "cost") cost += b.charges.totalEur;
    else revenue += b.charges.totalEur;
  }
  return { costEur: cents(cost), revenueEur: cents(revenue), marginEur: cents(revenue - cost) };
}

const previousMonth = (year: number, month: number) => (month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 });

/**
 * Checks the month asked for: 1–12, a whole year, not in the future (the current month is open and
 * billed to now), not before any data (400 naming the field otherwise).
 */
export async function checkMonth(services: Pick<Services, "ch">, year: number, month: number, now = Date.now()): Promise<void> {
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw new RevenueCostError(400, "month must be a whole number from 1 to 12", "month");
  if (!Number.isInteger(year) || year < 1970 || year > 9999)
    throw new RevenueCostError(400, "year must be a whole number from 1970 to 9999", "year");
  const today = new Date(now);
  const asked = year * 12 + month;
  const current = today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
  if (asked > current)
    throw new RevenueCostError(
      400,
      `${year}-${String(month).padStart(2, "0")} is in the future`,
      asked > current && year > today.getUTCFullYear() ? "year" : "month",
    );
  const [first] = await chQuery(services.ch, { ...firstSampleQuery(), schema: FirstRow });
  const monthEnd = Date.UTC(year, month, 1) / 1000;
  if (!first || first.rows === 0 || monthEnd <= first.first)
    throw new RevenueCostError(
      400,
      first && first.rows > 0
        ? `${year}-${String(month).padStart(2, "0")} is before any data (the first sample is of ${new Date(first.first * 1000).toISOString().slice(0, 7)})`
        : "There is no link data yet: no month can be billed",
      "month",
    );
}

/** The month's bills, totals and change against the previous month, for a user who may see them. */
export async function revenueCostMonth(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "permissions" | "isDelegated">,
  year: number,
  month: number,
  now = Date.now(),
): Promise<RevenueCostMonth> {
  if (!canSeeRevenuesAndCosts(user)) throw new RevenueCostError(403, "Revenues & Costs is not available to this account.");
  await checkMonth(services, year, month, now);
  const contracts = await listContracts(services.pg.db);
  const bills = await billsOfMonth(services, contracts, year, month, now);
  const prev = previousMonth(year, month);
  const prevTotals = totalsOf(await billsOfMonth(services, contracts, prev.year, prev.month, now));
  const totals = totalsOf(bills);
  return {
    year,
    month,
    bills,
    totals,
    previous: { ...prev, totals: prevTotals },
    change: {
      costEur: cents(totals.costEur - prevTotals.costEur),
      revenueEur: cents(totals.revenueEur - prevTotals.revenueEur),
      marginEur: cents(totals.marginEur - prevTotals.marginEur),
    },
    incompleteContracts: bills.filter((b) => !b.traffic.complete).length,
  };
}
