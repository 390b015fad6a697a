/**
 * Delegated accounts and their restrictions: the one service the Delegated Users screen and the
 * auth/delegated_users/ calls share.
 *
 * Who: holders of MANAGE_DELEGATED_USERS manage the delegated accounts they created
 * (users.delegated_by_id); staff and superusers (holding it; superusers hold every permission)
 * manage all. Another manager's account is "not
 * found" (404), so ids reveal nothing. A delegated account gets only permissions of the short
 * list (params.ts DELEGABLE_PERMISSIONS) that its manager holds (grantProblems), never an
 * administrative one. Every change writes an audit entry (target_type "delegated_user") in its
 * transaction; deactivating and deleting end the account's access (endUserAccess) in it too.
 */
import { and, asc, count, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import {
  delegationRestrictions,
  interfaces,
  routers,
  userPermissions,
  users,
  type ExternalLinksViewRestrictions,
  type FlowsViewRestriction,
} from "~db/postgres/schema";
import { parseTagValues } from "~/features/tags/tag-values";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { recordAudit } from "~/server/audit/audit-log.server";
import { endUserAccess, grantProblems } from "~/server/auth/account-admin.server";
import { sendInvitationMail, WELCOME_TOKEN_TTL_MS } from "~/server/auth/password-reset.server";
import { emailTaken } from "~/server/auth/user-requests.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { getDimension, INTERFACE_SEPARATOR, isDimensionId } from "~/features/filter/dimensions";
import {
  ADMIN_PERMISSIONS,
  DELEGABLE_PERMISSIONS,
  MAX_RESTRICTIONS,
  MAX_WELCOME_TEXT,
  PAGE_SIZE,
  type DelegatedUserForm,
  type RestrictionRow,
} from "./params";

export type Manager = Pick<UserContext, "id" | "email" | "isStaff" | "isSuperuser" | "permissions" | "featureFlags">;

export class DelegatedUserError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    readonly errors: Record<string, string>,
  ) {
    super(errors[""] ?? Object.values(errors)[0] ?? "Refused.");
  }
}

export const TEXTS = {
  notFound: "There is no such delegated account (any more), or it is not one of yours.",
  notAllowed: "You do not have permission to perform this action.",
  notDelegable: (p: string) => `${p} cannot be given to a delegated account.`,
  adminPermission: (p: string) => `${p} is an administrative permission: a delegated account never gets it.`,
  noRestriction: "Add at least one flows restriction: without one the account sees no traffic.",
  tooManyRestrictions: `At most ${MAX_RESTRICTIONS} restrictions.`,
  unknownDimension: "Choose a dimension.",
  unknownOutput: "Choose the output dimension.",
  noValues: "Give at least one value.",
  outputDirection: "The output must be of the restricted dimension's direction (ingress or egress), or have none.",
  unknownRouter: (names: string[]) => `Not in the network inventory: ${names.join(", ")}.`,
  unknownInterface: (names: string[]) => `Not in the network inventory: ${names.join(", ")} (write router|interface).`,
  welcomeTooLong: `At most ${MAX_WELCOME_TEXT} characters.`,
  nameRequired: "Required.",
  nameTooLong: "At most 150 characters.",
} as const;

/** May the user open the screen and the calls at all: MANAGE_DELEGATED_USERS (superusers hold every permission). */
export function mayManageDelegatedUsers(user: Pick<UserContext, "permissions">): boolean {
  return user.permissions.includes("MANAGE_DELEGATED_USERS");
}

const managesAll = (m: Manager) => m.isStaff || m.isSuperuser;

/** The accounts a manager sees: delegated ones, their own unless staff or superuser. */
function visibleTo(m: Manager): SQL {
  const delegated = eq(users.isDelegated, true);
  return managesAll(m) ? delegated : and(delegated, eq(users.delegatedById, m.id))!;
}

