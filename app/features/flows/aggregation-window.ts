/**
 * The aggregation window of a flows range and the aggregate table it reads (shell §9). Pure and
 * isomorphic. Ranges are unix seconds, half-open [start, end).
 */
import type { TimeRange } from "~/lib/time-range";
import { WINDOW_1H, type AggregationWindow } from "~/lib/aggregation-window";

// The window itself is shared with the planners (app/lib); the table it reads is the Flow Explorer's.
export { defaultWindow, WINDOW_15M, WINDOW_1D, WINDOW_1H, WINDOW_5M, type AggregationWindow } from "~/lib/aggregation-window";
export type FlowsTable = "flows_5m" | "flows_1h";

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
