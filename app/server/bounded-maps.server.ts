/**
 * Bounded memory of one web process: a map whose entries expire and a sliding-window rate limiter
 * per client address. Both sweep expired entries as new ones arrive and drop the oldest beyond
 * their maximum size, so a flood of distinct keys cannot grow them without end.
 */
import { UNKNOWN_ADDRESS } from "./auth/client-address.server";

const MAX_ENTRIES = 10_000;

/** A map whose entries expire after `ttlMs` (insertion order = age order, so the oldest go first). */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    for (const [k, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && entry.expiresAt > now) break;
      this.entries.delete(k);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A sliding window of request times per client address. Without a known address (no trusted
 * proxy, see clientAddress) all such clients share one, larger, allowance: a flood is still
 * bounded without one client locking out everybody at the per-address rate.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly rate: { windowMs: number; perAddress: number; withoutAddress: number }) {}

  take(address: string, now = Date.now()): RateDecision {
    const limit = address === UNKNOWN_ADDRESS ? this.rate.withoutAddress : this.rate.perAddress;
    const since = now - this.rate.windowMs;
    const recent = (this.hits.get(address) ?? []).filter((t) => t > since);
    if (recent.length >= limit) {
      this.hits.set(address, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.rate.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.hits.delete(address);
    this.hits.set(address, recent);
    for (const [key, times] of this.hits) {
      if (this.hits.size <= MAX_ENTRIES && times[times.length - 1] > since) break;
      this.hits.delete(key);
    }
    return { allowed: true };
  }

  clear(): void {
    this.hits.clear();
  }
}
