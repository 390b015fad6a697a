/**
 * How many network commands a caller may start: every job makes a vantage point send packets, so
 * both the jobs running at once and the jobs per 10 minutes are bounded — per user for logged-in
 * callers, per client address for anonymous ones of the public Looking Glass. Counted from the
 * jobs table itself, so every web replica applies the same counts.
 *
 * Without a trusted proxy the client address is unknown (see clientAddress): all anonymous
 * callers then share one allowance, which keeps the public Looking Glass from being used to flood
 * a target at the cost of being strict. Set TRUST_PROXY behind a reverse proxy.
 */
import { and, asc, count, eq, gt, inArray, isNull } from "drizzle-orm";
import { netcommandJobs } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";

export const NETCOMMAND_LIMITS = {
  windowMs: 10 * 60 * 1000,
  perUser: { running: 3, perWindow: 20 },
  perAddress: { running: 3, perWindow: 10 },
  /** Suggested wait when too many jobs run at once: a ping ends within 15 s. */
  runningRetryAfterSeconds: 5,
} as const;

export type LimitOwner = { userId: number | null; clientAddress: string };
export type LimitDecision = { allowed: true } | { allowed: false; message: string; retryAfterSeconds: number };

const UNFINISHED = ["PENDING", "STARTED", "RETRY"] as const;

/** Whether the owner may start one more job now (call inside the transaction that inserts it). */
export async function checkNetcommandLimits(db: Db, owner: LimitOwner, now = new Date()): Promise<LimitDecision> {
  const limits = owner.userId !== null ? NETCOMMAND_LIMITS.perUser : NETCOMMAND_LIMITS.perAddress;
  const mine =
    owner.userId !== null
      ? eq(netcommandJobs.ownerUserId, owner.userId)
      : and(isNull(netcommandJobs.ownerUserId), eq(netcommandJobs.clientAddress, owner.clientAddress));
  const since = new Date(now.getTime() - NETCOMMAND_LIMITS.windowMs);
  const [[running], recent] = await Promise.all([
    db
      .select({ n: count() })
      .from(netcommandJobs)
      .where(and(mine, inArray(netcommandJobs.state, [...UNFINISHED]))),
    db
      .select({ createdAt: netcommandJobs.createdAt })
      .from(netcommandJobs)
      .where(and(mine, gt(netcommandJobs.createdAt, since)))
      .orderBy(asc(netcommandJobs.createdAt))
      .limit(limits.perWindow),
  ]);
  if (Number(running.n) >= limits.running) {
    return {
      allowed: false,
      message: `Too many network commands at once: at most ${limits.running} may run at the same time. Please try again when one has finished.`,
      retryAfterSeconds: NETCOMMAND_LIMITS.runningRetryAfterSeconds,
    };
  }
  if (recent.length >= limits.perWindow) {
    // The oldest job of the window leaves it first; then one more is allowed.
    const retryAfterSeconds = Math.max(1, Math.ceil((recent[0].createdAt.getTime() + NETCOMMAND_LIMITS.windowMs - now.getTime()) / 1000));
    return {
      allowed: false,
      message: `Too many network commands: at most ${limits.perWindow} in ${NETCOMMAND_LIMITS.windowMs / 60_000} minutes. Please try again in ${retryAfterSeconds} seconds.`,
      retryAfterSeconds,
    };
  }
  return { allowed: true };
}
