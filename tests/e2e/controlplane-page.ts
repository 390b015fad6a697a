import type { Page } from "playwright-core";

/**
 * The first minute with routing data as the Control Plane says it ("Routing data from dd.MM.yyyy HH:mm UTC …"), in
 * the form's own format: the date fields are text fields in the spec's format, with no min or max to read.
 */
export async function firstRoutingMinute(page: Page): Promise<string> {
  const text = await page.getByTestId("cp-dates").innerText();
  const first = /Routing data from (\d{2}\.\d{2}\.\d{4} \d{2}:\d{2})/.exec(text)?.[1];
  if (!first) throw new Error(`no first routing minute in "${text}"`);
  return first;
}
