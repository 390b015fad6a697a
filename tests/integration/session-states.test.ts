/**
 * The session state machine of spec §4, one transition at a time, through the real routes:
 * ANONYMOUS, LOGGED_IN, PENDING_2FA, EXPIRED, and logout.
 */
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, userPermissions, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as appLayout from "~/routes/_app";
import * as authLogin from "~/routes/auth.login";
import * as authTwoFactor from "~/routes/auth.2fa";
import * as authUser from "~/routes/auth.user";
import * as loginPage from "~/routes/login";
import * as logoutPage from "~/routes/logout";
import { readSession } from "~/server/auth/session.server";
import { confirmDevice, generateKey, generateRecoveryCodes, setEnable2fa } from "~/server/auth/two-factor.server";
import { hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, CSRF_TOKEN, ORIGIN, runRoute } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let plainUser: number;
let secureUser: number;
let totpSecret: string;

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
const get = (path: string, cookie?: string) => new Request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const status = async (cookie?: string) => (await readSession(stores.pg.db, stores.config.sessionSecret, get("/", cookie))).status;

async function jsonLogin(email: string, password: string) {
  return callRoute(authLogin, "/auth/login/", { method: "POST", body: { email, password }, cookie: `csrftoken=${CSRF_TOKEN}` });
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [a, b] = await stores.pg.db
    .insert(users)
    .values([
      { email: "plain@example.org", passwordHash: await hashPassword("plain-password-1"), hasConsented: true },
      { email: "secure@example.org", passwordHash: await hashPassword("secure-password-1"), hasConsented: true },
    ])
    .returning({ id: users.id });
  plainUser = a.id;
  secureUser = b.id;
  await stores.pg.db.insert(userPermissions).values([
    { userId: plainUser, permission: "API_FLOWS_4D" },
    { userId: secureUser, permission: "API_FLOWS_4D" },
  ]);
  const key = await generateKey(stores.pg.db, secureUser, "phone");
  totpSecret = key.secret;
  await confirmDevice(stores.pg.db, secureUser, key.id, await generate({ secret: totpSecret }));
  await setEnable2fa(stores.pg.db, secureUser, true);
}, 180_000);
afterAll(() => stores?.dispose());

