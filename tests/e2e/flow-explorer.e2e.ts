// The Flow Explorer (/flow-explorer) against the built app with the demo network, with JavaScript on and off:
// a deep link renders table and chart on the server; the operator's journey through the options form (a filter by
// text field or by autocomplete, the sankey view chosen in the form, the CSV export checked against the table, Back);
// the filter chips, the advanced query filter dialog and the date pickers with their validity toasts.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatBitsPerSecond } from "~/lib/units";
import { pageScripts } from "../../bench/page-scripts";
import { appURL, describeBothModes, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const DEEP_LINK = "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS";
/** The link whose first load has a byte budget (issue: a 30-day deep link was 848 kB of HTML). */
const BUDGET_LINK = "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_30_DAYS";
const PAGE_BUDGET_BYTES = 250_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TABLE_ROWS = "[data-testid=flow-table] tbody tr";
const FORM = "form[aria-label='Flow Explorer options']";

function noPageErrors(m: BrowserMode) {
  if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
}

/** The table as the page shows it: name, AS number and traffic text of every row. */
async function tableRows(page: Page): Promise<{ name: string; asn: string; traffic: string }[]> {
  return page.locator(TABLE_ROWS).evaluateAll((rows) =>
    rows.map((r) => {
      const cells = [...r.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim());
      return { name: cells[0], asn: cells[1], traffic: cells[2] };
    }),
  );
}

/**
 * Waits until the page shows the state of the current URL: after a navigation the URL changes
 * first, the new data (and the form remounted with it) is rendered a moment later.
 */
async function settled(page: Page) {
  await page.waitForFunction((form) => document.querySelector(form)?.getAttribute("data-search") === window.location.search, FORM);
}

/** Waits until the interactive chart has taken over the server's SVG (its code and the whole timeseries have arrived). */
async function interactiveChart(page: Page) {
  await page.locator("[data-testid=timeseries-chart][data-interactive=true] svg").first().waitFor();
}

/** The whole text (title and message) of the toast that shows `message`. */
async function toastWith(page: Page, message: string): Promise<string> {
  const toast = page.locator(".mantine-Notification-root", { hasText: message }).first();
  await toast.waitFor();
  return toast.innerText();
}

describeBothModes("flow explorer", (m) => {
  it("renders a deep link with table rows and an svg chart", async () => {
    await logIn(m.page);
    const res = await m.goto(DEEP_LINK);
    expect(res?.status()).toBe(200);
    if (m.javaScriptEnabled) {
      // 'Show in RNA' of each row comes with the interactive table: a new-tab link to the row's raw records.
      const rna = m.page.locator(`${TABLE_ROWS} a[href^="/rna?filter="]`).first();
      await rna.waitFor({ timeout: 30_000 });
      expect(await rna.getAttribute("target")).toBe("_blank");
      expect(await rna.innerText()).toBe("Show in RNA");
    }
    expect(await m.page.title()).toMatch(/Flow Explorer/);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(5);
    expect(await m.page.locator("[data-testid=timeseries-chart] svg").count()).toBeGreaterThanOrEqual(1);
    expect(await m.page.locator("[data-testid=timeseries-chart] svg path").count()).toBeGreaterThan(3);
    expect(await m.page.locator("[data-testid=range]").innerText()).toMatch(
      /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} – \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} UTC, 15-minute buckets/,
    );
    expect(await m.page.locator("[data-testid=total]").innerText()).toMatch(/Total: [\d.]+ [kMGT]?bit\/s/);
    // Traffic is formatted with SI prefixes and 3 significant digits.
    const firstTraffic = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=2`).innerText();
    expect(firstTraffic).toMatch(/^(\d{3}|\d{2}\.\d|\d\.\d{2}) [kMGTPE]?bit\/s$/);
    // Special AS values carry their explanation as a title.
    const special = m.page.locator("[data-special-as]");
    if ((await special.count()) > 0) expect((await special.first().getAttribute("title"))?.length ?? 0).toBeGreaterThan(20);
    // The time presets are offered beside the date ranges.
    const presets = await m.page
      .locator(`${FORM} select[name=dateRange] option`)
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(presets).toEqual(
      expect.arrayContaining([
        "LAST_30_MINUTES",
        "LAST_1_HOUR",
        "LAST_3_HOURS",
        "LAST_6_HOURS",
        "TODAY",
        "LAST_2_DAYS",
        "CURRENT_YEAR",
        "CUSTOM",
      ]),
    );
    await m.screenshot(`flow explorer deep link (${m.label})`);
    noPageErrors(m);
  });

  it("prediction: the options form turns it on; dashed lines labelled Prediction, said in words under the chart", async () => {
    await logIn(m.page);
    if (m.javaScriptEnabled) {
      await m.goto(DEEP_LINK);
      await m.page.check(`${FORM} input[name=predict]`);
      await m.page.click(`${FORM} button[type=submit]`);
      await m.page.waitForURL(/predict=1/);
      await settled(m.page);
      await interactiveChart(m.page);
      // The dashed lines are drawn in the browser's chart as in the server's.
      const dashes = await m.page
        .locator("[data-testid=timeseries-chart] [data-testid=prediction-line]")
        .evaluateAll((lines) => lines.map((l) => l.getAttribute("stroke-dasharray")));
      expect(dashes.length).toBeGreaterThan(0);
      expect(new Set(dashes)).toEqual(new Set(["6 4"]));
      expect(await m.page.locator("[data-testid=prediction-legend]").textContent()).toBe("Prediction");
    } else {
      const res = await m.goto(`${DEEP_LINK}&predict=1`);
      expect(res?.status()).toBe(200);
      expect(await m.page.locator(`${FORM} input[name=predict]`).isChecked()).toBe(true);
      expect(await m.page.locator("[data-testid=prediction-line]").count()).toBeGreaterThan(0);
    }
    // Also without JavaScript: the chart's text alternative and the note under it say the prediction.
    const label = await m.page.locator("[data-testid=timeseries-chart] svg[role=img]").first().getAttribute("aria-label");
    expect(label).toMatch(/Prediction \(dashed\) of the next period, .* from the trend of the history/);
    expect(await m.page.locator("[data-testid=prediction-note]").innerText()).toMatch(/^Prediction \(dashed\) of the next period/);
    noPageErrors(m);
  });

  it("journey: filter, sankey through the form, csv export matching the table, Back", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(1);

    // 1. A filter on the source AS 2906: a text field without JavaScript, an autocomplete pick with it.
    if (m.javaScriptEnabled) {
      await m.page.fill("input[aria-label='New filter value']", "2906");
      const option = m.page.locator("[data-testid=filter-suggestions] [role=option]", { hasText: "2906" }).first();
      await option.waitFor();
      await m.screenshot(`flow explorer autocomplete (${m.label})`);
      await Promise.all([m.page.waitForURL(/filter=AS_SRC_INGRESS%3A2906/), option.click()]);
      await settled(m.page);
    } else {
      await m.page.fill("input[aria-label='New filter']", "AS_SRC_INGRESS:2906");
      await Promise.all([m.page.waitForURL(/filter=AS_SRC_INGRESS%3A2906/), m.page.click(`${FORM} button[type=submit]`)]);
    }
    await m.page.locator(TABLE_ROWS).nth(1).waitFor({ state: "detached" });
    expect(await m.page.locator(TABLE_ROWS).count()).toBe(1);
    expect(await m.page.locator(TABLE_ROWS).first().innerText()).toContain("2906");
    expect(await m.page.locator("[data-testid=active-filters]").innerText()).toBe("Active filters: Source AS (ingress): AS2906 Netflix");
    if (m.javaScriptEnabled) {
      const chip = m.page.locator("[data-testid=filter-chip][data-dimension=AS_SRC_INGRESS][data-value='2906']");
      await chip.waitFor();
      // The chip is named from api/filter/metadata/.
      await expect.poll(() => chip.innerText()).toMatch(/.+ \(AS2906\)/);
    } else {
      expect(await m.page.locator("input[aria-label='Filter 1']").inputValue()).toBe("AS_SRC_INGRESS:2906");
    }
    const filteredUrl = m.page.url();
    await m.screenshot(`flow explorer filtered (${m.label})`);

    // 2. The sankey view, chosen in the form: a second dimension and the View radio.
    await m.page.selectOption(`${FORM} select[name=dimension2]`, "AS_DST_INGRESS");
    await m.page.check(`${FORM} input[name=view][value=sankey]`);
    if (!m.javaScriptEnabled) await m.page.click(`${FORM} button[type=submit]`);
    await m.page.waitForURL((url) => url.searchParams.get("view") === "sankey" && url.searchParams.get("dimension2") === "AS_DST_INGRESS");
    if (m.javaScriptEnabled) await settled(m.page);
    await m.page.locator("[data-testid=sankey-chart] svg").first().waitFor();
    expect(await m.page.locator("[data-testid=sankey-chart] svg rect").count()).toBeGreaterThanOrEqual(2);
    expect(new URL(m.page.url()).searchParams.getAll("filter")).toContain("AS_SRC_INGRESS:2906");
    await m.screenshot(`flow explorer sankey through the form (${m.label})`);

    // 3. The CSV export holds the rows and numbers of the table.
    const shown = await tableRows(m.page);
    const totalText = await m.page.locator("[data-testid=total]").innerText();
    const href = await m.page.locator("[data-testid=csv-export]").getAttribute("href");
    expect(href).toBe(`/api/flows/export${new URL(m.page.url()).search}`);
    let text: string;
    if (m.javaScriptEnabled) {
      const [download] = await Promise.all([m.page.waitForEvent("download"), m.page.locator("[data-testid=csv-export]").click()]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      text = fs.readFileSync((await download.path())!, "utf8");
    } else {
      const res = await m.page.context().request.get(appURL(href!));
      expect(res.status()).toBe(200);
      text = await res.text();
    }
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("Source AS (ingress),Name,Bits per second,Share (%),Bytes");
    const csv = lines.slice(1).map((l) => l.split(","));
    expect(csv.map((c) => ({ name: c[1], asn: c[0], traffic: formatBitsPerSecond(Number(c[2])) }))).toEqual(shown);
    expect(totalText).toContain(formatBitsPerSecond(csv.reduce((sum, c) => sum + Number(c[2]), 0)));

    // 4. Back restores the filtered timeseries view.
    await m.page.goBack();
    await m.page.waitForURL(filteredUrl);
    await m.page.locator("[data-testid=timeseries-chart] svg").first().waitFor();
    expect(await m.page.locator("[data-testid=sankey-chart]").count()).toBe(0);
    if (m.javaScriptEnabled) await m.page.locator("[data-testid=filter-chip][data-value='2906']").waitFor();
    else expect(await m.page.locator("input[aria-label='Filter 1']").inputValue()).toBe("AS_SRC_INGRESS:2906");
    // With JavaScript the form is rendered from the URL again; without it the browser shows the page as it was left.
    if (m.javaScriptEnabled) {
      await settled(m.page);
      expect(await m.page.locator(`${FORM} input[name=view][value=timeseries]`).isChecked()).toBe(true);
    }
    noPageErrors(m);
  });

  it("reports bad filter values and bad custom ranges", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&filter=AS_DST_INGRESS:banana`);
    expect(await m.page.locator("[data-testid=filter-errors]").innerText()).toContain(
      "banana is not a valid Destination AS (ingress) input",
    );
    // A reversed custom range is not applied; the form says why (server-rendered, so also without JavaScript).
    await m.goto("/flow-explorer?dateRange=CUSTOM&start=2000000000&end=1000000000");
    expect(await m.page.locator(FORM).innerText()).toContain(
      "The start must not be after the end, and the end must not be after the newest data.",
    );
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(1);
    noPageErrors(m);
  });

  it("shows the sankey chart, and asks for a second dimension without one", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&view=sankey`);
    expect(await m.page.locator("[data-testid=sankey-error]").innerText()).toContain("Sankey chart needs at least two dimensions");
    const res = await m.goto(`${DEEP_LINK}&view=sankey&dimension2=AS_DST_INGRESS`);
    expect(res?.status()).toBe(200);
    // With JavaScript the chart and the table are drawn again once the page runs: counted once they are there.
    await expect.poll(() => m.page.locator("[data-testid=sankey-chart] svg path").count()).toBeGreaterThan(3);
    await expect.poll(() => m.page.locator("[data-testid=sankey-chart] svg rect").count()).toBeGreaterThan(3);
    await expect.poll(() => m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(5);
    await m.screenshot(`flow explorer sankey (${m.label})`);
    noPageErrors(m);
  });

  it("exports the table of a deep link as csv", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    const shown = await tableRows(m.page);
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
    expect(filename).toMatch(/^flowlens_flow-explorer_AS_SRC_INGRESS_\d{8}-\d{8}\.csv$/);
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("Source AS (ingress),Name,Bits per second,Share (%),Bytes");
    const csv = lines.slice(1).map((l) => l.split(","));
    expect(csv.length).toBe(shown.length);
    // Whole bit/s; the shares add up to 100 %.
    for (const c of csv) expect(c[2]).toMatch(/^\d+$/);
    expect(csv.reduce((a, c) => a + Number(c[3]), 0)).toBeCloseTo(100, 0);
    expect(csv.map((c) => ({ name: c[1], asn: c[0], traffic: formatBitsPerSecond(Number(c[2])) }))).toEqual(shown);
    noPageErrors(m);
  });
});

describeBothModes("flow explorer filter bar and date pickers", (m) => {
  it("the no-JavaScript filter fields do not flash before the filter bar; they show should the scripts never run", async () => {
    await logIn(m.page);
    const newFilter = m.page.locator("input[aria-label='New filter']");
    if (!m.javaScriptEnabled) {
      await m.goto(DEEP_LINK);
      expect(await newFilter.isVisible()).toBe(true);
      return;
    }
    // The scripts load slowly: the page as it is painted before hydration.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await m.page.route("**/assets/**/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await m.page.goto(m.url(DEEP_LINK), { waitUntil: "domcontentloaded" });
    expect(await newFilter.count()).toBe(1);
    expect(await newFilter.isVisible(), "the text field before hydration").toBe(false);
    release();
    await m.page.locator("[data-testid=filter-bar]").waitFor();
    expect(await newFilter.count()).toBe(0);
    // Scripts that never arrive: after the grace period the fallback shows, so the form stays usable.
    const other = await m.newPage();
    await logIn(other.page);
    await other.page.route("**/assets/**/*.js", (route) => route.abort());
    await other.page.goto(m.url(DEEP_LINK), { waitUntil: "domcontentloaded" });
    const fallback = other.page.locator("input[aria-label='New filter']");
    expect(await fallback.isVisible()).toBe(false);
    await expect.poll(() => fallback.isVisible(), { timeout: 20_000 }).toBe(true);
  });

  it("chips: negation replaces a value with a notice, removing a chip, the advanced query filter dialog", async () => {
    if (!m.javaScriptEnabled) {
      // Without JavaScript the filters stay text fields holding the URL form.
      await logIn(m.page);
      await m.goto(`${DEEP_LINK}&filter=AS_SRC_INGRESS:2906,!15169`);
      expect(await m.page.locator("input[aria-label='Filter 1']").inputValue()).toBe("AS_SRC_INGRESS:2906,!15169");
      expect(await m.page.locator("[data-testid=filter-bar]").count()).toBe(0);
      return;
    }
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&filter=AS_SRC_INGRESS:2906,3320`);
    // Hydrated: the filter bar replaced the server's text fields.
    await m.page.locator("[data-testid=filter-bar]").waitFor();
    expect(await m.page.locator("input[aria-label='New filter']").count()).toBe(0);
    const chips = m.page.locator("[data-testid=filter-chip]");
    expect(await chips.count()).toBe(2);

    // Typing a negation of a chosen value replaces it, with the spec's notice.
    await m.page.fill("input[aria-label='Add a value to Source AS (ingress)']", "!2906");
    await Promise.all([
      m.page.waitForURL(/filter=AS_SRC_INGRESS%3A3320%2C%212906/),
      m.page.press("input[aria-label='Add a value to Source AS (ingress)']", "Enter"),
    ]);
    await settled(m.page);
    await toastWith(m.page, "The previously set filter 2906 was removed since its negation was added.");
    await m.page.locator("[data-testid=filter-chip][data-negated][data-value='2906']").waitFor();

    // Removing a chip removes its value from the URL.
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.getAll("filter").join() === "AS_SRC_INGRESS:!2906"),
      m.page.click("button[aria-label='Remove filter AS3320']"),
    ]);
    await settled(m.page);
    await expect
      .poll(() => m.page.locator("[data-testid=active-filters]").innerText())
      .toBe("Active filters: not Source AS (ingress): AS2906 Netflix");

    // The advanced query filter dialog: an invalid AS number is refused with the invalid-input toast.
    await m.page.click("[data-testid=advanced-filter-open]");
    const dialog = m.page.locator("[data-testid=advanced-filter-dialog]");
    await dialog.waitFor();
    expect(await m.page.locator(".mantine-Modal-title").innerText()).toBe("Advanced query filter");
    await dialog.locator("select").selectOption("AS_DST_INGRESS");
    await dialog.locator("input[aria-label='Advanced filter value']").fill("AS12x");
    await dialog.locator("input[aria-label='Advanced filter value']").press("Enter");
    expect(await toastWith(m.page, "AS12x is not a valid Destination AS (ingress) input")).toContain("Advanced query filter");
    expect(await dialog.locator("[data-testid=advanced-filter-error]").innerText()).toContain(
      "AS12x is not a valid Destination AS (ingress) input",
    );
    // Two valid values, negated, applied: one new filter row.
    for (const v of ["3320", "AS15169"]) {
      await dialog.locator("input[aria-label='Advanced filter value']").fill(v);
      await dialog.locator("input[aria-label='Advanced filter value']").press("Enter");
    }
    await dialog.locator("label", { hasText: "Negation" }).click();
    await m.screenshot("flow explorer advanced query filter (JavaScript on)");
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.getAll("filter").includes("AS_DST_INGRESS:!3320,!15169")),
      dialog.locator("button", { hasText: "Apply" }).click(),
    ]);
    await settled(m.page);
    await m.page
      .locator("[data-testid=filter-row][data-dimension=AS_DST_INGRESS] [data-testid=filter-chip][data-negated]")
      .nth(1)
      .waitFor();
    expect(await m.page.locator("[data-testid=active-filters]").innerText()).toContain("not Destination AS (ingress): AS15169 Google");
    await m.screenshot("flow explorer chips (JavaScript on)");

    // Back restores the chips of the previous URL.
    await m.page.goBack();
    await m.page.waitForURL((url) => url.searchParams.getAll("filter").join() === "AS_SRC_INGRESS:!2906");
    await settled(m.page);
    await m.page.locator("[data-testid=filter-row][data-dimension=AS_DST_INGRESS]").waitFor({ state: "detached" });
    expect(await chips.count()).toBe(1);
    noPageErrors(m);
  });

  it("a delegated user's restriction is a locked chip: no remove button, no input, not offered to add to", async () => {
    await logIn(m.page, DEMO_USERS.delegated);
    const res = await m.goto(DEEP_LINK);
    expect(res?.status()).toBe(200);
    expect(await m.page.locator("[data-testid=active-filters]").innerText()).toMatch(/Destination AS \(ingress\): AS\d+ .+ \(locked\)/);
    if (!m.javaScriptEnabled) return;
    const locked = m.page.locator("[data-testid=filter-chip][data-locked]");
    await locked.first().waitFor();
    expect(await locked.first().getAttribute("data-dimension")).toBe("AS_DST_INGRESS");
    expect(await locked.locator("button").count()).toBe(0);
    const row = m.page.locator("[data-testid=filter-row][data-dimension=AS_DST_INGRESS]");
    expect(await row.innerText()).toContain("(locked)");
    expect(await row.locator("input").count()).toBe(0);
    const offered = await m.page
      .locator("select[aria-label='Filter dimension'] option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain("AS_SRC_INGRESS");
    expect(offered).not.toContain("AS_DST_INGRESS");
    noPageErrors(m);
  });

  it("date inputs: the spec's dd.MM.yyyy HH:mm in the fields and the URL; an invalid pair gets the date picker's toast, a valid one becomes the custom range", async () => {
    await logIn(m.page);
    const bounds = (await (await m.page.context().request.get(appURL("/api/flows/timestamps/"))).json()) as {
      minTimestamp: number;
      maxTimestamp: number;
    };
    // The user's timezone is UTC. A link may carry ISO times; the fields show and send dd.MM.yyyy HH:mm.
    const iso = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 16);
    const local = (ts: number) => iso(ts).replace(/^(\d{4})-(\d{2})-(\d{2})T/, "$3.$2.$1 ");
    // Whole hours inside the data, so every pair below lies within it.
    const HOUR = 3600;
    const base = Math.ceil(bounds.minTimestamp / HOUR) * HOUR;
    const start = base + 2 * HOUR;
    const end = base + 4 * HOUR;
    await m.goto(`/flow-explorer?dateRange=CUSTOM&start=${iso(start)}&end=${iso(end)}`);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(1);
    // The same text fields in the spec's format with and without JavaScript (not the browser's locale), showing the URL's range.
    expect(await m.page.locator("[data-testid=range-start]").getAttribute("type")).toBe("text");
    expect(await m.page.locator("[data-testid=range-start]").getAttribute("placeholder")).toBe("dd.MM.yyyy HH:mm");
    expect(await m.page.locator("[data-testid=range-start]").inputValue()).toBe(local(start));
    expect(await m.page.locator("[data-testid=range-end]").inputValue()).toBe(local(end));
    if (!m.javaScriptEnabled) {
      // Without JavaScript the inputs are the form's fields: a new start applies with Show.
      await m.page.fill("[data-testid=range-start]", local(start - HOUR));
      await Promise.all([
        m.page.waitForURL((u) => u.searchParams.get("start") === local(start - HOUR)),
        m.page.click(`${FORM} button[type=submit]`),
      ]);
      expect(await m.page.locator("[data-testid=range]").innerText()).toContain(
        new Date((start - HOUR) * 1000).toISOString().slice(11, 16),
      );
      return;
    }
    // Hydrated first: the inputs then check the pair before it reaches the URL.
    await m.page.locator("[data-testid=filter-bar]").waitFor();
    // A start after the end: not applied, the toast names the date picker and the rule.
    await m.page.fill("[data-testid=range-start]", local(base + 6 * HOUR));
    // Leaving the input checks the pair (Tab would only move between the input's own date and time parts).
    await m.page.locator("[data-testid=range-start]").blur();
    expect(await toastWith(m.page, "The start must not be after the end, and the end must not be after the newest data.")).toContain(
      "Time range",
    );
    expect(new URL(m.page.url()).searchParams.get("start")).toBe(iso(start));
    await m.screenshot("flow explorer date input toast (JavaScript on)");
    // Moving the end to the newest data makes the pair valid: it becomes the URL's custom range.
    await m.page.fill("[data-testid=range-end]", local(base + 8 * HOUR));
    await Promise.all([
      m.page.waitForURL((url) => url.searchParams.get("start") !== iso(start)),
      m.page.locator("[data-testid=range-end]").blur(),
    ]);
    await settled(m.page);
    const url = new URL(m.page.url());
    expect(url.searchParams.get("dateRange")).toBe("CUSTOM");
    expect(url.searchParams.get("start")).toBe(local(base + 6 * HOUR));
    expect(url.searchParams.get("end")).toBe(local(base + 8 * HOUR));
    noPageErrors(m);
  });

  it("says which URL values were not applied, naming parameter, value and what is shown instead", async () => {
    await logIn(m.page);
    await m.goto("/flow-explorer?dimension=BOGUS&ipVersion=7&dateRange=NEXT_CENTURY&start=2026-11-01&dimension2=VRF_NAME");
    const text = await m.page.locator("[data-testid=filter-errors]").innerText();
    expect(text).toContain("The address's dimension=BOGUS was not applied (not a dimension); showing Source AS (ingress) instead.");
    expect(text).toContain("The address's ipVersion=7 was not applied (the IP version is all, 4 or 6); showing all IP versions instead.");
    expect(text).toMatch(
      /The address's dateRange=NEXT_CENTURY was not applied \(a date range is one of .+\); showing Last 2 days instead\./,
    );
    // The operator may not see VRF names.
    expect(text).toContain(
      "The address's dimension2=VRF_NAME was not applied (not available to your account here); showing no second dimension instead.",
    );
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(1);
    noPageErrors(m);
  });
});

