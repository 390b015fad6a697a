/**
 * The Flow Explorer's table over the previous period of equal length: the same dimension, filters
 * (with the user's locked restrictions, as resolved once for the current period), IP version, scope and window,
 * over [start − (end − start), start) of the current range aligned to the table read.
 *
 * Unlike the current range, the previous period is NOT clamped to the data: its bit/s are averages
 * over exactly the same length, so time without data counts as no traffic (`covered` says whether
 * the data reach back that far).
 */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { previousPeriod } from "./comparison";
import type { Direction } from "~/features/filter/dimensions";
import type { IpVersion } from "~/features/filter/filters";
import { dataRange, type DataRange } from "./data-range.server";
import { requireDimension } from "~/features/filter/filter-resolver.server";
import { flowTable, flowTimeseries, type FlowsContext } from "./service.server";
import type { TimeRange } from "~/lib/time-range";
import { alignRange, tableForWindow, type AggregationWindow } from "./aggregation-window";

type Stores = Pick<Services, "pg" | "ch">;

export type PreviousPeriodInput = {
  dimension: string;
  /** The current period as the current query resolved it (clamped to the data). */
  range: TimeRange;
  window: AggregationWindow;
  /** The filters the current period ran with, as resolved for this request. */
  context: FlowsContext;
  ipVersion: IpVersion;
  /** The AS Flows Egress screen's restriction to one direction, as for the current period. */
  scope?: Direction;
  limit?: number;
  /** The data's range when the caller read it already. */
  dataRange?: DataRange;
};

/**
 * The previous period's table and, with `totals`, its total bit/s per bucket of the window moved
 * onto the current period's buckets (bucket + period length), for the chart's overlay.
 */
export async function previousPeriodTable(
  stores: Stores,
  user: UserContext,
  version: number,
  input: PreviousPeriodInput & { totals?: boolean },
) {
  const dimension = requireDimension(user, version, input.dimension, "dimension");
  // Aligned first, so both periods cover whole buckets of the table and do not overlap.
  const range = previousPeriod(alignRange(input.range, tableForWindow(input.window)));
  const q = {
    range,
    filters: input.context.filters,
    operatorAsn: input.context.operatorAsn,
    ipVersion: input.ipVersion,
    scope: input.scope,
    window: input.window,
    limit: input.limit,
  };
  const [table, data, series] = await Promise.all([
    flowTable(stores, user, dimension, q),
    input.dataRange ?? dataRange(stores),
    // One top value and the rest add up to the total of each bucket.
    input.totals ? flowTimeseries(stores, user, dimension, { ...q, topN: 1 }) : null,
  ]);
  const covered = data.minTimestamp !== null && data.minTimestamp <= range.start;
  const shift = range.end - range.start;
  const totals = series
    ? series.buckets.map((bucket, i) => ({ bucket: bucket + shift, bps: series.series.reduce((a, s) => a + (s.values[i] ?? 0), 0) }))
    : null;
  return { range, table, covered, totals };
}
