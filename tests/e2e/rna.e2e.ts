// The Raw Network Analyzer (/rna) against the built app with the demo network's raw flow records, with JavaScript
// on and off: the server-rendered default view (the last hour), a filter expression through the GET form, prefix
// aggregation and the spec's message for a prefix out of range, sorting by a header link, the next keyset page,
// the column picker refusing an empty choice, the csv export link and the timeseries of a page; the phone width.
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const FORM = "form[aria-label='Raw Network Analyzer query']";
const ROWS = "[data-testid=rna-table] tbody tr";

/** Waits until the screen shows the state whose parameter has this value (after a client-side navigation too). */
async function shows(page: Page, name: string, value: string | null): Promise<void> {
  await page.waitForFunction(
    ([n, v]) => {
      const state = document.querySelector("[data-testid=rna-screen]")?.getAttribute("data-state");
      return state !== null && state !== undefined && new URLSearchParams(state).get(n) === v;
    },
    [name, value] as const,
  );
}

const headers = (page: Page) => page.locator("[data-testid=rna-table] thead th").allInnerTexts();
/** The cells of one column of the shown page, by its header. */
async function cells(page: Page, header: string): Promise<string[]> {
  const index = (await headers(page)).findIndex((h) => h.trim() === header);
  expect(index, header).toBeGreaterThanOrEqual(0);
  return page.locator(`${ROWS} >> td:nth-child(${index + 1})`).allInnerTexts();
}

describeBothModes("raw network analyzer", (m) => {
  it("shows the last hour's records, filters them with an nfdump expression and aggregates them by prefix", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto("/rna");
    expect(res?.status()).toBe(200);
    await m.page.locator(ROWS).first().waitFor();
    const shown = await headers(m.page);
    for (const h of [
      "Time (UTC)",
      "Exporter",
      "Source address",
      "Source port",
      "Destination address",
      "Destination port",
      "Protocol",
      "Bytes",
      "Packets",
    ])
      expect(shown.map((s) => s.trim())).toContain(h);
    expect(await m.page.getByTestId("rna-total").innerText()).toMatch(/\d+ records$/);

    await m.page.fill(`${FORM} input[name=q]`, "proto udp");
    await Promise.all([m.page.waitForURL((url) => url.searchParams.get("q") === "proto udp"), m.page.click(`${FORM} button[type=submit]`)]);
    await shows(m.page, "q", "proto udp");
    await m.page.locator(ROWS).first().waitFor();
    expect(new Set(await cells(m.page, "Protocol"))).toEqual(new Set(["UDP"]));

    await m.page.fill(`${FORM} input[name=aggregationPrefixV4]`, "33");
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.get("aggregationPrefixV4") === "33"),
      m.page.click(`${FORM} button[type=submit]`),
    ]);
    await m.page.getByText("Please type a prefix between /1 and /32 to aggregate the data").first().waitFor();

    await m.page.fill(`${FORM} input[name=aggregationPrefixV4]`, "16");
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.get("aggregationPrefixV4") === "16"),
      m.page.click(`${FORM} button[type=submit]`),
    ]);
    await shows(m.page, "aggregationPrefixV4", "16");
    await m.page.locator(ROWS).first().waitFor();
    expect(await m.page.getByTestId("rna-total").innerText()).toMatch(/\d+ rows?$/);
    const sources = await cells(m.page, "Source address");
    for (const s of sources.filter((a) => !a.includes(":"))) expect(s).toMatch(/^\d+\.\d+\.0\.0\/16$/);
  });

  it("sorts by a header, pages by cursor and exports the query", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/rna?columns=time_received,exporter_name,src_addr,bytes_scaled");
    await m.page.locator(ROWS).first().waitFor();
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.get("sort") === "bytes_scaled:desc"),
      m.page.getByTestId("rna-sort-bytes_scaled").click(),
    ]);
    await shows(m.page, "sort", "bytes_scaled:desc");
    await m.page.locator("th[aria-sort=descending] [data-testid=rna-sort-bytes_scaled]").waitFor();
    const bytes = (await cells(m.page, "Bytes")).map((c) => Number(c.replace(/[^\d]/g, "")));
    expect(bytes).toEqual([...bytes].sort((a, b) => b - a));

    const next = m.page.getByTestId("rna-next").first();
    await Promise.all([m.page.waitForURL((url) => url.searchParams.has("after")), next.click()]);
    await m.page.waitForFunction(() => document.querySelector("[data-testid=rna-pager]")?.textContent?.includes("First page"));
    await m.page.locator(ROWS).first().waitFor();
    const after = (await cells(m.page, "Bytes")).map((c) => Number(c.replace(/[^\d]/g, "")));
    expect(after[0]).toBeLessThanOrEqual(bytes[bytes.length - 1]);

    const href = await m.page.getByTestId("csv-export").getAttribute("href");
    expect(href).toMatch(/^\/rna\/export\?/);
    const file = await m.page.request.get(m.url(href!));
    expect(file.status()).toBe(200);
    expect(file.headers()["content-disposition"]).toMatch(/flowlens_rna_\d{8}-\d{8}\.csv/);
    const lines = (await file.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe(["Time (UTC)", "Exporter", "Source address", "Bytes"].join(","));
    expect(lines.length).toBeGreaterThan(bytes.length);
    expect(await m.page.getByTestId("rna-export-cap").innerText()).toMatch(/at most 10,000 rows/);
  });

  it("refuses an empty column choice and draws the timeseries of a page", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/rna?columns=exporter_name,src_addr,bytes_scaled");
    await m.page.locator(ROWS).first().waitFor();
    await m.page.locator("[data-testid=rna-column-picker] summary").click();
    const ticked = m.page.locator("form[aria-label='Select a column'] input[type=checkbox]:checked");
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    const apply = m.page.getByTestId("rna-columns-apply");
    if (m.javaScriptEnabled) {
      expect(await apply.isDisabled()).toBe(true);
      await m.page.getByText("Please select at least one column.").waitFor();
    } else {
      await Promise.all([m.page.waitForURL((url) => url.searchParams.has("columns")), apply.click()]);
      expect(await m.page.getByTestId("rna-notices").innerText()).toContain("Column picker needs at least one column selected");
    }

    await m.goto("/rna?columns=exporter_name,src_addr,bytes_scaled&timeseries=exporter_name");
    await m.page.locator(ROWS).first().waitFor();
    if (m.javaScriptEnabled) {
      await m.page.getByTestId("rna-timeseries-chart").locator("svg").first().waitFor();
    } else {
      expect(await m.page.locator("[data-testid=rna-timeseries-table] tbody tr").count()).toBeGreaterThan(0);
    }
    expect(m.pageErrors).toEqual([]);
  });

  it("is usable at phone width: the page does not scroll sideways, the table scrolls in its box", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(phone.page, DEMO_USERS.admin);
    await phone.page.goto(m.url("/rna"));
    await phone.page.locator(ROWS).first().waitFor();
    const size = await phone.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(size.scroll).toBeLessThanOrEqual(size.client);
    const submit = (await phone.page.locator(`${FORM} button[type=submit]`).boundingBox())!;
    expect(submit.x + submit.width).toBeLessThanOrEqual(390);
  });
});