export type DelegatedUserView = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  has_password: boolean;
  delegated_by: { id: number; email: string } | null;
  permissions: string[];
  flows_views_restrictions: FlowsViewRestriction[];
  external_links_views_restrictions: ExternalLinksViewRestrictions;
  welcome_text: string;
  created_at: string;
  last_login_at: string | null;
};

async function views(db: Db, ids: number[]): Promise<DelegatedUserView[]> {
  if (!ids.length) return [];
  const rows = await db.select().from(users).where(inArray(users.id, ids)).orderBy(asc(users.email));
  const managerIds = [...new Set(rows.map((u) => u.delegatedById).filter((m) => m !== null))];
  const [restrictions, grants, managers] = await Promise.all([
    db.select().from(delegationRestrictions).where(inArray(delegationRestrictions.userId, ids)),
    db
      .select({ userId: userPermissions.userId, permission: userPermissions.permission })
      .from(userPermissions)
      .where(inArray(userPermissions.userId, ids)),
    managerIds.length
      ? db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, managerIds))
      : Promise.resolve([]),
  ]);
  const byManager = new Map(managers.map((m) => [m.id, m.email]));
  return rows.map((u) => {
    const r = restrictions.find((x) => x.userId === u.id);
    return {
      id: u.id,
      email: u.email,
      first_name: u.firstName,
      last_name: u.lastName,
      is_active: u.isActive,
      has_password: !!u.passwordHash,
      delegated_by: u.delegatedById ? { id: u.delegatedById, email: byManager.get(u.delegatedById) ?? "" } : null,
      permissions: grants
        .filter((g) => g.userId === u.id)
        .map((g) => g.permission)
        .sort(),
      flows_views_restrictions: r?.flowsViewsRestrictions ?? [],
      external_links_views_restrictions: r?.externalLinksViewsRestrictions ?? { ASNumberList: [], routerList: [], interfaceList: [] },
      welcome_text: r?.welcomeText ?? "",
      created_at: u.createdAt.toISOString(),
      last_login_at: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    };
  });
}

/** One page of the manager's delegated accounts, searched in e-mail and names. */
export async function listDelegatedUsers(db: Db, manager: Manager, options: { q?: string; page?: number } = {}) {
  const q = (options.q ?? "").trim();
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = q
    ? and(visibleTo(manager), or(ilike(users.email, like), ilike(users.firstName, like), ilike(users.lastName, like)))
    : visibleTo(manager);
  const [{ n }] = await db.select({ n: count() }).from(users).where(where);
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const ids = await db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(asc(users.email))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  return {
    results: await views(
      db,
      ids.map((r) => r.id),
    ),
    total,
    page,
    pages,
  };
}

