/**
 * When a flows view says that its range was adjusted to the data, and which aggregation window it
 * uses. Pure and isomorphic.
 *
 * A preset ends "now", and the newest bucket of the aggregates is always a little older: data
 * arrive in 5-minute buckets and the hourly table trails by up to an hour. An end cut by at most
 * two buckets of the view's window, and never less than 15 minutes, is that routine lag: no
 * notice, and the view keeps the window of the range as requested (so "Last 7 days" reads hourly
 * buckets as the spec's §9 says, not the 15-minute ones of a range a few minutes shorter). A
 * larger gap, a moved start or a range without data is worth saying.
 */
import { formatDateLong, fromUnixSeconds } from "~/lib/date-format";
import type { ClampResult, TimeRange } from "~/lib/time-range";
import { defaultWindow, type AggregationWindow } from "./aggregation-window";

export const ROUTINE_LAG_MIN_SECONDS = 15 * 60;
export const ROUTINE_LAG_BUCKETS = 2;

type Adjusted = Pick<ClampResult, "start" | "end" | "adjusted"> & { requested: TimeRange };

/** The lag of the newest data that counts as routine for a window. */
export function routineLag(window: number): number {
  return Math.max(ROUTINE_LAG_MIN_SECONDS, ROUTINE_LAG_BUCKETS * window);
}

/** Whether the end was cut by no more than the routine lag (the start may have moved as well). */
function endCutIsRoutine(range: Adjusted, window: number): boolean {
  return range.requested.end - range.end <= routineLag(window);
}

/**
 * The default window of a resolved range: the requested range's when only the routine lag cut its
 * end, the clamped range's otherwise.
 */
export function viewWindow(range: Adjusted): AggregationWindow {
  const requested = defaultWindow(range.requested);
  return range.adjusted === "end-clamped" && endCutIsRoutine(range, requested) ? requested : defaultWindow(range);
}

/** The notice of an adjusted range, in the spec's words where it has them; null when nothing worth saying happened. */
export function rangeNotice(range: Adjusted, window: number, tz: string): string | null {
  const at = (ts: number) => formatDateLong(fromUnixSeconds(ts), tz);
  switch (range.adjusted) {
    case "none":
      return null;
    case "last-30-minutes":
      return `No data for the chosen start or end: the time range is set to the last 30 minutes of data (${at(range.start)} – ${at(range.end)}).`;
    case "start-moved":
      return `Start date unavailable: the range starts at the first data, ${at(range.start)} (requested ${at(range.requested.start)}).`;
    case "end-clamped":
      return endCutIsRoutine(range, window) ? null : endNotice(range, at);
    case "start-moved-end-clamped": {
      const start = `Start date unavailable: the range starts at the first data, ${at(range.start)} (requested ${at(range.requested.start)}).`;
      return endCutIsRoutine(range, window) ? start : `${start} ${endNotice(range, at)}`;
    }
  }
}

function endNotice(range: Adjusted, at: (ts: number) => string): string {
  return `The newest flow data ends at ${at(range.end)}; the range ends there (requested ${at(range.requested.end)}).`;
}
