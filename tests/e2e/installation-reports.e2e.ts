// The staff screens of what happens in an installation, in the browser with JavaScript on and off, against the shared
// app server of the run (demo users): an operator's browser reports an error and sends a support message from the FAQ's
// link; the superuser reaches both screens from the site settings, marks the error's group as handled (it moves to the
// handled list), answers the support message by mail and marks it as done. Both screens pass axe (screenshots kept).
// The usage report (/site-settings/usage) counts a named action and, with JavaScript on, the screen views of a user who
// gave consent (none without JavaScript: the tracking is the browser's); the request history (/settings/request-history)
// lists the tab's API calls and copies one as curl without the CSRF token. Both pass axe in both modes.
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

/** The uses of a target in the current week on the open usage screen (0 when it has no row there). */
async function usesThisWeek(m: BrowserMode, target: string): Promise<number> {
  const week = m.page.getByTestId("usage-week").first();
  if ((await week.count()) === 0) return 0;
  const rows = await week
    .getByTestId("usage-row")
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => (td.textContent ?? "").trim())));
  const row = rows.find((cells) => cells[1] === target);
  return row ? Number(row[2]) : 0;
}

describeBothModes("usage report and request history", (m) => {
  it("counts a named action and, with JavaScript, the screens a consenting user opens; linked from the site settings", async () => {
    const action = `e2e.${m.javaScriptEnabled ? "js" : "nojs"}-${Date.now().toString(36)}`;
    // The demo superuser gave consent: the tracking call records for them.
    await logIn(m.page, DEMO_USERS.admin);
    const csrf = (await m.context.cookies()).find((c) => c.name === "csrftoken")?.value ?? "";
    const tracked = await m.context.request.post(m.url("/usertracking/interaction/"), {
      data: { target: action },
      headers: { "X-CSRFToken": csrf },
    });
    expect([tracked.status(), await tracked.json()]).toEqual([200, { status: "ok" }]);

    await m.goto("/site-settings");
    await m.page.getByRole("link", { name: "usage", exact: true }).click();
    await m.page.waitForURL(/\/site-settings\/usage$/);
    await expect.poll(() => usesThisWeek(m, action)).toBe(1);
    const row = m.page.getByTestId("usage-row").filter({ hasText: action });
    expect((await row.locator("td").allInnerTexts()).map((t) => t.trim())).toEqual([`Action ${action}`, action, "1", "1"]);
    expect(await m.page.locator("[aria-current=page]").innerText()).toBe("Last 4 weeks");

    // A screen view: one more use of /site-settings with JavaScript on, none without (the browser tracks, not the server).
    const before = await usesThisWeek(m, "/site-settings");
    await m.goto("/site-settings");
    await m.page.locator("form[aria-label='Site settings']").waitFor();
    if (m.javaScriptEnabled) await m.page.waitForLoadState("networkidle", { timeout: 15_000 });
    await expect
      .poll(async () => {
        await m.goto("/site-settings/usage");
        return usesThisWeek(m, "/site-settings");
      })
      .toBe(m.javaScriptEnabled ? before + 1 : before);
    await m.page.getByRole("link", { name: "This week" }).click();
    await m.page.waitForURL(/weeks=1/);
    expect(await m.page.getByTestId("usage-week").count()).toBe(1);
    await m.screenshot(`usage report (${m.label})`);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  }, 120_000);

  it("lists the tab's API calls and copies one as curl with $FLOWLENS_TOKEN and without the CSRF token", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    const csrf = (await m.context.cookies()).find((c) => c.name === "csrftoken")?.value ?? "";
    await m.goto("/settings");
    await m.page.getByRole("link", { name: "Request history" }).click();
    await m.page.waitForURL(/\/settings\/request-history$/);
    await m.page.getByRole("heading", { name: "Request history" }).waitFor();
    if (!m.javaScriptEnabled) {
      // Nothing is recorded without the browser's JavaScript, and the page says so.
      expect(await m.page.getByTestId("request-history-empty").isVisible()).toBe(true);
      expect(await m.page.locator("main").innerText()).toContain("with JavaScript off no calls are recorded");
      await m.screenshot(`request history (${m.label})`);
      return;
    }
    // The shell's notification poll is an API call of this tab (the navigation kept the tab's memory).
    const entry = m.page.getByTestId("request-history-entry").filter({ hasText: "auth/notifications/" }).first();
    await entry.waitFor();
    const origin = new URL(m.page.url()).origin;
    await m.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await entry.getByRole("button", { name: /Copy as curl/ }).click();
    const curl = await m.page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toMatch(/^curl -sS /);
    expect(curl).toContain('"Authorization: Token $FLOWLENS_TOKEN"');
    expect(curl).toContain(`${origin}/auth/notifications/`);
    expect(curl).not.toContain(csrf);
    expect(curl.toLowerCase()).not.toContain("x-csrftoken");
    expect(curl.toLowerCase()).not.toContain("cookie");
    await m.screenshot(`request history (${m.label})`);
    expect(m.pageErrors).toEqual([]);
  }, 120_000);

  it("passes axe on the usage report and the request history", async () => {
    await logIn(m.page, DEMO_USERS.admin);
    for (const url of ["/site-settings/usage", "/site-settings/usage?weeks=13", "/settings/request-history"])
      expect([url, await axeFindings(m, url)]).toEqual([url, []]);
  }, 120_000);
});
