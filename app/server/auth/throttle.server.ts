import { and, count, eq, gt, lt } from "drizzle-orm";
import { loginAttempts } from "~db/postgres/schema";
import type { Db } from "../postgres.server";
import { UNKNOWN_ADDRESS } from "./session.server";

/** Failed logins allowed per account and per client address within the window. */
export const THROTTLE = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 30 } as const;

export type ThrottleState = { blocked: boolean; retryAfterSeconds: number };

/** Counted in PostgreSQL, so every web replica sees the same attempts. */
export async function loginThrottle(db: Db, email: string, clientAddress: string, now = new Date()): Promise<ThrottleState> {
  const since = new Date(now.getTime() - THROTTLE.windowMs);
  const [[byAccount], [byAddress]] = await Promise.all([
    db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, email), eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since))),
    db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.clientAddress, clientAddress), eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since))),
  ]);
  // Without a known address (no trusted proxy) all clients would share one counter: skip it.
  const addressBlocked = clientAddress !== UNKNOWN_ADDRESS && Number(byAddress.n) >= THROTTLE.perAddress;
  const blocked = Number(byAccount.n) >= THROTTLE.perAccount || addressBlocked;
  return { blocked, retryAfterSeconds: blocked ? Math.ceil(THROTTLE.windowMs / 1000) : 0 };
}

export async function recordLoginAttempt(db: Db, email: string, clientAddress: string, succeeded: boolean): Promise<void> {
  await db.insert(loginAttempts).values({ email, clientAddress, succeeded });
  if (succeeded) {
    // A successful login clears the account's failures; old rows are of no further use.
    await db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.succeeded, false)));
  }
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
