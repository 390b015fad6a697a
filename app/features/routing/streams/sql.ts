/**
 * Pure SQL builders of an AS's routing streams (api/routingstreams/?asn): the routes of
 * rib_current (newest row per route, withdrawals left out, the default tables post-policy and
 * Loc-RIB) whose origin is the AS — the last AS of the path; a path ending in an AS_SET has no
 * single origin and is not counted; an empty path (a route originated inside the network) has the
 * peer's AS, as route origin validation reads it. Values only as {name:Type} parameters.
 */
import type { Statement } from "~/server/clickhouse/query.server";
import { DEFAULT_RIB_VIEWS, type RibView } from "../rib-views";

type BuiltStatement = Statement & { params: Record<string, unknown> };

/** The origin's routes, one row per route and table. */
const originRoutes = `
    SELECT vantage_point, route_distinguisher, prefix, afi, as_path
    FROM (
        SELECT vantage_point, route_distinguisher, prefix, afi, as_path, as_path_set, is_withdrawn, peer_asn
        FROM rib_current FINAL
        WHERE rib_view IN {ribViews:Array(String)}
    )
    WHERE is_withdrawn = 0 AND empty(as_path_set) AND if(empty(as_path), peer_asn, as_path[-1]) = {asn:UInt32}`;

const neighbor = "if(empty(as_path), 0, as_path[1])";
const paramsOf = (options: { asn: number; ribViews?: readonly RibView[] }) => ({
  asn: options.asn,
  ribViews: [...(options.ribViews ?? DEFAULT_RIB_VIEWS)],
});

/** The counts over all the origin's routes: prefixes (per family), vantage points, neighbours, streams. */
export function routingStreamsSummarySql(options: { asn: number; ribViews?: readonly RibView[] }): BuiltStatement {
  return {
    name: "routing.streamsSummary",
    sql: `
SELECT uniqExact(prefix) AS prefixes, uniqExactIf(prefix, afi = 1) AS ipv4, uniqExactIf(prefix, afi = 2) AS ipv6,
       uniqExact(vantage_point) AS vantage_points, uniqExact(${neighbor}) AS neighbors,
       uniqExact(vantage_point, ${neighbor}, as_path) AS streams
FROM (${originRoutes}
)`.trim(),
    params: paramsOf(options),
  };
}

/** Per vantage point: the origin's prefixes it holds, and over how many neighbours and paths. */
export function routingStreamsVantagePointsSql(options: { asn: number; ribViews?: readonly RibView[] }): BuiltStatement {
  return {
    name: "routing.streamsVantagePoints",
    sql: `
SELECT vantage_point, uniqExact(route_distinguisher, prefix) AS prefixes, uniqExact(${neighbor}) AS neighbors, uniqExact(as_path) AS paths
FROM (${originRoutes}
)
GROUP BY vantage_point
ORDER BY vantage_point`.trim(),
    params: paramsOf(options),
  };
}

/** Per vantage point, neighbour (the path's first AS; 0 for an empty path) and path: the prefixes received. */
export function routingStreamsSql(options: { asn: number; limit: number; ribViews?: readonly RibView[] }): BuiltStatement {
  return {
    name: "routing.streams",
    sql: `
SELECT vantage_point, ${neighbor} AS neighbor_asn, as_path,
       uniqExact(route_distinguisher, prefix) AS prefixes,
       uniqExactIf((route_distinguisher, prefix), afi = 1) AS ipv4,
       uniqExactIf((route_distinguisher, prefix), afi = 2) AS ipv6
FROM (${originRoutes}
)
GROUP BY vantage_point, neighbor_asn, as_path
ORDER BY vantage_point, prefixes DESC, neighbor_asn, toString(as_path)
LIMIT {limit:UInt32}`.trim(),
    params: { ...paramsOf(options), limit: options.limit },
  };
}

/** Per prefix the AS originates: at how many vantage points, over how many neighbours and paths it is received. */
export function originatedPrefixesSql(options: { asn: number; limit: number; ribViews?: readonly RibView[] }): BuiltStatement {
  return {
    name: "routing.streamsPrefixes",
    sql: `
SELECT prefix, any(afi) AS afi, uniqExact(vantage_point) AS vantage_points, uniqExact(${neighbor}) AS neighbors,
       uniqExact(as_path) AS paths
FROM (${originRoutes}
)
GROUP BY prefix
ORDER BY afi, prefix
LIMIT {limit:UInt32}`.trim(),
    params: { ...paramsOf(options), limit: options.limit },
  };
}
