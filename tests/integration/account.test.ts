/**
 * Account flows end to end on real stores: GDPR consent, signup and the applicant flow, password
 * reset, username check, self-deletion, support messages and the mailer. Loaders and actions are
 * called directly with Request objects, as Remix would call them.
 */
import net from "node:net";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  apiTokens,
  loginAttempts,
  outboxEmails,
  passwordResetTokens,
  sessions,
  siteSettings,
  styles,
  supportMessages,
  userPermissions,
  userRequests,
  users,
} from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as appLayout from "~/routes/_app";
import * as consentApiAccept from "~/routes/auth.consent.accept";
import * as consentApiRevoke from "~/routes/auth.consent.revoke";
import * as deleteApi from "~/routes/auth.delete";
import * as resetApi from "~/routes/auth.password.reset";
import * as loginApi from "~/routes/auth.login";
import * as resetConfirmApi from "~/routes/auth.password.reset.confirm";
import * as signupApi from "~/routes/auth.signup";
import * as supportApi from "~/routes/auth.support_message";
import * as usernameCheckApi from "~/routes/auth.usernamecheck";
import * as userRequestsApi from "~/routes/auth.usermanagement.user_requests";
import * as userRequestDecisionApi from "~/routes/auth.usermanagement.user_requests.$id.$decision";
import * as userApi from "~/routes/auth.user";
import * as consentPage from "~/routes/consent";
import * as loginPage from "~/routes/login";
import * as resetPage from "~/routes/password-reset";
import * as resetConfirmPage from "~/routes/password-reset-confirm";
import * as signupPage from "~/routes/signup";
import {
  checkResetToken,
  confirmReset,
  requestReset,
  RESET_TEXTS,
  resetMailsSettled,
  sendInvitationMail,
} from "~/server/auth/password-reset.server";
import { ANONYMOUS_LIMITS, resetAnonymousLimits } from "~/server/auth/anonymous-limits.server";
import { accountContactLink } from "~/server/auth/account-contact.server";
import { createApiToken } from "~/server/auth/api-tokens.server";
import { PEER_ADDRESS_HEADER } from "~/server/auth/client-address.server";
import { mailLink, mailLinkOrigin, warnIfMailLinksUnconfigured } from "~/server/mail/links.server";
import { createSession } from "~/server/auth/session.server";
import { SIGNUP_TEXTS } from "~/server/auth/user-requests.server";
import { sendMail } from "~/server/mail/mailer.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, jsonRequest, ORIGIN, runRoute, withCsrf } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const CSRF = CSRF_TOKEN;

let stores: TestStores;
const savedEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const key of ["SMTP_URL", "SMTP_FROM", "SUPPORT_EMAIL", "PUBLIC_URL"]) {
    savedEnv[key] = process.env[key];
    delete process.env[key];
  }
  stores = await openTestStores();
  useServicesForTests(stores);
}, 180_000);

afterAll(async () => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await stores?.dispose();
}, 60_000);

// ---------------------------------------------------------------------------------------------
// Helpers

const db = () => stores.pg.db;
let serial = 0;

async function makeUser(
  options: {
    password?: string | null;
    consented?: boolean;
    superuser?: boolean;
    staff?: boolean;
    permissions?: string[];
    email?: string;
  } = {},
) {
  serial += 1;
  const email = options.email ?? `user${serial}-${Date.now().toString(36)}@flowlens.test`;
  const password = options.password === undefined ? `password-${serial}-long` : options.password;
  const [user] = await db()
    .insert(users)
    .values({
      email,
      firstName: `First${serial}`,
      lastName: `Last${serial}`,
      passwordHash: password ? await hashPassword(password) : null,
      hasConsented: options.consented ?? true,
      consentedAt: options.consented === false ? null : new Date(),
      isSuperuser: options.superuser ?? false,
      isStaff: options.staff ?? options.superuser ?? false,
    })
    .returning();
  if (options.permissions?.length) {
    await db()
      .insert(userPermissions)
      .values(options.permissions.map((permission) => ({ userId: user.id, permission })));
  }
  return { ...user, password };
}

/** "name=value" pairs of Set-Cookie headers (cleared cookies left out). */
function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => pair.split("=")[1] !== "")
    .join("; ");
}

async function logIn(userId: number): Promise<string> {
  const headers = await createSession(db(), stores.config.sessionSecret, new Request(`${ORIGIN}/login`), userId, "LOGGED_IN");
  return cookiesOf(headers);
}

const run = runRoute;

async function setSelfSignup(on: boolean) {
  await db().update(siteSettings).set({ enableUserSelfSignup: on }).where(eq(siteSettings.id, 1));
}

/** The outbox rows to an address, once every reset mail asked for so far has been written. */
async function outboxTo(email: string) {
  await resetMailsSettled();
  return db().select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(outboxEmails.id);
}

function tokenFrom(body: string): string {
  const match = /\/password-reset-confirm\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!match) throw new Error(`no reset link in: ${body}`);
  return match[1];
}

