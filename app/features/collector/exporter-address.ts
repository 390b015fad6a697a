/**
 * One spelling per exporter address, so the collector's figures meet the inventory: a listener
 * bound to an IPv6 socket sees IPv4 senders as "::ffff:a.b.c.d", and the inventory may hold either
 * form (or another IPv6 spelling). The spelling is enrichment's (enrich/address.ts canonicalIp), so
 * the Data sources page matches exporters to routers exactly as the collector does. Pure and isomorphic.
 */
import { canonicalIp } from "./enrich/address";

/** The canonical text of an exporter address: IPv4-mapped IPv6 as plain IPv4, IPv6 per RFC 5952; null when it is no address. */
export const exporterKey = (raw: string): string | null => canonicalIp(raw.trim());

/** The key, or the text as it came when it is no address (a row is shown rather than lost). */
export const exporterKeyOrText = (raw: string): string => exporterKey(raw) ?? raw.trim();
