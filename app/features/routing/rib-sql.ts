/**
 * Pure SQL builders over the routing tables (db/clickhouse/0003_rib.sql, 0006_rib_views.sql) for
 * the Looking Glass (current state, rib_current) and the Control Plane (history, rib_entries).
 * Values travel as {name:Type} query parameters only.
 *
 * IPv4 prefixes are stored IPv4-mapped in prefix_addr (::ffff:a.b.c.d) with their IPv4 length in
 * prefix_len (0–32) and afi 1; IPv6 ones as they are with afi 2. Every query reads the tables
 * (rib_view) it is given: by default post-policy and Loc-RIB (rib-views.ts). Lookups are written
 * against the sorting key of rib_current (vantage_point, route_distinguisher, prefix_addr,
 * prefix_len, peer_ip, rib_view, path_id):
 * an address becomes its 33 (or 129) candidate networks, looked up by prefix_addr IN (…), and a
 * prefix a prefix_addr range, so a query reads the few granules that can hold the answer.
 */
import { asPathRegex, parseAsPathPattern, formatAsPathPattern } from "~/lib/as-path-pattern";
import type { CommunityPattern } from "~/lib/bgp-communities";
import { MESSAGES } from "~/lib/messages";
import type { RibQueryType } from "~/lib/routing-query-types";
import { z } from "zod";
import type { Statement } from "~/server/clickhouse/query.server";
import { PATH_ATTRIBUTES, type ControlPlaneColumn } from "./route-columns";
import { DEFAULT_RIB_VIEWS, RIB_VIEWS, type RibView } from "./rib-views";
import { ADDRESS_BITS, formatNetwork, lastAddress, networkAddress, parseNetwork, toIpv6Column, type IpVersion } from "~/lib/ip";

/**
 * What a query term selects:
 * - address: the routes covering the address (the Looking Glass keeps the longest per table);
 * - prefix: the prefix itself and its more-specifics;
 * - asPath: routes whose whole AS path matches the pattern.
 */
export type RibMatch =
  | { kind: "address"; version: IpVersion; address: string; candidates: string[] }
  | { kind: "prefix"; version: IpVersion; low: string; high: string; length: number }
  | { kind: "asPath"; regex: string };

export type ParsedRibQuery = { ok: true; match: RibMatch; term: string } | { ok: false; error: string };

/** A trimmed query term of a RIB query type → what it selects and its normalised text, or the error. */
export function parseRibQuery(queryType: RibQueryType, rawTerm: string): ParsedRibQuery {
  const term = rawTerm.trim();
  if (queryType === "AsPathQuery") {
    const pattern = parseAsPathPattern(term);
    if (!pattern.ok) return pattern;
    return { ok: true, match: { kind: "asPath", regex: asPathRegex(pattern.tokens) }, term: formatAsPathPattern(pattern.tokens) };
  }
  const network = parseNetwork(term);
  if (!network) return { ok: false, error: MESSAGES.invalidNetwork };
  const { version, value, length } = network;
  if (!network.hasLength) {
    const candidates = new Set<string>();
    for (let len = 0; len <= ADDRESS_BITS[version]; len++)
      candidates.add(toIpv6Column({ version, value: networkAddress(version, value, len) }));
    return {
      ok: true,
      match: { kind: "address", version, address: toIpv6Column(network), candidates: [...candidates] },
      term: formatNetwork(network),
    };
  }
  return {
    ok: true,
    match: {
      kind: "prefix",
      version,
      low: toIpv6Column(network),
      high: toIpv6Column({ version, value: lastAddress(version, value, length) }),
      length,
    },
    term: formatNetwork(network),
  };
}

/** A statement for the query door (app/server/clickhouse/query.server.ts). */
export type Sql = Statement & { params: Record<string, unknown> };

/**
 * AS path patterns are one anchored RE2 expression over the path as text, exact for every pattern.
 * Measured on 2 million random paths in chDB: indexing the array directly (`as_path[-1] = x`) is
 * about 5 times faster for a pattern with one fixed end, a general `arrayAll` over fixed positions
 * about 1.5 times — both only cover patterns with at most one `*`, and a vantage point's table is
 * scanned in well under a second either way, so the single exact form is kept.
 *
 * The condition on sorting-key columns (safe below FINAL: every row of one route shares them) and
 * the condition on the newest row's other columns (applied after FINAL). Also the RNA's route at
 * the time of a flow (features/rna/route-at-time.ts) reads rib_entries with it.
 */
