import { createHash, randomBytes } from "node:crypto";
import { resetCurrentRestriction } from "./delegation.server";
import { createCookie } from "@remix-run/node";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { sessions } from "~db/postgres/schema";
import type { Db } from "../postgres.server";
import { isSecureRequest, resolveClientAddress, UNKNOWN_ADDRESS, type ProxyTrust } from "./client-address.server";
import { loadUserContext, type UserContext } from "./user-context.server";

/** Session status of the spec (shell §4). */
export type SessionStatus = "UNKNOWN" | "ANONYMOUS" | "PENDING_2FA" | "LOGGED_IN" | "EXPIRED";

export const SESSION_IDLE_TIMEOUT_MS = 8 * 60 * 60 * 1000;
export const PENDING_2FA_TIMEOUT_MS = 5 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not turn every request into a write. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export type SessionState = {
  status: SessionStatus;
  user: UserContext | null;
  /** SHA-256 of the cookie token: the sessions row. */
  idHash: string | null;
};

/**
 * Whether cookies are Secure (HTTPS-only) and HSTS is sent: the request came over HTTPS, directly
 * or through a proxy TRUST_PROXY trusts (isSecureRequest). Not always: a plain-HTTP installation
 * on a LAN address must still be able to log in.
 */
export function isHttps(request: { headers: { get(name: string): string | null }; url: string }): boolean {
  return isSecureRequest(request, proxyTrust);
}

function sessionCookie(secret: string, request: Request) {
  return createCookie("flowlens_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [secret],
    secure: isHttps(request),
  });
}

/**
 * A plain "logged_in=1" cookie, readable by scripts on purpose: it tells an expired session (the
 * cookie is still there) from a visitor who never logged in (shell §4).
 */
const LOGGED_IN_COOKIE = "logged_in";
const loggedInCookie = {
  isSet: (cookieHeader: string | null) => new RegExp(`(?:^|;\\s*)${LOGGED_IN_COOKIE}=1(?:;|$)`).test(cookieHeader ?? ""),
  // Secure exactly when the session cookie is: over HTTPS it must not leak to a plain-HTTP page of the same host.
  set: (request: Request, maxAgeSeconds: number) =>
    `${LOGGED_IN_COOKIE}=1; Path=/; SameSite=Lax; Max-Age=${maxAgeSeconds}${isHttps(request) ? "; Secure" : ""}`,
  clear: (request: Request) => `${LOGGED_IN_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0${isHttps(request) ? "; Secure" : ""}`,
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function readSession(db: Db, secret: string, request: Request): Promise<SessionState> {
  const cookieHeader = request.headers.get("Cookie");
  const token = (await sessionCookie(secret, request).parse(cookieHeader)) as string | null;
  const hadLoggedIn = loggedInCookie.isSet(cookieHeader);
  const noSession: SessionState = { status: hadLoggedIn ? "EXPIRED" : "ANONYMOUS", user: null, idHash: null };
  if (!token || typeof token !== "string") return noSession;
  const idHash = hashToken(token);
  const now = new Date();
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.idHash, idHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!row) return noSession;
  const user = await loadUserContext(db, row.userId);
  if (!user) return noSession;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS && row.state === "LOGGED_IN") {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_TIMEOUT_MS) })
      .where(eq(sessions.idHash, idHash));
  }
  return { status: row.state, user, idHash };
}

/** A new session (a new token on every login: rotation), returned as Set-Cookie headers. */
export async function createSession(
  db: Db,
  secret: string,
  request: Request,
  userId: number,
  state: "PENDING_2FA" | "LOGGED_IN",
): Promise<Headers> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await db.insert(sessions).values({
    idHash: hashToken(token),
    userId,
    state,
    expiresAt: new Date(now + (state === "LOGGED_IN" ? SESSION_IDLE_TIMEOUT_MS : PENDING_2FA_TIMEOUT_MS)),
    clientAddress: clientAddress(request),
    userAgent: request.headers.get("User-Agent")?.slice(0, 500) ?? null,
  });
  // Shell §4: on becoming logged in, a delegated account's first flows restriction is current again.
  if (state === "LOGGED_IN") await resetCurrentRestriction(db, userId);
  // Old sessions past their expiry are of no use to anyone.
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date(now - 24 * 60 * 60 * 1000)));
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(secret, request).serialize(token, { maxAge: 30 * 24 * 3600 }));
  headers.append("Set-Cookie", loggedInCookie.set(request, 30 * 24 * 3600));
  return headers;
}

/** Revokes the session row and clears both cookies. */
export async function destroySession(db: Db, secret: string, request: Request, idHash: string | null): Promise<Headers> {
  if (idHash)
    await db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(eq(sessions.idHash, idHash));
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(secret, request).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", loggedInCookie.clear(request));
  return headers;
}

/**
 * The client's address: the TCP peer from server.mjs, or behind trusted proxies (TRUST_PROXY) the
 * X-Forwarded-For hop they vouch for (see resolveClientAddress). Every per-client limit uses it.
 */
export function clientAddress(request: Request): string {
  return resolveClientAddress(request, proxyTrust);
}

export { UNKNOWN_ADDRESS };

let proxyTrust: ProxyTrust = { mode: "none" };
/** Set once from the configuration when the services start (tests: true = every hop, false = none). */
export function trustProxy(trust: ProxyTrust | boolean): void {
  proxyTrust = typeof trust === "boolean" ? { mode: trust ? "every-hop" : "none" } : trust;
}

/** Forgets an expired session's marker once its message was shown, so it is shown once. */
export function clearLoggedInCookieHeader(request: Request): string {
  return loggedInCookie.clear(request);
}
