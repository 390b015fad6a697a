/**
 * Which targets a ping or traceroute may have (looking glass §5: a valid IPv4 or IPv6 address,
 * else 'Invalid IP address'). For anonymous callers of the public Looking Glass the vantage point
 * must not become a probe into places only the operator should see: the router itself (loopback,
 * unspecified), its attached segments (link-local), multicast and broadcast groups, and private
 * address space (RFC 1918, shared 100.64/10, IPv6 unique-local). Logged-in users may ask for any
 * address.
 */
import { networkAddress, normalizeAddressTerm, parseNetwork, type IpAddress } from "~/lib/ip";
import { MESSAGES } from "~/lib/messages";

export type NetcommandScope = "private" | "public";

export const PUBLIC_TARGET_REFUSED = "This address cannot be queried from the public Looking Glass.";

/** Networks refused for the public scope, by version. */
export const PUBLIC_REFUSED_NETWORKS = {
  4: ["0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16", "224.0.0.0/4", "240.0.0.0/4"],
  6: ["::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8"],
} as const;

const REFUSED = ([4, 6] as const).flatMap((version) => PUBLIC_REFUSED_NETWORKS[version].map((text) => parseNetwork(text)!));

function inRefusedNetwork(address: IpAddress): boolean {
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) reaches the IPv4 address: judge that one.
  if (address.version === 6 && address.value >> 32n === 0xffffn) return inRefusedNetwork({ version: 4, value: address.value & 0xffffffffn });
  return REFUSED.some((network) => network.version === address.version && networkAddress(address.version, address.value, network.length) === network.value);
}

export type TargetCheck = { ok: true; value: string; address: IpAddress } | { ok: false; error: string };

/** The normalised target for a scope, or the reason it is refused. */
export function checkNetcommandTarget(raw: unknown, scope: NetcommandScope): TargetCheck {
  if (typeof raw !== "string") return { ok: false, error: MESSAGES.invalidIpAddress };
  const term = normalizeAddressTerm(raw);
  if (!term.ok) return term;
  if (scope === "public" && inRefusedNetwork(term.address)) return { ok: false, error: PUBLIC_TARGET_REFUSED };
  return term;
}

