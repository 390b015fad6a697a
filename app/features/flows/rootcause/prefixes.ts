/**
 * The prefixes that the routing of an object's traffic depends on, besides those its ASes originate:
 * the longest matches, in each vantage point's tables, of the object's top remote addresses (for
 * ingress traffic its source addresses, read from flows_raw). Pure: the SQL reads the candidate
 * routes (sql.ts, coveringRoutesQuery), this picks the longest per address and table.
 */
import { ADDRESS_BITS, formatIpAddress, networkAddress, parseIpAddress, toIpv6Column, type IpAddress } from "~/lib/ip";

/** An IPv6 column's text (flows_raw, rib_entries' prefix_addr) → the address, IPv4-mapped ones (::ffff:a.b.c.d) as IPv4; or null. */
export function fromIpv6Column(text: string): IpAddress | null {
  const a = parseIpAddress(text);
  if (!a) return null;
  if (a.version === 6 && a.value >> 32n === 0xffffn) return { version: 4, value: a.value & 0xffffffffn };
  return a;
}

/** The network addresses of every prefix that can cover the address (/0 … /32 or /128), as rib_entries stores prefix_addr. */
export function candidateNetworks(address: IpAddress): string[] {
  const out = new Set<string>();
  for (let len = 0; len <= ADDRESS_BITS[address.version]; len++)
    out.add(toIpv6Column({ version: address.version, value: networkAddress(address.version, address.value, len) }));
  return [...out];
}

/** A prefix with a route in a vantage point's table (vantage point, route distinguisher) during the evidence window. */
export type CandidateRoute = {
  vantage_point: string;
  route_distinguisher: string;
  prefix: string;
  prefix_addr: string;
  prefix_len: number;
  /** 1 IPv4, 2 IPv6. */
  afi: number;
};

/** Whether the route's prefix contains the address. */
export function covers(route: CandidateRoute, address: IpAddress): boolean {
  if (route.afi !== (address.version === 4 ? 1 : 2)) return false;
  if (route.prefix_len > ADDRESS_BITS[address.version]) return false;
  const network = fromIpv6Column(route.prefix_addr);
  if (!network || network.version !== address.version) return false;
  return networkAddress(address.version, address.value, route.prefix_len) === network.value;
}

/**
 * Per address and per table (vantage point, route distinguisher), the longest prefix covering it;
 * → each such prefix with the addresses (as text, in the order given) it is the longest match of
 * somewhere. A prefix that is only ever a less specific of another one in the same table is left out.
 */
export function longestMatches(addresses: readonly IpAddress[], routes: readonly CandidateRoute[]): Map<string, string[]> {
  const tables = new Map<string, CandidateRoute[]>();
  for (const r of routes) {
    const key = `${r.vantage_point}\u0000${r.route_distinguisher}`;
    const list = tables.get(key);
    if (list) list.push(r);
    else tables.set(key, [r]);
  }
  const out = new Map<string, string[]>();
  for (const address of addresses) {
    const text = formatIpAddress(address);
    for (const list of tables.values()) {
      let best: CandidateRoute | null = null;
      for (const r of list) if (covers(r, address) && (!best || r.prefix_len > best.prefix_len)) best = r;
      if (!best) continue;
      const named = out.get(best.prefix);
      if (!named) out.set(best.prefix, [text]);
      else if (!named.includes(text)) named.push(text);
    }
  }
  return out;
}

/** Why an evidence row's prefix is listed, in words: originated by the AS (or a top source AS), the longest match of top source addresses. */
export function listedForText(listedFor: { originated: boolean; topAddresses: string[] }, ownAsns: readonly number[] | null): string {
  const parts: string[] = [];
  if (listedFor.originated) parts.push(ownAsns?.length === 1 ? `Originated by AS${ownAsns[0]}` : "Originated by a top source AS");
  const a = listedFor.topAddresses;
  if (a.length) {
    const shown = a.slice(0, 2).join(", ");
    const more = a.length > 2 ? ` and ${a.length - 2} more` : "";
    parts.push(`Longest match of top source address${a.length > 1 ? "es" : ""} ${shown}${more}`);
  }
  return parts.join("; ") || "–";
}
