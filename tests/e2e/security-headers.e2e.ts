// Security headers as a browser meets them: Back after logging out shows no logged-in page (Cache-Control: no-store),
// the main screens run under the Content-Security-Policy without a single violation (nonces for the inline scripts),
// every kind of answer carries the headers, and a cached public Looking Glass page runs under script hashes.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appURL, describeBothModes, launchBrowser, newPage, type BrowserMode } from "./browser";
import { logIn } from "./login";
import { enablePublicLookingGlass } from "./public-lookingglass";

/** Collects CSP violations (the DOM event, from the first script on) and console CSP errors of a page. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const consoleReports: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(msg.text())) consoleReports.push(msg.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [
    ...consoleReports,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
  ];
}

const PUBLIC_LG = `/public/lookingglass?selectedVantagePoints=${encodeURIComponent('["all"]')}&queryType=IP_PREFIX_QUERY&queryTerm=${encodeURIComponent("203.0.113.0/24")}`;

describeBothModes("after logging out", (m) => {
  it("Back shows no logged-in page", async () => {
    await logIn(m.page);
    await m.goto("/flow-explorer?dimension=AS_SRC_INGRESS");
    await m.page.locator("nav[aria-label=Tools]").waitFor();
    await Promise.all([m.page.waitForURL(/\/login/), m.page.click("text=Log out")]);
    await m.page.goBack({ waitUntil: "load" });
    // The browser asks the server again (nothing was stored) and is sent to the login.
    await m.page.waitForURL(/\/login/);
    await m.page.locator("input[name=password]").waitFor();
    expect(await m.page.locator("nav[aria-label=Tools]").count()).toBe(0);
    expect(await m.page.getByText("Log out").count()).toBe(0);
  });
});

describeBothModes("content security policy", (m) => {
  it("lets every main screen run without a violation", async () => {
    await enablePublicLookingGlass(m);
    const violations = await watchPolicy(m.page);
    const seen: Record<string, string[]> = {};
    const visit = async (path: string) => {
      const res = await m.goto(path);
      expect(res?.status(), path).toBeLessThan(400);
      expect(res?.headers()["content-security-policy"], path).toMatch(/script-src 'self' '(nonce|sha256)-/);
      seen[path] = await violations();
    };
    await visit("/login");
    await visit(PUBLIC_LG);
    await visit(PUBLIC_LG); // the second anonymous visit is the cached page
    await logIn(m.page);
    for (const path of [
      "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_24_HOURS",
      "/as-flows-analysis",
      "/lookingglass",
      "/controlplane",
      "/settings",
      "/notifications",
      "/faq",
    ]) {
      await visit(path);
    }
    const all = Object.entries(seen).flatMap(([path, list]) => list.map((v) => `${path}: ${v}`));
    expect([...new Set(all)]).toEqual([]);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });
});

describe("security headers of every answer", () => {
  it("documents, JSON, static files and redirects forbid framing and sniffing; pages and JSON are not cached", async () => {
    const answers = await Promise.all(
      ["/login", "/healthz", "/favicon.svg", "/flow-explorer"].map((p) => fetch(appURL(p), { redirect: "manual" })),
    );
    for (const res of answers) {
      expect(res.headers.get("x-frame-options"), res.url).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), res.url).toBe("same-origin");
      expect(res.headers.get("content-security-policy"), res.url).toContain("frame-ancestors 'none'");
      // Served over plain HTTP: no HSTS.
      expect(res.headers.get("strict-transport-security"), res.url).toBeNull();
    }
    const [login, health, , redirect] = answers;
    expect(login.headers.get("cache-control")).toBe("no-store");
    expect(login.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("cache-control")).toBe("no-store");
  });

  it("believes X-Forwarded-Proto only from a trusted proxy: from this client (TRUST_PROXY=0) no HSTS, no Secure cookie", async () => {
    const res = await fetch(appURL("/healthz"), { headers: { "X-Forwarded-Proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const page = await fetch(appURL("/login"), { headers: { "X-Forwarded-Proto": "https" } });
    expect(page.headers.get("strict-transport-security")).toBeNull();
    expect(page.headers.get("set-cookie")).toMatch(/csrftoken=/);
    expect(page.headers.get("set-cookie")).not.toMatch(/Secure/i);
  });

  it("a new nonce for every page, never served twice", async () => {
    const nonce = async () => /'nonce-([^']+)'/.exec((await fetch(appURL("/login"))).headers.get("content-security-policy") ?? "")?.[1];
    const [a, b] = [await nonce(), await nonce()];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });
});

describe("cached public Looking Glass page", () => {
  it("is served to anonymous visitors with script hashes, no nonce and no other visitor's CSRF token", async () => {
    const browser = await launchBrowser();
    try {
      const first = await newPage(browser);
      const mode = { newPage: () => newPage(browser) } as unknown as BrowserMode;
      await enablePublicLookingGlass(mode);
      const url = `${PUBLIC_LG}&cachetest=${Date.now()}`;
      const filled = await fetch(appURL(url));
      expect(filled.status).toBe(200);
      const cached = await fetch(appURL(url));
      const html = await cached.text();
      expect(cached.headers.get("content-security-policy")).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
      expect(cached.headers.get("content-security-policy")).not.toContain("nonce-");
      expect(html).not.toContain("nonce=");
      expect(html).not.toContain((filled.headers.get("set-cookie") ?? "").match(/csrftoken=([^;]+)/)?.[1] ?? "no cookie");
      expect(cached.headers.get("set-cookie")).toMatch(/^csrftoken=/);
      // And it runs in a browser: hydrated, no violation.
      const violations = await watchPolicy(first.page);
      await first.page.goto(appURL(url), { waitUntil: "networkidle" });
      expect(await violations()).toEqual([]);
      expect(first.pageErrors.map((e) => e.message)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
