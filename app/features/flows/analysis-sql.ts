/**
 * Pure SQL builders of the flow analysis calls (api/asflows/indirect/, api/netflowstatistics/,
 * api/linkleveltopology/, api/linklevelstatistics/, api/untracked_data/). No I/O.
 *
 * Each query wraps a builder of sql.ts (topTable or timeseries) so the user's filters, the
 * ingress/egress direction and the table choice follow exactly the rules of the other flow views.
 * The call's own scope (the AS list, the ingress router, origin and destination) is applied by an
 * outer WHERE on the grouped columns, not added to the user's filters: filters of one dimension
 * are ORed (`IN`), so mixing a scope value into them would widen a user's filter instead of
 * narrowing it. The inner query is run without a cut (limit / topN = UInt32 max).
 */
import { z } from "zod";
import { UTIL_SOURCE_RANK_SQL } from "~/features/collector/snmp/util-source";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { timeseries, topTable, type BuiltQuery, type FlowQueryOptions } from "./sql";
import type { AggregationWindow } from "./aggregation-window";

/** A limit / top N that never cuts: the largest UInt32. */
export const NO_CUT = 4_294_967_295;

/** The special AS values counted by api/untracked_data/ (app/lib/special-as.ts). */
export const UNTRACKED_AS = -999;
export const OTHERS_AS_VALUE = -101;
export const NOT_ROUTABLE_AS = -1;

/** The interface / internal-link key of a flow without a core hop: both columns empty. */
export const EMPTY_LINK_KEY = "|";

/**
 * Ingress traffic of the listed source ASes per handover AS (bit/s over the range).
 * `asn = handover` is the direct part, every other handover the indirect part.
 * Columns: asn, handover, bps.
 */
export function indirectAsQuery(asns: readonly number[], opts: FlowQueryOptions): BuiltQuery {
  if (!asns.length) throw new Error("At least one AS number is needed");
  const inner = topTable(["AS_SRC_INGRESS", "AS_HND_INGRESS"], { ...opts, limit: NO_CUT });
  const sql = [
    "SELECT AS_SRC_INGRESS AS asn, AS_HND_INGRESS AS handover, bps",
    "FROM (",
    inner.sql,
    ")",
    "WHERE AS_SRC_INGRESS IN {asns:Array(Int64)}",
    "ORDER BY asn ASC, bps DESC, handover ASC",
  ].join("\n");
  return { name: "flows.indirectAs", sql, params: { ...inner.params, asns: [...asns] } };
}

/**
 * Per value of `target`: the bit/s entering at `ingressRouter` (router_bps) and in the whole
 * network (network_bps), in the direction of `target` if it has one. Without a router, both are
 * equal. Columns: value (String), router_bps, network_bps. (Output aliases never reuse the inner
 * column name `bps`: ClickHouse resolves aliases before columns.)
 */
export function ingressRouterQuery(target: DimensionId, ingressRouter: string | null, opts: FlowQueryOptions): BuiltQuery {
  const dims: DimensionId[] = target === "ROUTER_IN" ? ["ROUTER_IN"] : [target, "ROUTER_IN"];
  const inner = topTable(dims, { ...opts, limit: NO_CUT });
  const atRouter = ingressRouter === null ? "sum(bps)" : "sumIf(bps, ROUTER_IN = {ingressRouter:String})";
  const sql = [
    `SELECT toString(${target}) AS value, ${atRouter} AS router_bps, sum(bps) AS network_bps`,
    "FROM (",
    inner.sql,
    ")",
    "GROUP BY value",
    "ORDER BY router_bps DESC, network_bps DESC, value ASC",
  ].join("\n");
  return { name: "flows.ingressRouter", sql, params: ingressRouter === null ? inner.params : { ...inner.params, ingressRouter } };
}

/** An end of a link-level query: a neighbour or origin AS, or one of the operator's routers. */
export type LinkEndpoint = { kind: "AS"; asn: number } | { kind: "ROUTER"; router: string };

/** The dimension that scopes an endpoint: source / destination AS (ingress), ingress / egress router. */
export function endpointDimension(side: "origin" | "destination", endpoint: LinkEndpoint): DimensionId {
  if (side === "origin") return endpoint.kind === "AS" ? "AS_SRC_INGRESS" : "ROUTER_IN";
  return endpoint.kind === "AS" ? "AS_DST_INGRESS" : "ROUTER_OUT";
}

export const LINK_DIMENSIONS = [
  "INTERFACE_IN",
  "INTERNAL_LINK_START",
  "INTERNAL_LINK_END",
  "INTERFACE_OUT",
] as const satisfies readonly DimensionId[];

/**
 * The interfaces and core link of the traffic from `origin` to `destination` (bit/s over the
 * range): in-interface, core link start and end (`|` when the flow crossed no core link),
 * out-interface. Columns: in_if, link_start, link_end, out_if, path_bps.
 */