async function openSessionsOf(userId: number) {
  return db()
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

// ---------------------------------------------------------------------------------------------

describe("GDPR consent", () => {
  it("holds a user without consent at /consent, and Accept continues to where they were going", async () => {
    const user = await makeUser({ consented: false });
    const cookie = await logIn(user.id);

    const guarded = await run(appLayout.loader, getRequest("/flow-explorer?x=1", cookie));
    expect(guarded.status).toBe(302);
    expect(guarded.location).toBe(`/consent?next=${encodeURIComponent("/flow-explorer?x=1")}`);

    const page = await run(consentPage.loader, getRequest(guarded.location!, cookie));
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ next: "/flow-explorer?x=1" });

    const noCsrf = new Request(`${ORIGIN}/consent`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(cookie) },
      body: new URLSearchParams({ intent: "accept" }).toString(),
    });
    expect((await run(consentPage.action, noCsrf)).status).toBe(403);

    const accepted = await run(consentPage.action, formRequest("/consent", { intent: "accept", next: "/flow-explorer?x=1" }, cookie));
    expect(accepted.status).toBe(302);
    expect(accepted.location).toBe("/flow-explorer?x=1");
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.hasConsented).toBe(true);
    expect(row.consentedAt).toBeInstanceOf(Date);

    const again = await run(consentPage.loader, getRequest("/consent?next=%2Fcore-planner", cookie));
    expect(again.location).toBe("/core-planner");
  });

  it("never continues to another origin or back to the consent page", async () => {
    const user = await makeUser({ consented: false });
    const cookie = await logIn(user.id);
    const offsite = await run(consentPage.action, formRequest("/consent", { intent: "accept", next: "//evil.example/x" }, cookie));
    expect(offsite.location).toBe("/");
    await db().update(users).set({ hasConsented: false }).where(eq(users.id, user.id));
    const loop = await run(consentPage.action, formRequest("/consent", { intent: "accept", next: "/consent?next=/consent" }, cookie));
    expect(loop.location).toBe("/");
  });

  it("sends anonymous visitors to login, remembering the consent page", async () => {
    const res = await run(consentPage.loader, getRequest("/consent?next=%2Fflow-explorer"));
    expect(res.location).toBe(`/login?next=${encodeURIComponent("/consent?next=%2Fflow-explorer")}`);
  });

  it("Decline logs out", async () => {
    const user = await makeUser({ consented: false });
    const cookie = await logIn(user.id);
    const declined = await run(consentPage.action, formRequest("/consent", { intent: "decline" }, cookie));
    expect(declined.status).toBe(302);
    expect(declined.location).toBe("/login");
    expect(declined.headers.getSetCookie().some((c) => c.startsWith("flowlens_session=;"))).toBe(true);
    expect(await openSessionsOf(user.id)).toHaveLength(0);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.hasConsented).toBe(false);
  });

  it("revoke (JSON) withdraws consent and ends the session; other sessions land on /consent; accept (JSON) restores access", async () => {
    const user = await makeUser({ consented: true });
    const first = await logIn(user.id);
    const second = await logIn(user.id);

    expect((await run(consentApiRevoke.action, jsonRequest("/auth/consent/revoke/", {}, { cookie: first, csrf: false }))).status).toBe(403);

    const revoked = await run(consentApiRevoke.action, jsonRequest("/auth/consent/revoke/", {}, { cookie: first }));
    expect(revoked.status).toBe(200);
    expect(revoked.data).toEqual({ has_consented: false });
    expect(revoked.headers.getSetCookie().some((c) => c.startsWith("flowlens_session=;"))).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.hasConsented).toBe(false);
    expect(row.consentedAt).toBeNull();

    const ended = await run(appLayout.loader, getRequest("/flow-explorer", first));
    expect(ended.location).toMatch(/^\/login/);
    const held = await run(appLayout.loader, getRequest("/flow-explorer", second));
    expect(held.location).toBe("/consent?next=%2Fflow-explorer");

    const accepted = await run(consentApiAccept.action, jsonRequest("/auth/consent/accept/", {}, { cookie: second }));
    expect(accepted.status).toBe(200);
    expect(accepted.data.has_consented).toBe(true);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after.hasConsented).toBe(true);
  });

  it("the consent calls need a logged-in session", async () => {
    const res = await run(consentApiAccept.action, jsonRequest("/auth/consent/accept/", {}));
    expect(res.status).toBe(403);
    expect(res.data.exception_code).toBe("not_authenticated");
    expect((await run(consentApiAccept.loader, getRequest("/auth/consent/accept/"))).status).toBe(405);
  });
});

describe("signup", () => {
  afterEach(() => setSelfSignup(false));

  it("redirects to login and refuses the call while self-signup is off", async () => {
    await setSelfSignup(false);
    const page = await run(signupPage.loader, getRequest("/signup"));
    expect(page.location).toBe("/login");
    const post = await run(signupPage.action, formRequest("/signup", { email: "new@flowlens.test", first_name: "A", last_name: "B" }));
    expect(post.location).toBe("/login");
    const api = await run(signupApi.action, jsonRequest("/auth/signup/", { email: "new@flowlens.test", first_name: "A", last_name: "B" }));
    expect(api.status).toBe(403);
    expect(await db().select().from(userRequests).where(eq(userRequests.email, "new@flowlens.test"))).toHaveLength(0);
  });

  it("sends logged-in users to their first route", async () => {
    await setSelfSignup(true);
    const user = await makeUser();
    const page = await run(signupPage.loader, getRequest("/signup", await logIn(user.id)));
    expect(page.location).toBe("/");
  });

  it("records a PENDING request and confirms it on the page (no JavaScript needed)", async () => {
    await setSelfSignup(true);
    expect((await run(signupPage.loader, getRequest("/signup"))).status).toBe(200);
    const res = await run(
      signupPage.action,
      formRequest("/signup", { email: " Nina.New@FlowLens.test ", first_name: " Nina ", last_name: "New" }),
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ sent: true, message: SIGNUP_TEXTS.sent });
    const rows = await db().select().from(userRequests).where(eq(userRequests.email, "nina.new@flowlens.test"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "PENDING", firstName: "Nina", lastName: "New" });
  });

  it("refuses a duplicate (pending request or existing account, any case) with the spec's message", async () => {
    await setSelfSignup(true);
    await run(signupPage.action, formRequest("/signup", { email: "dup@flowlens.test", first_name: "D", last_name: "Up" }));
    const pending = await run(signupPage.action, formRequest("/signup", { email: "DUP@flowlens.test", first_name: "D", last_name: "Up" }));
    expect(pending.status).toBe(400);
    expect(pending.data.detail).toBe(MESSAGES.userCreation);
    expect(pending.data.values.email).toBe("DUP@flowlens.test");

    const existing = await makeUser();
    const account = await run(
      signupApi.action,
      jsonRequest("/auth/signup/", { email: existing.email.toUpperCase(), first_name: "X", last_name: "Y" }),
    );
    expect(account.status).toBe(400);
    expect(account.data.detail).toBe(MESSAGES.userCreation);
    expect(await db().select().from(userRequests).where(eq(userRequests.email, existing.email))).toHaveLength(0);
  });

  it("refuses an invalid address with the spec's message and names the format rule", async () => {
    await setSelfSignup(true);
    for (const email of ["not-an-address", "user@localhost", "user@example.c"]) {
      const page = await run(signupPage.action, formRequest("/signup", { email, first_name: "I", last_name: "Nvalid" }));
      expect(page.status).toBe(400);
      expect(page.data.detail).toBe(MESSAGES.userCreation);
      expect(page.data.errors).toContainEqual({ field: "email", message: MESSAGES.emailFormat });
      const api = await run(signupApi.action, jsonRequest("/auth/signup/", { email, first_name: "I", last_name: "Nvalid" }));
      expect(api.status).toBe(400);
      expect(api.data.detail).toBe(MESSAGES.userCreation);
    }
    const missingName = await run(
      signupApi.action,
      jsonRequest("/auth/signup/", { email: "ok@flowlens.test", first_name: "", last_name: "Y" }),
    );
    expect(missingName.status).toBe(400);
    expect(missingName.data.errors).toContainEqual({ field: "first_name", message: SIGNUP_TEXTS.nameRequired });
  });

  it("takes JSON with the CSRF header only", async () => {
    await setSelfSignup(true);
    const body = { email: "json.signup@flowlens.test", first_name: "Jay", last_name: "Son" };
    expect((await run(signupApi.action, jsonRequest("/auth/signup/", body, { csrf: false }))).status).toBe(403);
    const ok = await run(signupApi.action, jsonRequest("/auth/signup/", body));
    expect(ok.status).toBe(201);
    expect(ok.data.detail).toBe(SIGNUP_TEXTS.sent);
  });
});

