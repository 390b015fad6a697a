// The notifications page in the browser, with JavaScript on and off: the operator makes new recovery codes on
// /settings/security (which tells the account "Your two-factor authentication changed"), then on /notifications marks
// that notification read and unread, archives it (gone from the inbox, listed with the archived ones), moves it back
// to the inbox, and deletes it. Each step is one plain form; the page is checked after it. At 390 px the page and a
// notification's buttons fit the width. With JavaScript a new notification pops up once, where it covers none of the
// header's controls (desktop and 390 px), and not again on the next page.
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeBothModes, screenshot } from "./browser";
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

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The header's controls as drawn (links, buttons, the phone menu's summary, selects; not those of a closed menu or
 * hidden at this width), with their text and box.
 */
async function headerControls(page: Page): Promise<{ name: string; box: Box; control: Locator }[]> {
  const controls = page.locator("header").locator("a, button, summary, select, input:not([type=hidden]), [role=button]");
  const found: { name: string; box: Box; control: Locator }[] = [];
  for (const control of await controls.all()) {
    const drawn = await control.evaluate((el) => el.checkVisibility({ visibilityProperty: true }));
    const box = await control.boundingBox();
    if (drawn && box && box.width > 0 && box.height > 0) found.push({ name: (await control.innerText()).trim(), box, control });
  }
  return found;
}

/** Whether the middle of the control is the control itself (nothing drawn over it). */
const reachable = (control: Locator) =>
  control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && el.contains(top);
  });

const popUp = (page: Page): Locator => page.locator(".mantine-Notification-root", { hasText: TITLE });

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

  it("a new notification pops up once, covering none of the header's controls (desktop and 390 px)", async () => {
    if (!m.javaScriptEnabled) return; // pop-ups need JavaScript: without it the header's count and the page tell
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ]) {
      const { page } = await m.newPage({ viewport: { width, height } });
      await logIn(page, DEMO_USERS.operator);
      await newRecoveryCodes(page, m.url("/settings/security"), true);
      await page.goto(m.url("/welcome"));
      const toast = popUp(page).first();
      await toast.waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500); // the toast's entry transition
      const box = (await toast.boundingBox())!;
      const controls = await headerControls(page);
      expect(controls.length, "header controls").toBeGreaterThan(0);
      for (const control of controls) expect(intersects(box, control.box), `${width} px: the pop-up covers "${control.name}"`).toBe(false);
      expect(box.x + box.width, `${width} px`).toBeLessThanOrEqual(width);
      await screenshot(page, `notification pop-up ${width} px`);
      if (width < 768) {
        // The phone menu opened while the pop-up shows: every item and action in it is drawn over the pop-up.
        await page.locator("[data-testid=phone-menu] > summary").click();
        const opened = await headerControls(page);
        expect(opened.length).toBeGreaterThan(controls.length);
        for (const { name, control } of opened) {
          await control.scrollIntoViewIfNeeded(); // the panel scrolls on a short screen
          expect(await reachable(control), `open menu: "${name}" is covered`).toBe(true);
        }
        await screenshot(page, `notification pop-up ${width} px, menu open`);
        await page.locator("[data-testid=phone-menu] > summary").click();
      }
      // The next page polls again: the notification, still unread, does not pop up a second time.
      const polled = page.waitForResponse((r) => new URL(r.url()).pathname === "/auth/notifications/" && r.request().method() === "GET");
      await page.goto(m.url("/notifications"));
      await polled;
      await page.waitForTimeout(1000);
      expect(await popUp(page).count(), `${width} px: popped up again`).toBe(0);
      expect(await page.getByTestId("notification").filter({ hasText: TITLE }).first().getByText("unread", { exact: true }).count()).toBe(
        1,
      );
    }
  });
});
