/**
 * Pure SQL builders of root-cause analysis (POST api/rootcause/). No I/O.
 *
 * The object's traffic is read through the Flow Explorer's own builders (../sql.ts), so the filters,
 * the direction and the special values follow the rules of every other flow view; the object
 * (an AS, a router, an interface) is the one filter of the read. The routing evidence reads
 * rib_entries: every row of the affected prefixes, at every vantage point, inside the window; the
 * object's top source addresses come from flows_raw.
 */
import type { DimensionId } from "~/features/filter/dimensions";
import type { ObjectDimension } from "./link";
import type { FlowFilter } from "~/features/filter/filters";
import type { AggregationWindow } from "../aggregation-window";
import { NO_CUT } from "../analysis-sql";
import { bucketedTable, topTable, type BuiltQuery } from "../sql";
import { dimensionFilterConditions, DIRECTION_SQL } from "~/features/filter/flow-filter-sql";
import { DEFAULT_RIB_VIEWS } from "~/features/routing/rib-views";

/** The levels the change is split by, as dimensions. */
export const LEVEL_DIMENSIONS = ["AS_HND_INGRESS", "ROUTER_IN", "INTERFACE_IN"] as const satisfies readonly DimensionId[];

export type ObjectScope = { dimension: ObjectDimension; value: string; operatorAsn: number };

const objectFilter = (o: ObjectScope): FlowFilter => ({ dimension: o.dimension, value: o.value, isNegation: false });

/**
 * The object's ingress traffic per bucket of `window` and per handover AS, ingress router and
 * ingress interface, from flows_5m. Columns: bucket, AS_HND_INGRESS, ROUTER_IN, INTERFACE_IN, bps.
 */
export function objectLevelsQuery(o: ObjectScope, range: { start: number; end: number }, window: AggregationWindow): BuiltQuery {
  const q = bucketedTable(LEVEL_DIMENSIONS, { range, window, table: "flows_5m", filters: [objectFilter(o)], operatorAsn: o.operatorAsn });
  return { ...q, name: "rootcause.levels" };
}

/** The object's top source ASes over a range (bit/s), for the prefixes of a router or an interface. Columns: AS_SRC_INGRESS, bps, total_bytes. */
export function objectSourceAsQuery(o: ObjectScope, range: { start: number; end: number }, limit: number): BuiltQuery {
  const q = topTable(["AS_SRC_INGRESS"], { range, table: "flows_5m", filters: [objectFilter(o)], operatorAsn: o.operatorAsn, limit });
  return { ...q, name: "rootcause.sourceAs" };
}

/** Prefixes whose routes name one of the ASes as origin (the last AS of the path), announced up to `end`. Columns: prefix. */
const ORIGINATED = [
  "SELECT DISTINCT prefix FROM rib_entries",
  "WHERE is_withdrawn = 0 AND length(as_path) > 0 AND as_path[-1] IN {origins:Array(UInt32)}",
  "  AND timestamp < toDateTime({end:UInt32}, 'UTC')",
].join("\n");

/**
 * The object's top remote addresses: the source addresses of its ingress traffic in [start, end),
 * by bytes, from the raw records (flows_raw), counted as the aggregates count them (counted = 1,
 * dropped packets left out, bytes × sampling rate). The object's filter is its dimension's column,
 * which flows_raw holds under the same name. Columns: address (IPv6 text), total_bytes.
 */
export function topSourceAddressesQuery(o: ObjectScope, range: { start: number; end: number }, limit: number): BuiltQuery {
  const filtered = dimensionFilterConditions([objectFilter(o)]);
  const sql = [
    "SELECT toString(src_addr) AS address, toString(sum(bytes * sampling_rate)) AS total_bytes",
    "FROM flows_raw",
    "WHERE time_received >= toDateTime({start:UInt32}, 'UTC') AND time_received < toDateTime({end:UInt32}, 'UTC')",
    "  AND counted = 1 AND bitShiftRight(forwarding_status, 6) != 2",
    `  AND ${DIRECTION_SQL.INGRESS}`,
    ...filtered.conds.map((c) => `  AND ${c}`),
    "GROUP BY src_addr",
    "ORDER BY sum(bytes * sampling_rate) DESC, src_addr ASC",
    "LIMIT {limit:UInt32}",
  ].join("\n");
  return {
    name: "rootcause.topAddresses",
    sql,
    params: { ...filtered.params, operatorAsn: o.operatorAsn, start: range.start, end: range.end, limit },
  };
}

/** Candidate routes read at most for the longest matches (a prefix per table and covering length). */
export const COVERING_ROUTES_LIMIT = 20_000;

/**
 * The prefixes at each vantage point's tables (vantage point, route distinguisher) among the candidate
 * networks of the top addresses that had a route during the window: up at its start (the newest event
 * before it an announcement; a withdrawal wins a tie) or announced inside it. The tables read are the
 * default ones (post-policy and Loc-RIB): what the routers accepted. The longest covering prefix per
 * address is picked from these (prefixes.ts). Columns: vantage_point, route_distinguisher, prefix,
 * prefix_addr, prefix_len, afi.
 */
