// The Control Plane (/controlplane) against the built app with the demo network's routing history, with
// JavaScript on and off: the date rules (a start before the data reset to 60 minutes before the newest, the end
// clamped), a query through the GET form and its rows, the new-data indicator; the table's sorting and filters
// (header links that sort, with aria-sort and the sorting icon; the GET form's '>' / '<' local preference filter
// and search text; the spec's message for a filter that cannot apply; pager links that keep sort and filters).
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeBothModes } from "./browser";
import { firstRoutingMinute } from "./controlplane-page";
import { logIn } from "./login";

const FORM = "form[aria-label='Control Plane query']";

/** The start/end fields' "dd.MM.yyyy HH:mm" as unix seconds (the demo user's timezone is UTC). */
const minutes = (text: string) => {
  const [d, mo, y, h, mi] = text.split(/[. :]/);
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:00Z`) / 1000;
};

describeBothModes("control plane", (m) => {
  it("clamps a range outside the data and answers a query from the form", async () => {
    await logIn(m.page);
    const res = await m.goto("/controlplane?queryType=AsPathQuery&start=1000000000&end=4000000000");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator("[data-testid=cp-new-data]").innerText()).toMatch(/new data: \d+ min ago/i);
    const start = minutes(await m.page.locator(`${FORM} input[name=start]`).inputValue());
    const end = minutes(await m.page.locator(`${FORM} input[name=end]`).inputValue());
    // Reset to the 60 minutes before the newest data (the fields show whole minutes).
    expect(end - start).toBeGreaterThanOrEqual(59 * 60);
    expect(end - start).toBeLessThanOrEqual(61 * 60);
    const notice = m.page.getByTestId("cp-notices");
    expect(await notice.innerText()).toMatch(
      /The start \(\d\d\.\d\d\.\d{4} \d\d:\d\d UTC\) is outside the routing data .*; it was set to 60 minutes before the newest data/,
    );
    expect(await notice.innerText()).not.toContain("The end was after the newest data");
    // The caption says what the form shows.
    const caption = await m.page.getByTestId("cp-range").innerText();
    const shown = (name: string) => m.page.locator(`${FORM} input[name=${name}]`).inputValue();
    // The fields hold the spec's dd.MM.yyyy HH:mm, as the caption does (with the timezone).
    expect(caption).toBe(`${await shown("start")} UTC – ${await shown("end")} UTC`);
    expect(await shown("start")).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    expect(await m.page.getByText('To view the data, click the "Submit" button above.').count()).toBe(1);

    // A query over all the history (from the first minute with data): "* 3320" = paths ending at Deutsche Telekom.
    await m.page.fill(`${FORM} input[name=start]`, await firstRoutingMinute(m.page));
    await m.page.fill(`${FORM} input[name=queryTerm]`, "* 3320");
    await Promise.all([m.page.waitForURL(/queryTerm=\*(\+|%20)3320/), m.page.click(`${FORM} button[type=submit]`)]);
    await m.page.locator("[data-testid=controlplane-table] tbody tr").first().waitFor();
    expect(await m.page.locator("[data-testid=controlplane-table] tbody tr").count()).toBeGreaterThan(0);
    const headers = await m.page.locator("[data-testid=controlplane-table] thead th").allInnerTexts();
    expect(headers).toEqual(["Details", "Time (UTC)", "Vantage point", "Event", "Prefix", "AS path", "Next hop"]);
    expect(await m.page.locator("[data-testid=controlplane-table] tbody tr >> nth=0 >> td >> nth=2").innerText()).toMatch(
      /^\S+-er\d \S.*, \S/,
    );
    for (const width of [1166, 390]) {
      await m.page.setViewportSize({ width, height: 900 });
      const size = await m.page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(size.scroll, `page width at ${width} px`).toBeLessThanOrEqual(size.client);
      const box = (await m.page.locator("[data-testid=cp-row-details] summary").first().boundingBox())!;
      expect(box.x + box.width, `details toggle in view at ${width} px`).toBeLessThanOrEqual(width);
    }
    await m.page.setViewportSize({ width: 1366, height: 900 });
    // Every field in the row's details (no JavaScript needed), and the column picker adds columns.
    await m.page.locator("[data-testid=cp-row-details] summary").first().click();
    expect(await m.page.locator("[data-testid=cp-row-details]").first().innerText()).toContain("Communities");
    await m.page.locator("[data-testid=cp-column-picker] summary").click();
    await m.page.getByLabel("Communities").check({ force: true });
    await Promise.all([m.page.waitForURL(/columns=communityIndex/), m.page.getByRole("button", { name: "Show these columns" }).click()]);
    await m.page.locator("[data-testid=controlplane-table] thead th", { hasText: "Communities" }).waitFor();
    await m.screenshot(`control plane (${m.label})`);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("says which address values were not applied; a preset of the Flow Explorer is used without a lag notice", async () => {
    await logIn(m.page);
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&dateRange=NEXT_CENTURY");
    expect(await m.page.getByTestId("cp-notices").innerText()).toContain("dateRange=NEXT_CENTURY in the address is not a date range;");
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&dateRange=LAST_24_HOURS");
    expect(await m.page.getByTestId("cp-notices").count()).toBe(0);
    const start = minutes(await m.page.locator(`${FORM} input[name=start]`).inputValue());
    const end = minutes(await m.page.locator(`${FORM} input[name=end]`).inputValue());
    expect(end - start).toBeGreaterThan(23 * 3600);
    await m.goto("/controlplane?queryType=AsPathQuery&queryTerm=3320&start=2001-01-01&end=2000-01-01");
    expect(await m.page.getByTestId("cp-notices").innerText()).toMatch(
      /The end \(01\.01\.2000 00:00 UTC\) was before the start \(02\.01\.2001 00:00 UTC\)|the two were swapped/,
    );
  });
});

const TABLE = "[data-testid=controlplane-table]";
const FILTERS = "form[aria-label='Filter the rows']";

/** The texts of one column of the shown page, by its header's column name. */
async function columnTexts(page: Page, column: string): Promise<string[]> {
  const headers = await page.locator(`${TABLE} thead th`).evaluateAll((ths) => ths.map((th) => th.getAttribute("data-column")));
  const index = headers.indexOf(column);
  expect(index, `column ${column} shown`).toBeGreaterThan(0);
  return page.locator(`${TABLE} tbody tr td:nth-child(${index + 1})`).allInnerTexts();
}

/** Local preferences of the shown rows; a withdrawal has none (an empty cell), and those come last in either direction. */
async function localPrefs(page: Page): Promise<number[]> {
  const texts = await columnTexts(page, "localPref");
  const firstEmpty = texts.indexOf("");
  if (firstEmpty >= 0)
    expect(
      texts.slice(firstEmpty).every((t) => t === ""),
      "withdrawals last",
    ).toBe(true);
  return texts.filter((t) => t !== "").map(Number);
}

/** Rows found: the results-limit banner's count when the answer was cut, else the pager's count or the rows shown. */
async function totalRows(page: Page): Promise<number> {
  const banner = page.getByTestId("cp-results-banner");
  if (await banner.count()) return Number(/had (\d+) results/.exec(await banner.innerText())![1]);
  const pager = page.getByTestId("cp-pager").first();
  if (await pager.count()) return Number(/\((\d+) rows\)/.exec(await pager.innerText())![1]);
  return page.locator(`${TABLE} tbody tr`).count();
}

const ariaSort = (page: Page, column: string) => page.locator(`${TABLE} thead th[data-column=${column}]`).getAttribute("aria-sort");

describeBothModes("control plane table", (m) => {
  it("sorts by a header link, filters with '>' / '<' and a search text, and pages with both kept", async () => {
    await logIn(m.page);
    await m.goto("/controlplane");
    const min = encodeURIComponent(await firstRoutingMinute(m.page));
    // Every announcement and withdrawal of the whole history (customer, peering and transit routes: local
    // preferences 200, 150 and 100), with the local preference among the columns.
    const columns = ["timestamp", "vantagePoint", "prefix", "ASPathSeq", "localPref"].map((c) => `columns=${c}`).join("&");
    await m.goto(`/controlplane?queryType=AsPathQuery&queryTerm=${encodeURIComponent("*")}&start=${min}&${columns}`);
    await m.page.locator(`${TABLE} tbody tr`).first().waitFor();
    expect(await ariaSort(m.page, "timestamp")).toBe("descending");
    expect(await ariaSort(m.page, "localPref")).toBe("none");
    const unfiltered = await totalRows(m.page);

    // Sort by local preference: ascending, then descending.
    await Promise.all([m.page.waitForURL(/sort=localPref&order=asc/), m.page.getByTestId("cp-sort-localPref").click()]);
    await m.page.locator(`${TABLE} thead th[data-column=localPref][aria-sort=ascending]`).waitFor();
    expect(await ariaSort(m.page, "timestamp")).toBe("none");
    const ascending = await localPrefs(m.page);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await Promise.all([m.page.waitForURL(/sort=localPref&order=desc/), m.page.getByTestId("cp-sort-localPref").click()]);
    await m.page.locator(`${TABLE} thead th[data-column=localPref][aria-sort=descending]`).waitFor();
    const descending = await localPrefs(m.page);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    expect(descending[0]).toBeGreaterThan(ascending[0]);

    // A '>' filter from the form: only larger local preferences, the sort kept.
    await m.page.fill(`${FILTERS} input[name=localPref]`, "> 100");
    await Promise.all([m.page.waitForURL(/localPref=%3E(\+|%20)?100/), m.page.locator(`${FILTERS} button[type=submit]`).click()]);
    await m.page.locator(`${TABLE} tbody tr`).first().waitFor();
    expect(m.page.url()).toMatch(/sort=localPref&order=desc/);
    const above = await columnTexts(m.page, "localPref");
    expect(above.length).toBeGreaterThan(0);
    for (const value of above) expect(Number(value)).toBeGreaterThan(100);
    expect(await totalRows(m.page)).toBeLessThan(unfiltered);

    // Pager links keep the sort and the filter.
    const next = m.page.getByTestId("cp-pager").first().getByRole("link", { name: /Next/ });
    if (await next.count()) {
      const href = (await next.getAttribute("href"))!;
      expect(href).toMatch(/page=2/);
      expect(href).toMatch(/sort=localPref&order=desc/);
      expect(href).toMatch(/localPref=%3E/);
      await Promise.all([m.page.waitForURL(/page=2/), next.click()]);
      await m.page.locator(`${TABLE} tbody tr`).first().waitFor();
      for (const value of await columnTexts(m.page, "localPref")) expect(Number(value)).toBeGreaterThan(100);
    }

    // '<' and a search text together: routes of one vantage point below 150 (transit, 100).
    const vantagePoint = (await columnTexts(m.page, "vantagePoint"))[0].split(" ")[0];
    await m.page.fill(`${FILTERS} input[name=localPref]`, "<150");
    await m.page.fill(`${FILTERS} input[name=q]`, vantagePoint);
    await Promise.all([m.page.waitForURL(/q=/), m.page.locator(`${FILTERS} button[type=submit]`).click()]);
    const shown = m.page.locator(`${TABLE} tbody tr`);
    if (await shown.count()) {
      for (const value of await columnTexts(m.page, "localPref")) expect(Number(value)).toBeLessThan(150);
      for (const name of await columnTexts(m.page, "vantagePoint")) expect(name.startsWith(`${vantagePoint} `)).toBe(true);
    } else {
      expect(await m.page.locator(`${FILTERS} input[name=q]`).inputValue()).toBe(vantagePoint);
    }

    // Only > and < are accepted: the spec's message on the field, and the rows stay unfiltered by it.
    await m.page.fill(`${FILTERS} input[name=localPref]`, "=150");
    await m.page.fill(`${FILTERS} input[name=q]`, "");
    await Promise.all([m.page.waitForURL(/localPref=%3D150/), m.page.locator(`${FILTERS} button[type=submit]`).click()]);
    await m.page.locator(FILTERS).getByText("=150 is not a valid Local preference input").waitFor();
    expect(await m.page.getByTestId("cp-notices").innerText()).toContain("=150 is not a valid Local preference input");
    expect(await totalRows(m.page)).toBe(unfiltered);
    await m.screenshot(`control plane table filters (${m.label})`);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });
});
