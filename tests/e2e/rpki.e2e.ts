// RPKI origin validation in the browser, with JavaScript on and off, on the demo network: the superuser imports a VRP
// file on Site settings › Routing data (a plain multipart form; a bad file is refused with its line), and the RPKI
// column of both Looking Glass variants says Valid, Invalid or Not found for routes the test picked from the public
// Looking Glass's answer; after the file's VRPs are removed, "No ROA data".
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appURL, describeBothModes, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";
import { enablePublicLookingGlass } from "./public-lookingglass";

const TABLE = "[data-testid=lookingglass-table]";

type Row = { Prefix: string; "BGP as_path": string; RPKI: string | null };

/** Three routes of the public Looking Glass with an AS path: distinct /24s of the demo's synthetic space, and their origin ASes. */
async function pickRoutes(m: BrowserMode): Promise<{ prefix: string; origin: number }[]> {
  const visitor = await m.newPage();
  const res = await visitor.page.request.get(
    appURL("/api/lookingglass/?queryTerm=198.18.0.0/15&queryType=IpPrefixQuery&vantagePoints=all"),
    { headers: { Accept: "application/json" } },
  );
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { results: Record<string, Row[] | string> };
  const origins = new Map<string, Set<number>>();
  for (const rows of Object.values(body.results)) {
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      const path = row["BGP as_path"].split(" ").filter(Boolean).map(Number);
      if (!path.length || !row.Prefix.endsWith("/24")) continue;
      origins.set(row.Prefix, (origins.get(row.Prefix) ?? new Set()).add(path[path.length - 1]));
    }
  }
  // Prefixes with one origin wherever they are seen, so every row of each has one state.
  const picked = [...origins].filter(([, o]) => o.size === 1).slice(0, 3);
  expect(picked).toHaveLength(3);
  return picked.map(([prefix, o]) => ({ prefix, origin: [...o][0] }));
}

/** The RPKI cells of the Looking Glass table on the page, one per row (its first page). */
async function rpkiCells(m: BrowserMode, page: Page, hydrates = true): Promise<string[]> {
  await page.locator(`${TABLE} tbody tr`).first().waitFor({ timeout: 60_000 });
  // With JavaScript the interactive table replaces the server's once its chunk has loaded; the public
  // page keeps the server's table (it loads no app runtime, decision 014).
  if (m.javaScriptEnabled && hydrates) await page.getByRole("button", { name: "Details" }).first().waitFor();
  const headers = await page.locator(`${TABLE} thead th`).evaluateAll((ths) => ths.map((th) => (th.textContent ?? "").trim()));
  const column = headers.indexOf("RPKI");
  expect(column, `RPKI column in ${headers.join(" | ")}`).toBeGreaterThan(0);
  return page
    .locator(`${TABLE} tbody tr td:nth-child(${column + 1})`)
    .evaluateAll((tds) => tds.map((td) => (td as HTMLElement).innerText.trim()));
}

async function privateStates(m: BrowserMode, prefix: string): Promise<string[]> {
  const query = new URLSearchParams({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: prefix });
  await m.goto(`/lookingglass?${query}`);
  return [...new Set(await rpkiCells(m, m.page))];
}

async function publicStates(m: BrowserMode, page: Page, prefix: string): Promise<string[]> {
  const query = new URLSearchParams({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: prefix });
  await page.goto(appURL(`/public/lookingglass?${query}`), { waitUntil: m.javaScriptEnabled ? "networkidle" : "load" });
  return [...new Set(await rpkiCells(m, page, false))];
}

/** Sends a form of the routing data screen and waits for the page it answers with. */
async function submit(m: BrowserMode, form: string, button: string) {
  await m.page.locator(`form[aria-label="${form}"]`).getByRole("button", { name: button }).click();
  await m.page.waitForLoadState(m.javaScriptEnabled ? "networkidle" : "load");
}

async function uploadFile(m: BrowserMode, name: string, text: string) {
  await m.goto("/site-settings/routing-data");
  await m.page
    .locator("form[aria-label='Import a ROA file'] input[type=file]")
    .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await submit(m, "Import a ROA file", "Import ROAs");
}

describeBothModes("RPKI", (m) => {
  it("a VRP file imported on the routing data page gives every Looking Glass row its state, in both variants", async () => {
    await enablePublicLookingGlass(m);
    const [valid, invalid, notFound] = await pickRoutes(m);
    await logIn(m.page, DEMO_USERS.admin);

    // A bad file is refused with its line, and nothing is imported.
    await uploadFile(m, "bad.csv", "ASN,IP Prefix,Max Length,Trust Anchor\nAS64500,192.0.2.1/24,24,e2e\n");
    await m.page.getByTestId("rpki-import-error").waitFor();
    expect(await m.page.getByTestId("rpki-import-problems").innerText()).toContain(
      'line 2: prefix "192.0.2.1/24" has host bits set (the network is 192.0.2.0/24)',
    );

    const csv = [
      "ASN,IP Prefix,Max Length,Trust Anchor",
      `AS${valid.origin},${valid.prefix},24,e2e`,
      // The right prefix for another AS: its routes are invalid.
      `AS${invalid.origin === 64496 ? 64497 : 64496},${invalid.prefix},24,e2e`,
      "",
    ].join("\n");
    await uploadFile(m, "vrps.csv", csv);
    await m.page.getByTestId("rpki-import-summary").waitFor();
    expect(await m.page.getByTestId("rpki-import-summary").innerText()).toContain("vrps.csv");
    // With JavaScript the action's answer shows first, the section's figures once the page's data is read again.
    await m.page.getByTestId("rpki-in-use").getByText("2 VRPs are in use.").waitFor();
    expect(await m.page.getByTestId("rpki-sources").innerText()).toContain(`vrps.csv, imported by ${DEMO_USERS.admin.email}`);
    await m.screenshot(`routing data RPKI section (${m.label})`);

    expect(await privateStates(m, valid.prefix)).toEqual(["Valid"]);
    expect(await privateStates(m, invalid.prefix)).toEqual(["Invalid"]);
    expect(await privateStates(m, notFound.prefix)).toEqual(["Not found"]);
    await m.screenshot(`looking glass RPKI column (${m.label})`);

    const visitor = await m.newPage();
    expect(await publicStates(m, visitor.page, valid.prefix)).toEqual(["Valid"]);
    expect(await publicStates(m, visitor.page, invalid.prefix)).toEqual(["Invalid"]);

    // The file's VRPs removed: nothing left to judge by.
    await m.goto("/site-settings/routing-data");
    await submit(m, "Remove the ROA file's VRPs", "Remove the file's VRPs");
    await m.page.getByTestId("rpki-clear-result").waitFor();
    await m.page.getByTestId("rpki-in-use").getByText("No VRPs are loaded", { exact: false }).waitFor();
    expect(await privateStates(m, valid.prefix)).toEqual(["No ROA data"]);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  }, 240_000);
});
