import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorReports, loginAttempts, notifications, userPermissions, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as errorReport from "~/routes/api.error_report";
import * as maxTimestamp from "~/routes/api.max_timestamp";
import * as tablesWithoutData from "~/routes/api.tables_without_data";
import * as version from "~/routes/api.version";
import * as override from "~/routes/auth.clickhouse_override";
import * as rawOverride from "~/routes/auth.clickhouse_raw_flow_override";
import { chCommand } from "~/server/clickhouse/query.server";
import * as featureFlags from "~/routes/auth.featureflags";
import * as login from "~/routes/auth.login";
import * as logout from "~/routes/auth.logout";
import * as notificationOne from "~/routes/auth.notifications.$id";
import * as notificationList from "~/routes/auth.notifications";
import * as userApi from "~/routes/auth.user";
import { hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { reportOf } from "~/lib/error-reporter";
import { newPopUps, poppedUpUpdates } from "~/lib/notification-popups";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let alice: number;
let bob: number;
let aliceCookie: string;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [a, b] = await stores.pg.db
    .insert(users)
    .values([
      { email: "alice@example.org", firstName: "Alice", passwordHash: await hashPassword("alice-password-1"), hasConsented: true },
      { email: "bob@example.org", firstName: "Bob", passwordHash: await hashPassword("bob-password-12"), hasConsented: false },
    ])
    .returning({ id: users.id });
  alice = a.id;
  bob = b.id;
  await stores.pg.db.insert(userPermissions).values([
    { userId: alice, permission: "API_FLOWS_4D" },
    { userId: alice, permission: "API_APP_VERSION" },
  ]);
  aliceCookie = await sessionCookie(stores, alice);
}, 180_000);
afterAll(() => stores?.dispose());

