/**
 * A pure SQL builder for the flow views over flows_5m / flows_1h: named statements (SQL plus
 * bound parameters), no I/O. Every value is bound as a `{name:Type}` parameter; identifiers
 * and expressions come only from the dimension catalogue.
 *
 * - bit/s = toFloat64(sum(bytes)) * 8 / seconds (of the range, or of the window for timeseries;
 *   a bucket cut by the range edges is still divided by the full window).
 * - Filters: per dimension, positive values → IN, negated → NOT IN; dimensions ANDed; the
 *   direction of ingress/egress dimensions applies as documented in dimensions.ts.
 * - The operator AS (`operatorAsn`) is a parameter, only bound when a direction needs it.
 * - The range is read as given: callers align it to the table's granularity (time.alignRange).
 * - Views group by a dimension's shown key (dimensions.ts `shownKey`: IANA_PROTOCOL's rows split ICMP
 *   by type), filters match its `key`.
 */
import type { Statement } from "~/server/clickhouse/query.server";
import { getDimension, OTHERS_AS, OTHERS_LABEL, type DimensionId, type Direction, type ValueType } from "~/features/filter/dimensions";
import { dimensionFilterConditions, DIRECTION_SQL } from "~/features/filter/flow-filter-sql";
import type { FlowFilter, IpVersion } from "~/features/filter/filters";
import type { TimeRange } from "~/lib/time-range";
import { defaultWindow, tableForWindow, type AggregationWindow, type FlowsTable } from "./aggregation-window";

/** A statement for the query door (app/server/clickhouse/query.server.ts): its name, SQL and bound parameters. */
export type BuiltQuery = Statement & { params: Record<string, unknown> };

export type FlowQueryOptions = {
  filters?: readonly FlowFilter[];
  range: TimeRange;
  operatorAsn: number;
  ipVersion?: IpVersion;
  /** Default: the table of the range's default window (time.tableForWindow). */
  table?: FlowsTable;
  /**
   * Restricts all traffic to one direction even when the shown dimensions have none (the AS Flows
   * Egress screen: an egress router's traffic there is its egress traffic only).
   */
  scope?: Direction;
};

export const DEFAULT_TOP_TABLE_LIMIT = 200;
export const DEFAULT_SANKEY_TOP_N = 10;

function seconds(range: TimeRange): number {
  const s = range.end - range.start;
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || s <= 0)
    throw new Error("The time range must be non-empty whole seconds");
  return s;
}

/** The one direction of the shown dimensions and the scope (null when none has one); mixing is an error. */
function directionOf(dimensions: readonly DimensionId[], scope?: Direction): Direction | null {
  const set = new Set(dimensions.map((d) => getDimension(d).direction).filter((d): d is Direction => d !== null));
  if (scope) set.add(scope);
  if (set.size > 1) throw new Error("Ingress and egress dimensions cannot be combined in one query");
  return set.size ? [...set][0] : null;
}

/** WHERE conditions and params shared by all queries. */
function whereClause(
  shown: readonly DimensionId[],
  opts: FlowQueryOptions,
): { where: string; inline: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = { start: opts.range.start, end: opts.range.end };
  const conds = ["time >= toDateTime({start:UInt32}, 'UTC')", "time < toDateTime({end:UInt32}, 'UTC')"];
  let usesOperator = false;
  if (opts.ipVersion !== undefined && opts.ipVersion !== "all") {
    conds.push("ip_version = {ipVersion:UInt8}");
    params.ipVersion = opts.ipVersion;
  }
  const direction = directionOf(shown, opts.scope);
  if (direction) {
    conds.push(DIRECTION_SQL[direction]);
    usesOperator = true;
  }
  const filtered = dimensionFilterConditions(opts.filters ?? []);
  conds.push(...filtered.conds);
  Object.assign(params, filtered.params);
  if (filtered.usesOperator) usesOperator = true;
  if (usesOperator) {
    if (!Number.isSafeInteger(opts.operatorAsn)) throw new Error("operatorAsn must be an integer");
    params.operatorAsn = opts.operatorAsn;
  }
  return { where: conds.join("\n  AND "), inline: conds.join(" AND "), params };
}

function tableOf(opts: FlowQueryOptions): FlowsTable {
  return opts.table ?? tableForWindow(defaultWindow(opts.range));
}

/** What the views of a dimension group by, and its ClickHouse type: the shown key where it refines the filters' key. */
function shownKey(id: DimensionId): { expression: string; type: ValueType } {
  const def = getDimension(id);
  return def.shownKey ? { expression: def.shownKey, type: "String" } : { expression: def.key, type: def.valueType };
}

/** The shown key of a dimension folded to Others outside its top N (over the same table and WHERE). */
function foldedKey(id: DimensionId, table: string, where: string, topParam: string, othersParam: string): string {
  const { expression, type } = shownKey(id);
  const top = `SELECT k FROM (SELECT ${expression} AS k, sum(bytes) AS b FROM ${table} WHERE ${where} GROUP BY k ORDER BY b DESC, k ASC LIMIT {${topParam}:UInt32})`;
  return `if(${expression} IN (${top}), ${expression}, {${othersParam}:${type}})`;
}

