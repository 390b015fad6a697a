/**
 * The /notifications screen: the user's notifications, and its buttons (one form per action, so
 * they work without JavaScript). A done action redirects back to the list the user was looking at
 * (PRG); a refused one answers 400 (unknown action) or 404 (not the user's, or gone) with its own
 * message, shown above the list.
 */
import { data, redirect } from "@remix-run/node";
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

export const NOTIFICATION_INTENTS = ["read", "unread", "archive", "unarchive", "delete"] as const;
export type NotificationIntent = (typeof NOTIFICATION_INTENTS)[number];

/** What the page says when an action could not be done (the spec's toast: marking as read failed). */
export const NOTIFICATION_ACTION_FAILED: Record<NotificationIntent, string> = {
  read: "Marking the notification as read failed: it no longer exists.",
  unread: "Marking the notification as unread failed: it no longer exists.",
  archive: "Archiving the notification failed: it no longer exists.",
  unarchive: "Moving the notification back to the inbox failed: it no longer exists.",
  delete: "Deleting the notification failed: it no longer exists.",
};
export const UNKNOWN_NOTIFICATION_ACTION = "Unknown notification action.";

export type NotificationActionResult = { intent: NotificationIntent | ""; id: number | null; error: string };

const Intent = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  intent: z.enum(NOTIFICATION_INTENTS),
});

const UPDATE: Record<Exclude<NotificationIntent, "delete">, { is_read?: boolean; is_archived?: boolean }> = {
  read: { is_read: true },
  unread: { is_read: false },
  archive: { is_archived: true },
  unarchive: { is_archived: false },
};

/** One button's action on one notification, then back to the list the user was looking at. */
export async function applyNotificationAction(services: Services, user: UserContext, request: Request) {
  const form = await readProtectedForm(request);
  const parsed = Intent.safeParse({ id: form.get("id"), intent: form.get("intent") });
  if (!parsed.success) {
    const intent = NOTIFICATION_INTENTS.find((i) => i === form.get("intent")) ?? "";
    return data<NotificationActionResult>({ intent, id: null, error: UNKNOWN_NOTIFICATION_ACTION }, { status: 400 });
  }
  const { id, intent } = parsed.data;
  const done =
    intent === "delete"
      ? await deleteNotification(services.pg.db, user.id, id)
      : (await updateNotifications(services.pg.db, user.id, [{ id, ...UPDATE[intent] }])).length > 0;
  if (!done) return data<NotificationActionResult>({ intent, id, error: NOTIFICATION_ACTION_FAILED[intent] }, { status: 404 });
  const url = new URL(request.url);
  return redirect(`/notifications${url.searchParams.get("archived") === "1" ? "?archived=1" : ""}`);
}
