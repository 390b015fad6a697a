// The application shell: health endpoint, login page, 404 page. Browser tests run with JavaScript on and off.
import { describe, expect, it } from "vitest";
import { appURL, describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const NOT_FOUND_TEXT_1 = "We are sorry, the page you requested cannot be found.";
const NOT_FOUND_TEXT_2 = "The URL may be misspelled or the page you are looking for is no longer available.";

describe("GET /healthz", () => {
  it("returns 200 with both stores ok", async () => {
    const res = await fetch(appURL("/healthz"), { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "ok",
      postgres: { ok: true },
      clickhouse: { ok: true },
    });
  });
});

describeBothModes("login page", (m) => {
  it("renders a sign-in form and the flowlens title", async () => {
    const res = await m.goto("/login");
    expect(res?.status()).toBe(200);

    const form = m.page.locator("form", { has: m.page.locator("input[type=password]") });
    expect(await form.count()).toBe(1);
    expect(await m.page.locator("form input[type=password]").count()).toBe(1);
    expect(await m.page.locator("form input[type=password]").isVisible()).toBe(true);

    const user = form.locator("input[type=email], input[name=email], input[name=username], input[autocomplete=username], input[type=text]");
    expect(await user.count()).toBeGreaterThanOrEqual(1);
    expect(await user.first().isVisible()).toBe(true);

    const submit = form.locator("button[type=submit], input[type=submit], button:not([type])");
    expect(await submit.count()).toBeGreaterThanOrEqual(1);
    expect(await submit.first().isVisible()).toBe(true);

    expect(await m.page.title()).toMatch(/flowlens/i);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});

describeBothModes("unknown page", (m) => {
  it("sends anonymous visitors to login, remembering where they were going", async () => {
    await m.goto("/this-page-does-not-exist?x=1");
    const url = new URL(m.page.url());
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("next")).toBe("/this-page-does-not-exist?x=1");
  });

  it("shows the 404 page with a link to the flow explorer once logged in", async () => {
    await logIn(m.page);
    const res = await m.goto("/this-page-does-not-exist");
    expect(res?.status()).toBe(404);
    const text = await m.page.locator("body").innerText();
    expect(text).toContain(NOT_FOUND_TEXT_1);
    expect(text).toContain(NOT_FOUND_TEXT_2);
    expect(await m.page.locator('a[href="/flow-explorer"]').count()).toBeGreaterThanOrEqual(1);
    const deep = await m.goto("/no/such/page");
    expect(deep?.status()).toBe(404);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});

describeBothModes("login", (m) => {
  it("rejects wrong credentials with the spec's message and keeps the e-mail", async () => {
    await m.goto("/login");
    await m.page.fill("input[name=email]", "operator@flowlens.example");
    await m.page.fill("input[name=password]", "wrong-password");
    const [response] = await Promise.all([
      m.javaScriptEnabled ? Promise.resolve(null) : m.page.waitForNavigation(),
      m.page.click("button[type=submit]"),
    ]);
    if (response) expect(response.status()).toBe(401);
    await m.page.getByText("Username or password is incorrect.").waitFor();
    expect(await m.page.inputValue("input[name=email]")).toBe("operator@flowlens.example");
  });

  it("logs in to the first available route, shows the menu, and logs out", async () => {
    await m.goto("/login");
    await submitLogin(m.page, "operator@flowlens.example", "flowlens-operator");
    expect(new URL(m.page.url()).pathname).toBe("/flow-explorer");
    await m.page.locator("nav[aria-label=Tools] a").first().waitFor();
    const menu = await m.page.locator("nav[aria-label=Tools] a").allInnerTexts();
    expect(menu).toContain("Flow Explorer");
    expect(menu).toContain("Looking Glass");
    expect(menu).not.toContain("Users");
    await m.screenshot("landing after login");
    await m.page.click("text=Log out");
    await m.page.waitForURL(/\/login/);
    await m.goto("/flow-explorer");
    expect(new URL(m.page.url()).pathname).toBe("/login");
  });

  it("returns to the remembered page after login", async () => {
    await m.goto("/lookingglass");
    expect(new URL(m.page.url()).pathname).toBe("/login");
    await submitLogin(m.page, "operator@flowlens.example", "flowlens-operator");
    await m.page.waitForURL(/\/lookingglass$/);
  });

  it("sends a user without the route's permission to their first available route", async () => {
    await logIn(m.page, DEMO_USERS.delegated);
    await m.goto("/controlplane");
    expect(new URL(m.page.url()).pathname).toBe("/flow-explorer");
  });
});

/** Types the credentials into the login form on screen and submits it (what this file tests; others log in by cookie). */
async function submitLogin(page: import("playwright-core").Page, email: string, password: string) {
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.click("button[type=submit]")]);
}