/** One of the manager's delegated accounts; 404 when it is not theirs (or not delegated, or gone). */
export async function getDelegatedUser(db: Db, manager: Manager, id: number): Promise<DelegatedUserView> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), visibleTo(manager)));
  if (!row) throw new DelegatedUserError(404, { "": TEXTS.notFound });
  return (await views(db, [id]))[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

export type CheckedRestrictions = {
  flows: FlowsViewRestriction[];
  external: ExternalLinksViewRestrictions;
};

/**
 * The restriction rows and border-planner lists as typed → what is stored, or the messages per
 * field (r.<i>.dimension / values / output, asNumbers, routers, interfaces). Values are checked
 * per dimension with the tag-value rules; routers and interfaces against the inventory.
 */
export async function checkRestrictions(
  db: Db,
  form: Pick<DelegatedUserForm, "restrictions" | "asNumbers" | "routers" | "interfaces">,
): Promise<{ ok: true; value: CheckedRestrictions } | { ok: false; errors: Record<string, string> }> {
  const errors: Record<string, string> = {};
  const flows: FlowsViewRestriction[] = [];
  if (!form.restrictions.length) errors.restrictions = TEXTS.noRestriction;
  if (form.restrictions.length > MAX_RESTRICTIONS) errors.restrictions = TEXTS.tooManyRestrictions;
  form.restrictions.forEach((row: RestrictionRow, i) => {
    const at = (f: string) => `r.${i}.${f}`;
    if (!isDimensionId(row.dimension)) errors[at("dimension")] = TEXTS.unknownDimension;
    if (!isDimensionId(row.output)) errors[at("output")] = TEXTS.unknownOutput;
    if (!isDimensionId(row.dimension)) return;
    const def = getDimension(row.dimension);
    const parsed = parseTagValues(def.filterKind, row.values);
    if (parsed.errors.length) errors[at("values")] = parsed.errors.join(" ");
    else if (!parsed.values.length) errors[at("values")] = TEXTS.noValues;
    if (isDimensionId(row.output)) {
      const out = getDimension(row.output).direction;
      if (def.direction && out && out !== def.direction) errors[at("output")] = TEXTS.outputDirection;
    }
    flows.push({ dimension: row.dimension, constrained_values: parsed.values, output: row.output });
  });
  const asns = parseTagValues("AS_NUMBER", form.asNumbers);
  if (asns.errors.length) errors.asNumbers = asns.errors.join(" ");
  const routerNames = parseTagValues("ROUTER", form.routers);
  if (routerNames.errors.length) errors.routers = routerNames.errors.join(" ");
  const ifaceNames = parseTagValues("INTERFACE", form.interfaces);
  if (ifaceNames.errors.length) errors.interfaces = ifaceNames.errors.join(" ");
  if (!errors.routers && routerNames.values.length) {
    const known = new Set(
      (await db.select({ name: routers.name }).from(routers).where(inArray(routers.name, routerNames.values))).map((r) => r.name),
    );
    const unknown = routerNames.values.filter((r) => !known.has(r));
    if (unknown.length) errors.routers = TEXTS.unknownRouter(unknown);
  }
  if (!errors.interfaces && ifaceNames.values.length) {
    const rows = await db
      .select({ router: routers.name, name: interfaces.name })
      .from(interfaces)
      .innerJoin(routers, eq(interfaces.routerId, routers.id))
      .where(inArray(routers.name, [...new Set(ifaceNames.values.map((v) => v.split(INTERFACE_SEPARATOR)[0]))]));
    const known = new Set(rows.map((r) => `${r.router}${INTERFACE_SEPARATOR}${r.name}`));
    const unknown = ifaceNames.values.filter((v) => !known.has(v));
    if (unknown.length) errors.interfaces = TEXTS.unknownInterface(unknown);
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      flows,
      external: { ASNumberList: asns.values.map(Number), routerList: routerNames.values, interfaceList: ifaceNames.values },
    },
  };
}

/** The permissions' problems: outside the short list, administrative, or not held by the manager. */
export function permissionProblems(manager: Manager, next: readonly string[], current: readonly string[] = []): string[] {
  const problems: string[] = [];
  const delegable = new Set<string>(DELEGABLE_PERMISSIONS.map((p) => p.permission));
  for (const p of next) {
    if ((ADMIN_PERMISSIONS as readonly string[]).includes(p)) problems.push(TEXTS.adminPermission(p));
    else if (!delegable.has(p)) problems.push(TEXTS.notDelegable(p));
  }
  if (problems.length) return problems;
  return grantProblems(manager, { permissions: next, featureFlags: [] }, { permissions: current, featureFlags: [] });
}

function nameErrors(form: Pick<DelegatedUserForm, "firstName" | "lastName">): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, value] of [
    ["firstName", form.firstName.trim()],
    ["lastName", form.lastName.trim()],
  ] as const) {
    if (!value) errors[field] = TEXTS.nameRequired;
    else if (value.length > 150) errors[field] = TEXTS.nameTooLong;
  }
  return errors;
}

async function checkForm(db: Db, manager: Manager, form: DelegatedUserForm, current: readonly string[] = []) {
  const errors: Record<string, string> = { ...nameErrors(form) };
  const problems = permissionProblems(manager, form.permissions, current);
  if (problems.length) errors.permissions = problems.join(" ");
  if (form.welcomeText.length > MAX_WELCOME_TEXT) errors.welcomeText = TEXTS.welcomeTooLong;
  const checked = await checkRestrictions(db, form);
  if (!checked.ok) Object.assign(errors, checked.errors);
  if (Object.keys(errors).length) throw new DelegatedUserError(400, errors);
  return (checked as { ok: true; value: CheckedRestrictions }).value;
}

