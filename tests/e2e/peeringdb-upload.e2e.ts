// The PeeringDB section of Site settings › Routing data in the browser, with JavaScript on and off, on the demo
// network: the current import's networks as the demo's dump holds them, a bad file refused with its reason and the
// counts unchanged, then the demo's own dump uploaded again (so AS Relations keeps its facts) and shown as imported by
// the admin.
import { expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "~db/demo/catalog";
import { DEMO_SEED } from "~db/demo/load";
import { demoPeeringDbDump, demoPeeringDbJson } from "~db/demo/peeringdb";
import { createRandom } from "~db/demo/random";
import { buildTopology } from "~db/demo/topology";
import { describeBothModes, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const topology = buildTopology(DEMO_ASES, createRandom(DEMO_SEED));
const operator = { asn: OPERATOR_ASN, name: OPERATOR_NAME };
const dump = demoPeeringDbDump(DEMO_ASES, topology.attachments, operator);
const FORM = "form[aria-label='Import PeeringDB data']";

async function uploadFile(m: BrowserMode, name: string, text: string) {
  await m.goto("/site-settings/routing-data");
  await m.page.locator(`${FORM} input[type=file]`).setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  await m.page.locator(FORM).getByRole("button", { name: "Import PeeringDB data" }).click();
  await m.page.waitForLoadState(m.javaScriptEnabled ? "networkidle" : "load");
}

const networksRow = (m: BrowserMode) => m.page.getByTestId("peeringdb-counts").getByRole("row", { name: /Networks/ });

describeBothModes("PeeringDB upload", (m) => {
  it("a bad file is refused with its reason; the demo's dump uploaded again is shown with its counts and importer", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    await uploadFile(m, "broken.json", '{"net": {"data": [{"id": 1');
    await m.page.getByTestId("peeringdb-import-error").waitFor();
    expect(await m.page.getByTestId("peeringdb-import-error").innerText()).toContain("broken.json");
    expect(await m.page.getByTestId("peeringdb-import-error").innerText()).toContain("the previous import stays");
    expect(await networksRow(m).innerText()).toContain(String(dump.net.length));

    await uploadFile(m, "demo-peeringdb.json", demoPeeringDbJson(DEMO_ASES, topology.attachments, operator));
    await m.page.getByTestId("peeringdb-import-summary").waitFor();
    expect(await m.page.getByTestId("peeringdb-import-summary").innerText()).toContain("demo-peeringdb.json was imported");
    await expect.poll(() => m.page.getByTestId("peeringdb-current").innerText()).toContain(`by ${DEMO_USERS.admin.email}`);
    expect(await networksRow(m).innerText()).toContain(String(dump.net.length));
    await m.screenshot(`routing data PeeringDB section (${m.label})`);
  });
});
