import { and, desc, eq, inArray, or } from "drizzle-orm";
import { groupPermissions, notifications, userGroups, userPermissions, users } from "~db/postgres/schema";
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

export type NotificationUpdate = { id: number; is_read?: boolean; is_archived?: boolean; do_pop_up?: boolean };

/**
 * Applies read/archive changes, and do_pop_up false once a notification popped up, to the user's own
 * notifications; ids of others are ignored. Returns the ids changed.
 */
export async function updateNotifications(db: Db, userId: number, updates: NotificationUpdate[]): Promise<number[]> {
  const changed: number[] = [];
  for (const update of updates) {
    const set: Partial<typeof notifications.$inferInsert> = {};
    if (update.is_read !== undefined) set.isRead = update.is_read;
    if (update.is_archived !== undefined) set.isArchived = update.is_archived;
    if (update.do_pop_up !== undefined) set.doPopUp = update.do_pop_up;
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
  db: Pick<Db, "insert">,
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

/**
 * The active, non-delegated accounts holding a permission (directly, through a group, or as
 * superusers): who is told about things that need someone with that right, e.g. VIEW_USERS for
 * a new applicant request.
 */
export async function usersHoldingPermission(db: Db, permission: string): Promise<number[]> {
  const direct = db.select({ id: userPermissions.userId }).from(userPermissions).where(eq(userPermissions.permission, permission));
  const viaGroup = db
    .select({ id: userGroups.userId })
    .from(userGroups)
    .innerJoin(groupPermissions, eq(groupPermissions.groupId, userGroups.groupId))
    .where(eq(groupPermissions.permission, permission));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        eq(users.isDelegated, false),
        or(eq(users.isSuperuser, true), inArray(users.id, direct), inArray(users.id, viaGroup)),
      ),
    )
    .orderBy(users.id);
  return rows.map((r) => r.id);
}

/** The active, non-delegated accounts with the staff or superuser flag: who is told how the installation runs. */
export async function staffAndSuperusers(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isActive, true), eq(users.isDelegated, false), or(eq(users.isStaff, true), eq(users.isSuperuser, true))))
    .orderBy(users.id);
  return rows.map((r) => r.id);
}

/** What an account is told when something about it changes that its owner should know (and may not have done). */
export const ACCOUNT_CHANGE_NOTICES = {
  passwordChanged: {
    title: "Your password was changed",
    message: "If you did not change it, reset your password at once and tell your administrator.",
  },
  twoFactorReset: {
    title: "Your two-factor authentication was reset",
    message: "An administrator removed your authenticators and recovery codes. Set up two-factor authentication again under Settings.",
  },
  twoFactorChanged: {
    title: "Your two-factor authentication changed",
    message: "An authenticator or your recovery codes changed. If this was not you, tell your administrator.",
  },
  accountChanged: {
    title: "Your account was changed",
    message: "An administrator changed your name, groups, permissions or feature flags.",
  },
} as const;

export async function notifyAccountChange(
  db: Pick<Db, "insert">,
  userId: number,
  change: keyof typeof ACCOUNT_CHANGE_NOTICES,
): Promise<void> {
  await notify(db, [userId], { ...ACCOUNT_CHANGE_NOTICES[change], doPopUp: true });
}
