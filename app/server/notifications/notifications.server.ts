import { and, desc, eq } from "drizzle-orm";
import { notifications } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

export type NotificationView = {
  id: number;
  title: string;
  message: string;
  is_read: boolean;
  is_archived: boolean;
  do_pop_up: boolean;
  created_at: string;
};

function view(row: typeof notifications.$inferSelect): NotificationView {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    is_read: row.isRead,
    is_archived: row.isArchived,
    do_pop_up: row.doPopUp,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listNotifications(db: Db, userId: number, options: { includeArchived?: boolean } = {}): Promise<NotificationView[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(
      options.includeArchived
        ? eq(notifications.userId, userId)
        : and(eq(notifications.userId, userId), eq(notifications.isArchived, false)),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id));
  return rows.map(view);
}

export type NotificationUpdate = { id: number; is_read?: boolean; is_archived?: boolean };

/** Applies read/archive changes to the user's own notifications; ids of others are ignored. Returns the ids changed. */
export async function updateNotifications(db: Db, userId: number, updates: NotificationUpdate[]): Promise<number[]> {
  const changed: number[] = [];
  for (const update of updates) {
    const set: Partial<typeof notifications.$inferInsert> = {};
    if (update.is_read !== undefined) set.isRead = update.is_read;
    if (update.is_archived !== undefined) set.isArchived = update.is_archived;
    if (!Object.keys(set).length) continue;
    const rows = await db
      .update(notifications)
      .set(set)
      .where(and(eq(notifications.id, update.id), eq(notifications.userId, userId)))
      .returning({ id: notifications.id });
    changed.push(...rows.map((r) => r.id));
  }
  return changed;
}

export async function deleteNotification(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function notify(
  db: Db,
  userIds: number[],
  notification: { title: string; message?: string; doPopUp?: boolean },
): Promise<void> {
  if (!userIds.length) return;
  await db.insert(notifications).values(
    userIds.map((userId) => ({
      userId,
      title: notification.title,
      message: notification.message ?? "",
      doPopUp: notification.doPopUp ?? false,
    })),
  );
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false), eq(notifications.isArchived, false)));
  return rows.length;
}
