/** The /notifications screen: the user's notifications, and its buttons (one form per action, so they work without JavaScript). */
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { safeTimezone } from "~/lib/date-format";
import { readProtectedForm } from "../auth/guard.server";
import type { UserContext } from "../auth/user-context.server";
import type { Services } from "../services.server";
import { getUserSettings } from "../settings/user-settings.server";
import { deleteNotification, listNotifications, updateNotifications } from "./notifications.server";

export async function loadNotificationsScreen(services: Services, user: UserContext, url: URL) {
  const showArchived = url.searchParams.get("archived") === "1";
  const [notifications, settings] = await Promise.all([
    listNotifications(services.pg.db, user.id, { includeArchived: showArchived }),
    getUserSettings(services.pg.db, user.id),
  ]);
  return { notifications, showArchived, timezone: safeTimezone(settings.timezone) };
}

export type NotificationsScreen = Awaited<ReturnType<typeof loadNotificationsScreen>>;

const Intent = z.object({
  id: z.coerce.number().int().positive(),
  intent: z.enum(["read", "unread", "archive", "delete"]),
});

/** One button's action on one notification, then back to the list the user was looking at. */
export async function applyNotificationAction(services: Services, user: UserContext, request: Request) {
  const form = await readProtectedForm(request);
  const parsed = Intent.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "Unknown notification action." };
  const { id, intent } = parsed.data;
  if (intent === "delete") await deleteNotification(services.pg.db, user.id, id);
  else
    await updateNotifications(services.pg.db, user.id, [
      intent === "archive" ? { id, is_archived: true } : { id, is_read: intent === "read" },
    ]);
  const url = new URL(request.url);
  return redirect(`/notifications${url.searchParams.get("archived") === "1" ? "?archived=1" : ""}`);
}
