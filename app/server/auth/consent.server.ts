import { eq } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

/** Records the GDPR consent of a user (shell §4, §6) and returns when it was given. */
export async function recordConsent(db: Db, userId: number): Promise<Date> {
  const consentedAt = new Date();
  await db.update(users).set({ hasConsented: true, consentedAt }).where(eq(users.id, userId));
  return consentedAt;
}

/** Clears the consent: the user has no access until consenting again (the caller ends the session). */
export async function withdrawConsent(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ hasConsented: false, consentedAt: null }).where(eq(users.id, userId));
}
