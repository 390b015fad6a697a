import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import {
  groupPermissions,
  groups,
  recoveryCodes,
  sessions,
  totpDevices,
  userFeatureFlags,
  userGroups,
  userPermissions,
  userSettings,
  users,
} from "~db/postgres/schema";
import { EMAIL_MAX_LENGTH, isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { FEATURE_FLAGS, PERMISSIONS } from "~/lib/permissions";
import type { UserSort } from "~/lib/user-admin-request";
import { recordAudit } from "../audit/audit-log.server";
import { log } from "../log.server";
import { notifyAccountChange } from "../notifications/notifications.server";
import type { Db } from "../postgres.server";
import { emailChangeProblems, endUserAccess, grantProblems } from "./account-admin.server";
import { deleteAccountRows } from "./account-deletion.server";
import { sendEmailChangedMail } from "./email-change-mail.server";
import { sendInvitationMail, WELCOME_TOKEN_TTL_MS } from "./password-reset.server";
import type { UserContext } from "./user-context.server";
import { decideUserRequest, NAME_MAX_LENGTH, type DecisionResult } from "./user-requests.server";

/**
 * User administration (shell §2 /manage-users, §7 auth/users/): the one service the Users screen and
 * the JSON calls share. Reading needs VIEW_USERS (the callers' guard); every change needs staff or
 * superuser, and follows the rules below, checked inside the change's transaction:
 *
 * - nobody grants a permission or feature flag they do not hold, and only superusers make someone
 *   staff or superuser or take it away (grantProblems); only superusers touch a superuser's account;
 * - a new e-mail address for another account hands the account to whoever holds that address: only
 *   an actor holding everything the account holds may give it (emailChangeProblems; staff accounts:
 *   superusers only); the old address is mailed, and the account's sessions and API tokens end;
 * - nobody locks themself out: no deleting or deactivating yourself, no dropping your own superuser
 *   or staff flag; the last active superuser is never deleted, deactivated or demoted;
 * - delegated accounts belong to the Delegated Users screen and are refused here;
 * - deactivating or deleting ends the account's access (endUserAccess) in the same transaction;
 * - every change writes an audit entry with the record before and after (never a password hash or
 *   a secret) in the same transaction.
 */

export const USERS_PAGE_SIZE = 25;
export const USERS_MAX_PAGE_SIZE = 200;

/** The refusals of this service (the spec leaves their wording open: shell §8 "each has its own message"). */
export const USER_ADMIN_TEXTS = {
  staffOnly: "Only staff and superusers can create, change, deactivate or delete users.",
  delegatedCaller: "Delegated accounts cannot use the user administration.",
  resetNeedsPermission: "Resetting someone's two-factor authentication needs the permission 'Reset two-factor' (RESET_USER_2FA).",
  notFound: "There is no such user (any more): the account may have been deleted.",
  delegated: "This is a delegated account: change it on the Delegated Users screen (/manage-delegated-users).",
  superuserTarget: "Only superusers can change, deactivate, delete or reset the account of a superuser.",
  selfDelete: "You cannot delete your own account here (Settings has a way to delete it).",
  selfDeactivate: "You cannot deactivate your own account.",
  selfSuperuser: "You cannot take away your own superuser flag: another superuser has to do it.",
  selfStaff: "You cannot take away your own staff flag: a superuser has to do it.",
  selfReset: "Your own two-factor authentication is managed under Settings, not here.",
  selfSessions: "You cannot end your own sessions here: log out instead.",
  lastSuperuser: "This is the last active superuser: make another account superuser first.",
  unknownGroup: (name: string) => `There is no group "${name}".`,
  groupGrants: (group: string, permission: string) =>
    `You cannot add someone to the group "${group}": it grants ${permission}, which you do not hold yourself.`,
  nameTooLong: `At most ${NAME_MAX_LENGTH} characters.`,
  passwordAlreadySet:
    "This account has already chosen its password, so there is no invitation to send: it can use 'Forgot your password?' on the login page.",
  inactiveNoInvitation: "This account is deactivated: reactivate it before sending an invitation.",
  alreadyActive: "This account is already active.",
  alreadyInactive: "This account is already deactivated.",
  createFailed: "The user was not created.",
  updateFailed: "The user was not saved.",
  deleteFailed: "The user was not deleted.",
} as const;

export class UserAdminError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    readonly detail: string,
    readonly errors: { field: string; message: string }[] = [],
  ) {
    super(detail);
  }
}