export function matchConditions(match: RibMatch): { key: string; row: string; params: Record<string, unknown> } {
  if (match.kind === "asPath") {
    return {
      key: "1",
      row: "match(arrayStringConcat(arrayMap(a -> concat(toString(a), ' '), as_path)), {asPathRegex:String})",
      params: { asPathRegex: match.regex },
    };
  }
  const afi = match.version === 4 ? 1 : 2;
  const maxLength = ADDRESS_BITS[match.version];
  if (match.kind === "address") {
    return {
      key:
        "prefix_addr IN {candidates:Array(IPv6)} AND prefix_len <= {maxLength:UInt8}" +
        " AND prefix_addr = tupleElement(IPv6CIDRToRange({address:IPv6}, toUInt8(prefix_len + {lengthOffset:UInt8})), 1)",
      row: "afi = {afi:UInt8}",
      params: { candidates: match.candidates, maxLength, address: match.address, lengthOffset: 128 - maxLength, afi },
    };
  }
  return {
    key: "prefix_addr BETWEEN {low:IPv6} AND {high:IPv6} AND prefix_len BETWEEN {length:UInt8} AND {maxLength:UInt8}",
    row: "afi = {afi:UInt8}",
    params: { low: match.low, high: match.high, length: match.length, maxLength, afi },
  };
}

/** Columns of a Looking Glass row as read from rib_current. */
export const lookingGlassDbRow = z.object({
  vantage_point: z.string(),
  route_distinguisher: z.string(),
  prefix: z.string(),
  as_path: z.array(z.number()),
  local_pref: z.number(),
  med: z.number(),
  bgp_next_hop: z.string(),
  communities: z.array(z.string()),
  ext_communities: z.array(z.string()),
  originator_id: z.string(),
  rib_view: z.enum(RIB_VIEWS),
  last_update: z.number(),
  /** For the route's origin AS (RPKI): the AS_SET members, and the AS of the peer the route came from. */
  as_path_set: z.array(z.number()),
  peer_asn: z.number(),
  /** Rows found before the limit. */
  total: z.number(),
});
export type LookingGlassDbRow = z.output<typeof lookingGlassDbRow>;

/**
 * The condition that a route carries a community (standard and large ones are in `communities`,
 * extended ones in `ext_communities`): exactly, or — for a pattern ending in `*` — one that starts
 * with the text before the `*` and has no further ':' (the `*` stands for the last part only).
 */
export function communityCondition(pattern: CommunityPattern): { sql: string; params: Record<string, unknown> } {
  if (!pattern.wildcard) {
    return {
      sql: "(has(communities, {community:String}) OR has(ext_communities, {community:String}))",
      params: { community: pattern.text },
    };
  }
  return {
    sql:
      "arrayExists(c -> startsWith(c, {communityPrefix:String}) AND length(c) > length({communityPrefix:String})" +
      " AND position(c, ':', length({communityPrefix:String}) + 1) = 0, arrayConcat(communities, ext_communities))",
    params: { communityPrefix: pattern.prefix },
  };
}

/**
 * Current routes of the vantage points that the match selects, in the tables `ribViews` (default:
 * post-policy and Loc-RIB); withdrawn routes (tombstones) are left out. An address keeps only its
 * longest matching prefix per vantage point and route distinguisher (each VRF is its own table),
 * with every route of that prefix: each peer, table and ADD-PATH path its own row. A `community`
 * narrows the routes to those carrying it (for an address, among the longest prefix's routes).
 * Rows are taken in turns across the vantage points (the first of each, then the second, …), so
 * the `limit` shares the answer among them; `total` counts the rows found.
 */