describe("session states (spec §4)", () => {
  it("no cookie: ANONYMOUS; screens send to login with the destination", async () => {
    expect(await status()).toBe("ANONYMOUS");
    const screen = await runRoute(appLayout.loader, get("/flow-explorer?dateRange=LAST_7_DAYS"));
    expect(screen.location).toBe("/login?next=%2Fflow-explorer%3FdateRange%3DLAST_7_DAYS");
  });

  it("password without 2FA: LOGGED_IN", async () => {
    const response = await jsonLogin("plain@example.org", "plain-password-1");
    expect(await response.json()).toEqual({ status: "LOGGED_IN" });
    expect(await status(cookiesOf(response))).toBe("LOGGED_IN");
  });

  it("password with 2FA: PENDING_2FA, which cannot be skipped by typing a URL", async () => {
    const response = await jsonLogin("secure@example.org", "secure-password-1");
    expect(await response.json()).toEqual({ status: "PENDING_2FA" });
    const pending = `${cookiesOf(response)}; csrftoken=${CSRF_TOKEN}`;
    expect(await status(pending)).toBe("PENDING_2FA");
    const screen = await runRoute(appLayout.loader, get("/controlplane", pending));
    expect(screen.location).toBe("/login/2fa?next=%2Fcontrolplane");
    expect((await runRoute(loginPage.loader, get("/login", pending))).location).toBe("/login/2fa");
    const api = await callRoute(authUser, "/auth/user/", { cookie: pending });
    expect(api.status).toBe(403);
  });

  it("PENDING_2FA plus a valid code: LOGGED_IN with a new session id", async () => {
    const response = await jsonLogin("secure@example.org", "secure-password-1");
    const pending = `${cookiesOf(response)}; csrftoken=${CSRF_TOKEN}`;
    const wrong = await callRoute(authTwoFactor, "/auth/2fa/", { method: "POST", cookie: pending, body: { code: "000000" } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).detail).toBe(MESSAGES.tokenInvalid);
    // A fresh step: the code used to enrol cannot be replayed within the same 30 seconds.
    const code = await generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const ok = await callRoute(authTwoFactor, "/auth/2fa/", { method: "POST", cookie: pending, body: { code } });
    expect(ok.status).toBe(200);
    const loggedIn = `${cookiesOf(ok)}; csrftoken=${CSRF_TOKEN}`;
    expect(await status(loggedIn)).toBe("LOGGED_IN");
    expect(await status(pending)).not.toBe("PENDING_2FA");
  });

  it("recovery codes work once", async () => {
    const [code] = await generateRecoveryCodes(stores.pg.db, secureUser);
    for (const expected of [200, 400]) {
      const pending = `${cookiesOf(await jsonLogin("secure@example.org", "secure-password-1"))}; csrftoken=${CSRF_TOKEN}`;
      const response = await callRoute(authTwoFactor, "/auth/2fa/", { method: "POST", cookie: pending, body: { code } });
      expect(response.status).toBe(expected);
    }
  });

  it("inactivity: EXPIRED, with the spec's message on the login page, shown once", async () => {
    const response = await jsonLogin("plain@example.org", "plain-password-1");
    const cookie = cookiesOf(response);
    await stores.pg.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, plainUser));
    expect(await status(cookie)).toBe("EXPIRED");
    const screen = await runRoute(appLayout.loader, get("/flow-explorer", cookie));
    expect(screen.location).toBe("/login?next=%2Fflow-explorer&expired=1");
    const page = await runRoute(loginPage.loader, get("/login", cookie));
    expect(page.data.expired).toBe(true);
    expect(page.headers.get("Set-Cookie")).toMatch(/^logged_in=; .*Max-Age=0/);
    expect(MESSAGES.sessionExpired).toBe("You were logged out due to inactivity. Please log in again to continue.");
  });

  it("logout: the session is revoked and both cookies cleared (ANONYMOUS after)", async () => {
    const cookie = `${cookiesOf(await jsonLogin("plain@example.org", "plain-password-1"))}; csrftoken=${CSRF_TOKEN}`;
    const out = await runRoute(
      logoutPage.loader,
      new Request(`${ORIGIN}/logout`, { headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" } }),
    );
    expect(out.location).toBe("/login");
    const cleared = out.headers.getSetCookie().join("\n");
    expect(cleared).toMatch(/flowlens_session=; .*Max-Age=0/);
    expect(cleared).toMatch(/logged_in=; .*Max-Age=0/);
    const sessionOnly = cookie
      .split("; ")
      .filter((c) => c.startsWith("flowlens_session="))
      .join("; ");
    expect(await status(sessionOnly)).toBe("ANONYMOUS");
  });

  describe("GET /logout from another site", () => {
    const login = async () => `${cookiesOf(await jsonLogin("plain@example.org", "plain-password-1"))}; csrftoken=${CSRF_TOKEN}`;
    const sessionOf = (cookie: string) =>
      cookie
        .split("; ")
        .filter((c) => c.startsWith("flowlens_session="))
        .join("; ");
    const logoutWith = (cookie: string, headers: Record<string, string>, path = "/logout") =>
      runRoute(logoutPage.loader, new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie, ...headers } }));

    it.each([
      ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
      ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "Sec-Fetch-Site": "same-site" }],
      ["a foreign Referer without Sec-Fetch-Site", { Referer: "https://evil.example/page" }],
      ["a foreign Origin", { Origin: "https://evil.example" }],
      ["no hint at all", {}],
    ])("%s: a confirmation page, and the session stays", async (_name, headers) => {
      const cookie = await login();
      const page = await logoutWith(cookie, headers);
      expect(page.status).toBe(200);
      expect(page.location).toBeNull();
      expect(page.data).toEqual({ reason: null });
      expect(await status(sessionOf(cookie))).toBe("LOGGED_IN");
    });

    it.each([
      ["Sec-Fetch-Site: same-origin", { "Sec-Fetch-Site": "same-origin" }],
      ["Sec-Fetch-Site: none (typed or bookmarked)", { "Sec-Fetch-Site": "none" }],
      ["the app's own Referer (browsers without Sec-Fetch-Site)", { Referer: `${ORIGIN}/flow-explorer` }],
    ])("%s: logs out at once", async (_name, headers) => {
      const cookie = await login();
      expect((await logoutWith(cookie, headers, "/logout?reason=no-permissions")).location).toBe("/login?reason=no-permissions");
      expect(await status(sessionOf(cookie))).toBe("ANONYMOUS");
    });

    it("the confirmation's button (a form with the CSRF field) logs out; a post without the field asks again", async () => {
      const cookie = await login();
      const post = (fields: Record<string, string>) =>
        runRoute(
          logoutPage.action,
          new Request(`${ORIGIN}/logout`, {
            method: "POST",
            headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(fields).toString(),
          }),
        );
      expect((await post({ reason: "no-permissions" })).location).toBe("/logout");
      expect(await status(sessionOf(cookie))).toBe("LOGGED_IN");
      expect((await post({ csrfmiddlewaretoken: CSRF_TOKEN, reason: "no-permissions" })).location).toBe("/login?reason=no-permissions");
      expect(await status(sessionOf(cookie))).toBe("ANONYMOUS");
    });
  });
});
