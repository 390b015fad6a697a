// Browser helpers for the e2e tests: playwright-core driving Debian's Chromium (CHROME_PATH, set by scripts/test.mjs).
//
//   describeBothModes("login page", (m) => {
//     it("shows a form", async () => {
//       const res = await m.goto("/login");
//       expect(res?.status()).toBe(200);
//       expect(await m.page.locator("form input[type=password]").count()).toBe(1);
//       if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
//     });
//   });
//
// registers "login page (JavaScript on)" and "login page (JavaScript off)". Both modes share one browser per test file
// (JavaScript is a setting of the context, and launching Chromium costs seconds), and every test gets a fresh context (no cookies carried over) with one page; m.page / m.context / m.pageErrors /
// m.consoleErrors refer to the current test's. A failing test leaves a screenshot in test-results/screenshots/.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from "vitest";
import { getCurrentSuite } from "vitest/suite";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SCREENSHOT_DIR = path.join(ROOT, "test-results/screenshots");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** The running app's base URL (from tests/e2e/global-setup.ts), without a trailing slash. */
export function baseURL(): string {
  return inject("baseURL").replace(/\/+$/, "");
}

/** Absolute URL for an app path such as "/login". */
export function appURL(p: string): string {
  return new URL(p, baseURL() + "/").toString();
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH;
  if (!executablePath) {
    throw new Error(
      "CHROME_PATH is not set: run the e2e tests through `npm test` / `node scripts/test.mjs --e2e-only`, " +
        "which finds (or installs) Debian's chromium, or set CHROME_PATH=/usr/bin/chromium",
    );
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface PageHandle {
  context: BrowserContext;
  page: Page;
  /** console.error messages (and other console messages of type "error"). */
  consoleErrors: string[];
  /** Uncaught exceptions in the page. Always empty with JavaScript off. */
  pageErrors: Error[];
}

/** A fresh context (own cookies/storage) with one page, collecting console errors and page errors. */
export async function newPage(browser: Browser, { javaScriptEnabled = true, ...options }: BrowserContextOptions = {}): Promise<PageHandle> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: 1366, height: 900 },
    locale: "en-US",
    timezoneId: "UTC",
    ...options,
    javaScriptEnabled,
  });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: Error[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") {
      const loc = msg.location();
      consoleErrors.push(loc?.url ? `${msg.text()} (${loc.url}:${loc.lineNumber})` : msg.text());
    }
  });
  page.on("pageerror", (err) => pageErrors.push(err));
  return { context, page, consoleErrors, pageErrors };
}

function safeName(name: string): string {
  return (
    name
      .replace(/[^a-zA-Z0-9._-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 150) || "screenshot"
  );
}

/** Full-page screenshot to test-results/screenshots/<name>.png; returns the file path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export type ModeLabel = "JavaScript on" | "JavaScript off";

export interface BrowserMode {
  readonly javaScriptEnabled: boolean;
  readonly label: ModeLabel;
  /** The browser of this mode (the file's, shared by both modes: launched by the first block that runs, closed after the file). */
  readonly browser: Browser;
  /** Current test's context / page / collected errors (fresh for every test). */
  readonly context: BrowserContext;
  readonly page: Page;
  readonly consoleErrors: string[];
  readonly pageErrors: Error[];
  /** Absolute URL for an app path. */
  url(p: string): string;
  /**
   * page.goto(path) and, with JavaScript on, wait (up to 10 s) for the network to go idle so hydration has run and any
   * uncaught exception has been recorded in pageErrors.
   */
  goto(p: string, options?: Parameters<Page["goto"]>[1]): Promise<Response | null>;
  /** Another page in a fresh context of the same mode (closed automatically after the test). */
  newPage(options?: BrowserContextOptions): Promise<PageHandle>;
  /** Screenshot of the current page, named after the test and mode unless a name is given. */
  screenshot(name?: string): Promise<string>;
}

/** The browser the describeBothModes blocks of this test file share: launched by the first that runs. */
let sharedBrowser: Promise<Browser> | undefined;
/** The suites (the file, or a describe around describeBothModes) that close the shared browser when they end. */
const closingSuites = new WeakSet<object>();

