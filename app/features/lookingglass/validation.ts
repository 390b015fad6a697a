/**
 * The query term rules of spec §5, shared by the form (as the user types) and the loaders: the
 * term is trimmed; an AS path is a pattern of AS numbers, ? and *; an IP / IP prefix query takes an
 * address or a CIDR prefix; ping and traceroute take an address. The parsing itself lives in
 * ~/lib/ip and ~/lib/as-path-pattern (via the routing queries), so screen and server agree.
 */
import { parseRibQuery, type RibMatch } from "~/features/routing/rib-sql";
import { normalizeAddressTerm } from "~/lib/ip";
import { isNetcommandType, type QueryType, type RibQueryType } from "~/lib/routing-query-types";

export type TermCheck = { ok: true; value: string } | { ok: false; error: string };

/** A term checked and, for the routing table types, what it selects: parsed once for a loader's check and its query. */
export type ParsedTerm =
  { ok: true; value: string; rib: { queryType: RibQueryType; match: RibMatch } | null } | { ok: false; error: string };

export function parseTerm(queryType: QueryType, rawTerm: string): ParsedTerm {
  const term = rawTerm.trim();
  if (isNetcommandType(queryType)) {
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
