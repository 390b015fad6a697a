/**
 * Notifications in the user's timezone: the page's loader and the app frame (whose timezone the
 * pop-ups use) carry the user's setting, and the page shows the time in the spec's long format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, users, userSettings } from "~db/postgres/schema";
import { formatDateLong } from "~/lib/date-format";
import * as notificationsRoute from "~/routes/_app.notifications";
import { loadAppFrame } from "~/server/app-frame.server";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let cookie = "";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [u] = await stores.pg.db
    .insert(users)
    .values({ email: "tz@notifications.test", firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  await stores.pg.db.insert(userSettings).values({ userId: u.id, timezone: "Europe/Berlin" });
  await stores.pg.db
    .insert(notifications)
    .values({ userId: u.id, title: "Border link", message: "peak", doPopUp: true, createdAt: new Date(Date.UTC(2026, 10, 20, 13, 5)) });
  cookie = await sessionCookie(stores, u.id);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("notifications in the user's timezone", () => {
  it("the page and the pop-ups' frame carry the user's timezone; the page shows dd.MM.yyyy HH:mm with it", async () => {
    const { data } = await runRoute(notificationsRoute.loader, getRequest("/notifications", cookie));
    expect(data.timezone).toBe("Europe/Berlin");
    const { frame } = await loadAppFrame(getRequest("/notifications", cookie));
    expect(frame.timezone).toBe("Europe/Berlin");
    // What the page and the pop-up show for it.
    expect(formatDateLong(data.notifications[0].created_at, data.timezone)).toBe("20.11.2026 14:05 Europe/Berlin");
  });
});
