// Shared step of the browser tests that visit the public Looking Glass.
import type { BrowserMode } from "./browser";
import { setSiteCheckbox } from "./site-settings";

/**
 * Switches the public Looking Glass on through the site settings form, as the superuser.
 * With JavaScript a click that lands while the page is still hydrating can be lost; the save is then tried again on a
 * freshly loaded page (the setting itself is idempotent).
 */
export async function enablePublicLookingGlass(m: Pick<BrowserMode, "newPage">) {
  await setSiteCheckbox(m, "public_looking_glass_enabled", true);
}
