/**
 * Addresses as they sit in packets and datagrams (network byte order) → the text DecodedFlow
 * carries. IPv6 goes through app/lib/ip's RFC 5952 formatter, so a decoded address reads the same
 * as one typed into a filter; IPv4 is joined directly, as it is read once per flow field.
 */
import { formatIpv6 } from "~/lib/ip";

/** The 4 bytes at `offset` as dotted IPv4; the caller has checked they are present. */
export function ipv4At(bytes: Uint8Array, offset: number): string {
  return `${bytes[offset]}.${bytes[offset + 1]}.${bytes[offset + 2]}.${bytes[offset + 3]}`;
}

/** The 16 bytes at `offset` as RFC 5952 IPv6; the caller has checked they are present. */
export function ipv6At(bytes: Uint8Array, offset: number): string {
  let value = 0n;
  for (let i = 0; i < 16; i++) value = (value << 8n) | BigInt(bytes[offset + i]);
  return formatIpv6(value);
}
