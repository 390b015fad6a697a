/**
 * The query term rules of spec §5, shared by the form (as the user types) and the loaders: the
 * term is trimmed; an AS path is a pattern of AS numbers, ? and *; an IP / IP prefix query takes an
 * address or a CIDR prefix; ping and traceroute take an address. The parsing itself lives in
 * ~/lib/ip and ~/lib/as-path-pattern (via the routing queries), so screen and server agree.
 */
import { parseRibQuery, type RibMatch, type RibQueryType } from "~/features/routing/rib-sql";
import { normalizeAddressTerm } from "~/lib/ip";
import type { QueryType } from "./url-state";

export type TermCheck = { ok: true; value: string } | { ok: false; error: string };

/** A term checked and, for the routing table types, what it selects: parsed once for a loader's check and its query. */
export type ParsedTerm =
  { ok: true; value: string; rib: { queryType: RibQueryType; match: RibMatch } | null } | { ok: false; error: string };

export function parseTerm(queryType: QueryType, rawTerm: string): ParsedTerm {
  const term = rawTerm.trim();
  if (queryType === "PingQuery" || queryType === "TracerouteQuery") {
    const address = normalizeAddressTerm(term);
    return address.ok ? { ok: true, value: address.value, rib: null } : { ok: false, error: address.error };
  }
  const parsed = parseRibQuery(queryType, term);
  return parsed.ok ? { ok: true, value: parsed.term, rib: { queryType, match: parsed.match } } : { ok: false, error: parsed.error };
}

/** The form's check as the user types (the text only). */
export function validateTerm(queryType: QueryType, rawTerm: string): TermCheck {
  const parsed = parseTerm(queryType, rawTerm);
  return parsed.ok ? { ok: true, value: parsed.value } : parsed;
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
