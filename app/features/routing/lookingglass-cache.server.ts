/**
 * Short-lived memory of the public Looking Glass: identical public queries within a minute are
 * answered from a cache, and each client address may run a limited number of queries per minute.
 *
 * Both live in the memory of one web process (per replica): with several replicas a client may get
 * up to one limit per replica, and a cached answer is at most 60 s old on the replica that made
 * it. That is enough for their purpose — sparing the routing tables from bursts of anonymous
 * queries — and needs no store round trip on the public path. The maps are bounded: expired
 * entries are swept as new ones arrive, and the oldest go first beyond the maximum size.
 */
import { RateLimiter, TtlCache } from "~/server/bounded-maps.server";

export const PUBLIC_QUERY_CACHE_TTL_MS = 60_000;
export const PUBLIC_QUERY_RATE = { windowMs: 60_000, perAddress: 30, withoutAddress: 300 } as const;

export const publicQueryCache = new TtlCache<unknown>(PUBLIC_QUERY_CACHE_TTL_MS);
export const publicQueryLimiter = new RateLimiter(PUBLIC_QUERY_RATE);

/** Cache key of a query: variant, type, normalised term and the sorted vantage point keys. */
export function queryCacheKey(parts: { variant: string; queryType: string; term: string; vantagePoints: string[] }): string {
  return JSON.stringify([parts.variant, parts.queryType, parts.term, [...parts.vantagePoints].sort()]);
}
