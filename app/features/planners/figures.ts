/**
 * The planners' figures from 5-minute samples (docs/planners.md defines each one). Pure: the
 * service feeds it what ClickHouse summed, and the tests use it as the reference when the SQL path
 * is what they check.
 *
 * Bytes, not bps, are compared and summed wherever a choice is made (peak hour, 95th), so ties are
 * exact and the result does not depend on floating-point order.
 */
import { billingPercentile } from "~/lib/billing-percentile";
import type { DailyPeak, Direction, DirectionFigures, LinkStatus, Rate } from "./types";

export const SAMPLE_SECONDS = 300;
export const QUARTER_SECONDS = 900;
/** Quarters in the peak hour. */
export const PEAK_QUARTERS = 4;
/** 5-minute samples a quarter needs to count (interpolated samples count as present). */
export const SAMPLES_PER_QUARTER = QUARTER_SECONDS / SAMPLE_SECONDS;
/** Shell §5 "The timerange must be small enough for the daily maximum utilization heatmap": beyond this many days it is refused. */
export const MAX_HEATMAP_DAYS = 62;

/** Utilisation of a rate; null when the capacity is unknown or 0. */
export function utilisationOf(bps: number, capacityBps: number | null): number | null {
  return capacityBps && capacityBps > 0 ? bps / capacityBps : null;
}

/** Utilisation of one 5-minute sample: bytes·8/300/capacity. */
export function sampleUtilisation(bytes: number, capacityBps: number | null): number | null {
  return utilisationOf((bytes * 8) / SAMPLE_SECONDS, capacityBps);
}

export const rateOf = (bps: number, capacityBps: number | null): Rate => ({ bps, utilisation: utilisationOf(bps, capacityBps) });

/** A calendar day in a timezone, as the UTC instants [start, end) it covers inside the range. */
export type LocalDay = { day: string; start: number; end: number };

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
/** YYYY-MM-DD of an instant in an IANA timezone. */
export function localDay(time: number, timezone: string): string {
  let format = dayFormatters.get(timezone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormatters.set(timezone, format);
  }
  return format.format(new Date(time * 1000));
}

/**
 * The calendar days (in `timezone`) the range [start, end) touches, each clipped to the range.
 * Local midnights fall on quarter hours in every zone in use today (offsets are multiples of 15
 * minutes), so stepping by quarters finds them exactly, DST days included.
 */
export function daysOfRange(range: { start: number; end: number }, timezone: string): LocalDay[] {
  const days: LocalDay[] = [];
  if (range.end <= range.start) return days;
  let current: LocalDay = { day: localDay(range.start, timezone), start: range.start, end: range.end };
  for (let t = Math.floor(range.start / QUARTER_SECONDS) * QUARTER_SECONDS + QUARTER_SECONDS; t < range.end; t += QUARTER_SECONDS) {
    const day = localDay(t, timezone);
    if (day !== current.day) {
      days.push({ ...current, end: t });
      current = { day, start: t, end: range.end };
    }
  }
  days.push(current);
  return days;
}

