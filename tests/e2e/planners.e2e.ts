// The Border Planner (/border-planner) and Core Planner (/core-planner) against the built app with the demo
// network's interface counters, with JavaScript on and off: the summary and the link table, a grouping changed
// through the GET form, sorting by a header link, a link's detail opened from the table (figures, 5-minute chart,
// traffic by AS), the csv export holding the table's rows, the delegated account's links only, the aliases.
import fs from "node:fs";
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appURL, describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const RANGE = "dateRange=LAST_7_DAYS";

/** The table's rows as the keys of their links, in order. */
const rowKeys = (page: Page) =>
  page.locator("[data-testid=planner-row]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key")));

/** The csv of the export link, downloaded like a person would (JavaScript on) or fetched with the page's cookies. */
async function downloadCsv(page: Page, javaScriptEnabled: boolean): Promise<{ filename: string; text: string }> {
  const link = page.locator("[data-testid=csv-export]");
  const href = (await link.getAttribute("href"))!;
  if (javaScriptEnabled) {
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    return { filename: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, "utf8") };
  }
  const res = await page.context().request.get(appURL(href));
  expect(res.status()).toBe(200);
  return { filename: /filename="([^"]+)"/.exec(res.headers()["content-disposition"] ?? "")?.[1] ?? "", text: await res.text() };
}

describeBothModes("border planner", (m) => {
  it("shows the links, changes the grouping and the order, opens a link's detail", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto(`/border-planner?${RANGE}`);
    expect(res?.status()).toBe(200);
    const links = Number(
      await m.page
        .locator("[data-testid=summary-links]")
        .innerText()
        .then((t) => t.replace(/\D+/g, "")),
    );
    expect(links).toBeGreaterThan(0);
    expect(await m.page.locator("[data-testid=planner-row]").count()).toBe(Math.min(links, 50));
    // Status in words with its colour.
    expect(await m.page.locator("[data-testid=planner-row] [data-status]").first().innerText()).toMatch(/^(High|Medium|Normal|No data)$/);
    expect(await m.page.locator("[data-testid=planner-group-row]").first().innerText()).toMatch(/^(AS\d+|Internet exchange)/);

    // Group by router through the form.
    await m.page.selectOption("select[name=group]", "router");
    await Promise.all([m.page.waitForURL((u) => u.searchParams.get("group") === "router"), m.page.click("[data-testid=planner-apply]")]);
    // With JavaScript the address changes before the new page renders: wait for the routers' groups.
    await m.page
      .locator("[data-testid=planner-group-row]", { hasText: /^[a-z]{3}-er\d/ })
      .first()
      .waitFor();
    const groups = await m.page.locator("[data-testid=planner-group-row]").allInnerTexts();
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups) expect(g).toMatch(/^[a-z]{3}-er\d \(\d+ links?\)$/);

    // Sort by capacity with the header link: largest first, then ascending.
    await Promise.all([
      m.page.waitForURL((u) => u.searchParams.get("sort") === "capacity"),
      m.page.click("[data-testid=planner-sort-capacity]"),
    ]);
    await m.page.locator("th[aria-sort=descending]", { hasText: "Capacity" }).waitFor();
    expect(new URL(m.page.url()).searchParams.get("group")).toBe("router");

    // The detail of the first link.
    const first = (await rowKeys(m.page))[0]!;
    await Promise.all([
      m.page.waitForURL((u) => u.searchParams.get("link") === first),
      m.page.locator("[data-testid=planner-open-detail]").first().click(),
    ]);
    const detail = m.page.locator("[data-testid=planner-detail]");
    await detail.waitFor();
    const [router, iface] = first.split("|");
    expect(await detail.locator("h2").innerText()).toContain(`${router} ${iface}`);
    expect(await detail.locator("[data-testid=detail-billed]").innerText()).toMatch(/bit\/s \(\d/);
    expect(await detail.locator("[data-testid=detail-forecast]").innerText()).toMatch(
      /Reaches|No growth|Already above|Not enough data|in 90 days/,
    );
    expect(await detail.locator("[data-testid=planner-detail-chart] svg").count()).toBe(1);
    const traffic = await detail.locator("[data-testid=planner-detail-traffic]").allInnerTexts();
    expect(traffic).toHaveLength(2);
    expect(traffic[0]).toMatch(/^Incoming traffic by source AS \(flows\)/);
    expect(traffic[0]).toMatch(/bit\/s|No flows on this link/);
    // An alert rule on the link's ingress traffic, prefilled on the Alerts screen (the superuser may create rules).
    expect(await detail.getByTestId("planner-alert-on-link").getAttribute("href")).toBe(
      `/alerts?${new URLSearchParams({ new: "1", dimension: "INTERFACE_IN", value: first })}`,
    );
    await m.page.locator("[data-testid=planner-close-detail]").click();
    await m.page.waitForURL((u) => !u.searchParams.has("link"));
    expect(m.pageErrors).toEqual([]);
  });

  it("exports the table as csv with the rows the table shows", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto(`/border-planner?${RANGE}&sort=router&order=asc&columns=router,interface,capacity`);
    const keys = await rowKeys(m.page);
    const { filename, text } = await downloadCsv(m.page, m.javaScriptEnabled);
    expect(filename).toMatch(/^flowlens_border-planner_links_\d{8}-\d{8}\.csv$/);
    const lines = text.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe("Router,Interface,Capacity (bit/s)");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join("|"))).toEqual(keys);
    const shownCapacity = await m.page.locator("[data-testid=planner-row] >> nth=0 >> td >> nth=3").innerText();
    const gbit = Number(lines[1].split(",")[2]) / 1e9;
    expect(shownCapacity).toBe(`${gbit >= 100 ? gbit.toFixed(0) : gbit.toPrecision(3)} Gbit/s`);
  });

  it("shows a delegated account only the links of its AS numbers", async () => {
    await logIn(m.page, DEMO_USERS.delegated);
    const res = await m.goto(`/external-links?${RANGE}`);
    expect(res?.status()).toBe(200);
    expect(new URL(m.page.url()).pathname).toBe("/border-planner");
    const options = await m.page.locator("select[name=as] option").allInnerTexts();
    // "All" and the account's AS numbers only.
    expect(options[0]).toBe("All");
    expect(options.length).toBeLessThan(5);
    const groups = await m.page.locator("[data-testid=planner-group-row]").allInnerTexts();
    for (const g of groups) expect(options.some((o) => g.startsWith(o))).toBe(true);
  });
});

