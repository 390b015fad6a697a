// The mappings screens in the browser, with JavaScript on and off: an operator colours an application in their own
// layer (a bad colour refused next to its field first) and removes it again; a moderator names an infrastructure in
// the site layer; on AS Mappings a moderator imports a CSV whose bad line is listed (nothing imported), then the
// corrected file, and assigns the AS to an application. Each test removes what it added; ids differ per mode.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

// After a client-side navigation the URL can change before the new data is rendered: wait for the text itself.
describeBothModes("mappings", (m) => {
  const suffix = m.javaScriptEnabled ? "js" : "nojs";

  it("Applications: the list with its layers; an operator's own colour, refused then saved, then removed", async () => {
    await logIn(m.page, DEMO_USERS.operator);
    await m.goto("/flow-explorer");
    await Promise.all([m.page.waitForURL(/\/mappings\/applications$/), m.page.getByRole("link", { name: "Applications" }).first().click()]);
    await m.page.getByRole("heading", { name: "Applications", level: 1 }).waitFor();
    const netflix = m.page.getByTestId("mappings-table").locator("tr", { hasText: "Netflix" }).first();
    expect(await netflix.innerText()).toContain("site (20)");

    const id = `e2e-app-${suffix}`;
    await m.page.locator('form[aria-label="Open an application"] input[name=id]').fill(id);
    await Promise.all([
      m.page.waitForURL(/id=e2e-app/),
      m.page.locator('form[aria-label="Open an application"]').getByRole("button", { name: "Open" }).click(),
    ]);
    await m.page.getByRole("heading", { name: id }).waitFor();
    const form = m.page.locator('form[aria-label="Save the user (30) layer"]');
    await form.locator("input[name=color]").fill("blue");
    await form.getByRole("button").click();
    await m.page.getByText("A colour as #rrggbb, e.g. #137cbd.").waitFor();
    expect(await m.page.inputValue('form[aria-label="Save the user (30) layer"] input[name=color]')).toBe("blue");
    // Not hers to write: the site layer has no form for an operator.
    expect(await m.page.locator('form[aria-label="Save the site (20) layer"]').count()).toBe(0);

    await m.page.locator('form[aria-label="Save the user (30) layer"] input[name=color]').fill("#00aa11");
    await Promise.all([
      m.page.waitForURL(/saved=layer-saved/),
      m.page.locator('form[aria-label="Save the user (30) layer"]').getByRole("button").click(),
    ]);
    expect(await m.page.getByTestId("mappings-saved").innerText()).toContain("The layer was saved.");
    await m.page.getByTestId("effective").filter({ hasText: "#00aa11 (from the user (30) layer)" }).waitFor();
    await Promise.all([
      m.page.waitForURL(/saved=layer-removed/),
      m.page.locator('form[aria-label="Remove the user (30) layer"]').getByRole("button").click(),
    ]);
    await m.page.getByTestId("effective").filter({ hasText: "colour none" }).waitFor();
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("Infrastructures: a moderator names one in the site layer", async () => {
    await logIn(m.page, DEMO_USERS.moderator);
    const id = `e2e-infra-${suffix}`;
    await m.goto(`/mappings/infrastructures?id=${id}`);
    await m.page.getByRole("heading", { name: id }).waitFor();
    const form = m.page.locator('form[aria-label="Save the site (20) layer"]');
    await form.locator("input[name=name]").fill("E2E Cloud");
    await Promise.all([m.page.waitForURL(/saved=layer-saved/), form.getByRole("button").click()]);
    await m.page.getByTestId("effective").filter({ hasText: "E2E Cloud (name from the site (20) layer)" }).waitFor();
    // Staff's layers stay closed to a moderator.
    expect(await m.page.locator('form[aria-label="Save the product (10) layer"]').count()).toBe(0);
    await Promise.all([
      m.page.waitForURL(/saved=layer-removed/),
      m.page.locator('form[aria-label="Remove the site (20) layer"]').getByRole("button").click(),
    ]);
  });

  it("AS Mappings: a CSV with a bad line imports nothing; the corrected one imports; the AS is assigned", async () => {
    await logIn(m.page, DEMO_USERS.moderator);
    const asn = m.javaScriptEnabled ? "64496" : "64497";
    await m.goto("/mappings/as");
    await m.page.getByRole("heading", { name: "AS Mappings", level: 1 }).waitFor();
    const csv = (color: string) => `id,layer,name,color\nAS${asn},site,E2E network,${color}`;
    await m.page.locator("textarea[name=csv]").fill(csv("#12345"));
    await m.page.locator('form[aria-label="Import from CSV"]').getByRole("button", { name: "Import" }).click();
    await m.page.getByTestId("import-problems").waitFor();
    expect(await m.page.getByTestId("import-problems").innerText()).toContain('color "#12345" is not #rrggbb');
    expect(await m.page.inputValue("textarea[name=csv]")).toBe(csv("#12345"));

    await m.page.locator("textarea[name=csv]").fill(csv("#123456"));
    await Promise.all([
      m.page.waitForURL(/saved=imported/),
      m.page.locator('form[aria-label="Import from CSV"]').getByRole("button", { name: "Import" }).click(),
    ]);
    expect(await m.page.getByTestId("mappings-saved").innerText()).toContain("1 line(s) were imported.");

    await m.goto(`/mappings/as?id=${asn}`);
    await m.page.getByTestId("effective").filter({ hasText: "E2E network (name from the site (20) layer)" }).waitFor();
    const assign = m.page.locator(`form[aria-label="Assign AS${asn}"]`);
    await assign.locator("input[name=application]").fill("E2E Streaming");
    await Promise.all([m.page.waitForURL(/saved=assigned/), assign.getByRole("button").click()]);
    expect(await m.page.inputValue(`form[aria-label="Assign AS${asn}"] input[name=application]`)).toBe("E2E Streaming");

    // Undo: no assignment, no site layer.
    await m.page.locator(`form[aria-label="Assign AS${asn}"] input[name=application]`).fill("");
    await Promise.all([
      m.page.waitForURL(/saved=assigned/),
      m.page.locator(`form[aria-label="Assign AS${asn}"]`).getByRole("button").click(),
    ]);
    await Promise.all([
      m.page.waitForURL(/saved=layer-removed/),
      m.page.locator('form[aria-label="Remove the site (20) layer"]').getByRole("button").click(),
    ]);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("fits a phone's width: only the tables scroll sideways", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(phone.page, DEMO_USERS.operator);
    await phone.page.goto(m.url("/mappings/as"));
    await phone.page.getByRole("heading", { name: "AS Mappings", level: 1 }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