describe("auth/login and auth/user", () => {
  it("logs in with JSON, then auth/user returns the user of the spec with permissions", async () => {
    const response = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "Alice@Example.org", password: "alice-password-1" },
      cookie: "csrftoken=csrf-token-for-tests-0123456789",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "LOGGED_IN" });
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/flowlens_session=[^;]+/);
    expect(cookie).toContain("logged_in=1");
    const me = await callRoute(userApi, "/auth/user/", { cookie });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body).toMatchObject({
      email: "alice@example.org",
      first_name: "Alice",
      permissions: ["API_APP_VERSION", "API_FLOWS_4D"],
      is_delegated: false,
      has_consented: true,
      session_status: "LOGGED_IN",
    });
  });

  it("marks both cookies Secure over HTTPS only, so a plain-HTTP page of the host never receives them", async () => {
    const setCookies = async (origin: string) =>
      (
        await callRoute(login, "/auth/login/", {
          method: "POST",
          origin,
          body: { email: "alice@example.org", password: "alice-password-1" },
          cookie: "csrftoken=csrf-token-for-tests-0123456789",
        })
      ).headers.getSetCookie();
    const https = await setCookies("https://flowlens.example");
    expect(https.map((c) => c.split("=")[0]).sort()).toEqual(["flowlens_session", "logged_in"]);
    for (const cookie of https) expect(cookie).toMatch(/;\s*Secure(;|$)/i);
    const http = await setCookies("http://flowlens.example");
    for (const cookie of http) expect(cookie).not.toMatch(/;\s*Secure(;|$)/i);
  });

  it("rejects wrong credentials with the catalogue's text and a 401", async () => {
    const response = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "alice@example.org", password: "nope" },
      cookie: "csrftoken=csrf-token-for-tests-0123456789",
    });
    expect(response.status).toBe(401);
    expect((await response.json()).detail).toBe(MESSAGES.wrongCredentials);
  });

  it("throttles a client after 5 failures for an account, even with the right password", async () => {
    await stores.pg.db
      .insert(users)
      .values({ email: "carol@example.org", passwordHash: await hashPassword("carol-password-1"), hasConsented: true });
    const firstFailure = Date.now();
    for (let i = 0; i < 5; i++) {
      const r = await callRoute(login, "/auth/login/", {
        method: "POST",
        body: { email: "carol@example.org", password: `wrong-${i}` },
        cookie: "csrftoken=csrf-token-for-tests-0123456789",
      });
      expect(r.status).toBe(401);
    }
    const blocked = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "carol@example.org", password: "carol-password-1" },
      cookie: "csrftoken=csrf-token-for-tests-0123456789",
    });
    expect(blocked.status).toBe(429);
    // The 15-minute window counts from the first failure: what is left of it, however long the five attempts took.
    const elapsed = Math.ceil((Date.now() - firstFailure) / 1000);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThanOrEqual(900 - elapsed - 1);
    expect(Number(blocked.headers.get("Retry-After"))).toBeLessThanOrEqual(900);
    await stores.pg.db.delete(loginAttempts).where(eq(loginAttempts.email, "carol@example.org"));
    const afterWindow = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "carol@example.org", password: "carol-password-1" },
      cookie: "csrftoken=csrf-token-for-tests-0123456789",
    });
    expect(afterWindow.status).toBe(200);
  });

  it("names the missing field of a bad body, and refuses a mutation without the CSRF header", async () => {
    const bad = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "alice@example.org" },
      cookie: "csrftoken=csrf-token-for-tests-0123456789",
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([{ field: "password", message: expect.any(String) }]);
    const noCsrf = await callRoute(login, "/auth/login/", {
      method: "POST",
      body: { email: "alice@example.org", password: "alice-password-1" },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    expect((await noCsrf.json()).exception_code).toBe("csrf_failed");
  });

  it("answers anonymous and expired visitors with not_authenticated", async () => {
    const anonymous = await callRoute(userApi, "/auth/user/");
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ exception_code: "not_authenticated" });
    const expired = await callRoute(featureFlags, "/auth/featureflags/", { cookie: "logged_in=1" });
    expect(expired.status).toBe(403);
    expect((await expired.json()).detail).toBe(MESSAGES.sessionExpired);
  });

  it("checks the API version of the Accept header (13 to 17)", async () => {
    expect(
      (await callRoute(featureFlags, "/auth/featureflags/", { cookie: aliceCookie, accept: "application/json; version=16" })).status,
    ).toBe(200);
    const tooOld = await callRoute(featureFlags, "/auth/featureflags/", { cookie: aliceCookie, accept: "application/json; version=12" });
    expect(tooOld.status).toBe(406);
  });

  it("api/version/ also accepts the spec client's version 3; other calls still answer 406 to it", async () => {
    const at3 = await callRoute(version, "/api/version/", { cookie: aliceCookie, accept: "application/json; version=3" });
    expect(at3.status).toBe(200);
    expect(await at3.json()).toMatchObject({ api_versions: { min: 13, max: 17 } });
    const at2 = await callRoute(version, "/api/version/", { cookie: aliceCookie, accept: "application/json; version=2" });
    expect(at2.status).toBe(406);
    expect((await at2.json()).detail).toBe("API version 2 is not supported (supported: 3 and 13 to 17).");
    const flagsAt3 = await callRoute(featureFlags, "/auth/featureflags/", { cookie: aliceCookie, accept: "application/json; version=3" });
    expect(flagsAt3.status).toBe(406);
    expect((await flagsAt3.json()).detail).toBe("API version 3 is not supported (supported: 13 to 17).");
  });

  it("logs out: the session stops working", async () => {
    const cookie = await sessionCookie(stores, alice);
    const out = await callRoute(logout, "/auth/logout/", { method: "POST", cookie, body: {} });
    expect(out.status).toBe(200);
    expect((await callRoute(userApi, "/auth/user/", { cookie })).status).toBe(403);
  });
});

describe("consent on the API", () => {
  it("refuses data calls of a user without consent, but tells them who they are", async () => {
    const cookie = await sessionCookie(stores, bob);
    const data = await callRoute(tablesWithoutData, "/api/tables_without_data/", { cookie });
    expect(data.status).toBe(403);
    expect((await data.json()).exception_code).toBe("consent_required");
    const me = await callRoute(userApi, "/auth/user/", { cookie });
    expect((await me.json()).has_consented).toBe(false);
  });
});

