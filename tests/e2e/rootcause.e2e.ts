// The root-cause analysis (/flow-explorer/rootcause) against the built app with the demo network, with JavaScript on
// and off: reached from the Flow Explorer's view (its link prefills the dimension and the view's period; with JavaScript
// each row of the table also offers the analysis of its value), the analysis of a demo content network with its
// classification, baseline, decomposition and routing evidence, this week's anomalies on the empty form (computed in the
// background: JavaScript asks again, the reload link without it), and the spec's invalid-input text for a bad duration.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

/** The view's 2 days as a duration: shorter by the minutes between the newest data and now. */
const TWO_DAYS_AT_MOST = /^(2d|1d(\d{1,2}h)?(\d{1,2}m)?)$/;
const CLASSIFICATIONS = ["Handover AS Shift", "Indirect Overflow", "Interface Shift", "Organic", "Router Shift", "Unknown"];

describeBothModes("root-cause analysis", (m) => {
  it("opens from the Flow Explorer's view, analyses a value and classifies it with its evidence", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS");
    if (m.javaScriptEnabled) {
      // Each row's own analysis, over the view's period (its end is the newest data when that is older than now).
      const row = m.page.locator("a", { hasText: /^Analyse$/ }).first();
      await row.waitFor();
      const href = new URL((await row.getAttribute("href")) ?? "", "http://x");
      expect(href.pathname).toBe("/flow-explorer/rootcause");
      expect(href.searchParams.get("dimension")).toBe("AS_SRC_INGRESS");
      expect(href.searchParams.get("value")).toMatch(/^-?\d+$/);
      expect(href.searchParams.get("start")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/);
      expect(href.searchParams.get("duration")).toMatch(TWO_DAYS_AT_MOST);
    }
    const link = m.page.getByTestId("root-cause-form-link");
    await Promise.all([m.page.waitForURL(/\/flow-explorer\/rootcause\?/), link.click()]);
    const form = m.page.locator("form").filter({ has: m.page.getByRole("button", { name: "Analyse" }) });
    expect(await form.locator("select[name=dimension]").inputValue()).toBe("AS_SRC_INGRESS");
    expect(await form.locator("input[name=duration]").inputValue()).toMatch(TWO_DAYS_AT_MOST);
    expect(await form.locator("input[name=start]").inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/);
    // No error before the value is chosen.
    expect(await m.page.getByRole("alert").filter({ hasText: "Not analysed" }).count()).toBe(0);

    await form.locator("input[name=value]").fill("2906");
    await form.locator("input[name=duration]").fill("1d");
    await Promise.all([m.page.waitForURL(/value=2906/), form.getByRole("button", { name: "Analyse" }).click()]);
    const badge = m.page.getByTestId("classification");
    await badge.waitFor();
    // The text, not the rendered capitals of the badge.
    expect(CLASSIFICATIONS).toContain((await badge.textContent())?.trim());
    for (const heading of ["Baseline"]) await m.page.getByRole("heading", { name: heading }).waitFor();
    expect(await m.page.locator("table").count()).toBeGreaterThan(0);
    expect(m.pageErrors).toEqual([]);
  });

  it("shows this week's anomalies on the empty form once the background has computed them", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/flow-explorer/rootcause");
    const section = m.page.getByTestId("week-anomalies");
    await section.waitFor();
    const note = section.getByTestId("week-anomalies-note");
    for (let i = 0; (await note.count()) === 0 && i < 120; i++) {
      // Computed in the background: with JavaScript the page asks again by itself, without it the reload link does.
      if (!m.javaScriptEnabled) {
        const reload = section.getByRole("link", { name: "Reload" });
        if (await reload.count()) await Promise.all([m.page.waitForLoadState("load"), reload.click()]);
      }
      await m.page.waitForTimeout(1_000);
    }
    // The browser tests' demo network is 3 days long: no week of history before the range, so no baseline (the
    // list itself is checked against the 35-day demo in tests/integration/rootcause-anomalies-demo.test.ts).
    expect(await note.innerText()).toBe("Part of the range has no seasonal baseline: the flow data start less than a week before it.");
    expect(await section.innerText()).toContain("No anomalies found in the last 7 days.");
    expect(await section.locator("tbody tr").count()).toBe(0);
    expect(m.pageErrors).toEqual([]);
  });

  it("names a bad duration with the spec's text and keeps the form", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/flow-explorer/rootcause?dimension=AS_SRC_INGRESS&value=2906&start=2026-11-20T18:00:00Z&duration=9d");
    const alert = m.page.getByRole("alert").filter({ hasText: "Not analysed" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain("9d is not a valid duration input");
    expect(await m.page.locator("input[name=value]").inputValue()).toBe("2906");
  });

  it("is usable at phone width: the page does not scroll sideways", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(phone.page, DEMO_USERS.admin);
    const start = new Date((Math.floor(Date.now() / 3_600_000) - 25) * 3_600_000).toISOString();
    await phone.page.goto(m.url(`/flow-explorer/rootcause?dimension=AS_SRC_INGRESS&value=2906&start=${start}&duration=1d`));
    await phone.page.getByTestId("classification").waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
