// The Looking Glass against the built app with the demo network: the private screen (/lookingglass) with JavaScript
// on — a query through api/lookingglass/, the progress bar and status, the URL following the form, the row detail
// dialog — and the public page (/public/lookingglass, switched on in the site settings), which is server-rendered HTML
// in both modes: the GET form, results without the private columns, paging by links, and the export links (its own
// script: public-lookingglass-page.e2e.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { pageJavaScript } from "../../bench/deep-link";
import type { Page } from "playwright-core";
import { MESSAGES } from "~/lib/messages";
import { appURL, describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";
import { enablePublicLookingGlass } from "./public-lookingglass";

const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/client");
const TABLE_ROWS = "[data-testid=lookingglass-table] tbody tr";
const HEADERS = "[data-testid=lookingglass-table] thead th";

/**
 * The wide-table check at a laptop's 1,166 px and a phone's 390 px: the page itself never scrolls
 * sideways, and the first row's action is on screen.
 */
async function checkFits(page: Page, action: string) {
  for (const width of [1166, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(overflow.scroll, `page width at ${width} px`).toBeLessThanOrEqual(overflow.client);
    const box = await page.locator(action).first().boundingBox();
    expect(box, `action at ${width} px`).not.toBeNull();
    expect(box!.x + box!.width, `action inside the viewport at ${width} px`).toBeLessThanOrEqual(width);
    expect(box!.x).toBeGreaterThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function headers(page: Page): Promise<string[]> {
  return page.locator(HEADERS).evaluateAll((ths) => ths.map((th) => (th.textContent ?? "").trim()));
}

describeBothModes("looking glass", (m) => {
  // The private screen's form journey runs with JavaScript; its deep link (below) also without. The
  // test is registered for that mode only, so no run reports it as skipped.
  const withJavaScript: typeof it = m.javaScriptEnabled ? it : ((() => undefined) as unknown as typeof it);
  withJavaScript("private: a query by the form, results per vantage point with the private columns", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/lookingglass");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    expect(await m.page.getByTestId("lookingglass-status").textContent()).toBe("Ready");
    // Nothing selected yet: submit is disabled.
    expect(await m.page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
    await m.page.getByLabel("Select all vantage points").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    // An invalid term is refused as typed.
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("203.0.113.300");
    await m.page.getByText(MESSAGES.invalidNetwork).waitFor();
    expect(await m.page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("203.0.113.0/24");
    await m.page.getByRole("button", { name: "Submit" }).click();
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    await m.page.waitForFunction(
      () => document.querySelector("[data-testid=lookingglass-status]")?.getAttribute("data-status") === "Completed",
    );
    const url = new URL(m.page.url());
    // The copy action puts the query's link on the clipboard and says so.
    await m.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: url.origin });
    await m.page.getByRole("button", { name: "Copy link to this query" }).click();
    await m.page.getByText(MESSAGES.copiedToClipboard).waitFor();
    expect(await m.page.evaluate(() => navigator.clipboard.readText())).toBe(m.page.url());
    expect(url.searchParams.get("queryType")).toBe("IpPrefixQuery");
    expect(url.searchParams.get("queryTerm")).toBe("203.0.113.0/24");
    expect(url.searchParams.get("selectedVantagePoints")).toBe('["all"]');
    // The interactive table replaces the server's once its chunk has loaded.
    await m.page.getByRole("button", { name: "Details" }).first().waitFor();
    const cols = await headers(m.page);
    // The action first, the default columns; the others are in the row details and the column picker.
    expect(cols[0]).toBe("Action");
    expect(cols).toEqual(expect.arrayContaining(["Vantage point", "Prefix", "AS path", "Next hop", "Last update (UTC)"]));
    expect(cols).not.toContain("Communities");
    await checkFits(m.page, `${TABLE_ROWS} >> nth=0 >> button:has-text("Details")`);
    await m.page.getByRole("button", { name: "Show/Hide columns" }).click();
    await m.page
      .getByRole("menuitem", { name: "Communities" })
      .or(m.page.getByText("Communities", { exact: true }))
      .first()
      .click();
    await m.page.keyboard.press("Escape");
    await m.page.waitForFunction(() =>
      [...document.querySelectorAll("[data-testid=lookingglass-table] thead th")].some((th) => th.textContent?.includes("Communities")),
    );
    const firstVp = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=1`).innerText();
    expect(firstVp).toMatch(/^\S+ \S.*, \S/); // 'Router City, Country'
    await m.page.getByRole("button", { name: "Details" }).first().click();
    await m.page.getByRole("dialog").getByText("Route details").waitFor();
    await m.screenshot("looking glass private results (JavaScript on)");
    await m.page.keyboard.press("Escape");
    // Changing the type resets the status and clears the output.
    await m.page.locator("select[name=queryType]").selectOption("AsPathQuery");
    expect(await m.page.getByTestId("lookingglass-status").textContent()).toBe("Ready");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("private: a deep link renders its results on the server", async () => {
    await logIn(m.page);
    const res = await m.goto("/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(0);
    if (!m.javaScriptEnabled) {
      // Every column is in the row's details, which open without JavaScript.
      await checkFits(m.page, `${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details] > summary`);
      await m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details] > summary`).click();
      const detail = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details]`).innerText();
      expect(detail).toContain("Communities");
      expect(detail).toContain("Originator ID");
      // 'Show in RNA' is a plain link too: it opens the Raw Network Analyzer (in a new tab) filtered to the row.
      await m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-rna-links] > summary`).click();
      const link = m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-rna-links] a`).first();
      expect(await link.getAttribute("target")).toBe("_blank");
      const href = (await link.getAttribute("href"))!;
      expect(href).toMatch(/^\/rna\?filter=/);
      await m.goto(href);
      expect(await m.page.getByRole("heading", { name: "Raw Network Analyzer" }).count()).toBeGreaterThan(0);
      expect(m.page.url()).toContain("filter=");
    }
  });

  it("no data at any vantage point: one message, not the first vantage point's name", async () => {
    await logIn(m.page);
    await m.goto("/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IpPrefixQuery&queryTerm=192.0.2.77");
    const notices = await m.page.getByTestId("lookingglass-notice").allInnerTexts();
    expect(notices).toEqual(["None of the selected vantage points has data for this search. Try with other parameters."]);
    expect(await m.page.getByTestId("lookingglass-status").textContent()).toBe("No data");
  });

  it("public: the GET form answers with server-rendered results, public vantage points and columns only", async () => {
    await enablePublicLookingGlass(m);
    const res = await m.goto("/public/lookingglass");
    expect(res?.status()).toBe(200);
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    const boxes = await m.page
      .locator("[data-testid=lookingglass-form] input[name=selectedVantagePoints]")
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(boxes[0]).toBe("all");
    // Public names: 'City, Country', numbered where a city has two (Frankfurt).
    expect(boxes).toEqual(expect.arrayContaining(["Frankfurt, Germany 1", "Frankfurt, Germany 2"]));
    expect(boxes.some((b) => /-er\d/.test(b))).toBe(false);
    await m.page.getByLabel("Frankfurt, Germany 1").check({ force: true });
    await m.page.getByLabel("Berlin, Germany").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("0.0.0.0/0");
    await Promise.all([m.page.waitForURL(/queryTerm=/), m.page.getByRole("button", { name: "Submit" }).click()]);
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    const cols = await headers(m.page);
    expect(cols).toEqual(expect.arrayContaining(["Action", "Vantage point", "Last update (UTC)"]));
    expect(cols).not.toContain("Communities");
    expect(cols).not.toContain("Originator ID");
    // The public page does not hydrate: its table is the server's in both modes, each row's details a details element.
    await checkFits(m.page, `${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details] > summary`);
    const vps = await m.page
      .locator(`${TABLE_ROWS} td:nth-child(2)`)
      .evaluateAll((tds) => [...new Set(tds.map((td) => (td.textContent ?? "").trim()))]);
    for (const vp of vps) expect(["Frankfurt, Germany 1", "Berlin, Germany"]).toContain(vp);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeLessThanOrEqual(25);
    await m.screenshot(`looking glass public results (${m.label})`);
    // Sorting and filtering live in the URL: the headers are links, the filter a GET form (no script on this page).
    const cells = (n: number) =>
      m.page.locator(`${TABLE_ROWS} td:nth-child(${n})`).evaluateAll((tds) => tds.map((td) => (td.textContent ?? "").trim()));
    const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
    await Promise.all([m.page.waitForURL(/sort=Prefix&order=asc/), m.page.getByRole("link", { name: "Prefix" }).click()]);
    const ascending = await cells(3);
    expect(ascending).toEqual([...ascending].sort(collator.compare));
    await Promise.all([m.page.waitForURL(/order=desc/), m.page.getByRole("link", { name: "Prefix ↑" }).click()]);
    const descending = await cells(3);
    expect(descending).toEqual([...descending].sort(collator.compare).reverse());
    expect(await m.page.getByRole("columnheader", { name: "Prefix ↓" }).getAttribute("aria-sort")).toBe("descending");
    await m.page.getByLabel("Show routes containing").fill("berlin");
    await m.page.getByLabel("in", { exact: true }).selectOption("VantagePoint");
    await Promise.all([m.page.waitForURL(/filter=berlin/), m.page.getByRole("button", { name: "Filter" }).click()]);
    expect(new Set(await cells(2))).toEqual(new Set(["Berlin, Germany"]));
    expect(m.page.url()).toContain("sort=Prefix&order=desc");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toMatch(/\d+ of \d+ rows/);
    if (!m.javaScriptEnabled) {
      // The JavaScript the page ships up front: the interactive table (mantine-react-table) is not part of it.
      const html = await (await m.page.request.get(m.page.url())).text();
      const js = pageJavaScript(html, CLIENT_DIR);
      console.log(`public Looking Glass page JavaScript: ${js.files} files, ${js.raw} bytes, ${js.gzip} bytes gzipped`);
      const chunks = [...html.matchAll(/\/assets\/([^"'?#]+\.js)/g)].map((x) => x[1]);
      expect(chunks.some((c) => c.startsWith("ResultsTable") || c.startsWith("index.esm"))).toBe(false);
      // Paging by links, and the export links, work without JavaScript.
      const next = m.page.getByRole("link", { name: "Next", exact: true });
      if (await next.count()) {
        await Promise.all([m.page.waitForURL(/page=2/), next.click()]);
        expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(0);
      }
      const csvHref = await m.page.getByRole("link", { name: "Table (csv)" }).getAttribute("href");
      const csv = await m.page.request.get(appURL(csvHref!));
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split("\r\n");
      expect(lines[0]).toBe(
        "Vantage point;Prefix;Route distinguisher;AS path;RPKI;Local preference;MED;Next hop;RIB view;Last update (UTC)",
      );
      expect(lines.length).toBeGreaterThan(1);
    } else {
      expect(m.pageErrors.map((e) => e.message)).toEqual([]);
    }
  });
});
