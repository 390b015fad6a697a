/**
 * Revenues & Costs' ClickHouse statements over interface_util_5m (pure builders, bound values only).
 * One sample per interface and 5-minute time, chosen by the one source rule of the planners
 * (UTIL_SOURCE_RANK_SQL: SNMP over flow-derived bytes over the demo's counters).
 */
import { UTIL_SOURCE_RANK_SQL } from "~/features/collector/snmp/util-source";
import type { Statement } from "~/server/clickhouse/query.server";

export type Port = { router: string; interface: string };
const portKey = (p: Port) => `${p.router}|${p.interface}`;

/** The ports' samples in [start, end): port ("router|interface"), t, in_b, out_b, sample_source. */
export function portSamplesQuery(
  ports: readonly Port[],
  range: { start: number; end: number },
): Statement & { params: Record<string, unknown> } {
  const sql = [
    "SELECT port, t,",
    "  toFloat64(argMax(in_bytes, rank)) AS in_b,",
    "  toFloat64(argMax(out_bytes, rank)) AS out_b,",
    "  toString(argMax(source, rank)) AS sample_source",
    "FROM (",
    "  SELECT concat(router, '|', interface) AS port, toUInt32(time) AS t, in_bytes, out_bytes, source,",
    `    ${UTIL_SOURCE_RANK_SQL} AS rank`,
    "  FROM interface_util_5m FINAL",
    "  WHERE time >= toDateTime({start:UInt32}, 'UTC')",
    "    AND time < toDateTime({end:UInt32}, 'UTC')",
    "    AND concat(router, '|', interface) IN {ports:Array(String)}",
    ")",
    "GROUP BY port, t",
    "ORDER BY port ASC, t ASC",
  ].join("\n");
  return { name: "revenues.portSamples", sql, params: { start: range.start, end: range.end, ports: ports.map(portKey) } };
}

/** The first sample time of any interface (0 rows: no data): first. */
export function firstSampleQuery(): Statement {
  return { name: "revenues.firstSample", sql: "SELECT toUInt32(min(time)) AS first, count() AS rows FROM interface_util_5m" };
}

/**
 * The flows_5m bytes of a billing group's ports per interval and neighbour AS in [start, end): `in`
 * (entering by a port: the AS it goes to, as_dst) and `out` (leaving by a port: the AS it comes from,
 * as_src), as folded at insert time (Others −101 for an AS outside the tracked set). t, dir, asn, b.
 */
export function groupFlowsQuery(
  ports: readonly Port[],
  range: { start: number; end: number },
): Statement & { params: Record<string, unknown> } {
  const part = (dir: "in" | "out", asColumn: string, router: string, iface: string) =>
    [
      `SELECT toUInt32(time) AS t, '${dir}' AS dir, ${asColumn} AS asn, toFloat64(sum(bytes)) AS b`,
      "FROM flows_5m",
      "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
      `  AND concat(${router}, '|', ${iface}) IN {ports:Array(String)}`,
      "GROUP BY t, asn",
    ].join("\n");
  const sql = [part("in", "as_dst", "ingress_router", "in_if"), "UNION ALL", part("out", "as_src", "egress_router", "out_if")].join("\n");
  return { name: "revenues.groupFlows", sql, params: { start: range.start, end: range.end, ports: ports.map(portKey) } };
}

/** The tracked set of ASes (those flows_5m keeps by number): asn. */
export function trackedAsQuery(asns: readonly number[]): Statement & { params: Record<string, unknown> } {
  return {
    name: "revenues.trackedAs",
    sql: "SELECT DISTINCT asn FROM tracked_as FINAL WHERE asn IN {asns:Array(Int64)}",
    params: { asns: [...asns] },
  };
}

/**
 * One AS's flows_5m bytes through a billing group's ports per interval in [start, end), the AS on either end
 * of the flow (its traffic to us and from us): in_b entering by a port, out_b leaving by one. t, in_b, out_b.
 */
export function asTrafficQuery(
  ports: readonly Port[],
  range: { start: number; end: number },
  asn: number,
): Statement & { params: Record<string, unknown> } {
  // The same column order in both parts: UNION ALL matches columns by position, not by name.
  const part = (column: "in_b" | "out_b", router: string, iface: string) =>
    [
      column === "in_b"
        ? "SELECT toUInt32(time) AS t, toFloat64(sum(bytes)) AS in_b, toFloat64(0) AS out_b"
        : "SELECT toUInt32(time) AS t, toFloat64(0) AS in_b, toFloat64(sum(bytes)) AS out_b",
      "FROM flows_5m",
      "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
      `  AND concat(${router}, '|', ${iface}) IN {ports:Array(String)}`,
      "  AND (as_src = {asn:Int64} OR as_dst = {asn:Int64})",
      "GROUP BY t",
    ].join("\n");
  const sql = [
    "SELECT t, sum(in_b) AS in_b, sum(out_b) AS out_b FROM (",
    part("in_b", "ingress_router", "in_if"),
    "UNION ALL",
    part("out_b", "egress_router", "out_if"),
    ") GROUP BY t ORDER BY t",
  ].join("\n");
  return { name: "revenues.asTraffic", sql, params: { start: range.start, end: range.end, ports: ports.map(portKey), asn } };
}
