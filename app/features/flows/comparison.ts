/**
 * Comparison of the Flow Explorer table with the previous period of equal length. Pure and
 * isomorphic.
 *
 * The percentage difference is (now − previous) / previous · 100, cut off at ±1000 % (spec §9:
 * "Percentage-difference tooltips mention a cut-off of +/-1000%"): a value that appeared from
 * nothing (previous 0, now > 0) has no finite percentage and shows as the cut-off +1000 %; both 0
 * is no change (0 %).
 */

export const PERCENT_DIFFERENCE_CAP = 1000;

export type TimeRange = { start: number; end: number };

/** [start − (end − start), start): the period of equal length right before the range. */
export function previousPeriod(range: TimeRange): TimeRange {
  const length = range.end - range.start;
  return { start: range.start - length, end: range.start };
}

export type PercentDifference = { percent: number; capped: boolean };

/** The capped percentage difference of `now` against `previous` (both ≥ 0, e.g. bit/s). */
export function percentDifference(now: number, previous: number): PercentDifference {
  if (previous === 0)
    return now === 0
      ? { percent: 0, capped: false }
      : { percent: now > 0 ? PERCENT_DIFFERENCE_CAP : -PERCENT_DIFFERENCE_CAP, capped: true };
  const raw = ((now - previous) / previous) * 100;
  if (raw > PERCENT_DIFFERENCE_CAP) return { percent: PERCENT_DIFFERENCE_CAP, capped: true };
  if (raw < -PERCENT_DIFFERENCE_CAP) return { percent: -PERCENT_DIFFERENCE_CAP, capped: true };
  return { percent: raw, capped: false };
}

export type Comparison = { previousBps: number; differencePercent: number; differenceCapped: boolean };
export type Compared<R> = R & Comparison;

/**
 * Each row of the current period with its previous bit/s (0 when the value had no traffic then)
 * and the capped difference. Values only seen in the previous period have no row: the table lists
 * the current period's values; they still count in the previous total.
 */
export function compareRows<R extends { key: string; bps: number }>(
  current: readonly R[],
  previous: readonly { key: string; bps: number }[],
): Compared<R>[] {
  const before = new Map<string, number>();
  for (const p of previous) before.set(p.key, (before.get(p.key) ?? 0) + p.bps);
  return current.map((r) => {
    const previousBps = before.get(r.key) ?? 0;
    const d = percentDifference(r.bps, previousBps);
    return { ...r, previousBps, differencePercent: d.percent, differenceCapped: d.capped };
  });
}

/** The totals of both periods and their difference. */
export function compareTotals(current: readonly { bps: number }[], previous: readonly { bps: number }[]): { bps: number } & Comparison {
  const sum = (list: readonly { bps: number }[]) => list.reduce((a, r) => a + r.bps, 0);
  const bps = sum(current);
  const previousBps = sum(previous);
  const d = percentDifference(bps, previousBps);
  return { bps, previousBps, differencePercent: d.percent, differenceCapped: d.capped };
}

/** "+12.3 %", "−4.0 %", "0.0 %"; a capped value reads "≥ +1000 %" / "≤ −1000 %". */
export function formatPercentDifference(d: { differencePercent: number; differenceCapped: boolean }): string {
  const p = d.differencePercent;
  const sign = p > 0 ? "+" : p < 0 ? "−" : "";
  const body = `${sign}${Math.abs(p).toFixed(d.differenceCapped ? 0 : 1)} %`;
  if (!d.differenceCapped) return body;
  return `${p > 0 ? "≥" : "≤"} ${body}`;
}