describe("user requests (applicant flow)", () => {
  it("needs VIEW_USERS", async () => {
    const plain = await makeUser({ permissions: ["API_FLOWS_4D"] });
    const res = await run(userRequestsApi.loader, getRequest("/auth/usermanagement/user_requests/", await logIn(plain.id)));
    expect(res.status).toBe(403);
    const decision = await run(
      userRequestDecisionApi.action,
      jsonRequest("/auth/usermanagement/user_requests/1/accept/", undefined, { method: "PUT", cookie: await logIn(plain.id) }),
      { id: "1", decision: "accept" },
    );
    expect(decision.status).toBe(403);
    // VIEW_USERS alone reads the requests; deciding is for staff and superusers.
    const viewer = await makeUser({ permissions: ["VIEW_USERS"] });
    const [pending] = await db()
      .insert(userRequests)
      .values({ email: "undecided@flowlens.test", firstName: "Un", lastName: "Decided" })
      .returning();
    const refused = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${pending.id}/accept/`, undefined, { method: "PUT", cookie: await logIn(viewer.id) }),
      { id: String(pending.id), decision: "accept" },
    );
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toBe("Only staff and superusers can create, change, deactivate or delete users.");
    const [still] = await db().select().from(userRequests).where(eq(userRequests.id, pending.id));
    expect(still.status).toBe("PENDING");
  });

  it("lists and creates requests; accepting creates the account and mails a link to set the password", async () => {
    const manager = await makeUser({ permissions: ["VIEW_USERS"], staff: true });
    const cookie = await logIn(manager.id);

    const created = await run(
      userRequestsApi.action,
      jsonRequest(
        "/auth/usermanagement/user_requests/",
        { email: "Applicant@flowlens.test", first_name: "App", last_name: "Licant" },
        { cookie },
      ),
    );
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ email: "applicant@flowlens.test", status: "PENDING", first_name: "App" });
    const id = created.data.id as number;

    const listed = await run(userRequestsApi.loader, getRequest("/auth/usermanagement/user_requests/?status=PENDING", cookie));
    expect(listed.status).toBe(200);
    expect(listed.data.map((r: { id: number }) => r.id)).toContain(id);

    const accepted = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${id}/accept/`, undefined, { method: "PUT", cookie }),
      { id: String(id), decision: "accept" },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.data).toMatchObject({ id, status: "ACCEPTED", decided_by_id: manager.id });
    const [account] = await db().select().from(users).where(eq(users.email, "applicant@flowlens.test"));
    expect(account).toMatchObject({
      id: accepted.data.user_id,
      firstName: "App",
      lastName: "Licant",
      passwordHash: null,
      hasConsented: false,
      isActive: true,
    });

    const [mail] = await outboxTo("applicant@flowlens.test");
    expect(mail.body).toContain(`${mailLinkOrigin()}/password-reset-confirm?token=`);
    const token = tokenFrom(mail.body);
    expect(await confirmReset(db(), token, "applicant-password")).toEqual({ ok: true, userId: account.id });
    const [withPassword] = await db().select().from(users).where(eq(users.id, account.id));
    expect(await verifyPassword("applicant-password", withPassword.passwordHash)).toBe(true);

    const twice = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${id}/reject/`, undefined, { method: "PUT", cookie }),
      { id: String(id), decision: "reject" },
    );
    expect(twice.status).toBe(409);
  });

  it("rejecting marks the request and mails the applicant a short notice; unknown ids and decisions are 404", async () => {
    const manager = await makeUser({ permissions: ["VIEW_USERS"], staff: true });
    const cookie = await logIn(manager.id);
    const [request] = await db()
      .insert(userRequests)
      .values({ email: "rejected@flowlens.test", firstName: "Re", lastName: "Jected" })
      .returning();
    const rejected = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${request.id}/reject/`, undefined, { method: "PUT", cookie }),
      { id: String(request.id), decision: "reject" },
    );
    expect(rejected.status).toBe(200);
    expect(rejected.data).toMatchObject({ status: "REJECTED", user_id: null });
    expect(await db().select().from(users).where(eq(users.email, "rejected@flowlens.test"))).toHaveLength(0);
    const [notice] = await outboxTo("rejected@flowlens.test");
    expect(notice.subject).toBe("Your flowlens account request");
    expect(notice.body).toContain("has not been accepted");
    expect(notice.body).not.toContain("password-reset-confirm");

    const unknown = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/999999/accept/`, undefined, { method: "PUT", cookie }),
      { id: "999999", decision: "accept" },
    );
    expect(unknown.status).toBe(404);
    const badDecision = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${request.id}/maybe/`, undefined, { method: "PUT", cookie }),
      { id: String(request.id), decision: "maybe" },
    );
    expect(badDecision.status).toBe(404);
  });

  it("accepting a request whose address meanwhile became an account fails with the spec's message", async () => {
    const manager = await makeUser({ permissions: ["VIEW_USERS"], staff: true });
    const cookie = await logIn(manager.id);
    const existing = await makeUser();
    const [request] = await db().insert(userRequests).values({ email: existing.email, firstName: "Late", lastName: "Comer" }).returning();
    const res = await run(
      userRequestDecisionApi.action,
      jsonRequest(`/auth/usermanagement/user_requests/${request.id}/accept/`, undefined, { method: "PUT", cookie }),
      { id: String(request.id), decision: "accept" },
    );
    expect(res.status).toBe(400);
    expect(res.data.detail).toBe(MESSAGES.userCreation);
    const [still] = await db().select().from(userRequests).where(eq(userRequests.id, request.id));
    expect(still.status).toBe("PENDING");
  });
});