// The table views (Aggregated, Detailed, pivot), the comparison with the previous period, the table's own tools
// (column picker, '>'/'<' filters) and the exports beyond CSV.
describeBothModes("flow explorer table and exports", (m) => {
  const TABLE_FORM = "form[aria-label='Table view']";

  /** Submits the table view form: on change with JavaScript, with its Apply button without. */
  async function applyTableView(change: () => Promise<void>, until: (url: URL) => boolean) {
    await change();
    if (!m.javaScriptEnabled) await m.page.click(`${TABLE_FORM} button[type=submit]`);
    await m.page.waitForURL(until);
  }

  it("switches to Detailed, pivots, and the pivot disables the export", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&filter=AS_SRC_INGRESS:2906`);
    expect(await m.page.locator("[data-testid=xlsx-export]").getAttribute("href")).toContain("format=xlsx");

    await applyTableView(
      () => m.page.selectOption(`${TABLE_FORM} select[name=table]`, "detailed").then(() => undefined),
      (u) => u.searchParams.get("table") === "detailed",
    );
    await m.page.locator("[data-testid=flow-table] thead", { hasText: "Time (UTC)" }).waitFor();
    // The other parameters rode along.
    expect(new URL(m.page.url()).searchParams.getAll("filter")).toContain("AS_SRC_INGRESS:2906");
    // One filtered value (and no Others): one row per 15-minute bucket of the two days.
    const detailedRows = await m.page.locator(TABLE_ROWS).count();
    expect(detailedRows).toBeGreaterThanOrEqual(190);
    // A bucket the range cuts (or that has not ended) is marked as incomplete.
    expect(await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=0`).innerText()).toMatch(
      /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}( \(incomplete\))?$/,
    );
    expect(await m.page.locator("[data-testid=xlsx-export]").getAttribute("href")).toContain("table=detailed");
    await m.screenshot(`flow explorer detailed table (${m.label})`);

    await applyTableView(
      () => m.page.check(`${TABLE_FORM} input[name=pivot]`),
      (u) => u.searchParams.get("pivot") === "1",
    );
    await m.page.locator("[data-testid=export-menu][data-blocked=pivoted]").waitFor();
    expect(await m.page.locator("[data-testid=export-menu]").getAttribute("title")).toBe(
      "Export is not available while the table is pivoted.",
    );
    for (const f of ["csv", "xls", "xlsx", "png", "svg"]) expect(await m.page.locator(`[data-testid=${f}-export]`).isDisabled()).toBe(true);
    // Pivoted: one row per bucket, the value as a column.
    expect(await m.page.locator(TABLE_ROWS).count()).toBe(detailedRows);
    expect(await m.page.locator("[data-testid=flow-table] thead").innerText()).toMatch(/AS2906|2906|[A-Za-z]/);
    await m.screenshot(`flow explorer pivoted table (${m.label})`);
    noPageErrors(m);
  });

  it("downloads the table as xlsx with the table's rows", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    const shown = await tableRows(m.page);
    const link = m.page.locator("[data-testid=xlsx-export]");
    const href = (await link.getAttribute("href"))!;
    expect(href).toBe("/api/flows/export?dimension=AS_SRC_INGRESS&dateRange=LAST_2_DAYS&format=xlsx");
    let bytes: Buffer;
    let filename: string;
    if (m.javaScriptEnabled) {
      const [download] = await Promise.all([m.page.waitForEvent("download"), link.click()]);
      filename = download.suggestedFilename();
      bytes = fs.readFileSync((await download.path())!);
    } else {
      const res = await m.page.context().request.get(appURL(href));
      expect(res.status()).toBe(200);
      filename = /filename="([^"]+)"/.exec(res.headers()["content-disposition"] ?? "")?.[1] ?? "";
      bytes = await res.body();
    }
    expect(filename).toMatch(/^flowlens_flow-explorer_AS_SRC_INGRESS_\d{8}-\d{8}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    const values = workbook.worksheets[0]
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(values[0]).toEqual(["Source AS (ingress)", "Name", "Bits per second", "Share (%)", "Bytes"]);
    const rows = values.slice(1) as [number, string, number][];
    // AS numbers are numbers in the spreadsheet, not text.
    expect(rows.every(([asn]) => typeof asn === "number")).toBe(true);
    expect(rows.map(([asn, name, bps]) => ({ name, asn: String(asn), traffic: formatBitsPerSecond(bps) }))).toEqual(shown);
    noPageErrors(m);
  });

  it("compares with the previous period through the options form", async () => {
    await logIn(m.page);
    await m.goto(DEEP_LINK);
    expect(await m.page.locator("[data-testid=total-previous]").count()).toBe(0);
    await m.page.check(`${FORM} input[name=compare]`);
    if (!m.javaScriptEnabled) await m.page.click(`${FORM} button[type=submit]`);
    await m.page.waitForURL((u) => u.searchParams.get("compare") === "1");
    await m.page.locator("[data-testid=total-previous]").waitFor();
    expect(await m.page.locator("[data-testid=total-previous]").innerText()).toMatch(
      /Previous period .*: [\d.]+ [kMGT]?bit\/s, Δ [≥≤+−\d]/,
    );
    const header = m.page.locator("[data-testid=difference-header]");
    expect(await header.innerText()).toBe("Δ previous period");
    expect(await header.getAttribute("title")).toContain("+/-1000%");
    // The difference's column, wherever the table puts it (the interactive table adds 'Show in RNA').
    const headers = await m.page.locator("[data-testid=flow-table] thead th").allInnerTexts();
    const at = headers.findIndex((h) => h.includes("Δ previous period"));
    expect(at).toBeGreaterThan(0);
    const cell = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=${at}`).innerText();
    expect(cell).toMatch(/^(≥ |≤ )?[+−]?\d+(\.\d)? %$/);
    await m.screenshot(`flow explorer compared (${m.label})`);
    noPageErrors(m);
  });

  it("the chart: the previous period as a dashed line with a legend entry, the counted traffic, a tooltip with time, total and values by size", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&compare=1`);
    // Server-rendered SVG: the overlay and its legend are there without JavaScript too.
    expect(
      await m.page.locator("[data-testid=timeseries-chart] [data-testid=previous-period-line] polyline[stroke-dasharray]").count(),
    ).toBe(1);
    expect(await m.page.locator("[data-testid=previous-period-legend]").textContent()).toBe("Previous period (total)");
    expect(await m.page.locator("[data-testid=counted-traffic]").innerText()).toContain("ingress traffic");
    await m.goto("/flow-explorer?dimension=ROUTER_IN&dateRange=LAST_2_DAYS");
    expect(await m.page.locator("[data-testid=counted-traffic]").innerText()).toContain("all traffic: ingress and egress");
    // The routine lag of the demo's newest data raises no notice on a default view.
    if (!m.javaScriptEnabled) return;
    await m.goto(DEEP_LINK);
    // The tooltips come with the interactive chart, which loads its code and data after the page.
    await interactiveChart(m.page);
    const box = (await m.page.locator("[data-testid=timeseries-chart] svg").first().boundingBox())!;
    await m.page.mouse.move(box.x + 80 + 300, box.y + 200);
    await m.page.mouse.move(box.x + 80 + 310, box.y + 210);
    const tooltip = m.page.locator("[data-testid=chart-tooltip]");
    await tooltip.waitFor();
    expect(await tooltip.locator("[data-testid=tooltip-time]").innerText()).toMatch(
      /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} – (\d{2}\.\d{2}\.\d{4} )?\d{2}:\d{2} UTC$/,
    );
    const values = await tooltip.locator("[data-testid=tooltip-row] td:nth-child(3)").allInnerTexts();
    expect(values.length).toBeGreaterThan(5);
    const bits = values.map((v) => {
      const [n, unit] = v.split(" ");
      return Number(n) * 10 ** (3 * " kMGTP".indexOf(unit[0] === "b" ? " " : unit[0]));
    });
    for (let i = 1; i < bits.length; i++) expect(bits[i]).toBeLessThanOrEqual(bits[i - 1] * 1.01);
    expect(await tooltip.locator("[data-testid=tooltip-total]").innerText()).toMatch(/^Total: [\d.]+ [kMGT]?bit\/s$/);
    // Rendered outside the chart's box and inside the viewport: nothing is cut off.
    expect(await tooltip.evaluate((el) => el.parentElement === document.body)).toBe(true);
    const t = (await tooltip.boundingBox())!;
    expect(t.y + t.height).toBeLessThanOrEqual(900);
    expect(t.x + t.width).toBeLessThanOrEqual(1366);
    await m.screenshot("flow explorer tooltip (JavaScript on)");
    noPageErrors(m);
  });

  it("the sankey: node labels with values, dark labels, column headings, the links as a table", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&view=sankey&dimension2=AS_DST_INGRESS`);
    // With JavaScript the chart is drawn again once the page runs: its labels are read when they are there.
    const labels = () => m.page.locator("[data-testid=sankey-chart] svg text").allTextContents();
    await expect.poll(async () => (await labels()).some((l) => / · [\d.]+ [kMGT]?bit\/s$/.test(l))).toBe(true);
    expect(await labels()).toEqual(expect.arrayContaining(["Source AS (ingress)", "Destination AS (ingress)"]));
    expect(await m.page.locator("[data-testid=sankey-table] tbody tr").count()).toBeGreaterThan(5);
    noPageErrors(m);
  });

  it("an empty table: the export is disabled with the message (a warning toast with JavaScript)", async () => {
    await logIn(m.page);
    await m.goto(`${DEEP_LINK}&filter=AS_SRC_INGRESS:4200000000`);
    await m.page.locator("[data-testid=export-menu][data-blocked=empty]").waitFor();
    expect(await m.page.locator("[data-testid=export-empty]").innerText()).toBe("Table is empty, nothing to export");
    expect(await m.page.locator("[data-testid=xlsx-export]").getAttribute("href")).toBeNull();
    if (m.javaScriptEnabled) {
      await m.page.click("[data-testid=xlsx-export]");
      expect(await toastWith(m.page, "Table is empty, nothing to export")).toContain("Export XLSX");
    }
    noPageErrors(m);
  });

  if (!m.javaScriptEnabled) {
    it("a 30-day deep link: at most 250 kB of HTML and 250 kB of JavaScript (gzip) on first load", async () => {
      await logIn(m.page);
      const res = await m.page.request.get(appURL(BUDGET_LINK));
      expect(res.status()).toBe(200);
      const html = await res.text();
      // The page is what it claims to be: the chart drawn, the table's rows, the total.
      expect(html).toMatch(/data-testid="timeseries-chart"[\s\S]*<svg[^>]*role="img"[\s\S]*<path/);
      expect(html.match(/<tr\b/g)?.length ?? 0).toBeGreaterThan(50);
      expect(html).toContain('data-testid="total"');
      const bytes = Buffer.byteLength(html, "utf8");
      const js = pageScripts(html, path.join(ROOT, "build/client"), path.join(ROOT, "public"));
      console.log(`${BUDGET_LINK}: HTML ${bytes} bytes; ${js.scripts.length} scripts, ${js.raw} bytes, ${js.gzip} bytes gzipped`);
      expect(bytes).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
      const largest = [...js.scripts].sort((a, b) => b.gzip - a.gzip).slice(0, 8);
      expect(js.gzip, largest.map((s) => `${s.source} ${s.gzip}`).join(", ")).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
    });
  }

  if (m.javaScriptEnabled) {
    it("column picker keeps at least one column; '>' filters the traffic", async () => {
      await logIn(m.page);
      await m.goto(DEEP_LINK);
      const all = await m.page.locator(TABLE_ROWS).count();
      // Numeric filter: only rows above 1 Gbit/s, each shown as Gbit/s or more.
      await m.page.fill("input[aria-label='Filter Traffic']", ">1G");
      await expect.poll(() => m.page.locator(TABLE_ROWS).count()).toBeLessThan(all);
      const traffic = await m.page.locator(`${TABLE_ROWS} td:nth-child(3)`).allInnerTexts();
      expect(traffic.length).toBeGreaterThan(0);
      for (const t of traffic) expect(t).toMatch(/ [GTPE]bit\/s$/);
      // Not > or <: the input says how to write a filter and nothing is filtered.
      await m.page.fill("input[aria-label='Filter Traffic']", "=5");
      await expect.poll(() => m.page.locator(TABLE_ROWS).count()).toBe(all);
      expect(await m.page.locator("input[aria-label='Filter Traffic']").getAttribute("aria-invalid")).toBe("true");
      expect(await m.page.locator("input[aria-label='Filter Traffic']").getAttribute("title")).toContain("Use > or < and a number");
      await m.page.fill("input[aria-label='Filter Traffic']", "");

      await m.page.click("[data-testid=column-picker]");
      const dialog = m.page.getByRole("dialog", { name: "Select a column" });
      await dialog.waitFor();
      const boxes = dialog.locator("input[type=checkbox]");
      for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).uncheck();
      expect(await dialog.locator("[data-testid=column-picker-apply]").isDisabled()).toBe(true);
      await dialog.getByLabel("Traffic").check();
      await dialog.locator("[data-testid=column-picker-apply]").click();
      await dialog.waitFor({ state: "detached" });
      expect(await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td`).count()).toBe(1);
      expect(await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td`).innerText()).toMatch(/bit\/s$/);
      await m.screenshot("flow explorer one column (JavaScript on)");
      noPageErrors(m);
    });
  }
});
