/**
 * The planners' ClickHouse statements over interface_util_5m (pure builders; the golden test is
 * tests/unit/planners-sql.test.ts, the syntax check tests/integration/sql-syntax.test.ts). Values
 * are always bound parameters.
 *
 * Every read goes through one sample subquery: the rows of the links' interfaces ("ends") in the
 * range, mapped to their link, with in and out swapped for the far end of an internal link, and
 * one row per link and 5-minute time chosen by the rank (source rank: SNMP > flows > demo, then the
 * end's preference: the near end of an internal link first). So an interval measured by SNMP on
 * either end wins over generated or flow-derived bytes, and an internal link measured on one end
 * only still has its samples.
 */
import { UTIL_SOURCE_RANK_SQL } from "~/features/collector/snmp/util-source";
import { billingPercentileSql } from "~/lib/billing-percentile";

export type PlannerQuery = { name: string; sql: string; params: Record<string, unknown> };

/** One interface feeding a link: `swap` exchanges in and out (the far end b of an internal link). */
export type LinkEnd = { link: string; router: string; interface: string; swap: boolean; preference: number };

export type SqlRange = { start: number; end: number };

function checkRange(range: SqlRange): void {
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || range.end <= range.start)
    throw new Error("The time range must be non-empty whole seconds");
}

const endKey = (e: Pick<LinkEnd, "router" | "interface">) => `${e.router}|${e.interface}`;

function endParams(ends: readonly LinkEnd[]) {
  return {
    ends: ends.map(endKey),
    links: ends.map((e) => e.link),
    swaps: ends.map((e) => (e.swap ? 1 : 0)),
    preferences: ends.map((e) => e.preference),
  };
}

/** The rows of the ends in the range, mapped to their link (no choice of source yet). */
const MAPPED_ROWS = [
  "  SELECT",
  "    indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,",
  "    arrayElement({links:Array(String)}, end_index) AS link,",
  "    time,",
  "    if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,",
  "    if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,",
  "    source,",
  "    interpolated,",
  `    tuple(${UTIL_SOURCE_RANK_SQL}, arrayElement({preferences:Array(UInt8)}, end_index)) AS rank`,
  "  FROM interface_util_5m FINAL",
  "  WHERE time >= toDateTime({start:UInt32}, 'UTC')",
  "    AND time < toDateTime({end:UInt32}, 'UTC')",
  "    AND concat(router, '|', interface) IN {ends:Array(String)}",
];

/** One sample per link and time: link, time, in_bytes, out_bytes, source, interpolated. */
const SAMPLES = [
  "SELECT link, time,",
  "  argMax(end_in, rank) AS in_bytes,",
  "  argMax(end_out, rank) AS out_bytes,",
  "  argMax(source, rank) AS sample_source,",
  "  argMax(interpolated, rank) AS sample_interpolated",
  "FROM (",
  ...MAPPED_ROWS,
  ")",
  "GROUP BY link, time",
];

