/**
 * IP addresses and prefixes (looking glass §5, §9): validation, parsing, normalisation and the
 * prefix arithmetic the routing queries need. Parsed by hand, character by character: no regular
 * expression can run away on hostile input (the spec's 400 ms regex time-out guards against that).
 *
 * Normalisation: IPv6 is written compressed and in lower case (RFC 5952); a host address keeps no
 * prefix length unless one was given; a prefix whose host bits are set ("10.0.0.1/30") is taken as
 * the network that contains it ("10.0.0.0/30"), as routers read `show route 10.0.0.1/30`.
 */
import { MESSAGES } from "./messages";

export type IpVersion = 4 | 6;

/** Address length in bits (spec §9). */
export const ADDRESS_BITS = { 4: 32, 6: 128 } as const;
/** Longest accepted text (spec §5, §9). */
export const MAX_TEXT_LENGTH = { 4: 15, 6: 45 } as const;

export type IpAddress = { version: IpVersion; value: bigint };
/** A network: the address with its host bits cleared, its length, and whether the text gave a length. */
export type IpNetwork = IpAddress & { length: number; hasLength: boolean };

const isDigit = (c: string) => c >= "0" && c <= "9";
const isHex = (c: string) => isDigit(c) || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

/** "192.0.2.1" → 32-bit value; null unless four decimal octets 0–255 without leading zeros. */
function parseIpv4Value(text: string): bigint | null {
  if (text.length > MAX_TEXT_LENGTH[4]) return null;
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (part.length < 1 || part.length > 3 || ![...part].every(isDigit)) return null;
    // "010" is octal to some parsers and decimal to others: refuse the ambiguity.
    if (part.length > 1 && part[0] === "0") return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

/** "2001:db8::1" (also with a trailing dotted IPv4, "::ffff:192.0.2.1") → 128-bit value, or null. */
function parseIpv6Value(text: string): bigint | null {
  if (text.length > MAX_TEXT_LENGTH[6] || !text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const parts = half.split(":");
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4Value(part);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (part.length < 1 || part.length > 4 || ![...part].every(isHex)) return null;
        out.push(parseInt(part, 16));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return null;
  // A dotted IPv4 part may only end the address.
  if (halves.length === 2 && halves[0].includes(".")) return null;
  const present = head.length + tail.length;
  if (halves.length === 1 ? present !== 8 : present > 7) return null;
  const groups = [...head, ...Array<number>(8 - present).fill(0), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** An IPv4 or IPv6 address (no prefix length), or null. */
export function parseIpAddress(raw: string): IpAddress | null {
  const text = raw.trim();
  const v4 = parseIpv4Value(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6Value(text);
  if (v6 !== null) return { version: 6, value: v6 };
  return null;
}

/** The spec's IP validity check: 4, 6, or undefined when the text is no address. */
export function ipVersion(raw: string): IpVersion | undefined {
  return parseIpAddress(raw)?.version;
}

/** The mask of a prefix length as a value of the address's width. */
function networkMask(version: IpVersion, length: number): bigint {
  const bits = BigInt(ADDRESS_BITS[version]);
  const all = (1n << bits) - 1n;
  return all ^ ((1n << (bits - BigInt(length))) - 1n);
}

/** The first address of the prefix of `length` bits that contains `value`. */
export function networkAddress(version: IpVersion, value: bigint, length: number): bigint {
  return value & networkMask(version, length);
}

/** The last address of that prefix. */
export function lastAddress(version: IpVersion, value: bigint, length: number): bigint {
  const bits = BigInt(ADDRESS_BITS[version]);
  return networkAddress(version, value, length) | ((1n << (bits - BigInt(length))) - 1n);
}

/** An address or CIDR prefix ("192.0.2.0/24", "2001:db8::/32", "192.0.2.1"), host bits cleared; or null. */
export function parseNetwork(raw: string): IpNetwork | null {
  const text = raw.trim();
  const slash = text.indexOf("/");
  if (slash < 0) {
    const address = parseIpAddress(text);
    return address ? { ...address, length: ADDRESS_BITS[address.version], hasLength: false } : null;
  }
  const address = parseIpAddress(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (!address || lengthText.length < 1 || lengthText.length > 3 || ![...lengthText].every(isDigit)) return null;
  if (lengthText.length > 1 && lengthText[0] === "0") return null;
  const length = Number(lengthText);
  if (length > ADDRESS_BITS[address.version]) return null;
  return { version: address.version, value: networkAddress(address.version, address.value, length), length, hasLength: true };
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join(".");
}

/**
 * Compressed, lower-case IPv6 text (RFC 5952: the longest, first, run of two or more zero groups
 * becomes "::"; IPv4-mapped addresses end in dotted IPv4).
 */
export function formatIpv6(value: bigint): string {
  // IPv4-mapped addresses keep their dotted tail, as ClickHouse writes them.
  if (value >> 32n === 0xffffn) return `::ffff:${formatIpv4(value & 0xffffffffn)}`;
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  return compressedIpv6(groups);
}

/** Eight 16-bit groups as RFC 5952 text: the longest, first, run of two or more zero groups becomes "::". */
export function compressedIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

export function formatIpAddress(address: IpAddress): string {
  return address.version === 4 ? formatIpv4(address.value) : formatIpv6(address.value);
}

/** The normalised text of a network: a host address stays bare unless its length was given. */
export function formatNetwork(network: IpNetwork): string {
  const address = formatIpAddress(network);
  return network.hasLength ? `${address}/${network.length}` : address;
}

/** The IPv6 form under which IPv4 is stored in IPv6 columns (::ffff:a.b.c.d) — the RIB's prefix_addr. */
export function toIpv6Column(address: IpAddress): string {
  return formatIpv6(address.version === 6 ? address.value : (0xffffn << 32n) | address.value);
}

/** Text of a term for an IP/prefix query, normalised; or the spec's error. */
export function normalizeNetworkTerm(raw: string): { ok: true; value: string; network: IpNetwork } | { ok: false; error: string } {
  const network = parseNetwork(raw);
  if (!network) return { ok: false, error: MESSAGES.invalidNetwork };
  return { ok: true, value: formatNetwork(network), network };
}

/** Text of a term that must be a single address (ping, traceroute), normalised; or the spec's error. */
export function normalizeAddressTerm(raw: string): { ok: true; value: string; address: IpAddress } | { ok: false; error: string } {
  const address = parseIpAddress(raw);
  if (!address) return { ok: false, error: MESSAGES.invalidIpAddress };
  return { ok: true, value: formatIpAddress(address), address };
}

/** "10.0.0.0/8, 2001:db8:1::/48" → networks; throws naming the first entry that is no address or CIDR prefix. */
export function parseNetworkList(text: string): IpNetwork[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const network = parseNetwork(part);
      if (!network) throw new Error(`"${part}" is not an IP address or CIDR prefix`);
      return network;
    });
}