describe("notifications", () => {
  it("lists, marks, archives and deletes only the user's own notifications", async () => {
    const [mine, theirs] = await stores.pg.db
      .insert(notifications)
      .values([
        { userId: alice, title: "Link fra-er1 xe-0/0/1 above 85 %" },
        { userId: bob, title: "Not for Alice" },
      ])
      .returning({ id: notifications.id });
    const list = await (await callRoute(notificationList, "/auth/notifications/", { cookie: aliceCookie })).json();
    expect(list.notifications.map((n: { id: number }) => n.id)).toEqual([mine.id]);
    const update = await callRoute(notificationList, "/auth/notifications/", {
      method: "POST",
      cookie: aliceCookie,
      body: [
        { id: mine.id, is_read: true },
        { id: theirs.id, is_read: true, is_archived: true },
      ],
    });
    expect(await update.json()).toEqual({ updated: [mine.id] });
    const [theirsAfter] = await stores.pg.db.select().from(notifications).where(eq(notifications.id, theirs.id));
    expect(theirsAfter.isRead).toBe(false);
    expect(
      (
        await callRoute(notificationOne, `/auth/notifications/${theirs.id}/`, {
          method: "DELETE",
          cookie: aliceCookie,
          params: { id: String(theirs.id) },
        })
      ).status,
    ).toBe(404);
    expect(
      (await callRoute(notificationOne, `/auth/notifications/x/`, { method: "DELETE", cookie: aliceCookie, params: { id: "x" } })).status,
    ).toBe(400);
    expect(
      (
        await callRoute(notificationOne, `/auth/notifications/${mine.id}/`, {
          method: "DELETE",
          cookie: aliceCookie,
          params: { id: String(mine.id) },
        })
      ).status,
    ).toBe(200);
    const bad = await callRoute(notificationList, "/auth/notifications/", { method: "POST", cookie: aliceCookie, body: [{ id: "one" }] });
    expect(bad.status).toBe(400);
  });
});

describe("notification pop-ups", () => {
  it("pop up once: what the frame showed is not shown by a later page, another tab or browser; it stays unread", async () => {
    const [popUp, quiet, theirs] = await stores.pg.db
      .insert(notifications)
      .values([
        { userId: alice, title: "Link fra-er1 xe-0/0/2 will need an upgrade", doPopUp: true },
        { userId: alice, title: "No pop-up", doPopUp: false },
        { userId: bob, title: "Bob's pop-up", doPopUp: true },
      ])
      .returning({ id: notifications.id });
    type Listed = { id: number; is_read: boolean; do_pop_up: boolean };
    const listed = async () =>
      ((await (await callRoute(notificationList, "/auth/notifications/", { cookie: aliceCookie })).json()) as { notifications: Listed[] })
        .notifications;
    // A page load: a fresh tab remembers nothing, what the server lists decides.
    const firstPage = newPopUps(await listed(), new Set());
    expect(firstPage.show.map((n) => n.id)).toContain(popUp.id);
    expect(firstPage.show.map((n) => n.id)).not.toContain(quiet.id);
    const popped = [...firstPage.show, ...firstPage.more].map((n) => n.id);
    const told = await callRoute(notificationList, "/auth/notifications/", {
      method: "POST",
      cookie: aliceCookie,
      body: [...poppedUpUpdates(popped), ...poppedUpUpdates([theirs.id])],
    });
    expect((await told.json()).updated).toEqual(popped);
    // The next page load (any tab, browser or device) pops up nothing of it.
    const nextPage = await listed();
    expect(newPopUps(nextPage, new Set())).toEqual({ show: [], more: [] });
    expect(nextPage.find((n) => n.id === popUp.id)).toMatchObject({ is_read: false, do_pop_up: false });
    // Another user's notification is not touched.
    const [bobs] = await stores.pg.db.select().from(notifications).where(eq(notifications.id, theirs.id));
    expect(bobs.doPopUp).toBe(true);
    const bad = await callRoute(notificationList, "/auth/notifications/", {
      method: "POST",
      cookie: aliceCookie,
      body: [{ id: popUp.id, do_pop_up: "no" }],
    });
    expect(bad.status).toBe(400);
  });
});

