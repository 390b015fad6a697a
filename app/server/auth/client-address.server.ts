import { BlockList, isIP } from "node:net";
import { log } from "../log.server";

/**
 * Who is on the other end of a request. server.mjs puts the TCP peer's address into this header
 * after removing any value a client sent under the same name, so only the server can set it.
 */
export const PEER_ADDRESS_HEADER = "x-flowlens-peer-address";

/** The address of requests that arrive without the peer header (not served by server.mjs). */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * TRUST_PROXY, parsed: nobody (the socket address is the client), every hop (the peer is always
 * a proxy and the last X-Forwarded-For entry is the client — the meaning of `1`/`true`), or the
 * listed proxy addresses and networks.
 */
export type ProxyTrust = { mode: "none" } | { mode: "every-hop" } | { mode: "list"; proxies: BlockList; entries: string[] };

export class ProxyTrustError extends Error {}

/**
 * "0"/"false"/"" → none; "1"/"true" → every hop; otherwise a comma- or space-separated list of
 * addresses and CIDR networks (IPv4 or IPv6). Throws ProxyTrustError naming a bad entry.
 */
export function parseProxyTrust(value: string | undefined): ProxyTrust {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "" || text === "0" || text === "false") return { mode: "none" };
  if (text === "1" || text === "true") return { mode: "every-hop" };
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const proxies = new BlockList();
  for (const entry of entries) {
    const [address, prefixText, extra] = entry.split("/");
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (!family || extra !== undefined || !/^\d+$/.test(String(prefixText ?? maxPrefix)) || prefix > maxPrefix) {
      throw new ProxyTrustError(
        `"${entry}" is not an IP address or CIDR network (use 0, 1, or a list such as 10.0.0.5, 192.168.0.0/16, ::1)`,
      );
    }
    proxies.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return { mode: "list", proxies, entries };
}

/**
 * One address as it is stored and compared: IPv4-mapped IPv6 (::ffff:192.0.2.1, how Node reports
 * IPv4 peers on a dual-stack socket) as plain IPv4, IPv6 in lower case, a port or brackets from
 * an X-Forwarded-For entry removed. Null when the text is not an address.
 */
export function normalizeAddress(text: string): string | null {
  let value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  if (mapped) value = mapped[1];
  return isIP(value) ? value : null;
}

function isTrusted(trust: Extract<ProxyTrust, { mode: "list" }>, address: string): boolean {
  return trust.proxies.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

function forwardedHops(request: Request): string[] {
  return (request.headers.get("X-Forwarded-For") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
}

/**
 * Resolves the client of a request under the given proxy trust.
 *
 * - With the peer header: without trusted proxies, the peer itself. With a list, X-Forwarded-For
 *   counts only when the peer is a listed proxy; it is walked from the right, skipping listed
 *   hops, and the first hop that is not a listed proxy is the client (entries further left were
 *   written by that client and prove nothing). With "every hop", the last entry.
 * - Without it (the app not served by server.mjs, e.g. the vite dev server): "every hop" still
 *   takes the last entry; otherwise the address is unknown and per-client limits share one
 *   allowance — said once in the log.
 */
export function resolveClientAddress(request: Request, trust: ProxyTrust): string {
  const peerText = request.headers.get(PEER_ADDRESS_HEADER);
  const peer = peerText ? normalizeAddress(peerText) : null;
  if (!peer) {
    if (trust.mode === "every-hop") return normalizeAddress(forwardedHops(request).at(-1) ?? "") ?? UNKNOWN_ADDRESS;
    warnOnceWithoutPeer();
    return UNKNOWN_ADDRESS;
  }
  if (trust.mode === "none") return peer;
  const hops = forwardedHops(request);
  if (trust.mode === "every-hop") return normalizeAddress(hops.at(-1) ?? "") ?? peer;
  if (!isTrusted(trust, peer)) return peer;
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    // Garbage from a trusted proxy's input: the proxy that passed it on is the best we know.
    if (!hop) return client;
    client = hop;
    if (!isTrusted(trust, hop)) return hop;
  }
  return client;
}

/**
 * Whether the request came over HTTPS under the given proxy trust: its own URL says so, or
 * X-Forwarded-Proto (its first value: the proxy the browser reached) does and was sent by a proxy
 * TRUST_PROXY trusts — the same trust as X-Forwarded-For. Without trusted proxies the header is
 * anybody's to send and is ignored. Decides the Secure flag of the cookies and HSTS.
 */
export function isSecureRequest(request: { headers: { get(name: string): string | null }; url: string }, trust: ProxyTrust): boolean {
  if (new URL(request.url, "http://flowlens.invalid").protocol === "https:") return true;
  if (!fromTrustedProxy(request, trust)) return false;
  return request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

/** Whether the TCP peer is a proxy whose forwarding headers count ("every hop": whoever connects). */
function fromTrustedProxy(request: { headers: { get(name: string): string | null } }, trust: ProxyTrust): boolean {
  if (trust.mode === "none") return false;
  if (trust.mode === "every-hop") return true;
  const peerText = request.headers.get(PEER_ADDRESS_HEADER);
  const peer = peerText ? normalizeAddress(peerText) : null;
  return peer !== null && isTrusted(trust, peer);
}

let warnedWithoutPeer = false;
function warnOnceWithoutPeer(): void {
  if (warnedWithoutPeer) return;
  warnedWithoutPeer = true;
  log.warn(
    `requests arrive without the ${PEER_ADDRESS_HEADER} header (the app is not served by server.mjs, e.g. the development server): ` +
      "client addresses are unknown and every per-client limit is one allowance shared by all clients",
  );
}
