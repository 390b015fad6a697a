// The network inventory screen in the browser, with JavaScript on and off: staff reach it from the site settings,
// add a router with an exporter address and VRFs and find it listed (its VRFs in its form); a bad address is refused next to its field; at phone
// width the page does not scroll sideways (its tables do, inside their box). Each test deletes the router it added.
// "Your network" shows the demo's AS, refuses AS_TRANS next to its field and saves the AS again (a change of nothing).
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

async function deleteRouter(page: Page, name: string, goto: (p: string) => Promise<unknown>) {
  await goto(`/site-settings/inventory?router=${encodeURIComponent(name)}`);
  await Promise.all([
    page.waitForURL(/saved=router-deleted/),
    page.locator(`form[aria-label="Delete router ${name}"]`).getByRole("button").click(),
  ]);
}

describeBothModes("network inventory", (m) => {
  it("adds a router with an exporter address and lists it", async () => {
    const name = m.javaScriptEnabled ? "e2e-js-r1" : "e2e-nojs-r1";
    const exporter = m.javaScriptEnabled ? "192.0.2.201" : "192.0.2.202";
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/site-settings");
    await Promise.all([
      m.page.waitForURL(/\/site-settings\/inventory$/),
      m.page.getByRole("link", { name: "the network inventory" }).click(),
    ]);
    await m.page.getByRole("heading", { name: "Network inventory" }).waitFor();
    const form = m.page.locator('form[aria-label="Add a router"]');
    await form.locator("input[name=name]").fill(name);
    await form.locator("input[name=city]").fill("Frankfurt");
    await form.locator("input[name=country]").fill("Germany");
    await form.locator("input[name=loopback]").fill("not-an-address");
    await form.locator("textarea[name=exporters]").fill(exporter);
    await form.locator("textarea[name=vrfs]").fill("CUST_A 64086.59904:7\nCUST_B 192.0.2.1:5");
    await form.getByRole("button", { name: "Add the router" }).click();
    await m.page.getByText('must be an IPv4 or IPv6 address, not "not-an-address"').waitFor();
    expect(await m.page.locator('form[aria-label="Add a router"]').count()).toBe(1);
    expect(await m.page.inputValue('form[aria-label="Add a router"] input[name=name]')).toBe(name);
    try {
      await m.page.locator('form[aria-label="Add a router"] input[name=loopback]').fill("198.51.100.77");
      await Promise.all([
        m.page.waitForURL(/saved=router-created/),
        m.page.locator('form[aria-label="Add a router"]').getByRole("button", { name: "Add the router" }).click(),
      ]);
      expect(await m.page.getByTestId("inventory-saved").innerText()).toContain("The router was added.");
      expect(await m.page.locator('form[aria-label="Add a router"]').count()).toBe(0);
      expect(await m.page.inputValue(`form[aria-label="Edit router ${name}"] textarea[name=exporters]`)).toBe(exporter);
      // The VRFs as typed, the distinguishers as the routing history writes them (asdot → plain).
      expect(await m.page.inputValue(`form[aria-label="Edit router ${name}"] textarea[name=vrfs]`)).toBe(
        "CUST_A 4200000000:7\nCUST_B 192.0.2.1:5",
      );
      await m.goto("/site-settings/inventory");
      const row = m.page.getByTestId("routers-table").locator("tr", { hasText: name });
      expect(await row.innerText()).toContain(exporter);
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    } finally {
      await deleteRouter(m.page, name, (p) => m.goto(p));
    }
    expect(await m.page.getByTestId("inventory-saved").innerText()).toContain("The router was deleted");
  });

  it("shows the operator's AS and sets it, a bad number refused next to the field", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/site-settings/inventory");
    expect(await m.page.getByTestId("operator-as-current").innerText()).toContain("AS64500");
    const form = m.page.locator('form[aria-label="Your network"]');
    await form.locator("input[name=operator_as]").fill("23456");
    await form.getByRole("button", { name: "Save the AS number" }).click();
    await m.page.getByText("23456 (AS_TRANS) is a placeholder for 4-byte AS numbers, not a network's own AS").waitFor();
    expect(await m.page.inputValue('form[aria-label="Your network"] input[name=operator_as]')).toBe("23456");
    await m.page.locator('form[aria-label="Your network"] input[name=operator_as]').fill("64500");
    await Promise.all([
      m.page.waitForURL(/saved=operator-as/),
      m.page.locator('form[aria-label="Your network"]').getByRole("button", { name: "Save the AS number" }).click(),
    ]);
    expect(await m.page.getByTestId("inventory-saved").innerText()).toContain("Your network's AS number was saved.");
    expect(await m.page.getByTestId("operator-as-current").innerText()).toContain("AS64500");
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("fits a phone's width: only the tables scroll sideways", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(phone.page, DEMO_USERS.admin);
    await phone.page.goto(m.url("/site-settings/inventory"));
    await phone.page.getByRole("heading", { name: "Network inventory" }).waitFor();
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
