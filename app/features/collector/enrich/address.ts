/**
 * Address text → numbers for the longest-prefix match, at flow rate: read character by character
 * into a reused scratch array, so a lookup allocates nothing (app/lib/ip parses into BigInt, which is
 * right for a query term and too slow for 100k flows/s). Accepts what app/lib/ip accepts: dotted
 * IPv4 without leading zeros, IPv6 with "::" and a dotted IPv4 tail.
 */
import { formatIpAddress, parseIpAddress } from "~/lib/ip";

/** The four 32-bit words (most significant first) of the last address parseIpv6 accepted. */
export const V6_WORDS = new Uint32Array(4);
const GROUPS = new Uint16Array(8);

/** Dotted IPv4 in text[start, end) → its unsigned 32-bit value, or -1. */
export function parseIpv4(text: string, start = 0, end = text.length): number {
  if (end - start < 7 || end - start > 15) return -1;
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // "010" is octal to some parsers and decimal to others: refused, as app/lib/ip does.
      if (digits === 1 && octet === 0) return -1;
      octet = octet * 10 + (c - 48);
      if (++digits > 3 || octet > 255) return -1;
    } else if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + octet;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** IPv6 text → true with its words in V6_WORDS, or false. */
export function parseIpv6(text: string): boolean {
  const length = text.length;
  if (length < 2 || length > 45) return false;
  let n = 0;
  let gap = -1;
  let i = 0;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return false;
    gap = 0;
    i = 2;
  }
  while (i < length) {
    const start = i;
    let value = 0;
    let digits = 0;
    for (let h = hexValue(text.charCodeAt(i)); i < length && h >= 0; h = hexValue(text.charCodeAt(++i))) {
      value = value * 16 + h;
      digits++;
    }
    if (i < length && text.charCodeAt(i) === 46) {
      // A dotted IPv4 tail ends the address and fills two groups.
      const v4 = parseIpv4(text, start, length);
      if (v4 < 0 || n > 6) return false;
      GROUPS[n++] = v4 >>> 16;
      GROUPS[n++] = v4 & 0xffff;
      i = length;
      break;
    }
    if (digits === 0 || digits > 4 || n >= 8) return false;
    GROUPS[n++] = value;
    if (i === length) break;
    if (text.charCodeAt(i) !== 58) return false;
    i++;
    if (i < length && text.charCodeAt(i) === 58) {
      if (gap >= 0) return false;
      gap = n;
      i++;
    } else if (i === length) return false;
  }
  if (gap < 0) {
    if (n !== 8) return false;
  } else {
    if (n > 7) return false;
    const tail = n - gap;
    for (let k = 0; k < tail; k++) GROUPS[7 - k] = GROUPS[n - 1 - k];
    for (let k = gap; k < 8 - tail; k++) GROUPS[k] = 0;
  }
  for (let w = 0; w < 4; w++) V6_WORDS[w] = ((GROUPS[2 * w] << 16) | GROUPS[2 * w + 1]) >>> 0;
  return true;
}

/** After parseIpv6: the IPv4 value when the address is IPv4-mapped (::ffff:a.b.c.d), else -1. */
export function mappedIpv4(): number {
  return V6_WORDS[0] === 0 && V6_WORDS[1] === 0 && V6_WORDS[2] === 0xffff ? V6_WORDS[3] : -1;
}

/**
 * One spelling per address, for matching exporters and loopbacks: IPv4 dotted (an IPv4-mapped
 * IPv6 "::ffff:a.b.c.d", as a dual-stack socket reports an IPv4 peer, is that IPv4 address), IPv6
 * in RFC 5952 form. Null for text that is no address. Not for the per-flow path: callers cache it.
 */
export function canonicalIp(text: string): string | null {
  const parsed = parseIpAddress(text);
  if (!parsed || text.includes("/")) return null;
  if (parsed.version === 6 && parsed.value >> 32n === 0xffffn) return formatIpAddress({ version: 4, value: parsed.value & 0xffffffffn });
  return formatIpAddress(parsed);
}
