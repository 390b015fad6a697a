/**
 * SQL of the BMP station beyond plain inserts (pure builders, bound parameters only):
 *   - a sweep: the current routes of a peer, a peer's address family, or a whole router, written
 *     again into rib_entries as withdrawals (is_withdrawn = 1, no path attributes, as the MRT
 *     import writes withdrawals) at the station's time, so rib_current (through its materialized
 *     view) and the routing history both record them. `before` limits it to routes older than a
 *     time (a reconnecting router's routes not announced again by its new session);
 *   - the cheap check that runs first: whether any row at all could match (no FINAL), so a sweep of
 *     a router seen for the first time costs a look at one key range, not a merge of the table;
 *   - the count of current routes per router, peer and RIB view (the station's figures).
 *
 * Which rows are a peer's: those of the station's vantage point and router (router_ip), with the
 * peer's address (a Loc-RIB instance: the router's own address) in the views of its kind — Adj-RIB-In
 * (pre- and post-policy) for a BGP peer, Loc-RIB for a Loc-RIB instance. An RD instance peer's
 * routes are those of its route distinguishers; a global peer's those of every route distinguisher
 * but the ones of RD instance peers of the same address (two VRFs may have a neighbour of the same
 * address).
 */
import type { RibView } from "~/features/routing/bmp/types";
import type { Statement } from "~/server/clickhouse/query.server";

export type SweepScope = {
  vantagePoint: string;
  /** The router's address, as its rows carry it in router_ip. */
  routerIp: string;
  /** Only this peer's rows (peer_ip); absent: every peer of the router. */
  peerIp?: string;
  views: readonly RibView[];
  /** Only these route distinguishers, or every one but these. */
  distinguishers?: { only: readonly string[] } | { except: readonly string[] };
  /** Only one address family. */
  family?: { afi: number; safi: number };
  /** Only routes whose current row is older than this (Unix seconds). */
  before?: number;
  /** Peers left alone, as "peer address|rib view" (the peers of a router's new session, which sweep their own). */
  keepPeers?: readonly string[];
};

type Parts = { keyed: string[]; current: string[]; params: Record<string, unknown> };

/** Conditions on columns every row of a route shares (applied before FINAL), and on the current row (after it). */
function conditions(scope: SweepScope): Parts {
  const keyed = ["vantage_point = {vantagePoint:String}", "toString(rib_view) IN {views:Array(String)}"];
  const current = ["router_ip = {routerIp:String}", "is_withdrawn = 0"];
  const params: Record<string, unknown> = { vantagePoint: scope.vantagePoint, routerIp: scope.routerIp, views: [...scope.views] };
  if (scope.peerIp !== undefined) {
    keyed.push("peer_ip = {peerIp:String}");
    params.peerIp = scope.peerIp;
  }
  if (scope.distinguishers && "only" in scope.distinguishers) {
    keyed.push("route_distinguisher IN {distinguishers:Array(String)}");
    params.distinguishers = [...scope.distinguishers.only];
  } else if (scope.distinguishers && scope.distinguishers.except.length) {
    keyed.push("route_distinguisher NOT IN {distinguishers:Array(String)}");
    params.distinguishers = [...scope.distinguishers.except];
  }
  if (scope.family) {
    keyed.push("afi = {afi:UInt8}", "safi = {safi:UInt8}");
    params.afi = scope.family.afi;
    params.safi = scope.family.safi;
  }
  if (scope.keepPeers?.length) {
    keyed.push("concat(peer_ip, '|', toString(rib_view)) NOT IN {keepPeers:Array(String)}");
    params.keepPeers = [...scope.keepPeers];
  }
  if (scope.before !== undefined) {
    current.push("timestamp < toDateTime({before:UInt32}, 'UTC')");
    params.before = scope.before;
  }
  return { keyed, current, params };
}

/** Whether any row could be swept: every part read as it is (no FINAL), at most one row. */
export function sweepCandidatesSql(scope: SweepScope): Statement {
  const { keyed, current, params } = conditions(scope);
  return {
    name: "bmp.sweepCandidates",
    sql: `SELECT count() AS n FROM (SELECT 1 FROM rib_current WHERE ${[...keyed, ...current].join(" AND ")} LIMIT 1)`,
    params,
  };
}

/** The routes of `scope` withdrawn at `at` (Unix seconds): their current rows written again as withdrawals. */
export function sweepSql(scope: SweepScope, at: number): Statement {
  const { keyed, current, params } = conditions(scope);
  return {
    name: "bmp.sweep",
    sql: `
INSERT INTO rib_entries (timestamp, vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
                         afi, safi, is_withdrawn, as_path, as_path_set, as_confed_seq, local_pref, med, bgp_next_hop, origin,
                         aggregator, originator_id, communities, expire_at, rib_view, path_id, ext_communities)
SELECT toDateTime({at:UInt32}, 'UTC'), vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
       afi, safi, 1, emptyArrayUInt32(), emptyArrayUInt32(), emptyArrayUInt32(), 0, 0, '', 'IGP',
       '', '', emptyArrayString(), toDateTime(0, 'UTC'), rib_view, path_id, emptyArrayString()
FROM (
    SELECT * FROM rib_current FINAL
    WHERE ${keyed.join(" AND ")}
)
WHERE ${current.join(" AND ")}`.trim(),
    params: { ...params, at },
  };
}

/** Current routes per vantage point, router, peer and view, for the given vantage points. */
export function routeCountsSql(vantagePoints: readonly string[]): Statement {
  return {
    name: "bmp.routeCounts",
    sql: `
SELECT vantage_point AS vp, router_ip AS router, peer_ip AS peer, toString(rib_view) AS view, count() AS routes
FROM (
    SELECT vantage_point, router_ip, peer_ip, rib_view, is_withdrawn FROM rib_current FINAL
    WHERE vantage_point IN {vantagePoints:Array(String)}
)
WHERE is_withdrawn = 0
GROUP BY vp, router, peer, view
ORDER BY vp, router, peer, view`.trim(),
    params: { vantagePoints: [...vantagePoints] },
  };
}
