/**
 * The security headers of every answer. server.mjs fills them into each response that did not set
 * them itself (static files, JSON, redirects, exports); entry.server gives documents their own
 * Content-Security-Policy, with a fresh nonce per request for the inline scripts of Remix and
 * Mantine, or — for a cached public page — the hashes of those scripts.
 *
 * Why `style-src 'unsafe-inline'`: Mantine, nivo and mantine-react-table position and colour
 * elements through `style` attributes (and Mantine writes its CSS variables into <style> tags);
 * attributes cannot carry a nonce, so styles must stay allowed inline. Scripts, the dangerous
 * part, never are; an injected style can restyle a page but cannot run code or send requests
 * (connect-src, img-src and font-src are limited to this origin, data: and blob:).
 */
import type { HeadersFunction } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { isHttps } from "./auth/session.server";

export type ScriptSources = { nonce: string } | { hashes: string[] };

const HSTS = "max-age=31536000; includeSubDomains";

export const newNonce = () => randomBytes(16).toString("base64");

/** The policy of an HTML document; `development` allows Vite's hot reload socket. */
export function documentPolicy(scripts: ScriptSources, development = false): string {
  const scriptSources = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes.map((h) => `'${h}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    // PNG export and downloads build data: and blob: URLs in the page.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Anything that is not a page (JSON, files, static assets): nothing may run, nothing may frame it. */
export const RESOURCE_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * Headers every answer carries unless it set them: no MIME sniffing, no framing (also for browsers
 * without frame-ancestors), no referrer to other sites, HSTS when the request came over HTTPS
 * (directly or per a trusted proxy's X-Forwarded-Proto, as the cookies' Secure flag: isHttps), and no caching
 * of anything Remix answers — pages and JSON may be personal, and Back after logging out must not
 * show them. Static files set their own Cache-Control before this applies.
 */
export function defaultHeaders(request: Parameters<typeof isHttps>[0]): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": RESOURCE_POLICY,
    "Cache-Control": "no-store",
    ...(isHttps(request) ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/** A route's `headers` for pages showing secrets or one-time data: never cached, keeping the parents' headers (the root's CSRF cookie). */
export const neverCachedHeaders: HeadersFunction = ({ parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.set("Cache-Control", "no-store");
  return headers;
};