export function coveringRoutesQuery(candidates: readonly string[], window: { start: number; end: number }): BuiltQuery {
  const sql = [
    "SELECT toString(vantage_point) AS vantage_point, toString(route_distinguisher) AS route_distinguisher, prefix,",
    "  toString(prefix_addr) AS prefix_addr, prefix_len, afi",
    "FROM (",
    "  SELECT vantage_point, route_distinguisher, prefix, prefix_addr, prefix_len, afi,",
    "    countIf(timestamp < toDateTime({start:UInt32}, 'UTC')) > 0",
    "      AND argMaxIf(is_withdrawn, (timestamp, is_withdrawn), timestamp < toDateTime({start:UInt32}, 'UTC')) = 0 AS up_at_start,",
    "    countIf(timestamp >= toDateTime({start:UInt32}, 'UTC') AND is_withdrawn = 0) > 0 AS announced_inside",
    "  FROM rib_entries",
    "  WHERE prefix_addr IN {candidates:Array(IPv6)} AND rib_view IN {ribViews:Array(String)}",
    "    AND timestamp < toDateTime({end:UInt32}, 'UTC')",
    "  GROUP BY vantage_point, route_distinguisher, prefix, prefix_addr, prefix_len, afi, peer_ip, rib_view, path_id",
    "  HAVING up_at_start OR announced_inside",
    ")",
    "GROUP BY vantage_point, route_distinguisher, prefix, prefix_addr, prefix_len, afi",
    "ORDER BY vantage_point, route_distinguisher, prefix_len DESC, prefix",
    "LIMIT {limit:UInt32}",
  ].join("\n");
  return {
    name: "rootcause.coveringRoutes",
    sql,
    params: {
      candidates: [...candidates],
      ribViews: [...DEFAULT_RIB_VIEWS],
      start: window.start,
      end: window.end,
      limit: COVERING_ROUTES_LIMIT,
    },
  };
}

/** The affected prefixes: those the ASes originate, or one of the `covering` prefixes (longest matches of top addresses). */
const AFFECTED = `(prefix IN (${ORIGINATED}) OR prefix IN {covering:Array(String)})`;

/**
 * The routing evidence: every rib_entries row in [start, end) of an affected prefix, at every vantage
 * point; `originated` tells whether the ASes originate the prefix. Columns: timestamp (unix seconds),
 * vantage_point, peer_ip, peer_asn, prefix, is_withdrawn, as_path, originated.
 */
export function routingChangesQuery(
  origins: readonly number[],
  covering: readonly string[],
  window: { start: number; end: number },
): BuiltQuery {
  const sql = [
    "SELECT toUInt32(timestamp) AS timestamp, toString(vantage_point) AS vantage_point, peer_ip, peer_asn, prefix, is_withdrawn, as_path,",
    `  toUInt8(prefix IN (${ORIGINATED})) AS originated`,
    "FROM rib_entries",
    "WHERE timestamp >= toDateTime({start:UInt32}, 'UTC') AND timestamp < toDateTime({end:UInt32}, 'UTC')",
    `  AND ${AFFECTED}`,
    "ORDER BY timestamp ASC, vantage_point ASC, peer_ip ASC, prefix ASC, is_withdrawn ASC",
    `LIMIT ${NO_CUT}`,
  ].join("\n");
  return {
    name: "rootcause.routingChanges",
    sql,
    params: { origins: [...origins], covering: [...covering], start: window.start, end: window.end },
  };
}

/**
 * The last state before `start` of each route (vantage point, peer, prefix) of those prefixes, to
 * tell a first announcement from a path change. Columns: vantage_point, peer_ip, prefix, is_withdrawn, as_path.
 */
export function routingBeforeQuery(
  origins: readonly number[],
  covering: readonly string[],
  window: { start: number; end: number },
): BuiltQuery {
  const sql = [
    "SELECT toString(vantage_point) AS vantage_point, peer_ip, prefix,",
    "  argMax(is_withdrawn, timestamp) AS is_withdrawn, argMax(as_path, timestamp) AS as_path",
    "FROM rib_entries",
    "WHERE timestamp < toDateTime({start:UInt32}, 'UTC')",
    `  AND ${AFFECTED}`,
    "GROUP BY vantage_point, peer_ip, prefix",
  ].join("\n");
  return {
    name: "rootcause.routingBefore",
    sql,
    params: { origins: [...origins], covering: [...covering], start: window.start, end: window.end },
  };
}

/** The vantage points with any routing data up to `end`. Columns: vantage_point. */
export function vantagePointsQuery(end: number): BuiltQuery {
  return {
    name: "rootcause.vantagePoints",
    sql: "SELECT DISTINCT toString(vantage_point) AS vantage_point FROM rib_entries WHERE timestamp < toDateTime({end:UInt32}, 'UTC') ORDER BY vantage_point",
    params: { end },
  };
}

/**
 * The SNMP polls of interfaces ("router|interface") in [start, end): per interface, its first polled interval,
 * the intervals polled and those of them interpolated (a missed poll filled in). Interfaces never polled (flows
 * only) have no row. Columns: key, first, samples, interpolated.
 */
export function pollQualityQuery(keys: readonly string[], range: { start: number; end: number }): BuiltQuery {
  const sql = [
    "SELECT key, toUInt32(min(time)) AS first, count() AS samples, countIf(interpolated_interval = 1) AS interpolated",
    "FROM (",
    "  SELECT concat(router, '|', interface) AS key, time, max(interpolated) AS interpolated_interval",
    "  FROM interface_util_5m FINAL",
    "  WHERE source = 'snmp'",
    "    AND time >= toDateTime({start:UInt32}, 'UTC')",
    "    AND time < toDateTime({end:UInt32}, 'UTC')",
    "    AND concat(router, '|', interface) IN {keys:Array(String)}",
    "  GROUP BY key, time",
    ")",
    "GROUP BY key",
    "ORDER BY key ASC",
  ].join("\n");
  return { name: "rootcause.pollQuality", sql, params: { start: range.start, end: range.end, keys: [...keys] } };
}
