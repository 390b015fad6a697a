/**
 * Requests of one user in progress at once, bounded before the app does any work for them. The
 * query limiter bounds ClickHouse, but a request also reads its session, permissions and menu in
 * PostgreSQL — on the embedded PGlite that runs on the event loop — and renders its page there:
 * fifty parallel requests of one user kept the loop busy for seconds before their first query.
 * Beyond REQUESTS_PER_USER, server.mjs answers 429 at once, with Retry-After.
 *
 * Keyed by what identifies a user without a store lookup: the session cookie, else the API token.
 * Anonymous requests are not bounded here (they share addresses behind proxies); their queries are
 * (analytics-query-limiter.server.ts), and public pages are served from their cache.
 */
import { createHash } from "node:crypto";
import { retryIn } from "~/lib/busy";

const SESSION_COOKIE = /(?:^|;\s*)flowlens_session=([^;]+)/;
/** A refused client should come back once the running requests had time to finish. */
const RETRY_AFTER_SECONDS = 2;

export const tooManyRequestsText = `Too many of your requests are running at once. ${retryIn(RETRY_AFTER_SECONDS)}`;

type RequestLike = { headers: { get(name: string): string | null } };

/** The key a request is counted under, or null when it is not bounded here (anonymous). */
export function admissionKey(request: RequestLike): string | null {
  const session = SESSION_COOKIE.exec(request.headers.get("Cookie") ?? "")?.[1];
  const credential = session ? `s:${session}` : request.headers.get("Authorization");
  return credential ? createHash("sha256").update(credential).digest("base64url").slice(0, 22) : null;
}

export class RequestAdmission {
  private readonly inFlight = new Map<string, number>();
  constructor(readonly perUser: number) {}

  /** Counts the request in, or returns false when its user is at the limit. */
  enter(key: string): boolean {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= this.perUser) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  leave(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n > 0) this.inFlight.set(key, n);
    else this.inFlight.delete(key);
  }
}

/** The 429 answer: JSON for API clients, a small page for browsers (works without JavaScript). */
export function tooManyRequests(request: RequestLike): { status: 429; headers: Record<string, string>; body: string } {
  const headers = { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  if (/application\/json/.test(request.headers.get("Accept") ?? "")) {
    const body = JSON.stringify({
      detail: tooManyRequestsText,
      exception_code: "too_many_requests",
      retry_after_seconds: RETRY_AFTER_SECONDS,
    });
    return { status: 429, headers: { ...headers, "Content-Type": "application/json" }, body };
  }
  const body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>The server is busy</title></head><body><main><h1>The server is busy</h1><p>${tooManyRequestsText}</p></main></body></html>`;
  return { status: 429, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" }, body };
}
