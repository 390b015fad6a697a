/**
 * The table views of the Flow Explorer (spec shell §3 "table views: Detailed, Aggregated") and the
 * pivot of the detailed one. Pure and isomorphic: the screen and the export build the same rows.
 *
 * - Aggregated: one row per value over the whole range (the query's table).
 * - Detailed: one row per time bucket and value, from the timeseries of the same request — the
 *   top values and Others, so the rows of a bucket add up to the bucket's total.
 * - Pivot (detailed only): one row per bucket, one column per value.
 */

export type TimeseriesData = {
  buckets: readonly number[];
  series: readonly { key: string; name: string; values: readonly number[] }[];
  /** Per bucket whether it is complete (the query's flags); absent: all are. */
  complete?: readonly boolean[];
};

/** `complete`: the bucket holds its whole window (an incomplete one is listed, marked, and not drawn in the chart). */
export type DetailedRow = { time: number; key: string; name: string; bps: number; complete: boolean };

/** Bucket by bucket (oldest first), each bucket's values in the series order (largest first, Others last). */
export function detailedRows(timeseries: TimeseriesData): DetailedRow[] {
  const rows: DetailedRow[] = [];
  timeseries.buckets.forEach((time, i) => {
    const complete = timeseries.complete?.[i] ?? true;
    for (const s of timeseries.series) rows.push({ time, key: s.key, name: s.name, bps: s.values[i] ?? 0, complete });
  });
  return rows;
}

/** A bucket's time as the tables show it, an incomplete bucket marked as such. */
export const INCOMPLETE_MARK = "(incomplete)";

export type PivotColumn = { key: string; name: string };
export type PivotRow = { time: number; values: number[]; complete: boolean };
export type PivotTable = { columns: PivotColumn[]; rows: PivotRow[] };

/** The detailed rows turned: buckets as rows, values as columns (in the series order). */
export function pivotTable(timeseries: TimeseriesData): PivotTable {
  return {
    columns: timeseries.series.map((s) => ({ key: s.key, name: s.name })),
    rows: timeseries.buckets.map((time, i) => ({
      time,
      values: timeseries.series.map((s) => s.values[i] ?? 0),
      complete: timeseries.complete?.[i] ?? true,
    })),
  };
}
