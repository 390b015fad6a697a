// Two-factor authentication in the browser, with JavaScript on and off: enrol a device on /settings/security (codes
// computed with otplib from the key shown on the page), switch 2FA on, make recovery codes, log out, log in again
// through /login/2fa with a TOTP code and with a recovery code, then put the account back as it was. New recovery
// codes and turning 2FA off ask for the current password or a code, in plain form fields.
// Each mode uses its own demo user, so the two runs do not interfere.
import { generate } from "otplib";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { REAUTH_MESSAGES } from "~/lib/reauthentication";
import { describeBothModes } from "./browser";

const USERS = {
  on: { email: "staff@flowlens.example", password: "flowlens-staff" },
  off: { email: "moderator@flowlens.example", password: "flowlens-moderator" },
} as const;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Clicks a submit button; with JavaScript off that is a page load, which is awaited too. */
async function submit(page: Page, javaScriptEnabled: boolean, button: string) {
  const locator = page.getByRole("button", { name: button, exact: true });
  if (javaScriptEnabled) {
    await locator.click();
    return null;
  }
  const [response] = await Promise.all([page.waitForNavigation(), locator.click()]);
  return response;
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.click("button[type=submit]")]);
}

describeBothModes("two-factor authentication", (m) => {
  it("enrols a device, switches 2FA on, and asks for a code (or a recovery code) at the next login", async () => {
    const { email, password } = m.javaScriptEnabled ? USERS.on : USERS.off;
    const page = m.page;
    await m.goto("/login");
    await passwordStep(page, email, password);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/login/);

    // Enrol a device.
    await m.goto("/settings/security");
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    expect(await page.getByTestId("two-factor-state").innerText()).toMatch(/off/i);
    await page.fill("input[name=name]", "E2E phone");
    await submit(page, m.javaScriptEnabled, "Add device");
    const secret = (await page.getByTestId("totp-secret").innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await page.locator('img[alt="QR code for your authenticator app"]').getAttribute("src")).toMatch(/^data:image\/png;base64,/);

    // A wrong code keeps the enrolment on screen; the right one adds the device.
    const enrolCode = await generate({ secret, epoch: nowSeconds() });
    const wrongEnrol = enrolCode === "000000" ? "111111" : "000000";
    await page.fill("input[name=code]", wrongEnrol);
    const refused = await submit(page, m.javaScriptEnabled, "Confirm device");
    if (refused) expect(refused.status()).toBe(400);
    await page.getByText("The entered token is invalid.").waitFor();
    expect((await page.getByTestId("totp-secret").innerText()).trim()).toBe(secret);
    await page.fill("input[name=code]", await generate({ secret, epoch: nowSeconds() }));
    await submit(page, m.javaScriptEnabled, "Confirm device");
    await page.getByText('The device "E2E phone" was added.').waitFor();
    expect(await page.getByRole("table", { name: "Two-factor devices" }).innerText()).toContain("E2E phone");
    // When it was added: the spec's long format in the user's timezone (the demo users': UTC).
    expect(await page.getByRole("table", { name: "Two-factor devices" }).locator("tbody tr td").nth(1).innerText()).toMatch(
      /^\d\d\.\d\d\.\d{4} \d\d:\d\d UTC$/,
    );

    // Switch 2FA on and make recovery codes.
    await submit(page, m.javaScriptEnabled, "Enable two-factor authentication");
    await page.getByText("Two-factor authentication is on.").waitFor();
    // With JavaScript the action's answer can show before the page data is reloaded: wait for the badge.
    await page.getByTestId("two-factor-state").filter({ hasText: /^on$/i }).waitFor();
    // New recovery codes need the current password (or a code): without it, or with a wrong one, nothing changes.
    const recoveryForm = page.getByRole("form", { name: "Generate recovery codes" });
    const missing = await submit(page, m.javaScriptEnabled, "Generate recovery codes");
    if (missing) expect(missing.status()).toBe(400);
    await page.getByText(REAUTH_MESSAGES.missing).waitFor();
    await recoveryForm.getByLabel("Current password").fill("not-the-password");
    const wrongPassword = await submit(page, m.javaScriptEnabled, "Generate recovery codes");
    if (wrongPassword) expect(wrongPassword.status()).toBe(403);
    await page.getByText(REAUTH_MESSAGES.wrong).waitFor();
    expect(await page.getByTestId("recovery-codes").count()).toBe(0);
    await recoveryForm.getByLabel("Current password").fill(password);
    await submit(page, m.javaScriptEnabled, "Generate recovery codes");
    await page.getByTestId("recovery-codes").waitFor();
    const codes = (await page.getByTestId("recovery-codes").locator("code").allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z]{4}-[a-z]{4}-[a-z]{4}$/);
    await m.screenshot("security settings with recovery codes");

    // The last device cannot go while 2FA is on.
    await submit(page, m.javaScriptEnabled, "Delete E2E phone");
    await page.getByText("disable two-factor authentication first").waitFor();

    // Log out, log in: the password alone leads to the second step.
    await page.click("text=Log out");
    await page.waitForURL(/\/login/);
    // A remembered destination both demo users may open (the query shows it survived both steps).
    await m.goto("/flow-explorer?from=2fa");
    expect(new URL(page.url()).pathname).toBe("/login");
    await passwordStep(page, email, password);
    await page.waitForURL((url) => url.pathname === "/login/2fa");
    const secondStep = new URL(page.url());
    expect(secondStep.searchParams.get("next")).toBe("/flow-explorer?from=2fa");
    // Other pages send the pending session back here.
    await m.goto("/settings/security");
    expect(new URL(page.url()).pathname).toBe("/login/2fa");
    await m.goto(secondStep.pathname + secondStep.search);
    expect(await page.getByRole("link", { name: "Cancel" }).getAttribute("href")).toBe("/logout");

    await page.fill("input[name=code]", "000000" === (await generate({ secret, epoch: nowSeconds() })) ? "111111" : "000000");
    const wrong = await submit(page, m.javaScriptEnabled, "Verify");
    if (wrong) expect(wrong.status()).toBe(400);
    await page.getByText("The entered token is invalid.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login/2fa");

    // The code of the next step: the confirmation above spent the current one.
    await page.fill("input[name=code]", await generate({ secret, epoch: nowSeconds() + 30 }));
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/flow-explorer" && url.searchParams.get("from") === "2fa"),
      page.getByRole("button", { name: "Verify" }).click(),
    ]);

    // Again, with a recovery code.
    await page.click("text=Log out");
    await page.waitForURL(/\/login/);
    await m.goto("/login");
    await passwordStep(page, email, password);
    await page.waitForURL((url) => url.pathname === "/login/2fa");
    await page.fill("input[name=code]", codes[0]);
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")), page.getByRole("button", { name: "Verify" }).click()]);

    // Put the account back: 2FA off, device gone.
    await m.goto("/settings/security");
    expect(await page.getByTestId("recovery-codes-left").innerText()).toContain("9");
    // Turning 2FA off needs the password or a code: refused without, then done with an unused recovery code.
    const refusedOff = await submit(page, m.javaScriptEnabled, "Disable two-factor authentication");
    if (refusedOff) expect(refusedOff.status()).toBe(400);
    await page.getByText(REAUTH_MESSAGES.missing).waitFor();
    expect(await page.getByTestId("two-factor-state").innerText()).toMatch(/^on$/i);
    const disableForm = page.getByRole("form", { name: "Disable two-factor authentication" });
    await disableForm.getByLabel("Or a code").fill(codes[1]);
    await submit(page, m.javaScriptEnabled, "Disable two-factor authentication");
    await page.getByText("Two-factor authentication is off.").waitFor();
    await page.getByTestId("two-factor-state").filter({ hasText: /^off$/i }).waitFor();
    expect(await page.getByTestId("recovery-codes-left").innerText()).toContain("8");
    await submit(page, m.javaScriptEnabled, "Delete E2E phone");
    await page.getByText("The device was deleted.").waitFor();
    await page.getByText("No device yet.").waitFor();
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("sends a visitor without a pending second step from /login/2fa to /login", async () => {
    await m.goto("/login/2fa");
    expect(new URL(m.page.url()).pathname).toBe("/login");
  });
});
