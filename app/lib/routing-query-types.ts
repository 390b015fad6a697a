/**
 * The query types of the Looking Glass and the Control Plane (spec §3, §4): their ids and legacy
 * URL codes, which ones the routing tables answer and which are network commands, who may choose
 * them, their labels, placeholders and help texts. Pure and isomorphic: the screens, the API and
 * features/routing read them from here so they cannot drift apart.
 */

export const QUERY_TYPES = ["AsPathQuery", "IpPrefixQuery", "PingQuery", "TracerouteQuery"] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** Answered from the routing tables: the Looking Glass's route queries and all the Control Plane offers. */
export const RIB_QUERY_TYPES = ["AsPathQuery", "IpPrefixQuery"] as const;
export type RibQueryType = (typeof RIB_QUERY_TYPES)[number];

/** Network commands run on a vantage point (api/netcommand/), offered with the flag canInvokeNetcommandApi. */
export const NETCOMMAND_QUERY_TYPES = ["PingQuery", "TracerouteQuery"] as const;
export type NetcommandQueryType = (typeof NETCOMMAND_QUERY_TYPES)[number];

/** The URL codes of older links. */
export const LEGACY_QUERY_TYPES: Record<string, QueryType> = {
  AS_PATH_QUERY: "AsPathQuery",
  IP_PREFIX_QUERY: "IpPrefixQuery",
  PING_QUERY: "PingQuery",
  TRACEROUTE_QUERY: "TracerouteQuery",
};

/** A current or legacy query type id → the current id, or null. */
export function toQueryType(value: string): QueryType | null {
  if ((QUERY_TYPES as readonly string[]).includes(value)) return value as QueryType;
  return LEGACY_QUERY_TYPES[value] ?? null;
}

export const isRibQueryType = (type: QueryType): type is RibQueryType => (RIB_QUERY_TYPES as readonly string[]).includes(type);
export const isNetcommandType = (type: QueryType): type is NetcommandQueryType =>
  (NETCOMMAND_QUERY_TYPES as readonly string[]).includes(type);

/** The query types a visitor may choose in the Looking Glass (spec §3, §6); the anonymous public page offers the route queries only. */
export function availableQueryTypes(canInvokeNetcommandApi: boolean): QueryType[] {
  return QUERY_TYPES.filter((type) => canInvokeNetcommandApi || !isNetcommandType(type));
}

/** Labels of the query types (spec §3); ping and traceroute have none there, these are ours. */
export const QUERY_TYPE_LABELS: Record<QueryType, string> = {
  AsPathQuery: "AS Path",
  IpPrefixQuery: "IP / IP Prefix",
  PingQuery: "Ping",
  TracerouteQuery: "Traceroute",
};

/** Placeholders (spec §3): an AS path example with ?, an AS number and *; a /30 prefix; an IPv4 address. */
export const QUERY_TYPE_PLACEHOLDERS: Record<QueryType, string> = {
  AsPathQuery: "? 3356 *",
  IpPrefixQuery: "192.0.2.0/30",
  PingQuery: "192.0.2.1",
  TracerouteQuery: "192.0.2.1",
};

/** The help tooltip of the term input, and the hint shown with an invalid term. */
export const QUERY_TYPE_HELP: Record<QueryType, string> = {
  AsPathQuery:
    "AS numbers separated by spaces: ? stands for exactly one AS, * for any number of ASes. '3356 *' finds paths starting with AS3356, '* 13335' paths ending there. Empty finds routes of this network itself.",
  IpPrefixQuery: "An IPv4 or IPv6 address (the routes covering it) or a prefix in CIDR notation (the prefix and its more-specifics).",
  PingQuery: "An IPv4 or IPv6 address to ping from each selected vantage point.",
  TracerouteQuery: "An IPv4 or IPv6 address to trace the route to from each selected vantage point.",
};

/** The Control Plane's placeholders: its AS path example differs, and it says "e.g.". */
export const CONTROL_PLANE_PLACEHOLDERS: Record<RibQueryType, string> = {
  AsPathQuery: "e.g. ? 3320 *",
  IpPrefixQuery: "e.g. 192.0.2.0/30",
};

/** The Control Plane's help under the term input: over history, an address finds its longest matching prefix. */
export const CONTROL_PLANE_HELP: Record<RibQueryType, string> = {
  AsPathQuery:
    "AS numbers, ? and * separated by spaces: ? is exactly one AS, * any number of ASes. Empty finds routes with an empty AS path.",
  IpPrefixQuery: "An IPv4 or IPv6 address (the longest matching prefix) or a prefix (itself and its more-specifics).",
};
