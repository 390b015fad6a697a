// The Alerts screen (/alerts) against the built app with the demo network, with JavaScript on and off: a rule created
// from the form is in the table, its "Test against the last 7 days" answers under the form, it is edited and deleted
// through the confirm step; the Flow Explorer's "Alert on this view" opens the form prefilled with the view; the page
// does not scroll sideways at phone width.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

describeBothModes("alerts", (m) => {
  it("creates a rule, shows it in the table, tests it, edits it and deletes it", async () => {
    const name = `Browser rule (${m.label})`;
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/alerts");
    const form = m.page.locator("form[aria-label='Add an alert rule']");
    await form.locator("input[name=name]").fill(name);
    await form.locator("select[name=dimension]").selectOption("AS_SRC_INGRESS");
    await form.locator("input[name=value]").fill("2906");
    await form.locator("input[name=threshold]").fill("500G");
    await Promise.all([m.page.waitForURL(/saved=created/), form.getByRole("button", { name: "Add the rule" }).click()]);
    await m.page.getByTestId("alerts-saved").waitFor();
    const row = m.page.locator("[data-testid=alerts-table] tbody tr", { hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain("above 500 Gbit/s");
    expect(await row.getByRole("link", { name: `The view of ${name} in the Flow Explorer` }).getAttribute("href")).toBe(
      "/flow-explorer?dimension=AS_SRC_INGRESS&filter=AS_SRC_INGRESS%3A2906",
    );
    // The history of the new rule is open: no change of state yet.
    expect(await m.page.getByTestId("alert-history").innerText()).toContain("No change of state yet.");

    await Promise.all([m.page.waitForURL(/edit=\d+/), row.getByRole("link", { name: `Edit ${name}` }).click()]);
    const edit = m.page.locator("form[aria-label='Edit the alert rule']");
    await edit.waitFor();
    expect(await edit.locator("input[name=threshold]").inputValue()).toBe("500G");
    await edit.locator("input[name=threshold]").fill("1k");
    // The test against the last week: a 1 kbit/s threshold on a demo content network fires at once and stays triggered.
    await edit.getByRole("button", { name: "Test against the last 7 days" }).click();
    const preview = m.page.getByTestId("alert-preview");
    await preview.waitFor();
    expect(await m.page.getByTestId("alert-preview-summary").innerText()).toMatch(
      /2016 buckets of 5 minutes, \d+ with data\. The rule would have fired [1-9]/,
    );
    expect(await edit.locator("input[name=threshold]").inputValue()).toBe("1k");
    await Promise.all([m.page.waitForURL(/saved=updated/), edit.getByRole("button", { name: "Save the rule" }).click()]);
    const edited = m.page.locator("[data-testid=alerts-table] tbody tr", { hasText: name });
    await edited.filter({ hasText: "above 1.00 kbit/s" }).waitFor();

    await Promise.all([m.page.waitForURL(/delete=\d+/), edited.getByRole("link", { name: `Delete ${name}` }).click()]);
    const step = m.page.getByTestId("alert-delete-step");
    await step.waitFor();
    await Promise.all([m.page.waitForURL(/saved=deleted/), step.getByRole("button", { name: "Delete the rule" }).click()]);
    await m.page.getByTestId("alerts-saved").waitFor();
    expect(await m.page.locator("[data-testid=alerts-table] tbody tr", { hasText: name }).count()).toBe(0);
    expect(m.pageErrors).toEqual([]);
  });

  it("shows a refused field next to it with what was typed", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/alerts");
    const form = m.page.locator("form[aria-label='Add an alert rule']");
    await form.locator("input[name=name]").fill("Refused");
    await form.locator("input[name=threshold]").fill("lots");
    await form.getByRole("button", { name: "Add the rule" }).click();
    await m.page.getByText("Enter a number, optionally with k, M, G or T").waitFor();
    expect(await form.locator("input[name=threshold]").inputValue()).toBe("lots");
    expect(await form.locator("input[name=name]").inputValue()).toBe("Refused");
  });

  it("opens the new-rule form prefilled from the Flow Explorer's view", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/flow-explorer?dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A2906&ipVersion=4");
    const link = m.page.getByTestId("alert-on-view-link");
    await Promise.all([m.page.waitForURL(/\/alerts\?new=1/), link.click()]);
    const form = m.page.locator("form[aria-label='Add an alert rule']");
    await form.waitFor();
    expect(await form.locator("select[name=dimension]").inputValue()).toBe("AS_HND_INGRESS");
    expect(await form.locator("textarea[name=filter]").inputValue()).toBe("AS_SRC_INGRESS:2906");
    expect(await form.locator("select[name=ipVersion]").inputValue()).toBe("4");
  });

  it("is usable at phone width: the page does not scroll sideways", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(phone.page, DEMO_USERS.admin);
    await phone.page.goto(m.url("/alerts"));
    await phone.page.locator("form[aria-label='Add an alert rule']").waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