// ---------------------------------------------------------------------------------------------------------------
// Changes

type Context = { clientAddress?: string | null };
const actorOf = (m: Manager) => ({ id: m.id, email: m.email });
const auditShape = (v: DelegatedUserView) => ({
  email: v.email,
  first_name: v.first_name,
  last_name: v.last_name,
  is_active: v.is_active,
  permissions: v.permissions,
  flows_views_restrictions: v.flows_views_restrictions,
  external_links_views_restrictions: v.external_links_views_restrictions,
  welcome_text: v.welcome_text,
});

/** The invitation: a single-use link to choose a password, valid 72 hours (the same mail as the Users screen's, for a customer). */
async function sendInvitation(db: Db, account: { id: number; email: string; firstName: string }, manager: Manager): Promise<void> {
  await sendInvitationMail(db, account, manager, WELCOME_TOKEN_TTL_MS, "delegated");
}

export async function createDelegatedUser(
  db: Db,
  manager: Manager,
  form: DelegatedUserForm,
  ctx: Context = {},
): Promise<DelegatedUserView> {
  const email = normalizeEmail(form.email ?? "");
  const errors: Record<string, string> = {};
  if (!isValidEmail(email)) errors.email = MESSAGES.emailFormat;
  else if (await emailTaken(db, email)) errors.email = MESSAGES.userCreation;
  let checked: CheckedRestrictions;
  try {
    checked = await checkForm(db, manager, form);
  } catch (error) {
    if (!(error instanceof DelegatedUserError)) throw error;
    throw new DelegatedUserError(400, { ...(errors.email ? { "": MESSAGES.userCreation } : {}), ...errors, ...error.errors });
  }
  if (Object.keys(errors).length) throw new DelegatedUserError(400, { "": MESSAGES.userCreation, ...errors });
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        passwordHash: null,
        isDelegated: true,
        delegatedById: manager.id,
      })
      .returning({ id: users.id });
    if (form.permissions.length)
      await tx.insert(userPermissions).values([...new Set(form.permissions)].map((permission) => ({ userId: row.id, permission })));
    await tx.insert(delegationRestrictions).values({
      userId: row.id,
      flowsViewsRestrictions: checked.flows,
      externalLinksViewsRestrictions: checked.external,
      welcomeText: form.welcomeText.trim(),
    });
    const [view] = await views(tx as unknown as Db, [row.id]);
    await recordAudit(tx, {
      actor: actorOf(manager),
      action: "delegated_user.create",
      targetType: "delegated_user",
      targetId: row.id,
      targetLabel: email,
      after: auditShape(view),
      clientAddress: ctx.clientAddress,
    });
    return row.id;
  });
  const view = (await views(db, [id]))[0];
  await sendInvitation(db, { id, email, firstName: view.first_name }, manager);
  return view;
}