export function lookingGlassSql(options: {
  vantagePoints: string[];
  match: RibMatch;
  limit: number;
  ribViews?: readonly RibView[];
  community?: CommunityPattern | null;
}): Sql {
  const { key, row, params } = matchConditions(options.match);
  const longestOnly = options.match.kind === "address";
  const community = options.community ? communityCondition(options.community) : null;
  const outer = [...(longestOnly ? ["prefix_len = longest"] : []), ...(community ? [community.sql] : [])];
  const sql = `
SELECT vantage_point, route_distinguisher, prefix, as_path, local_pref, med, bgp_next_hop, communities, ext_communities, originator_id,
       toString(rib_view) AS rib_view, toUnixTimestamp(timestamp) AS last_update, as_path_set, peer_asn, total
FROM (
    SELECT *, count() OVER () AS total,
           row_number() OVER (PARTITION BY vantage_point ORDER BY route_distinguisher, prefix_addr, prefix_len, peer_ip, rib_view, path_id) AS turn
    FROM (
        SELECT *${longestOnly ? ", max(prefix_len) OVER (PARTITION BY vantage_point, route_distinguisher) AS longest" : ""}
        FROM (
            SELECT timestamp, vantage_point, route_distinguisher, prefix, prefix_addr, prefix_len, peer_ip, rib_view, path_id, afi,
                   is_withdrawn, as_path, local_pref, med, bgp_next_hop, communities, ext_communities, originator_id,
                   as_path_set, peer_asn
            FROM rib_current FINAL
            WHERE vantage_point IN {vantagePoints:Array(String)} AND rib_view IN {ribViews:Array(String)} AND ${key}
        )
        WHERE is_withdrawn = 0 AND ${row}
    )${outer.length ? `\n    WHERE ${outer.join(" AND ")}` : ""}
)
ORDER BY turn, vantage_point
LIMIT {limit:UInt32}`.trim();
  return {
    name: "routing.lookingGlass",
    sql,
    params: {
      ...params,
      ...community?.params,
      vantagePoints: options.vantagePoints,
      ribViews: [...(options.ribViews ?? DEFAULT_RIB_VIEWS)],
      limit: options.limit,
    },
  };
}

/** Columns of a Control Plane row as read from rib_entries. */
export const controlPlaneDbRow = z.object({
  timestamp: z.number(),
  vantage_point: z.string(),
  router_ip: z.string(),
  prefix: z.string(),
  as_path: z.array(z.number()),
  as_path_set: z.array(z.number()),
  as_confed_seq: z.array(z.number()),
  local_pref: z.number(),
  bgp_next_hop: z.string(),
  afi: z.number(),
  safi: z.number(),
  aggregator: z.string(),
  origin: z.string(),
  originator_id: z.string(),
  communities: z.array(z.string()),
  ext_communities: z.array(z.string()),
  rib_view: z.enum(RIB_VIEWS),
  path_id: z.number(),
  expire_at: z.number(),
  is_withdrawn: z.number(),
  total: z.number(),
});
export type ControlPlaneDbRow = z.output<typeof controlPlaneDbRow>;

/**
 * The routing history in [start, end] (unix seconds, both included) that the match selects, in the
 * tables `ribViews` (default: post-policy and Loc-RIB), newest first: announcements and withdrawals
 * as received. An address selects every prefix covering it (the history of each table's best match
 * would hide the changes that matter). An AS path pattern applies to announcements only: a
 * withdrawal carries no path.
 */
export function controlPlaneSql(options: {
  match: RibMatch;
  start: number;
  end: number;
  limit: number;
  table?: ControlPlaneTableQuery;
  ribViews?: readonly RibView[];
}): Sql {
  const { key, row, params } = matchConditions(options.match);
  const table = tableClauses(options.table ?? { sort: "timestamp", order: "desc" });
  const rowCondition = [options.match.kind === "asPath" ? `is_withdrawn = 0 AND ${row}` : row, ...table.conditions].join(" AND ");
  const sql = `
SELECT toUnixTimestamp(timestamp) AS timestamp, vantage_point, router_ip, prefix, as_path, as_path_set, as_confed_seq, local_pref,
       bgp_next_hop, afi, safi, aggregator, toString(origin) AS origin, originator_id, communities, ext_communities,
       toString(rib_view) AS rib_view, path_id, toUnixTimestamp(expire_at) AS expire_at, is_withdrawn, count() OVER () AS total
FROM rib_entries
WHERE timestamp BETWEEN toDateTime({start:UInt32}, 'UTC') AND toDateTime({end:UInt32}, 'UTC') AND rib_view IN {ribViews:Array(String)}
  AND ${key} AND ${rowCondition}
ORDER BY ${table.orderBy}timestamp DESC, vantage_point, prefix_addr, prefix_len, peer_ip, rib_view, path_id
LIMIT {limit:UInt32}`.trim();
  return {
    name: "routing.controlPlane",
    sql,
    params: {
      ...params,
      ...table.params,
      ribViews: [...(options.ribViews ?? DEFAULT_RIB_VIEWS)],
      start: options.start,
      end: options.end,
      limit: options.limit,
    },
  };
}

/**
 * How the Control Plane table orders and narrows its rows (features/controlplane/table-state):
 * the sorted column and direction, a search text and '>' / '<' filters on numeric columns.
 */