describe("password reset", () => {
  it("answers the same whether or not the account exists, and mails only existing active accounts", async () => {
    const user = await makeUser();
    const known = await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: user.email.toUpperCase() }));
    const unknown = await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: "nobody@flowlens.test" }));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.data).toEqual(unknown.data);
    expect(known.data).toEqual({ detail: RESET_TEXTS.requested });

    const [mail] = await outboxTo(user.email);
    expect(mail.subject).toMatch(/password/i);
    expect(mail.body).toContain(`${mailLinkOrigin()}/password-reset-confirm?token=`);
    expect(tokenFrom(mail.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await outboxTo("nobody@flowlens.test")).toHaveLength(0);

    const [stored] = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored.tokenHash).not.toContain(tokenFrom(mail.body));
    const ttl = stored.expiresAt.getTime() - stored.createdAt.getTime();
    expect(Math.abs(ttl - 3_600_000)).toBeLessThan(60_000);

    const inactive = await makeUser();
    await db().update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    await requestReset(db(), inactive.email);
    expect(await outboxTo(inactive.email)).toHaveLength(0);
  });

  it("refuses a malformed address (which reveals nothing) and needs the CSRF header", async () => {
    const bad = await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: "not-an-address" }));
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toBe(MESSAGES.emailFormat);
    expect((await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: "a@flowlens.test" }, { csrf: false }))).status).toBe(
      403,
    );
  });

  it("sets the password once per token and ends every session of the account", async () => {
    const user = await makeUser();
    const sessionA = await logIn(user.id);
    await logIn(user.id);
    expect(await openSessionsOf(user.id)).toHaveLength(2);
    await requestReset(db(), user.email);
    const token = tokenFrom((await outboxTo(user.email)).at(-1)!.body);

    const wrong = await run(
      resetConfirmApi.action,
      jsonRequest("/auth/password/reset/confirm/", { token: "x".repeat(43), new_password: "a-new-password" }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ detail: MESSAGES.tokenInvalid, exception_code: "token_invalid" });

    const short = await run(resetConfirmApi.action, jsonRequest("/auth/password/reset/confirm/", { token, new_password: "short" }));
    expect(short.status).toBe(400);
    expect(short.data.detail).toBe(RESET_TEXTS.passwordTooShort);
    expect(await checkResetToken(db(), token)).not.toBeNull();

    const ok = await run(
      resetConfirmApi.action,
      jsonRequest("/auth/password/reset/confirm/", { token, new_password: "a-new-password" }, { cookie: sessionA }),
    );
    expect(ok.status).toBe(200);
    expect(ok.data.detail).toBe(RESET_TEXTS.done);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("flowlens_session=;"))).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword("a-new-password", row.passwordHash)).toBe(true);
    expect(await verifyPassword(user.password!, row.passwordHash)).toBe(false);
    expect(await openSessionsOf(user.id)).toHaveLength(0);
    expect((await run(appLayout.loader, getRequest("/flow-explorer", sessionA))).location).toMatch(/^\/login/);

    const reused = await run(
      resetConfirmApi.action,
      jsonRequest("/auth/password/reset/confirm/", { token, new_password: "another-password" }),
    );
    expect(reused.status).toBe(400);
    expect(reused.data.detail).toBe(MESSAGES.tokenInvalid);
  });

  it("takes the new password as `password` (documented) or `new_password`; both given must agree", async () => {
    const user = await makeUser();
    await requestReset(db(), user.email);
    const token = tokenFrom((await outboxTo(user.email)).at(-1)!.body);
    const confirm = (body: Record<string, string>) => run(resetConfirmApi.action, jsonRequest("/auth/password/reset/confirm/", body));

    const missing = await confirm({ token });
    expect(missing.status).toBe(400);
    expect(missing.data.errors).toEqual([{ field: "password", message: "Enter the new password." }]);
    const differ = await confirm({ token, password: "first-password-1", new_password: "other-password-2" });
    expect(differ.status).toBe(400);
    expect(differ.data.errors[0].field).toBe("new_password");
    const short = await confirm({ token, password: "short" });
    expect(short.status).toBe(400);
    expect(short.data.errors).toEqual([{ field: "password", message: RESET_TEXTS.passwordTooShort }]);
    expect(await checkResetToken(db(), token)).not.toBeNull();

    const ok = await confirm({ token, password: "documented-password-1" });
    expect(ok.status).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword("documented-password-1", row.passwordHash)).toBe(true);

    await requestReset(db(), user.email);
    const second = tokenFrom((await outboxTo(user.email)).at(-1)!.body);
    expect((await confirm({ token: second, password: "same-in-both-1", new_password: "same-in-both-1" })).status).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword("same-in-both-1", after.passwordHash)).toBe(true);
  });

  it("refuses an expired token, and only the newest link of an account works", async () => {
    const user = await makeUser();
    await requestReset(db(), user.email);
    const older = tokenFrom((await outboxTo(user.email)).at(-1)!.body);
    await requestReset(db(), user.email);
    const newer = tokenFrom((await outboxTo(user.email)).at(-1)!.body);
    expect(newer).not.toBe(older);
    expect(await confirmReset(db(), older, "password-from-old-link")).toMatchObject({ ok: false, reason: "token" });

    await db()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user.id));
    expect(await confirmReset(db(), newer, "password-after-expiry")).toEqual({
      ok: false,
      reason: "token",
      message: MESSAGES.tokenInvalid,
    });
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(user.password!, row.passwordHash)).toBe(true);
  });

  it("works as pages without JavaScript: neutral confirmation, bad link, mismatch, success", async () => {
    const user = await makeUser();
    expect((await run(resetPage.loader, getRequest("/password-reset"))).status).toBe(200);
    const sent = await run(resetPage.action, formRequest("/password-reset", { email: user.email }));
    const unknown = await run(resetPage.action, formRequest("/password-reset", { email: "ghost@flowlens.test" }));
    expect(sent.data).toEqual({ sent: true, message: RESET_TEXTS.requested });
    expect(unknown.data).toEqual(sent.data);
    const malformed = await run(resetPage.action, formRequest("/password-reset", { email: "ghost" }));
    expect(malformed.status).toBe(400);
    expect(malformed.data.error).toBe(MESSAGES.emailFormat);

    const bad = await run(resetConfirmPage.loader, getRequest("/password-reset-confirm?token=bogus"));
    expect(bad.data).toMatchObject({ valid: false, error: MESSAGES.emailVerificationFailed, hint: MESSAGES.emailVerificationHint });

    const token = tokenFrom((await outboxTo(user.email)).at(-1)!.body);
    const good = await run(resetConfirmPage.loader, getRequest(`/password-reset-confirm?token=${token}`));
    expect(good.data).toMatchObject({ valid: true, error: null, token });
    expect(good.headers.get("Referrer-Policy")).toBe("strict-origin");

    const mismatch = await run(
      resetConfirmPage.action,
      formRequest(`/password-reset-confirm?token=${token}`, {
        token,
        new_password: "page-password-1",
        new_password_repeat: "page-password-2",
      }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.data).toMatchObject({ done: false, error: RESET_TEXTS.passwordsDiffer, tokenProblem: false });

    const cookie = await logIn(user.id);
    const done = await run(
      resetConfirmPage.action,
      formRequest(
        `/password-reset-confirm?token=${token}`,
        { token, new_password: "page-password-1", new_password_repeat: "page-password-1" },
        cookie,
      ),
    );
    expect(done.data).toEqual({ done: true, message: RESET_TEXTS.done });
    expect(done.headers.getSetCookie().some((c) => c.startsWith("flowlens_session=;"))).toBe(true);

    const spent = await run(
      resetConfirmPage.action,
      formRequest(`/password-reset-confirm?token=${token}`, {
        token,
        new_password: "page-password-3",
        new_password_repeat: "page-password-3",
      }),
    );
    expect(spent.data).toMatchObject({ done: false, error: MESSAGES.emailVerificationFailed, tokenProblem: true });
    // The page of a spent link shows the e-mail verification failure with its hint, not the token text.
    const spentPage = await run(resetConfirmPage.loader, getRequest(`/password-reset-confirm?token=${token}`));
    expect(spentPage.data).toMatchObject({ valid: false, error: MESSAGES.emailVerificationFailed, hint: MESSAGES.emailVerificationHint });
  });

  it("an invitation link that fails (expired, or the account already active with its password) shows the e-mail verification failure", async () => {
    const invited = await makeUser({ password: null });
    await sendInvitationMail(db(), invited, { email: "admin@flowlens.test" });
    const token = tokenFrom((await outboxTo(invited.email)).at(-1)!.body);
    const form = { token, new_password: "invited-password-1", new_password_repeat: "invited-password-1" };
    expect((await run(resetConfirmPage.action, formRequest(`/password-reset-confirm?token=${token}`, form))).data).toMatchObject({
      done: true,
    });
    // Already active with a password: the link is used up.
    const again = await run(resetConfirmPage.loader, getRequest(`/password-reset-confirm?token=${token}`));
    expect(again.data).toMatchObject({ valid: false, error: MESSAGES.emailVerificationFailed, hint: MESSAGES.emailVerificationHint });
    expect(MESSAGES.emailVerificationHint).toMatch(/expired/);
    expect(MESSAGES.emailVerificationHint).toMatch(/already active/);

    const late = await makeUser({ password: null });
    await sendInvitationMail(db(), late, { email: "admin@flowlens.test" });
    const lateToken = tokenFrom((await outboxTo(late.email)).at(-1)!.body);
    await db()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, late.id));
    const expired = await run(
      resetConfirmPage.action,
      formRequest(`/password-reset-confirm?token=${lateToken}`, { ...form, token: lateToken }),
    );
    expect(expired.status).toBe(400);
    expect(expired.data).toMatchObject({ done: false, error: MESSAGES.emailVerificationFailed, tokenProblem: true });
  });

  it("builds mailed links from PUBLIC_URL, or http://localhost:PORT without it — never from Host or X-Forwarded-Host", async () => {
    const poisoned = (email: string) =>
      new Request("http://attacker.example/auth/password/reset/", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Cookie: `csrftoken=${CSRF}`,
          "X-CSRFToken": CSRF,
          Host: "attacker.example",
          "X-Forwarded-Host": "evil.example",
          "X-Forwarded-Proto": "https",
        },
        body: JSON.stringify({ email }),
      });
    const withoutConfig = await makeUser();
    const savedPort = process.env.PORT;
    process.env.PORT = "4123";
    try {
      expect((await run(resetApi.action, poisoned(withoutConfig.email))).status).toBe(200);
      const [mail] = await outboxTo(withoutConfig.email);
      expect(mail.body).toContain("http://localhost:4123/password-reset-confirm?token=");
      expect(mail.body).not.toMatch(/attacker\.example|evil\.example/);
    } finally {
      if (savedPort === undefined) delete process.env.PORT;
      else process.env.PORT = savedPort;
    }

    const configured = await makeUser();
    process.env.PUBLIC_URL = "https://flowlens.example.net/ignored/path";
    try {
      expect((await run(resetApi.action, poisoned(configured.email))).status).toBe(200);
      // The page form and the link of an accepted applicant follow the same rule.
      expect((await run(resetPage.action, formRequest("/password-reset", { email: configured.email }))).status).toBe(200);
      expect(mailLink("/password-reset-confirm", { token: "t" })).toBe("https://flowlens.example.net/password-reset-confirm?token=t");
      await resetMailsSettled();
    } finally {
      delete process.env.PUBLIC_URL;
    }
    const mails = await outboxTo(configured.email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.body).toContain("https://flowlens.example.net/password-reset-confirm?token=");
      expect(mail.body).not.toMatch(/attacker\.example|evil\.example/);
    }
  });

  it("warns at start-up when PUBLIC_URL is not set", () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      warnIfMailLinksUnconfigured({ PORT: "3000" });
      warnIfMailLinksUnconfigured({ PUBLIC_URL: "https://flowlens.example.net" });
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/WARN .*PUBLIC_URL is not set: links in mail .* point at http:\/\/localhost:3000/);
  });

  it("answers known and unknown addresses alike, before the token and the mail are written", async () => {
    const known = await makeUser();
    // Hold every write transaction until the answers are in: were the known path's writes awaited,
    // its answer could not arrive while they are held (the unknown path writes nothing).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    const originalTransaction = stores.pg.db.transaction.bind(stores.pg.db);
    const holdWrites = vi.spyOn(stores.pg.db, "transaction").mockImplementation((async (
      ...args: Parameters<typeof originalTransaction>
    ) => {
      held.push("write");
      await gate;
      return originalTransaction(...args);
    }) as typeof originalTransaction);
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push(await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: known.email })));
        answers.push(await run(resetApi.action, jsonRequest("/auth/password/reset/", { email: `ghost-${i}@flowlens.test` })));
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // Same answer body whether the account exists or not.
      expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
      // Only the known address queued writes, and none of them had happened when its answer came.
      expect(held).toHaveLength(3);
      expect(await db().select().from(outboxEmails).where(eq(outboxEmails.to, known.email))).toHaveLength(0);
    } finally {
      release();
      await resetMailsSettled();
      holdWrites.mockRestore();
    }
    // The mails were still written, one per request for the known account only.
    expect(await outboxTo(known.email)).toHaveLength(3);
  });

  it("limits how often one client may ask for reset links (429 with Retry-After), per client address", async () => {
    await expectPerClientLimit(
      resetApi,
      "/auth/password/reset/",
      { email: "someone@flowlens.test" },
      ANONYMOUS_LIMITS.passwordReset.perAddress,
    );
  });
});

