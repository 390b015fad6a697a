import { and, eq, lt, sql } from "drizzle-orm";
import { loginAttempts } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

/**
 * Login throttling (OWASP ASVS 2.2): failures lock out the client that makes them, not the
 * account. Per account and client, and per client over all accounts, a limit within a window
 * refuses further attempts (429 with Retry-After). Failures on an account from everybody only slow
 * its logins down (a short back-off before the password is checked), so nobody can lock a user
 * out by guessing: the right password from a client that has not failed still logs in.
 */
export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  /** Failed logins for one account from one client address within the window. */
  perAccountAndClient: 5,
  /** Failed logins from one client address, any account (unknown addresses included), within the window. */
  perClient: 30,
  /** Failures on an account from all clients beyond which every login for it waits … */
  accountBackoffAfter: 10,
  /** … this long per further `accountBackoffStep` failures, at most `accountBackoffMaxMs`. */
  accountBackoffStepMs: 500,
  accountBackoffStep: 10,
  accountBackoffMaxMs: 3000,
} as const;

/** How long rows are kept (the window is far shorter; a day helps explain what happened). */
const KEEP_MS = 24 * 60 * 60 * 1000;

export type LoginReservation =
  | { allowed: true; attemptId: number; backoffMs: number }
  | { allowed: false; retryAfterSeconds: number; scope: "account-and-client" | "client" };

/** The wait before checking a password for an account that `failures` attempts from everybody got wrong. */
export function accountBackoffMs(failures: number): number {
  if (failures < THROTTLE.accountBackoffAfter) return 0;
  const steps = 1 + Math.floor((failures - THROTTLE.accountBackoffAfter) / THROTTLE.accountBackoffStep);
  return Math.min(THROTTLE.accountBackoffMaxMs, steps * THROTTLE.accountBackoffStepMs);
}

/**
 * Counts an attempt before its password is checked. The attempt is written first (as a failure)
 * and the failures are counted afterwards, including it: of any number of concurrent guesses, the
 * k-th to be written sees at least k rows, so at most the limit of them are let through to the
 * check — on PGlite and PostgreSQL alike, with no lock. A refused attempt's row is removed again
 * (it was never checked), so waiting out Retry-After is enough.
 */
export async function reserveLoginAttempt(db: Db, email: string, clientAddress: string, now = new Date()): Promise<LoginReservation> {
  const [row] = await db
    .insert(loginAttempts)
    .values({ email, clientAddress, succeeded: false, createdAt: now })
    .returning({ id: loginAttempts.id });
  const since = new Date(now.getTime() - THROTTLE.windowMs);
  const pair = sql`${loginAttempts.email} = ${email} AND ${loginAttempts.clientAddress} = ${clientAddress}`;
  const client = sql`${loginAttempts.clientAddress} = ${clientAddress}`;
  const account = sql`${loginAttempts.email} = ${email}`;
  const [counts] = await db
    .select({
      pair: sql<number>`count(*) FILTER (WHERE ${pair})`.mapWith(Number),
      pairOldest: sql<string | null>`min(${loginAttempts.createdAt}) FILTER (WHERE ${pair})`,
      client: sql<number>`count(*) FILTER (WHERE ${client})`.mapWith(Number),
      clientOldest: sql<string | null>`min(${loginAttempts.createdAt}) FILTER (WHERE ${client})`,
      account: sql<number>`count(*) FILTER (WHERE ${account})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(
      and(eq(loginAttempts.succeeded, false), sql`${loginAttempts.createdAt} > ${since.toISOString()}`, sql`(${account} OR ${client})`),
    );
  const retryAfter = (oldest: string | null) =>
    Math.max(1, Math.ceil(((oldest ? new Date(oldest).getTime() : now.getTime()) + THROTTLE.windowMs - now.getTime()) / 1000));
  const refuse = async (scope: "account-and-client" | "client", oldest: string | null): Promise<LoginReservation> => {
    await db.delete(loginAttempts).where(eq(loginAttempts.id, row.id));
    return { allowed: false, scope, retryAfterSeconds: retryAfter(oldest) };
  };
  if (counts.pair > THROTTLE.perAccountAndClient) return refuse("account-and-client", counts.pairOldest);
  if (counts.client > THROTTLE.perClient) return refuse("client", counts.clientOldest);
  // The account's failures from others slow this attempt down; its own (just written) is not one of them.
  return { allowed: true, attemptId: row.id, backoffMs: accountBackoffMs(counts.account - 1) };
}

/** Forgets a reserved attempt whose password was never checked (the server was too busy). */
export async function releaseLoginAttempt(db: Db, attemptId: number): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
}

/**
 * Records the outcome of a reserved attempt. A success turns its row into one and forgets this
 * client's failures for the account (other clients' failures stay: they were not this user's typos).
 */
export async function finishLoginAttempt(
  db: Db,
  attemptId: number,
  succeeded: boolean,
  email: string,
  clientAddress: string,
): Promise<void> {
  if (succeeded) {
    await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId));
    await db
      .delete(loginAttempts)
      .where(and(eq(loginAttempts.email, email), eq(loginAttempts.clientAddress, clientAddress), eq(loginAttempts.succeeded, false)));
  }
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - KEEP_MS)));
}
