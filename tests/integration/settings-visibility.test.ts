// Settings of a tool reach only users who can use it: the /settings page, its form and POST auth/settings/{name}/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userPermissions, users } from "~db/postgres/schema";
import { useServicesForTests } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import * as settingsPage from "~/routes/_app.settings";
import * as settingApi from "~/routes/auth.settings.$name";
import { formRequest, getRequest, jsonRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const cookie: Record<"delegated" | "core" | "superuser", string> = { delegated: "", core: "", superuser: "" };
let delegatedId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const db = stores.pg.db;
  const make = async (email: string, extra: Partial<typeof users.$inferInsert> = {}) =>
    (
      await db
        .insert(users)
        .values({ email, firstName: "x", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  delegatedId = await make("delegated@visibility.test", { isDelegated: true });
  const core = await make("core@visibility.test");
  const superuser = await make("root@visibility.test", { isSuperuser: true });
  await db.insert(userPermissions).values([
    { userId: delegatedId, permission: "API_FLOWS_4D" },
    { userId: core, permission: "API_LINK_UTIL_INTERNAL" },
  ]);
  cookie.delegated = await sessionCookie(stores, delegatedId);
  cookie.core = await sessionCookie(stores, core);
  cookie.superuser = await sessionCookie(stores, superuser);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("settings by the tools a user can use", () => {
  it("sends a delegated user without the planners only timezone and CSV delimiter", async () => {
    const page = await runRoute(settingsPage.loader, getRequest("/settings", cookie.delegated));
    expect(page.status).toBe(200);
    expect(page.data.visible).toEqual(["timezone", "csv_delimiter"]);
    expect(Object.keys(page.data.settings).sort()).toEqual(["csv_delimiter", "timezone"]);
  });

  it("gives a Core Planner user the internal-link and timeseries settings, not the Border Planner's", async () => {
    const page = await runRoute(settingsPage.loader, getRequest("/settings", cookie.core));
    expect(page.data.visible).toEqual([
      "timezone",
      "csv_delimiter",
      "timeseries_util_threshold_medium",
      "timeseries_util_threshold_high",
      "intlinks_util_threshold_medium",
      "intlinks_util_threshold_high",
      "intlinks_buildout_threshold",
      "intlinks_buildout_type",
    ]);
    const superuser = await runRoute(settingsPage.loader, getRequest("/settings", cookie.superuser));
    expect(superuser.data.visible).toHaveLength(12);
  });

  it("ignores hidden settings in the form and refuses them in the JSON call", async () => {
    const form = await runRoute(
      settingsPage.action,
      formRequest(
        "/settings",
        {
          intent: "settings",
          timezone: "Europe/Berlin",
          csv_delimiter: ";",
          intlinks_util_threshold_medium: "0.1",
          extlinks_buildout_type: "PERCENT",
        },
        cookie.delegated,
      ),
    );
    expect(form.status).toBe(302);
    const stored = await getUserSettings(stores.pg.db, delegatedId);
    expect(stored).toMatchObject({
      timezone: "Europe/Berlin",
      csv_delimiter: ";",
      intlinks_util_threshold_medium: 0.75,
      extlinks_buildout_type: "DAYS",
    });

    const refused = await runRoute(
      settingApi.action,
      jsonRequest("/auth/settings/intlinks_util_threshold/", { value: 0.5, level: "medium" }, { cookie: cookie.delegated }),
      { name: "intlinks_util_threshold" },
    );
    expect(refused.status).toBe(403);
    expect(refused.data.errors).toEqual([
      { field: "intlinks_util_threshold_medium", message: "You do not have permission to perform this action." },
    ]);
    const allowed = await runRoute(
      settingApi.action,
      jsonRequest("/auth/settings/timezone/", { value: "UTC" }, { cookie: cookie.delegated }),
      { name: "timezone" },
    );
    expect(allowed.status).toBe(200);
    const core = await runRoute(
      settingApi.action,
      jsonRequest("/auth/settings/intlinks_util_threshold/", { value: 0.5, level: "medium" }, { cookie: cookie.core }),
      { name: "intlinks_util_threshold" },
    );
    expect(core.status).toBe(200);
  });
});
