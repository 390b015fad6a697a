// The public Looking Glass as a page of its own: server-rendered HTML and CSS with a small inline script instead of the
// app's runtime. Without JavaScript: every public page, before and after a query, loads or inlines at most 30 KB of
// JavaScript (gzip, script by script, loader data included). With JavaScript: the browser requests no script file, and
// the page's script runs the spec's progress bar (compared tick by tick with progress.ts, the private screen's rule)
// and submit rules (disabled while pending or with no vantage point), select-all with its indeterminate state, Abort,
// and the reset on a change of query type.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { pageScripts } from "../../bench/page-scripts";
import { PUBLIC_PAGES } from "../../bench/public-lg-pages";
import { startProgress, tickProgress } from "~/features/lookingglass/progress";
import { MESSAGES } from "~/lib/messages";
import { appURL, describeBothModes } from "./browser";
import { enablePublicLookingGlass } from "./public-lookingglass";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUDGET_BYTES = 30_000;
const TABLE_ROWS = "[data-testid=lookingglass-table] tbody tr";
/** The server's time-out for routing queries: QUERY_MAX_EXECUTION_SECONDS (default 15, app/server/env.server.ts), the bar's pace. */
const TIMEOUT_SECONDS = Number(process.env.QUERY_MAX_EXECUTION_SECONDS || 15);

