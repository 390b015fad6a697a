/**
 * Input the stores cannot take is a 400 naming the field, never a 500: NUL in any string of a JSON
 * body (PostgreSQL refuses it in text), ids beyond a PostgreSQL integer in paths and bodies,
 * control characters in path and query parameters. And client error reports are throttled and
 * cannot forge log lines.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { errorReports } from "~db/postgres/schema";
import { NO_CONTROL_CHARACTERS, NO_NUL, POSITIVE_INT32 } from "~/lib/input-fields";
import * as manageDelegatedUsers from "~/routes/_app.manage-delegated-users";
import * as manageUsers from "~/routes/_app.manage-users";
import * as applicationMappings from "~/routes/_app.mappings.applications";
import * as asMappings from "~/routes/_app.mappings.as";
import * as security from "~/routes/_app.settings_.security";
import * as inventory from "~/routes/_app.site-settings_.inventory";
import * as routingData from "~/routes/_app.site-settings_.routing-data";
import * as errorReport from "~/routes/api.error_report";
import * as autocomplete from "~/routes/api.autocomplete";
import * as filterMetadata from "~/routes/api.filter.metadata";
import * as mapping from "~/routes/api.mapping";
import * as lookingglassExport from "~/routes/api.lookingglass_.export";
import * as twoFactorDevice from "~/routes/auth.2fa.devices.$id";
import * as twoFactorDevices from "~/routes/auth.2fa.devices";
import * as login from "~/routes/auth.login";
import * as notificationOne from "~/routes/auth.notifications.$id";
import * as notificationList from "~/routes/auth.notifications";
import * as tokenOne from "~/routes/auth.token.$id";
import * as token from "~/routes/auth.token";
import * as userRequestDecision from "~/routes/auth.usermanagement.user_requests.$id.$decision";
import { ERROR_REPORT_RATE, errorReportLimiter } from "~/server/error-report-limit.server";
import { BODY_TEXTS } from "~/server/request-body.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, CSRF_TOKEN, formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
let adminId = 0;
let cookie = "";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  adminId = await insertSuperuser(stores, "admin@hardening.test");
  cookie = await sessionCookie(stores, adminId);
}, 120_000);

afterEach(() => {
  errorReportLimiter.clear();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const expect400 = async (res: Response, field: string, message: string) => {
  const text = await res.text();
  expect(res.status, text).toBe(400);
  expect(JSON.parse(text).errors).toContainEqual({ field, message });
};

describe("NUL characters in JSON bodies", () => {
  it.each([
    ["api/autocomplete/", autocomplete, "POST", { searchTerm: "goo\u0000gle", dimension: "AS_SRC_INGRESS" }, "searchTerm"],
    [
      "api/filter/metadata/",
      filterMetadata,
      "POST",
      { filters: [{ dimension: "AS_SRC_INGRESS", value: "15169" }, { value: "\u0000" }] },
      "filters.1.value",
    ],
    ["api/mapping/", mapping, "PUT", { name: "Google\u0000", color: "#137cbd" }, "name"],
    ["auth/token/", token, "POST", { name: "ci\u0000" }, "name"],
    ["api/error_report/", errorReport, "POST", { message: "TypeError\u0000" }, "message"],
    ["auth/login/", login, "POST", { email: "\u0000", password: "\u0000" }, "email"],
  ])("%s answers 400 naming the field", async (path, module, method, body, field) => {
    const url = path === "api/mapping/" ? "/api/mapping/?id=15169&type=AS&priority=30" : `/${path}`;
    await expect400(await callRoute(module, url, { method, body, cookie }), field, NO_NUL);
  });

  it("also in object keys, and nothing is stored", async () => {
    const before = (await stores.pg.db.select().from(errorReports)).length;
    await expect400(
      await callRoute(errorReport, "/api/error_report/", { method: "POST", body: { message: "x", ["k\u0000"]: 1 }, cookie }),
      "k\\0",
      NO_NUL,
    );
    expect((await stores.pg.db.select().from(errorReports)).length).toBe(before);
  });
});

describe("ids beyond a PostgreSQL integer", () => {
  it.each([
    ["auth/2fa/devices/{id}/", twoFactorDevice],
    ["auth/notifications/{id}/", notificationOne],
    ["auth/token/{id}/", tokenOne],
  ])("DELETE %s answers 400 for 2147483648, -1, 1.5 and 1e3", async (path, module) => {
    for (const id of ["2147483648", "99999999999999999999", "-1", "1.5", "1e3", "0"]) {
      await expect400(
        await callRoute(module, `/${path.replace("{id}", id)}`, { method: "DELETE", cookie, params: { id } }),
        "id",
        POSITIVE_INT32,
      );
    }
    // The largest integer is a valid id that names nothing.
    const res = await callRoute(module, `/${path.replace("{id}", "2147483647")}`, {
      method: "DELETE",
      cookie,
      params: { id: "2147483647" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("ids in bodies: auth/notifications/ and auth/2fa/devices/", async () => {
    await expect400(
      await callRoute(notificationList, "/auth/notifications/", { method: "POST", body: [{ id: 2 ** 31, is_read: true }], cookie }),
      "0.id",
      POSITIVE_INT32,
    );
    const device = await callRoute(twoFactorDevices, "/auth/2fa/devices/", {
      method: "POST",
      body: { id: 2 ** 31, code: "123456" },
      cookie,
    });
    expect(device.status).toBe(400);
    expect((await device.json()).errors[0].field).toBe("id");
  });

  it("a user request id beyond an integer is no such request (404)", async () => {
    const res = await callRoute(userRequestDecision, "/auth/usermanagement/user_requests/2147483648/accept/", {
      method: "PUT",
      cookie,
      params: { id: "2147483648", decision: "accept" },
    });
    expect(res.status).toBe(404);
  });
});

describe("control characters in path and query parameters", () => {
  it("a query parameter with CR/LF is a 400 naming it", async () => {
    const res = await callRoute(
      lookingglassExport,
      "/api/lookingglass/export/?format=csv&queryType=IpPrefixQuery&queryTerm=10.0.0.0%2F8%0D%0ASet-Cookie:%20x=1",
      { cookie },
    );
    await expect400(res, "queryTerm", NO_CONTROL_CHARACTERS);
  });

  it("a path parameter with NUL or LF is a 400 naming it", async () => {
    await expect400(
      await callRoute(tokenOne, "/auth/token/1%00/", { method: "DELETE", cookie, params: { id: "1\u0000" } }),
      "id",
      NO_CONTROL_CHARACTERS,
    );
    await expect400(
      await callRoute(notificationOne, "/auth/notifications/1%0A/", { method: "DELETE", cookie, params: { id: "1\n" } }),
      "id",
      NO_CONTROL_CHARACTERS,
    );
  });
});

describe("screens: NUL in GET parameters, ids beyond an integer in form fields", () => {
  it.each([
    { path: "/manage-users", name: "q", module: manageUsers },
    { path: "/manage-delegated-users", name: "q", module: manageDelegatedUsers },
    { path: "/mappings/as", name: "q", module: asMappings },
    { path: "/mappings/applications", name: "q", module: applicationMappings },
    { path: "/site-settings/inventory", name: "router", module: inventory },
  ])("$path: a NUL in $name is a 400 naming the parameter (every screen's guard), not the store's 500", async ({ path, name, module }) => {
    const out = await runRoute(module.loader, getRequest(`${path}?page=1&${name}=a%00b`, cookie));
    expect(out.status).toBe(400);
    expect(out.data.errors).toEqual([{ field: name, message: BODY_TEXTS.fieldControlCharacter }]);
  });

  it("a community label id or a two-factor device id beyond an integer names nothing (404)", async () => {
    for (const intent of ["update-label", "delete-label"]) {
      const label = await runRoute(
        routingData.action,
        formRequest("/site-settings/routing-data", { intent, id: "99999999999", pattern: "64500:1", label: "x" }, cookie),
      );
      expect(label.status, intent).toBe(404);
    }
    for (const intent of ["delete-device", "confirm-device"]) {
      const device = await runRoute(
        security.action,
        formRequest("/settings/security", { intent, deviceId: "99999999999", code: "1" }, cookie),
      );
      expect(device.status, intent).toBe(404);
    }
  });
});

describe("api/error_report/", () => {
  it("logs one line whatever the report holds: line breaks and control characters escaped, long values cut", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const forged = "boom\n2026-01-01T00:00:00.000Z ERROR admin password changed\r\u2028";
    const res = await callRoute(errorReport, "/api/error_report/", {
      method: "POST",
      body: { message: forged + "x".repeat(1000), stacktrace: "at f (a.js:1:2)\nat g (b.js:3:4)", url: "/flow-explorer" },
      cookie,
    });
    expect(res.status).toBe(200);
    const logged = lines.filter((l) => l.includes("client error reported"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toMatch(/[\r\n\u2028]/);
    expect(logged[0]).toContain("boom\\n2026-01-01T00:00:00.000Z ERROR admin password changed\\r\\u2028");
    expect(logged[0]).toMatch(/… \(\d+ more characters\) at \/flow-explorer$/);
    // The stored report keeps the stack trace's lines; a URL with a line break is refused.
    const [stored] = await stores.pg.db.select().from(errorReports).where(eq(errorReports.userId, adminId));
    expect(stored.stacktrace).toBe("at f (a.js:1:2)\nat g (b.js:3:4)");
    await expect400(
      await callRoute(errorReport, "/api/error_report/", { method: "POST", body: { message: "x", url: "/a\nb" }, cookie }),
      "url",
      NO_CONTROL_CHARACTERS,
    );
  });

  it("is throttled per user, and per client for anonymous callers: 429 with Retry-After", async () => {
    const report = (who: string) =>
      callRoute(errorReport, "/api/error_report/", { method: "POST", body: { message: "loop" }, cookie: who });
    for (let i = 0; i < ERROR_REPORT_RATE.perAddress; i++) expect((await report(cookie)).status).toBe(200);
    const limited = await report(cookie);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).detail).toMatch(/^Too many error reports\. Please try again in \d+ seconds\.$/);
    // Another caller (anonymous here) has its own allowance.
    expect((await report(`csrftoken=${CSRF_TOKEN}`)).status).toBe(200);
  });
});