/** The folded rest of a dimension's top N: -101 for numeric dimensions (as text where the shown key is one), else "Others". */
function othersFor(id: DimensionId): number | string {
  const others = getDimension(id).valueType === "Int64" ? OTHERS_AS : OTHERS_LABEL;
  return shownKey(id).type === "String" ? String(others) : others;
}

/**
 * Timeseries: per bucket of `window` seconds, the bit/s of the top-N values of `dimension`
 * over the whole range, the rest folded into Others (-101 / "Others").
 * Columns: bucket (DateTime), value, bps.
 */
export function timeseries(dimension: DimensionId, opts: FlowQueryOptions & { window: AggregationWindow; topN: number }): BuiltQuery {
  seconds(opts.range);
  const table = opts.table ?? tableForWindow(opts.window);
  const { where, inline, params } = whereClause([dimension], opts);
  const sql = [
    "SELECT",
    "  toStartOfInterval(time, toIntervalSecond({window:UInt32})) AS bucket,",
    `  ${foldedKey(dimension, table, inline, "topN", "others")} AS value,`,
    "  toFloat64(sum(bytes)) * 8 / {window:UInt32} AS bps",
    `FROM ${table}`,
    `WHERE ${where}`,
    "GROUP BY bucket, value",
    "ORDER BY bucket ASC, bps DESC, value ASC",
  ].join("\n");
  return { name: "flows.timeseries", sql, params: { ...params, window: opts.window, topN: opts.topN, others: othersFor(dimension) } };
}

/**
 * The aggregated table: bit/s and bytes per combination of the dimensions over the range,
 * biggest first. Columns: one per dimension (named by its id), bps, total_bytes.
 */
export function topTable(dimensions: readonly DimensionId[], opts: FlowQueryOptions & { limit?: number }): BuiltQuery {
  if (!dimensions.length) throw new Error("At least one dimension is needed");
  const secs = seconds(opts.range);
  const table = tableOf(opts);
  const { where, params } = whereClause(dimensions, opts);
  const cols = dimensions.map((d) => `${shownKey(d).expression} AS ${d}`);
  const sql = [
    "SELECT",
    ...cols.map((c) => `  ${c},`),
    "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
    "  sum(bytes) AS total_bytes",
    `FROM ${table}`,
    `WHERE ${where}`,
    `GROUP BY ${dimensions.join(", ")}`,
    `ORDER BY bps DESC, ${dimensions.map((d) => `${d} ASC`).join(", ")}`,
    "LIMIT {limit:UInt32}",
  ].join("\n");
  return { name: "flows.topTable", sql, params: { ...params, seconds: secs, limit: opts.limit ?? DEFAULT_TOP_TABLE_LIMIT } };
}

/**
 * Per bucket of `window` seconds and combination of the dimensions: the bit/s (bytes × 8 / window),
 * without a cut or a fold (root-cause analysis splits one object's traffic by several levels and
 * needs every part). Columns: bucket (unix seconds), one per dimension (named by its id), bps.
 */
export function bucketedTable(dimensions: readonly DimensionId[], opts: FlowQueryOptions & { window: AggregationWindow }): BuiltQuery {
  if (!dimensions.length) throw new Error("At least one dimension is needed");
  seconds(opts.range);
  const table = tableOf(opts);
  const { where, params } = whereClause(dimensions, opts);
  const cols = dimensions.map((d) => `${shownKey(d).expression} AS ${d}`);
  const sql = [
    "SELECT",
    "  toUInt32(toStartOfInterval(time, toIntervalSecond({window:UInt32}))) AS bucket,",
    ...cols.map((c) => `  ${c},`),
    "  toFloat64(sum(bytes)) * 8 / {window:UInt32} AS bps",
    `FROM ${table}`,
    `WHERE ${where}`,
    `GROUP BY bucket, ${dimensions.join(", ")}`,
    `ORDER BY bucket ASC, ${dimensions.map((d) => `${d} ASC`).join(", ")}`,
  ].join("\n");
  return { name: "flows.bucketedTable", sql, params: { ...params, window: opts.window } };
}

/** The top table of one dimension as the views read it: key and bytes as strings (exact 64-bit), bps. Columns: k, bps, b. */
export function keyedTopTable(dimension: DimensionId, opts: FlowQueryOptions & { limit?: number }): BuiltQuery {
  const inner = topTable([dimension], opts);
  return { ...inner, name: "flows.table", sql: `SELECT toString(${dimension}) AS k, bps, toString(total_bytes) AS b FROM (${inner.sql})` };
}

