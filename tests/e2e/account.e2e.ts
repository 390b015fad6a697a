// Account pages of the shell: password reset (request and confirm), signup, consent. With JavaScript on and off.
// The mailed token is not reachable from here (the app's database is the server's own), so the journey stops at the
// neutral confirmation; setting a password with a real token is covered by tests/integration/account.test.ts.
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { appURL, describeBothModes } from "./browser";

/** The start of the neutral answer to a reset request (same for known and unknown addresses). */
const RESET_REQUESTED = "If an account exists for this e-mail address, a link to set a new password has been sent to it.";

async function requestReset(m: Parameters<Parameters<typeof describeBothModes>[1]>[0], email: string) {
  await m.goto("/password-reset");
  await m.page.fill("input[name=email]", email);
  await m.page.click("button[type=submit]");
}

describeBothModes("password reset", (m) => {
  it("answers a request for an existing account with the neutral confirmation", async () => {
    const res = await m.goto("/password-reset");
    expect(res?.status()).toBe(200);
    expect(await m.page.locator("form input[name=email]").isVisible()).toBe(true);
    expect(await m.page.locator("form input[name=csrfmiddlewaretoken]").count()).toBe(1);
    await requestReset(m, "delegated@flowlens.example");
    await m.page.getByText(RESET_REQUESTED).waitFor();
    expect(new URL(m.page.url()).pathname).toBe("/password-reset");
    expect(await m.page.locator("input[name=email]").count()).toBe(0);
    await m.screenshot("password reset requested");
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("gives exactly the same answer for an unknown address", async () => {
    await requestReset(m, "nobody-here@flowlens.example");
    await m.page.getByText(RESET_REQUESTED).waitFor();
    const known = await m.newPage();
    await known.page.goto(appURL("/password-reset"));
    await known.page.fill("input[name=email]", "delegated@flowlens.example");
    await known.page.click("button[type=submit]");
    await known.page.getByText(RESET_REQUESTED).waitFor();
    const answer = (page: typeof m.page) => page.getByText(RESET_REQUESTED).innerText();
    expect(await answer(m.page)).toBe(await answer(known.page));
  });

  it("names the format rule for a malformed address and keeps the input", async () => {
    await requestReset(m, "not-an-address");
    await m.page.getByText(MESSAGES.emailFormat).waitFor();
    expect(await m.page.inputValue("input[name=email]")).toBe("not-an-address");
  });

  it("shows the e-mail verification failure for a bad link, with a way to request a new one", async () => {
    const res = await m.goto("/password-reset-confirm?token=this-is-not-a-valid-token");
    expect(res?.status()).toBe(200);
    // The token must not leak through Referer headers (a meta tag, since the document header is set globally): the
    // origin only, not "no-referrer", whose `Origin: null` on the form's POST fails the framework's CSRF check.
    expect(await m.page.locator('meta[name="referrer"]').getAttribute("content")).toBe("strict-origin");
    await m.page.getByText(MESSAGES.emailVerificationFailed).waitFor();
    await m.page.getByText(MESSAGES.emailVerificationHint).waitFor();
    expect(await m.page.locator("input[type=password]").count()).toBe(0);
    expect(await m.page.locator('a[href="/password-reset"]').count()).toBe(1);
    expect(await m.page.locator('main a[href="/login"]').count()).toBe(1);
    await m.screenshot("password reset bad token");
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("is reachable from the login page", async () => {
    await m.goto("/login");
    await Promise.all([m.page.waitForURL(/\/password-reset$/), m.page.click('a[href="/password-reset"]')]);
    expect(await m.page.locator("input[name=email]").count()).toBe(1);
  });
});

describeBothModes("signup", (m) => {
  it("redirects to login while self-signup is off (the demo default)", async () => {
    await m.goto("/signup");
    expect(new URL(m.page.url()).pathname).toBe("/login");
  });
});

describeBothModes("consent page", (m) => {
  it("sends anonymous visitors to login", async () => {
    await m.goto("/consent");
    const url = new URL(m.page.url());
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("next")).toBe("/consent");
  });
});

describe("account calls over HTTP (trailing-slash paths of the spec)", () => {
  async function csrf(): Promise<string> {
    const res = await fetch(appURL("/login"), { redirect: "manual" });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("csrftoken="));
    if (!cookie) throw new Error("no csrftoken cookie from /login");
    return cookie.split(";")[0].split("=")[1];
  }

  async function post(path: string, body: unknown, token: string) {
    return fetch(appURL(path), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/json", Cookie: `csrftoken=${token}`, "X-CSRFToken": token },
      body: JSON.stringify(body),
    });
  }

  it("POST auth/usernamecheck/ tells anonymous callers nothing while self-signup is off (the demo's setting)", async () => {
    const token = await csrf();
    const taken = await post("/auth/usernamecheck/", { username: "operator@flowlens.example" }, token);
    const free = await post("/auth/usernamecheck/", { username: "someone-new@flowlens.example" }, token);
    expect(taken.status).toBe(403);
    expect(free.status).toBe(403);
    expect(await taken.json()).toEqual(await free.json());
  });

  it("POST auth/password/reset/ and auth/password/reset/confirm/ answer as JSON", async () => {
    const token = await csrf();
    const reset = await post("/auth/password/reset/", { email: "nobody-here@flowlens.example" }, token);
    expect(reset.status).toBe(200);
    expect((await reset.json()).detail).toContain(RESET_REQUESTED);
    const confirm = await post("/auth/password/reset/confirm/", { token: "bogus", new_password: "long-enough-password" }, token);
    expect(confirm.status).toBe(400);
    expect(await confirm.json()).toMatchObject({ detail: MESSAGES.tokenInvalid, exception_code: "token_invalid" });
  });

  it("POST auth/signup/ is refused while self-signup is off; the consent calls need a login", async () => {
    const token = await csrf();
    const signup = await post("/auth/signup/", { email: "applicant@flowlens.example", first_name: "A", last_name: "B" }, token);
    expect(signup.status).toBe(403);
    const consent = await post("/auth/consent/accept/", {}, token);
    expect(consent.status).toBe(403);
    expect((await consent.json()).exception_code).toBe("not_authenticated");
  });
});