/** Changes what `patch` names (the JSON PATCH); the screen sends the whole form. */
export async function updateDelegatedUser(
  db: Db,
  manager: Manager,
  id: number,
  patch: Partial<Omit<DelegatedUserForm, "email">> & { isActive?: boolean },
  ctx: Context = {},
): Promise<DelegatedUserView> {
  const before = await getDelegatedUser(db, manager, id);
  const form: DelegatedUserForm = {
    email: before.email,
    firstName: patch.firstName ?? before.first_name,
    lastName: patch.lastName ?? before.last_name,
    permissions: patch.permissions ?? before.permissions,
    restrictions:
      patch.restrictions ??
      before.flows_views_restrictions.map((r) => ({ dimension: r.dimension, values: r.constrained_values.join("\n"), output: r.output })),
    asNumbers: patch.asNumbers ?? before.external_links_views_restrictions.ASNumberList.join("\n"),
    routers: patch.routers ?? before.external_links_views_restrictions.routerList.join("\n"),
    interfaces: patch.interfaces ?? before.external_links_views_restrictions.interfaceList.join("\n"),
    welcomeText: patch.welcomeText ?? before.welcome_text,
  };
  const checked = await checkForm(db, manager, form, before.permissions);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        ...(patch.isActive === undefined ? {} : { isActive: patch.isActive }),
      })
      .where(eq(users.id, id));
    await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
    if (form.permissions.length)
      await tx.insert(userPermissions).values([...new Set(form.permissions)].map((permission) => ({ userId: id, permission })));
    const restrictionsChanged = JSON.stringify(checked.flows) !== JSON.stringify(before.flows_views_restrictions);
    const values = {
      flowsViewsRestrictions: checked.flows,
      externalLinksViewsRestrictions: checked.external,
      welcomeText: form.welcomeText.trim(),
      // Changed restrictions start again at the first.
      ...(restrictionsChanged ? { currentIndex: 0 } : {}),
    };
    await tx
      .insert(delegationRestrictions)
      .values({ userId: id, ...values })
      .onConflictDoUpdate({ target: delegationRestrictions.userId, set: values });
    if (patch.isActive === false && before.is_active) await endUserAccess(tx, id, "deactivated");
    const [after] = await views(tx as unknown as Db, [id]);
    const action =
      patch.isActive === false && before.is_active
        ? "delegated_user.deactivate"
        : patch.isActive === true && !before.is_active
          ? "delegated_user.reactivate"
          : "delegated_user.update";
    await recordAudit(tx, {
      actor: actorOf(manager),
      action,
      targetType: "delegated_user",
      targetId: id,
      targetLabel: before.email,
      before: auditShape(before),
      after: auditShape(after),
      clientAddress: ctx.clientAddress,
    });
  });
  return getDelegatedUser(db, manager, id);
}

/** Deactivate (its sessions, tokens and unfinished jobs end) or reactivate. */
export async function setDelegatedUserActive(db: Db, manager: Manager, id: number, active: boolean, ctx: Context = {}) {
  const before = await getDelegatedUser(db, manager, id);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ isActive: active }).where(eq(users.id, id));
    if (!active) await endUserAccess(tx, id, "deactivated");
    await recordAudit(tx, {
      actor: actorOf(manager),
      action: active ? "delegated_user.reactivate" : "delegated_user.deactivate",
      targetType: "delegated_user",
      targetId: id,
      targetLabel: before.email,
      before: { is_active: before.is_active },
      after: { is_active: active },
      clientAddress: ctx.clientAddress,
    });
  });
  return getDelegatedUser(db, manager, id);
}

export async function deleteDelegatedUser(db: Db, manager: Manager, id: number, ctx: Context = {}): Promise<void> {
  const before = await getDelegatedUser(db, manager, id);
  await db.transaction(async (tx) => {
    await endUserAccess(tx, id, "deleted");
    await recordAudit(tx, {
      actor: actorOf(manager),
      action: "delegated_user.delete",
      targetType: "delegated_user",
      targetId: id,
      targetLabel: before.email,
      before: auditShape(before),
      clientAddress: ctx.clientAddress,
    });
    await tx.delete(users).where(eq(users.id, id));
  });
}

/** A new invitation link (the earlier ones stop working), for an account that has not chosen a password yet or lost it. */
export async function reinviteDelegatedUser(db: Db, manager: Manager, id: number, ctx: Context = {}): Promise<void> {
  const account = await getDelegatedUser(db, manager, id);
  await db.transaction(async (tx) => {
    await recordAudit(tx, {
      actor: actorOf(manager),
      action: "delegated_user.invite",
      targetType: "delegated_user",
      targetId: id,
      targetLabel: account.email,
      clientAddress: ctx.clientAddress,
    });
  });
  await sendInvitation(db, { id, email: account.email, firstName: account.first_name }, manager);
}
