// GDPR consent: withdrawing it ends access; the next login shows the consent page first; accepting continues.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";

const ACCOUNTS = {
  "JavaScript on": ["staff@flowlens.example", "flowlens-staff"],
  "JavaScript off": ["delegated@flowlens.example", "flowlens-delegated"],
} as const;

describeBothModes("consent", (m) => {
  it("withdraw on the settings page, then the consent page holds the user until they accept", async () => {
    const [email, password] = ACCOUNTS[m.label];
    const login = async () => {
      await m.goto("/login?next=%2Fsettings");
      await m.page.fill("input[name=email]", email);
      await m.page.fill("input[name=password]", password);
      await Promise.all([m.page.waitForURL((url) => url.pathname !== "/login"), m.page.click("button[type=submit]")]);
    };
    await login();
    expect(new URL(m.page.url()).pathname).toBe("/settings");
    await Promise.all([m.page.waitForURL(/\/login/), m.page.click("text=Withdraw consent and log out")]);

    await login();
    const consentUrl = new URL(m.page.url());
    expect(consentUrl.pathname).toBe("/consent");
    expect(consentUrl.searchParams.get("next")).toBe("/settings");
    // Nothing else is reachable before consent.
    await m.goto("/notifications");
    expect(new URL(m.page.url()).pathname).toBe("/consent");
    await m.screenshot("consent page");
    await Promise.all([m.page.waitForURL((url) => url.pathname !== "/consent"), m.page.click("button[value=accept]")]);
    expect(new URL(m.page.url()).pathname).toBe("/notifications");
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});
