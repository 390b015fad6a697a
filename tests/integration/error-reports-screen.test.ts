/**
 * The error reports screen (/site-settings/error-reports) through its route module: staff and
 * superusers only; the reports grouped by message with count, distinct users, first and last seen
 * (in the viewer's timezone), URL paths without query strings and releases, each recomputed here
 * from the rows the test inserted; marking a group as handled (a form post, as without JavaScript)
 * moves it to the handled list with who did it, and a later report of the same message shows again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorReports, userSettings, users } from "~db/postgres/schema";
import { formatDateLongBare } from "~/lib/date-format";
import * as errorReport from "~/routes/api.error_report";
import * as route from "~/routes/_app.site-settings_.error-reports";
import { useServicesForTests } from "~/server/services.server";
import packageJson from "../../package.json";
import { callRoute, formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/site-settings/error-reports";
const TZ = "Europe/Berlin";
let stores: TestStores;
let admin: number;
const cookies = { admin: "", user: "" };
let userId: number;
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * 60_000);

const REPORTS = [
  { message: "TypeError: a is undefined", url: "/flow-explorer?q=secret", release: "0.0.9", at: ago(300), user: "user" },
  { message: "TypeError: a is undefined", url: "/flow-explorer", release: "0.1.0", at: ago(100), user: "admin" },
  { message: "TypeError: a is undefined", url: "http://flowlens.test/rna#x", release: "0.1.0", at: ago(50), user: "user" },
  { message: "RangeError: Invalid time value", url: "/links", release: "", at: ago(1000), user: null },
  { message: "RangeError: Invalid time value", url: "", release: "", at: ago(20), user: null },
] as const;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  admin = await insertSuperuser(stores, "admin@example.org");
  [{ id: userId }] = await stores.pg.db
    .insert(users)
    .values({ email: "ana@example.org", firstName: "Ana", passwordHash: "unused", hasConsented: true, consentedAt: new Date() })
    .returning({ id: users.id });
  await stores.pg.db
    .insert(userSettings)
    .values({ userId: admin, timezone: TZ })
    .onConflictDoUpdate({ target: userSettings.userId, set: { timezone: TZ } });
  await stores.pg.db.insert(errorReports).values(
    REPORTS.map((r) => ({
      message: r.message,
      url: r.url,
      release: r.release,
      stacktrace: `at ${r.at.getTime()}`,
      createdAt: r.at,
      userId: r.user === "admin" ? admin : r.user === "user" ? userId : null,
    })),
  );
  cookies.admin = await sessionCookie(stores, admin);
  cookies.user = await sessionCookie(stores, userId);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("the error reports screen", () => {
  it("is for staff and superusers only", async () => {
    expect((await runRoute(route.loader, getRequest(PATH, cookies.user))).status).toBe(403);
    expect((await runRoute(route.action, formRequest(PATH, { intent: "handled", message: REPORTS[0].message }, cookies.user))).status).toBe(
      403,
    );
    expect((await runRoute(route.loader, getRequest(PATH, cookies.admin))).status).toBe(200);
  });

  it("groups the reports by message, the one seen last first", async () => {
    const { data } = await runRoute(route.loader, getRequest(PATH, cookies.admin));
    const date = (d: Date) => formatDateLongBare(d, TZ);
    const expected = [...new Set(REPORTS.map((r) => r.message))]
      .map((message) => {
        const of = REPORTS.filter((r) => r.message === message);
        const times = of.map((r) => r.at.getTime());
        const newestFirst = [...of].sort((a, b) => b.at.getTime() - a.at.getTime());
        return {
          message,
          count: of.length,
          users: new Set(of.map((r) => r.user).filter((u) => u !== null)).size,
          firstSeen: date(new Date(Math.min(...times))),
          lastSeen: date(new Date(Math.max(...times))),
          last: Math.max(...times),
          releases: [...new Set(newestFirst.map((r) => r.release || "not recorded"))],
          latestStacktrace: `at ${newestFirst[0].at.getTime()}`,
        };
      })
      .sort((a, b) => b.last - a.last);
    expect(data.groups.map((g: { message: string }) => g.message)).toEqual(expected.map((e) => e.message));
    for (const e of expected) {
      const { last: _last, ...figures } = e;
      expect(data.groups.find((g: { message: string }) => g.message === e.message)).toMatchObject({ ...figures, handled: null });
    }
    // Paths without query strings or fragments, the most frequent first; a report without a URL names none.
    expect(data.groups[0].paths).toEqual(["/links"]);
    expect(data.groups[1].paths).toEqual(["/flow-explorer", "/rna"]);
    expect(data.total).toBe(2);
    expect(data.timezone).toBe(TZ);
  });

  it("refuses a post without a known intent or message with a 400", async () => {
    expect((await runRoute(route.action, formRequest(PATH, { intent: "delete", message: "x" }, cookies.admin))).status).toBe(400);
    expect((await runRoute(route.action, formRequest(PATH, { intent: "handled" }, cookies.admin))).status).toBe(400);
  });

  it("marks a group as handled; a later report of the same message shows again", async () => {
    const message = REPORTS[0].message;
    const marked = await runRoute(route.action, formRequest(PATH, { intent: "handled", message }, cookies.admin));
    expect(marked.status).toBe(302);
    expect(marked.location).toBe(`${PATH}?marked=3`);
    const open = await runRoute(route.loader, getRequest(`${PATH}?marked=3`, cookies.admin));
    expect(open.data.notice).toBe("3 reports marked as handled.");
    expect(open.data.groups.map((g: { message: string }) => g.message)).toEqual([REPORTS[3].message]);
    const handled = await runRoute(route.loader, getRequest(`${PATH}?show=handled`, cookies.admin));
    expect(handled.data.show).toBe("handled");
    expect(handled.data.groups).toHaveLength(1);
    expect(handled.data.groups[0]).toMatchObject({ message, count: 3 });
    expect(handled.data.groups[0].handled).toMatch(/ by admin@example\.org$/);

    // Reported again through the API: an open group of one report, with the running release.
    const again = await callRoute(errorReport, "/api/error_report/", {
      method: "POST",
      cookie: cookies.user,
      body: { message, url: "/welcome?x=1" },
    });
    expect(again.status).toBe(200);
    const reopened = await runRoute(route.loader, getRequest(PATH, cookies.admin));
    expect(reopened.data.groups[0]).toMatchObject({ message, count: 1, paths: ["/welcome"], releases: [packageJson.version] });
  });

  it("tolerates GET parameters of any kind", async () => {
    const r = await runRoute(route.loader, getRequest(`${PATH}?show=%3Cscript%3E&marked=abc`, cookies.admin));
    expect(r.status).toBe(200);
    expect(r.data.show).toBe("open");
    expect(r.data.notice).toBeNull();
  });
});