export type UserAdminActor = Pick<
  UserContext,
  "id" | "email" | "firstName" | "lastName" | "isStaff" | "isSuperuser" | "isDelegated" | "permissions" | "featureFlags"
>;
export type ChangeMeta = { clientAddress?: string | null };

export const mayAdministerUsers = (actor: Pick<UserContext, "isStaff" | "isSuperuser">) => actor.isStaff || actor.isSuperuser;
export const mayResetTwoFactor = (actor: Pick<UserContext, "isSuperuser" | "permissions">) =>
  actor.isSuperuser || actor.permissions.includes("RESET_USER_2FA");

/** Delegated accounts never see or change other accounts, whatever permissions they were given. */
export function refuseDelegatedCaller(actor: Pick<UserContext, "isDelegated">): void {
  if (actor.isDelegated) throw new UserAdminError(403, USER_ADMIN_TEXTS.delegatedCaller);
}

function requireAdministrator(actor: UserAdminActor): void {
  refuseDelegatedCaller(actor);
  if (!mayAdministerUsers(actor)) throw new UserAdminError(403, USER_ADMIN_TEXTS.staffOnly);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** An account as the JSON calls and the audit log show it: never the password hash. */
export type UserRecord = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  is_delegated: boolean;
  can_change_own_group: boolean;
  /** Group names, sorted. */
  groups: string[];
  /** Permissions granted to the account itself (its groups may add more), sorted. */
  permissions: string[];
  /** Feature flags switched on for the account itself, sorted. */
  feature_flags: string[];
  date_joined: string;
  last_login: string | null;
  /** False until the account has chosen its password (an invitation is outstanding). */
  password_set: boolean;
};

type Reader = Pick<Db, "select">;

async function grantsOf(db: Reader, ids: number[]) {
  if (!ids.length)
    return { groupsBy: new Map<number, string[]>(), permsBy: new Map<number, string[]>(), flagsBy: new Map<number, string[]>() };
  const [memberships, perms, flags] = await Promise.all([
    db
      .select({ userId: userGroups.userId, name: groups.name })
      .from(userGroups)
      .innerJoin(groups, eq(groups.id, userGroups.groupId))
      .where(inArray(userGroups.userId, ids)),
    db
      .select({ userId: userPermissions.userId, code: userPermissions.permission })
      .from(userPermissions)
      .where(inArray(userPermissions.userId, ids)),
    db
      .select({ userId: userFeatureFlags.userId, code: userFeatureFlags.flag })
      .from(userFeatureFlags)
      .where(inArray(userFeatureFlags.userId, ids)),
  ]);
  const collect = (rows: { userId: number; value: string }[]) => {
    const by = new Map<number, string[]>();
    for (const r of rows) by.set(r.userId, [...(by.get(r.userId) ?? []), r.value]);
    for (const list of by.values()) list.sort();
    return by;
  };
  return {
    groupsBy: collect(memberships.map((r) => ({ userId: r.userId, value: r.name }))),
    permsBy: collect(perms.map((r) => ({ userId: r.userId, value: r.code }))),
    flagsBy: collect(flags.map((r) => ({ userId: r.userId, value: r.code }))),
  };
}

function toRecord(row: typeof users.$inferSelect, grants: Awaited<ReturnType<typeof grantsOf>>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    is_active: row.isActive,
    is_staff: row.isStaff,
    is_superuser: row.isSuperuser,
    is_delegated: row.isDelegated,
    can_change_own_group: row.canChangeOwnGroup,
    groups: grants.groupsBy.get(row.id) ?? [],
    permissions: grants.permsBy.get(row.id) ?? [],
    feature_flags: grants.flagsBy.get(row.id) ?? [],
    date_joined: row.createdAt.toISOString(),
    last_login: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
    password_set: row.passwordHash !== null,
  };
}

