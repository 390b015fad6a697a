/**
 * Which targets a ping or traceroute may have (looking glass §5: a valid IPv4 or IPv6 address,
 * else 'Invalid IP address'). A vantage point must not become a probe into places only the
 * operator should see, nor send packets where no public network is: so only globally reachable
 * unicast addresses are accepted — everything the IANA special-purpose registries mark as not
 * globally reachable is refused (loopback, unspecified, private and shared (CGNAT) space,
 * link-local, multicast, broadcast and reserved space, documentation and benchmarking ranges,
 * IPv6 unique-local and everything outside 2000::/3), and so are the IPv6 forms that carry an
 * IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo, ISATAP) when
 * the address they carry is refused. Host names are not accepted at all ('Invalid IP address'),
 * so nothing is resolved.
 *
 * Staff may be allowed internal ranges on top (NETCOMMAND_STAFF_ALLOWED_RANGES); nobody else.
 */
import { networkAddress, normalizeAddressTerm, parseNetwork, type IpAddress, type IpNetwork } from "~/lib/ip";
import { MESSAGES } from "~/lib/messages";

/**
 * What a caller may do: run jobs from every vantage point ("all": logged-in users with
 * PRIVATE_LOOKING_GLASS) or only from the public ones; and which non-public ranges it may target
 * (staff: the configured list; everybody else: none).
 */
export type NetcommandScope = {
  vantagePoints: "all" | "public";
  allowedInternalRanges: readonly IpNetwork[];
  /** A delegated user's routers: only their vantage points (others are refused, 403); absent/null: no such restriction. */
  routers?: readonly string[] | null;
};

/** Public vantage points and public addresses only: anonymous callers, users without PRIVATE_LOOKING_GLASS. */
export const PUBLIC_SCOPE: NetcommandScope = { vantagePoints: "public", allowedInternalRanges: [] };

export const NON_PUBLIC_TARGET_REFUSED =
  "This address cannot be queried: only public internet addresses can be pinged or traced (not private, loopback, link-local, multicast, documentation or other reserved addresses, nor IPv6 addresses that carry one).";

/** Not globally reachable (RFC 6890 and the IANA special-purpose address registries). */
export const REFUSED_NETWORKS = {
  4: [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
  ],
  // Outside 2000::/3 nothing is global unicast (see NOT_GLOBAL_UNICAST); these are the exceptions inside it.
  6: ["2001::/23", "2001:db8::/32", "3fff::/20"],
} as const;

const parse = (text: string) => parseNetwork(text)!;
const REFUSED = ([4, 6] as const).flatMap((version) => REFUSED_NETWORKS[version].map(parse));
const GLOBAL_UNICAST = parse("2000::/3");

const inNetwork = (address: IpAddress, network: IpNetwork) =>
  network.version === address.version && networkAddress(address.version, address.value, network.length) === network.value;

const v4 = (value: bigint): IpAddress => ({ version: 4, value: value & 0xffffffffn });

/** IPv6 forms that carry an IPv4 address: the prefix, and where the IPv4 address sits. */
type Wrapper = {
  network: IpNetwork;
  embedded: (value: bigint) => IpAddress[];
  /** false: deprecated, never routed, refused whatever it carries */ routed: boolean;
};
const WRAPPERS: Wrapper[] = [
  { network: parse("::ffff:0:0/96"), embedded: (value) => [v4(value)], routed: true }, // IPv4-mapped
  { network: parse("::/96"), embedded: (value) => [v4(value)], routed: false }, // IPv4-compatible (also :: and ::1)
  { network: parse("::ffff:0:0:0/96"), embedded: (value) => [v4(value)], routed: true }, // IPv4-translated (SIIT)
  { network: parse("64:ff9b::/96"), embedded: (value) => [v4(value)], routed: true }, // NAT64, well-known prefix
  { network: parse("2002::/16"), embedded: (value) => [v4(value >> 80n)], routed: true }, // 6to4
  // Teredo: the server's address, and the client's address with its bits inverted.
  { network: parse("2001::/32"), embedded: (value) => [v4(value >> 64n), v4(~value)], routed: true },
];

/** ISATAP interface identifiers (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) carry an IPv4 address in any prefix. */
const isIsatap = (value: bigint) => ((value >> 32n) & 0xfdffffffn) === 0x5efen;

const wrapperOf = (address: IpAddress) => (address.version === 6 ? WRAPPERS.find((w) => inNetwork(address, w.network)) : undefined);

/** The IPv4 addresses an IPv6 address would deliver to (or stand for); empty for a plain IPv6 address. */
export function embeddedIpv4(address: IpAddress): IpAddress[] {
  if (address.version === 4) return [];
  const wrapper = wrapperOf(address);
  if (wrapper) return wrapper.embedded(address.value);
  return isIsatap(address.value) ? [v4(address.value)] : [];
}

/** Whether the address is a globally reachable unicast address (wrapped IPv4 addresses judged by what they carry). */
export function isPublicTarget(address: IpAddress): boolean {
  const wrapper = wrapperOf(address);
  // These prefixes are special themselves: what they carry decides.
  if (wrapper) return wrapper.routed && wrapper.embedded(address.value).every(isPublicTarget);
  if (address.version === 6) {
    // An ISATAP identifier can sit in any prefix: both the prefix and the carried address must be public.
    if (isIsatap(address.value) && !isPublicTarget(v4(address.value))) return false;
    if (!inNetwork(address, GLOBAL_UNICAST)) return false;
  }
  return !REFUSED.some((network) => inNetwork(address, network));
}

/** Whether the address (or the IPv4 address it carries) lies in one of the allowed internal ranges. */
function inAllowedRange(address: IpAddress, ranges: readonly IpNetwork[]): boolean {
  return [address, ...embeddedIpv4(address)].some((a) => ranges.some((range) => inNetwork(a, range)));
}

export type TargetCheck = { ok: true; value: string; address: IpAddress } | { ok: false; error: string };

/** The normalised target for a caller allowed `allowedInternalRanges` beyond public addresses, or the reason it is refused. */
export function checkNetcommandTarget(raw: unknown, allowedInternalRanges: readonly IpNetwork[] = []): TargetCheck {
  if (typeof raw !== "string") return { ok: false, error: MESSAGES.invalidIpAddress };
  const term = normalizeAddressTerm(raw);
  if (!term.ok) return term;
  if (!isPublicTarget(term.address) && !inAllowedRange(term.address, allowedInternalRanges))
    return { ok: false, error: NON_PUBLIC_TARGET_REFUSED };
  return term;
}
