import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { apiTokens, netcommandJobs, passwordResetTokens, sessions } from "~db/postgres/schema";
import { FEATURE_FLAGS, PERMISSIONS } from "~/lib/permissions";
import type { Db } from "../postgres.server";
import type { UserContext } from "./user-context.server";

/**
 * The rules every screen and call that administers accounts shares (Users, Delegated Users,
 * applicant decisions): who may grant what, and what ending an account's access means.
 */

type Writer = Pick<Db, "update" | "delete">;

export const JOB_CANCELLED_TEXT = "Cancelled: the account that started this job was deactivated or deleted.";

/** What ending an account's access can take away besides its sessions, which always end. */
export type AccessScope = {
  /** `Authorization: Token …` keys of integrators: deleted. */
  apiTokens: boolean;
  /** Looking Glass ping/traceroute jobs that have not finished: marked FAILURE. */
  jobs: boolean;
  /** Unused password-reset and invitation links: deleted. */
  resetLinks: boolean;
};

/**
 * Why an account's sessions end, and what else ends with them. Every place that ends a user's
 * sessions names its reason here, so what a reason ends is decided once.
 */
export const ACCESS_ENDS = {
  /** Deactivated: nothing the account started may go on, and no old link may bring it back on reactivation. */
  deactivated: { apiTokens: true, jobs: true, resetLinks: true },
  /** Deleted: as deactivated (the rows would also go with the account, but its jobs must not run on meanwhile). */
  deleted: { apiTokens: true, jobs: true, resetLinks: true },
  /**
   * Another account's e-mail address changed: whoever held the account through the old address
   * (its sessions, its tokens, a link mailed there) holds it no more. Its own jobs may finish.
   */
  emailChanged: { apiTokens: true, jobs: false, resetLinks: true },
  /** A password was set with a reset link: logged in elsewhere with the old password no more; tokens are not passwords. */
  passwordSet: { apiTokens: false, jobs: false, resetLinks: false },
  /** The second factor was reset: every login has to pass the new rule; tokens never passed a second factor. */
  twoFactorReset: { apiTokens: false, jobs: false, resetLinks: false },
  /** "Log out everywhere" of the Users screen: the browsers only, integrations keep working. */
  loggedOutEverywhere: { apiTokens: false, jobs: false, resetLinks: false },
} as const satisfies Record<string, AccessScope>;

export type AccessEndReason = keyof typeof ACCESS_ENDS;
export type EndedAccess = { sessions: number; tokens: number; jobs: number; resetLinks: number };

/**
 * Ends an account's sessions (the next request of each is logged out) and what `reason` ends
 * besides (ACCESS_ENDS): API tokens deleted, Looking Glass jobs that have not finished marked
 * FAILURE (a worker still running one cannot overwrite that: it only writes STARTED jobs it
 * holds), unused reset links deleted. Pass the transaction of the change that ends the access.
 * Returns how many of each ended.
 */
export async function endUserAccess(db: Writer, userId: number, reason: AccessEndReason): Promise<EndedAccess> {
  const scope: AccessScope = ACCESS_ENDS[reason];
  const ended = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.idHash });
  const tokens = scope.apiTokens ? await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id }) : [];
  const jobs = scope.jobs
    ? await db
        .update(netcommandJobs)
        .set({ state: "FAILURE", result: JOB_CANCELLED_TEXT, finishedAt: new Date() })
        .where(and(eq(netcommandJobs.ownerUserId, userId), inArray(netcommandJobs.state, ["PENDING", "STARTED", "RETRY"])))
        .returning({ id: netcommandJobs.id })
    : [];
  const links = scope.resetLinks
    ? await db
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
        .returning({ id: passwordResetTokens.tokenHash })
    : [];
  return { sessions: ended.length, tokens: tokens.length, jobs: jobs.length, resetLinks: links.length };
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