export type UserListQuery = { search?: string; sort?: UserSort; page?: number; pageSize?: number };
export type UserList = { count: number; page: number; page_size: number; pages: number; results: UserRecord[] };

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Accounts matching `search` (e-mail, first, last or full name; any case), sorted and paged (page counts from 1). */
export async function listUsers(db: Db, query: UserListQuery = {}): Promise<UserList> {
  const pageSize = Math.min(USERS_MAX_PAGE_SIZE, Math.max(1, Math.floor(query.pageSize ?? USERS_PAGE_SIZE)));
  const search = (query.search ?? "").trim().slice(0, 200);
  let where: SQL | undefined;
  if (search) {
    const pattern = likePattern(search);
    where = or(
      ilike(users.email, pattern),
      ilike(users.firstName, pattern),
      ilike(users.lastName, pattern),
      ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
    );
  }
  const sort = query.sort ?? "email";
  const direction = sort.startsWith("-") ? desc : asc;
  const key = sort.replace(/^-/, "");
  const nullsLast = sort.startsWith("-") ? sql`NULLS LAST` : sql`NULLS FIRST`;
  const order: SQL[] =
    key === "name"
      ? [direction(users.lastName), direction(users.firstName)]
      : key === "last_login"
        ? [sql`${users.lastLoginAt} ${sort.startsWith("-") ? sql`DESC` : sql`ASC`} ${nullsLast}`]
        : key === "created"
          ? [direction(users.createdAt)]
          : [direction(users.email)];
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const pages = Math.max(1, Math.ceil(Number(total) / pageSize));
  const page = Math.min(pages, Math.max(1, Math.floor(query.page ?? 1)));
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(...order, asc(users.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const grants = await grantsOf(
    db,
    rows.map((r) => r.id),
  );
  return { count: Number(total), page, page_size: pageSize, pages, results: rows.map((r) => toRecord(r, grants)) };
}

export async function getUser(db: Reader, id: number): Promise<UserRecord | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) return null;
  return toRecord(row, await grantsOf(db, [id]));
}

