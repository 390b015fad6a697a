// Revenues & Costs (/revenues-and-costs) against the built app with the demo network's contracts, with
// JavaScript on and off: the month's bills, totals and change from the GET form's month, a malformed month
// as a notice, the export links, and a contract added, refused with a field error, edited and deleted after
// the confirm step by the superuser.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const MONTH_FORM = "form[action='/revenues-and-costs'][method=get]";

describeBothModes("revenues and costs", (m) => {
  it("shows the month's bills and totals, picks a month in the URL and offers the exports", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto("/revenues-and-costs");
    expect(res?.status()).toBe(200);
    await m.page.getByTestId("bills-table").waitFor();
    expect(await m.page.locator("[data-testid=bills-table] tbody tr").count()).toBeGreaterThan(0);
    // The header's text (the interactive table adds a filter input under it).
    const headers = (await m.page.locator("[data-testid=bills-table] thead th").allInnerTexts()).map((h) => h.split("\n")[0].trim());
    expect(headers).toEqual([
      "Contract",
      "Partner AS",
      "Direction",
      "Method",
      "Ports",
      "Billed 95th",
      "Completeness",
      "Charges",
      "Effective price",
    ]);
    expect(await m.page.getByTestId("total-margin-value").innerText()).toMatch(/€/);
    expect(await m.page.getByTestId("total-cost-change").innerText()).toMatch(/against the previous month/);
    const href = await m.page.getByTestId("xlsx-export").getAttribute("href");
    expect(href).toMatch(/^\/revenues-and-costs\/export\?month=\d{4}-\d{2}&format=xlsx$/);

    // The previous month through the GET form: the URL carries it.
    const now = new Date();
    const prev =
      now.getUTCMonth() === 0 ? `${now.getUTCFullYear() - 1}-12` : `${now.getUTCFullYear()}-${String(now.getUTCMonth()).padStart(2, "0")}`;
    await m.page.fill(`${MONTH_FORM} input[name=month]`, prev);
    await Promise.all([m.page.waitForURL(new RegExp(`month=${prev}`)), m.page.click(`${MONTH_FORM} button[type=submit]`)]);
    await m.page.locator("[data-testid=bills-table], [data-testid=revenues-notices]").first().waitFor();

    await m.goto("/revenues-and-costs?month=2024-13");
    expect(await m.page.getByTestId("revenues-notices").innerText()).toContain('Month "2024-13" is not a month YYYY-MM');
  });

  it("adds, refuses, edits and deletes a contract through the forms", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/revenues-and-costs");
    const name = `E2E contract ${m.javaScriptEnabled ? "js" : "nojs"} ${Date.now()}`;
    const form = m.page.locator("[data-testid=contract-form]");
    await form.locator("input[name=name]").fill(name);
    await form.locator("select[name=method]").selectOption("Flatrate");
    await form.locator("input[name=flatPriceEur]").fill("abc");
    await form.locator("input[name=validFrom]").fill("2024-01-01");
    await form.getByRole("button", { name: "Add contract" }).click();
    await m.page.getByText("The flat price must be a number.").waitFor();
    expect(await form.locator("input[name=name]").inputValue()).toBe(name);
    await form.locator("input[name=flatPriceEur]").fill("123");
    // An interface no contract bills yet (one contract per interface).
    const boxes = form.locator("input[name=interfaceIds]");
    let picked = false;
    for (let k = 0; k < (await boxes.count()) && !picked; k++) {
      const id = await boxes.nth(k).getAttribute("id");
      if ((await form.locator(`label[for="${id}"]`).innerText()).includes("billed by")) continue;
      await boxes.nth(k).check();
      picked = true;
    }
    expect(picked).toBe(true);
    await form.getByRole("button", { name: "Add contract" }).click();
    await m.page.getByTestId("contracts-saved").waitFor();
    expect(await m.page.getByTestId("contracts-saved").innerText()).toBe(`Contract ${name} added.`);
    const row = m.page.locator("[data-testid=contract-row]", { hasText: name });
    await row.getByRole("link", { name: `Edit ${name}` }).click();
    await m.page.locator(`form[aria-label="Edit contract ${name}"]`).waitFor();
    await m.page.locator(`form[aria-label="Edit contract ${name}"] input[name=name]`).fill(`${name} edited`);
    await m.page.getByRole("button", { name: "Save contract" }).click();
    await m.page.getByText(`Contract ${name} edited saved.`).waitFor();
    await m.page
      .locator("[data-testid=contract-row]", { hasText: `${name} edited` })
      .getByRole("link", { name: `Delete ${name} edited` })
      .click();
    await m.page.getByTestId("delete-confirm").waitFor();
    await m.page.getByRole("button", { name: `Delete ${name} edited` }).click();
    await m.page.getByText(`Contract ${name} edited deleted.`).waitFor();
    await expect.poll(() => m.page.locator("[data-testid=contract-row]", { hasText: name }).count()).toBe(0);
  });

  it("imports contracts from CSV: a bad line named and nothing written, then the exported contracts read back unchanged", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/revenues-and-costs");
    const form = m.page.locator('form[aria-label="Import contracts from CSV"]');
    const rowsBefore = await m.page.locator("[data-testid=contract-row]").allInnerTexts();
    await form
      .locator("textarea[name=csv]")
      .fill("name,direction,method,valid_from,interfaces\nE2E import,cost,Weekly,2026-01-01,nowhere et-0/0/0");
    await form.getByRole("button", { name: "Import" }).click();
    const problems = m.page.getByTestId("contract-import-problems");
    await problems.waitFor();
    const problem = await problems.locator("tbody tr").first().innerText();
    expect(problem).toContain("2");
    expect(problem).toContain("interfaces: the inventory has no interface et-0/0/0 on nowhere.");
    expect(problem).toContain("method: Method is Flatrate, free or Max 95th.");
    expect(await m.page.getByText("Nothing was imported: 1 problem(s), listed by line.").count()).toBe(1);
    // The lines stay for their correction.
    expect(await form.locator("textarea[name=csv]").inputValue()).toContain("E2E import");

    // The export of the contracts, in the import's columns, imported again: every contract replaced by itself.
    const exported = await m.page.context().request.get(m.url("/revenues-and-costs/export?table=contracts&format=csv"));
    expect(exported.status()).toBe(200);
    const csv = await exported.text();
    const lines = csv.trim().split(/\r?\n/).length - 1;
    await form.locator("textarea[name=csv]").fill(csv);
    await form.getByRole("button", { name: "Import" }).click();
    await m.page.getByTestId("contracts-saved").waitFor();
    expect(await m.page.getByTestId("contracts-saved").innerText()).toBe(`${lines} contract line(s) imported: 0 added, ${lines} replaced.`);
    expect(await m.page.locator("[data-testid=contract-row]").allInnerTexts()).toEqual(rowsBefore);
  });

  it("computes a what-if from its GET form: both bills again, the answer in the URL", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/revenues-and-costs");
    const form = m.page.locator('form[aria-label="What-if"]');
    const costs = await form
      .locator("select[name=whatIfFrom] option")
      .evaluateAll((os) => os.filter((o) => o.textContent?.endsWith("(cost)")).map((o) => (o as HTMLOptionElement).value));
    expect(costs.length).toBeGreaterThan(1);
    await form.locator("input[name=whatIfAs]").fill("AS15169");
    await form.locator("select[name=whatIfFrom]").selectOption(costs[0]);
    await form.locator("select[name=whatIfTo]").selectOption(costs[1]);
    await form.locator("input[name=whatIfShare]").fill("50");
    await Promise.all([m.page.waitForURL(/whatIfAs=AS15169/), form.getByRole("button", { name: "Compute" }).click()]);
    await m.page.getByTestId("what-if-table").waitFor();
    expect(await m.page.locator("[data-testid=what-if-row]").count()).toBe(2);
    expect(await m.page.getByTestId("what-if-margin").innerText()).toMatch(/^Margin change: [+-]?€/);
    expect(new URL(m.page.url()).searchParams.get("whatIfShare")).toBe("50");
    // The same contract on both sides: refused next to the field.
    await m.page.locator('form[aria-label="What-if"] select[name=whatIfTo]').selectOption(costs[0]);
    await Promise.all([
      m.page.waitForURL(new RegExp(`whatIfTo=${costs[0]}(&|$)`)),
      m.page.locator('form[aria-label="What-if"]').getByRole("button", { name: "Compute" }).click(),
    ]);
    await m.page.getByText("The traffic moves to another contract than the one it leaves.").waitFor();
  });

  it("shows the last 12 months as a table, and as a chart with JavaScript", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/revenues-and-costs");
    await Promise.all([
      m.page.waitForURL(/history=12/),
      m.page.getByRole("button", { name: "Show cost and revenue of the last 12 months" }).click(),
    ]);
    await m.page.getByTestId("history-table").waitFor();
    expect(await m.page.locator("[data-testid=history-row]").count()).toBe(12);
    // The month shown is the last row, with the totals the page shows above.
    const last = await m.page.locator("[data-testid=history-row]").last().innerText();
    expect(last).toContain(await m.page.getByTestId("total-cost-value").innerText());
    if (m.javaScriptEnabled) await m.page.getByTestId("history-chart").locator("svg").waitFor();
    else expect(await m.page.getByTestId("history-chart").count()).toBe(0);
  });
});
