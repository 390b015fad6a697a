import { ipv4Text, ipv6Text } from "./cursor";

const SUBTYPE_NAMES: Record<number, string> = { 0x02: "RT", 0x03: "SoO" };

/**
 * An extended community (RFC 4360) as routers print it: route targets and sites of origin of the
 * transitive two-octet-AS (RFC 4360 §3.1), IPv4-address (§3.2) and four-octet-AS (RFC 5668) types:
 * "RT:64497:42", "SoO:64497:12", "RT:192.0.2.1:5", "RT:4200000000:5"; any other one as "0x" and its
 * 16 hex digits.
 */
export function extendedCommunityText(bytes: Buffer): string {
  const name = SUBTYPE_NAMES[bytes[1]];
  if (name) {
    if (bytes[0] === 0x00) return `${name}:${bytes.readUInt16BE(2)}:${bytes.readUInt32BE(4)}`;
    if (bytes[0] === 0x01) return `${name}:${ipv4Text(bytes.subarray(2, 6))}:${bytes.readUInt16BE(6)}`;
    if (bytes[0] === 0x02) return `${name}:${bytes.readUInt32BE(2)}:${bytes.readUInt16BE(6)}`;
  }
  return `0x${bytes.toString("hex")}`;
}

/**
 * An IPv6-address-specific extended community (RFC 5701, 20 bytes): "RT:[2001:db8::1]:5" for the
 * transitive route targets and sites of origin, else "0x" and its 40 hex digits.
 */
export function ipv6ExtendedCommunityText(bytes: Buffer): string {
  const name = SUBTYPE_NAMES[bytes[1]];
  if (name && bytes[0] === 0x00) return `${name}:[${ipv6Text(bytes.subarray(2, 18))}]:${bytes.readUInt16BE(18)}`;
  return `0x${bytes.toString("hex")}`;
}
