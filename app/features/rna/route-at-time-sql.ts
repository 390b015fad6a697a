/**
 * The routes that covered an address at one moment at one vantage point, from the routing
 * history (rib_entries, db/clickhouse/0003_rib.sql and 0006_rib_views.sql). Pure: a statement for
 * the query door.
 *
 * Bounded by rib_entries' sorting key (vantage_point, prefix_addr, prefix_len, timestamp): one
 * vantage point, the address's candidate networks (/0–/32 or /0–/128, bound as an array) and
 * timestamp ≤ t, so the read touches the granules of those few prefixes only. Each route
 * (prefix, peer, table, ADD-PATH path) keeps its newest event before t; a route whose newest
 * event is a withdrawal was not there. The tables read are the default ones (post-policy and
 * Loc-RIB, rib-views.ts): what the router accepted.
 */
import { z } from "zod";
import { DEFAULT_RIB_VIEWS, RIB_VIEWS, type RibView } from "~/features/routing/rib-views";
import { matchConditions, type RibMatch, type Sql } from "~/features/routing/rib-sql";

/** Routes returned at most, longest prefix first: a prefix has one route per peer, table and path. */
export const ROUTE_AT_TIME_LIMIT = 200;

export const routeAtTimeDbRow = z.object({
  announced_at: z.number(),
  prefix: z.string(),
  prefix_len: z.number(),
  rib_view: z.enum(RIB_VIEWS),
  path_id: z.number(),
  peer_ip: z.string(),
  peer_asn: z.number(),
  as_path: z.array(z.number()),
  as_path_set: z.array(z.number()),
  local_pref: z.number(),
  med: z.number(),
  bgp_next_hop: z.string(),
  origin: z.string(),
  communities: z.array(z.string()),
  ext_communities: z.array(z.string()),
});
export type RouteAtTimeDbRow = z.output<typeof routeAtTimeDbRow>;

export function routeAtTimeSql(options: {
  vantagePoint: string;
  routeDistinguisher: string;
  /** An address match of parseRibQuery (its candidate networks). */
  match: Extract<RibMatch, { kind: "address" }>;
  /** Unix seconds. */
  at: number;
  ribViews?: readonly RibView[];
  limit?: number;
}): Sql {
  const { key, row, params } = matchConditions(options.match);
  // Two events of one route in the same second: the withdrawal is taken, a route is not claimed on a tie.
  const sql = `
SELECT toUnixTimestamp(timestamp) AS announced_at, prefix, prefix_len, toString(rib_view) AS rib_view, path_id, peer_ip, peer_asn,
       as_path, as_path_set, local_pref, med, bgp_next_hop, toString(origin) AS origin, communities, ext_communities
FROM (
    SELECT timestamp, prefix, prefix_addr, prefix_len, rib_view, path_id, peer_ip, peer_asn, afi, is_withdrawn, as_path, as_path_set,
           local_pref, med, bgp_next_hop, origin, communities, ext_communities
    FROM rib_entries
    WHERE vantage_point = {vantagePoint:String} AND route_distinguisher = {routeDistinguisher:String}
      AND rib_view IN {ribViews:Array(String)} AND timestamp <= toDateTime({at:UInt32}, 'UTC') AND ${key}
    ORDER BY timestamp DESC, is_withdrawn DESC
    LIMIT 1 BY prefix_addr, prefix_len, peer_ip, rib_view, path_id
)
WHERE is_withdrawn = 0 AND ${row}
ORDER BY prefix_len DESC, peer_ip, rib_view, path_id
LIMIT {limit:UInt32}`.trim();
  return {
    name: "rna.routeAtTime",
    sql,
    params: {
      ...params,
      vantagePoint: options.vantagePoint,
      routeDistinguisher: options.routeDistinguisher,
      ribViews: [...(options.ribViews ?? DEFAULT_RIB_VIEWS)],
      at: options.at,
      limit: options.limit ?? ROUTE_AT_TIME_LIMIT,
    },
  };
}
