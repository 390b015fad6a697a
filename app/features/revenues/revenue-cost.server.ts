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
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { billingWindow, chargesOf, MBPS, trafficFigures, type Charges, type PortSamples, type TrafficFigures } from "./bill";
import { readClosedMonth, replaceClosedMonth, writeClosedMonth, type ClosedMonthInfo } from "./closing.server";
import { canSeeRevenuesAndCosts, listContracts, requireContractManager, type ContractChange, type ContractView } from "./contracts.server";
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
  /** Null: the month is open (computed now from the contracts and samples); else when it was frozen and last recomputed. */
  closed: ClosedMonthInfo | null;
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
 * billed to now), not before any data (400 naming the field otherwise). A closed month is never
 * "before any data": its bills are frozen, whatever samples are left.
 */
export async function checkMonth(
  services: Pick<Services, "ch">,
  year: number,
  month: number,
  now = Date.now(),
  options: { closed?: boolean } = {},
): Promise<void> {
  checkMonthShape(year, month, now);
  if (!options.closed) await checkMonthHasData(services, year, month);
}

function checkMonthShape(year: number, month: number, now: number): void {
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
}

async function checkMonthHasData(services: Pick<Services, "ch">, year: number, month: number): Promise<void> {
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

/** Unix seconds: the end of the month in every given billing timezone (UTC with none), the latest of them. */
export function monthOverAt(contracts: readonly Pick<ContractView, "timezone">[], year: number, month: number): number {
  const zones = new Set(["UTC", ...contracts.map((c) => c.timezone)]);
  let end = 0;
  for (const timezone of zones) end = Math.max(end, billingWindow({ validFrom: "1970-01-01", validTo: null, timezone }, year, month)!.end);
  return end;
}

const termsOf = (contracts: readonly ContractView[]) => new Map(contracts.map((c) => [c.id, c]));

/**
 * Closes a month once it is over in every contract's billing timezone: its bills, computed from the
 * contracts and samples as they are now, are frozen with their inputs. False when the month is not
 * over yet, has no data, or was closed already (then nothing changes).
 */
export async function closeMonth(services: Pick<Services, "pg" | "ch">, year: number, month: number, now = Date.now()): Promise<boolean> {
  const contracts = await listContracts(services.pg.db);
  if (monthOverAt(contracts, year, month) > Math.floor(now / 1000)) return false;
  if (await readClosedMonth(services.pg.db, year, month)) return false;
  try {
    await checkMonthHasData(services, year, month);
  } catch (error) {
    if (error instanceof RevenueCostError) return false;
    throw error;
  }
  const bills = await billsOfMonth(services, contracts, year, month, now);
  return writeClosedMonth(services.pg.db, year, month, bills, termsOf(contracts));
}

/**
 * Recomputes a closed month on purpose (a corrected contract, late samples): staff and superusers
 * holding MANAGE_CONTRACTS; the bills are computed from the contracts and samples as they are now and
 * replace the frozen ones, with an audit entry (bill.recompute: each bill's total before and after).
 */
export async function recomputeMonth(
  services: Pick<Services, "pg" | "ch">,
  year: number,
  month: number,
  change: ContractChange & { reason?: string },
  now = Date.now(),
): Promise<RevenueCostMonth["totals"] & { before: MonthTotals }> {
  requireContractManager(change.user);
  checkMonthShape(year, month, now);
  const closed = await readClosedMonth(services.pg.db, year, month);
  if (!closed)
    throw new RevenueCostError(
      400,
      `${year}-${String(month).padStart(2, "0")} is not closed: an open month is always computed afresh`,
      "month",
    );
  const contracts = await listContracts(services.pg.db);
  const bills = await billsOfMonth(services, contracts, year, month, now);
  const before = totalsOf(closed.bills);
  const after = totalsOf(bills);
  await replaceClosedMonth(
    services.pg.db,
    year,
    month,
    closed.bills,
    bills,
    termsOf(contracts),
    { actor: { id: change.user.id, email: change.user.email }, clientAddress: change.clientAddress ?? null, reason: change.reason ?? "" },
    { before: { ...before }, after: { ...after } },
  );
  return { ...after, before };
}

/** The month before the current UTC one, closed once it is over everywhere (the background task, hourly). */
export async function closePreviousMonth(services: Pick<Services, "pg" | "ch">, now = Date.now()): Promise<boolean> {
  const today = new Date(now);
  const prev = previousMonth(today.getUTCFullYear(), today.getUTCMonth() + 1);
  return closeMonth(services, prev.year, prev.month, now);
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
  checkMonthShape(year, month, now);
  // A month over everywhere is closed when first read (if the hourly task has not yet): frozen from then on.
  let closed = await readClosedMonth(services.pg.db, year, month);
  if (!closed && (await closeMonth(services, year, month, now))) closed = await readClosedMonth(services.pg.db, year, month);
  if (!closed) await checkMonthHasData(services, year, month);
  const contracts = closed ? [] : await listContracts(services.pg.db);
  const bills = closed ? closed.bills : await billsOfMonth(services, contracts, year, month, now);
  const prev = previousMonth(year, month);
  const prevClosed = await readClosedMonth(services.pg.db, prev.year, prev.month);
  const prevTotals = totalsOf(
    prevClosed
      ? prevClosed.bills
      : await billsOfMonth(services, closed ? await listContracts(services.pg.db) : contracts, prev.year, prev.month, now),
  );
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
    closed: closed ? { closedAt: closed.closedAt, recomputedAt: closed.recomputedAt, recomputedBy: closed.recomputedBy } : null,
  };
}

