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
    const notice = m.javaScriptEnabled ? m.page.locator(".mantine-Notification-root", { hasText: "reset to 60 minutes" }) : m.page.locator("[data-testid=cp-messages]");
    await notice.first().waitFor();
    expect(await notice.first().innerText()).toMatch(/reset to 60 minutes before the newest data/);
    expect(await m.page.getByText('To view the data, click the "Submit" button above.').count()).toBe(1);

    // A query over all the history (from the first selectable minute): "* 3320" = paths ending at Deutsche Telekom.
    const min = await m.page.locator(`${FORM} input[name=start]`).getAttribute("min");
    expect(min).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await m.page.fill(`${FORM} input[name=start]`, min!);
    await m.page.fill(`${FORM} input[name=queryTerm]`, "* 3320");
    await Promise.all([m.page.waitForURL(/queryTerm=\*(\+|%20)3320/), m.page.click(`${FORM} button[type=submit]`)]);
    await m.page.locator("[data-testid=controlplane-table] tbody tr").first().waitFor();
    expect(await m.page.locator("[data-testid=controlplane-table] tbody tr").count()).toBeGreaterThan(0);
    await m.screenshot(`control plane (${m.label})`);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });
});
