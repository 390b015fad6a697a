import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  cachedPage,
  csrfCookieFor,
  forgetPages,
  inlineScriptHashes,
  isSharedPublicPage,
  keepPage,
  pageCacheKey,
} from "~/server/public-page-cache.server";
import { parseProxyTrust, PEER_ADDRESS_HEADER } from "~/server/auth/client-address.server";
import { csrfCookieHeader } from "~/server/auth/csrf.server";
import { trustProxy } from "~/server/auth/session.server";
import { defaultHeaders, documentPolicy } from "~/server/security-headers.server";
import { wireApp } from "~/wiring.server";

// The Looking Glass names its public page as shareable when the app is wired.
wireApp();

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const request = (url: string, headers: Record<string, string> = {}, method = "GET") => ({
  method,
  url,
  headers: new Headers({ "User-Agent": CHROME, ...headers }),
});
const LG = "/public/lookingglass?queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24";

describe("shared public pages", () => {
  it("are only for anonymous GET requests", () => {
    expect(pageCacheKey(request(LG))).toBe(LG);
    expect(pageCacheKey(request(`http://flowlens.test${LG}`))).toBe(LG);
    expect(pageCacheKey(request(LG, { Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz; flowlens_session=x" }))).toBeNull();
    expect(pageCacheKey(request(LG, { Cookie: "logged_in=1" }))).toBeNull();
    expect(pageCacheKey(request(LG, { Authorization: "Token abc" }))).toBeNull();
    expect(pageCacheKey(request(LG, {}, "POST"))).toBeNull();
    expect(isSharedPublicPage(request(LG))).toBe(true);
    expect(isSharedPublicPage(request("/flow-explorer"))).toBe(false);
  });

  it("keep the HTML without nonces and allow its inline scripts by hash", () => {
    forgetPages();
    const html = `<html><head><script nonce="abc">window.a=1</script><script nonce="abc" src="/assets/x.js"></script></head><body><script nonce="abc" type="module">import("/assets/y.js")</script></body></html>`;
    keepPage(LG, html, 200);
    const page = cachedPage(LG)!;
    expect(page.html.toString()).not.toContain("nonce");
    const hash = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(page.contentSecurityPolicy).toContain(hash("window.a=1"));
    expect(page.contentSecurityPolicy).toContain(hash('import("/assets/y.js")'));
    expect(page.contentSecurityPolicy).not.toContain("nonce-");
    expect(inlineScriptHashes(html)).toHaveLength(2);
  });

  it("give a visitor without a CSRF cookie a fresh one, and none to a visitor who has one", () => {
    const first = csrfCookieFor(request(LG));
    const second = csrfCookieFor(request(LG));
    expect(first).toMatch(/^csrftoken=[A-Za-z0-9_-]{20,};/);
    expect(first).not.toBe(second);
    expect(csrfCookieFor(request(LG, { Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz" }))).toBeNull();
  });
});

describe("security headers", () => {
  it("add HSTS only over HTTPS (directly or per a trusted proxy's X-Forwarded-Proto)", () => {
    const hsts = (headers: Record<string, string>, url = "http://flowlens.test/") =>
      defaultHeaders(new Request(url, { headers }))["Strict-Transport-Security"];
    expect(hsts({})).toBeUndefined();
    expect(hsts({}, "https://flowlens.test/")).toMatch(/max-age=\d+/);
    const forwarded = { [PEER_ADDRESS_HEADER]: "10.1.2.3", "X-Forwarded-Proto": "https" };
    expect(hsts(forwarded)).toBeUndefined();
    try {
      trustProxy(parseProxyTrust("10.0.0.0/8"));
      expect(hsts(forwarded)).toMatch(/max-age/);
      expect(hsts({ ...forwarded, [PEER_ADDRESS_HEADER]: "203.0.113.66" })).toBeUndefined();
    } finally {
      trustProxy(false);
    }
  });

  it("mark the CSRF cookie Secure over HTTPS, as the session cookie", () => {
    expect(csrfCookieHeader("t".repeat(24), new Request("http://flowlens.test/"))).not.toMatch(/Secure/);
    expect(csrfCookieHeader("t".repeat(24), new Request("https://flowlens.test/"))).toMatch(/; Secure$/);
    const forwarded = request(LG, { [PEER_ADDRESS_HEADER]: "10.1.2.3", "X-Forwarded-Proto": "https" });
    expect(csrfCookieFor(forwarded)).not.toMatch(/Secure/);
    try {
      trustProxy(parseProxyTrust("10.0.0.0/8"));
      expect(csrfCookieFor(forwarded)).toMatch(/^csrftoken=[A-Za-z0-9_-]{20,};.*; Secure$/);
    } finally {
      trustProxy(false);
    }
  });

  it("forbid framing, sniffing and caching by default", () => {
    const headers = defaultHeaders(new Request("http://flowlens.test/"));
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      "Referrer-Policy": "same-origin",
    });
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
  });

  it("let documents run only their own scripts and nonce-marked inline ones", () => {
    const policy = documentPolicy({ nonce: "n0nce" });
    expect(policy).toContain("script-src 'self' 'nonce-n0nce'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});