export function linkPathQuery(origin: LinkEndpoint, destination: LinkEndpoint, opts: FlowQueryOptions): BuiltQuery {
  const originDim = endpointDimension("origin", origin);
  const destinationDim = endpointDimension("destination", destination);
  const inner = topTable([originDim, destinationDim, ...LINK_DIMENSIONS], { ...opts, limit: NO_CUT });
  const scope = (dim: DimensionId, name: string) => `${dim} = {${name}:${getDimension(dim).valueType}}`;
  const value = (e: LinkEndpoint) => (e.kind === "AS" ? e.asn : e.router);
  const sql = [
    "SELECT INTERFACE_IN AS in_if, INTERNAL_LINK_START AS link_start, INTERNAL_LINK_END AS link_end, INTERFACE_OUT AS out_if, sum(bps) AS path_bps",
    "FROM (",
    inner.sql,
    ")",
    `WHERE ${scope(originDim, "origin")} AND ${scope(destinationDim, "destination")}`,
    "GROUP BY in_if, link_start, link_end, out_if",
    "ORDER BY path_bps DESC, in_if ASC, link_start ASC, link_end ASC, out_if ASC",
  ].join("\n");
  return { name: "flows.linkPath", sql, params: { ...inner.params, origin: value(origin), destination: value(destination) } };
}

/** A row of interfaceLoadQuery. */
export const interfaceLoadRow = z.object({ key: z.string(), in_bps: z.number(), out_bps: z.number(), capacity_bps: z.number() });

/**
 * All traffic measured on interfaces over a range (interface_util_5m, every flow, not only the
 * selection), for utilisation: bit/s in and out and the largest capacity seen.
 * Keys are `router|interface`. Columns: key, in_bps, out_bps, capacity_bps.
 */
export function interfaceLoadQuery(keys: readonly string[], range: { start: number; end: number }): BuiltQuery {
  const seconds = range.end - range.start;
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || seconds <= 0)
    throw new Error("The time range must be non-empty whole seconds");
  // One row per interface and interval: where SNMP and flows (or the demo) both wrote it, SNMP's.
  const sql = [
    "SELECT key,",
    "  toFloat64(sum(interval_in)) * 8 / {seconds:UInt32} AS in_bps,",
    "  toFloat64(sum(interval_out)) * 8 / {seconds:UInt32} AS out_bps,",
    "  toFloat64(max(interval_capacity)) AS capacity_bps",
    "FROM (",
    "  SELECT concat(router, '|', interface) AS key, time,",
    `    argMax(in_bytes, ${UTIL_SOURCE_RANK_SQL}) AS interval_in,`,
    `    argMax(out_bytes, ${UTIL_SOURCE_RANK_SQL}) AS interval_out,`,
    `    argMax(capacity_bps, ${UTIL_SOURCE_RANK_SQL}) AS interval_capacity`,
    "  FROM interface_util_5m FINAL",
    "  WHERE time >= toDateTime({start:UInt32}, 'UTC')",
    "    AND time < toDateTime({end:UInt32}, 'UTC')",
    "    AND concat(router, '|', interface) IN {keys:Array(String)}",
    "  GROUP BY key, time",
    ")",
    "GROUP BY key",
    "ORDER BY key ASC",
  ].join("\n");
  return { name: "flows.interfaceLoad", sql, params: { start: range.start, end: range.end, seconds, keys: [...keys] } };
}

/**
 * Per bucket of `window`: all traffic of an AS dimension and the parts carried by the special
 * values Untracked (-999), Others (-101, the ASes outside the tracked top 200) and Not routable
 * (-1). Columns: bucket (unix seconds), total_bps, untracked_bps, others_bps, not_routable_bps.
 */
export function untrackedQuery(dimension: DimensionId, opts: FlowQueryOptions & { window: AggregationWindow }): BuiltQuery {
  if (getDimension(dimension).filterKind !== "AS_NUMBER") throw new Error(`${dimension} is not an AS dimension`);
  const inner = timeseries(dimension, { ...opts, topN: NO_CUT });
  const sql = [
    "SELECT toUInt32(bucket) AS bucket, sum(bps) AS total_bps,",
    "  sumIf(bps, value = {untrackedAs:Int64}) AS untracked_bps,",
    "  sumIf(bps, value = {othersAs:Int64}) AS others_bps,",
    "  sumIf(bps, value = {notRoutableAs:Int64}) AS not_routable_bps",
    "FROM (",
    inner.sql,
    ")",
    "GROUP BY bucket",
    "ORDER BY bucket ASC",
  ].join("\n");
  return {
    name: "flows.untracked",
    sql,
    params: { ...inner.params, untrackedAs: UNTRACKED_AS, othersAs: OTHERS_AS_VALUE, notRoutableAs: NOT_ROUTABLE_AS },
  };
}
