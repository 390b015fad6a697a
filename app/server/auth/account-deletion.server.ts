import { and, count, eq, ne, sql } from "drizzle-orm";
import { loginAttempts, mappings, outboxEmails, styles, users } from "~db/postgres/schema";
import { verifyPassword } from "../password.server";
import type { Db } from "../postgres.server";

export type OwnAccountDeletion = { deleted: true } | { deleted: false; reason: "wrong_password" | "last_superuser" };

/**
 * Deletes a user's own account once the password is confirmed, with the personal data kept beside
 * it (sessions, settings, tokens and devices go with the row; personal styles and mappings, login
 * attempts and mail are removed here). The last active superuser is refused.
 */
export async function deleteOwnAccount(db: Db, userId: number, password: string): Promise<OwnAccountDeletion> {
  const [account] = await db.select().from(users).where(eq(users.id, userId));
  if (!account || !(await verifyPassword(password, account.passwordHash))) return { deleted: false, reason: "wrong_password" };
  const refused = await db.transaction(async (tx) => {
    if (account.isSuperuser) {
      // Serialise concurrent deletions of superusers: two of the last two must not both succeed.
      await tx.execute(sql`SELECT id FROM users WHERE is_superuser FOR UPDATE`);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.isSuperuser, true), eq(users.isActive, true), ne(users.id, account.id)));
      if (Number(n) === 0) return true;
    }
    await deleteAccountRows(tx, account);
    return false;
  });
  return refused ? { deleted: false, reason: "last_superuser" } : { deleted: true };
}

/**
 * Removes an account and the personal data kept beside it (sessions, settings, tokens, devices,
 * memberships and grants go with the row; personal styles and mappings, login attempts and mail
 * are removed here). Pass the transaction of the deletion; the caller checks who may delete.
 */
export async function deleteAccountRows(tx: Pick<Db, "delete">, account: { id: number; email: string }): Promise<void> {
  await tx.delete(styles).where(eq(styles.ownerUserId, account.id));
  await tx.delete(mappings).where(eq(mappings.ownerUserId, account.id));
  await tx.delete(loginAttempts).where(eq(sql`lower(${loginAttempts.email})`, account.email.toLowerCase()));
  await tx.delete(outboxEmails).where(eq(sql`lower(${outboxEmails.to})`, account.email.toLowerCase()));
  await tx.delete(users).where(eq(users.id, account.id));
}