/** `perAddress` calls from one client pass, the next is a 429 with Retry-After; another client still passes. */
async function expectPerClientLimit(route: { action: unknown }, path: string, body: unknown, perAddress: number) {
  resetAnonymousLimits();
  const from = (address: string) => {
    const request = jsonRequest(path, body);
    request.headers.set(PEER_ADDRESS_HEADER, address);
    return run(route.action, request);
  };
  try {
    for (let i = 0; i < perAddress; i++) expect((await from("198.51.100.20")).status).toBe(200);
    const refused = await from("198.51.100.20");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.data.detail).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    expect((await from("198.51.100.21")).status).toBe(200);
  } finally {
    resetAnonymousLimits();
  }
}

describe("deactivated accounts", () => {
  const loginJson = (email: string, password: string) => run(loginApi.action, jsonRequest("/auth/login/", { email, password }));
  const loginForm = (email: string, password: string) => run(loginPage.action, formRequest("/login", { email, password }));

  afterEach(async () => {
    await db().delete(loginAttempts);
  });

  it("the right password gets its own message with a contact link; a wrong one the wrong-credentials text", async () => {
    const user = await makeUser();
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));

    const right = await loginJson(user.email, user.password!);
    expect(right.status).toBe(403);
    expect(right.data).toEqual({
      detail: MESSAGES.accountDeactivated,
      exception_code: "account_deactivated",
      contact: { href: "/imprint", label: "Imprint" },
    });
    expect(right.headers.getSetCookie().some((c) => c.startsWith("flowlens_session="))).toBe(false);

    // Without the password the state is not told: the same answer as a wrong password for an active account.
    const wrong = await loginJson(user.email, "not-the-password-1");
    const active = await makeUser();
    const wrongActive = await loginJson(active.email, "not-the-password-1");
    expect(wrong.status).toBe(401);
    expect(wrong.data).toEqual({ detail: MESSAGES.wrongCredentials });
    expect(wrongActive.status).toBe(401);
    expect(wrongActive.data).toEqual(wrong.data);

    // The page: the message and the link, no session; a wrong password the catalogue's text.
    const page = await loginForm(user.email, user.password!);
    expect(page.status).toBe(403);
    expect(page.data).toEqual({ error: MESSAGES.accountDeactivated, email: user.email, contact: { href: "/imprint", label: "Imprint" } });
    expect(page.headers.getSetCookie().some((c) => c.startsWith("flowlens_session="))).toBe(false);
    const pageWrong = await loginForm(user.email, "not-the-password-1");
    expect(pageWrong.status).toBe(401);
    expect(pageWrong.data).toEqual({ error: MESSAGES.wrongCredentials, email: user.email });

    // No login took place: every attempt counts as a failure in the throttle.
    const attempts = await db().select().from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(attempts).toHaveLength(4);
    expect(attempts.every((a) => !a.succeeded)).toBe(true);
  });

  it("the contact link: the support address when set, else the style's Contact footer link, else the imprint", async () => {
    const user = await makeUser();
    expect(await accountContactLink(db(), user.id, "help@operator.example")).toEqual({
      href: "mailto:help@operator.example",
      label: "help@operator.example",
    });
    expect(await accountContactLink(db(), user.id, undefined)).toEqual({ href: "/imprint", label: "Imprint" });
    const [style] = await db()
      .insert(styles)
      .values({ name: `Contact style ${user.id}`, footerLinks: [{ id: 1, link: "https://operator.example/contact", text: "Contact" }] })
      .returning({ id: styles.id });
    await db().update(users).set({ customStyleId: style.id }).where(eq(users.id, user.id));
    expect(await accountContactLink(db(), user.id, undefined)).toEqual({ href: "https://operator.example/contact", label: "Contact" });
  });
});

