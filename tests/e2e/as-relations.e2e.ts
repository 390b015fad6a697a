// AS Relations (/as-relations) against the built app with the demo network and its PeeringDB data, with JavaScript
// on and off: the neighbours' table with PeeringDB's declared facts and the observed ratio, the month picker (a GET
// form), a neighbour's detail (NOC contact, exchanges, originated prefixes) and the export links.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const TABLE = "[data-testid=as-relations-table]";

describeBothModes("as relations", (m) => {
  it("lists the neighbours with PeeringDB facts and observed ratios, picks a month and opens a neighbour", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto("/as-relations");
    expect(res?.status()).toBe(200);
    await m.page.locator(`${TABLE} tbody tr`).first().waitFor();
    expect(await m.page.getByTestId("peeringdb-state").innerText()).toMatch(/^PeeringDB data of .*, imported /);
    expect(await m.page.getByTestId("no-peeringdb").count()).toBe(0);
    const headers = await m.page.locator(`${TABLE} thead th`).allInnerTexts();
    for (const h of ["AS", "Relation", "PeeringDB policy", "Declared ratio", "Observed 95th in", "Observed 95th out", "Observed ratio"])
      expect(headers.join("|")).toContain(h);
    const body = await m.page.locator(`${TABLE} tbody`).innerText();
    expect(body).toContain("AS3356 Lumen");
    expect(body).toMatch(/Transit/);
    expect(body).toMatch(/(Heavy|Mostly) (Outbound|Inbound)|Balanced/);
    // The peering candidates: remote content networks reaching us through transit, each with where we could meet.
    const candidates = m.page.locator("[data-testid=peering-candidates-table] tbody tr");
    expect(await candidates.count()).toBeGreaterThan(0);
    for (const row of await candidates.all()) {
      const cells = await row.locator("td").allInnerTexts();
      expect(cells[0]).toMatch(/^AS\d+ \S/);
      expect(cells[2]).toMatch(/bit\/s$/);
      expect(cells[5].trim()).not.toBe("");
    }
    // The export is a plain link to the shared export path, for the month shown.
    const month = await m.page.getByTestId("month-input").inputValue();
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    expect(await m.page.getByTestId("csv-export").getAttribute("href")).toBe(`/as-relations/export?month=${month}`);

    // The month picker is a GET form: the month is in the URL.
    const [y, mo] = month.split("-").map(Number);
    const previous = mo === 1 ? `${y - 1}-12` : `${y}-${String(mo - 1).padStart(2, "0")}`;
    await m.page.getByTestId("month-input").fill(previous);
    await Promise.all([m.page.waitForURL(new RegExp(`month=${previous}`)), m.page.getByRole("button", { name: "Show" }).click()]);
    await m.page.locator(`[data-testid=as-relations-screen][data-state^="month=${previous}"]`).waitFor();
    await m.page.locator(`${TABLE} tbody tr`).first().waitFor();

    // A neighbour's detail: PeeringDB's NOC contact and exchanges, the prefixes it originates.
    await Promise.all([m.page.waitForURL(/asn=3356/), m.page.getByTestId("as-link-3356").first().click()]);
    await m.page.getByTestId("as-detail").waitFor();
    expect(await m.page.getByTestId("as-detail-noc").innerText()).toMatch(/NOC contact: noc@lumen\.example/);
    expect(await m.page.getByTestId("as-detail-routing").innerText()).toMatch(/\d+ prefixes \(\d+ IPv4, \d+ IPv6\)/);
  });

  it("says what was not applied for a bad month, and never fails", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const res = await m.goto("/as-relations?month=2026-13");
    expect(res?.status()).toBe(200);
    expect(await m.page.getByTestId("as-relations-notices").innerText()).toContain('Month "2026-13" is not a month as YYYY-MM');
  });
});
