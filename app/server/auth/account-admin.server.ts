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

type Actor = Pick<UserContext, "permissions" | "featureFlags" | "isSuperuser">;

/**
 * What of `next` the actor could not hand out, given that the account already holds `current`:
 * permissions and feature flags the actor does not hold itself (what the account had may stay),
 * and whether the staff or superuser flag changes without the actor being a superuser. Unknown
 * codes are not counted here.
 */
function beyondActor(actor: Actor, next: Grants, current?: Grants) {
  const had = new Set(current?.permissions ?? []);
  const hadFlags = new Set(current?.featureFlags ?? []);
  const staffChanged = Boolean(next.isStaff) !== Boolean(current?.isStaff);
  const superChanged = Boolean(next.isSuperuser) !== Boolean(current?.isSuperuser);
  if (actor.isSuperuser) return { permissions: [], featureFlags: [], staffFlags: false };
  return {
    permissions: next.permissions.filter((p) => !had.has(p) && !actor.permissions.includes(p)),
    featureFlags: next.featureFlags.filter((f) => !hadFlags.has(f) && !actor.featureFlags.includes(f)),
    staffFlags: staffChanged || superChanged,
  };
}

/**
 * What is wrong with giving `next` to an account that holds `current` (nothing for a new one):
 * nobody grants a permission or feature flag they do not hold themselves (what the account already
 * has may stay), and only superusers change the staff and superuser flags. Empty when allowed.
 */
export function grantProblems(actor: Actor, next: Grants, current?: Grants): string[] {
  const beyond = beyondActor(actor, next, current);
  const problems: string[] = [];
  for (const p of next.permissions) {
    if (!(PERMISSIONS as readonly string[]).includes(p)) problems.push(GRANT_TEXTS.unknownPermission(p));
    else if (beyond.permissions.includes(p)) problems.push(GRANT_TEXTS.permissionNotHeld(p));
  }
  for (const f of next.featureFlags) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(f)) problems.push(GRANT_TEXTS.unknownFlag(f));
    else if (beyond.featureFlags.includes(f)) problems.push(GRANT_TEXTS.flagNotHeld(f));
  }
  if (beyond.staffFlags) problems.push(GRANT_TEXTS.staffBySuperuser);
  return problems;
}

export const EMAIL_CHANGE_TEXTS = {
  permissionNotHeld: (p: string) =>
    `You cannot change this account's e-mail address: it holds ${p}, which you do not hold yourself (a password reset to the new address would hand it over).`,
  flagNotHeld: (f: string) =>
    `You cannot change this account's e-mail address: ${f} is on for it and not for you (a password reset to the new address would hand it over).`,
  staffBySuperuser: "Only superusers can change the e-mail address of a staff or superuser account.",
} as const;

/**
 * What is wrong with the actor giving another account a new e-mail address. Whoever holds the
 * new address can take the account with a password reset, so the change grants everything the
 * account holds — `holds`: its permissions (its own and its groups'), feature flags and staff and
 * superuser flags — as if to a new account: the actor must hold all of it (only superusers hand
 * out staff and superuser). Who may manage the account at all is checked before (superuser
 * accounts by superusers only, delegated accounts not here). Empty when allowed.
 */
export function emailChangeProblems(actor: Actor, holds: Grants): string[] {
  const beyond = beyondActor(actor, holds);
  return [
    ...(beyond.staffFlags ? [EMAIL_CHANGE_TEXTS.staffBySuperuser] : []),
    ...beyond.permissions.map(EMAIL_CHANGE_TEXTS.permissionNotHeld),
    ...beyond.featureFlags.map(EMAIL_CHANGE_TEXTS.flagNotHeld),
  ];
}