describe("auth/user auth_token", () => {
  it("is null without an API token, then names the own newest token — never the token, its hash, or another user's", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const cookie = await logIn(owner.id);
    const me = async () => (await run(userApi.loader, getRequest("/auth/user/", cookie))).data as Record<string, unknown>;
    expect((await me()).auth_token).toBeNull();

    await createApiToken(db(), other.id, "other's token");
    expect((await me()).auth_token).toBeNull();

    const first = await createApiToken(db(), owner.id, "first");
    const second = await createApiToken(db(), owner.id, "second");
    const body = await me();
    expect(body.auth_token).toEqual({ id: second.id, name: "second", created_at: expect.any(String), last_used_at: null });
    const text = JSON.stringify(body);
    const [stored] = await db().select().from(apiTokens).where(eq(apiTokens.id, second.id));
    for (const secret of [first.token, second.token, stored.tokenHash]) expect(text).not.toContain(secret);
  });
});

describe("username check", () => {
  afterEach(() => setSelfSignup(false));

  it("tells whether an address is valid and free while self-signup is on", async () => {
    await setSelfSignup(true);
    const user = await makeUser();
    await db().insert(userRequests).values({ email: "pending.check@flowlens.test", firstName: "P", lastName: "C" });
    const check = async (username: string) => (await run(usernameCheckApi.action, jsonRequest("/auth/usernamecheck/", { username }))).data;
    expect(await check(user.email.toUpperCase())).toEqual({ available: false, valid: true });
    expect(await check("pending.check@flowlens.test")).toEqual({ available: false, valid: true });
    expect(await check("free.address@flowlens.test")).toEqual({ available: true, valid: true });
    expect(await check("no-at-sign")).toEqual({ available: false, valid: false });
    expect(await check("user@example.c")).toEqual({ available: false, valid: false });
    const missing = await run(usernameCheckApi.action, jsonRequest("/auth/usernamecheck/", {}));
    expect(missing.status).toBe(400);
    expect((await run(usernameCheckApi.action, jsonRequest("/auth/usernamecheck/", { username: "a@b.cd" }, { csrf: false }))).status).toBe(
      403,
    );
  });

  it("reveals nothing to anonymous callers while self-signup is off; account managers may always ask", async () => {
    await setSelfSignup(false);
    const user = await makeUser();
    const anonymous = await run(usernameCheckApi.action, jsonRequest("/auth/usernamecheck/", { username: user.email }));
    expect(anonymous.status).toBe(403);
    expect(anonymous.data).not.toHaveProperty("available");
    const plain = await makeUser();
    const asPlainUser = await run(
      usernameCheckApi.action,
      jsonRequest("/auth/usernamecheck/", { username: user.email }, { cookie: await logIn(plain.id) }),
    );
    expect(asPlainUser.status).toBe(403);
    const manager = await makeUser({ permissions: ["VIEW_USERS"], staff: true });
    const asManager = await run(
      usernameCheckApi.action,
      jsonRequest("/auth/usernamecheck/", { username: user.email }, { cookie: await logIn(manager.id) }),
    );
    expect(asManager.status).toBe(200);
    expect(asManager.data).toEqual({ available: false, valid: true });
  });

  it("limits anonymous checks per client while self-signup is on", async () => {
    await setSelfSignup(true);
    await expectPerClientLimit(
      usernameCheckApi,
      "/auth/usernamecheck/",
      { username: "walk@flowlens.test" },
      ANONYMOUS_LIMITS.usernameCheck.perAddress,
    );
  });
});

