/**
 * The traffic by AS on one interface from the flow aggregates: the "traffic by neighbour / source
 * AS on that link" of the planners' link detail and the data of api/linkutil/interfacestatistics/.
 * Pure: the SQL builder and the dimension rules; the service is interface-statistics.server.ts.
 *
 * Direction in (into the interface, from the neighbour): the flows whose ingress router and
 * interface are the link's, grouped by the handover AS (neighbour, as_hnd) or the origin
 * (source, as_src). Direction out: egress router and interface, grouped by the next-hop AS
 * (neighbour, as_nxt) or the destination (as_dst). Rates are mean bit/s over the range.
 * ASes outside the tracked top 200 are the special value Others (-101) in the aggregates.
 */
import type { Statement } from "~/server/clickhouse/query.server";

export const STATISTICS_DIMENSIONS = ["neighbour", "source", "destination"] as const;
export type StatisticsDimension = (typeof STATISTICS_DIMENSIONS)[number];
export type StatisticsDirection = "in" | "out";

/** The AS column a dimension reads in a direction: the neighbour is the handover AS coming in, the next-hop AS going out. */
export function asColumn(dimension: StatisticsDimension, direction: StatisticsDirection): "as_hnd" | "as_src" | "as_nxt" | "as_dst" {
  if (dimension === "neighbour") return direction === "in" ? "as_hnd" : "as_nxt";
  return dimension === "source" ? "as_src" : "as_dst";
}

export const DIMENSION_LABELS: Record<StatisticsDimension, Record<StatisticsDirection, string>> = {
  neighbour: { in: "Neighbour AS (handed over from)", out: "Neighbour AS (handed over to)" },
  source: { in: "Source AS", out: "Source AS" },
  destination: { in: "Destination AS", out: "Destination AS" },
};

/** The 5-minute aggregates hold 100 days; older ranges read the hourly ones. */
export const FIVE_MINUTE_DAYS = 100;

export type InterfaceStatisticsInput = {
  router: string;
  interface: string;
  direction: StatisticsDirection;
  dimension: StatisticsDimension;
  range: { start: number; end: number };
  /** Only these ASes (the ASNumberList of the API); all when empty. */
  asns?: readonly number[];
  /** Most rows returned, largest first. */
  limit: number;
  /** Unix seconds used to choose the table (the 5-minute one while the range is inside its retention). */
  now: number;
};

export function interfaceStatisticsQuery(input: InterfaceStatisticsInput): Statement & { params: Record<string, unknown> } {
  const { range } = input;
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || range.end <= range.start)
    throw new Error("The time range must be non-empty whole seconds");
  const table = range.start >= input.now - FIVE_MINUTE_DAYS * 86_400 ? "flows_5m" : "flows_1h";
  const column = asColumn(input.dimension, input.direction);
  const [routerColumn, ifColumn] = input.direction === "in" ? ["ingress_router", "in_if"] : ["egress_router", "out_if"];
  const asns = input.asns ?? [];
  const sql = [
    `SELECT ${column} AS asn, toString(sum(bytes)) AS total_bytes,`,
    "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps",
    `FROM ${table}`,
    "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
    `  AND ${routerColumn} = {router:String} AND ${ifColumn} = {interface:String}`,
    ...(asns.length ? [`  AND ${column} IN {asns:Array(Int64)}`] : []),
    "GROUP BY asn",
    "ORDER BY bps DESC, asn ASC",
    "LIMIT {limit:UInt32}",
  ].join("\n");
  return {
    name: "planners.interfaceStatistics",
    sql,
    params: {
      start: range.start,
      end: range.end,
      seconds: range.end - range.start,
      router: input.router,
      interface: input.interface,
      limit: input.limit,
      ...(asns.length ? { asns: [...asns] } : {}),
    },
  };
}
