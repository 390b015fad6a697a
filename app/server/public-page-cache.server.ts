/**
 * Rendered public pages kept for anonymous visitors: a page that shows every anonymous visitor
 * the same thing for a while (the public Looking Glass: for the life of its cached answer) is kept
 * as long and served by server.mjs before Remix runs at all — a cached answer then costs one map
 * lookup, not a render. Features name such pages and how long they stay (sharePublicPage, from
 * app/wiring.server.ts).
 *
 * What may be kept is decided by the page's loader (it answers with PAGE_CACHE_HEADER, only for
 * results every visitor would get: no ping/traceroute jobs, no rate-limit notice, no failure) and
 * by the request: anonymous only (no session cookie, no expired-session marker). The kept HTML
 * holds nothing of one visitor: the CSRF token is left out of it (the browser code reads the token
 * from its cookie; a visitor without one gets a fresh cookie with every cached answer), and its
 * Content-Security-Policy lists the hashes of its inline scripts instead of a nonce, which must
 * never be served twice.
 */
import type { HeadersFunction } from "@remix-run/node";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { browserSupport } from "~/lib/browser-support";
import { csrfCookieHeader, newCsrfToken, readCsrfCookie } from "./auth/csrf.server";
import { TtlCache } from "./bounded-maps.server";
import { documentPolicy } from "./security-headers.server";

/** Set by a loader on a page anonymous visitors may share; never sent to the browser. */
export const PAGE_CACHE_HEADER = "X-Flowlens-Page-Cache";
export const PAGE_CACHE_PUBLIC = "public";

/** A shareable page route's `headers`: the root's cookies, and the loader's word on whether anonymous visitors may share the page. */
export const sharedPageHeaders: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const shared = loaderHeaders.get(PAGE_CACHE_HEADER);
  if (shared) headers.set(PAGE_CACHE_HEADER, shared);
  return headers;
};

export type CachedPage = { html: Buffer; gzip: Buffer; status: number; contentSecurityPolicy: string };

/** Distinct URLs kept at once per shared page (the oldest go first). */
const MAX_PAGES = 500;
/** The kept pages by path of the shareable page. */
const sharedPages = new Map<string, TtlCache<CachedPage>>();

/** Lets anonymous visitors share the rendered page at `path` (any query) for `keepForMs`. */
export function sharePublicPage(path: string, keepForMs: number): void {
  if (!sharedPages.has(path)) sharedPages.set(path, new TtlCache<CachedPage>(keepForMs, MAX_PAGES));
}

/** Cookies that make a visitor not anonymous (session, expired-session marker). */
const PERSONAL_COOKIES = /(?:^|;\s*)(?:flowlens_session|logged_in)=/;

type RequestLike = { method: string; url: string; headers: { get(name: string): string | null } };

/** The cache key of a request, or null when its page must be rendered for it alone. */
export function pageCacheKey(request: RequestLike): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (PERSONAL_COOKIES.test(request.headers.get("Cookie") ?? "")) return null;
  if (request.headers.get("Authorization")) return null;
  // The page warns browsers it does not support: that depends on the User-Agent.
  const supported = browserSupport(request.headers.get("User-Agent")).supported;
  const url = new URL(request.url, "http://flowlens.invalid");
  return `${supported ? "" : UNSUPPORTED}${url.pathname}${url.search}`;
}

const UNSUPPORTED = "unsupported ";

/** The kept pages of the path a cache key names (pageCacheKey), if that page is shared. */
function pagesOf(key: string): TtlCache<CachedPage> | undefined {
  const path = (key.startsWith(UNSUPPORTED) ? key.slice(UNSUPPORTED.length) : key).split("?")[0];
  return sharedPages.get(path);
}

export function cachedPage(key: string): CachedPage | undefined {
  return pagesOf(key)?.get(key);
}

/** Keeps a rendered page; its inline scripts are allowed by hash from then on. */
export function keepPage(key: string, html: string, status: number): void {
  const stripped = html.replace(/ nonce="[^"]*"/g, "");
  pagesOf(key)?.set(key, {
    html: Buffer.from(stripped),
    gzip: gzipSync(stripped),
    status,
    contentSecurityPolicy: documentPolicy({ hashes: inlineScriptHashes(stripped) }),
  });
}

export function forgetPages(): void {
  for (const pages of sharedPages.values()) pages.clear();
}

/** sha256 sources of the page's inline scripts (each `<script>` without src), as CSP wants them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1]) || !match[2]) continue;
    hashes.add(`sha256-${createHash("sha256").update(match[2], "utf8").digest("base64")}`);
  }
  return [...hashes];
}

/** A CSRF cookie for a visitor of a cached page who has none yet (the page's scripts read it). */
export function csrfCookieFor(request: Pick<RequestLike, "headers" | "url">): string | null {
  return readCsrfCookie(request as Request) ? null : csrfCookieHeader(newCsrfToken(), request);
}

/** Whether a request may receive (or fill) a shared page: anonymous, on a page that can be shared. */
export function isSharedPublicPage(request: RequestLike): boolean {
  return sharedPages.has(new URL(request.url, "http://flowlens.invalid").pathname) && pageCacheKey(request) !== null;
}
