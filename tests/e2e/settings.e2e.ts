// Settings in the browser, with JavaScript on and off: the user's own settings on /settings persist, and a
// moderator's new default colour reaches other users. Every test puts the shared demo users back as it found them.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { appURL, describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const { operator: OPERATOR, moderator: MODERATOR } = DEMO_USERS;
const DEFAULT_PRIMARY = "#137cbd";

async function saveSettings(page: Page, values: { timezone: string; csv_delimiter: string }) {
  const form = page.locator('form[aria-label="User settings"]');
  await form.locator("select[name=timezone]").selectOption(values.timezone);
  await form.locator("select[name=csv_delimiter]").selectOption(values.csv_delimiter);
  await Promise.all([page.waitForURL(/\/settings\?saved=settings$/), form.getByRole("button", { name: "Save settings" }).click()]);
  await page.getByTestId("settings-saved").waitFor();
}

async function saveDefaultPrimary(page: Page, colour: string) {
  const form = page.locator('form[aria-label="Default style"]');
  await form.locator("input[name=color_primary]").fill(colour);
  await Promise.all([page.waitForURL(/\/site-settings\?saved=style$/), form.getByRole("button", { name: "Save default style" }).click()]);
  await page.getByTestId("site-settings-saved").waitFor();
}

describeBothModes("user settings", (m) => {
  it("changes timezone and CSV delimiter and keeps them after a reload", async () => {
    const timezone = m.javaScriptEnabled ? "Europe/Berlin" : "Asia/Tokyo";
    await logIn(m.page, OPERATOR);
    const res = await m.goto("/settings");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator('a[href="/settings/security"]').count()).toBe(1);
    try {
      await saveSettings(m.page, { timezone, csv_delimiter: ";" });
      expect(await m.page.getByTestId("settings-saved").innerText()).toContain("Your settings were saved.");
      await m.goto("/settings");
      expect(await m.page.inputValue("select[name=timezone]")).toBe(timezone);
      expect(await m.page.inputValue("select[name=csv_delimiter]")).toBe(";");
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    } finally {
      await m.goto("/settings");
      await saveSettings(m.page, { timezone: "UTC", csv_delimiter: "," });
    }
  });

  it("shows the server's message next to a bad field and keeps the stored value", async () => {
    await logIn(m.page, OPERATOR);
    await m.goto("/settings");
    const form = m.page.locator('form[aria-label="User settings"]');
    // Too large for the server (the browser's own checks only know min=1).
    await form.locator("input[name=extlinks_buildout_threshold]").fill("50000");
    await form.getByRole("button", { name: "Save settings" }).click();
    await m.page.getByText("Enter a whole number from 1 to 36500.").waitFor();
    await m.goto("/settings");
    expect(await m.page.inputValue("input[name=extlinks_buildout_threshold]")).toBe("90");
  });

  it("saves a threshold by itself with JavaScript, 500 ms after typing", async () => {
    if (!m.javaScriptEnabled) return; // the plain form (previous tests) covers the no-script case
    await logIn(m.page, OPERATOR);
    await m.goto("/settings");
    const input = m.page.locator("input[name=timeseries_util_threshold_medium]");
    try {
      await input.fill("0.55");
      await m.page.getByText("Timeseries: medium set to 0.55.").waitFor();
      await m.goto("/settings");
      expect(await m.page.inputValue("input[name=timeseries_util_threshold_medium]")).toBe("0.55");
      // Not below high: the server refuses, the toast says why.
      await m.page.locator("input[name=timeseries_util_threshold_medium]").fill("0.9");
      await m.page.getByText(/must be lower than the high threshold/).waitFor();
      expect(m.pageErrors).toEqual([]);
    } finally {
      await m.goto("/settings");
      await m.page.locator("input[name=timeseries_util_threshold_medium]").fill("0.5");
      await m.page.getByText("Timeseries: medium set to 0.5.").waitFor();
    }
  });
});

describeBothModes("default style", (m) => {
  it("a moderator changes the default primary colour and another user sees it", async () => {
    const colour = m.javaScriptEnabled ? "#aa3300" : "#0f9960";
    await logIn(m.page, MODERATOR);
    const res = await m.goto("/site-settings");
    expect(res?.status()).toBe(200);
    // Moderators get the style (names and colours), not the site settings.
    expect(await m.page.locator('form[aria-label="Site settings"]').count()).toBe(0);
    expect(await m.page.locator('form[aria-label="Default style"] input[name=company_logo]').count()).toBe(0);
    try {
      if (m.javaScriptEnabled) {
        await m.page.locator('form[aria-label="Default style"] input[name=color_primary]').fill(colour);
        const preview = m.page.getByTestId("preview-primary");
        expect(await preview.innerText()).toContain(colour);
        expect(await preview.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)");
      }
      await saveDefaultPrimary(m.page, colour);

      const other = await m.newPage();
      await logIn(other.page, OPERATOR);
      await other.page.goto(appURL("/settings"));
      const html = await other.page.content();
      expect(html).toContain(`--mantine-color-brand-6: ${colour}`);
      expect(await other.page.locator('form[aria-label="Personal style"]').innerText()).toContain(colour);

      // Only moderators, staff and superusers reach the page.
      const denied = await other.page.goto(appURL("/site-settings"));
      expect(denied?.status()).toBe(403);
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    } finally {
      await m.goto("/site-settings");
      await saveDefaultPrimary(m.page, DEFAULT_PRIMARY);
    }
  });
});
