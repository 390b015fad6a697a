/**
 * The aggregation window of a flows range and the aggregate table it reads (shell §9). Pure and
 * isomorphic. Ranges are unix seconds, half-open [start, end).
 */
import type { TimeRange } from "~/lib/time-range";

const DAY = 86_400;

export const WINDOW_5M = 300;
export const WINDOW_15M = 900;
export const WINDOW_1H = 3600;
export const WINDOW_1D = 86_400;
export type AggregationWindow = typeof WINDOW_5M | typeof WINDOW_15M | typeof WINDOW_1H | typeof WINDOW_1D;
export type FlowsTable = "flows_5m" | "flows_1h";

/** Default aggregation window (shell §9): 5 min ≤ 1 day, 15 min up to 7 days, 1 h up to 60 days, daily from 60 days. */
export function defaultWindow(range: TimeRange): AggregationWindow {
  const seconds = range.end - range.start;
  if (seconds <= DAY) return WINDOW_5M;
  if (seconds < 7 * DAY) return WINDOW_15M;
  if (seconds < 60 * DAY) return WINDOW_1H;
  return WINDOW_1D;
}

/** The aggregate table a window reads: flows_5m for 5 and 15 minutes, flows_1h for 1 hour and daily. */
export function tableForWindow(window: AggregationWindow): FlowsTable {
  return window < WINDOW_1H ? "flows_5m" : "flows_1h";
}

/** Granularity (seconds) of a table's time column. */
export function tableGranularity(table: FlowsTable): number {
  return table === "flows_5m" ? 300 : 3600;
}

/** Aligns a range outwards to a table's granularity so no partial bucket is read. */
export function alignRange(range: TimeRange, table: FlowsTable): TimeRange {
  const g = tableGranularity(table);
  return { start: Math.floor(range.start / g) * g, end: Math.ceil(range.end / g) * g };
}