describeBothModes("core planner", (m) => {
  it("shows the internal links per direction and opens one pair", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto(`/links?${RANGE}`);
    expect(res?.status()).toBe(200);
    expect(new URL(m.page.url()).pathname).toBe("/core-planner");
    const headers = await m.page.locator("[data-testid=planner-table] thead th").allInnerTexts();
    expect(headers).toContain("a → b peak hour (max)");
    expect(headers).toContain("b → a peak hour (max)");
    const first = (await rowKeys(m.page))[0]!;
    const [a, b] = first.split(">").map((end) => end.split("|"));
    await m.page.selectOption("select[name=dataType]", "single_interface_pair");
    await m.page.fill("input[name=inRouter]", a[0]);
    await m.page.fill("input[name=startInterface]", a[1]);
    await m.page.fill("input[name=outRouter]", b[0]);
    await m.page.fill("input[name=endInterface]", b[1]);
    await Promise.all([
      m.page.waitForURL((u) => u.searchParams.get("dataType") === "single_interface_pair"),
      m.page.click("[data-testid=planner-apply]"),
    ]);
    // With JavaScript the address changes before the new rows render.
    await expect.poll(() => rowKeys(m.page), { timeout: 30_000 }).toEqual([first]);
    expect(await m.page.locator("[data-testid=planner-notices]").count()).toBe(0);
    const { text } = await downloadCsv(m.page, m.javaScriptEnabled);
    expect(text.split(/\r?\n/).filter(Boolean)).toHaveLength(2);
  });
});

describeBothModes("planners one after another", (m) => {
  it("answers one user's 30-day pages and their details, with every request of their own, never 429 or 503", async () => {
    // Every answer the browser gets (documents, data requests, scripts), not only the documents'.
    const refused: string[] = [];
    m.page.on("response", (r) => {
      if (r.status() === 429 || r.status() === 503) refused.push(`${r.status()} ${r.url()}`);
    });
    await logIn(m.page, DEMO_USERS.operator);
    for (const path of ["/border-planner", "/core-planner"]) {
      const res = await m.goto(`${path}?dateRange=LAST_30_DAYS`);
      expect(res?.status()).toBe(200);
      // The heatmap: one cell a link of the page and day.
      expect(await m.page.locator("[data-testid=planner-heatmap] svg rect title").count()).toBeGreaterThan(0);
      const first = (await rowKeys(m.page))[0]!;
      await Promise.all([
        m.page.waitForURL((u) => u.searchParams.get("link") === first),
        m.page.locator("[data-testid=planner-open-detail]").first().click(),
      ]);
      await m.page.locator("[data-testid=planner-detail-chart] svg").waitFor();
    }
    expect(refused).toEqual([]);
    expect(m.pageErrors).toEqual([]);
  });
});