/** What the detail panel shows beside the record: what the account's groups add, its sessions and second factor. */
export async function userFacts(db: Db, id: number) {
  const [viaGroups, [openSessions], [devices], [codes]] = await Promise.all([
    db
      .selectDistinct({ code: groupPermissions.permission, group: groups.name })
      .from(groupPermissions)
      .innerJoin(userGroups, eq(userGroups.groupId, groupPermissions.groupId))
      .innerJoin(groups, eq(groups.id, groupPermissions.groupId))
      .where(eq(userGroups.userId, id)),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`)),
    db
      .select({ n: count() })
      .from(totpDevices)
      .where(and(eq(totpDevices.userId, id), eq(totpDevices.confirmed, true))),
    db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, id), isNull(recoveryCodes.usedAt))),
  ]);
  return {
    groupPermissions: viaGroups.map((r) => ({ code: r.code, group: r.group })),
    openSessions: Number(openSessions.n),
    twoFactorDevices: Number(devices.n),
    recoveryCodes: Number(codes.n),
  };
}

export async function listGroupNames(db: Db): Promise<string[]> {
  return (await db.select({ name: groups.name }).from(groups).orderBy(groups.name)).map((g) => g.name);
}

// ---------------------------------------------------------------------------------------------------------------
// Input

export type UserInput = {
  email: string;
  first_name: string;
  last_name: string;
  groups: string[];
  permissions: string[];
  feature_flags: string[];
  is_staff: boolean;
  is_superuser: boolean;
  can_change_own_group: boolean;
};
export type UserPatch = Partial<UserInput> & { is_active?: boolean };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const unique = (list: readonly string[]) => [...new Set(list)].sort();

/** The field problems of a complete input (400), group names resolved to ids. */
async function checkInput(tx: Tx, input: UserInput, selfId: number | null): Promise<Map<string, number>> {
  const errors: { field: string; message: string }[] = [];
  if (!isValidEmail(input.email)) errors.push({ field: "email", message: MESSAGES.emailFormat });
  if (input.first_name.length > NAME_MAX_LENGTH) errors.push({ field: "first_name", message: USER_ADMIN_TEXTS.nameTooLong });
  if (input.last_name.length > NAME_MAX_LENGTH) errors.push({ field: "last_name", message: USER_ADMIN_TEXTS.nameTooLong });
  for (const p of input.permissions) {
    if (!(PERMISSIONS as readonly string[]).includes(p))
      errors.push({ field: "permissions", message: `${p} is not a permission of this installation.` });
  }
  for (const f of input.feature_flags) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(f))
      errors.push({ field: "feature_flags", message: `${f} is not a feature flag of this installation.` });
  }
  const groupIds = new Map<string, number>();
  if (input.groups.length) {
    const rows = await tx.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.name, input.groups));
    for (const r of rows) groupIds.set(r.name, r.id);
    for (const g of input.groups) if (!groupIds.has(g)) errors.push({ field: "groups", message: USER_ADMIN_TEXTS.unknownGroup(g) });
  }
  if (isValidEmail(input.email)) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, input.email), selfId === null ? undefined : ne(users.id, selfId)))
      .limit(1);
    if (taken) errors.push({ field: "email", message: MESSAGES.userCreation });
  }
  if (errors.length) {
    const emailProblem = errors.some((e) => e.field === "email");
    throw new UserAdminError(400, emailProblem ? MESSAGES.userCreation : errors[0].message, errors);
  }
  return groupIds;
}

function normalizeInput(raw: Partial<UserInput>, base?: UserInput): UserInput {
  return {
    email: raw.email !== undefined ? normalizeEmail(raw.email).slice(0, EMAIL_MAX_LENGTH + 1) : (base?.email ?? ""),
    first_name: raw.first_name !== undefined ? raw.first_name.trim() : (base?.first_name ?? ""),
    last_name: raw.last_name !== undefined ? raw.last_name.trim() : (base?.last_name ?? ""),
    groups: unique(raw.groups ?? base?.groups ?? []),
    permissions: unique(raw.permissions ?? base?.permissions ?? []),
    feature_flags: unique(raw.feature_flags ?? base?.feature_flags ?? []),
    is_staff: raw.is_staff ?? base?.is_staff ?? false,
    is_superuser: raw.is_superuser ?? base?.is_superuser ?? false,
    can_change_own_group: raw.can_change_own_group ?? base?.can_change_own_group ?? false,
  };
}

function refuseGrants(actor: UserAdminActor, next: UserInput, current?: UserRecord): void {
  const problems = grantProblems(
    actor,
    { permissions: next.permissions, featureFlags: next.feature_flags, isStaff: next.is_staff, isSuperuser: next.is_superuser },
    current
      ? {
          permissions: current.permissions,
          featureFlags: current.feature_flags,
          isStaff: current.is_staff,
          isSuperuser: current.is_superuser,
        }
      : undefined,
  );
  if (problems.length) throw new UserAdminError(403, problems.join(" "));
}

/**
 * Joining a group grants what the group holds: an actor who is not a superuser may add an account
 * only to groups whose permissions they hold themselves (memberships the account had may stay).
 */
async function refuseGroupGrants(
  tx: Tx,
  actor: UserAdminActor,
  next: UserInput,
  groupIds: Map<string, number>,
  current?: UserRecord,
): Promise<void> {
  if (actor.isSuperuser) return;
  const added = next.groups.filter((g) => !current?.groups.includes(g)).map((g) => groupIds.get(g)!);
  if (!added.length) return;
  const rows = await tx
    .select({ group: groups.name, code: groupPermissions.permission })
    .from(groupPermissions)
    .innerJoin(groups, eq(groups.id, groupPermissions.groupId))
    .where(inArray(groupPermissions.groupId, added));
  const problems = rows.filter((r) => !actor.permissions.includes(r.code)).map((r) => USER_ADMIN_TEXTS.groupGrants(r.group, r.code));
  if (problems.length) throw new UserAdminError(403, [...new Set(problems)].join(" "));
}

/** The permissions the given groups grant, sorted. */
async function permissionsOfGroups(db: Reader, groupIds: number[]): Promise<string[]> {
  if (!groupIds.length) return [];
  const rows = await db
    .select({ code: groupPermissions.permission })
    .from(groupPermissions)
    .where(inArray(groupPermissions.groupId, groupIds));
  return unique(rows.map((r) => r.code));
}

type Holdings = Pick<UserInput, "permissions" | "feature_flags" | "is_staff" | "is_superuser">;

/**
 * Why the actor may not give account `target` a new e-mail address (empty: it may): the account's
 * own permissions and those of its groups (`viaGroups`), its feature flags and flags, checked by
 * emailChangeProblems. An actor's own address is theirs to change.
 */
export function emailChangeRefusals(actor: UserAdminActor, target: Holdings & { id: number }, viaGroups: readonly string[]): string[] {
  if (actor.id === target.id) return [];
  return emailChangeProblems(actor, {
    permissions: unique([...target.permissions, ...viaGroups]),
    featureFlags: target.feature_flags,
    isStaff: target.is_staff,
    isSuperuser: target.is_superuser,
  });
}

/** What the audit log keeps of an account: its record without dates and without anything secret. */
function auditRecord(r: UserRecord): Record<string, unknown> {
  return {
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    is_active: r.is_active,
    is_staff: r.is_staff,
    is_superuser: r.is_superuser,
    can_change_own_group: r.can_change_own_group,
    groups: r.groups,
    permissions: r.permissions,
    feature_flags: r.feature_flags,
  };
}

/** The account, locked for the transaction, with the checks every change of an existing account shares. */
async function lockTarget(tx: Tx, actor: UserAdminActor, id: number): Promise<UserRecord> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  if (!row) throw new UserAdminError(404, USER_ADMIN_TEXTS.notFound);
  if (row.isDelegated) throw new UserAdminError(409, USER_ADMIN_TEXTS.delegated);
  if (row.isSuperuser && !actor.isSuperuser) throw new UserAdminError(403, USER_ADMIN_TEXTS.superuserTarget);
  return toRecord(row, await grantsOf(tx, [id]));
}

/** Refuses when `target` is the last active superuser (the superusers are locked first, so two such changes cannot both pass). */
async function keepOneSuperuser(tx: Tx, target: UserRecord): Promise<void> {
  if (!target.is_superuser || !target.is_active) return;
  await tx.select({ id: users.id }).from(users).where(eq(users.isSuperuser, true)).for("update");
  const [{ n }] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.isSuperuser, true), eq(users.isActive, true), ne(users.id, target.id)));
  if (Number(n) === 0) throw new UserAdminError(409, USER_ADMIN_TEXTS.lastSuperuser);
}

async function writeGrants(tx: Tx, id: number, next: UserInput, groupIds: Map<string, number>, current?: UserRecord): Promise<void> {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  if (!current || !same(current.groups, next.groups)) {
    if (current) await tx.delete(userGroups).where(eq(userGroups.userId, id));
    if (next.groups.length) await tx.insert(userGroups).values(next.groups.map((g) => ({ userId: id, groupId: groupIds.get(g)! })));
  }
  if (!current || !same(current.permissions, next.permissions)) {
    if (current) await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
    if (next.permissions.length)
      await tx.insert(userPermissions).values(next.permissions.map((permission) => ({ userId: id, permission })));
  }
  if (!current || !same(current.feature_flags, next.feature_flags)) {
    if (current) await tx.delete(userFeatureFlags).where(eq(userFeatureFlags.userId, id));
    if (next.feature_flags.length) await tx.insert(userFeatureFlags).values(next.feature_flags.map((flag) => ({ userId: id, flag })));
  }
}

type Flags = { is_active: boolean; is_staff: boolean; is_superuser: boolean };

/**
 * What is wrong with an actor changing their own account from `current` to `next`: nobody
 * deactivates themself or drops their own superuser or staff flag. Null when allowed (or not self).
 */
export function selfLockOutProblem(actorId: number, current: Flags & { id: number }, next: Flags): string | null {
  if (actorId !== current.id) return null;
  if (current.is_active && !next.is_active) return USER_ADMIN_TEXTS.selfDeactivate;
  if (current.is_superuser && !next.is_superuser) return USER_ADMIN_TEXTS.selfSuperuser;
  if (current.is_staff && !next.is_staff) return USER_ADMIN_TEXTS.selfStaff;
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Changes

export type CreateOptions = ChangeMeta & { invitationTtlMs?: number };

/**
 * A new account without a password, not yet consented, and an invitation mail with a single-use
 * link (72 hours) to choose the password. Returns the record.
 */
export async function createUser(db: Db, actor: UserAdminActor, raw: Partial<UserInput>, options: CreateOptions = {}): Promise<UserRecord> {
  requireAdministrator(actor);
  const input = normalizeInput(raw);
  const created = await db.transaction(async (tx) => {
    const groupIds = await checkInput(tx, input, null);
    refuseGrants(actor, input);
    await refuseGroupGrants(tx, actor, input, groupIds);
    const [row] = await tx
      .insert(users)
      .values({
        email: input.email,
        firstName: input.first_name,
        lastName: input.last_name,
        passwordHash: null,
        isStaff: input.is_staff,
        isSuperuser: input.is_superuser,
        canChangeOwnGroup: input.can_change_own_group,
        hasConsented: false,
      })
      .returning({ id: users.id });
    await writeGrants(tx, row.id, input, groupIds);
    const record = (await getUser(tx, row.id))!;
    await recordAudit(tx, {
      actor,
      action: "user.create",
      targetType: "user",
      targetId: row.id,
      targetLabel: record.email,
      before: null,
      after: auditRecord(record),
      clientAddress: options.clientAddress ?? null,
    });
    return record;
  });
  log.info(`user #${created.id} created by user #${actor.id}`);
  await sendInvitationMail(db, { id: created.id, email: created.email, firstName: created.first_name }, actor, options.invitationTtlMs);
  return created;
}

type ChangeKind = "update" | "deactivate" | "reactivate";

/**
 * Changes an account: the fields given in `patch` (the others stay), including is_active. The
 * audit action is user.deactivate / user.reactivate when only is_active changes, else user.update.
 */
export async function updateUser(db: Db, actor: UserAdminActor, id: number, patch: UserPatch, meta: ChangeMeta = {}): Promise<UserRecord> {
  requireAdministrator(actor);
  const { after, previousEmail, accessEnded } = await db.transaction(async (tx) => {
    const current = await lockTarget(tx, actor, id);
    const next = normalizeInput(patch, { ...current });
    const nextActive = patch.is_active ?? current.is_active;
    const groupIds = await checkInput(tx, next, id);
    refuseGrants(actor, next, current);
    await refuseGroupGrants(tx, actor, next, groupIds, current);
    const emailChanged = next.email !== current.email;
    if (emailChanged) {
      // What the account holds once changed: what the new address would be handed.
      const viaGroups = await permissionsOfGroups(
        tx,
        next.groups.map((g) => groupIds.get(g)!),
      );
      const refusals = emailChangeRefusals(actor, { id, ...next }, viaGroups);
      if (refusals.length) throw new UserAdminError(403, refusals.join(" "), [{ field: "email", message: refusals[0] }]);
    }
    const lockOut = selfLockOutProblem(actor.id, current, { ...next, is_active: nextActive });
    if (lockOut) throw new UserAdminError(409, lockOut);
    if ((current.is_superuser && !next.is_superuser) || (current.is_active && !nextActive)) await keepOneSuperuser(tx, current);
    await tx
      .update(users)
      .set({
        email: next.email,
        firstName: next.first_name,
        lastName: next.last_name,
        isStaff: next.is_staff,
        isSuperuser: next.is_superuser,
        canChangeOwnGroup: next.can_change_own_group,
        isActive: nextActive,
      })
      .where(eq(users.id, id));
    await writeGrants(tx, id, next, groupIds, current);
    // Another account's new address: whoever held the account through the old one holds it no more.
    const endsAccess = current.is_active && !nextActive ? "deactivated" : emailChanged && actor.id !== id ? "emailChanged" : null;
    if (endsAccess) await endUserAccess(tx, id, endsAccess);
    const after = (await getUser(tx, id))!;
    const before = auditRecord(current);
    const afterAudit = auditRecord(after);
    const changed = Object.keys(afterAudit).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(afterAudit[k]));
    if (changed.length) {
      const kind: ChangeKind = changed.length === 1 && changed[0] === "is_active" ? (nextActive ? "reactivate" : "deactivate") : "update";
      await recordAudit(tx, {
        actor,
        action: `user.${kind}`,
        targetType: "user",
        targetId: id,
        targetLabel: after.email,
        before,
        after: afterAudit,
        clientAddress: meta.clientAddress ?? null,
      });
      const told = [
        "first_name",
        "last_name",
        "groups",
        "permissions",
        "feature_flags",
        "is_staff",
        "is_superuser",
        "can_change_own_group",
      ];
      if (actor.id !== id && nextActive && changed.some((k) => told.includes(k))) await notifyAccountChange(tx, id, "accountChanged");
    }
    return { after, previousEmail: emailChanged ? current.email : null, accessEnded: endsAccess !== null };
  });
  if (previousEmail) {
    log.info(`e-mail address of user #${id} changed by user #${actor.id}; the previous address is told`);
    await sendEmailChangedMail(db, { previousEmail, firstName: after.first_name }, actor, { accessEnded });
  }
  return after;
}

export async function setUserActive(
  db: Db,
  actor: UserAdminActor,
  id: number,
  active: boolean,
  meta: ChangeMeta = {},
): Promise<UserRecord> {
  requireAdministrator(actor);
  const [row] = await db.select({ isActive: users.isActive, isDelegated: users.isDelegated }).from(users).where(eq(users.id, id));
  if (row && !row.isDelegated && row.isActive === active) {
    throw new UserAdminError(409, active ? USER_ADMIN_TEXTS.alreadyActive : USER_ADMIN_TEXTS.alreadyInactive);
  }
  return updateUser(db, actor, id, { is_active: active }, meta);
}

/** Deletes the account and its personal data, after ending its access. */
export async function deleteUser(db: Db, actor: UserAdminActor, id: number, meta: ChangeMeta = {}): Promise<UserRecord> {
  requireAdministrator(actor);
  const gone = await db.transaction(async (tx) => {
    const current = await lockTarget(tx, actor, id);
    if (actor.id === id) throw new UserAdminError(409, USER_ADMIN_TEXTS.selfDelete);
    await keepOneSuperuser(tx, current);
    await endUserAccess(tx, id, "deleted");
    await deleteAccountRows(tx, { id, email: current.email });
    await recordAudit(tx, {
      actor,
      action: "user.delete",
      targetType: "user",
      targetId: id,
      targetLabel: current.email,
      before: auditRecord(current),
      after: null,
      clientAddress: meta.clientAddress ?? null,
    });
    return current;
  });
  log.info(`user #${id} deleted by user #${actor.id}`);
  return gone;
}

/**
 * RESET_USER_2FA: removes the account's authenticators and recovery codes, switches its voluntary
 * 2FA off, ends its sessions and tells the account. Returns what was removed.
 */
export async function resetTwoFactor(
  db: Db,
  actor: UserAdminActor,
  id: number,
  meta: ChangeMeta = {},
): Promise<{ devices: number; codes: number; sessions: number }> {
  refuseDelegatedCaller(actor);
  if (!mayResetTwoFactor(actor)) throw new UserAdminError(403, USER_ADMIN_TEXTS.resetNeedsPermission);
  if (actor.id === id) throw new UserAdminError(409, USER_ADMIN_TEXTS.selfReset);
  return db.transaction(async (tx) => {
    const target = await lockTarget(tx, actor, id);
    const devices = await tx.delete(totpDevices).where(eq(totpDevices.userId, id)).returning({ id: totpDevices.id });
    const codes = await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, id)).returning({ id: recoveryCodes.id });
    await tx.update(userSettings).set({ enable2fa: false }).where(eq(userSettings.userId, id));
    const ended = await endUserAccess(tx, id, "twoFactorReset");
    await recordAudit(tx, {
      actor,
      action: "user.reset_2fa",
      targetType: "user",
      targetId: id,
      targetLabel: target.email,
      before: { two_factor_devices: devices.length, recovery_codes: codes.length },
      after: { two_factor_devices: 0, recovery_codes: 0, sessions_ended: ended.sessions },
      clientAddress: meta.clientAddress ?? null,
    });
    await notifyAccountChange(tx, id, "twoFactorReset");
    return { devices: devices.length, codes: codes.length, sessions: ended.sessions };
  });
}

