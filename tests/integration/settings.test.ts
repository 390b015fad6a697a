// Settings: user settings (service + POST auth/settings/{name}/ + the /settings form), site settings and the
// default style (siteconfig/, /site-settings, moderator rules), personal style overrides, and groups.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groups, siteSettings, styles, userGroups, userPermissions, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { MODERATORS_GROUP } from "~/lib/permissions";
import { createSession } from "~/server/auth/session.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { useServicesForTests } from "~/server/services.server";
import { groupSwitcherData, listGroups, setOwnGroups } from "~/server/settings/groups.server";
import {
  checkPngLogo,
  getPersonalStyle,
  getSiteConfig,
  resetPersonalStyle,
  setPersonalStyle,
  siteSettingsRole,
  updateDefaultStyle,
  updateSiteSettings,
  validateSiteSettings,
  validateStylePatch,
} from "~/server/settings/site-settings.server";
import {
  DEFAULT_USER_SETTINGS,
  getUserSettings,
  SettingsError,
  updateUserSetting,
  updateUserSettings,
} from "~/server/settings/user-settings.server";
import { resolveStyle } from "~/server/site-style.server";
import * as groupRoute from "~/routes/_app.settings_.group";
import * as settingsPage from "~/routes/_app.settings";
import * as siteSettingsPage from "~/routes/_app.site-settings";
import * as groupsApi from "~/routes/auth.groups";
import * as settingApi from "~/routes/auth.settings.$name";
import * as siteconfigApi from "~/routes/siteconfig";
import { openTestStores, type TestStores } from "../helpers/stores";

const CSRF = "csrf-token-for-the-settings-tests-0123456789";
const BASE = "http://flowlens.test";

let stores: TestStores;
let ids: { operator: number; other: number; moderator: number; admin: number; switcher: number; modSwitcher: number };
const cookies = new Map<number, string>();

async function makeUser(email: string, extra: Partial<typeof users.$inferInsert> = {}): Promise<number> {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: email.split("@")[0], hasConsented: true, ...extra })
    .returning({ id: users.id });
  return row.id;
}

async function sessionCookie(userId: number): Promise<string> {
  const existing = cookies.get(userId);
  if (existing) return existing;
  const headers = await createSession(stores.pg.db, stores.config.sessionSecret, new Request(BASE), userId, "LOGGED_IN");
  const pairs = headers.getSetCookie().map((c) => c.split(";")[0]);
  const cookie = [...pairs, `csrftoken=${CSRF}`].join("; ");
  cookies.set(userId, cookie);
  return cookie;
}

async function ctx(userId: number): Promise<UserContext> {
  const user = await loadUserContext(stores.pg.db, userId);
  if (!user) throw new Error(`no user ${userId}`);
  return user;
}

async function jsonRequest(userId: number | null, method: string, path: string, body?: unknown, { csrf = true } = {}): Promise<Request> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (userId !== null) headers.Cookie = await sessionCookie(userId);
  else headers.Cookie = `csrftoken=${CSRF}`;
  if (csrf) headers["X-CSRFToken"] = CSRF;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return new Request(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function formRequest(userId: number, path: string, fields: Record<string, string | string[] | Blob>): Promise<Request> {
  const form = new FormData();
  form.set("csrfmiddlewaretoken", CSRF);
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const v of value) form.append(key, v);
    else form.set(key, value as string | Blob);
  }
  return new Request(BASE + path, { method: "POST", headers: { Cookie: await sessionCookie(userId) }, body: form });
}

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;
const call = (fn: unknown, request: Request, params: Record<string, string> = {}) => (fn as RouteFn)({ request, params, context: {} });

