/**
 * The exporter of a datagram is its UDP source address. A socket bound to an IPv6 address also
 * receives IPv4 datagrams, reported as IPv4-mapped addresses (::ffff:192.0.2.1): they are the same
 * exporter as on an IPv4 socket, so they are written dotted, as the inventory names exporters.
 */
const MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

export function normaliseExporter(address: string): string {
  const mapped = MAPPED.exec(address);
  if (mapped) return mapped[1];
  // IPv6 text from the socket is already compressed; only the case and a zone id can differ.
  const zone = address.indexOf("%");
  return (zone >= 0 ? address.slice(0, zone) : address).toLowerCase();
}

/**
 * The decoding thread of an exporter: always the same one for an address (FNV-1a over its text),
 * so the templates an exporter announces and the data sets that need them meet in one thread.
 */
export function threadFor(exporter: string, threads: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < exporter.length; i++) {
    hash ^= exporter.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % threads;
}