/** Logs the account out everywhere (its API tokens stay). Returns how many sessions ended. */
export async function endUserSessions(db: Db, actor: UserAdminActor, id: number, meta: ChangeMeta = {}): Promise<number> {
  requireAdministrator(actor);
  if (actor.id === id) throw new UserAdminError(409, USER_ADMIN_TEXTS.selfSessions);
  return db.transaction(async (tx) => {
    const target = await lockTarget(tx, actor, id);
    const { sessions: ended } = await endUserAccess(tx, id, "loggedOutEverywhere");
    await recordAudit(tx, {
      actor,
      action: "user.end_sessions",
      targetType: "user",
      targetId: id,
      targetLabel: target.email,
      before: { open_sessions: ended },
      after: { open_sessions: 0 },
      clientAddress: meta.clientAddress ?? null,
    });
    return ended;
  });
}

/** A new invitation (the earlier link stops working) for an active account that has not chosen its password yet. */
export async function resendInvitation(db: Db, actor: UserAdminActor, id: number, options: CreateOptions = {}): Promise<UserRecord> {
  requireAdministrator(actor);
  const target = await db.transaction(async (tx) => {
    const record = await lockTarget(tx, actor, id);
    if (record.password_set) throw new UserAdminError(409, USER_ADMIN_TEXTS.passwordAlreadySet);
    if (!record.is_active) throw new UserAdminError(409, USER_ADMIN_TEXTS.inactiveNoInvitation);
    await recordAudit(tx, {
      actor,
      action: "user.invite",
      targetType: "user",
      targetId: id,
      targetLabel: record.email,
      before: null,
      after: { invitation_sent_to: record.email, valid_hours: Math.round((options.invitationTtlMs ?? WELCOME_TOKEN_TTL_MS) / 3_600_000) },
      clientAddress: options.clientAddress ?? null,
    });
    return record;
  });
  await sendInvitationMail(db, { id: target.id, email: target.email, firstName: target.first_name }, actor, options.invitationTtlMs);
  return target;
}

/** Accepts or rejects an applicant request (staff and superusers): audit entry and mail to the applicant by decideUserRequest. */
export async function decideApplicantRequest(
  db: Db,
  actor: UserAdminActor,
  id: number,
  decision: "accept" | "reject",
  meta: ChangeMeta = {},
): Promise<Extract<DecisionResult, { ok: true }>> {
  requireAdministrator(actor);
  const result = await decideUserRequest(db, id, decision, actor, meta);
  if (!result.ok) throw new UserAdminError(result.status, result.detail);
  return result;
}