export type ControlPlaneTableQuery = {
  sort: ControlPlaneColumn;
  order: "asc" | "desc";
  /** Rows showing the text (any case) in one of their values, or held by one of the vantage points (keys) whose name shows it. */
  search?: { text: string; vantagePoints: string[] };
  numeric?: { column: "localPref"; filter: { op: ">" | "<"; value: number } }[];
  /** Vantage point keys in the order of their display names, to sort by what the table shows. */
  vantagePointOrder?: string[];
};

/**
 * The sort key of each column, ordered as the table shows the values: vantage points by display
 * name, prefixes and addresses as addresses (10.0.0.2 before 10.0.0.10), arrays element by element.
 */
const SORT_KEYS: Record<ControlPlaneColumn, string> = {
  timestamp: "timestamp",
  vantagePoint: "indexOf({vantagePointOrder:Array(String)}, vantage_point)",
  withdrawn: "is_withdrawn",
  prefix: "(afi, prefix_addr, prefix_len)",
  ASPathSeq: "as_path",
  BGPNextHop: "toIPv6OrDefault(bgp_next_hop)",
  localPref: "local_pref",
  Origin: "toString(origin)",
  communityIndex: "arrayConcat(communities, ext_communities)",
  IP: "toIPv6OrDefault(router_ip)",
  AFI: "afi",
  SAFI: "safi",
  ASConfedSeq: "as_confed_seq",
  ASPathSet: "as_path_set",
  Aggregator: "aggregator",
  Originator: "toIPv6OrDefault(originator_id)",
  expireMgmt: "expire_at",
  ribView: "rib_view",
};

/** Rows whose cell is empty (a withdrawal's path attributes, no expiry) come last in either direction. */
function emptyLast(column: ControlPlaneColumn): string | null {
  if (PATH_ATTRIBUTES.includes(column)) return "is_withdrawn";
  return column === "expireMgmt" ? "expire_at = 0" : null;
}

/** The texts a row shows that the search looks through; a withdrawal shows no path attributes. */
const SEARCHED_TEXTS =
  "arrayConcat([prefix, router_ip, if(is_withdrawn = 1, 'Withdrawn', 'Announced')], if(is_withdrawn = 1, [], [" +
  "arrayStringConcat(arrayMap(a -> toString(a), as_path), ' '), bgp_next_hop, toString(local_pref), toString(origin), " +
  "arrayStringConcat(arrayConcat(communities, ext_communities), ' '), arrayStringConcat(arrayMap(a -> toString(a), as_confed_seq), ' '), " +
  "arrayStringConcat(arrayMap(a -> toString(a), as_path_set), ' '), aggregator, originator_id]))";

const NUMERIC_COLUMNS: Record<"localPref", string> = { localPref: "local_pref" };

function tableClauses(table: ControlPlaneTableQuery): { conditions: string[]; orderBy: string; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (table.search && table.search.text !== "") {
    conditions.push(
      `(arrayExists(t -> positionCaseInsensitiveUTF8(t, {searchText:String}) > 0, ${SEARCHED_TEXTS}) OR vantage_point IN {searchVantagePoints:Array(String)})`,
    );
    params.searchText = table.search.text;
    params.searchVantagePoints = table.search.vantagePoints;
  }
  for (const [i, { column, filter }] of (table.numeric ?? []).entries()) {
    const name = `numericFilter${i}`;
    // A withdrawal has no path attributes: a filter on one leaves it out, as its empty cell would.
    const withdrawn = PATH_ATTRIBUTES.includes(column) ? "is_withdrawn = 0 AND " : "";
    conditions.push(`${withdrawn}${NUMERIC_COLUMNS[column]} ${filter.op === ">" ? ">" : "<"} {${name}:Float64}`);
    params[name] = filter.value;
  }
  if (table.sort === "vantagePoint") params.vantagePointOrder = table.vantagePointOrder ?? [];
  const empty = emptyLast(table.sort);
  const chosen = `${SORT_KEYS[table.sort]} ${table.order === "asc" ? "ASC" : "DESC"}`;
  // The history's own order (newest first) ends every ORDER BY: a sort that is just that adds nothing.
  const orderBy = chosen === "timestamp DESC" && !empty ? "" : `${empty ? `${empty} ASC, ` : ""}${chosen}, `;
  return { conditions, orderBy, params };
}

/** First and last time of the routing history; NULLs when it is empty. */
export function ribDatesSql(): Sql {
  return {
    name: "routing.ribDates",
    sql:
      "SELECT if(count() = 0, NULL, toUnixTimestamp(min(timestamp))) AS minTimestamp, " +
      "if(count() = 0, NULL, toUnixTimestamp(max(timestamp))) AS maxTimestamp FROM rib_entries",
    params: {},
  };
}
