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
/** How long the browser's load of an answer is held back (the request pending), in ms. */
const HOLD_MS = 4_000;

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
    const boxes = m.page.locator("[data-testid=lookingglass-form] input[name=selectedVantagePoints]:not([value=all])");
    expect(await boxes.evaluateAll((inputs) => inputs.every((i) => (i as HTMLInputElement).checked))).toBe(true);
    await m.page.getByLabel("Berlin, Germany").uncheck({ force: true });
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([false, true]);
    await all.check({ force: true });
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([true, false]);

    // The answer is held back, so the request stays pending long enough to watch the bar. While the page's load is held
    // Playwright does not query the page, so the page reports what it shows through an exposed function.
    const reports: { kind: string; value: Record<string, unknown> }[] = [];
    await m.page.exposeFunction("lgReport", (kind: string, value: Record<string, unknown>) => void reports.push({ kind, value }));
    const of = (kind: string) => reports.filter((r) => r.kind === kind).map((r) => r.value);
    let loads = 0;
    await m.page.route(/\/public\/lookingglass\?/, async (route) => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      // An aborted load has no request left to continue.
      await route.continue().catch(() => {});
    });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("203.0.113.0/24");
    const watch = (abortOnFirstTick: boolean) =>
      m.page.evaluate((abortOnFirstTick) => {
        const report = (window as unknown as { lgReport(kind: string, value: Record<string, unknown>): void }).lgReport;
        const bar = document.querySelector("[data-testid=lookingglass-progress] [role=progressbar]")!;
        const badge = document.querySelector("[data-testid=lookingglass-status]")!;
        const form = document.querySelector<HTMLFormElement>("form[data-testid=lookingglass-form]")!;
        const submit = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
        const abort = document.querySelector<HTMLElement>("[data-lg-abort]")!;
        const state = () => ({
          status: badge.getAttribute("data-status"),
          label: badge.textContent,
          disabled: submit.disabled,
          abortShown: !abort.hidden,
          value: bar.getAttribute("aria-valuenow"),
        });
        let aborted = false;
        new MutationObserver(() => {
          report("bar", { value: bar.getAttribute("aria-valuenow") });
          if (abortOnFirstTick && !aborted && Number(bar.getAttribute("aria-valuenow")) > 0) {
            aborted = true;
            abort.querySelector("button")!.click();
            report("aborted", state());
          }
        }).observe(bar, { attributes: true, attributeFilter: ["aria-valuenow"] });
        let submitted = false;
        // After the page's own submit handler: the state it set, then a second submit (Enter in the term's field, a script).
        form.addEventListener("submit", () => {
          if (submitted) return;
          submitted = true;
          setTimeout(() => {
            report("pending", state());
            form.requestSubmit();
          }, 0);
        });
      }, abortOnFirstTick);
    // Clicked in the page: Playwright's own click would wait for the load it starts, which is held.
    const click = () => submit.evaluate((b: HTMLButtonElement) => b.click());

    await watch(false);
    await click();
    await expect.poll(() => of("bar").length, { timeout: HOLD_MS }).toBeGreaterThanOrEqual(12);
    expect(of("pending")[0]).toEqual({ status: "PENDING", label: "Querying…", disabled: true, abortShown: true, value: "0" });
    const seen = of("bar").map((r) => Number(r.value));
    // From 0, then tick by tick as progress.ts computes it: 100/T % first, each step 1 % smaller.
    let expected = startProgress(TIMEOUT_SECONDS);
    expect(seen[0]).toBe(0);
    for (const value of seen.slice(1, 12)) {
      expected = tickProgress(expected);
      expect(value).toBeCloseTo(expected.percent, 9);
    }
    expect(seen[1]).toBeCloseTo(100 / TIMEOUT_SECONDS, 9);
    await m.page.waitForURL(/queryTerm=203\.0\.113\.0%2F24/, { timeout: HOLD_MS + 30_000 });
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    // The second submit while pending was refused: one load only.
    expect(loads).toBe(1);
    expect(await status.getAttribute("data-status")).toBe("COMPLETED");
    expect(await bar.getAttribute("aria-valuenow")).toBe("100");
    expect(await submit.isDisabled()).toBe(false);
    const answered = m.page.url();

    // Abort: the page load stops, the bar goes back to 0, the status reads Aborted, submit is possible again.
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("198.51.100.0/24");
    await watch(true);
    await click();
    await expect.poll(() => of("aborted").length, { timeout: HOLD_MS }).toBe(1);
    expect(of("aborted")[0]).toEqual({ status: "ABORTED", label: "Aborted", disabled: false, abortShown: false, value: "0" });
    await m.page.waitForTimeout(HOLD_MS + 500);
    expect(m.page.url()).toBe(answered);
    expect(await status.getAttribute("data-status")).toBe("ABORTED");
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
