/**
 * User administration through the Users screen (/manage-users) and auth/users/: every action for
 * every kind of caller (superuser, staff, VIEW_USERS only, an ordinary user, a delegated user), the
 * lock-out and last-superuser rules, the grant rules, audit entries with the record before and
 * after, what deactivating and deleting end (sessions, API tokens, jobs), resetting 2FA, and the
 * invitation: mailed, single-use, expired after 72 hours (a moved clock, no waiting).
 */
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  apiTokens,
  auditLog,
  delegationRestrictions,
  groupPermissions,
  groups,
  netcommandJobs,
  notifications,
  outboxEmails,
  recoveryCodes,
  sessions,
  totpDevices,
  userFeatureFlags,
  userGroups,
  userPermissions,
  userRequests,
  users,
} from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as usersApi from "~/routes/auth.users";
import * as userApi from "~/routes/auth.users.$id";
import * as decisionApi from "~/routes/auth.usermanagement.user_requests.$id.$decision";
import * as screen from "~/routes/_app.manage-users";
import { EMAIL_CHANGE_TEXTS, JOB_CANCELLED_TEXT, GRANT_TEXTS } from "~/server/auth/account-admin.server";
import { EMAIL_CHANGED_SUBJECT } from "~/server/auth/email-change-mail.server";
import { checkResetToken, confirmReset, issueResetToken, resetMailsSettled } from "~/server/auth/password-reset.server";
import { listAudit } from "~/server/audit/audit-log.server";
import { ACCOUNT_CHANGE_NOTICES } from "~/server/notifications/notifications.server";
import { createUser, deleteUser, updateUser, USER_ADMIN_TEXTS, UserAdminError } from "~/server/auth/user-admin.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, jsonRequest, ORIGIN, runRoute, sessionCookie, withCsrf, type Outcome } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const db = () => stores.pg.db;
const saved: Record<string, string | undefined> = {};

type Role = "superuser" | "staff" | "viewer" | "ordinary" | "delegated";
const ROLES: Role[] = ["superuser", "staff", "viewer", "ordinary", "delegated"];
const id: Record<Role, number> = { superuser: 0, staff: 0, viewer: 0, ordinary: 0, delegated: 0 };
let serial = 0;

async function account(options: {
  email?: string;
  staff?: boolean;
  superuser?: boolean;
  delegated?: boolean;
  permissions?: string[];
  password?: boolean;
}): Promise<number> {
  serial += 1;
  const [row] = await db()
    .insert(users)
    .values({
      email: options.email ?? `target${serial}@users.test`,
      firstName: `First${serial}`,
      lastName: `Last${serial}`,
      passwordHash: options.password === false ? null : "!unusable",
      isStaff: options.staff ?? false,
      isSuperuser: options.superuser ?? false,
      isDelegated: options.delegated ?? false,
      hasConsented: true,
      consentedAt: new Date(),
    })
    .returning({ id: users.id });
  if (options.permissions?.length)
    await db()
      .insert(userPermissions)
      .values(options.permissions.map((permission) => ({ userId: row.id, permission })));
  if (options.delegated) await db().insert(delegationRestrictions).values({ userId: row.id });
  return row.id;
}

/** A fresh session each time: ending sessions must not leak into later calls. */
const cookie = (role: Role) => sessionCookie(stores, id[role]);
const PATH = "/manage-users";
const post = async (role: Role, fields: Record<string, string>, path = PATH) =>
  runRoute(screen.action, formRequest(path, fields, await cookie(role)));
const get = async (role: Role, query = "") => runRoute(screen.loader, getRequest(`${PATH}${query}`, await cookie(role)));
const call = async (role: Role, module: typeof usersApi | typeof userApi, path: string, method: string, body?: unknown, params = {}) => {
  const c = await cookie(role);
  return runRoute(
    method === "GET" ? module.loader : module.action,
    method === "GET" ? getRequest(path, c) : jsonRequest(path, body, { cookie: c, method }),
    params,
  );
};
const row = async (userId: number) => (await db().select().from(users).where(eq(users.id, userId)))[0];

beforeAll(async () => {
  for (const key of ["SMTP_URL", "PUBLIC_URL"]) {
    saved[key] = process.env[key];
    delete process.env[key];
  }
  stores = await openTestStores();
  useServicesForTests(stores);
  id.superuser = await account({ email: "root@users.test", superuser: true, staff: true });
  id.staff = await account({ email: "staff@users.test", staff: true, permissions: ["VIEW_USERS", "API_FLOWS_4D", "CONTROL_PLANE"] });
  id.viewer = await account({ email: "viewer@users.test", permissions: ["VIEW_USERS", "API_FLOWS_4D", "RESET_USER_2FA"] });
  id.ordinary = await account({ email: "ordinary@users.test", permissions: ["API_FLOWS_4D"] });
  id.delegated = await account({ email: "delegated@users.test", delegated: true, permissions: ["API_FLOWS_4D", "VIEW_USERS"] });
}, 180_000);

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await stores?.dispose();
}, 60_000);

/**
 * Callers without VIEW_USERS are sent to their landing route. A delegated account granted
 * VIEW_USERS is one of them: its effective permissions keep only the delegable ones, so it never
 * reaches the user administration (whose own refusal of delegated callers stays as a second wall).
 */
