// The staff screens of what happens in an installation, in the browser with JavaScript on and off, against the shared
// app server of the run (demo users): an operator's browser reports an error and sends a support message from the FAQ's
// link; the superuser reaches both screens from the site settings, marks the error's group as handled (it moves to the
// handled list), answers the support message by mail and marks it as done. Both screens pass axe (screenshots kept).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeBothModes, newPage, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const AXE = path.join(ROOT, "node_modules/axe-core/axe.min.js");

/** Serious and critical WCAG 2.1 AA findings; axe is injected in a page that bypasses the CSP, scripts blocked with JavaScript off. */
async function axeFindings(m: BrowserMode, url: string): Promise<string[]> {
  const handle = await newPage(m.browser, { javaScriptEnabled: true, bypassCSP: true });
  try {
    await handle.context.addCookies(await m.context.cookies());
    if (!m.javaScriptEnabled)
      await handle.page.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    await handle.page.goto(m.url(url), { waitUntil: "load" });
    if (m.javaScriptEnabled) await handle.page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
    await handle.page.addScriptTag({ path: AXE });
    return await handle.page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              c: Document,
              o: object,
            ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
  } finally {
    await handle.context.close();
  }
}

describeBothModes("error reports and support messages", (m) => {
  it("goes from an operator's error report and support message to staff handling them", async () => {
    const tag = `${m.javaScriptEnabled ? "js" : "nojs"}-${Date.now().toString(36)}`;
    const errorMessage = `TypeError: e2e ${tag} is undefined`;
    const supportText = `The chart of ${tag} stays empty.`;

    // The operator: a client error report (the browser's own call), then the support form reached from the FAQ.
    const operator = await m.newPage();
    await logIn(operator.page, DEMO_USERS.operator);
    const csrf = (await operator.context.cookies()).find((c) => c.name === "csrftoken")?.value ?? "";
    const report = await operator.context.request.post(m.url("/api/error_report/"), {
      data: { message: errorMessage, stacktrace: "at e2e (app.js:1:1)", url: "/flow-explorer?secret=1" },
      headers: { "X-CSRFToken": csrf },
    });
    expect(report.status()).toBe(200);
    await operator.page.goto(m.url("/faq"), { waitUntil: "load" });
    await operator.page.getByRole("link", { name: "Contact support" }).click();
    await operator.page.waitForURL(/\/support\?type=HELP/);
    await operator.page.getByLabel("What is it about?").selectOption("BUG");
    await operator.page.getByLabel("Your message").fill(supportText);
    await operator.page.getByRole("button", { name: "Send message" }).click();
    await expect.poll(() => operator.page.getByTestId("support-sent").isVisible(), { timeout: 15_000 }).toBe(true);

    // The superuser: both screens are linked from the site settings.
    await logIn(m.page, DEMO_USERS.admin);
    await m.goto("/site-settings");
    await m.page.getByRole("link", { name: "error reports" }).click();
    await m.page.waitForURL(/\/site-settings\/error-reports$/);
    const group = m.page.getByTestId("error-report-group").filter({ hasText: errorMessage });
    await expect.poll(() => group.count()).toBe(1);
    const row = await group.innerText();
    expect(row).toContain("/flow-explorer");
    expect(row).not.toContain("secret=1");
    await m.screenshot(`error reports (${m.label})`);
    await group.getByRole("button", { name: /Mark as handled/ }).click();
    await expect
      .poll(() => m.page.getByTestId("error-reports-notice").textContent(), { timeout: 15_000 })
      .toBe("1 report marked as handled.");
    expect(await m.page.getByTestId("error-report-group").filter({ hasText: errorMessage }).count()).toBe(0);
    await m.page.getByRole("link", { name: "Handled" }).click();
    await m.page.waitForURL(/show=handled/);
    await expect
      .poll(() => m.page.getByTestId("error-report-group").filter({ hasText: errorMessage }).innerText())
      .toContain("admin@flowlens.example");

    await m.goto("/site-settings");
    await m.page.getByRole("link", { name: "support messages" }).click();
    await m.page.waitForURL(/\/site-settings\/support-messages$/);
    const message = m.page.getByTestId("support-message").filter({ hasText: supportText });
    await expect.poll(() => message.count()).toBe(1);
    expect(await message.innerText()).toContain("Report a bug");
    await m.screenshot(`support messages (${m.label})`);
    await message.getByRole("textbox").fill(`Thank you, ${tag} is fixed.`);
    await message.getByRole("button", { name: "Send answer" }).click();
    await expect
      .poll(() => m.page.getByTestId("support-messages-notice").textContent(), { timeout: 15_000 })
      .toBe("The answer was mailed.");
    const answered = m.page.getByTestId("support-message").filter({ hasText: supportText });
    expect(await answered.innerText()).toContain(`Thank you, ${tag} is fixed.`);
    await answered.getByRole("button", { name: /Mark message #\d+ as done/ }).click();
    await expect.poll(() => m.page.getByTestId("support-messages-notice").textContent(), { timeout: 15_000 }).toBe("Marked as done.");
    expect(await m.page.getByTestId("support-message").filter({ hasText: supportText }).count()).toBe(0);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  }, 120_000);

  it("passes axe on both staff screens and the support form", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    for (const url of [
      "/site-settings/error-reports",
      "/site-settings/error-reports?show=handled",
      "/site-settings/support-messages",
      "/support",
    ])
      expect([url, await axeFindings(m, url)]).toEqual([url, []]);
  }, 120_000);
});
