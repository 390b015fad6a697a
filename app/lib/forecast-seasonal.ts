/**
 * Seasonal forecasting of a bucketed time series (the Flow Explorer's prediction), built on the
 * Theil–Sen fit of forecast.ts. Pure and isomorphic.
 *
 * Model: the prediction for a future bucket t is the median, over the same hour-of-week slot of
 * the previous weeks of the history (t − 1 week, t − 2 weeks, … the most recent `weeks` of them),
 * of each slot's value moved forward by the trend: value(t − k weeks) + k × slope, where the slope
 * is the Theil–Sen slope of the weekly levels (the mean of each complete week of the history,
 * counted back from its end). Never below 0.
 *
 * The median rather than the mean of the slots: traffic has one-off weeks (an outage, a DDoS, a
 * holiday) and, as with Theil–Sen, the median of three or four slots hardly moves for one of them
 * while the mean moves by a quarter to a third of it.
 *
 * With less than one week of history there is no previous week to read: the prediction is the
 * Theil–Sen line of the history alone (trendPrediction).
 */
import { theilSen } from "./forecast";

export const WEEK_SECONDS = 7 * 86_400;
/** Same-slot values of at most this many previous weeks are combined. */
export const SEASONAL_WEEKS = 4;
/**
 * The trend-only line is fitted to at most this many points (means of consecutive buckets):
 * Theil–Sen compares every pair, and a week of 5-minute buckets would be two million pairs.
 */
export const TREND_MAX_POINTS = 168;

/** A bucketed history: values[i] is the value of the bucket starting at start + i × step (null: unknown). */
export type BucketHistory = { start: number; step: number; values: readonly (number | null)[] };

export type PredictionModel = "seasonal" | "trend";

export type SeriesPrediction = {
  model: PredictionModel;
  /** One value per target bucket, never below 0. */
  values: number[];
  /** Seasonal: the Theil–Sen change of the weekly level per week (0 with a single complete week). */
  slopePerWeek: number | null;
  /** Seasonal: complete weeks of history (weekly levels). */
  weeks: number;
};

const present = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function checkHistory(history: BucketHistory): void {
  if (!(history.step > 0) || !Number.isInteger(history.step)) throw new Error("The history's step must be a positive integer");
}

/**
 * The Theil–Sen line of the history evaluated at each target bucket (start times), never below 0;
 * null with fewer than two known values. Fitted to means of equal groups of consecutive buckets
 * (TREND_MAX_POINTS at most; the oldest buckets that do not fill a group are left out).
 */
export function trendPrediction(history: BucketHistory, targets: readonly number[]): number[] | null {
  checkHistory(history);
  const n = history.values.length;
  const size = Math.max(1, Math.ceil(n / TREND_MAX_POINTS));
  const groups = Math.floor(n / size);
  const offset = n - groups * size;
  const means: (number | null)[] = [];
  for (let g = 0; g < groups; g++) {
    const known = history.values.slice(offset + g * size, offset + (g + 1) * size).filter(present);
    means.push(known.length ? known.reduce((a, b) => a + b, 0) / known.length : null);
  }
  const fit = theilSen(means);
  if (!fit) return null;
  // Group g stands for the middle of its buckets: bucket index offset + g·size + (size − 1)/2.
  return targets.map((t) => {
    const index = (t - history.start) / history.step;
    const x = (index - offset - (size - 1) / 2) / size;
    return Math.max(0, fit.intercept + fit.slope * x);
  });
}

/**
 * The weekly levels of the history, oldest first: the mean of the known values of each complete
 * week counted back from the history's end (null for a week without any).
 */
export function weeklyLevels(history: BucketHistory): (number | null)[] {
  checkHistory(history);
  const perWeek = WEEK_SECONDS / history.step;
  if (!Number.isInteger(perWeek)) throw new Error("The history's step must divide a week");
  const n = history.values.length;
  const weeks = Math.floor(n / perWeek);
  const levels: (number | null)[] = [];
  for (let w = weeks; w >= 1; w--) {
    const known = history.values.slice(n - w * perWeek, n - (w - 1) * perWeek).filter(present);
    levels.push(known.length ? known.reduce((a, b) => a + b, 0) / known.length : null);
  }
  return levels;
}

/**
 * The trend-adjusted values of the target's hour-of-week slot in the previous weeks, newest first:
 * value(t − k weeks) + k × slope, back week by week until `weeks` known slots or the history's start.
 */
