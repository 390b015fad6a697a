/**
 * The query term rules of spec §5, shared by the form (as the user types) and the loaders: the
 * term is trimmed; an AS path is a pattern of AS numbers, ? and *; an IP / IP prefix query takes an
 * address or a CIDR prefix; ping and traceroute take an address. The parsing itself lives in
 * ~/lib/ip and ~/lib/as-path-pattern (via the routing queries), so screen and server agree.
 */
import { parseRibQuery } from "~/features/routing/rib-sql";
import { normalizeAddressTerm } from "~/lib/ip";
import { isNetcommandType, type QueryType } from "~/lib/routing-query-types";

export type TermCheck = { ok: true; value: string } | { ok: false; error: string };

export function validateTerm(queryType: QueryType, rawTerm: string): TermCheck {
  const term = rawTerm.trim();
  if (isNetcommandType(queryType)) {
    const address = normalizeAddressTerm(term);
    return address.ok ? { ok: true, value: address.value } : { ok: false, error: address.error };
  }
  const parsed = parseRibQuery(queryType, term);
  return parsed.ok ? { ok: true, value: parsed.term } : { ok: false, error: parsed.error };
}
