/**
 * One spelling per exporter address, so the collector's figures meet the inventory: a listener
 * bound to an IPv6 socket sees IPv4 senders as "::ffff:a.b.c.d", and the inventory may hold either
 * form (or another IPv6 spelling). Pure and isomorphic.
 */
import { formatIpAddress, formatIpv4, parseIpAddress } from "~/lib/ip";

/** The canonical text of an exporter address: IPv4-mapped IPv6 as plain IPv4, IPv6 per RFC 5952; null when it is no address. */
export function exporterKey(raw: string): string | null {
  const parsed = parseIpAddress(raw);
  if (!parsed) return null;
  if (parsed.version === 6 && parsed.value >> 32n === 0xffffn) return formatIpv4(parsed.value & 0xffffffffn);
  return formatIpAddress(parsed);
}

/** The key, or the text as it came when it is no address (a row is shown rather than lost). */
export const exporterKeyOrText = (raw: string): string => exporterKey(raw) ?? raw.trim();
