/** Small IPv4/IPv6 helpers for the demo generator (prefix arithmetic on BigInt). */

export type ParsedPrefix = { family: 4 | 6; base: bigint; length: number };

export function parseIpv4(text: string): bigint {
  const parts = text.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`bad IPv4 ${text}`);
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join(".");
}

export function parseIpv6(text: string): bigint {
  const halves = text.split("::");
  if (halves.length > 2) throw new Error(`bad IPv6 ${text}`);
  const [head, tail] = halves.length === 2 ? halves : [text, undefined];
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  if ((tail === undefined && missing !== 0) || (tail !== undefined && missing < 1)) throw new Error(`bad IPv6 ${text}`);
  const groups = [...headParts, ...Array(tail === undefined ? 0 : missing).fill("0"), ...tailParts];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) throw new Error(`bad IPv6 ${text}`);
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

export function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  // Compress the longest run of zero groups (RFC 5952).
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength && j - i > 1) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

export function parsePrefix(text: string): ParsedPrefix {
  const [address, lengthText] = text.split("/");
  const family = address.includes(":") ? 6 : 4;
  const length = Number(lengthText);
  const base = family === 4 ? parseIpv4(address) : parseIpv6(address);
  return { family, base, length };
}

export function formatPrefix(prefix: ParsedPrefix): string {
  return `${prefix.family === 4 ? formatIpv4(prefix.base) : formatIpv6(prefix.base)}/${prefix.length}`;
}

/** The n-th host address inside a prefix (skipping the network address). */
export function hostInPrefix(prefix: ParsedPrefix, n: number): string {
  const bits = prefix.family === 4 ? 32 : 128;
  const size = 1n << BigInt(bits - prefix.length);
  // Skip the network and broadcast addresses where the prefix has room for hosts besides them.
  const offset = size > 2n ? (BigInt(n) % (size - 2n)) + 1n : BigInt(n) % size;
  const value = prefix.base + offset;
  return prefix.family === 4 ? formatIpv4(value) : formatIpv6(value);
}

/** Allocates consecutive, non-overlapping subnets of one size from a pool prefix. */
export function createAllocator(pool: string, subnetLength: number) {
  const parsed = parsePrefix(pool);
  const bits = parsed.family === 4 ? 32 : 128;
  const step = 1n << BigInt(bits - subnetLength);
  const end = parsed.base + (1n << BigInt(bits - parsed.length));
  let cursor = parsed.base;
  return (): string => {
    if (cursor + step > end) throw new Error(`address pool ${pool} exhausted`);
    const prefix = formatPrefix({ family: parsed.family, base: cursor, length: subnetLength });
    cursor += step;
    return prefix;
  };
}
