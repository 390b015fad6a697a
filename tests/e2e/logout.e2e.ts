// Logging out as a browser meets it, with JavaScript on and off: a link to /logout on another site does not end the
// session but shows a one-button confirmation (a plain form, so it works without JavaScript), whose button logs out;
// the app's own Log out logs out in one click; after either, Back shows no logged-in page.
import type { BrowserContext } from "playwright-core";
import { expect, it } from "vitest";
import { appURL, describeBothModes, type BrowserMode } from "./browser";
import { logIn } from "./login";

/** A site that is not the app: its page is served by the browser's request interception, never by the network. */
const OTHER_SITE = "http://other-site.example";

/** The session's state as the app sees it (auth/user/ with the context's cookies): LOGGED_IN, or what else it is. */
async function sessionStatus(context: BrowserContext): Promise<string> {
  const res = await context.request.get(appURL("/auth/user/"));
  const body = (await res.json()) as { session_status?: string };
  return body.session_status ?? "none";
}

/** Back, and the page it shows must be no logged-in page (nothing was cached; the server sends the browser to the login). */
async function expectBackShowsNoLoggedInPage(m: BrowserMode) {
  await m.page.goBack({ waitUntil: "load" });
  await m.page.waitForURL(/\/login/);
  await m.page.locator("input[name=password]").waitFor();
  expect(await m.page.locator("nav[aria-label=Tools]").count()).toBe(0);
  expect(await m.page.getByRole("button", { name: "Log out" }).count()).toBe(0);
}

describeBothModes("logging out", (m) => {
  it("a link from another site asks first with a one-button form, whose button logs out", async () => {
    await logIn(m.page);
    await m.goto("/flow-explorer");
    await m.page.locator("nav[aria-label=Tools]").waitFor();
    await m.page.route(`${OTHER_SITE}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>Elsewhere</title><a href="${appURL("/logout")}">A prize for you</a>`,
      }),
    );
    await m.page.goto(`${OTHER_SITE}/page`);
    const confirmation = await Promise.all([m.page.waitForURL((url) => url.pathname === "/logout"), m.page.click("text=A prize for you")]);
    expect(confirmation).toBeDefined();

    // Still logged in: the link alone changed nothing.
    await m.page.getByRole("heading", { name: "Log out", level: 1 }).waitFor();
    await m.page.getByText("Do you want to log out of flowlens?").waitFor();
    expect(await sessionStatus(m.context)).toBe("LOGGED_IN");
    const main = m.page.getByRole("main");
    expect(await main.getByRole("button").count()).toBe(1);
    expect(await main.getByRole("link", { name: "Stay logged in" }).getAttribute("href")).toBe("/");
    await m.screenshot();

    await Promise.all([m.page.waitForURL((url) => url.pathname === "/login"), main.getByRole("button", { name: "Log out" }).click()]);
    expect(await sessionStatus(m.context)).not.toBe("LOGGED_IN");
    await expectBackShowsNoLoggedInPage(m);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("the app's own Log out logs out in one click, and so does /logout typed into the address bar", async () => {
    await logIn(m.page);
    await m.goto("/flow-explorer");
    await m.page.locator("nav[aria-label=Tools]").waitFor();
    await Promise.all([m.page.waitForURL((url) => url.pathname === "/login"), m.page.getByRole("button", { name: "Log out" }).click()]);
    expect(await sessionStatus(m.context)).not.toBe("LOGGED_IN");
    await expectBackShowsNoLoggedInPage(m);

    // Typed (or a bookmark): the browser says so (Sec-Fetch-Site: none), and no confirmation is needed.
    await logIn(m.page);
    expect(await sessionStatus(m.context)).toBe("LOGGED_IN");
    const typed = await m.goto("/logout");
    expect(new URL(m.page.url()).pathname).toBe("/login");
    expect(typed?.request().redirectedFrom()?.url()).toBe(appURL("/logout"));
    expect(await sessionStatus(m.context)).not.toBe("LOGGED_IN");
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});
