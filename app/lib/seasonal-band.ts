/**
 * The alert rules' band around one bucket: the root-cause analysis's seasonal band (seasonalBand of
 * forecast-seasonal.ts: the prediction's median of the same hour-of-week slots of the previous weeks,
 * and the lowest and highest of those slots) — one band function for both — widened by a rule's factor
 * around the expected value. Pure and isomorphic.
 *
 * A factor k puts the limits at expected − k × (expected − lowest) and expected + k × (highest −
 * expected), never below 0: k = 1 is "outside what the previous weeks did in this slot". A side whose
 * previous weeks were all equal still gets BAND_MIN_SPREAD_FRACTION of the expected value, so a
 * perfectly regular history does not trigger on the smallest change.
 */
import { seasonalBand, type BucketHistory } from "./forecast-seasonal";

/** The smallest half-width of each side of the band, as a fraction of the expected value. */
export const BAND_MIN_SPREAD_FRACTION = 0.02;

export type AlertBand = {
  /** The expected value of the target bucket (the seasonal baseline). */
  expected: number;
  /** How far below and above the expected value the previous weeks went (at least the minimum spread). */
  below: number;
  above: number;
  /** How many previous weeks had a value in the slot. */
  weeks: number;
};

/**
 * The band of the bucket starting at `target` (on the history's grid, after its end), or null when
 * there is no seasonal baseline for it (less than a week of history, or no previous week's slot known).
 */
export function alertBand(history: BucketHistory, target: number): AlertBand | null {
  const band = seasonalBand(history, [target]);
  const point = band?.points[0];
  if (!point || point.samples === 0) return null;
  const floor = BAND_MIN_SPREAD_FRACTION * point.value;
  return {
    expected: point.value,
    below: Math.max(point.value - point.low, floor),
    above: Math.max(point.high - point.value, floor),
    weeks: point.samples,
  };
}

/** The band's limits for a factor k (never below 0). */
export function bandLimits(band: AlertBand, factor: number): { low: number; high: number } {
  return { low: Math.max(0, band.expected - factor * band.below), high: band.expected + factor * band.above };
}