function expectOutsider(role: "ordinary" | "delegated", out: Outcome) {
  expect(out.status).toBe(302);
  expect(out.location).not.toContain("/manage-users");
}

// ---------------------------------------------------------------------------------------------------------------

describe("screen: who may do what", () => {
  it("lists for VIEW_USERS holders only; the audit log only for staff and superusers", async () => {
    for (const role of ["ordinary", "delegated"] as const) expectOutsider(role, await get(role));
    for (const role of ["viewer", "staff", "superuser"] as const) {
      const page = await get(role);
      expect(page.status).toBe(200);
      expect(page.data.rows.map((r: { email: string }) => r.email)).toContain("root@users.test");
      expect(page.data.mayAdminister).toBe(role !== "viewer");
    }
    const viewerAudit = await get("viewer", "?view=audit");
    expect(viewerAudit.data.view).toBe("accounts");
    expect(viewerAudit.data.audit).toBeNull();
    expect(viewerAudit.data.notices).toContain("The audit log is for staff and superusers.");
    const staffAudit = await get("staff", "?view=audit");
    expect(staffAudit.data.view).toBe("audit");
    expect(staffAudit.data.audit).not.toBeNull();
  });

  /** Per intent: a fresh target for each caller; refused callers leave it as it was. */
  const CASES: {
    intent: string;
    target: () => Promise<number>;
    ok: (target: number) => string;
    check: (target: number) => Promise<void>;
    fields?: (target: number) => Record<string, string>;
    /** Roles that succeed (default staff and superuser). */
    allowed?: Role[];
  }[] = [
    {
      intent: "update",
      target: () => account({ permissions: ["API_FLOWS_4D"] }),
      fields: (t) => ({
        id: String(t),
        email: `renamed${t}@users.test`,
        first_name: "Re",
        last_name: "Named",
        permissions: "API_FLOWS_4D",
      }),
      ok: (t) => `/manage-users?user=${t}&saved=email-changed`,
      check: async (t) => expect((await row(t)).email).toBe(`renamed${t}@users.test`),
    },
    {
      intent: "deactivate",
      target: () => account({}),
      ok: (t) => `/manage-users?user=${t}&saved=deactivated`,
      check: async (t) => expect((await row(t)).isActive).toBe(false),
    },
    {
      intent: "reactivate",
      target: async () => {
        const t = await account({});
        await db().update(users).set({ isActive: false }).where(eq(users.id, t));
        return t;
      },
      ok: (t) => `/manage-users?user=${t}&saved=reactivated`,
      check: async (t) => expect((await row(t)).isActive).toBe(true),
    },
    {
      intent: "delete",
      target: () => account({}),
      ok: () => "/manage-users?saved=deleted",
      check: async (t) => expect(await row(t)).toBeUndefined(),
    },
    {
      intent: "end-sessions",
      target: async () => {
        const t = await account({});
        await sessionCookie(stores, t);
        return t;
      },
      ok: (t) => `/manage-users?user=${t}&saved=sessions-ended`,
      check: async (t) =>
        expect(
          await db()
            .select()
            .from(sessions)
            .where(and(eq(sessions.userId, t), isNull(sessions.revokedAt))),
        ).toHaveLength(0),
    },
    {
      intent: "resend-invitation",
      target: () => account({ password: false }),
      ok: (t) => `/manage-users?user=${t}&saved=invited`,
      check: async (t) => {
        const target = await row(t);
        expect((await db().select().from(outboxEmails).where(eq(outboxEmails.to, target.email))).length).toBeGreaterThan(0);
      },
    },
    {
      intent: "reset-2fa",
      target: async () => {
        const t = await account({});
        await db().insert(totpDevices).values({ userId: t, name: "phone", secret: "JBSWY3DPEHPK3PXP", confirmed: true });
        return t;
      },
      // RESET_USER_2FA: the superuser holds it, the viewer was given it, the staff account not.
      allowed: ["superuser", "viewer"],
      ok: (t) => `/manage-users?user=${t}&saved=2fa-reset`,
      check: async (t) => expect(await db().select().from(totpDevices).where(eq(totpDevices.userId, t))).toHaveLength(0),
    },
  ];

  for (const c of CASES) {
    it(`${c.intent}: ${(c.allowed ?? ["staff", "superuser"]).join(" and ")} may, the others are refused`, async () => {
      const allowed = c.allowed ?? ["staff", "superuser"];
      for (const role of ROLES) {
        const t = await c.target();
        const before = await row(t);
        const out = await post(role, { intent: c.intent, id: String(t), ...(c.fields?.(t) ?? {}) }, `${PATH}?user=${t}`);
        if (allowed.includes(role)) {
          expect(out.location, `${role} ${c.intent}`).toBe(c.ok(t));
          await c.check(t);
        } else if (role === "ordinary" || role === "delegated") {
          expectOutsider(role, out);
          expect(await row(t)).toEqual(before);
        } else {
          expect(out.status, `${role} ${c.intent}`).toBe(403);
          expect(out.data.intent).toBe(c.intent);
          expect(out.data.errors[""]).toMatch(c.intent === "reset-2fa" ? /RESET_USER_2FA/ : /Only staff and superusers/);
          expect(await row(t)).toEqual(before);
        }
      }
    });
  }

  it("create: staff and superusers add accounts; the others are refused", async () => {
    for (const role of ROLES) {
      const email = `new-${role}@users.test`;
      const out = await post(role, { intent: "create", email, first_name: "New", last_name: role }, `${PATH}?new=1`);
      const [made] = await db().select().from(users).where(eq(users.email, email));
      if (role === "staff" || role === "superuser") {
        expect(out.location).toBe(`/manage-users?user=${made.id}&saved=created`);
        expect(made).toMatchObject({ passwordHash: null, hasConsented: false, isActive: true });
      } else {
        if (role === "viewer") expect(out.status).toBe(403);
        else expectOutsider(role, out);
        expect(made).toBeUndefined();
      }
    }
  });

  it("accept and reject applicant requests: staff and superusers; the applicant is mailed either way", async () => {
    for (const decision of ["accept", "reject"] as const) {
      for (const role of ROLES) {
        const email = `applicant-${decision}-${role}@users.test`;
        const [request] = await db().insert(userRequests).values({ email, firstName: "App", lastName: "Licant" }).returning();
        const out = await post(role, { intent: `${decision}-request`, id: String(request.id) }, `${PATH}?view=requests`);
        const [after] = await db().select().from(userRequests).where(eq(userRequests.id, request.id));
        await resetMailsSettled();
        const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.to, email));
        if (role === "staff" || role === "superuser") {
          expect(out.location).toBe(`/manage-users?view=requests&saved=request-${decision}ed`);
          expect(after.status).toBe(decision === "accept" ? "ACCEPTED" : "REJECTED");
          expect(mails).toHaveLength(1);
          expect(mails[0].subject).toBe(decision === "accept" ? "Your flowlens account" : "Your flowlens account request");
          const [entry] = await db()
            .select()
            .from(auditLog)
            .where(and(eq(auditLog.targetType, "user_request"), eq(auditLog.targetId, String(request.id))));
          expect(entry).toMatchObject({ action: `user_request.${decision}`, actorUserId: id[role], targetLabel: email });
          expect(entry.before).toMatchObject({ status: "PENDING" });
          expect(entry.after).toMatchObject({ status: decision === "accept" ? "ACCEPTED" : "REJECTED" });
        } else {
          if (role === "viewer") {
            expect(out.status).toBe(403);
            expect(out.data.errors[""]).toBe(
              `The request was ${decision === "accept" ? "not accepted" : "not rejected"}: ${USER_ADMIN_TEXTS.staffOnly}`,
            );
          } else expectOutsider(role, out);
          expect(after.status).toBe("PENDING");
          expect(mails).toHaveLength(0);
        }
      }
    }
  });

  it("an unknown intent, a missing account and a request already decided each have their own answer", async () => {
    const unknown = await post("staff", { intent: "promote", id: "1" });
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors[""]).toBe("Unknown action.");
    const missing = await post("staff", { intent: "deactivate", id: "99999999" });
    expect(missing.status).toBe(404);
    expect(missing.data.errors[""]).toBe(`The account was not deactivated: ${USER_ADMIN_TEXTS.notFound}`);
    const [request] = await db()
      .insert(userRequests)
      .values({ email: "twice@users.test", firstName: "T", lastName: "W", status: "REJECTED" })
      .returning();
    const again = await post("staff", { intent: "accept-request", id: String(request.id) });
    expect(again.status).toBe(409);
    const active = await account({});
    const already = await post("staff", { intent: "reactivate", id: String(active) });
    expect(already.status).toBe(409);
    expect(already.data.errors[""]).toBe(`The account was not reactivated: ${USER_ADMIN_TEXTS.alreadyActive}`);
  });

  it("a refused edit answers 400 with the message next to the field and the values as typed", async () => {
    const t = await account({ permissions: ["API_FLOWS_4D"] });
    const out = await runRoute(
      screen.action,
      new Request(`${ORIGIN}${PATH}?user=${t}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(await cookie("staff")) },
        body: new URLSearchParams([
          ["csrfmiddlewaretoken", CSRF_TOKEN],
          ["intent", "update"],
          ["id", String(t)],
          ["email", "broken@"],
          ["first_name", "Typed"],
          ["permissions", "API_FLOWS_4D"],
          ["permissions", "CONTROL_PLANE"],
        ]).toString(),
      }),
    );
    expect(out.status).toBe(400);
    expect(out.data.errors).toMatchObject({ "": `The changes were not saved: ${MESSAGES.userCreation}`, email: MESSAGES.emailFormat });
    expect(out.data.values).toMatchObject({ first_name: "Typed", email: "broken@", permissions: "API_FLOWS_4D\nCONTROL_PLANE" });
    expect((await row(t)).firstName).not.toBe("Typed");
  });

  it("the delete button asks first: the confirmation is a page of its own (no JavaScript needed)", async () => {
    const t = await account({});
    const page = await get("staff", `?user=${t}&confirm=delete`);
    expect(page.data.selected.confirmDelete).toBe(true);
    expect((await get("staff", `?user=${t}`)).data.selected.confirmDelete).toBe(false);
    expect((await get("viewer", `?user=${t}&confirm=delete`)).data.selected.confirmDelete).toBe(false);
  });

  it("search, order and pages come from the URL", async () => {
    for (let i = 0; i < 30; i++) await account({ email: `paged${String(i).padStart(2, "0")}@paging.test` });
    const first = await get("viewer", "?q=PAGING.test&sort=-email");
    expect(first.data.count).toBe(30);
    expect(first.data.pages).toBe(2);
    expect(first.data.rows[0].email).toBe("paged29@paging.test");
    const second = await get("viewer", "?q=paging.test&sort=-email&page=2");
    expect(second.data.rows.map((r: { email: string }) => r.email)).toEqual([
      "paged04@paging.test",
      "paged03@paging.test",
      "paged02@paging.test",
      "paged01@paging.test",
      "paged00@paging.test",
    ]);
    const bad = await get("viewer", "?sort=password_hash&page=x");
    expect(bad.status).toBe(200);
    expect(bad.data.notices).toHaveLength(2);
    const wildcard = await get("viewer", "?q=%25");
    expect(wildcard.data.count).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("JSON: auth/users/", () => {
  it("GET lists for VIEW_USERS holders, with search, order and pages, never a password hash", async () => {
    for (const role of ["ordinary", "delegated"] as const) {
      expect((await call(role, usersApi, "/auth/users/", "GET")).status).toBe(403);
    }
    for (const role of ["viewer", "staff", "superuser"] as const) {
      const out = await call(role, usersApi, "/auth/users/?search=root&sort=-created&page=1&page_size=5", "GET");
      expect(out.status).toBe(200);
      expect(out.data).toMatchObject({ count: 1, page: 1, page_size: 5 });
      expect(out.data.results[0]).toMatchObject({ email: "root@users.test", is_superuser: true, password_set: true });
      expect(JSON.stringify(out.data)).not.toMatch(/password_hash|passwordHash|unusable/);
    }
    expect((await call("viewer", usersApi, "/auth/users/?sort=password", "GET")).status).toBe(400);
    expect((await call("viewer", usersApi, "/auth/users/?page=0", "GET")).status).toBe(400);
  });

  it("POST creates for staff and superusers (201, invitation mailed); 403 for the others; the spec's messages for a bad or taken address", async () => {
    for (const role of ROLES) {
      const email = `api-new-${role}@users.test`;
      const out = await call(role, usersApi, "/auth/users/", "POST", { email, first_name: "Api", permissions: ["API_FLOWS_4D"] });
      expect(out.status, role).toBe(role === "staff" || role === "superuser" ? 201 : 403);
      if (out.status === 201) {
        expect(out.data).toMatchObject({ email, permissions: ["API_FLOWS_4D"], password_set: false, is_active: true });
        const [mail] = await db().select().from(outboxEmails).where(eq(outboxEmails.to, email));
        expect(mail.subject).toBe("You are invited to flowlens");
      }
    }
    const bad = await call("staff", usersApi, "/auth/users/", "POST", { email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toBe(MESSAGES.userCreation);
    expect(bad.data.errors).toContainEqual({ field: "email", message: MESSAGES.emailFormat });
    const taken = await call("staff", usersApi, "/auth/users/", "POST", { email: "ROOT@users.test" });
    expect(taken.status).toBe(400);
    expect(taken.data.errors).toContainEqual({ field: "email", message: MESSAGES.userCreation });
    const unknownGroup = await call("superuser", usersApi, "/auth/users/", "POST", {
      email: "grouped@users.test",
      groups: ["no such group"],
    });
    expect(unknownGroup.status).toBe(400);
    expect(unknownGroup.data.errors).toContainEqual({ field: "groups", message: USER_ADMIN_TEXTS.unknownGroup("no such group") });
  });

  it("PUT and DELETE: staff and superusers; 403 for the others; 404 for no account; 409 for delegated accounts", async () => {
    for (const role of ROLES) {
      const t = await account({});
      const put = await call(role, userApi, `/auth/users/${t}/`, "PUT", { last_name: "Changed", is_active: false }, { id: String(t) });
      const del = await call(role, userApi, `/auth/users/${t}/`, "DELETE", undefined, { id: String(t) });
      const admin = role === "staff" || role === "superuser";
      expect(put.status, role).toBe(admin ? 200 : 403);
      expect(del.status, role).toBe(admin ? 200 : 403);
      if (admin) {
        expect(put.data).toMatchObject({ last_name: "Changed", is_active: false });
        expect(del.data).toEqual({ deleted: t });
        expect(await row(t)).toBeUndefined();
      } else expect((await row(t)).lastName).not.toBe("Changed");
    }
    expect((await call("staff", userApi, "/auth/users/99999999/", "PUT", {}, { id: "99999999" })).status).toBe(404);
    expect((await call("staff", userApi, "/auth/users/abc/", "DELETE", undefined, { id: "abc" })).status).toBe(404);
    expect((await call("viewer", userApi, "/auth/users/abc/", "DELETE", undefined, { id: "abc" })).status).toBe(403);
    const delegated = await account({ delegated: true });
    for (const method of ["PUT", "DELETE"]) {
      const out = await call(
        "superuser",
        userApi,
        `/auth/users/${delegated}/`,
        method,
        method === "PUT" ? { first_name: "X" } : undefined,
        { id: String(delegated) },
      );
      expect(out.status).toBe(409);
      expect(out.data.detail).toBe(USER_ADMIN_TEXTS.delegated);
    }
    expect(await row(delegated)).toMatchObject({ firstName: expect.stringMatching(/^First/) });
  });

  it("the applicant decision calls need staff or superuser on top of VIEW_USERS", async () => {
    const [request] = await db()
      .insert(userRequests)
      .values({ email: "api-applicant@users.test", firstName: "A", lastName: "B" })
      .returning();
    const put = async (role: Role) =>
      runRoute(
        decisionApi.action,
        jsonRequest(`/auth/usermanagement/user_requests/${request.id}/accept/`, undefined, { cookie: await cookie(role), method: "PUT" }),
        {
          id: String(request.id),
          decision: "accept",
        },
      );
    for (const role of ["ordinary", "delegated", "viewer"] as const) expect((await put(role)).status).toBe(403);
    const ok = await put("staff");
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ status: "ACCEPTED" });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("rules", () => {
  it("nobody locks themself out", async () => {
    const self = await post("superuser", { intent: "delete", id: String(id.superuser) });
    expect(self.status).toBe(409);
    expect(self.data.errors[""]).toBe(`The user was not deleted: ${USER_ADMIN_TEXTS.selfDelete}`);
    const deactivate = await post("staff", { intent: "deactivate", id: String(id.staff) });
    expect(deactivate.status).toBe(409);
    expect(deactivate.data.errors[""]).toContain(USER_ADMIN_TEXTS.selfDeactivate);
    // The superuser's own form without the superuser box.
    const demote = await post("superuser", { intent: "update", id: String(id.superuser), email: "root@users.test", is_staff: "on" });
    expect(demote.status).toBe(409);
    expect(demote.data.errors[""]).toContain(USER_ADMIN_TEXTS.selfSuperuser);
    const unstaff = await post("superuser", { intent: "update", id: String(id.superuser), email: "root@users.test", is_superuser: "on" });
    expect(unstaff.status).toBe(409);
    expect(unstaff.data.errors[""]).toContain(USER_ADMIN_TEXTS.selfStaff);
    expect(await row(id.superuser)).toMatchObject({ isActive: true, isSuperuser: true, isStaff: true });
    expect(await row(id.staff)).toMatchObject({ isActive: true, isStaff: true });
  });

  it("only superusers touch a superuser's account", async () => {
    const other = await account({ superuser: true, staff: true });
    for (const intent of ["deactivate", "delete", "end-sessions"]) {
      const out = await post("staff", { intent, id: String(other) });
      expect(out.status, intent).toBe(403);
      expect(out.data.errors[""]).toContain(USER_ADMIN_TEXTS.superuserTarget);
    }
    expect((await get("staff", `?user=${other}`)).data.selected.editable).toBe(false);
    const ok = await post("superuser", { intent: "deactivate", id: String(other) });
    expect(ok.location).toBe(`/manage-users?user=${other}&saved=deactivated`);
  });

  it("the last active superuser is never deleted, deactivated or demoted (checked in the transaction)", async () => {
    // A second superuser whose flag is taken away while their session still says superuser: the
    // change they then make would leave no active superuser and is refused.
    const second = await account({ email: "second-root@users.test", superuser: true, staff: true });
    const stale = (await loadUserContext(db(), second))!;
    await db().update(users).set({ isSuperuser: false }).where(eq(users.id, second));
    for (const patch of [{ is_active: false }, { is_superuser: false }]) {
      const refused = await updateUser(db(), stale, id.superuser, patch).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UserAdminError);
      expect((refused as UserAdminError).detail).toBe(USER_ADMIN_TEXTS.lastSuperuser);
    }
    await expect(deleteUser(db(), stale, id.superuser)).rejects.toMatchObject({ status: 409, detail: USER_ADMIN_TEXTS.lastSuperuser });
    expect(await row(id.superuser)).toMatchObject({ isActive: true, isSuperuser: true });
    await db().delete(users).where(eq(users.id, second));
  });

  it("nobody grants what they do not hold; only superusers make staff or superusers", async () => {
    const t = await account({ permissions: ["API_FLOWS_4D"] });
    const email = (await row(t)).email;
    const grant = await post("staff", { intent: "update", id: String(t), email, permissions: "RAW_NETWORK_ANALYZER" });
    expect(grant.status).toBe(403);
    expect(grant.data.errors[""]).toContain(GRANT_TEXTS.permissionNotHeld("RAW_NETWORK_ANALYZER"));
    const staffFlag = await post("staff", { intent: "update", id: String(t), email, is_staff: "on" });
    expect(staffFlag.status).toBe(403);
    expect(staffFlag.data.errors[""]).toContain(GRANT_TEXTS.staffBySuperuser);
    const flag = await post("staff", { intent: "update", id: String(t), email, feature_flags: "rnaTagColumn" });
    expect(flag.status).toBe(403);
    expect(flag.data.errors[""]).toContain(GRANT_TEXTS.flagNotHeld("rnaTagColumn"));
    // What the staff account holds it may grant; what it lacks but the account had may stay.
    const [{ permission }] = await db().insert(userPermissions).values({ userId: t, permission: "RAW_NETWORK_ANALYZER" }).returning();
    expect(permission).toBe("RAW_NETWORK_ANALYZER");
    const ok = await runRoute(
      screen.action,
      new Request(`${ORIGIN}${PATH}?user=${t}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(await cookie("staff")) },
        body: new URLSearchParams([
          ["csrfmiddlewaretoken", CSRF_TOKEN],
          ["intent", "update"],
          ["id", String(t)],
          ["email", email],
          ["permissions", "RAW_NETWORK_ANALYZER"],
          ["permissions", "CONTROL_PLANE"],
        ]).toString(),
      }),
    );
    expect(ok.location).toBe(`/manage-users?user=${t}&saved=updated`);
    const held = (await db().select().from(userPermissions).where(eq(userPermissions.userId, t))).map((p) => p.permission).sort();
    expect(held).toEqual(["CONTROL_PLANE", "RAW_NETWORK_ANALYZER"]);
    const made = await post("superuser", { intent: "update", id: String(t), email, is_staff: "on" });
    expect(made.location).toBe(`/manage-users?user=${t}&saved=updated`);
    expect((await row(t)).isStaff).toBe(true);
  });

  it("joining a group grants what the group holds: only with those permissions", async () => {
    const [group] = await db().insert(groups).values({ name: "rna-analysts" }).returning();
    await db().insert(groupPermissions).values({ groupId: group.id, permission: "RAW_NETWORK_ANALYZER" });
    const t = await account({});
    const email = (await row(t)).email;
    const refused = await post("staff", { intent: "update", id: String(t), email, groups: "rna-analysts" });
    expect(refused.status).toBe(403);
    expect(refused.data.errors[""]).toContain(USER_ADMIN_TEXTS.groupGrants("rna-analysts", "RAW_NETWORK_ANALYZER"));
    expect(await db().select().from(userGroups).where(eq(userGroups.userId, t))).toHaveLength(0);
    const created = await post("staff", { intent: "create", email: "grouped-new@users.test", groups: "rna-analysts" });
    expect(created.status).toBe(403);
    const ok = await post("superuser", { intent: "update", id: String(t), email, groups: "rna-analysts" });
    expect(ok.location).toBe(`/manage-users?user=${t}&saved=updated`);
    // A membership the account has may stay when staff save it.
    const kept = await post("staff", { intent: "update", id: String(t), email, first_name: "Kept", groups: "rna-analysts" });
    expect(kept.location).toBe(`/manage-users?user=${t}&saved=updated`);
    expect(await db().select().from(userGroups).where(eq(userGroups.userId, t))).toHaveLength(1);
  });

  it("a new e-mail address for another account needs everything the account holds (its groups' and flags too); staff accounts: superusers", async () => {
    const [group] = await db().insert(groups).values({ name: "rna-by-group" }).returning();
    await db().insert(groupPermissions).values({ groupId: group.id, permission: "RAW_NETWORK_ANALYZER" });
    const own = await account({ permissions: ["RAW_NETWORK_ANALYZER"] });
    const viaGroup = await account({});
    await db().insert(userGroups).values({ userId: viaGroup, groupId: group.id });
    const flagged = await account({});
    await db().insert(userFeatureFlags).values({ userId: flagged, flag: "rnaTagColumn" });
    // Another staff account holding less than the caller: still a grant of staff.
    const colleague = await account({ staff: true, permissions: ["VIEW_USERS"] });
    // Each with the rest of its form as stored (the screen posts the whole form).
    const refusals: [number, Record<string, string>, string][] = [
      [own, { permissions: "RAW_NETWORK_ANALYZER" }, EMAIL_CHANGE_TEXTS.permissionNotHeld("RAW_NETWORK_ANALYZER")],
      [viaGroup, { groups: "rna-by-group" }, EMAIL_CHANGE_TEXTS.permissionNotHeld("RAW_NETWORK_ANALYZER")],
      [flagged, { feature_flags: "rnaTagColumn" }, EMAIL_CHANGE_TEXTS.flagNotHeld("rnaTagColumn")],
      [colleague, { is_staff: "on", permissions: "VIEW_USERS" }, EMAIL_CHANGE_TEXTS.staffBySuperuser],
    ];
    for (const [t, form, reason] of refusals) {
      const before = await row(t);
      const link = await issueResetToken(db(), t);
      await sessionCookie(stores, t);
      const panel = await get("staff", `?user=${t}`);
      expect(panel.data.selected.emailLocked, before.email).toBe(reason);
      const fields = { intent: "update", id: String(t), email: `taken-over-${t}@users.test`, ...form };
      const screenOut = await post("staff", fields, `${PATH}?user=${t}`);
      expect(screenOut.status, before.email).toBe(403);
      expect(screenOut.data.errors.email).toBe(reason);
      expect(screenOut.data.errors[""]).toContain(reason);
      const apiOut = await call("staff", userApi, `/auth/users/${t}/`, "PUT", { email: `taken-over-${t}@users.test` }, { id: String(t) });
      expect(apiOut.status, before.email).toBe(403);
      expect(apiOut.data.detail).toContain(reason);
      expect(await row(t)).toEqual(before);
      // Nothing ended, nobody mailed.
      expect(await checkResetToken(db(), link)).toMatchObject({ userId: t });
      expect(await db().select().from(outboxEmails).where(eq(outboxEmails.to, before.email))).toHaveLength(0);
    }
    // The other fields stay the staff account's to change; only the address is locked.
    const renamed = await post("staff", {
      intent: "update",
      id: String(own),
      email: (await row(own)).email,
      first_name: "Renamed",
      permissions: "RAW_NETWORK_ANALYZER",
    });
    expect(renamed.location).toBe(`/manage-users?user=${own}&saved=updated`);
    // A superuser holds everything.
    for (const t of [own, viaGroup, flagged, colleague]) {
      expect((await get("superuser", `?user=${t}`)).data.selected.emailLocked).toBeNull();
      const out = await call("superuser", userApi, `/auth/users/${t}/`, "PUT", { email: `moved-${t}@users.test` }, { id: String(t) });
      expect(out.status).toBe(200);
      expect(out.data.email).toBe(`moved-${t}@users.test`);
    }
  });

  it("a new e-mail address tells the old one, ends the account's sessions, API tokens and mailed links; the audit shows both addresses", async () => {
    const t = await account({ permissions: ["API_FLOWS_4D"] });
    const old = await row(t);
    const targetCookie = await sessionCookie(stores, t);
    await db()
      .insert(apiTokens)
      .values({ userId: t, tokenHash: `hash-email-${t}`, name: "ci" });
    const link = await issueResetToken(db(), t);
    const out = await post("staff", { intent: "update", id: String(t), email: `new-home-${t}@users.test` }, `${PATH}?user=${t}`);
    expect(out.location).toBe(`/manage-users?user=${t}&saved=email-changed`);
    expect((await get("staff", `?user=${t}&saved=email-changed`)).data.savedMessage).toMatch(/old address was told/);
    const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.to, old.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(EMAIL_CHANGED_SUBJECT);
    expect(mails[0].body).toContain("staff@users.test");
    expect(mails[0].body).toContain(`${old.email} no longer logs in`);
    expect(mails[0].body).not.toContain(`new-home-${t}@users.test`);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, t), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    expect(await db().select().from(apiTokens).where(eq(apiTokens.userId, t))).toHaveLength(0);
    expect(await checkResetToken(db(), link)).toBeNull();
    expect((await runRoute(screen.loader, getRequest(PATH, targetCookie))).location).toMatch(/^\/login/);
    const [entry] = (await listAudit(db(), { targetType: "user", targetId: t })).entries;
    expect(entry).toMatchObject({ action: "user.update", before: { email: old.email }, after: { email: `new-home-${t}@users.test` } });
    // Changing one's own address tells the old address too, and keeps one's sessions.
    const ownCookie = await cookie("superuser");
    const self = await call(
      "superuser",
      userApi,
      `/auth/users/${id.superuser}/`,
      "PUT",
      { email: "root2@users.test" },
      { id: String(id.superuser) },
    );
    expect(self.status).toBe(200);
    expect(await db().select().from(outboxEmails).where(eq(outboxEmails.to, "root@users.test"))).toHaveLength(1);
    expect((await runRoute(screen.loader, getRequest(PATH, ownCookie))).status).toBe(200);
    await db().update(users).set({ email: "root@users.test" }).where(eq(users.id, id.superuser));
  });

  it("every change is audited with the record before and after, never a password hash; permission changes notify the account", async () => {
    const t = await account({ permissions: ["API_FLOWS_4D"] });
    const email = (await row(t)).email;
    await post("staff", { intent: "update", id: String(t), email, first_name: "Audited", permissions: "CONTROL_PLANE" });
    await post("staff", { intent: "deactivate", id: String(t) });
    await post("staff", { intent: "reactivate", id: String(t) });
    const { entries } = await listAudit(db(), { targetType: "user", targetId: t });
    expect(entries.map((e) => e.action)).toEqual(["user.reactivate", "user.deactivate", "user.update"]);
    const update = entries[2];
    expect(update.actor_email).toBe("staff@users.test");
    expect(update.before).toMatchObject({ permissions: ["API_FLOWS_4D"], is_active: true });
    expect(update.after).toMatchObject({ permissions: ["CONTROL_PLANE"], first_name: "Audited" });
    expect(entries[1].before).toMatchObject({ is_active: true });
    expect(entries[1].after).toMatchObject({ is_active: false });
    expect(JSON.stringify(entries)).not.toMatch(/password|unusable|secret/i);
    const told = await db().select().from(notifications).where(eq(notifications.userId, t));
    expect(told.map((n) => n.title)).toEqual([ACCOUNT_CHANGE_NOTICES.accountChanged.title]);
    const page = await get("staff", "?view=audit");
    const shown = page.data.audit.entries.find(
      (e: { action: string; target: string }) => e.action === "Changed the user" && e.target === email,
    );
    expect(shown.changes).toContainEqual({ field: "Permissions", before: "Flow Explorer", after: "Control Plane" });
    expect(shown.at).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  });

  it("deactivating and deleting end the account's sessions, API tokens and unfinished jobs", async () => {
    for (const intent of ["deactivate", "delete"]) {
      const t = await account({});
      const targetCookie = await sessionCookie(stores, t);
      await db()
        .insert(apiTokens)
        .values({ userId: t, tokenHash: `hash-${intent}-${t}`, name: "ci" });
      const [job] = await db()
        .insert(netcommandJobs)
        .values({ queryType: "PingQuery", vantagePoint: "vp", targetAddress: "192.0.2.1", ownerUserId: t, clientAddress: "198.51.100.1" })
        .returning();
      expect((await runRoute(screen.loader, getRequest(PATH, targetCookie))).status).toBe(302);
      const out = await post("staff", { intent, id: String(t) });
      expect(out.status).toBe(302);
      expect(
        await db()
          .select()
          .from(sessions)
          .where(and(eq(sessions.userId, t), isNull(sessions.revokedAt))),
      ).toHaveLength(0);
      expect(await db().select().from(apiTokens).where(eq(apiTokens.userId, t))).toHaveLength(0);
      const [jobAfter] = await db().select().from(netcommandJobs).where(eq(netcommandJobs.id, job.id));
      if (intent === "deactivate") expect(jobAfter).toMatchObject({ state: "FAILURE", result: JOB_CANCELLED_TEXT });
      else expect(jobAfter).toBeUndefined();
      // The old session is logged out: the screen sends it to the login.
      const after = await runRoute(screen.loader, getRequest(PATH, targetCookie));
      expect(after.location).toMatch(/^\/login/);
    }
  });

  it("resetting 2FA removes the authenticators and recovery codes, ends the sessions and tells the account", async () => {
    const t = await account({});
    await db().insert(totpDevices).values({ userId: t, name: "phone", secret: "JBSWY3DPEHPK3PXP", confirmed: true });
    await db()
      .insert(recoveryCodes)
      .values([
        { userId: t, codeHash: "h1" },
        { userId: t, codeHash: "h2" },
      ]);
    await sessionCookie(stores, t);
    const out = await post("superuser", { intent: "reset-2fa", id: String(t) });
    expect(out.location).toBe(`/manage-users?user=${t}&saved=2fa-reset`);
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, t))).toHaveLength(0);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, t), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    const told = await db().select().from(notifications).where(eq(notifications.userId, t));
    expect(told.map((n) => n.title)).toEqual([ACCOUNT_CHANGE_NOTICES.twoFactorReset.title]);
    const [entry] = (await listAudit(db(), { targetType: "user", targetId: t })).entries;
    expect(entry).toMatchObject({ action: "user.reset_2fa", before: { two_factor_devices: 1, recovery_codes: 2 } });
    const own = await post("superuser", { intent: "reset-2fa", id: String(id.superuser) });
    expect(own.status).toBe(409);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("invitation", () => {
  const tokenOf = async (email: string) => {
    await resetMailsSettled();
    const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(outboxEmails.id);
    const match = /\/password-reset-confirm\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.body);
    return { mails, token: match![1] };
  };

  it("mails an invitation whose link works once", async () => {
    const out = await post("staff", { intent: "create", email: "Colleague@Users.test", first_name: "Col", last_name: "League" });
    expect(out.status).toBe(302);
    const { mails, token } = await tokenOf("colleague@users.test");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("You are invited to flowlens");
    expect(mails[0].body).toMatch(/First\d+ Last\d+ \(staff@users\.test\) has created a flowlens account for you/);
    expect(mails[0].body).toContain("within 72 hours");
    const [made] = await db().select().from(users).where(eq(users.email, "colleague@users.test"));
    expect(await confirmReset(db(), token, "a-good-long-password")).toEqual({ ok: true, userId: made.id });
    expect((await confirmReset(db(), token, "another-long-password")).ok).toBe(false);
    const created = (await listAudit(db(), { targetType: "user", targetId: made.id })).entries;
    expect(created.map((e) => e.action)).toEqual(["user.create"]);
    expect(created[0].before).toBeNull();
    expect(created[0].after).toMatchObject({ email: "colleague@users.test", first_name: "Col" });
    // Chosen: no invitation to send any more.
    const resend = await post("staff", { intent: "resend-invitation", id: String(made.id) });
    expect(resend.status).toBe(409);
    expect(resend.data.errors[""]).toContain(USER_ADMIN_TEXTS.passwordAlreadySet);
  });

  it("expires after 72 hours; a new invitation replaces the old link", async () => {
    const staff = (await loadUserContext(db(), id.staff))!;
    const start = new Date();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const made = await createUser(db(), staff, { email: "later@users.test" });
    const { token } = await tokenOf("later@users.test");
    vi.setSystemTime(start.getTime() + 72 * 3_600_000 - 60_000);
    expect(await checkResetToken(db(), token)).toMatchObject({ userId: made.id });
    vi.setSystemTime(start.getTime() + 72 * 3_600_000 + 1_000);
    expect(await checkResetToken(db(), token)).toBeNull();
    vi.useRealTimers();
    const resend = await post("staff", { intent: "resend-invitation", id: String(made.id) });
    expect(resend.location).toBe(`/manage-users?user=${made.id}&saved=invited`);
    const { mails, token: fresh } = await tokenOf("later@users.test");
    expect(mails).toHaveLength(2);
    expect(fresh).not.toBe(token);
    expect(await checkResetToken(db(), fresh)).toMatchObject({ userId: made.id });
  });
});