function slotSamples(history: BucketHistory, t: number, weeks: number, slope: number): number[] {
  const samples: number[] = [];
  for (let k = 1; samples.length < weeks && t - k * WEEK_SECONDS >= history.start; k++) {
    const index = (t - k * WEEK_SECONDS - history.start) / history.step;
    const value = Number.isInteger(index) ? history.values[index] : undefined;
    if (present(value)) samples.push(value + k * slope);
  }
  return samples;
}

/** The seasonal baseline of one target bucket with its band (see seasonalBand). */
export type BandPoint = {
  /** The seasonal prediction (median of the trend-adjusted slots), never below 0. */
  value: number;
  /** The lowest and highest trend-adjusted slot value (never below 0): the spread of the previous weeks. */
  low: number;
  high: number;
  /** How many previous weeks had a value in this slot (0: no baseline for the bucket). */
  samples: number;
};

/**
 * The seasonal baseline of each target bucket with its band, by the same model as
 * seasonalPrediction (the median of the same hour-of-week slots of the previous `weeks` weeks, moved
 * by the Theil–Sen trend of the weekly levels): value is what seasonalPrediction predicts where a
 * slot is known, and the band runs from the lowest to the highest of those slot values. A bucket
 * without any known slot has samples 0 and value, low and high 0. Null without a complete week of
 * history (no previous week to read: no seasonal baseline). Used by root-cause analysis and meant
 * for alerting.
 */
export function seasonalBand(
  history: BucketHistory,
  targets: readonly number[],
  options: { weeks?: number } = {},
): { points: BandPoint[]; slopePerWeek: number; weeks: number } | null {
  checkHistory(history);
  const weeks = options.weeks ?? SEASONAL_WEEKS;
  const levels = history.values.length * history.step >= WEEK_SECONDS ? weeklyLevels(history) : [];
  if (!levels.length) return null;
  const slope = theilSen(levels)?.slope ?? 0;
  const points = targets.map((t) => {
    const samples = slotSamples(history, t, weeks, slope);
    if (!samples.length) return { value: 0, low: 0, high: 0, samples: 0 };
    return {
      value: Math.max(0, median(samples)),
      low: Math.max(0, Math.min(...samples)),
      high: Math.max(0, Math.max(...samples)),
      samples: samples.length,
    };
  });
  return { points, slopePerWeek: slope, weeks: levels.length };
}

/**
 * The prediction of each target bucket (start times, on the history's grid, after its start):
 * seasonal with at least one week of history, the trend alone otherwise (see the module's comment).
 * Null when not even a trend can be fitted (fewer than two known values).
 */
export function seasonalPrediction(
  history: BucketHistory,
  targets: readonly number[],
  options: { weeks?: number } = {},
): SeriesPrediction | null {
  checkHistory(history);
  const weeks = options.weeks ?? SEASONAL_WEEKS;
  const levels = history.values.length * history.step >= WEEK_SECONDS ? weeklyLevels(history) : [];
  if (!levels.length) {
    const values = trendPrediction(history, targets);
    return values ? { model: "trend", values, slopePerWeek: null, weeks: 0 } : null;
  }
  const slope = theilSen(levels)?.slope ?? 0;
  let fallback: number[] | null | undefined;
  const values = targets.map((t, i) => {
    const samples = slotSamples(history, t, weeks, slope);
    if (samples.length) return Math.max(0, median(samples));
    // No slot of any previous week is known (a gap in the history): the trend line there.
    fallback ??= trendPrediction(history, targets);
    return fallback ? fallback[i] : 0;
  });
  return { model: "seasonal", values, slopePerWeek: slope, weeks: levels.length };
}

/**
 * Symmetric mean absolute percentage error (fraction, 0–2) of predictions against actual values:
 * mean of |p − a| / ((|p| + |a|) / 2), pairs where both are 0 counting as exact.
 */
export function smape(predicted: readonly number[], actual: readonly number[]): number {
  if (predicted.length !== actual.length || !actual.length) throw new Error("smape needs two series of the same, non-zero length");
  let sum = 0;
  predicted.forEach((p, i) => {
    const a = actual[i];
    const scale = (Math.abs(p) + Math.abs(a)) / 2;
    sum += scale === 0 ? 0 : Math.abs(p - a) / scale;
  });
  return sum / actual.length;
}
