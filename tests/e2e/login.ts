// Logging in for the browser tests that are about something else than the login itself. The session comes from the
// JSON login endpoint (POST auth/login/), called through the browser context's own request client: its Set-Cookie
// answers land in the context's cookie jar, so the page is logged in without typing into the form, whatever the store
// behind the app server (it runs as a separate process) and with JavaScript on or off alike.
// The form itself is tested by shell.e2e.ts and login-feedback.e2e.ts; a second factor by two-factor.e2e.ts.
import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { baseURL } from "./browser";

export interface Credentials {
  email: string;
  password: string;
}

/** The demo users the browser tests log in as (db/demo creates them, without a second factor). */
export const DEMO_USERS = {
  admin: { email: "admin@flowlens.example", password: "flowlens-admin" },
  operator: { email: "operator@flowlens.example", password: "flowlens-operator" },
  delegated: { email: "delegated@flowlens.example", password: "flowlens-delegated" },
  moderator: { email: "moderator@flowlens.example", password: "flowlens-moderator" },
} as const satisfies Record<string, Credentials>;

const CSRF_COOKIE = "csrftoken";

/** The context's CSRF token; a fresh one is set when it has none yet (the check compares cookie and header only). */
async function csrfToken(context: BrowserContext, base: string): Promise<string> {
  const existing = (await context.cookies(base)).find((c) => c.name === CSRF_COOKIE);
  if (existing) return existing.value;
  const token = randomBytes(24).toString("base64url");
  await context.addCookies([{ name: CSRF_COOKIE, value: token, url: base, sameSite: "Lax" }]);
  return token;
}

/**
 * Logs the page's browser context in as `user`. The page stays where it is: the test opens the screen it needs next.
 * Users with a second factor are refused here, since a test of them goes through /login/2fa.
 */
export async function logIn(page: Page, user: Credentials = DEMO_USERS.operator, base = baseURL()): Promise<void> {
  const context = page.context();
  const token = await csrfToken(context, base);
  const res = await context.request.post(new URL("/auth/login/", base + "/").toString(), {
    data: { email: user.email, password: user.password },
    headers: { "X-CSRFToken": token },
    failOnStatusCode: false,
  });
  if (!res.ok()) throw new Error(`logIn(${user.email}): POST auth/login/ answered ${res.status()} ${await res.text()}`);
  const { status } = (await res.json()) as { status?: string };
  if (status !== "LOGGED_IN") {
    throw new Error(`logIn(${user.email}): the session is ${status}, not LOGGED_IN (a second factor is due: log in through /login)`);
  }
}