describe("deleting one's own account", () => {
  it("needs the right password, then removes the account and its personal data and ends the session", async () => {
    const user = await makeUser();
    const cookie = await logIn(user.id);
    await db().insert(styles).values({ name: "mine", ownerUserId: user.id });
    await db().insert(loginAttempts).values({ email: user.email, clientAddress: "192.0.2.1", succeeded: true });
    await db().insert(supportMessages).values({ userId: user.id, type: "HELP", message: "hello" });

    const wrong = await run(deleteApi.action, jsonRequest("/auth/delete/", { password: "not-my-password" }, { cookie }));
    expect(wrong.status).toBe(400);
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);

    const anonymous = await run(deleteApi.action, jsonRequest("/auth/delete/", { password: user.password }));
    expect(anonymous.status).toBe(403);

    const ok = await run(deleteApi.action, jsonRequest("/auth/delete/", { password: user.password }, { cookie }));
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("flowlens_session=;"))).toBe(true);
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(styles).where(eq(styles.ownerUserId, user.id))).toHaveLength(0);
    expect(await db().select().from(loginAttempts).where(eq(loginAttempts.email, user.email))).toHaveLength(0);
    const orphaned = await db().select().from(supportMessages).where(eq(supportMessages.message, "hello"));
    expect(orphaned[0].userId).toBeNull();
    expect((await run(appLayout.loader, getRequest("/flow-explorer", cookie))).location).toMatch(/^\/login/);
  });

  it("keeps the last superuser", async () => {
    // Make sure no other active superuser exists in this file's database.
    await db().update(users).set({ isSuperuser: false }).where(eq(users.isSuperuser, true));
    const first = await makeUser({ superuser: true });
    const refused = await run(
      deleteApi.action,
      jsonRequest("/auth/delete/", { password: first.password }, { cookie: await logIn(first.id) }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.exception_code).toBe("last_superuser");
    expect(await db().select().from(users).where(eq(users.id, first.id))).toHaveLength(1);

    await makeUser({ superuser: true });
    const allowed = await run(
      deleteApi.action,
      jsonRequest("/auth/delete/", { password: first.password }, { cookie: await logIn(first.id) }),
    );
    expect(allowed.status).toBe(200);
    expect(await db().select().from(users).where(eq(users.id, first.id))).toHaveLength(0);
  });
});

