/**
 * The bill of a contract for a calendar month, as a carrier computes it (docs/revenues-and-costs.md):
 * pure, from the 5-minute samples of the billing group's ports. The 95th is the one billing rule of
 * app/lib/billing-percentile.ts (the Border Planner's too).
 */
import { billingPercentile } from "~/lib/billing-percentile";
import { zonedWallTimeToUnix } from "~/lib/time-range";
import type { BilledDirection, BillingMethod, GroupMode } from "./contract-input";

export const SAMPLE_SECONDS = 300;
/** Mbit/s = 10^6 bit/s (shell §9: decimal factors). */
export const MBPS = 1e6;
/** A month whose samples are less complete than this is flagged. */
export const COMPLETE_SHARE = 0.99;

export type Sample = { t: number; inBytes: number; outBytes: number; source: string };
export type PortSamples = { key: string; samples: readonly Sample[] };

export type BillTerms = {
  method: BillingMethod;
  billedDirection: BilledDirection;
  groupMode: GroupMode;
  commitMbps: number;
  commitPriceEur: number;
  burstPriceEur: number;
  flatPriceEur: number;
  portFeeEur: number;
  crossConnectFeeEur: number;
  minimumFeeEur: number;
  validFrom: string;
  validTo: string | null;
  timezone: string;
};

/** The month in the billing timezone and the part of it the contract is valid in (null: not valid that month). */
export type BillingWindow = {
  start: number;
  end: number;
  daysInMonth: number;
  activeStart: number;
  activeEnd: number;
  activeDays: number;
};

const midnight = (year: number, month: number, day: number, tz: string) =>
  zonedWallTimeToUnix({ year, month, day, hour: 0, minute: 0, second: 0 }, tz);

function dayParts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split("-").map(Number);
  return [y, m, d];
}

/** Days from 1970-01-01 of a calendar day (for counting calendar days, whatever the zone's DST). */
const dayNumber = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000;

export function billingWindow(
  terms: Pick<BillTerms, "validFrom" | "validTo" | "timezone">,
  year: number,
  month: number,
): BillingWindow | null {
  const tz = terms.timezone;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const first = dayNumber(year, month, 1);
  const last = first + daysInMonth - 1;
  const from = dayNumber(...dayParts(terms.validFrom));
  const to = terms.validTo === null ? Infinity : dayNumber(...dayParts(terms.validTo));
  const activeFirst = Math.max(first, from);
  const activeLast = Math.min(last, to);
  if (activeLast < activeFirst) return null;
  const wall = (dayNo: number) => {
    const d = new Date(dayNo * 86_400_000);
    return midnight(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), tz);
  };
  return {
    start: wall(first),
    end: wall(last + 1),
    daysInMonth,
    activeStart: wall(activeFirst),
    activeEnd: wall(activeLast + 1),
    activeDays: activeLast - activeFirst + 1,
  };
}

export type TrafficFigures = {
  /** The 95th of in, of out and of in + out (aggregate: of the summed series; per port: the sum of the ports' figures), bit/s. */
  inP95Bps: number | null;
  outP95Bps: number | null;
  sumP95Bps: number | null;
  /** The billed 95th by the contract's billed direction, bit/s. */
  billedBps: number | null;
  /** The mean rate of the billed direction over the samples present, bit/s. */
  meanBps: number | null;
  samples: number;
  expected: number;
  /** samples ÷ expected (0–1). */
  completeness: number;
  complete: boolean;
  sources: string[];
};

type Direction = { inP95: number | null; outP95: number | null; sumP95: number | null; billed: number | null; mean: number | null };

const rate = (bytes: number) => (bytes * 8) / SAMPLE_SECONDS;

/** The figures of one series (one port, or the summed ports). */
function ofSeries(series: readonly { inBytes: number; outBytes: number }[], direction: BilledDirection): Direction {
  if (!series.length) return { inP95: null, outP95: null, sumP95: null, billed: null, mean: null };
  const inP95 = rate(billingPercentile(series.map((s) => s.inBytes))!);
  const outP95 = rate(billingPercentile(series.map((s) => s.outBytes))!);
  const sumP95 = rate(billingPercentile(series.map((s) => s.inBytes + s.outBytes))!);
  let inTotal = 0;
  let outTotal = 0;
  for (const s of series) {
    inTotal += s.inBytes;
    outTotal += s.outBytes;
  }
  const meanIn = rate(inTotal / series.length);
  const meanOut = rate(outTotal / series.length);
  const billed = direction === "in" ? inP95 : direction === "out" ? outP95 : direction === "sum" ? sumP95 : Math.max(inP95, outP95);
  const mean =
    direction === "in" ? meanIn : direction === "out" ? meanOut : direction === "sum" ? meanIn + meanOut : Math.max(meanIn, meanOut);
  return { inP95, outP95, sumP95, billed, mean };
}

const addNullable = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);

