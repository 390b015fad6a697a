// The notifications page in the browser, with JavaScript on and off: the operator makes new recovery codes on
// /settings/security (which tells the account "Your two-factor authentication changed"), then on /notifications marks
// that notification read and unread, archives it (gone from the inbox, listed with the archived ones), moves it back
// to the inbox, and deletes it. Each step is one plain form; the page is checked after it. At 390 px the page and a
// notification's buttons fit the width.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const TITLE = "Your two-factor authentication changed";

/** Clicks a submit button of a form; with JavaScript off that is a page load, which is awaited too. */
async function submit(page: Page, javaScriptEnabled: boolean, click: () => Promise<void>) {
  if (javaScriptEnabled) {
    const done = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/notifications"));
    await click();
    await done;
    return;
  }
  await Promise.all([page.waitForNavigation(), click()]);
}

/** Something to be told of: new recovery codes for the operator (they need the current password). */
async function newRecoveryCodes(page: Page, securityUrl: string, javaScriptEnabled: boolean) {
  await page.goto(securityUrl);
  const recovery = page.getByRole("form", { name: "Generate recovery codes" });
  await recovery.getByLabel("Current password").fill(DEMO_USERS.operator.password);
  const button = recovery.getByRole("button", { name: "Generate recovery codes", exact: true });
  if (javaScriptEnabled) await button.click();
  else await Promise.all([page.waitForNavigation(), button.click()]);
  await page.getByTestId("recovery-codes").waitFor();
}

describeBothModes("notifications", (m) => {
  it("marks read and unread, archives, moves back to the inbox and deletes", async () => {
    await logIn(m.page, DEMO_USERS.operator);
    const page = m.page;

    await newRecoveryCodes(page, m.url("/settings/security"), m.javaScriptEnabled);

    await m.goto("/notifications");
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    const cards = page.getByTestId("notification").filter({ hasText: TITLE });
    const before = await cards.count();
    expect(before).toBeGreaterThan(0);
    // The newest is listed first.
    const card = cards.first();
    const unreadBadge = () => cards.first().getByText("unread", { exact: true }).count();
    expect(await unreadBadge()).toBe(1);
    expect(await card.innerText()).toContain("An authenticator or your recovery codes changed.");

    await submit(page, m.javaScriptEnabled, () => card.getByRole("button", { name: "Mark read" }).click());
    await expect.poll(() => cards.first().getByRole("button", { name: "Mark unread" }).count()).toBe(1);
    expect(await unreadBadge()).toBe(0);

    await submit(page, m.javaScriptEnabled, () => cards.first().getByRole("button", { name: "Mark unread" }).click());
    await expect.poll(() => cards.first().getByRole("button", { name: "Mark read" }).count()).toBe(1);
    expect(await unreadBadge()).toBe(1);

    await submit(page, m.javaScriptEnabled, () => cards.first().getByRole("button", { name: "Archive" }).click());
    await expect.poll(() => cards.count()).toBe(before - 1);
    expect(new URL(page.url()).search).toBe("");

    // The archived one is listed with "All, with archived", with its way back to the inbox.
    await page.getByRole("link", { name: "All, with archived" }).click();
    await page.waitForURL(/archived=1/);
    const archived = page
      .getByTestId("notification")
      .filter({ hasText: TITLE })
      .filter({ has: page.getByText("archived", { exact: true }) });
    await expect.poll(() => archived.count()).toBeGreaterThan(0);
    await submit(page, m.javaScriptEnabled, () => archived.first().getByRole("button", { name: "Move to inbox" }).click());
    await page.waitForURL(/archived=1/);
    await m.goto("/notifications");
    await expect.poll(() => cards.count()).toBe(before);

    await submit(page, m.javaScriptEnabled, () => cards.first().getByRole("button", { name: "Delete" }).click());
    await expect.poll(() => cards.count()).toBe(before - 1);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("fits a phone's width (390 px), a notification with its buttons included", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(phone.page, DEMO_USERS.operator);
    await newRecoveryCodes(phone.page, m.url("/settings/security"), m.javaScriptEnabled);
    for (const url of ["/notifications", "/notifications?archived=1"]) {
      await phone.page.goto(m.url(url));
      await phone.page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(390);
    }
    const card = phone.page.getByTestId("notification").filter({ hasText: TITLE }).first();
    for (const name of ["Mark read", "Archive", "Delete"]) {
      const box = (await card.getByRole("button", { name }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    }
    // Leave nothing behind for the other tests' pages.
    await submit(phone.page, m.javaScriptEnabled, () => card.getByRole("button", { name: "Delete" }).click());
  });
});