describe("api/ basics", () => {
  it("tells the versions only to holders of API_APP_VERSION (its catalogue entry: version details)", async () => {
    const withoutVersion = (
      await stores.pg.db
        .insert(users)
        .values({ email: "no-version@example.org", firstName: "Noversion", passwordHash: "x", hasConsented: true })
        .returning({ id: users.id })
    )[0].id;
    await stores.pg.db.insert(userPermissions).values({ userId: withoutVersion, permission: "API_FLOWS_4D" });
    const refused = await callRoute(version, "/api/version/", { cookie: await sessionCookie(stores, withoutVersion) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).exception_code).toBe("permission_denied");
  });

  it("reports versions, empty tables and the newest timestamp", async () => {
    const v = await (await callRoute(version, "/api/version/", { cookie: aliceCookie })).json();
    expect(v).toMatchObject({ api_versions: { min: 13, max: 17 }, clickhouse_engine: "chdb", override_clickhouse_db: null });
    const empty = await (await callRoute(tablesWithoutData, "/api/tables_without_data/", { cookie: aliceCookie })).json();
    expect(empty.tables).toEqual(expect.arrayContaining(["flows_5m", "rib_current"]));
    expect(await (await callRoute(maxTimestamp, "/api/max_timestamp/", { cookie: aliceCookie })).json()).toEqual({ maxTimestamp: null });
  });

  it("stores client error reports", async () => {
    const r = await callRoute(errorReport, "/api/error_report/", {
      method: "POST",
      cookie: aliceCookie,
      body: { message: "TypeError: x is undefined", stacktrace: "at f (a.js:1:2)", url: "/flow-explorer" },
    });
    expect(r.status).toBe(200);
    const bad = await callRoute(errorReport, "/api/error_report/", { method: "POST", cookie: aliceCookie, body: { message: "" } });
    expect(bad.status).toBe(400);
  });

  it("keeps a report the browser's reporter writes as it was sent, even for an oversized error with control characters", async () => {
    const error = new RangeError("Invalid time value\u0000 at bucket 7");
    error.stack = `RangeError: Invalid time value\n${"    at formatBucket (chart.js:10:5)\n".repeat(2000)}`;
    const report = reportOf(error, "Uncaught RangeError: Invalid time value\u0007", `/flow-explorer?q=${"x".repeat(3000)}`);
    const r = await callRoute(errorReport, "/api/error_report/", { method: "POST", cookie: aliceCookie, body: report });
    expect(r.status).toBe(200);
    const [kept] = await stores.pg.db
      .select({ message: errorReports.message, stacktrace: errorReports.stacktrace, url: errorReports.url })
      .from(errorReports)
      .where(and(eq(errorReports.userId, alice), eq(errorReports.message, report.message)));
    expect(kept).toEqual(report);
    expect(kept.message).toBe("Uncaught RangeError: Invalid time value");
    expect(kept.stacktrace.length).toBe(20_000);
    expect(kept.url.length).toBe(2000);
  });

  it("lets only holders of CLICKHOUSE_DIRECT_QUERY override the database, and only to an existing one", async () => {
    expect(
      (await callRoute(override, "/auth/clickhouse_override/", { method: "POST", cookie: aliceCookie, body: { database: "flowlens" } }))
        .status,
    ).toBe(403);
    await stores.pg.db.insert(userPermissions).values({ userId: alice, permission: "CLICKHOUSE_DIRECT_QUERY" });
    const cookie = await sessionCookie(stores, alice);
    const missing = await callRoute(override, "/auth/clickhouse_override/", { method: "POST", cookie, body: { database: "no_such_db" } });
    expect(missing.status).toBe(400);
    const injection = await callRoute(override, "/auth/clickhouse_override/", {
      method: "POST",
      cookie,
      body: { database: "x; DROP TABLE flows_5m" },
    });
    expect(injection.status).toBe(400);
    // A database that exists but does not hold the flowlens flows tables is refused with the spec's message.
    const foreign = await callRoute(override, "/auth/clickhouse_override/", { method: "POST", cookie, body: { database: "system" } });
    expect(foreign.status).toBe(400);
    const refusal = await foreign.json();
    expect(refusal.detail).toBe(MESSAGES.emptyDatabase);
    expect(refusal.errors).toEqual([
      { field: "database", message: "system does not exist or holds none of the flowlens tables flows_5m, flows_1h" },
    ]);
    await chCommand(stores.ch, { name: "test.copy", sql: "CREATE DATABASE IF NOT EXISTS flows_copy" });
    await chCommand(stores.ch, { name: "test.copy", sql: "CREATE TABLE IF NOT EXISTS flows_copy.flows_5m AS flows_5m" });
    const partial = await callRoute(override, "/auth/clickhouse_override/", { method: "POST", cookie, body: { database: "flows_copy" } });
    expect((await partial.json()).errors).toEqual([{ field: "database", message: "flows_copy lacks the flowlens table flows_1h" }]);
    await chCommand(stores.ch, { name: "test.copy", sql: "CREATE TABLE IF NOT EXISTS flows_copy.flows_1h AS flows_1h" });
    const ok = await callRoute(override, "/auth/clickhouse_override/", { method: "POST", cookie, body: { database: "flows_copy" } });
    expect(ok.status).toBe(200);
    const v = await (await callRoute(version, "/api/version/", { cookie })).json();
    expect(v.override_clickhouse_db).toBe("flows_copy");
    // The raw-flow override needs flows_raw, which this copy lacks.
    const raw = await callRoute(rawOverride, "/auth/clickhouse_raw_flow_override/", {
      method: "POST",
      cookie,
      body: { database: "flows_copy" },
    });
    expect([raw.status, (await raw.json()).errors[0].message]).toEqual([
      400,
      "flows_copy does not exist or holds none of the flowlens tables flows_raw",
    ]);
  });
});