describe("support messages", () => {
  beforeEach(() => {
    delete process.env.SUPPORT_EMAIL;
  });
  afterEach(() => {
    delete process.env.SUPPORT_EMAIL;
  });

  it("stores the message, and mails SUPPORT_EMAIL when it is set", async () => {
    const user = await makeUser();
    const cookie = await logIn(user.id);
    const stored = await run(
      supportApi.action,
      jsonRequest("/auth/support_message/", { type: "BUG", message: "The chart is empty." }, { cookie }),
    );
    expect(stored.status).toBe(201);
    expect(stored.data).toMatchObject({ type: "BUG", message: "The chart is empty." });
    expect(await outboxTo("support@flowlens.test")).toHaveLength(0);

    process.env.SUPPORT_EMAIL = "support@flowlens.test";
    const mailed = await run(
      supportApi.action,
      jsonRequest("/auth/support_message/", { type: "FEATURE_REQUEST", message: "Dark mode" }, { cookie }),
    );
    expect(mailed.status).toBe(201);
    const [mail] = await outboxTo("support@flowlens.test");
    expect(mail.subject).toContain("FEATURE_REQUEST");
    expect(mail.body).toContain(user.email);
    expect(mail.body).toContain("Dark mode");
    const rows = await db().select().from(supportMessages).where(eq(supportMessages.userId, user.id));
    expect(rows.map((r) => r.type).sort()).toEqual(["BUG", "FEATURE_REQUEST"]);
  });

  it("refuses unknown types, empty messages and anonymous callers", async () => {
    const user = await makeUser();
    const cookie = await logIn(user.id);
    expect(
      (await run(supportApi.action, jsonRequest("/auth/support_message/", { type: "COMPLAINT", message: "x" }, { cookie }))).status,
    ).toBe(400);
    expect((await run(supportApi.action, jsonRequest("/auth/support_message/", { type: "HELP", message: "   " }, { cookie }))).status).toBe(
      400,
    );
    expect((await run(supportApi.action, jsonRequest("/auth/support_message/", { type: "HELP", message: "hi" }))).status).toBe(403);
  });
});

describe("mailer", () => {
  afterEach(() => {
    delete process.env.SMTP_URL;
  });

  it("without SMTP_URL keeps the message in the outbox only", async () => {
    const result = await sendMail(db(), { to: "outbox-only@flowlens.test", subject: "S", text: "T" });
    expect(result.status).toBe("queued");
    const [row] = await outboxTo("outbox-only@flowlens.test");
    expect(row).toMatchObject({ subject: "S", body: "T", sentAt: null, error: null });
  });

  it("records an SMTP failure instead of throwing", async () => {
    const port = await closedPort();
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    const result = await sendMail(db(), { to: "unreachable@flowlens.test", subject: "S", text: "T" });
    expect(result.status).toBe("failed");
    const [row] = await outboxTo("unreachable@flowlens.test");
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it("sends through SMTP_URL and records sent_at", async () => {
    const smtp = await fakeSmtpServer();
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    process.env.SMTP_FROM = "flowlens <noreply@flowlens.test>";
    try {
      const result = await sendMail(db(), { to: "delivered@flowlens.test", subject: "Hello", text: "Body line" });
      expect(result.status).toBe("sent");
      const [row] = await outboxTo("delivered@flowlens.test");
      expect(row.sentAt).toBeInstanceOf(Date);
      expect(row.error).toBeNull();
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0].to).toEqual(["<delivered@flowlens.test>"]);
      expect(smtp.messages[0].from).toBe("<noreply@flowlens.test>");
      expect(smtp.messages[0].data).toContain("Subject: Hello");
      expect(smtp.messages[0].data).toContain("Body line");
    } finally {
      delete process.env.SMTP_FROM;
      await smtp.close();
    }
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Just enough of an SMTP server to accept one plain-text message per transaction. */
async function fakeSmtpServer() {
  const messages: { from: string; to: string[]; data: string }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.setEncoding("utf8");
    let buffer = "";
    let current = { from: "", to: [] as string[], data: "" };
    let inData = false;
    socket.write("220 fake.smtp ESMTP\r\n");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let index: number;
      while ((index = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            messages.push(current);
            current = { from: "", to: [], data: "" };
            socket.write("250 2.0.0 queued\r\n");
          } else {
            current.data += (line.startsWith("..") ? line.slice(1) : line) + "\n";
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 fake.smtp\r\n");
        else if (verb === "MAIL") {
          current.from = line.replace(/^MAIL FROM:\s*/i, "").split(" ")[0];
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") {
          current.to.push(line.replace(/^RCPT TO:\s*/i, "").split(" ")[0]);
          socket.write("250 2.1.5 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
        } else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