/** The month's traffic figures of a billing group inside the window's valid part. */
export function trafficFigures(
  ports: readonly PortSamples[],
  terms: Pick<BillTerms, "billedDirection" | "groupMode">,
  window: BillingWindow,
  /** Unix seconds: the samples expected end here (the month still running), not at the window's end. */
  now: number = Infinity,
): TrafficFigures {
  const inWindow = (s: Sample) => s.t >= window.activeStart && s.t < window.activeEnd;
  const perPort = ports.map((p) => p.samples.filter(inWindow));
  // Only the intervals already over are expected: a month still running is complete so far.
  const expectedEnd = Math.min(window.activeEnd, Math.floor(now / SAMPLE_SECONDS) * SAMPLE_SECONDS);
  const intervals = Math.max(0, Math.round((expectedEnd - window.activeStart) / SAMPLE_SECONDS));
  const sources = [...new Set(perPort.flat().map((s) => s.source))].sort();
  let d: Direction;
  let samples: number;
  let expected: number;
  if (terms.groupMode === "aggregate") {
    const summed = new Map<number, { inBytes: number; outBytes: number }>();
    for (const list of perPort)
      for (const s of list) {
        const at = summed.get(s.t) ?? { inBytes: 0, outBytes: 0 };
        at.inBytes += s.inBytes;
        at.outBytes += s.outBytes;
        summed.set(s.t, at);
      }
    d = ofSeries([...summed.values()], terms.billedDirection);
    // An interval counts as present when every port has its sample.
    const counts = new Map<number, number>();
    for (const list of perPort) for (const s of list) counts.set(s.t, (counts.get(s.t) ?? 0) + 1);
    samples = [...counts.values()].filter((n) => n === ports.length).length;
    expected = intervals;
  } else {
    d = { inP95: null, outP95: null, sumP95: null, billed: null, mean: null };
    for (const list of perPort) {
      const p = ofSeries(list, terms.billedDirection);
      d = {
        inP95: addNullable(d.inP95, p.inP95),
        outP95: addNullable(d.outP95, p.outP95),
        sumP95: addNullable(d.sumP95, p.sumP95),
        billed: addNullable(d.billed, p.billed),
        mean: addNullable(d.mean, p.mean),
      };
    }
    samples = perPort.reduce((n, list) => n + list.length, 0);
    expected = intervals * ports.length;
  }
  const completeness = expected > 0 ? Math.min(1, samples / expected) : 0;
  return {
    inP95Bps: d.inP95,
    outP95Bps: d.outP95,
    sumP95Bps: d.sumP95,
    billedBps: d.billed,
    meanBps: d.mean,
    samples,
    expected,
    completeness,
    complete: completeness >= COMPLETE_SHARE,
    sources,
  };
}

export type Charges = {
  /** activeDays ÷ daysInMonth: the share of the month the contract is valid. */
  proration: number;
  commitEur: number;
  burstEur: number;
  flatEur: number;
  feesEur: number;
  /** What the minimum fee added to reach it. */
  minimumTopUpEur: number;
  totalEur: number;
  /** total ÷ billed 95th in Mbit/s, and total ÷ the mean rate carried in Mbit/s (null when that rate is 0 or unknown). */
  perBilledMbpsEur: number | null;
  perCarriedMbpsEur: number | null;
  burstMbps: number;
};

const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * The charges: Max 95th = commit × commit price + max(0, billed − commit) × burst price; Flatrate = the
 * flat price; free = nothing; plus the port and cross-connect fees; at least the minimum fee. The commit,
 * the flat price, the fees and the minimum are prorated by the calendar days of validity; the burst is
 * what the month's (or the valid part's) 95th exceeds the commit by.
 */
export function chargesOf(terms: BillTerms, traffic: Pick<TrafficFigures, "billedBps" | "meanBps">, window: BillingWindow): Charges {
  const f = window.activeDays / window.daysInMonth;
  const billedMbps = (traffic.billedBps ?? 0) / MBPS;
  const maxMethod = terms.method === "Max 95th";
  const commitEur = maxMethod ? terms.commitMbps * terms.commitPriceEur * f : 0;
  const burstMbps = maxMethod ? Math.max(0, billedMbps - terms.commitMbps) : 0;
  const burstEur = burstMbps * terms.burstPriceEur;
  const flatEur = terms.method === "Flatrate" ? terms.flatPriceEur * f : 0;
  const feesEur = (terms.portFeeEur + terms.crossConnectFeeEur) * f;
  const subtotal = commitEur + burstEur + flatEur + feesEur;
  const minimum = terms.minimumFeeEur * f;
  const minimumTopUpEur = Math.max(0, minimum - subtotal);
  const totalEur = cents(subtotal + minimumTopUpEur);
  const meanMbps = (traffic.meanBps ?? 0) / MBPS;
  return {
    proration: f,
    commitEur: cents(commitEur),
    burstEur: cents(burstEur),
    flatEur: cents(flatEur),
    feesEur: cents(feesEur),
    minimumTopUpEur: cents(minimumTopUpEur),
    totalEur,
    perBilledMbpsEur: billedMbps > 0 ? totalEur / billedMbps : null,
    perCarriedMbpsEur: meanMbps > 0 ? totalEur / meanMbps : null,
    burstMbps,
  };
}
