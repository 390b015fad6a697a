/**
 * The 95th percentile of each AS's flow traffic on external links (the figure NETFLOW95TH gates in
 * api/linkutil/interfacestatistics/). Pure SQL builders over the flow aggregates.
 *
 * The samples are the aggregate's intervals (5 minutes; 1 hour for ranges that start before the
 * 5-minute table's retention) in which the links carried any flow: in such an interval an AS
 * without traffic on the links counts 0 — flows are counted per interval, so "no flow of this AS"
 * is a measured zero, while an interval without any flow on the links (a collector outage) is not a
 * sample at all. Billing rule as for links: sort the n samples, drop the top k = floor(n / 20), the
 * highest remaining. With p samples of an AS above zero and n − p zeros before them in the sorted
 * order, the 95th is its p-sample sorted array at position p − k (1-based), or 0 when p ≤ k.
 */
import type { Statement } from "~/server/clickhouse/query.server";

export type FlowP95Input = {
  /** Table and its interval length, chosen like the mean figures (interface-statistics.ts). */
  table: "flows_5m" | "flows_1h";
  router: string;
  interfaces: readonly string[];
  direction: "in" | "out";
  /** The AS column grouped by (asColumn of interface-statistics.ts). */
  column: "as_hnd" | "as_src" | "as_nxt" | "as_dst";
  range: { start: number; end: number };
};

/** Seconds per sample of the table. */
export const SAMPLE_SECONDS_OF = { flows_5m: 300, flows_1h: 3600 } as const;

function where(input: FlowP95Input): string {
  const [routerColumn, ifColumn] = input.direction === "in" ? ["ingress_router", "in_if"] : ["egress_router", "out_if"];
  return [
    "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
    `  AND ${routerColumn} = {router:String} AND ${ifColumn} IN {interfaces:Array(String)}`,
  ].join("\n");
}

const params = (input: FlowP95Input) => ({
  start: input.range.start,
  end: input.range.end,
  router: input.router,
  interfaces: [...input.interfaces],
});

/** n: the intervals of the range in which the links carried any flow. */
export function flowIntervalsQuery(input: FlowP95Input): Statement & { params: Record<string, unknown> } {
  return {
    name: "planners.flowIntervals",
    sql: [`SELECT toUInt64(uniqExact(time)) AS n`, `FROM ${input.table}`, where(input)].join("\n"),
    params: params(input),
  };
}

/** Per AS: its samples above zero (p) and its 95th in bytes per interval, given n's k = floor(n / 20). */
export function flowP95Query(input: FlowP95Input, n: number): Statement & { params: Record<string, unknown> } {
  const sql = [
    "SELECT asn, toUInt64(count()) AS present,",
    // arrayElement with a negative index counts from the end; the if() discards that branch when p ≤ k.
    "  if(toInt64(count()) > {k:Int64}, arrayElement(arraySort(groupArray(b)), toInt64(count()) - {k:Int64}), toUInt64(0)) AS p95_bytes",
    "FROM (",
    `  SELECT ${input.column} AS asn, time, sum(bytes) AS b`,
    `  FROM ${input.table}`,
    where(input)
      .split("\n")
      .map((line) => `  ${line}`)
      .join("\n"),
    "  GROUP BY asn, time",
    "  HAVING b > 0",
    ")",
    "GROUP BY asn",
  ].join("\n");
  return { name: "planners.flowP95", sql, params: { ...params(input), k: Math.floor(n / 20) } };
}
