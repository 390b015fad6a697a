// The login page's answers: the previous attempt's error goes as soon as the next one is submitted, an over-long
// e-mail is refused naming the field, and a `next` that leads off the site lands on the site instead.
import { expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { describeBothModes } from "./browser";

describeBothModes("login feedback", (m) => {
  // A journey of the page with JavaScript (the error is cleared on submit in the browser): registered in that mode
  // only, so no run reports a skipped browser test.
  const withJavaScript: typeof it = m.javaScriptEnabled ? it : ((() => undefined) as unknown as typeof it);
  withJavaScript("clears the previous error as soon as the next attempt is submitted", async () => {
    await m.goto("/login");
    await m.page.fill("input[name=email]", "staff@flowlens.example");
    await m.page.fill("input[name=password]", "not-the-password");
    await m.page.click("button[type=submit]");
    const error = m.page.getByText(MESSAGES.wrongCredentials);
    await error.waitFor();
    // Hold the next submission on its way for 2 s, so "pending" lasts long enough to look at.
    await m.page.route(/\/login(\.data)?(\?|$)/, async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
    });
    await m.page.fill("input[name=password]", "flowlens-staff");
    await m.page.click("button[type=submit]");
    // Gone while the held submission is still on its way (it is held for 2 s).
    await error.waitFor({ state: "detached", timeout: 1_500 });
    // The submission was still pending when the error went.
    expect(new URL(m.page.url()).pathname).toBe("/login");
    await m.page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 });
    expect(m.pageErrors).toEqual([]);
  });

  it("refuses an over-long e-mail naming the field, without a server error", async () => {
    await m.goto("/login");
    await m.page.locator("input[name=email]").evaluate(
      (input: HTMLInputElement, value) => {
        input.type = "text"; // the browser's own e-mail check would stop the form first
        input.value = value;
      },
      `${"a".repeat(300)}@flowlens.example`,
    );
    await m.page.fill("input[name=password]", "whatever-password");
    const [response] = await Promise.all([
      m.javaScriptEnabled ? Promise.resolve(null) : m.page.waitForNavigation(),
      m.page.click("button[type=submit]"),
    ]);
    if (response) expect(response.status()).toBe(400);
    await m.page.getByText("E-mail: At most 254 characters.").waitFor();
  });

  it("after /login?next=%2F%09%2Fevil.example lands on the site, not elsewhere", async () => {
    await m.goto("/login?next=%2F%09%2Fevil.example");
    await m.page.fill("input[name=email]", "operator@flowlens.example");
    await m.page.fill("input[name=password]", "flowlens-operator");
    await Promise.all([m.page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 }), m.page.click("button[type=submit]")]);
    const landed = new URL(m.page.url());
    expect(landed.origin).toBe(new URL(m.url("/")).origin);
    expect(landed.pathname).toBe("/flow-explorer");
  });
});
