// The Flow Explorer (/flow-explorer) against the built app with the demo network, with JavaScript on and off:
// deep link renders table and chart on the server, the options form, the sankey view and the CSV export.
import fs from "node:fs";
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appURL, describeBothModes, type BrowserMode } from "./browser";

const DEEP_LINK = "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS";
const TABLE_ROWS = "[data-testid=flow-table] tbody tr";

async function logIn(page: Page) {
  await page.goto(appURL("/login"));
  await page.fill("input[name=email]", "operator@flowlens.example");
  await page.fill("input[name=password]", "flowlens-operator");
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.click("button[type=submit]")]);
}

function noPageErrors(m: BrowserMode) {
  if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
}

describeBothModes("flow explorer", (m) => {
  it("renders a deep link with table rows and an svg chart", async () => {
    await logIn(m.page);
    const res = await m.goto(DEEP_LINK);
    expect(res?.status()).toBe(200);
    expect(await m.page.title()).toMatch(/Flow Explorer/);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(5);
    expect(await m.page.locator("[data-testid=timeseries-chart] svg").count()).toBeGreaterThanOrEqual(1);
    expect(await m.page.locator("[data-testid=timeseries-chart] svg path").count()).toBeGreaterThan(3);
    expect(await m.page.locator("[data-testid=range]").innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await m.page.locator("[data-testid=total]").innerText()).toMatch(/Total: [\d.]+ [kMGT]?bit\/s/);
    // Traffic is formatted with SI prefixes and 3 significant digits.
    const firstTraffic = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=2`).innerText();
    expect(firstTraffic).toMatch(/^(\d{3}|\d{2}\.\d|\d\.\d{2}) [kMGTPE]?bit\/s$/);
    // Special AS values carry their explanation as a title.
    const special = m.page.locator("[data-special-as]");
    if ((await special.count()) > 0) expect((await special.first().getAttribute("title"))?.length ?? 0).toBeGreaterThan(20);
    await m.screenshot(`flow explorer deep link (${m.label})`);
    noPageErrors(m);
  });

  it("adds a filter through the form and the table changes", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    const before = await m.page.locator(TABLE_ROWS).count();
    expect(before).toBeGreaterThan(1);
    await m.page.fill("input[aria-label='New filter']", "AS_SRC_INGRESS:2906");
    await Promise.all([m.page.waitForURL(/filter=AS_SRC_INGRESS%3A2906/), m.page.click("form[aria-label='Flow Explorer options'] button[type=submit]")]);
    await m.page.locator(TABLE_ROWS).nth(1).waitFor({ state: "detached" });
    expect(await m.page.locator(TABLE_ROWS).count()).toBe(1);
    expect(await m.page.locator(TABLE_ROWS).first().innerText()).toContain("2906");
    expect(await m.page.locator("[data-testid=active-filters]").innerText()).toContain("AS_SRC_INGRESS 2906");
    // The filter is now its own field, holding the URL form.
    expect(await m.page.locator("input[aria-label='Filter 1']").inputValue()).toBe("AS_SRC_INGRESS:2906");
    await m.screenshot(`flow explorer filtered (${m.label})`);

    // A bad value: the parse error from the server.
    await m.page.fill("input[aria-label='New filter']", "AS_DST_INGRESS:banana");
    await Promise.all([m.page.waitForURL(/banana/), m.page.click("form[aria-label='Flow Explorer options'] button[type=submit]")]);
    await m.page.locator("[data-testid=filter-errors]").waitFor();
    expect(await m.page.locator("[data-testid=filter-errors]").innerText()).toContain("banana is not a valid Destination AS (ingress) input");

    // Back: the URL is the state.
    if (m.javaScriptEnabled) {
      await m.page.goBack();
      await m.page.locator("[data-testid=filter-errors]").waitFor({ state: "detached" });
      expect(await m.page.locator("input[aria-label='New filter']").inputValue()).toBe("");
      expect(new URL(m.page.url()).searchParams.getAll("filter").filter(Boolean)).toEqual(["AS_SRC_INGRESS:2906"]);
    }
    noPageErrors(m);
  });

  it("shows the sankey chart, and asks for a second dimension without one", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&view=sankey`);
    expect(await m.page.locator("[data-testid=sankey-error]").innerText()).toContain("Sankey chart needs at least two dimensions");
    const res = await m.goto(`${DEEP_LINK}&view=sankey&dimension2=AS_DST_INGRESS`);
    expect(res?.status()).toBe(200);
    expect(await m.page.locator("[data-testid=sankey-chart] svg").count()).toBeGreaterThanOrEqual(1);
    expect(await m.page.locator("[data-testid=sankey-chart] svg path").count()).toBeGreaterThan(3);
    expect(await m.page.locator("[data-testid=sankey-chart] svg rect").count()).toBeGreaterThan(3);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(5);
    await m.screenshot(`flow explorer sankey (${m.label})`);
    noPageErrors(m);
  });

  it("exports the table as csv", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    const firstName = (await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=0`).innerText()).trim();
    const firstAsn = (await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=1`).innerText()).trim();
    const rowCount = await m.page.locator(TABLE_ROWS).count();
    const link = m.page.locator("[data-testid=csv-export]");
    const href = await link.getAttribute("href");
    expect(href).toBe("/api/flows/export?dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS");
    let text: string;
    let filename: string;
    if (m.javaScriptEnabled) {
      const [download] = await Promise.all([m.page.waitForEvent("download"), link.click()]);
      filename = download.suggestedFilename();
      text = fs.readFileSync((await download.path())!, "utf8");
    } else {
      const res = await m.page.context().request.get(appURL(href!));
      expect(res.status()).toBe(200);
      filename = /filename="([^"]+)"/.exec(res.headers()["content-disposition"] ?? "")?.[1] ?? "";
      text = await res.text();
    }
    expect(filename).toMatch(/^flowlens_flow-explorer_AS_SRC_INGRESS_\d+_\d+\.csv$/);
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("value,name,bits_per_second,bytes");
    const first = lines[1].split(",");
    expect(first[0]).toBe(firstAsn);
    expect(first[1]).toBe(firstName);
    expect(Number(first[2])).toBeGreaterThan(0);
    expect(lines.length - 1).toBe(rowCount);
    noPageErrors(m);
  });
});