describeBothModes("public looking glass page", (m) => {
  const only = (javaScript: boolean): typeof it => (m.javaScriptEnabled === javaScript ? it : ((() => undefined) as unknown as typeof it));

  only(false)("every public page, before and after a query, ships at most 30 KB of JavaScript (gzip)", async () => {
    await enablePublicLookingGlass(m);
    for (const page of PUBLIC_PAGES) {
      const res = await m.page.request.get(appURL(page.url));
      expect(res.status(), page.url).toBe(200);
      const html = await res.text();
      // The page is what it claims to be: the form, and after a query its answer.
      expect(html, page.url).toContain('data-testid="lookingglass-form"');
      expect(html, page.url).toContain(page.expect);
      const js = pageScripts(html, path.join(ROOT, "build/client"), path.join(ROOT, "public"));
      console.log(`${page.name}: ${js.scripts.length} scripts, ${js.raw} bytes, ${js.gzip} bytes gzipped`);
      expect(js.gzip, `${page.name}: ${js.scripts.map((s) => `${s.source} ${s.gzip}`).join(", ")}`).toBeLessThanOrEqual(BUDGET_BYTES);
      // Neither the app's modules nor its loader data.
      expect(html).not.toMatch(/\/assets\/[^"']+\.js|__remixContext|modulepreload/);
    }
  });

  only(true)("progress bar, submit rules, select-all, Abort and the reset on a new query type", async () => {
    await enablePublicLookingGlass(m);
    const scripts: string[] = [];
    m.page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await m.goto("/public/lookingglass");
    const submit = m.page.getByRole("button", { name: "Submit" });
    const status = m.page.getByTestId("lookingglass-status");
    const all = m.page.getByLabel("Select all vantage points");
    const bar = m.page.locator("[data-testid=lookingglass-progress] [role=progressbar]");
    expect(await status.textContent()).toBe("Ready");
    // No vantage point selected: disabled; one selected: enabled; none again: disabled.
    expect(await submit.isDisabled()).toBe(true);
    await m.page.getByLabel("Berlin, Germany").check({ force: true });
    expect(await submit.isDisabled()).toBe(false);
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([false, true]);
    await m.page.getByLabel("Berlin, Germany").uncheck({ force: true });
    expect(await submit.isDisabled()).toBe(true);
    // Select all ticks every box; unticking one leaves it indeterminate.
    await all.check({ force: true });
    const boxes = m.page.locator("input[name=selectedVantagePoints]:not([value=all])");
    expect(await boxes.evaluateAll((inputs) => inputs.every((i) => (i as HTMLInputElement).checked))).toBe(true);
    await m.page.getByLabel("Berlin, Germany").uncheck({ force: true });
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([false, true]);
    await all.check({ force: true });
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([true, false]);

    // The answer is held back, so the request stays pending long enough to watch the bar.
    const held: (() => void)[] = [];
    const release = () => held.splice(0).forEach((go) => go());
    await m.page.route(/\/public\/lookingglass\?/, async (route) => {
      await new Promise<void>((resolve) => held.push(resolve));
      // An aborted load has no request left to continue.
      await route.continue().catch(() => {});
    });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("input[name=queryTerm]").fill("203.0.113.0/24");
    // Every value the bar shows from the submit on.
    await bar.evaluate((el) => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(el.getAttribute("aria-valuenow") ?? "")).observe(el, {
        attributes: true,
        attributeFilter: ["aria-valuenow"],
      });
    });
    // Clicked in the page: Playwright's own click would wait for the navigation it starts, which is held.
    const click = (button: typeof submit) => button.evaluate((b: HTMLButtonElement) => b.click());
    await click(submit);
    expect(await status.getAttribute("data-status")).toBe("PENDING");
    expect(await status.textContent()).toBe("Querying…");
    expect(await submit.isDisabled()).toBe(true);
    await m.page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.length >= 12);
    const seen = (await m.page.evaluate(() => (window as unknown as { seen: string[] }).seen)).map(Number);
    // From 0, then tick by tick as progress.ts computes it: 100/T % first, each step 1 % smaller.
    let expected = startProgress(TIMEOUT_SECONDS);
    expect(seen[0]).toBe(0);
    for (const value of seen.slice(1, 12)) {
      expected = tickProgress(expected);
      expect(value).toBeCloseTo(expected.percent, 9);
    }
    expect(seen[1]).toBeCloseTo(100 / TIMEOUT_SECONDS, 9);
    // A second submit while pending (Enter in the term's field, a script) is refused.
    await m.page.locator("form[data-testid=lookingglass-form]").evaluate((f: HTMLFormElement) => f.requestSubmit());
    await m.page.waitForTimeout(300);
    expect(held.length).toBe(1);
    release();
    await m.page.waitForURL(/queryTerm=203\.0\.113\.0%2F24/);
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    expect(await status.getAttribute("data-status")).toBe("COMPLETED");
    expect(await bar.getAttribute("aria-valuenow")).toBe("100");
    expect(await submit.isDisabled()).toBe(false);
    const answered = m.page.url();

    // Abort: the page load stops, the bar goes back to 0, the status reads Aborted, submit is possible again.
    await m.page.locator("input[name=queryTerm]").fill("198.51.100.0/24");
    await click(submit);
    await m.page.waitForFunction(() => Number(document.querySelector("[role=progressbar]")?.getAttribute("aria-valuenow")) > 0);
    await click(m.page.getByRole("button", { name: "Abort" }));
    expect(await status.getAttribute("data-status")).toBe("ABORTED");
    expect(await status.textContent()).toBe("Aborted");
    expect(await bar.getAttribute("aria-valuenow")).toBe("0");
    expect(await submit.isDisabled()).toBe(false);
    expect(await m.page.getByRole("button", { name: "Abort" }).isVisible()).toBe(false);
    release();
    await m.page.waitForTimeout(300);
    expect(m.page.url()).toBe(answered);
    await m.page.unroute(/\/public\/lookingglass\?/);

    // A new query type resets the status and clears the output.
    await m.goto(answered.replace(m.url("/"), "/"));
    await m.page.locator(TABLE_ROWS).first().waitFor();
    await m.page.locator("select[name=queryType]").selectOption("AsPathQuery");
    expect(await status.textContent()).toBe("Ready");
    expect(await bar.getAttribute("aria-valuenow")).toBe("0");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    expect(await m.page.locator(TABLE_ROWS).count()).toBe(0);

    // Nothing but the page's own inline script ran: no script file was requested.
    expect(scripts).toEqual([]);
    expect(m.pageErrors.map((e) => e.message)).toEqual([]);
    await m.screenshot("public looking glass page (JavaScript on)");
  });
});
