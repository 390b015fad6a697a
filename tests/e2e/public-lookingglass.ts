// Shared step of the browser tests that visit the public Looking Glass.
import type { Page } from "playwright-core";
import { appURL, type BrowserMode } from "./browser";

/** Switches the public Looking Glass on through the site settings form, as the superuser (logged in by `logIn`). */
export async function enablePublicLookingGlass(m: Pick<BrowserMode, "newPage">, logIn: (page: Page, email: string, password: string) => Promise<void>) {
  const admin = await m.newPage();
  await logIn(admin.page, "admin@flowlens.example", "flowlens-admin");
  await admin.page.goto(appURL("/site-settings"));
  const form = admin.page.locator("form[aria-label='Site settings']");
  const box = form.locator("input[name=public_looking_glass_enabled]");
  if (!(await box.isChecked())) await box.check({ force: true });
  await Promise.all([admin.page.waitForURL(/saved=site/), form.getByRole("button", { name: "Save site settings" }).click()]);
}
