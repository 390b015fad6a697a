/**
 * The default aggregation window of a range (shell §9): 5 min for 1 day or less, 15 min for 2–6
 * days, 1 hour for 7–59 days, daily for 60 days or more. Pure and isomorphic; shared by the Flow
 * Explorer (which also picks the aggregate table, features/flows/aggregation-window.ts) and the
 * planners' timeseries. Ranges are unix seconds, half-open [start, end).
 */
import { formatUnix } from "./date-format";
import type { TimeRange } from "./time-range";

const DAY = 86_400;

export const WINDOW_5M = 300;
export const WINDOW_15M = 900;
export const WINDOW_1H = 3600;
export const WINDOW_1D = 86_400;
export type AggregationWindow = typeof WINDOW_5M | typeof WINDOW_15M | typeof WINDOW_1H | typeof WINDOW_1D;

/** Default aggregation window (shell §9): 5 min ≤ 1 day, 15 min up to 7 days, 1 h up to 60 days, daily from 60 days. */
export function defaultWindow(range: TimeRange): AggregationWindow {
  const seconds = range.end - range.start;
  if (seconds <= DAY) return WINDOW_5M;
  if (seconds < 7 * DAY) return WINDOW_15M;
  if (seconds < 60 * DAY) return WINDOW_1H;
  return WINDOW_1D;
}

/**
 * What a timeseries knows to tell its complete buckets: `start`, the first moment the query read
 * (a bucket starting earlier misses its beginning), `end`, the end of the range (a bucket running
 * past it misses its end: after the range, or after the newest data when the range was clamped to
 * it), the bucket width, and `now` (a bucket still running is still being measured).
 */
export type BucketBounds = { start: number; end: number; window: number; now: number };

/**
 * Whether the bucket starting at `bucket` holds its whole window: it lies inside [start, end) and
 * has ended by `now`. An incomplete bucket's sum (or mean over part of a day) would be drawn as a
 * drop in traffic; every timeseries asks this one rule (the charts leave such buckets out, the
 * tables and exports say which they are).
 */
export function isCompleteBucket(bucket: number, b: BucketBounds): boolean {
  return bucket >= b.start && bucket + b.window <= Math.min(b.end, b.now);
}

/** isCompleteBucket for every bucket of a timeseries, in its order. */
export function completeBuckets(buckets: readonly number[], b: BucketBounds): boolean[] {
  return buckets.map((bucket) => isCompleteBucket(bucket, b));
}

/**
 * What a chart says of the buckets it leaves out, beside it and in its text alternative: null when
 * every bucket is complete, else e.g. "The bucket from 01.12.2026 14:00 is not complete and is not
 * drawn." (the Flow Explorer's detailed table and exports still list it, marked).
 */
export function incompleteBucketsWords(buckets: readonly number[], complete: readonly boolean[] | undefined, tz: string): string | null {
  const left = complete ? buckets.filter((_, i) => !complete[i]) : [];
  if (!left.length) return null;
  const at = left.map((b) => formatUnix(b, tz)).join(" and ");
  return left.length === 1
    ? `The bucket from ${at} is not complete and is not drawn.`
    : `The buckets from ${at} are not complete and are not drawn.`;
}
