// The Looking Glass's routes as people read them, against the built app with the demo network, JavaScript on and off:
// communities with their well-known names and the operator's labels (private page only), AS paths with AS names on
// both pages (also at a phone's width), the RIB view choice and the community filter of the private form, and the
// community labels kept on the routing data page (added, refused, changed and deleted there, then shown in the
// Looking Glass). The demo network blackholes one host of its own space (203.0.113.66/32, BLACKHOLE + NO_EXPORT) and
// labels its own communities (64500:1 "Own prefix", 64500:* …); every route of the demo is post-policy.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeBothModes, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";
import { enablePublicLookingGlass } from "./public-lookingglass";

const TABLE_ROWS = "[data-testid=lookingglass-table] tbody tr";
const all = encodeURIComponent('["all"]');
const lgUrl = (path: string, params: Record<string, string>) =>
  `${path}?selectedVantagePoints=${all}&${new URLSearchParams(params).toString()}`;

/** Every field of the first row, as its details show them: the details element without JavaScript, the dialog with it. */
async function firstRowDetails(m: BrowserMode): Promise<string> {
  if (m.javaScriptEnabled) {
    await m.page.getByRole("button", { name: "Details" }).first().click();
    const dialog = m.page.getByRole("dialog");
    await dialog.getByText("Route details").waitFor();
    const text = await dialog.innerText();
    await m.page.keyboard.press("Escape");
    return text;
  }
  await m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details] > summary`).click();
  return m.page.locator(`${TABLE_ROWS} >> nth=0 >> [data-testid=lg-row-details]`).innerText();
}

async function waitForRows(m: BrowserMode) {
  await m.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
  // With JavaScript the interactive table replaces the server's once its chunk has loaded.
  if (m.javaScriptEnabled) await m.page.getByRole("button", { name: "Details" }).first().waitFor();
}

/** Submits the Looking Glass form and waits for the run's status: an answer of api/lookingglass/, or the next page. */
async function submit(m: BrowserMode, urlCheck: (url: URL) => boolean, expected: "Completed" | "NoData") {
  const button = m.page.getByRole("button", { name: "Submit" });
  if (m.javaScriptEnabled) await button.click();
  else await Promise.all([m.page.waitForURL(urlCheck), button.click()]);
  await m.page.locator(`[data-testid=lookingglass-status][data-status=${expected}]`).waitFor({ timeout: 30_000 });
  expect(urlCheck(new URL(m.page.url())), m.page.url()).toBe(true);
}

async function prefixesShown(page: Page): Promise<Set<string>> {
  return new Set((await page.locator(`${TABLE_ROWS} td:nth-child(3)`).allInnerTexts()).map((p) => p.trim()));
}

describeBothModes("looking glass routes", (m) => {
  it("private: a community filter keeps the blackholed host; its communities are listed with their names", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto(lgUrl("/lookingglass", { queryType: "IpPrefixQuery", queryTerm: "203.0.113.0/24", community: "65535:666" }));
    expect(res?.status()).toBe(200);
    await waitForRows(m);
    expect(await m.page.inputValue("[data-testid=lookingglass-form] input[name=community]")).toBe("65535:666");
    expect(await m.page.inputValue("select[name=ribView]")).toBe("default");
    // Every demo router holds the /32; nothing else under the /24 carries BLACKHOLE.
    expect(await prefixesShown(m.page)).toEqual(new Set(["203.0.113.66/32"]));
    const details = await firstRowDetails(m);
    for (const text of ["65535:666 BLACKHOLE", "65535:65281 NO_EXPORT", "64500:1 Own prefix", "Adj-RIB-In post-policy"])
      expect(details).toContain(text);
    // The filter is checked as typed (with JavaScript) and on the server: a pattern that is not one is said on the field.
    await m.goto(lgUrl("/lookingglass", { queryType: "IpPrefixQuery", queryTerm: "203.0.113.0/24", community: "65535:*:1" }));
    await m.page.getByText('"65535:*:1" is not a community pattern').first().waitFor();
    expect(await m.page.locator(TABLE_ROWS).count()).toBe(0);
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("private: the RIB view and the community filter chosen in the form", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/lookingglass");
    await m.page.getByLabel("Select all vantage points").check({ force: true });
    await m.page.locator("select[name=queryType]").selectOption("IpPrefixQuery");
    await m.page.locator("[data-testid=lookingglass-form] input[name=queryTerm]").fill("203.0.113.0/24");
    // The demo's routes are all post-policy Adj-RIB-In: its Loc-RIB is empty.
    await m.page.getByLabel("RIB view", { exact: true }).selectOption("loc-rib");
    await submit(m, (url) => url.searchParams.get("ribView") === "loc-rib", "NoData");
    await m.page.getByLabel("RIB view", { exact: true }).selectOption("post-policy");
    await m.page.getByLabel("Community", { exact: true }).fill("64500:1");
    await submit(
      m,
      (url) => url.searchParams.get("ribView") === "post-policy" && url.searchParams.get("community") === "64500:1",
      "Completed",
    );
    await waitForRows(m);
    // Only the operator's own prefixes carry 64500:1: its /24 and the blackholed host.
    expect(await prefixesShown(m.page)).toEqual(new Set(["203.0.113.0/24", "203.0.113.66/32"]));
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });

  it("AS paths with AS names on both pages, readable at a phone's width; the public page has no communities", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    // Routes learned from the transit provider Lumen: "3356 Lumen › … ".
    const query = { queryType: "AsPathQuery", queryTerm: "3356 *" };
    const asPaths = (page: Page) => page.locator(`${TABLE_ROWS} >> td >> [data-testid=lg-as-path]`).allTextContents();
    await m.goto(lgUrl("/lookingglass", query));
    await waitForRows(m);
    const paths = await asPaths(m.page);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^3356 Lumen( › \d+( \S.*)?)*$/);
    expect(paths.some((p) => / › \d+ [A-Za-z]/.test(p))).toBe(true);

    await enablePublicLookingGlass(m);
    const visitor = await m.newPage();
    await visitor.page.goto(m.url(lgUrl("/public/lookingglass", query)));
    await visitor.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    const publicPaths = await asPaths(visitor.page);
    expect(publicPaths.length).toBeGreaterThan(0);
    for (const path of publicPaths) expect(path).toMatch(/^3356 Lumen/);
    expect(await visitor.page.locator("select[name=ribView], [data-testid=lookingglass-form] input[name=community]").count()).toBe(0);
    expect(await visitor.page.locator("[data-testid=lg-communities]").count()).toBe(0);

    const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
    await phone.page.goto(m.url(lgUrl("/public/lookingglass", query)));
    await phone.page.locator(TABLE_ROWS).first().waitFor({ timeout: 30_000 });
    const width = await phone.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    await m.screenshot(`looking glass AS names (${m.label})`);
  });

  it("community labels on the routing data page: refused, added, shown in the Looking Glass, changed and deleted", async () => {
    // A community each mode's label names: the border-router tag of the first or the second demo router.
    const pattern = m.javaScriptEnabled ? "64500:1000" : "64500:1001";
    const label = `Border router tag (${m.label})`;
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/site-settings/routing-data");
    await m.page.getByRole("heading", { name: "Community labels" }).waitFor();
    const addForm = () => m.page.locator('form[aria-label="Add a community label"]');
    await addForm().getByLabel("Pattern").fill("64500:*:1");
    await addForm().getByLabel("Label").fill(label);
    await addForm().getByRole("button", { name: "Add" }).click();
    await m.page.getByText('"64500:*:1" is not a community pattern').waitFor();
    expect(await addForm().getByLabel("Label").inputValue()).toBe(label);
    try {
      await addForm().getByLabel("Pattern").fill(pattern);
      await Promise.all([m.page.waitForURL(/saved=label-created/), addForm().getByRole("button", { name: "Add" }).click()]);
      await m.page.getByTestId("community-labels-saved").getByText("The community label was added.").waitFor();
      await m.page.getByTestId("community-labels").locator("tr", { hasText: pattern }).getByText(label).waitFor();
      await m.screenshot(`routing data community labels (${m.label})`);

      await m.goto(lgUrl("/lookingglass", { queryType: "IpPrefixQuery", queryTerm: "0.0.0.0/0", community: pattern }));
      await waitForRows(m);
      expect(await firstRowDetails(m)).toContain(`${pattern} ${label}`);

      await m.goto("/site-settings/routing-data");
      await Promise.all([
        m.page.waitForURL(/edit_label=/),
        m.page
          .getByTestId("community-labels")
          .getByRole("link", { name: `Edit ${pattern}` })
          .click(),
      ]);
      const editForm = m.page.locator(`form[aria-label="Edit the label of ${pattern}"]`);
      expect(await editForm.getByLabel("Label").inputValue()).toBe(label);
      await editForm.getByLabel("Label").fill(`${label}, renamed`);
      await Promise.all([m.page.waitForURL(/saved=label-updated/), editForm.getByRole("button", { name: "Save" }).click()]);
      await m.page.getByTestId("community-labels").locator("tr", { hasText: pattern }).getByText(`${label}, renamed`).waitFor();
    } finally {
      await m.goto("/site-settings/routing-data");
      const remove = m.page.getByTestId("community-labels").getByRole("button", { name: `Delete ${pattern}` });
      if (await remove.count()) await Promise.all([m.page.waitForURL(/saved=label-deleted/), remove.click()]);
    }
    await m.page.getByTestId("community-labels").locator("tr", { hasText: pattern }).waitFor({ state: "detached" });
    if (m.javaScriptEnabled) expect(m.pageErrors.map((e) => e.message)).toEqual([]);
  });
});