import * as tokenApi from "~/routes/auth.token";
import * as tokenOne from "~/routes/auth.token.$id";
describe("API tokens", () => {
  it("are created by holders of DEVELOPER_API_TOKEN, authenticate without cookies or CSRF, and can be revoked", async () => {
    expect((await callRoute(tokenApi, "/auth/token/", { method: "POST", cookie: aliceCookie, body: { name: "grafana" } })).status).toBe(
      403,
    );
    await stores.pg.db.insert(userPermissions).values({ userId: alice, permission: "DEVELOPER_API_TOKEN" });
    const cookie = await sessionCookie(stores, alice);
    const created = await callRoute(tokenApi, "/auth/token/", { method: "POST", cookie, body: { name: "grafana" } });
    expect(created.status).toBe(201);
    const { id, token } = await created.json();
    expect(token).toMatch(/^fl_/);
    const byToken = (path: string, module: typeof featureFlags, init: { method?: string; body?: unknown } = {}) =>
      (init.method ? module.action : module.loader)({
        request: new Request(`http://flowlens.test${path}`, {
          method: init.method ?? "GET",
          headers: { Authorization: `Token ${token}`, Accept: "application/json", "Content-Type": "application/json" },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
        params: {},
        context: {},
      } as never) as Promise<Response>;
    const me = await byToken("/auth/user/", userApi as never);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe("alice@example.org");
    const report = await byToken("/api/error_report/", errorReport as never, { method: "POST", body: { message: "from a script" } });
    expect(report.status).toBe(200);
    const listed = await (await callRoute(tokenApi, "/auth/token/", { cookie })).json();
    expect(listed.tokens).toEqual([expect.objectContaining({ id, name: "grafana" })]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await callRoute(tokenOne, `/auth/token/${id}/`, { method: "DELETE", cookie, params: { id: String(id) } })).status).toBe(200);
    expect((await byToken("/auth/user/", userApi as never)).status).toBe(403);
    const forged = await (featureFlags.loader as (a: unknown) => Promise<Response>)({
      request: new Request("http://flowlens.test/auth/featureflags/", {
        headers: { Authorization: "Token fl_not-a-real-token-aaaaaaaaaaaaaaaa" },
      }),
      params: {},
      context: {},
    });
    expect(forged.status).toBe(403);
  });
});