/** Index of the day holding `time` (days in order, contiguous), -1 outside. */
export function dayIndex(days: readonly LocalDay[], time: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (time < days[mid].start) hi = mid - 1;
    else if (time >= days[mid].end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** One 5-minute sample of a link (one source already chosen). */
export type Sample = { time: number; inBytes: number; outBytes: number };
/** A quarter hour [start, start + 900): bytes summed over its samples, and how many there were. */
export type Quarter = { start: number; inBytes: number; outBytes: number; samples: number };

/** Sums samples into quarter hours aligned to multiples of 900 s (what the SQL builder does in ClickHouse). */
export function quartersOf(samples: readonly Sample[]): Quarter[] {
  const byStart = new Map<number, Quarter>();
  for (const s of samples) {
    const start = Math.floor(s.time / QUARTER_SECONDS) * QUARTER_SECONDS;
    const q = byStart.get(start) ?? { start, inBytes: 0, outBytes: 0, samples: 0 };
    q.inBytes += s.inBytes;
    q.outBytes += s.outBytes;
    q.samples += 1;
    byStart.set(start, q);
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

const bytesOf = (q: Quarter, direction: Direction) => (direction === "in" ? q.inBytes : q.outBytes);

/**
 * Peak-hour daily values of one direction: per day, the window of 4 consecutive complete quarters
 * inside the day with the most bytes (the earliest on a tie); its mean in bps. A day without such
 * a window has value null.
 */
export function dailyPeakHours(
  quarters: readonly Quarter[],
  days: readonly LocalDay[],
  capacityBps: number | null,
  direction: Direction,
): DailyPeak[] {
  const complete = new Map<number, number>();
  for (const q of quarters) if (q.samples >= SAMPLES_PER_QUARTER) complete.set(q.start, bytesOf(q, direction));
  const best: { start: number; bytes: number }[] = days.map(() => ({ start: -1, bytes: -1 }));
  for (const [start, first] of complete) {
    const d = dayIndex(days, start);
    if (d < 0) continue;
    let bytes = first;
    let whole = true;
    for (let i = 1; i < PEAK_QUARTERS && whole; i++) {
      const t = start + i * QUARTER_SECONDS;
      const b = complete.get(t);
      if (b === undefined || t >= days[d].end) whole = false;
      else bytes += b;
    }
    if (!whole) continue;
    const current = best[d];
    if (bytes > current.bytes || (bytes === current.bytes && start < current.start)) best[d] = { start, bytes };
  }
  return days.map(({ day }, i) => {
    const { start, bytes } = best[i];
    if (start < 0) return { day, windowStart: null, bps: null, utilisation: null };
    const bps = (bytes * 8) / (PEAK_QUARTERS * QUARTER_SECONDS);
    return { day, windowStart: start, bps, utilisation: utilisationOf(bps, capacityBps) };
  });
}

/** The day with the highest value (the earliest on a tie); null without any. */
export function maxDailyOf(daily: readonly DailyPeak[], capacityBps: number | null): DirectionFigures["maxDaily"] {
  let best: DailyPeak | null = null;
  for (const d of daily) if (d.bps !== null && (best === null || d.bps > (best.bps ?? -1))) best = d;
  return best && best.bps !== null ? { day: best.day, ...rateOf(best.bps, capacityBps) } : null;
}

/** The billing 95th percentile (app/lib/billing-percentile.ts, the rule Revenues & Costs bills with). */
export { billingPercentile };

/** The 95th of 5-minute byte counts as a rate. */
export function p95OfSamples(bytes: readonly number[], capacityBps: number | null): Rate | null {
  const b = billingPercentile(bytes);
  return b === null ? null : rateOf((b * 8) / SAMPLE_SECONDS, capacityBps);
}

/** The billed 95th: the higher of in and out. */
export function billedOf(inP95: Rate | null, outP95: Rate | null): Rate | null {
  if (!inP95) return outP95;
  if (!outP95) return inP95;
  return outP95.bps > inP95.bps ? outP95 : inP95;
}

/** Highest daily utilisation of either direction; null without any. */
export function maxDailyUtilisation(...series: readonly (readonly DailyPeak[])[]): number | null {
  let max: number | null = null;
  for (const daily of series)
    for (const d of daily) if (d.utilisation !== null && (max === null || d.utilisation > max)) max = d.utilisation;
  return max;
}

/** Per day, the higher utilisation of the directions (null when neither has one): the forecast's input. */
export function dailyMaxOfDirections(inDaily: readonly DailyPeak[], outDaily: readonly DailyPeak[]): (number | null)[] {
  return inDaily.map((d, i) => {
    const a = d.utilisation;
    const b = outDaily[i]?.utilisation ?? null;
    return a === null ? b : b === null ? a : Math.max(a, b);
  });
}

/** Status against the user's thresholds (fractions). */
export function linkStatus(maxDaily: number | null, thresholds: { medium: number; high: number }): LinkStatus {
  if (maxDaily === null) return "no data";
  if (maxDaily >= thresholds.high) return "high";
  if (maxDaily >= thresholds.medium) return "medium";
  return "normal";
}

/**
 * Heatmap reference: per day, the maximum 5-minute utilisation of either direction (null for a
 * day without samples or with an unknown capacity).
 */
export function dailyMaxSampleUtilisation(
  samples: readonly Sample[],
  days: readonly LocalDay[],
  capacityBps: number | null,
): (number | null)[] {
  const maxBytes: number[] = days.map(() => -1);
  for (const s of samples) {
    const d = dayIndex(days, s.time);
    if (d >= 0) maxBytes[d] = Math.max(maxBytes[d], s.inBytes, s.outBytes);
  }
  return maxBytes.map((b) => (b < 0 ? null : sampleUtilisation(b, capacityBps)));
}

/** Whether a range is short enough for the heatmap (at most MAX_HEATMAP_DAYS calendar days). */
export function heatmapAllowed(days: readonly LocalDay[]): boolean {
  return days.length <= MAX_HEATMAP_DAYS;
}
