import { RateLimiter } from "../bounded-maps.server";
import { clientAddress } from "./session.server";

/**
 * Per-client limits of the account calls anyone may make: asking for a reset link, asking for an
 * account, and checking whether an address is free for signup. Each client address gets its own
 * allowance (requests whose address is unknown share a larger one). Kept in the memory of each web
 * process, like the public Looking Glass limit: enough to stop one client from mailing a victim
 * dozens of links or walking a list of addresses, without a store round trip.
 */
export const ANONYMOUS_LIMITS = {
  passwordReset: { windowMs: 15 * 60_000, perAddress: 10, withoutAddress: 100 },
  signup: { windowMs: 60 * 60_000, perAddress: 10, withoutAddress: 100 },
  usernameCheck: { windowMs: 60_000, perAddress: 30, withoutAddress: 300 },
} as const;

export type AnonymousCall = keyof typeof ANONYMOUS_LIMITS;

const limiters: Record<AnonymousCall, RateLimiter> = {
  passwordReset: new RateLimiter(ANONYMOUS_LIMITS.passwordReset),
  signup: new RateLimiter(ANONYMOUS_LIMITS.signup),
  usernameCheck: new RateLimiter(ANONYMOUS_LIMITS.usernameCheck),
};

export const tooManyRequests = (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`;

export type AnonymousLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; message: string };

/** Counts one call of this client; beyond the allowance, when it may try again. */
export function takeAnonymousCall(call: AnonymousCall, request: Request): AnonymousLimitDecision {
  const decision = limiters[call].take(clientAddress(request));
  if (decision.allowed) return decision;
  return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds, message: tooManyRequests(decision.retryAfterSeconds) };
}

/** Forgets every count (tests). */
export function resetAnonymousLimits(): void {
  for (const limiter of Object.values(limiters)) limiter.clear();
}

/** The JSON answer of a refused call: 429, when to retry (header and text). */
export function tooManyRequestsResponse(refusal: { retryAfterSeconds: number; message: string }): Response {
  return Response.json({ detail: refusal.message }, { status: 429, headers: { "Retry-After": String(refusal.retryAfterSeconds) } });
}
