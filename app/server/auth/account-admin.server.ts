import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { apiTokens, netcommandJobs, sessions } from "~db/postgres/schema";
import { FEATURE_FLAGS, PERMISSIONS } from "~/lib/permissions";
import type { Db } from "../postgres.server";
import type { UserContext } from "./user-context.server";

/**
 * The rules every screen and call that administers accounts shares (Users, Delegated Users,
 * applicant decisions): who may grant what, and what ending an account's access means.
 */

type Writer = Pick<Db, "update" | "delete">;

export const JOB_CANCELLED_TEXT = "Cancelled: the account that started this job was deactivated or deleted.";

/**
 * Ends everything an account can still do: its sessions are revoked (the next request of each is
 * logged out), its API tokens deleted, and its Looking Glass jobs that have not finished marked
 * FAILURE (a worker still running one cannot overwrite that: it only writes STARTED jobs it holds).
 * Pass the transaction of the change that ends the access.
 */
export async function endUserAccess(db: Writer, userId: number): Promise<{ sessions: number; tokens: number; jobs: number }> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.idHash });
  const tokens = await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id });
  const jobs = await db
    .update(netcommandJobs)
    .set({ state: "FAILURE", result: JOB_CANCELLED_TEXT, finishedAt: new Date() })
    .where(and(eq(netcommandJobs.ownerUserId, userId), inArray(netcommandJobs.state, ["PENDING", "STARTED", "RETRY"])))
    .returning({ id: netcommandJobs.id });
  return { sessions: ended.length, tokens: tokens.length, jobs: jobs.length };
}

export type Grants = { permissions: readonly string[]; featureFlags: readonly string[]; isStaff?: boolean; isSuperuser?: boolean };

export const GRANT_TEXTS = {
  unknownPermission: (p: string) => `${p} is not a permission of this installation.`,
  unknownFlag: (f: string) => `${f} is not a feature flag of this installation.`,
  permissionNotHeld: (p: string) => `You cannot grant ${p}: you do not hold it yourself.`,
  flagNotHeld: (f: string) => `You cannot switch on ${f} for others: it is not on for you.`,
  staffBySuperuser: "Only superusers can make someone staff or superuser, or take it away.",
} as const;

/**
 * What is wrong with giving `next` to an account that holds `current` (nothing for a new one):
 * nobody grants a permission or feature flag they do not hold themselves (what the account already
 * has may stay), and only superusers change the staff and superuser flags. Empty when allowed.
 */
export function grantProblems(
  actor: Pick<UserContext, "permissions" | "featureFlags" | "isSuperuser">,
  next: Grants,
  current?: Grants,
): string[] {
  const problems: string[] = [];
  const had = new Set(current?.permissions ?? []);
  for (const p of next.permissions) {
    if (!(PERMISSIONS as readonly string[]).includes(p)) problems.push(GRANT_TEXTS.unknownPermission(p));
    else if (!had.has(p) && !actor.isSuperuser && !actor.permissions.includes(p)) problems.push(GRANT_TEXTS.permissionNotHeld(p));
  }
  const hadFlags = new Set(current?.featureFlags ?? []);
  for (const f of next.featureFlags) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(f)) problems.push(GRANT_TEXTS.unknownFlag(f));
    else if (!hadFlags.has(f) && !actor.isSuperuser && !actor.featureFlags.includes(f)) problems.push(GRANT_TEXTS.flagNotHeld(f));
  }
  const staffChanged = Boolean(next.isStaff) !== Boolean(current?.isStaff);
  const superChanged = Boolean(next.isSuperuser) !== Boolean(current?.isSuperuser);
  if ((staffChanged || superChanged) && !actor.isSuperuser) problems.push(GRANT_TEXTS.staffBySuperuser);
  return problems;
}