const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`);

function base(ends: readonly LinkEnd[], range: SqlRange) {
  checkRange(range);
  return { start: range.start, end: range.end, ...endParams(ends) };
}

/**
 * Per link in one scan: the quarter-hour sums (the peak hour is computed from them) as parallel
 * arrays quarters / quarter_in / quarter_out / quarter_samples / quarter_max (quarter = unix s, a
 * multiple of 900; quarter_max the largest 5-minute byte count of either direction, the heatmap's
 * figure, so the screens need no scan of their own for it);
 * the number of samples, how many were interpolated and the sources seen; and the billing 95th of in
 * and out bytes over the samples: sorted ascending, the top floor(n/20) dropped, i.e. the 1-based
 * index n − intDiv(n, 20).
 */
export function linkFiguresQuery(ends: readonly LinkEnd[], range: SqlRange): PlannerQuery {
  const n = "sum(quarter_n)";
  const sql = [
    "SELECT link,",
    "  groupArray(quarter) AS quarters,",
    "  groupArray(quarter_in_sum) AS quarter_in,",
    "  groupArray(quarter_out_sum) AS quarter_out,",
    "  groupArray(quarter_n) AS quarter_samples,",
    "  groupArray(quarter_max_bytes) AS quarter_max,",
    `  toUInt32(${n}) AS samples,`,
    "  toUInt32(sum(quarter_interpolated)) AS interpolated,",
    "  arraySort(groupUniqArrayArray(quarter_sources)) AS sources,",
    `  toFloat64(${billingPercentileSql("arrayFlatten(groupArray(quarter_in_list))", n)}) AS in_p95_bytes,`,
    `  toFloat64(${billingPercentileSql("arrayFlatten(groupArray(quarter_out_list))", n)}) AS out_p95_bytes`,
    "FROM (",
    "  SELECT link, toUInt32(intDiv(toUInt32(time), 900) * 900) AS quarter,",
    "    toFloat64(sum(in_bytes)) AS quarter_in_sum,",
    "    toFloat64(sum(out_bytes)) AS quarter_out_sum,",
    "    toUInt32(count()) AS quarter_n,",
    "    toFloat64(max(greatest(in_bytes, out_bytes))) AS quarter_max_bytes,",
    "    sum(sample_interpolated) AS quarter_interpolated,",
    "    groupUniqArray(toString(sample_source)) AS quarter_sources,",
    "    groupArray(in_bytes) AS quarter_in_list,",
    "    groupArray(out_bytes) AS quarter_out_list",
    "  FROM (",
    ...indent(indent(SAMPLES)),
    "  )",
    "  GROUP BY link, quarter",
    ")",
    "GROUP BY link",
    "ORDER BY link ASC",
  ].join("\n");
  return { name: "planners.linkFigures", sql, params: base(ends, range) };
}

/** Per link and calendar day in `timezone`: the highest 5-minute byte count of either direction. */
export function heatmapQuery(ends: readonly LinkEnd[], range: SqlRange, timezone: string): PlannerQuery {
  const sql = [
    "SELECT link, toString(toDate(time, {timezone:String})) AS day,",
    "  toFloat64(max(greatest(in_bytes, out_bytes))) AS max_bytes",
    "FROM (",
    ...indent(SAMPLES),
    ")",
    "GROUP BY link, day",
    "ORDER BY link ASC, day ASC",
  ].join("\n");
  return { name: "planners.heatmap", sql, params: { ...base(ends, range), timezone } };
}

/**
 * Per bucket of `bucketSeconds` (aligned to multiples of it in UTC): the sum over the links of
 * each link's mean rate over its samples in the bucket (in_bps, out_bps).
 */
export function timeseriesQuery(ends: readonly LinkEnd[], range: SqlRange, bucketSeconds: number): PlannerQuery {
  if (!Number.isInteger(bucketSeconds) || bucketSeconds < 300 || bucketSeconds % 300 !== 0)
    throw new Error("The bucket must be a whole multiple of 300 seconds");
  const sql = [
    "SELECT bucket, sum(link_in_bps) AS in_bps, sum(link_out_bps) AS out_bps",
    "FROM (",
    "  SELECT link, toUInt32(intDiv(toUInt32(time), {bucket:UInt32}) * {bucket:UInt32}) AS bucket,",
    "    toFloat64(sum(in_bytes)) * 8 / (count() * 300) AS link_in_bps,",
    "    toFloat64(sum(out_bytes)) * 8 / (count() * 300) AS link_out_bps",
    "  FROM (",
    ...indent(indent(SAMPLES)),
    "  )",
    "  GROUP BY link, bucket",
    ")",
    "GROUP BY bucket",
    "ORDER BY bucket ASC",
  ].join("\n");
  return { name: "planners.timeseries", sql, params: { ...base(ends, range), bucket: bucketSeconds } };
}

/** The 5-minute samples of the links (one link for the detail chart): link, time, bytes, source, interpolated. */
export function seriesQuery(ends: readonly LinkEnd[], range: SqlRange): PlannerQuery {
  const sql = [
    "SELECT link, toUInt32(time) AS t,",
    "  toFloat64(in_bytes) AS in_b,",
    "  toFloat64(out_bytes) AS out_b,",
    "  toString(sample_source) AS source,",
    "  toUInt8(sample_interpolated) AS interpolated",
    "FROM (",
    ...indent(SAMPLES),
    ")",
    "ORDER BY link ASC, t ASC",
  ].join("\n");
  return { name: "planners.series", sql, params: base(ends, range) };
}

/** First and last sample time of the interfaces (any source): first, last, rows (0: no data). */
export function datesWithDataQuery(interfaces: readonly { router: string; interface: string }[]): PlannerQuery {
  const sql = [
    "SELECT toUInt32(min(time)) AS first, toUInt32(max(time)) AS last, toUInt64(count()) AS rows",
    "FROM interface_util_5m",
    "WHERE concat(router, '|', interface) IN {ends:Array(String)}",
  ].join("\n");
  return { name: "planners.datesWithData", sql, params: { ends: interfaces.map(endKey) } };
}

/**
 * Sampling confidence per link: over the (interface, time) intervals where both an 'snmp' and a
 * 'flows' row exist, sum(flows bytes in+out) / sum(snmp bytes in+out) and the number of such
 * intervals; ratio null when SNMP counted no bytes there.
 */
export function samplingConfidenceQuery(ends: readonly LinkEnd[], range: SqlRange): PlannerQuery {
  const sql = [
    "SELECT link,",
    "  if(sum(snmp_bytes) = 0, NULL, toFloat64(sum(flows_bytes)) / toFloat64(sum(snmp_bytes))) AS ratio,",
    "  toUInt32(count()) AS intervals",
    "FROM (",
    "  SELECT link, end_index, time,",
    "    sumIf(end_in + end_out, source = 'flows') AS flows_bytes,",
    "    sumIf(end_in + end_out, source = 'snmp') AS snmp_bytes",
    "  FROM (",
    ...indent(MAPPED_ROWS),
    // Only the two sources compared: on a network without SNMP (or without flows rows) this reads
    // next to nothing instead of every sample of the range again.
    "      AND source IN ('snmp', 'flows')",
    "  )",
    "  GROUP BY link, end_index, time",
    "  HAVING countIf(source = 'flows') > 0 AND countIf(source = 'snmp') > 0",
    ")",
    "GROUP BY link",
    "ORDER BY link ASC",
  ].join("\n");
  return { name: "planners.samplingConfidence", sql, params: base(ends, range) };
}
