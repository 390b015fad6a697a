/**
 * The /notifications page's forms (the way they work without JavaScript): mark read and unread,
 * archive, move back to the inbox, delete — each a redirect back to the list looked at; another
 * user's or a deleted notification is a 404 with the action's own message, an unknown action a 400.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, users } from "~db/postgres/schema";
import * as notificationsRoute from "~/routes/_app.notifications";
import { NOTIFICATION_ACTION_FAILED, UNKNOWN_NOTIFICATION_ACTION } from "~/server/notifications/notifications-screen.server";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let cookie = "";
let owner = 0;
let other = 0;

async function insertUser(email: string) {
  const [u] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  return u.id;
}
async function insertNotification(userId: number, title: string) {
  const [n] = await stores.pg.db.insert(notifications).values({ userId, title, message: "m" }).returning({ id: notifications.id });
  return n.id;
}
const row = async (id: number) => (await stores.pg.db.select().from(notifications).where(eq(notifications.id, id)))[0];
const post = (fields: Record<string, string>, path = "/notifications") =>
  runRoute(notificationsRoute.action, formRequest(path, fields, cookie));
const titles = async (path: string) =>
  ((await runRoute(notificationsRoute.loader, getRequest(path, cookie))).data.notifications as { title: string }[]).map((n) => n.title);

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  owner = await insertUser("owner@notifications-screen.test");
  other = await insertUser("other@notifications-screen.test");
  cookie = await sessionCookie(stores, owner);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("the notifications page's actions", () => {
  it("mark read, mark unread, archive, move back to the inbox, delete", async () => {
    const id = await insertNotification(owner, "Report ready");
    expect(await post({ id: String(id), intent: "read" })).toMatchObject({ status: 302, location: "/notifications" });
    expect((await row(id)).isRead).toBe(true);
    await post({ id: String(id), intent: "unread" });
    expect((await row(id)).isRead).toBe(false);

    expect(await post({ id: String(id), intent: "archive" })).toMatchObject({ status: 302, location: "/notifications" });
    expect((await row(id)).isArchived).toBe(true);
    expect(await titles("/notifications")).toEqual([]);
    expect(await titles("/notifications?archived=1")).toEqual(["Report ready"]);

    // From the list with archived ones, back to that list.
    expect(await post({ id: String(id), intent: "unarchive" }, "/notifications?archived=1")).toMatchObject({
      status: 302,
      location: "/notifications?archived=1",
    });
    expect((await row(id)).isArchived).toBe(false);
    expect(await titles("/notifications")).toEqual(["Report ready"]);

    expect(await post({ id: String(id), intent: "delete" })).toMatchObject({ status: 302, location: "/notifications" });
    expect(await row(id)).toBeUndefined();
  });

  it("a notification of another user, or one already deleted, is a 404 with the action's own message, and stays as it was", async () => {
    const theirs = await insertNotification(other, "Not yours");
    for (const intent of ["read", "unread", "archive", "unarchive", "delete"] as const) {
      const outcome = await post({ id: String(theirs), intent });
      expect(outcome.status).toBe(404);
      expect(outcome.data).toEqual({ intent, id: theirs, error: NOTIFICATION_ACTION_FAILED[intent] });
    }
    expect(await row(theirs)).toMatchObject({ isRead: false, isArchived: false, userId: other });
    expect(NOTIFICATION_ACTION_FAILED.read).toBe("Marking the notification as read failed: it no longer exists.");
  });

  it("an unknown action or a bad id is a 400, never a 500", async () => {
    const cases: Record<string, string>[] = [
      { id: "1", intent: "explode" },
      { id: "x", intent: "read" },
      { id: "99999999999", intent: "read" },
      { intent: "read" },
    ];
    for (const fields of cases) {
      const outcome = await post(fields);
      expect(outcome.status).toBe(400);
      expect(outcome.data.error).toBe(UNKNOWN_NOTIFICATION_ACTION);
    }
  });
});
