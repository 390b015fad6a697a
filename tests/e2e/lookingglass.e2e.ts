// The Looking Glass against the built app with the demo network: the private screen (/lookingglass) with JavaScript
// on — a query through api/lookingglass/, the progress bar and status, the URL following the form, the row detail
// dialog — and the public page (/public/lookingglass, switched on in the site settings) with JavaScript off: the GET
// form, server-rendered results without the private columns, paging by links, and the export links.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { pageJavaScript } from "../../bench/deep-link";
import type { Page } from "playwright-core";
import { MESSAGES } from "~/lib/messages";
import { appURL, describeBothModes, type BrowserMode } from "./browser";
import { enablePublicLookingGlass } from "./public-lookingglass";

const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/client");
const TABLE_ROWS = "[data-testid=lookingglass-table] tbody tr";
const HEADERS = "[data-testid=lookingglass-table] thead th";

async function logIn(page: Page, email: string, password: string) {
  await page.goto(appURL("/login"));
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.click("button[type=submit]")]);
}


async function headers(page: Page): Promise<string[]> {
  return page.locator(HEADERS).evaluateAll((ths) => ths.map((th) => (th.textContent ?? "").trim()));
}

describeBothModes("looking glass", (m) => {
  // The private screen's form journey runs with JavaScript; its deep link (below) also without. The
  // test is registered for that mode only, so no run reports it as skipped.
  const withJavaScript: typeof it = m.javaScriptEnabled ? it : ((() => undefined) as unknown as typeof it);
  withJavaScript("private: a query by the form, results per vantage point with the private columns", async () => {
    await logIn(m.page, "admin@flowlens.example", "flowlens-admin");
    await m.goto("/lookingglass");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    expect(await m.page.getByTestId("lookingglass-status").textContent()).toBe("Idle");
    // Nothing selected yet: submit is disabled.
    expect(await m.page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
    await m.page.getByLabel("Select all vantage points").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    // An invalid term is refused as typed.
    await m.page.locator("input[name=queryTerm]").fill("203.0.113.300");
    await m.page.getByText(MESSAGES.invalidNetwork).waitFor();
    expect(await m.page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
    await m.page.locator("input[name=queryTerm]").fill("203.0.113.0/24");
    await m.page.getByRole("button", { name: "Submit" }).click();
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    await m.page.waitForFunction(() => document.querySelector("[data-testid=lookingglass-status]")?.textContent === "Completed");
    const url = new URL(m.page.url());
    expect(url.searchParams.get("queryType")).toBe("IpPrefixQuery");
    expect(url.searchParams.get("queryTerm")).toBe("203.0.113.0/24");
    expect(url.searchParams.get("selectedVantagePoints")).toBe('["all"]');
    // The interactive table replaces the server's once its chunk has loaded.
    await m.page.getByRole("button", { name: "Details" }).first().waitFor();
    const cols = await headers(m.page);
    expect(cols).toEqual(expect.arrayContaining(["VantagePoint", "Prefix", "BGP as_path", "BGP community", "BGP originator_id", "LastUpdate (UTC)", "Action"]));
    const firstVp = await m.page.locator(`${TABLE_ROWS} >> nth=0 >> td >> nth=0`).innerText();
    expect(firstVp).toMatch(/^\S+ \S.*, \S/); // 'Router City, Country'
    await m.page.getByRole("button", { name: "Details" }).first().click();
    await m.page.getByRole("dialog").getByText("Route details").waitFor();
    await m.screenshot("looking glass private results (JavaScript on)");
    await m.page.keyboard.press("Escape");
    // Changing the type resets the status and clears the output.
    await m.page.locator("select[name=queryType]").selectOption("AsPathQuery");
    expect(await m.page.getByTestId("lookingglass-status").textContent()).toBe("Idle");
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("private: a deep link renders its results on the server", async () => {
    await logIn(m.page, "operator@flowlens.example", "flowlens-operator");
    const res = await m.goto("/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(0);
  });

  it("public: the GET form answers with server-rendered results, public vantage points and columns only", async () => {
    await enablePublicLookingGlass(m, logIn);
    const res = await m.goto("/public/lookingglass");
    expect(res?.status()).toBe(200);
    expect(await m.page.getByTestId("lookingglass-results").innerText()).toContain(MESSAGES.lookingGlassBeforeSubmit);
    const boxes = await m.page.locator("input[name=selectedVantagePoints]").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(boxes[0]).toBe("all");
    // Public names: 'City, Country', numbered where a city has two (Frankfurt).
    expect(boxes).toEqual(expect.arrayContaining(["Frankfurt, Germany 1", "Frankfurt, Germany 2"]));
    expect(boxes.some((b) => /-er\d/.test(b))).toBe(false);
    await m.page.getByLabel("Frankfurt, Germany 1").check({ force: true });
    await m.page.getByLabel("Berlin, Germany").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("input[name=queryTerm]").fill("0.0.0.0/0");
    await Promise.all([m.page.waitForURL(/queryTerm=/), m.page.getByRole("button", { name: "Submit" }).click()]);
    await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    const cols = await headers(m.page);
    expect(cols).toContain("VantagePoint");
    expect(cols).not.toContain("BGP community");
    expect(cols).not.toContain("BGP originator_id");
    const vps = await m.page.locator(`${TABLE_ROWS} td:first-child`).evaluateAll((tds) => [...new Set(tds.map((td) => (td.textContent ?? "").trim()))]);
    for (const vp of vps) expect(["Frankfurt, Germany 1", "Berlin, Germany"]).toContain(vp);
    expect(await m.page.locator(TABLE_ROWS).count()).toBeLessThanOrEqual(25);
    await m.screenshot(`looking glass public results (${m.label})`);
    if (!m.javaScriptEnabled) {
      // The JavaScript the page ships up front: the interactive table (mantine-react-table) is not part of it.
      const html = await (await m.page.request.get(m.page.url())).text();
      const js = pageJavaScript(html, CLIENT_DIR);
      console.log(`public Looking Glass page JavaScript: ${js.files} files, ${js.raw} bytes, ${js.gzip} bytes gzipped`);
      const chunks = [...html.matchAll(/\/assets\/([^"'?#]+\.js)/g)].map((x) => x[1]);
      expect(chunks.some((c) => c.startsWith("ResultsTable") || c.startsWith("index.esm"))).toBe(false);
      // Paging by links, and the export links, work without JavaScript.
      const next = m.page.getByRole("link", { name: "Next" });
      if (await next.count()) {
        await Promise.all([m.page.waitForURL(/page=2/), next.click()]);
        expect(await m.page.locator(TABLE_ROWS).count()).toBeGreaterThan(0);
      }
      const csvHref = await m.page.getByRole("link", { name: "Table (csv)" }).getAttribute("href");
      const csv = await m.page.request.get(appURL(csvHref!));
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split("\r\n");
      expect(lines[0]).toBe("VantagePoint;Prefix;RouteDistinguisher;BGP as_path;BGP local_pref;BGP med;BGP next_hop;LastUpdate (UTC)");
      expect(lines.length).toBeGreaterThan(1);
    } else {
      expect(m.pageErrors.map((e) => e.message)).toEqual([]);
    }
  });
});