/** The timeseries as the views read it: bucket as unix seconds, value as a string. Columns: b, v, bps. */
export function keyedTimeseries(dimension: DimensionId, opts: FlowQueryOptions & { window: AggregationWindow; topN: number }): BuiltQuery {
  const inner = timeseries(dimension, opts);
  return { ...inner, name: "flows.timeseries", sql: `SELECT toUInt32(bucket) AS b, toString(value) AS v, bps FROM (${inner.sql})` };
}

/**
 * A sankey over ≥ 2 dimensions: links between consecutive dimensions, each dimension folded to
 * its top N over the range (rest: Others). Columns: step (0-based index of the source
 * dimension), source, target (values as strings), bps.
 */
export function sankey(dimensions: readonly DimensionId[], opts: FlowQueryOptions & { topN?: number }): BuiltQuery {
  if (dimensions.length < 2) throw new Error("A sankey chart needs at least two dimensions");
  const secs = seconds(opts.range);
  const table = tableOf(opts);
  const { where, inline, params } = whereClause(dimensions, opts);
  const extra: Record<string, unknown> = { seconds: secs, topN: opts.topN ?? DEFAULT_SANKEY_TOP_N };
  const keys = dimensions.map((d, i) => {
    extra[`others${i}`] = othersFor(d);
    return `toString(${foldedKey(d, table, inline, "topN", `others${i}`)})`;
  });
  const parts = dimensions
    .slice(1)
    .map((_, i) =>
      [
        `  SELECT toUInt8(${i}) AS step, ${keys[i]} AS source, ${keys[i + 1]} AS target,`,
        "    toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps",
        `  FROM ${table}`,
        `  WHERE ${where}`,
        "  GROUP BY source, target",
      ].join("\n"),
    );
  const sql = [
    "SELECT step, source, target, bps",
    "FROM (",
    parts.join("\n  UNION ALL\n"),
    ")",
    "ORDER BY step ASC, bps DESC, source ASC, target ASC",
  ].join("\n");
  return { name: "flows.sankey", sql, params: { ...params, ...extra } };
}

/**
 * The bare scan of the rows a view reads: sum(bytes) over the same table and WHERE, no grouping.
 * The floor the grouped queries are compared with (npm run bench) and a total for checks.
 */
export function scanTotal(dimensions: readonly DimensionId[], opts: FlowQueryOptions): BuiltQuery {
  seconds(opts.range);
  const { where, params } = whereClause(dimensions, opts);
  return {
    name: "flows.scanTotal",
    sql: [`SELECT sum(bytes) AS total_bytes`, `FROM ${tableOf(opts)}`, `WHERE ${where}`].join("\n"),
    params,
  };
}

/**
 * What a view with a direction leaves out of the traffic its range, IP version and filters select:
 * the total of those rows without the view's direction (the dimensions' or the scope's) minus the
 * rows the view counts, split by where the rows left out entered the network — from a neighbour
 * (ingress rows, left out of egress views) or from an access interface (as_hnd is the operator:
 * its own traffic, left out of ingress views; what stays inside, left out of egress views).
 * A filter keeps its own direction rule, so the view without direction over the same filters is
 * what this total describes. Bytes as strings (exact 64-bit), bit/s as the views compute them.
 * Columns: all_bytes, counted_bytes, left_out_bytes, left_out_bps, from_neighbours_bps, from_access_bps.
 */
export function leftOutTotals(dimensions: readonly DimensionId[], opts: FlowQueryOptions): BuiltQuery {
  const secs = seconds(opts.range);
  const direction = directionOf(dimensions, opts.scope);
  if (!direction) throw new Error("A view without a direction leaves no traffic out");
  if (!Number.isSafeInteger(opts.operatorAsn)) throw new Error("operatorAsn must be an integer");
  const { where, params } = whereClause([], { ...opts, scope: undefined });
  const counted = `(${DIRECTION_SQL[direction]})`;
  const fromNeighbours = `(${DIRECTION_SQL.INGRESS})`;
  const bps = (bytes: string) => `toFloat64(${bytes}) * 8 / {seconds:UInt32}`;
  const sql = [
    "SELECT",
    "  toString(sum(bytes)) AS all_bytes,",
    `  toString(sumIf(bytes, ${counted})) AS counted_bytes,`,
    `  toString(sum(bytes) - sumIf(bytes, ${counted})) AS left_out_bytes,`,
    `  ${bps(`sum(bytes) - sumIf(bytes, ${counted})`)} AS left_out_bps,`,
    `  ${bps(`sumIf(bytes, NOT ${counted} AND ${fromNeighbours})`)} AS from_neighbours_bps,`,
    `  ${bps(`sumIf(bytes, NOT ${counted} AND NOT ${fromNeighbours})`)} AS from_access_bps`,
    `FROM ${tableOf(opts)}`,
    `WHERE ${where}`,
  ].join("\n");
  return { name: "flows.leftOut", sql, params: { ...params, operatorAsn: opts.operatorAsn, seconds: secs } };
}
