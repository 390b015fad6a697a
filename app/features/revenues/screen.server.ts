/**
 * The Revenues & Costs screen's loader: the month of the URL (`month=YYYY-MM`, lenient: a bad value
 * falls back to the current month with a notice), the month's bills from revenue-cost.server.ts with
 * each partner AS named, the totals and the change against the previous month. The figures are the
 * ones POST api/revenue_cost/ answers; the screen only formats them for people.
 */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { effectiveNames } from "~/features/tags/effective-names.server";
import { DIRECTION_LABELS } from "./contract-input";
import { canManageContracts } from "./contracts.server";
import { COMPLETE_SHARE } from "./bill";
import type { ContractsPart } from "./contract-form";
import { loadContractsPart } from "./contracts-screen.server";
import { HISTORY_MONTHS, type HistoryRow } from "./history";
import { revenueCostHistory, revenueCostMonth, RevenueCostError, type MonthTotals } from "./revenue-cost.server";
import { ALLOCATION_LABELS, ALLOCATIONS, type Allocation } from "./margin";
import { marginOfMonth } from "./margin.server";
import { listContracts } from "./contracts.server";
import { parseWhatIf, whatIfOfMonth, WhatIfError, type WhatIfFields } from "./what-if.server";

const MONTH_RE = /^(\d{4})-(\d{2})$/;

export type MonthParam = { year: number; month: number; asked: string | null; valid: boolean };

const pad = (n: number) => String(n).padStart(2, "0");
export const monthKey = (year: number, month: number) => `${year}-${pad(month)}`;

