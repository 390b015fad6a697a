/**
 * The seasonal baseline's band around a bucketed series: the expected value of a bucket (the
 * seasonal model's prediction, forecast-seasonal.ts) and how far the traffic normally strays from
 * it. Pure and isomorphic; built only on forecast-seasonal.ts's exports so that one band function
 * can serve every screen that needs one.
 *
 * The spread is measured on the history itself: the last `checkBuckets` buckets of the history are
 * predicted from the history before each of them (the same model, so the same slot of previous
 * weeks), and the spread is 1.4826 × the median absolute error of those predictions (the robust
 * estimate of a standard deviation: one-off spikes in the checked buckets hardly move it). A band of
 * factor k is [expected − k × spread, expected + k × spread], never below 0.
 */
import { seasonalPrediction, type BucketHistory } from "./forecast-seasonal";

/** Buckets at the end of the history whose prediction errors measure the spread (a day of 5-minute buckets). */
export const BAND_CHECK_BUCKETS = 288;
/** The smallest spread, as a fraction of the expected value: a perfectly regular history still has a band. */
export const BAND_MIN_SPREAD_FRACTION = 0.02;
const MAD_TO_SD = 1.4826;

export type SeasonalBand = {
  /** The expected value of the target bucket. */
  expected: number;
  /** One unit of normal deviation (see the module's comment). */
  spread: number;
  model: "seasonal" | "trend";
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const present = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

/**
 * The band of the bucket starting at `target` (on the history's grid, after its end), or null when
 * the model has nothing to predict from (fewer than two known values).
 */
export function seasonalBand(
  history: BucketHistory,
  target: number,
  options: { checkBuckets?: number } = {},
): SeasonalBand | null {
  const prediction = seasonalPrediction(history, [target]);
  if (!prediction) return null;
  const expected = prediction.values[0];
  const n = history.values.length;
  const check = Math.min(options.checkBuckets ?? BAND_CHECK_BUCKETS, Math.max(0, n - 2));
  const errors: number[] = [];
  // One prediction of all checked buckets from the history before the first of them: the model
  // reads only previous weeks' slots, so for a seasonal history this is each bucket's own prediction.
  if (check > 0) {
    const before: BucketHistory = { start: history.start, step: history.step, values: history.values.slice(0, n - check) };
    const targets = Array.from({ length: check }, (_, i) => history.start + (n - check + i) * history.step);
    const checked = seasonalPrediction(before, targets);
    if (checked)
      targets.forEach((_, i) => {
        const actual = history.values[n - check + i];
        if (present(actual)) errors.push(Math.abs(actual - checked.values[i]));
      });
  }
  const measured = errors.length ? MAD_TO_SD * median(errors) : 0;
  const spread = Math.max(measured, BAND_MIN_SPREAD_FRACTION * expected);
  return { expected, spread, model: prediction.model };
}

/** The band's limits for a factor k (never below 0). */
export function bandLimits(band: SeasonalBand, factor: number): { low: number; high: number } {
  return { low: Math.max(0, band.expected - factor * band.spread), high: band.expected + factor * band.spread };
}