/**
 * At collection time: makes the suite being collected close the shared browser after its last test, once per suite.
 * Returns the shared browser's getter for the blocks' hooks (a block that runs after the close launches a new one).
 */
function fileBrowser(): () => Promise<Browser> {
  const suite = getCurrentSuite();
  if (!closingSuites.has(suite)) {
    closingSuites.add(suite);
    afterAll(async () => {
      const launched = sharedBrowser;
      sharedBrowser = undefined;
      await (await launched?.catch(() => undefined))?.close().catch(() => {});
    });
  }
  return () => (sharedBrowser ??= launchBrowser());
}

/**
 * Registers `fn`'s tests twice: in describe("<name> (JavaScript on)") and describe("<name> (JavaScript off)").
 * `fn` receives the mode fixture; only use its page/context inside tests and hooks, not at collection time.
 */
export function describeBothModes(
  name: string,
  fn: (mode: BrowserMode) => void,
  /** `baseURL`: for a file that starts an app server of its own (its stores seeded before the start). */
  options: { baseURL?: () => string } = {},
): void {
  const base = options.baseURL ?? baseURL;
  const urlOf = (p: string) => new URL(p, base() + "/").toString();
  const browserOfFile = fileBrowser();
  for (const javaScriptEnabled of [true, false]) {
    const label: ModeLabel = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
    describe(`${name} (${label})`, () => {
      let browser: Browser | undefined;
      let current: PageHandle | undefined;
      let extra: PageHandle[] = [];
      let testName = name;

      const need = <T>(v: T | undefined, what: string): T => {
        if (v === undefined) throw new Error(`describeBothModes: ${what} is only available inside tests and hooks`);
        return v;
      };

      const mode: BrowserMode = {
        javaScriptEnabled,
        label,
        get browser() {
          return need(browser, "browser");
        },
        get context() {
          return need(current, "context").context;
        },
        get page() {
          return need(current, "page").page;
        },
        get consoleErrors() {
          return need(current, "consoleErrors").consoleErrors;
        },
        get pageErrors() {
          return need(current, "pageErrors").pageErrors;
        },
        url: urlOf,
        async goto(p, options) {
          const page = need(current, "page").page;
          const res = await page.goto(urlOf(p), { waitUntil: "load", ...options });
          if (javaScriptEnabled) {
            await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
            // On a loaded machine the network can go quiet (or the wait give up) before React has hydrated: a
            // field filled then is reset by hydration. Pages that ship the app's scripts set the flag once hydrated.
            await page
              .waitForFunction(
                (flag) => !document.querySelector("script[type=module]") || (window as unknown as Record<string, boolean>)[flag] === true,
                "__flowlensHydrated", // HYDRATED_FLAG of app/components/HydrationFallback.tsx
                { timeout: 30_000 },
              )
              .catch(() => {});
          }
          return res;
        },
        async newPage(options) {
          const h = await newPage(need(browser, "browser"), { baseURL: base(), ...options, javaScriptEnabled });
          extra.push(h);
          return h;
        },
        screenshot(shotName) {
          return screenshot(need(current, "page").page, shotName ?? `${testName} (${label})`);
        },
      };

      beforeAll(async () => {
        browser = await browserOfFile();
      });
      afterAll(() => {
        browser = undefined;
      });
      beforeEach(async (ctx) => {
        testName = ctx.task.name;
        current = await newPage(need(browser, "browser"), { baseURL: base(), javaScriptEnabled });
      });
      afterEach(async (ctx) => {
        try {
          if (ctx.task.result?.state === "fail" && current) {
            const file = await screenshot(current.page, `FAILED ${name} ${ctx.task.name} (${label})`).catch(() => null);
            if (file) console.log(`[e2e] screenshot of the failure: ${path.relative(ROOT, file)}`);
            if (current.pageErrors.length)
              console.log(`[e2e] page errors:\n  ${current.pageErrors.map((e) => e.stack ?? e.message).join("\n  ")}`);
            if (current.consoleErrors.length) console.log(`[e2e] console errors:\n  ${current.consoleErrors.join("\n  ")}`);
          }
        } finally {
          for (const h of [current, ...extra]) await h?.context.close().catch(() => {});
          current = undefined;
          extra = [];
        }
      });

      fn(mode);
    });
  }
}