/** A loader/action result or thrown value → { status, body }. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: any; location?: string | null }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: value.status, body, location: value.headers.get("Location") };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const d = value as { data: unknown; init: ResponseInit | null };
    return { status: d.init?.status ?? 200, body: d.data };
  }
  return { status: 200, body: value };
}

const settingError = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error("expected a SettingsError");
};

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [moderators] = await stores.pg.db.select().from(groups).where(eq(groups.name, MODERATORS_GROUP));
  ids = {
    operator: await makeUser("operator@settings.test"),
    other: await makeUser("other@settings.test"),
    moderator: await makeUser("moderator@settings.test"),
    admin: await makeUser("admin@settings.test", { isSuperuser: true, isStaff: true }),
    switcher: await makeUser("switcher@settings.test", { canChangeOwnGroup: true }),
    modSwitcher: await makeUser("modswitcher@settings.test", { canChangeOwnGroup: true }),
  };
  await stores.pg.db.insert(groups).values([{ name: "ops" }, { name: "noc" }]);
  await stores.pg.db.insert(userGroups).values([
    { userId: ids.moderator, groupId: moderators.id },
    { userId: ids.modSwitcher, groupId: moderators.id },
  ]);
  // The planners' thresholds are "other"'s to change only with the planners' permissions.
  await stores.pg.db.insert(userPermissions).values([
    { userId: ids.other, permission: "API_LINK_UTIL_INTERNAL" },
    { userId: ids.other, permission: "FRONTEND_LINK_UTIL_EXTERNAL" },
  ]);
});
afterAll(() => stores?.dispose());

describe("user settings: service", () => {
  it("gives the spec's defaults to a user without a settings row", async () => {
    const settings = await getUserSettings(stores.pg.db, ids.other);
    expect(settings).toEqual(DEFAULT_USER_SETTINGS);
    expect(settings).toMatchObject({
      timezone: "UTC",
      timeseries_util_threshold_medium: 0.5,
      timeseries_util_threshold_high: 0.85,
      intlinks_util_threshold_medium: 0.75,
      intlinks_util_threshold_high: 0.95,
      extlinks_util_threshold_medium: 0.75,
      extlinks_util_threshold_high: 0.95,
    });
  });

  it("accepts IANA timezones and UTC, refuses others", async () => {
    const db = stores.pg.db;
    expect((await updateUserSetting(db, ids.operator, "timezone", "Europe/Berlin")).timezone).toBe("Europe/Berlin");
    expect((await updateUserSetting(db, ids.operator, "timezone", "UTC")).timezone).toBe("UTC");
    for (const bad of ["Mars/Olympus_Mons", "", 42, null, "europe/berlin"]) {
      const error = await settingError(() => updateUserSetting(db, ids.operator, "timezone", bad));
      expect(error.status).toBe(400);
      expect(error.errors[0].field).toBe("timezone");
    }
  });

  it("takes comma or semicolon as CSV delimiter, also spelled out", async () => {
    const db = stores.pg.db;
    expect((await updateUserSetting(db, ids.operator, "csv_delimiter", ";")).csv_delimiter).toBe(";");
    expect((await updateUserSetting(db, ids.operator, "csv_delimiter", "comma")).csv_delimiter).toBe(",");
    expect((await updateUserSetting(db, ids.operator, "csv_delimiter", "semicolon")).csv_delimiter).toBe(";");
    for (const bad of ["|", "\t", "", 1]) {
      const error = await settingError(() => updateUserSetting(db, ids.operator, "csv_delimiter", bad));
      expect(error.status).toBe(400);
      expect(error.errors[0].field).toBe("csv_delimiter");
    }
  });

  it("sets thresholds by family and level, or by full name, between 0 and 1", async () => {
    const db = stores.pg.db;
    for (const group of ["timeseries", "intlinks", "extlinks"]) {
      let s = await updateUserSetting(db, ids.operator, `${group}_util_threshold`, 0.3, "medium");
      expect(s[`${group}_util_threshold_medium` as keyof typeof s]).toBe(0.3);
      s = await updateUserSetting(db, ids.operator, `${group}_util_threshold_high`, "0.9");
      expect(s[`${group}_util_threshold_high` as keyof typeof s]).toBe(0.9);
      s = await updateUserSetting(db, ids.operator, `${group}_util_threshold_high`, 0.91, "high");
      expect(s[`${group}_util_threshold_high` as keyof typeof s]).toBe(0.91);
      for (const [bad, level] of [
        [1.5, "high"],
        [-0.1, "medium"],
        ["abc", "medium"],
        [null, "high"],
        ["", "high"],
      ] as const) {
        const error = await settingError(() => updateUserSetting(db, ids.operator, `${group}_util_threshold`, bad, level));
        expect(error.status).toBe(400);
        expect(error.errors[0].field).toBe(`${group}_util_threshold_${level}`);
      }
    }
  });

  it("keeps medium below high", async () => {
    const db = stores.pg.db;
    await updateUserSetting(db, ids.operator, "timeseries_util_threshold", 0.4, "medium");
    await updateUserSetting(db, ids.operator, "timeseries_util_threshold", 0.8, "high");
    let error = await settingError(() => updateUserSetting(db, ids.operator, "timeseries_util_threshold", 0.8, "medium"));
    expect(error.errors[0]).toMatchObject({ field: "timeseries_util_threshold_medium" });
    expect(error.message).toMatch(/lower than the high/);
    error = await settingError(() => updateUserSetting(db, ids.operator, "timeseries_util_threshold", 0.3, "high"));
    expect(error.errors[0]).toMatchObject({ field: "timeseries_util_threshold_high" });
    const s = await getUserSettings(db, ids.operator);
    expect([s.timeseries_util_threshold_medium, s.timeseries_util_threshold_high]).toEqual([0.4, 0.8]);
  });

  it("needs a matching level for thresholds", async () => {
    const db = stores.pg.db;
    let error = await settingError(() => updateUserSetting(db, ids.operator, "extlinks_util_threshold", 0.5));
    expect(error.errors[0].field).toBe("level");
    error = await settingError(() => updateUserSetting(db, ids.operator, "extlinks_util_threshold", 0.5, "low"));
    expect(error.errors[0].field).toBe("level");
    error = await settingError(() => updateUserSetting(db, ids.operator, "extlinks_util_threshold_medium", 0.5, "high"));
    expect(error.errors[0].field).toBe("level");
    error = await settingError(() => updateUserSetting(db, ids.operator, "timezone", "UTC", "high"));
    expect(error.errors[0].field).toBe("level");
  });

  it("takes build-out thresholds as positive integers and types DAYS or PERCENT", async () => {
    const db = stores.pg.db;
    for (const group of ["extlinks", "intlinks"]) {
      expect(
        (await updateUserSetting(db, ids.operator, `${group}_buildout_threshold`, "30"))[
          `${group}_buildout_threshold` as "extlinks_buildout_threshold"
        ],
      ).toBe(30);
      expect(
        (await updateUserSetting(db, ids.operator, `${group}_buildout_type`, "PERCENT"))[
          `${group}_buildout_type` as "extlinks_buildout_type"
        ],
      ).toBe("PERCENT");
      expect(
        (await updateUserSetting(db, ids.operator, `${group}_buildout_type`, "days"))[`${group}_buildout_type` as "extlinks_buildout_type"],
      ).toBe("DAYS");
      for (const bad of [0, -3, 1.5, "x", "", 10_000_000]) {
        const error = await settingError(() => updateUserSetting(db, ids.operator, `${group}_buildout_threshold`, bad));
        expect(error.errors[0].field).toBe(`${group}_buildout_threshold`);
      }
      for (const bad of ["WEEKS", "", 3]) {
        const error = await settingError(() => updateUserSetting(db, ids.operator, `${group}_buildout_type`, bad));
        expect(error.errors[0].field).toBe(`${group}_buildout_type`);
      }
    }
  });

  it("refuses enable_2fa (the two-factor module owns it) and unknown names", async () => {
    const db = stores.pg.db;
    const twoFa = await settingError(() => updateUserSetting(db, ids.operator, "enable_2fa", true));
    expect(twoFa.status).toBe(400);
    expect(twoFa.errors[0].field).toBe("enable_2fa");
    expect(twoFa.message).toMatch(/two-factor settings/);
    const unknown = await settingError(() => updateUserSetting(db, ids.operator, "colour_of_the_sky", "blue"));
    expect(unknown.status).toBe(404);
  });

  it("saves a whole form at once, or nothing, naming every bad field", async () => {
    const db = stores.pg.db;
    const before = await getUserSettings(db, ids.operator);
    const bad = await updateUserSettings(db, ids.operator, {
      timezone: "Nowhere/Atlantis",
      csv_delimiter: ";",
      intlinks_util_threshold_medium: "0.9",
      intlinks_util_threshold_high: "0.8",
      extlinks_buildout_threshold: "0",
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(Object.keys(bad.errors).sort()).toEqual(["extlinks_buildout_threshold", "intlinks_util_threshold_medium", "timezone"]);
    expect(await getUserSettings(db, ids.operator)).toEqual(before);
    const good = await updateUserSettings(db, ids.operator, {
      intlinks_util_threshold_medium: "0.9",
      intlinks_util_threshold_high: "0.99",
      timezone: "Asia/Tokyo",
    });
    expect(good.ok).toBe(true);
    if (good.ok)
      expect(good.settings).toMatchObject({
        intlinks_util_threshold_medium: 0.9,
        intlinks_util_threshold_high: 0.99,
        timezone: "Asia/Tokyo",
      });
  });
});

describe("POST auth/settings/{name}/", () => {
  it("answers the updated settings", async () => {
    const res = await outcome(async () =>
      call(settingApi.action, await jsonRequest(ids.other, "POST", "/auth/settings/timezone/", { value: "America/New_York" }), {
        name: "timezone",
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: "America/New_York", csv_delimiter: ",", enable_2fa: false });
    const threshold = await outcome(async () =>
      call(
        settingApi.action,
        await jsonRequest(ids.other, "POST", "/auth/settings/timeseries_util_threshold/", { value: 0.6, level: "medium" }),
        { name: "timeseries_util_threshold" },
      ),
    );
    expect(threshold.status).toBe(200);
    expect(threshold.body.timeseries_util_threshold_medium).toBe(0.6);
  });

  it("answers 400 naming the field for bad values, levels and missing values", async () => {
    const cases: [string, unknown, string][] = [
      ["timezone", { value: "Mars/Base" }, "timezone"],
      ["csv_delimiter", { value: "|" }, "csv_delimiter"],
      ["intlinks_util_threshold", { value: 2, level: "high" }, "intlinks_util_threshold_high"],
      ["intlinks_util_threshold", { value: 0.5, level: "extreme" }, "level"],
      ["intlinks_util_threshold", { value: 0.99, level: "medium" }, "intlinks_util_threshold_medium"],
      ["extlinks_buildout_threshold", { value: -1 }, "extlinks_buildout_threshold"],
      ["intlinks_buildout_type", { value: "HOURS" }, "intlinks_buildout_type"],
      ["enable_2fa", { value: true }, "enable_2fa"],
      ["timezone", {}, "value"],
    ];
    for (const [name, body, field] of cases) {
      const res = await outcome(async () =>
        call(settingApi.action, await jsonRequest(ids.other, "POST", `/auth/settings/${name}/`, body), { name }),
      );
      expect(res.status, `${name} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it("answers 404 for unknown names, 403 without CSRF header or login, 405 for GET", async () => {
    expect(
      (
        await outcome(async () =>
          call(settingApi.action, await jsonRequest(ids.other, "POST", "/auth/settings/nope/", { value: 1 }), { name: "nope" }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await outcome(async () =>
          call(settingApi.action, await jsonRequest(ids.other, "POST", "/auth/settings/timezone/", { value: "UTC" }, { csrf: false }), {
            name: "timezone",
          }),
        )
      ).status,
    ).toBe(403);
    const anonymous = await outcome(async () =>
      call(settingApi.action, await jsonRequest(null, "POST", "/auth/settings/timezone/", { value: "UTC" }), { name: "timezone" }),
    );
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.exception_code).toBe("not_authenticated");
    expect(
      (
        await outcome(async () =>
          call(settingApi.loader, await jsonRequest(ids.other, "GET", "/auth/settings/timezone/"), { name: "timezone" }),
        )
      ).status,
    ).toBe(405);
  });
});

describe("/settings page", () => {
  it("loads the user's settings and the timezone list", async () => {
    const res = await outcome(async () => call(settingsPage.loader, await jsonRequest(ids.other, "GET", "/settings?saved=settings")));
    expect(res.status).toBe(200);
    expect(res.body.settings.timezone).toBe("America/New_York");
    expect(res.body.timezones).toContain("UTC");
    expect(res.body.timezones).toContain("Europe/Berlin");
    expect(res.body.savedMessage).toBe("Your settings were saved.");
    expect(res.body.canEditSite).toBe(false);
  });

  it("saves the form and redirects with a success flag; bad values come back with field messages", async () => {
    const ok = await outcome(async () =>
      call(
        settingsPage.action,
        await formRequest(ids.other, "/settings", {
          intent: "settings",
          timezone: "Europe/Vienna",
          csv_delimiter: ";",
          extlinks_buildout_type: "PERCENT",
        }),
      ),
    );
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/settings?saved=settings");
    expect(await getUserSettings(stores.pg.db, ids.other)).toMatchObject({
      timezone: "Europe/Vienna",
      csv_delimiter: ";",
      extlinks_buildout_type: "PERCENT",
    });
    const bad = await outcome(async () =>
      call(
        settingsPage.action,
        await formRequest(ids.other, "/settings", {
          intent: "settings",
          timezone: "Nowhere",
          csv_delimiter: "|",
          timeseries_util_threshold_high: "1.2",
        }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["csv_delimiter", "timeseries_util_threshold_high", "timezone"]);
    expect(bad.body.values.timezone).toBe("Nowhere");
  });

  it("refuses a form without the CSRF field", async () => {
    const form = new FormData();
    form.set("intent", "settings");
    form.set("timezone", "UTC");
    const request = new Request(BASE + "/settings", { method: "POST", headers: { Cookie: await sessionCookie(ids.other) }, body: form });
    expect((await outcome(() => call(settingsPage.action, request))).status).toBe(403);
  });
});

describe("site settings and the default style", () => {
  it("GET siteconfig/ is public and has the spec's shape", async () => {
    const res = await outcome(async () => call(siteconfigApi.loader, await jsonRequest(null, "GET", "/siteconfig/")));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "mandatory_2fa",
        "welcome_page_enabled",
        "clickhouse_db_version",
        "default_style",
        "autocomplete_min_lengths",
        "as_name_of_deployment",
        "enable_user_self_signup",
        "rna_default_query",
      ].sort(),
    );
    expect(Object.keys(res.body.default_style).sort()).toEqual(
      [
        "id",
        "name",
        "branded_footer",
        "color_primary",
        "color_secondary",
        "color_tertiary",
        "company_name",
        "company_logo",
        "font",
        "footer_links",
      ].sort(),
    );
    expect(res.body.default_style).toMatchObject({
      color_primary: "#137cbd",
      color_secondary: "#5c7080",
      color_tertiary: "#394b59",
      font: "default",
    });
    expect(res.body.default_style.footer_links.map((l: { text: string }) => l.text)).toEqual(["Imprint", "Privacy policy"]);
    expect(res.body.autocomplete_min_lengths).toEqual({ primary_as: 1, secondary_as: 1, application: 2, infrastructure: 2 });
    expect((await outcome(async () => call(siteconfigApi.action, await jsonRequest(null, "POST", "/siteconfig/", {})))).status).toBe(405);
  });

  it("knows who may edit what", async () => {
    expect(siteSettingsRole(await ctx(ids.admin))).toBe("admin");
    expect(siteSettingsRole(await ctx(ids.moderator))).toBe("moderator");
    expect(siteSettingsRole(await ctx(ids.operator))).toBeNull();
  });

  it("lets a moderator change the default style's names and colours, but not branding or mandatory_2fa", async () => {
    const db = stores.pg.db;
    const moderator = await ctx(ids.moderator);
    const style = await updateDefaultStyle(db, moderator, { color_primary: "#aa3300", company_name: "Acme Net" });
    expect(style).toMatchObject({ color_primary: "#aa3300", company_name: "Acme Net" });
    expect((await resolveStyle(db, ids.operator)).colorPrimary).toBe("#aa3300");
    const branding = await settingError(() => updateDefaultStyle(db, moderator, { font: "TeleGroteskNext" }));
    expect(branding.status).toBe(403);
    const { values } = validateSiteSettings({ mandatory_2fa: "on" });
    const twoFa = await settingError(() => updateSiteSettings(db, moderator, values!));
    expect(twoFa.status).toBe(403);
    const [row] = await db.select().from(siteSettings);
    expect(row.mandatory2fa).toBe(false);
    const nobody = await settingError(async () => updateDefaultStyle(db, await ctx(ids.operator), { color_primary: "#000000" }));
    expect(nobody.status).toBe(403);
  });

  it("lets staff and superusers change every site setting", async () => {
    const db = stores.pg.db;
    const { values, errors } = validateSiteSettings({
      mandatory_2fa: "on",
      welcome_page_enabled: "true",
      clickhouse_db_version: "v42",
      as_name_of_deployment: "AS64500 Example",
      "autocomplete_min_lengths.primary_as": "2",
      "autocomplete_min_lengths.secondary_as": "2",
      "autocomplete_min_lengths.application": "3",
      "autocomplete_min_lengths.infrastructure": "3",
      rna_default_query: '{"range": "LAST_3_HOURS", "aggregationPrefixes": {"v4": 24}}',
    });
    expect(errors).toEqual({});
    await updateSiteSettings(db, await ctx(ids.admin), values!);
    const config = await getSiteConfig(db);
    expect(config).toMatchObject({
      mandatory_2fa: true,
      welcome_page_enabled: true,
      enable_user_self_signup: false,
      clickhouse_db_version: "v42",
      as_name_of_deployment: "AS64500 Example",
      autocomplete_min_lengths: { primary_as: 2, secondary_as: 2, application: 3, infrastructure: 3 },
      rna_default_query: { range: "LAST_3_HOURS", aggregationPrefixes: { v4: 24 } },
    });
    const bad = validateSiteSettings({ "autocomplete_min_lengths.primary_as": "-1", rna_default_query: "[1,2]", mandatory_2fa: "maybe" });
    expect(bad.values).toBeNull();
    expect(Object.keys(bad.errors)).toEqual(
      expect.arrayContaining(["autocomplete_min_lengths.primary_as", "rna_default_query", "mandatory_2fa"]),
    );
    // Back to the defaults for the tests that follow.
    await updateSiteSettings(
      db,
      await ctx(ids.admin),
      validateSiteSettings({
        "autocomplete_min_lengths.primary_as": "1",
        "autocomplete_min_lengths.secondary_as": "1",
        "autocomplete_min_lengths.application": "2",
        "autocomplete_min_lengths.infrastructure": "2",
      }).values!,
    );
  });

  it("validates colours, logos and footer links", async () => {
    expect(validateStylePatch({ color_primary: "#12345" }).errors.color_primary).toMatch(/#rrggbb/);
    expect(validateStylePatch({ color_secondary: "red" }).errors.color_secondary).toBeDefined();
    expect(validateStylePatch({ color_tertiary: "#ABCDEF" }).patch.color_tertiary).toBe("#abcdef");
    expect(validateStylePatch({ company_name: "  " }).errors.company_name).toBeDefined();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    expect(checkPngLogo(png)).toEqual({ ok: true, base64: Buffer.from(png).toString("base64") });
    expect(checkPngLogo(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0]))).toMatchObject({
      ok: false,
      message: "The logo must be a PNG image.",
    });
    const big = new Uint8Array(256 * 1024 + 1);
    big.set(png.slice(0, 8));
    expect(checkPngLogo(big)).toMatchObject({ ok: false });
    expect(validateStylePatch({ company_logo: Buffer.from(png).toString("base64") }).patch.company_logo).toBe(
      Buffer.from(png).toString("base64"),
    );
    expect(validateStylePatch({ company_logo: "R0lGODlhAQABAAAAACw=" }).errors.company_logo).toBeDefined();
    const links = validateStylePatch({
      footer_links: [
        { text: "Imprint", link: "/imprint" },
        { text: "Home", link: "https://example.org/a?b=c" },
        { text: "Bad", link: "javascript:alert(1)" },
        { text: "", link: "//evil.example" },
      ],
    });
    expect(Object.keys(links.errors).sort()).toEqual(["footer_links.2.link", "footer_links.3.link", "footer_links.3.text"]);
  });

  it("/site-settings: the default query is checked on save against the Raw Network Analyzer's shape, naming what is wrong", async () => {
    const site = {
      intent: "site",
      "autocomplete_min_lengths.primary_as": "1",
      "autocomplete_min_lengths.secondary_as": "1",
      "autocomplete_min_lengths.application": "2",
      "autocomplete_min_lengths.infrastructure": "2",
    };
    const save = async (rnaDefaultQuery: string) =>
      outcome(async () =>
        call(siteSettingsPage.action, await formRequest(ids.admin, "/site-settings", { ...site, rna_default_query: rnaDefaultQuery })),
      );
    const stored = async () => (await getSiteConfig(stores.pg.db)).rna_default_query;
    const before = await stored();
    const refused: [string, RegExp][] = [
      ['{"range": "LAST_30_DAYS"}', /^range: choose one of LAST_30_MINUTES, .*LAST_7_DAYS \(raw flows are kept 7 days\)\.$/],
      [
        '{"aggregationPrefixes": {"v4": 33}}',
        /^aggregationPrefixes\.v4: Please type a prefix between \/1 and \/32 to aggregate the data\.$/,
      ],
      ['{"filterExpression": "proto tcp and"}', /^filterExpression: .*column 14/],
      [
        '{"limit": 100}',
        /^unknown field "limit" \(the fields are columns, aggregationPrefixes, filters, filterExpression, range, sort\)\.$/,
      ],
      ['{"columns": [], "sort": {"column": "bytes"}}', /^columns: pick at least one column; sort\.direction: asc or desc\.$/],
      ["[1]", /^Enter a JSON object/],
      ["{range: LAST_1_HOUR}", /^This is not valid JSON\.$/],
    ];
    for (const [text, message] of refused) {
      const answer = await save(text);
      expect([text, answer.status]).toEqual([text, 400]);
      expect(Object.keys(answer.body.errors)).toEqual(["rna_default_query"]);
      expect(answer.body.errors.rna_default_query).toMatch(message);
      // The form shows what was typed, to correct it.
      expect(answer.body.values.rna_default_query).toBe(text);
      expect(await stored()).toEqual(before);
    }
    const example = {
      columns: ["time_received", "src_addr", "dst_addr", "bytes"],
      aggregationPrefixes: { v4: 24, v6: 48 },
      filters: [{ dimension: "AS_DST", values: ["64500"] }],
      filterExpression: "proto tcp and dst port 443",
      range: "LAST_6_HOURS",
      sort: { column: "bytes", direction: "desc" },
    };
    const saved = await save(JSON.stringify(example, null, 2));
    expect([saved.status, saved.location]).toEqual([302, "/site-settings?saved=site"]);
    expect(await stored()).toEqual(example);
    const page = await outcome(async () => call(siteSettingsPage.loader, await jsonRequest(ids.admin, "GET", "/site-settings")));
    expect(page.body.site.rna_default_query).toEqual(example);
    expect((await save("")).status).toBe(302);
    expect(await stored()).toEqual({});
  });

  it("/site-settings: 403 for others, the style only for moderators, everything for admins", async () => {
    const operator = await outcome(async () => call(siteSettingsPage.loader, await jsonRequest(ids.operator, "GET", "/site-settings")));
    expect(operator.status).toBe(403);
    const moderator = await outcome(async () => call(siteSettingsPage.loader, await jsonRequest(ids.moderator, "GET", "/site-settings")));
    expect(moderator.status).toBe(200);
    expect(moderator.body.role).toBe("moderator");
    expect(moderator.body.site).toBeNull();
    const admin = await outcome(async () => call(siteSettingsPage.loader, await jsonRequest(ids.admin, "GET", "/site-settings")));
    expect(admin.body.site).toMatchObject({
      mandatory_2fa: false,
      public_looking_glass_enabled: false,
      autocomplete_min_lengths: { primary_as: 1, secondary_as: 1, application: 2, infrastructure: 2 },
    });

    const moderatorSite = await outcome(async () =>
      call(siteSettingsPage.action, await formRequest(ids.moderator, "/site-settings", { intent: "site", mandatory_2fa: "" })),
    );
    expect(moderatorSite.status).toBe(403);
    const colours = {
      intent: "style",
      name: "Default",
      company_name: "Acme Net",
      color_primary: "#0f9960",
      color_secondary: "#5c7080",
      color_tertiary: "#394b59",
    };
    const styled = await outcome(async () =>
      call(siteSettingsPage.action, await formRequest(ids.moderator, "/site-settings", { ...colours, font: "TeleGroteskNext" })),
    );
    expect(styled.status).toBe(302);
    const after = (await getSiteConfig(stores.pg.db)).default_style;
    expect(after.color_primary).toBe("#0f9960");
    expect(after.font).toBe("default"); // a moderator's form carries names and colours only
    const invalid = await outcome(async () =>
      call(siteSettingsPage.action, await formRequest(ids.moderator, "/site-settings", { ...colours, color_primary: "#xyz" })),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.color_primary).toMatch(/#rrggbb/);

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
    const adminStyle = await outcome(async () =>
      call(
        siteSettingsPage.action,
        await formRequest(ids.admin, "/site-settings", {
          ...colours,
          font: "TeleGroteskNext",
          branded_footer: "on",
          company_logo: new Blob([png], { type: "image/png" }),
          footer_text_0: "Imprint",
          footer_link_0: "/imprint",
          footer_text_1: "",
          footer_link_1: "",
          footer_text_2: "Status",
          footer_link_2: "https://status.example.org",
        }),
      ),
    );
    expect(adminStyle.status).toBe(302);
    const branded = (await getSiteConfig(stores.pg.db)).default_style;
    expect(branded).toMatchObject({ font: "TeleGroteskNext", branded_footer: true, company_logo: Buffer.from(png).toString("base64") });
    expect(branded.footer_links).toEqual([
      { id: 1, text: "Imprint", link: "/imprint" },
      { id: 2, text: "Status", link: "https://status.example.org" },
    ]);
    const badLogo = await outcome(async () =>
      call(
        siteSettingsPage.action,
        await formRequest(ids.admin, "/site-settings", {
          ...colours,
          company_logo: new Blob([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])]),
          footer_text_3: "x",
          footer_link_3: "ftp://x",
        }),
      ),
    );
    expect(badLogo.status).toBe(400);
    expect(Object.keys(badLogo.body.errors).sort()).toEqual(["company_logo", "footer_link_3"]);
  });
});

describe("personal style overrides", () => {
  it("are seen by their owner only, follow the default's branding, and can be reset", async () => {
    const db = stores.pg.db;
    const result = await setPersonalStyle(db, ids.operator, {
      company_name: "Oskar's view",
      color_primary: "#ff00aa",
      color_secondary: "#111111",
      color_tertiary: "#222222",
    });
    expect(result.ok).toBe(true);
    const mine = await resolveStyle(db, ids.operator);
    const theirs = await resolveStyle(db, ids.other);
    expect(mine).toMatchObject({ companyName: "Oskar's view", colorPrimary: "#ff00aa", colorTertiary: "#222222" });
    expect(theirs.companyName).toBe("Acme Net");
    expect(theirs.colorPrimary).toBe("#0f9960");
    expect(mine.footerLinks).toEqual(theirs.footerLinks);

    // A moderator's new default does not touch the override; branding changes by an admin reach it.
    await updateDefaultStyle(db, await ctx(ids.moderator), { color_primary: "#123456" });
    expect((await resolveStyle(db, ids.other)).colorPrimary).toBe("#123456");
    expect((await resolveStyle(db, ids.operator)).colorPrimary).toBe("#ff00aa");
    await updateDefaultStyle(db, await ctx(ids.admin), { footer_links: [{ id: 1, text: "Legal", link: "/legal" }] });
    expect((await resolveStyle(db, ids.operator)).footerLinks).toEqual([{ id: 1, text: "Legal", link: "/legal" }]);

    // Saving again updates the same row.
    await setPersonalStyle(db, ids.operator, {
      company_name: "Oskar 2",
      color_primary: "#ff00ab",
      color_secondary: "#111111",
      color_tertiary: "#222222",
    });
    expect(await db.select().from(styles).where(eq(styles.ownerUserId, ids.operator))).toHaveLength(1);
    expect((await getPersonalStyle(db, ids.operator))?.company_name).toBe("Oskar 2");
    expect(await getPersonalStyle(db, ids.other)).toBeNull();

    const bad = await setPersonalStyle(db, ids.operator, {
      company_name: "",
      color_primary: "blue",
      color_secondary: "#111111",
      color_tertiary: "#222222",
    });
    expect(bad).toMatchObject({ ok: false, errors: { company_name: expect.any(String), color_primary: expect.any(String) } });

    await resetPersonalStyle(db, ids.operator);
    expect((await resolveStyle(db, ids.operator)).colorPrimary).toBe("#123456");
    expect(await db.select().from(styles).where(eq(styles.ownerUserId, ids.operator))).toHaveLength(0);
  });

  it("works through the /settings form", async () => {
    const saved = await outcome(async () =>
      call(
        settingsPage.action,
        await formRequest(ids.other, "/settings", {
          intent: "style",
          company_name: "Mine",
          color_primary: "#00ff00",
          color_secondary: "#5c7080",
          color_tertiary: "#394b59",
        }),
      ),
    );
    expect(saved).toMatchObject({ status: 302, location: "/settings?saved=style" });
    expect((await resolveStyle(stores.pg.db, ids.other)).colorPrimary).toBe("#00ff00");
    expect((await resolveStyle(stores.pg.db, ids.operator)).colorPrimary).toBe("#123456");
    const bad = await outcome(async () =>
      call(
        settingsPage.action,
        await formRequest(ids.other, "/settings", {
          intent: "style",
          company_name: "Mine",
          color_primary: "#00ff0",
          color_secondary: "#5c7080",
          color_tertiary: "#394b59",
        }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.color_primary).toBeDefined();
    const reset = await outcome(async () =>
      call(settingsPage.action, await formRequest(ids.other, "/settings", { intent: "style-reset" })),
    );
    expect(reset.location).toBe("/settings?saved=style-reset");
    expect((await resolveStyle(stores.pg.db, ids.other)).colorPrimary).toBe("#123456");
  });
});

describe("groups", () => {
  it("GET auth/groups/ lists all groups and the user's own", async () => {
    const res = await outcome(async () => call(groupsApi.loader, await jsonRequest(ids.moderator, "GET", "/auth/groups/")));
    expect(res.status).toBe(200);
    expect(res.body.allGroups.map((g: { name: string }) => g.name)).toEqual(["moderators", "noc", "ops"]);
    expect(res.body.myGroups.map((g: { name: string }) => g.name)).toEqual(["moderators"]);
    expect(res.body.allGroups[0]).toEqual({ id: expect.any(Number), name: "moderators" });
  });

  it("refuses users who may not change their own group", async () => {
    const error = await settingError(async () => setOwnGroups(stores.pg.db, await ctx(ids.operator), ["ops"]));
    expect(error.status).toBe(403);
    expect(error.message).toBe(MESSAGES.groupSwitchFailed);
    const res = await outcome(async () =>
      call(groupsApi.action, await jsonRequest(ids.operator, "POST", "/auth/groups/", { groups: ["ops"] })),
    );
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("The application failed to set the Group.");
    expect(await groupSwitcherData(stores.pg.db, await ctx(ids.operator))).toBeNull();
  });

  it("lets permitted users switch by name or id, never into the moderators group", async () => {
    const db = stores.pg.db;
    const switcher = await ctx(ids.switcher);
    expect((await setOwnGroups(db, switcher, ["ops"])).myGroups.map((g) => g.name)).toEqual(["ops"]);
    const noc = (await listGroups(db, ids.switcher)).allGroups.find((g) => g.name === "noc")!;
    const res = await outcome(async () =>
      call(groupsApi.action, await jsonRequest(ids.switcher, "POST", "/auth/groups/", { groups: [noc.id] })),
    );
    expect(res.status).toBe(200);
    expect(res.body.myGroups).toEqual([noc]);
    const moderators = await outcome(async () =>
      call(groupsApi.action, await jsonRequest(ids.switcher, "POST", "/auth/groups/", { groups: ["moderators"] })),
    );
    expect(moderators.status).toBe(403);
    expect(moderators.body.detail).toBe(MESSAGES.groupSwitchFailed);
    for (const body of [{ groups: ["no-such-group"] }, { groups: [] }, { groups: [{}] }, {}]) {
      const bad = await outcome(async () => call(groupsApi.action, await jsonRequest(ids.switcher, "POST", "/auth/groups/", body)));
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.detail).toBe(MESSAGES.groupSwitchFailed);
      expect(bad.body.errors[0].field).toBe("groups");
    }
    expect((await listGroups(db, ids.switcher)).myGroups).toEqual([noc]);
    const withoutCsrf = await outcome(async () =>
      call(groupsApi.action, await jsonRequest(ids.switcher, "POST", "/auth/groups/", { groups: ["ops"] }, { csrf: false })),
    );
    expect(withoutCsrf.status).toBe(403);
    const data = await groupSwitcherData(db, await ctx(ids.switcher));
    expect(data).toEqual({ groups: [expect.objectContaining({ name: "noc" }), expect.objectContaining({ name: "ops" })], current: noc.id });
  });

  it("keeps a switching moderator a moderator; superusers may assign it", async () => {
    const db = stores.pg.db;
    const mine = await setOwnGroups(db, await ctx(ids.modSwitcher), ["ops"]);
    expect(mine.myGroups.map((g) => g.name)).toEqual(["moderators", "ops"]);
    const admin = await setOwnGroups(db, await ctx(ids.admin), ["moderators", "noc"]);
    expect(admin.myGroups.map((g) => g.name)).toEqual(["moderators", "noc"]);
    const adminSwitcher = await groupSwitcherData(db, await ctx(ids.admin));
    expect(adminSwitcher?.groups.map((g) => g.name)).toContain("moderators");
  });

  it("/settings/group: redirects back on success, shows the spec's message on failure", async () => {
    const ok = await outcome(async () =>
      call(groupRoute.action, await formRequest(ids.switcher, "/settings/group", { groups: "ops", back: "/flow-explorer?x=1" })),
    );
    expect(ok).toMatchObject({ status: 302, location: "/flow-explorer?x=1" });
    expect((await listGroups(stores.pg.db, ids.switcher)).myGroups.map((g) => g.name)).toEqual(["ops"]);
    const script = await outcome(async () =>
      call(groupRoute.action, await formRequest(ids.switcher, "/settings/group", { groups: "noc", back: "/", mode: "fetch" })),
    );
    expect(script).toMatchObject({ status: 200, body: { ok: true } });
    const offsite = await outcome(async () =>
      call(groupRoute.action, await formRequest(ids.switcher, "/settings/group", { groups: "noc", back: "https://evil.example/" })),
    );
    expect(offsite.location).toBe("/");
    const refused = await outcome(async () =>
      call(groupRoute.action, await formRequest(ids.operator, "/settings/group", { groups: "ops", back: "/settings" })),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: "The application failed to set the Group.", back: "/settings" });
  });
});