/** The URL's month; a missing or malformed one is the current (UTC) month, kept as asked for the notice. */
export function parseMonthParam(url: URL, now = Date.now()): MonthParam {
  const today = new Date(now);
  const fallback = { year: today.getUTCFullYear(), month: today.getUTCMonth() + 1 };
  const asked = url.searchParams.get("month");
  if (asked === null || asked === "") return { ...fallback, asked: null, valid: true };
  const m = MONTH_RE.exec(asked.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return { ...fallback, asked, valid: false };
  return { year: Number(m[1]), month: Number(m[2]), asked, valid: true };
}

import { eur, formatEur, formatMbps } from "./format";
export { formatEur, formatMbps };
const signedEur = (x: number) => (x > 0 ? `+${eur.format(x)}` : eur.format(x));
const percent = (x: number) => `${(Math.floor(x * 1000) / 10).toFixed(1)} %`;

export type BillRow = {
  id: number;
  contract: string;
  partnerAsn: number | null;
  partner: string;
  direction: "cost" | "revenue";
  directionLabel: string;
  method: string;
  ports: string;
  billed95thMbps: number | null;
  billed95th: string;
  completeness: number;
  completenessLabel: string;
  incomplete: boolean;
  sources: string;
  totalEur: number;
  total: string;
  perBilledMbpsEur: number | null;
  perBilledMbps: string;
};

export type MarginRow = {
  asn: number | null;
  neighbour: string;
  revenueEur: number;
  revenue: string;
  costEur: number;
  cost: string;
  marginEur: number;
  margin: string;
  links: string;
  foldedIntoOthers: boolean;
};

export type TotalsView = { cost: string; revenue: string; margin: string };

export type RevenuesScreen = {
  month: string;
  monthLabel: string;
  previousLabel: string;
  notices: string[];
  bills: BillRow[];
  totals: (MonthTotals & { view: TotalsView; change: TotalsView; previous: TotalsView }) | null;
  incompleteContracts: number;
  /** Null: an open month (computed afresh); else when its bills were frozen and last recomputed (UTC, for people). */
  closed: { closedAt: string; recomputedAt: string | null; recomputedBy: string | null } | null;
  canManage: boolean;
  /** The margin per neighbour AS and how a link's cost is allocated (URL `allocation`, p95 by default). */
  allocation: Allocation;
  allocations: { value: Allocation; label: string }[];
  /** Null until asked for (the allocation form): the margin reads every cost link's flows of the month. */
  margins: MarginRow[] | null;
  unallocated: string[];
  /** The contracts and their edit forms, for those who may edit them (else null). */
  contracts: ContractsPart;
  whatIf: WhatIfView;
  /** The 12 months up to this one (URL history=12), oldest first; null until asked for (it may close past months). */
  history: HistoryRow[] | null;
};

export type WhatIfRow = {
  contract: string;
  direction: string;
  before95th: string;
  after95th: string;
  before: string;
  after: string;
  change: string;
};
/** The what-if form (the month's contracts to choose from) and, when asked in the URL, its answer or its errors by field. */
export type WhatIfView = {
  fields: WhatIfFields;
  errors: Record<string, string>;
  options: { value: string; label: string }[];
  result: { summary: string; rows: WhatIfRow[]; marginChange: string; notices: string[] } | null;
};

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const monthLabel = (year: number, month: number) => `${MONTH_NAMES[month - 1]} ${year}`;
const viewOf = (t: MonthTotals, fmt: (x: number) => string): TotalsView => ({
  cost: fmt(t.costEur),
  revenue: fmt(t.revenueEur),
  margin: fmt(t.marginEur),
});

const EMPTY_WHAT_IF: Omit<WhatIfView, "options"> = { fields: { as: "", from: "", to: "", share: "100" }, errors: {}, result: null };
const signedMbps = (x: number) => `${x > 0 ? "+" : ""}${formatMbps(x)}`;

/** The what-if part: computed only when the URL asks for it (whatIfAs), on the contracts billed this month. */
async function whatIfView(
  services: Services,
  url: URL,
  year: number,
  month: number,
  bills: readonly BillRow[],
  asLabel: (asn: number) => string,
): Promise<WhatIfView> {
  const options = bills.map((b) => ({ value: String(b.id), label: `${b.contract} (${b.direction})` }));
  const parsed = parseWhatIf(url);
  if (!parsed) return { ...EMPTY_WHAT_IF, options };
  const view = { fields: parsed.fields, errors: parsed.errors, options, result: null };
  if (!parsed.ask) return view;
  const ask = parsed.ask;
  const billed = new Set(bills.map((b) => b.id));
  if (!billed.has(ask.fromId)) return { ...view, errors: { from: "Choose a contract billed this month." } };
  if (!billed.has(ask.toId)) return { ...view, errors: { to: "Choose a contract billed this month." } };
  try {
    const r = await whatIfOfMonth(services, await listContracts(services.pg.db), year, month, ask);
    const mbpsOf = (bps: number | null) => (bps === null ? null : bps / 1e6);
    const percent = `${Math.round(ask.share * 10000) / 100} %`;
    return {
      ...view,
      result: {
        summary: `${percent} of the traffic of ${asLabel(ask.asn)} on ${r.sides[0].contract} (${formatMbps(mbpsOf(r.asMeanBps))} on average) moved to ${r.sides[1].contract}: ${formatMbps(mbpsOf(r.movedMeanBps))} on average, interval by interval.`,
        rows: r.sides.map((side) => ({
          contract: side.contract,
          direction: DIRECTION_LABELS[side.direction],
          before95th: formatMbps(mbpsOf(side.before.billedBps)),
          after95th: `${formatMbps(mbpsOf(side.after.billedBps))} (${signedMbps((mbpsOf(side.after.billedBps) ?? 0) - (mbpsOf(side.before.billedBps) ?? 0))})`,
          before: formatEur(side.before.totalEur),
          after: formatEur(side.after.totalEur),
          change: signedEur(Math.round((side.after.totalEur - side.before.totalEur) * 100) / 100),
        })),
        marginChange: signedEur(r.marginChangeEur),
        notices: r.notices,
      },
    };
  } catch (error) {
    if (error instanceof WhatIfError) return { ...view, errors: { [error.field]: error.message } };
    throw error;
  }
}

/** Everything the screen shows for the URL's month (403 Response for an account that may not see prices). */
export async function loadRevenuesScreen(services: Services, user: UserContext, url: URL, now = Date.now()): Promise<RevenuesScreen> {
  const asked = parseMonthParam(url, now);
  const notices: string[] = [];
  if (!asked.valid) notices.push(`Month "${asked.asked}" is not a month YYYY-MM: showing ${monthLabel(asked.year, asked.month)}.`);
  const askedAllocation = url.searchParams.get("allocation");
  const allocation: Allocation = ALLOCATIONS.includes(askedAllocation as Allocation) ? (askedAllocation as Allocation) : "p95";
  if (askedAllocation !== null && askedAllocation !== "" && askedAllocation !== allocation)
    notices.push(`Allocation "${askedAllocation}" is not one of ${ALLOCATIONS.join(", ")}: showing ${ALLOCATION_LABELS.p95}.`);
  const prev = asked.month === 1 ? { year: asked.year - 1, month: 12 } : { year: asked.year, month: asked.month - 1 };
  const base = {
    month: monthKey(asked.year, asked.month),
    monthLabel: monthLabel(asked.year, asked.month),
    previousLabel: monthLabel(prev.year, prev.month),
    canManage: canManageContracts(user),
    allocation,
    allocations: ALLOCATIONS.map((value) => ({ value, label: ALLOCATION_LABELS[value] })),
    contracts: await loadContractsPart(services, user, url),
  };
  let data;
  let margin;
  try {
    // The margin reads the month's flows of every cost link: computed when asked for (allocation in the URL).
    if (askedAllocation !== null) {
      margin = await marginOfMonth(services, user, asked.year, asked.month, allocation, now);
      data = margin.bills;
    } else data = await revenueCostMonth(services, user, asked.year, asked.month, now);
  } catch (error) {
    if (error instanceof RevenueCostError && error.status === 403) throw new Response(error.message, { status: 403 });
    if (error instanceof RevenueCostError) {
      notices.push(`${error.message}.`.replace(/\.\.$/, "."));
      return {
        ...base,
        notices,
        bills: [],
        totals: null,
        incompleteContracts: 0,
        closed: null,
        margins: null,
        unallocated: [],
        whatIf: { ...EMPTY_WHAT_IF, options: [] },
        history: null,
      };
    }
    throw error;
  }
  const asns = [
    ...new Set([
      ...data.bills.flatMap((b) => (b.contract.partnerAsn === null ? [] : [b.contract.partnerAsn])),
      ...(margin?.rows ?? []).flatMap((r) => (r.asn === null ? [] : [r.asn])),
    ]),
  ];
  const names = asns.length ? await (await effectiveNames(services, user)).ases(asns) : new Map<string, { name: string | null }>();
  const bills: BillRow[] = data.bills.map((b) => {
    const asn = b.contract.partnerAsn;
    const name = asn === null ? null : (names.get(String(asn))?.name ?? null);
    return {
      id: b.contract.id,
      contract: b.contract.name,
      partnerAsn: asn,
      partner: asn === null ? "–" : name ? `AS${asn} ${name}` : `AS${asn}`,
      direction: b.contract.direction,
      directionLabel: DIRECTION_LABELS[b.contract.direction],
      method: b.contract.method,
      ports: b.contract.ports.join(", "),
      billed95thMbps: b.traffic.billed95thMbps,
      billed95th: formatMbps(b.traffic.billed95thMbps),
      completeness: b.traffic.completeness,
      completenessLabel: percent(b.traffic.completeness),
      incomplete: !b.traffic.complete,
      sources: b.traffic.sources.join(", "),
      totalEur: b.charges.totalEur,
      total: formatEur(b.charges.totalEur),
      perBilledMbpsEur: b.charges.perBilledMbpsEur,
      perBilledMbps: b.charges.perBilledMbpsEur === null ? "–" : `${formatEur(b.charges.perBilledMbpsEur)} per Mbit/s`,
    };
  });
  const neighbour = (asn: number | null) => {
    if (asn === null) return "Contracts without a partner AS";
    const special = SPECIAL_AS_VALUES.find((v) => v.asn === asn);
    if (special) return asn === -101 ? "Others (ASes outside the tracked set)" : special.name;
    const name = names.get(String(asn))?.name ?? null;
    return name ? `AS${asn} ${name}` : `AS${asn}`;
  };
  const margins: MarginRow[] | null = margin
    ? margin.rows.map((r) => ({
        asn: r.asn,
        neighbour: neighbour(r.asn),
        revenueEur: r.revenueEur,
        revenue: formatEur(r.revenueEur),
        costEur: r.costEur,
        cost: formatEur(r.costEur),
        marginEur: r.marginEur,
        margin: formatEur(r.marginEur),
        links: r.links.map((l) => `${l.contract} ${(l.share * 100).toFixed(1)} % (${formatEur(l.costEur)})`).join("; ") || "–",
        foldedIntoOthers: r.foldedIntoOthers,
      }))
    : null;
  const unallocated = (margin?.unallocated ?? []).map((u) => `${u.contract} (${formatEur(u.costEur)})`);
  const history =
    url.searchParams.get("history") === String(HISTORY_MONTHS)
      ? (await revenueCostHistory(services, user, asked.year, asked.month, HISTORY_MONTHS, now)).map((h): HistoryRow => ({
          key: monthKey(h.year, h.month),
          label: monthLabel(h.year, h.month),
          closed: h.closed,
          costEur: h.totals?.costEur ?? null,
          revenueEur: h.totals?.revenueEur ?? null,
          marginEur: h.totals?.marginEur ?? null,
          cost: h.totals ? formatEur(h.totals.costEur) : "–",
          revenue: h.totals ? formatEur(h.totals.revenueEur) : "–",
          margin: h.totals ? formatEur(h.totals.marginEur) : "–",
        }))
      : null;
  const whatIf = await whatIfView(services, url, asked.year, asked.month, bills, (asn) => neighbour(asn));
  if (data.incompleteContracts)
    notices.push(
      `${data.incompleteContracts} of ${bills.length} bills rest on a month under ${COMPLETE_SHARE * 100} % complete: their 95th may change with late data.`,
    );
  return {
    ...base,
    notices,
    bills,
    totals: {
      ...data.totals,
      view: viewOf(data.totals, formatEur),
      previous: viewOf(data.previous.totals, formatEur),
      change: viewOf(data.change, signedEur),
    },
    incompleteContracts: data.incompleteContracts,
    whatIf,
    history,
    margins,
    unallocated,
    closed: data.closed
      ? {
          closedAt: utcLabel(data.closed.closedAt),
          recomputedAt: data.closed.recomputedAt === null ? null : utcLabel(data.closed.recomputedAt),
          recomputedBy: data.closed.recomputedBy,
        }
      : null,
  };
}

const utcLabel = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;
