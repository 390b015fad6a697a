// Site settings set by a browser test through the staff form, as an operator would: one checkbox of the form, saved.
// With JavaScript a click that lands while the page is still hydrating can be lost; the save is then tried again on a
// freshly loaded page (setting a checkbox is idempotent).
import { appURL, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

/** Ticks or clears one checkbox of the site settings form as the demo superuser and saves the form. */
export async function setSiteCheckbox(m: Pick<BrowserMode, "newPage">, name: string, on: boolean): Promise<void> {
  const admin = await m.newPage();
  await logIn(admin.page, DEMO_USERS.admin);
  for (let attempt = 1; ; attempt++) {
    await admin.page.goto(appURL("/site-settings"), { waitUntil: "networkidle" });
    const form = admin.page.locator("form[aria-label='Site settings']");
    const box = form.locator(`input[name=${name}]`);
    if ((await box.isChecked()) !== on) await box.setChecked(on, { force: true });
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
