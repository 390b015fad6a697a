// The Control Plane (/controlplane) against the built app with the demo network's routing history, with
// JavaScript on and off: the date rules (a start before the data reset to 60 minutes before the newest, the end
// clamped), a query through the GET form and its rows, the new-data indicator.
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appURL, describeBothModes } from "./browser";

async function logIn(page: Page) {
  await page.goto(appURL("/login"));
  await page.fill("input[name=email]", "operator@flowlens.example");
  await page.fill("input[name=password]", "flowlens-operator");
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.click("button[type=submit]")]);
}

const FORM = "form[aria-label='Control Plane query']";

/** "YYYY-MM-DDTHH:mm" of the start/end fields (the browser runs in UTC, as the demo user's timezone). */
const minutes = (text: string) => Date.parse(`${text}:00Z`) / 1000;

describeBothModes("control plane", (m) => {
  it("clamps a range outside the data and answers a query from the form", async () => {
    await logIn(m.page);
    const res = await m.goto("/controlplane?queryType=AsPathQuery&start=1000000000&end=4000000000");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator("[data-testid=cp-new-data]").innerText()).toMatch(/new data: \d+ min ago/i);
    const start = minutes(await m.page.locator(`${FORM} input[name=start]`).inputValue());
    const end = minutes(await m.page.locator(`${FORM} input[name=end]`).inputValue());
    // Reset to the 60 minutes before the newest data (the fields show whole minutes).
    expect(end - start).toBeGreaterThanOrEqual(59 * 60);
    expect(end - start).toBeLessThanOrEqual(61 * 60);
    expect(await m.page.locator(`${FORM} input[name=end]`).getAttribute("max")).toBe(await m.page.locator(`${FORM} input[name=end]`).inputValue());
    const notice = m.page.getByTestId("cp-notices");
    expect(await notice.innerText()).toMatch(/The start \(\d\d\.\d\d\.\d{4} \d\d:\d\d UTC\) is outside the routing data .*; it was set to 60 minutes before the newest data/);
    expect(await notice.innerText()).not.toContain("The end was after the newest data");
    // The caption says what the form shows.
    const caption = await m.page.getByTestId("cp-range").innerText();
    const shown = (name: string) => m.page.locator(`${FORM} input[name=${name}]`).inputValue();
    const asCaption = (v: string) => `${v.slice(8, 10)}.${v.slice(5, 7)}.${v.slice(0, 4)} ${v.slice(11, 16)} UTC`;
    expect(caption).toBe(`${asCaption(await shown("start"))} – ${asCaption(await shown("end"))}`);
    expect(await m.page.getByText('To view the data, click the "Submit" button above.').count()).toBe(1);

    // A query over all the history (from the first selectable minute): "* 3320" = paths ending at Deutsche Telekom.
    const min = await m.page.locator(`${FORM} input[name=start]`).getAttribute("min");
    expect(min).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await m.page.fill(`${FORM} input[name=start]`, min!);
    await m.page.fill(`${FORM} input[name=queryTerm]`, "* 3320");
    await Promise.all([m.page.waitForURL(/queryTerm=\*(\+|%20)3320/), m.page.click(`${FORM} button[type=submit]`)]);
    await m.page.locator("[data-testid=controlplane-table] tbody tr").first().waitFor();
    expect(await m.page.locator("[data-testid=controlplane-table] tbody tr").count()).toBeGreaterThan(0);
    const headers = await m.page.locator("[data-testid=controlplane-table] thead th").allInnerTexts();
    expect(headers).toEqual(["Details", "Time (UTC)", "Vantage point", "Event", "Prefix", "AS path", "Next hop"]);
    expect(await m.page.locator("[data-testid=controlplane-table] tbody tr >> nth=0 >> td >> nth=2").innerText()).toMatch(/^\S+-er\d \S.*, \S/);
    for (const width of [1166, 390]) {
      await m.page.setViewportSize({ width, height: 900 });
      const size = await m.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(size.scroll, `page width at ${width} px`).toBeLessThanOrEqual(size.client);
      const box = (await m.page.locator("[data-testid=cp-row-details] summary").first().boundingBox())!;
      expect(box.x + box.width, `details toggle in view at ${width} px`).toBeLessThanOrEqual(width);
    }
    await m.page.setViewportSize({ width: 1366, height: 900 });
    // Every field in the row's details (no JavaScript needed), and the column picker adds columns.
    await m.page.locator("[data-testid=cp-row-details] summary").first().click();
    expect(await m.page.locator("[data-testid=cp-row-details]").first().innerText()).toContain("Communities");
    await m.page.locator("[data-testid=cp-column-picker] summary").click();
    await m.page.getByLabel("Communities").check({ force: true });
    await Promise.all([m.page.waitForURL(/columns=communityIndex/), m.page.getByRole("button", { name: "Show these columns" }).click()]);
    await m.page.locator("[data-testid=controlplane-table] thead th", { hasText: "Communities" }).waitFor();
    await m.screenshot(`control plane (${m.label})`);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("says which address values were not applied; a preset of the Flow Explorer is used without a lag notice", async () => {
    await logIn(m.page);
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&dateRange=NEXT_CENTURY");
    expect(await m.page.getByTestId("cp-notices").innerText()).toContain("dateRange=NEXT_CENTURY in the address is not a date range;");
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&dateRange=LAST_24_HOURS");
    expect(await m.page.getByTestId("cp-notices").count()).toBe(0);
    const start = minutes(await m.page.locator(`${FORM} input[name=start]`).inputValue());
    const end = minutes(await m.page.locator(`${FORM} input[name=end]`).inputValue());
    expect(end - start).toBeGreaterThan(23 * 3600);
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&start=2001-01-01&end=2000-01-01");
    expect(await m.page.getByTestId("cp-notices").innerText()).toMatch(/The end \(01\.01\.2000 00:00 UTC\) was before the start \(02\.01\.2001 00:00 UTC\)|the two were swapped/);
  });
});
