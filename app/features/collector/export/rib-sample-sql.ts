/**
 * The routes the flow generator draws addresses from: per vantage point, the current best route of
 * each prefix of the global table (highest local preference, then shortest AS path), a spread
 * sample bounded per vantage point and overall, because a full internet table has a million
 * prefixes and the generator needs only enough variety to look real. Routes the router accepted
 * only: Loc-RIB and post-policy Adj-RIB-In, each table and ADD-PATH path a route of its own.
 */
import { z } from "zod";
import type { Statement } from "~/server/clickhouse/query.server";

export const RIB_SAMPLE_PER_VANTAGE_POINT = 5_000;
export const RIB_SAMPLE_TOTAL = 100_000;

export const ribSampleRow = z.object({
  vantage_point: z.string(),
  prefix: z.string(),
  as_path: z.array(z.number()),
  bgp_next_hop: z.string(),
});
export type RibSampleRow = z.output<typeof ribSampleRow>;

export function ribSampleStatement(perVantagePoint = RIB_SAMPLE_PER_VANTAGE_POINT, total = RIB_SAMPLE_TOTAL): Statement {
  return {
    name: "collector.generator.ribSample",
    // rib_current keeps the newest row per route only after merges: argMax by timestamp picks it,
    // and a withdrawn newest row (a tombstone) drops the route.
    // Inner aliases differ from the outer ones: ClickHouse would otherwise resolve the outer alias inside it.
    sql: `SELECT vantage_point, prefix, as_path, bgp_next_hop
FROM (
  SELECT vantage_point, prefix,
         argMax(route_path, (route_pref, -length(route_path), peer_ip)) AS as_path,
         argMax(route_next_hop, (route_pref, -length(route_path), peer_ip)) AS bgp_next_hop
  FROM (
    SELECT vantage_point, prefix, peer_ip, rib_view, path_id,
           argMax(as_path, timestamp) AS route_path,
           argMax(bgp_next_hop, timestamp) AS route_next_hop,
           argMax(local_pref, timestamp) AS route_pref,
           argMax(is_withdrawn, timestamp) AS route_withdrawn
    FROM rib_current
    WHERE route_distinguisher = '' AND rib_view != 'pre-policy'
    GROUP BY vantage_point, prefix_addr, prefix_len, peer_ip, rib_view, path_id, prefix
  )
  WHERE route_withdrawn = 0
  GROUP BY vantage_point, prefix
)
ORDER BY vantage_point, cityHash64(prefix)
LIMIT {perVantagePoint:UInt32} BY vantage_point
LIMIT {total:UInt32}`,
    params: { perVantagePoint, total },
  };
}