export type HistoryMonth = {
  year: number;
  month: number;
  /** Null: no bill for this month (before any data). */
  totals: MonthTotals | null;
  closed: boolean;
};

/**
 * The totals of the `count` months up to the one asked for (oldest first), for the 12-month chart: a closed
 * month from its frozen bills, a month over but not yet closed is closed now (as when it is first read), the
 * current month computed to now; a month before any data has no totals.
 */
export async function revenueCostHistory(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "permissions" | "isDelegated">,
  year: number,
  month: number,
  count = 12,
  now = Date.now(),
): Promise<HistoryMonth[]> {
  if (!canSeeRevenuesAndCosts(user)) throw new RevenueCostError(403, "Revenues & Costs is not available to this account.");
  checkMonthShape(year, month, now);
  const [first] = await chQuery(services.ch, { ...firstSampleQuery(), schema: FirstRow });
  const months: { year: number; month: number }[] = [];
  for (let ym = { year, month }, i = 0; i < count; i++, ym = previousMonth(ym.year, ym.month)) months.unshift(ym);
  let contracts: ContractView[] | null = null;
  const out: HistoryMonth[] = [];
  for (const m of months) {
    let closed = await readClosedMonth(services.pg.db, m.year, m.month);
    const beforeData = !first || first.rows === 0 || Date.UTC(m.year, m.month, 1) / 1000 <= first.first;
    if (!closed && beforeData) {
      out.push({ ...m, totals: null, closed: false });
      continue;
    }
    if (!closed && (await closeMonth(services, m.year, m.month, now))) closed = await readClosedMonth(services.pg.db, m.year, m.month);
    contracts ??= closed ? contracts : await listContracts(services.pg.db);
    const bills = closed ? closed.bills : await billsOfMonth(services, contracts!, m.year, m.month, now);
    out.push({ ...m, totals: totalsOf(bills), closed: closed !== null });
  }
  return out;
}

/** The hourly closing of the previous month, in every app process (the first to close it wins; the others change nothing). */
let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> = Promise.resolve();
export const CLOSE_CHECK_MS = 3600_000;
export const monthCloseTask: BackgroundTask = {
  start: (services) => {
    if (timer) return;
    const run = () => {
      running = running
        .then(() => closePreviousMonth(services))
        .catch((error: unknown) => log.error(`closing the previous month's bills failed: ${String(error)}`));
    };
    run();
    timer = setInterval(run, CLOSE_CHECK_MS);
    timer.unref?.();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
