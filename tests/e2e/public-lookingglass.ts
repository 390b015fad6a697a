// Shared step of the browser tests that visit the public Looking Glass.
import { appURL, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

/**
 * Switches the public Looking Glass on through the site settings form, as the superuser.
 * With JavaScript a click that lands while the page is still hydrating can be lost; the save is then tried again on a
 * freshly loaded page (the setting itself is idempotent).
 */
export async function enablePublicLookingGlass(m: Pick<BrowserMode, "newPage">) {
  const admin = await m.newPage();
  await logIn(admin.page, DEMO_USERS.admin);
  for (let attempt = 1; ; attempt++) {
    await admin.page.goto(appURL("/site-settings"), { waitUntil: "networkidle" });
    const form = admin.page.locator("form[aria-label='Site settings']");
    const box = form.locator("input[name=public_looking_glass_enabled]");
    if (!(await box.isChecked())) await box.check({ force: true });
    try {
      await Promise.all([
        admin.page.waitForURL(/saved=site/, { timeout: 15_000 }),
        form.getByRole("button", { name: "Save site settings" }).click(),
      ]);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
