/**
 * The default aggregation window of a range (shell §9): 5 min for 1 day or less, 15 min for 2–6
 * days, 1 hour for 7–59 days, daily for 60 days or more. Pure and isomorphic; shared by the Flow
 * Explorer (which also picks the aggregate table, features/flows/aggregation-window.ts) and the
 * planners' timeseries. Ranges are unix seconds, half-open [start, end).
 */
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
