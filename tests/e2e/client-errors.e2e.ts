// The browser client's error handling against the built app (docs/architecture.md section 6b), with JavaScript on
// (without it the browser makes no calls of its own): an uncaught error in the page reaches api/error_report/ and is
// stored (the route answers after keeping it), while the 'ResizeObserver loop' message is not reported; a Looking
// Glass query whose connection fails is sent 1 + 3 times, then the run says 'The network connection to the server was
// interrupted unexpectedly.'; a part of the application that cannot be loaded shows 'Loading chunk failed' with its
// type and URL, and the Looking Glass keeps its server-rendered table.
import type { Browser, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { appURL, launchBrowser, newPage, screenshot, type PageHandle } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const DEEP_LINK = "/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IpPrefixQuery&queryTerm=203.0.113.0%2F24";

// JavaScript on only: without it the browser makes no calls of its own, so there is nothing to handle.
describe("client error handling (JavaScript on)", () => {
  let browser: Browser;
  let m: PageHandle & { url: (p: string) => string; goto: (p: string) => Promise<unknown>; screenshot: (name: string) => Promise<string> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close().catch(() => {});
  });
  beforeEach(async () => {
    const handle = await newPage(browser);
    m = {
      ...handle,
      url: appURL,
      goto: async (p: string) => {
        await handle.page.goto(appURL(p), { waitUntil: "load" });
        await handle.page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
      },
      screenshot: (name: string) => screenshot(handle.page, name),
    };
  });
  afterEach(async () => {
    await m?.context.close().catch(() => {});
  });
  const withJavaScript = it;

  withJavaScript("an uncaught error in the page is reported to api/error_report/, the ResizeObserver loop is not", async () => {
    await logIn(m.page, DEMO_USERS.operator);
    await m.goto("/lookingglass");
    const reports: Request[] = [];
    m.page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/error_report/") reports.push(r);
    });
    // Skipped by the reporter: the browser's harmless layout message.
    await m.page.evaluate(() => {
      setTimeout(() => {
        throw new Error("ResizeObserver loop completed with undelivered notifications.");
      });
    });
    await m.page.waitForTimeout(2500);
    expect(reports).toHaveLength(0);

    const answered = m.page.waitForResponse((r) => new URL(r.url()).pathname === "/api/error_report/", { timeout: 15_000 });
    await m.page.evaluate(() => {
      setTimeout(() => {
        throw new Error("e2e: a bug in a click handler");
      });
    });
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    const body = response.request().postDataJSON() as { message: string; stacktrace: string; url: string };
    expect(body.message).toContain("e2e: a bug in a click handler");
    expect(body.stacktrace).toContain("e2e: a bug in a click handler");
    expect(body.url).toBe(m.url("/lookingglass"));
    // Sent with the CSRF header the client's other calls carry (the endpoint refuses mutations without it).
    const csrf = (await m.context.cookies()).find((c) => c.name === "csrftoken")?.value;
    expect(response.request().headers()["x-csrftoken"]).toBe(csrf);
    // Both uncaught errors reached the page; only one report went out.
    expect(m.pageErrors.map((e) => e.message)).toEqual([
      "ResizeObserver loop completed with undelivered notifications.",
      "e2e: a bug in a click handler",
    ]);
    expect(reports).toHaveLength(1);
  });

  withJavaScript("a Looking Glass query that loses its connection is retried 3 times, then shows the network text", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/lookingglass");
    let attempts = 0;
    await m.page.route("**/api/lookingglass/", async (route) => {
      attempts++;
      await route.abort("internetdisconnected");
    });
    const reports: string[] = [];
    m.page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/error_report/") reports.push(r.url());
    });
    await m.page.getByLabel("Select all vantage points").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("input[name=queryTerm]").fill("203.0.113.0/24");
    await m.page.getByRole("button", { name: "Submit" }).click();
    await m.page.getByText(MESSAGES.networkInterrupted).first().waitFor({ timeout: 20_000 });
    expect(attempts).toBe(4);
    expect(await m.page.getByTestId("lookingglass-status").getAttribute("data-status")).toBe("Aborted");
    await m.screenshot("looking glass network error");
    // A network error is not a bug: nothing is reported.
    await m.page.waitForTimeout(1500);
    expect(reports).toEqual([]);
  });

  withJavaScript("a part of the application that cannot be loaded shows 'Loading chunk failed' with its type and URL", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    let blocked = "";
    // The interactive results table is a chunk loaded after hydration (LookingGlassScreen's lazy import).
    await m.page.route(/\/assets\/ResultsTable-[\w-]+\.js$/, async (route) => {
      blocked = route.request().url();
      await route.abort("connectionreset");
    });
    await m.goto(DEEP_LINK);
    const notice = m.page.getByTestId("chunk-load-failed");
    await notice.waitFor({ timeout: 20_000 });
    expect(blocked).not.toBe("");
    const text = await notice.innerText();
    expect(text).toContain(MESSAGES.chunkLoading);
    // The notice's title.
    expect(await m.page.getByText("Loading chunk failed", { exact: true }).isVisible()).toBe(true);
    expect(text).toContain(`The script ${blocked} could not be loaded.`);
    expect(await notice.getByRole("button", { name: "Reload" }).isVisible()).toBe(true);
    // The page keeps working with the server's table and its export links instead of the interactive one.
    expect(await m.page.locator("[data-testid=lookingglass-table] tbody tr").count()).toBeGreaterThan(0);
    expect(await m.page.getByTestId("export-links").isVisible()).toBe(true);
    expect(await m.page.getByTestId("startup-error-chunk").count()).toBe(0);
    await m.screenshot("chunk load failed");
  });
});
