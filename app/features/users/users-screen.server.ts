/**
 * The Users screen (/manage-users, VIEW_USERS; shell §2): the accounts with search, order and pages,
 * an account's panel, the applicant requests and the audit log. Reading needs VIEW_USERS; every
 * change is for staff and superusers (the service refuses others with 403). GET parameters choose
 * what is shown (params.ts); every change is a POST form with one `intent`, answered by a redirect
 * with `saved=<what>` (PRG), or by the service's refusal (400/403/404/409) with
 * { intent, errors, values }: the message of the action that failed and the values as typed.
 */
import { data, redirect } from "@remix-run/node";
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import { describeFeatureFlag, describePermission } from "~/lib/permission-catalogue";
import { isToolBuilt } from "~/lib/routes";
import { listAudit } from "~/server/audit/audit-log.server";
import { readProtectedForm } from "~/server/auth/guard.server";
import { clientAddress } from "~/server/auth/session.server";
import {
  createUser,
  decideApplicantRequest,
  deleteUser,
  emailChangeRefusals,
  endUserSessions,
  getUser,
  listGroupNames,
  listUsers,
  mayAdministerUsers,
  mayResetTwoFactor,
  resendInvitation,
  resetTwoFactor,
  setUserActive,
  updateUser,
  USER_ADMIN_TEXTS,
  UserAdminError,
  userFacts,
  type UserRecord,
} from "~/server/auth/user-admin.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { listUserRequests } from "~/server/auth/user-requests.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { parseUsersParams, usersUrl } from "./params";
import { parseInt32Id } from "~/lib/input-fields";

const SAVED: Record<string, string> = {
  created: "The user was added and an invitation to choose a password was mailed (the link is valid for 72 hours).",
  updated: "The user was saved.",
  "email-changed":
    "The user was saved with the new e-mail address: the old address was told, and the account's sessions and API tokens were ended.",
  deactivated: "The account was deactivated: its sessions, API tokens and unfinished Looking Glass jobs were ended.",
  reactivated: "The account was reactivated.",
  deleted: "The user was deleted.",
  "2fa-reset": "Two-factor authentication was reset: the authenticators and recovery codes were removed and the account was logged out.",
  "sessions-ended": "The account was logged out everywhere.",
  invited: "A new invitation was mailed; the earlier link no longer works.",
  "request-accepted": "The request was accepted: the account was created and the applicant mailed a link to choose a password.",
  "request-rejected": "The request was rejected and the applicant told by mail.",
};

export const INTENTS = [
  "create",
  "update",
  "deactivate",
  "reactivate",
  "delete",
  "reset-2fa",
  "end-sessions",
  "resend-invitation",
  "accept-request",
  "reject-request",
] as const;
export type UsersIntent = (typeof INTENTS)[number];

/** What each action says when it fails, before the reason. */
const FAILED: Record<UsersIntent, string> = {
  create: "The user was not created:",
  update: "The changes were not saved:",
  deactivate: "The account was not deactivated:",
  reactivate: "The account was not reactivated:",
  delete: "The user was not deleted:",
  "reset-2fa": "Two-factor authentication was not reset:",
  "end-sessions": "The sessions were not ended:",
  "resend-invitation": "The invitation was not sent:",
  "accept-request": "The request was not accepted:",
  "reject-request": "The request was not rejected:",
};

/** Audit actions as people read them. */
const ACTION_LABELS: Record<string, string> = {
  "user.create": "Added the user",
  "user.update": "Changed the user",
  "user.deactivate": "Deactivated the account",
  "user.reactivate": "Reactivated the account",
  "user.delete": "Deleted the user",
  "user.reset_2fa": "Reset two-factor authentication",
  "user.end_sessions": "Ended the sessions",
  "user.invite": "Sent an invitation",
  "user_request.accept": "Accepted the applicant request",
  "user_request.reject": "Rejected the applicant request",
};

/** Field names of the audit records as people read them. */
const FIELD_LABELS: Record<string, string> = {
  email: "E-mail",
  first_name: "First name",
  last_name: "Last name",
  is_active: "Active",
  is_staff: "Staff",
  is_superuser: "Superuser",
  can_change_own_group: "Can change own group",
  groups: "Groups",
  permissions: "Permissions",
  feature_flags: "Feature flags",
  status: "Status",
  created_user_id: "Account created",
  two_factor_devices: "Authenticators",
  recovery_codes: "Recovery codes",
  sessions_ended: "Sessions ended",
  open_sessions: "Open sessions",
  invitation_sent_to: "Invitation sent to",
  valid_hours: "Link valid (hours)",
};

const PAGE_AUDIT = 25;

function auditValue(field: string, value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    const name = field === "permissions" ? describePermission : field === "feature_flags" ? describeFeatureFlag : null;
    return value.map((v) => (name ? name(String(v)).title : String(v))).join(", ");
  }
  if (field === "created_user_id") return `#${String(value)}`;
  return String(value);
}

/** The fields an entry changed (for a creation or deletion: every field it names). */
export function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  // In the order of the form (stored records do not keep the order of their keys); unknown fields last.
  const rank = (f: string) => (f in FIELD_LABELS ? Object.keys(FIELD_LABELS).indexOf(f) : Number.MAX_SAFE_INTEGER);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort((a, b) => rank(a) - rank(b));
  return fields
    .filter((f) => !before || !after || JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => ({
      field: FIELD_LABELS[f] ?? f,
      before: before ? auditValue(f, before[f]) : null,
      after: after ? auditValue(f, after[f]) : null,
    }));
}

function rowKinds(r: UserRecord): string[] {
  const kinds: string[] = [];
  if (r.is_superuser) kinds.push("Superuser");
  else if (r.is_staff) kinds.push("Staff");
  if (r.is_delegated) kinds.push("Delegated");
  if (!r.is_active) kinds.push("Deactivated");
  else if (!r.password_set) kinds.push("Invited");
  return kinds;
}

type Stores = Pick<Services, "pg">;

/** A delegated account holding VIEW_USERS still gets no user administration: a 403 page. */
function refuseDelegated(user: UserContext): void {
  if (user.isDelegated) throw data({ detail: USER_ADMIN_TEXTS.delegatedCaller }, { status: 403 });
}

export async function loadUsersScreen(services: Stores, user: UserContext, url: URL) {
  refuseDelegated(user);
  const db = services.pg.db;
  const params = parseUsersParams(url.searchParams);
  const administer = mayAdministerUsers(user);
  const notices = [...params.notApplied];
  const view = params.view === "audit" && !administer ? "accounts" : params.view;
  if (params.view === "audit" && !administer) notices.push("The audit log is for staff and superusers.");
  if (params.newUser && !administer) notices.push(USER_ADMIN_TEXTS.staffOnly);
  const [settings, list, groupNames, requests] = await Promise.all([
    getUserSettings(db, user.id),
    listUsers(db, { search: params.q, sort: params.sort, page: params.page }),
    listGroupNames(db),
    listUserRequests(db),
  ]);
  const timezone = safeTimezone(settings.timezone);
  const when = (iso: string | null) => (iso ? formatDateLongBare(iso, timezone) : "never");
  let selected = null;
  if (params.user) {
    const record = await getUser(db, params.user);
    if (!record) notices.push(USER_ADMIN_TEXTS.notFound);
    else {
      const facts = await userFacts(db, record.id);
      const editable = administer && !record.is_delegated && (!record.is_superuser || user.isSuperuser);
      const emailRefusals = editable
        ? emailChangeRefusals(
            user,
            record,
            facts.groupPermissions.map((g) => g.code),
          )
        : [];
      selected = {
        record,
        facts,
        kinds: rowKinds(record),
        lastLogin: when(record.last_login),
        created: when(record.date_joined),
        editable,
        emailLocked: emailRefusals[0] ?? null,
        self: record.id === user.id,
        mayReset: mayResetTwoFactor(user) && !record.is_delegated && record.id !== user.id && (!record.is_superuser || user.isSuperuser),
        confirmDelete: params.confirmDelete && editable && record.id !== user.id,
      };
    }
  }
  let audit = null;
  if (view === "audit") {
    const page = await listAudit(db, { page: params.auditPage, pageSize: PAGE_AUDIT });
    audit = {
      page: page.page,
      pages: Math.max(1, Math.ceil(page.total / page.pageSize)),
      total: page.total,
      entries: page.entries.map((e) => ({
        id: e.id,
        at: formatDateLongBare(e.at, timezone),
        actor: e.actor_email || "(the system)",
        action: ACTION_LABELS[e.action] ?? e.action,
        target: e.target_label || `${e.target_type} #${e.target_id}`,
        targetUser: e.target_type === "user" ? Number(e.target_id) : null,
        changes: auditChanges(e.before, e.after),
        clientAddress: e.client_address,
      })),
    };
  }
  const showRequest = (r: (typeof requests)[number]) => ({
    id: r.id,
    email: r.email,
    name: `${r.first_name} ${r.last_name}`.trim(),
    status: r.status,
    created: when(r.created_at),
    decided: r.decided_at ? when(r.decided_at) : null,
  });
  return {
    view,
    q: params.q,
    sort: params.sort,
    page: list.page,
    pages: list.pages,
    count: list.count,
    newUser: params.newUser && administer,
    timezone,
    notices,
    savedMessage: params.saved ? (SAVED[params.saved] ?? null) : null,
    mayAdminister: administer,
    isSuperuser: user.isSuperuser,
    actorPermissions: user.permissions,
    actorFlags: user.featureFlags,
    delegatedScreen: isToolBuilt("/manage-delegated-users") && user.permissions.includes("MANAGE_DELEGATED_USERS"),
    groups: groupNames,
    rows: list.results.map((r) => ({
      id: r.id,
      email: r.email,
      name: `${r.first_name} ${r.last_name}`.trim(),
      kinds: rowKinds(r),
      lastLogin: when(r.last_login),
      created: when(r.date_joined),
    })),
    selected,
    pendingCount: requests.filter((r) => r.status === "PENDING").length,
    requests:
      view === "requests"
        ? {
            pending: requests.filter((r) => r.status === "PENDING").map(showRequest),
            decided: requests.filter((r) => r.status !== "PENDING").map(showRequest),
          }
        : null,
    audit,
  };
}

export type UsersScreen = Awaited<ReturnType<typeof loadUsersScreen>>;

export type UsersActionResult = { intent: UsersIntent | ""; errors: Record<string, string>; values: Record<string, string> };

const LIST_FIELDS = ["groups", "permissions", "feature_flags"] as const;

export async function saveUsersScreen(services: Stores, user: UserContext, request: Request) {
  refuseDelegated(user);
  const form = await readProtectedForm(request);
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && key !== "csrfmiddlewaretoken" && !(LIST_FIELDS as readonly string[]).includes(key))
      values[key] = value;
  }
  const lists = Object.fromEntries(
    LIST_FIELDS.map((f) => [f, form.getAll(f).filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 200)]),
  ) as Record<(typeof LIST_FIELDS)[number], string[]>;
  // One per line: group names may hold commas.
  for (const f of LIST_FIELDS) values[f] = lists[f].join("\n");
  const intent = ((INTENTS as readonly string[]).includes(values.intent ?? "") ? values.intent : "") as UsersIntent | "";
  const refuse = (errors: Record<string, string>, status: 400 | 403 | 404 | 409) =>
    data<UsersActionResult>({ intent, errors, values }, { status });
  if (!intent) return refuse({ "": "Unknown action." }, 400);
  const id = parseInt32Id(values.id) ?? 0;
  const db = services.pg.db;
  const meta = { clientAddress: clientAddress(request) };
  const input = {
    email: values.email ?? "",
    first_name: values.first_name ?? "",
    last_name: values.last_name ?? "",
    groups: lists.groups,
    permissions: lists.permissions,
    feature_flags: lists.feature_flags,
    is_staff: values.is_staff === "on",
    is_superuser: values.is_superuser === "on",
    can_change_own_group: values.can_change_own_group === "on",
  };
  try {
    switch (intent) {
      case "create": {
        const made = await createUser(db, user, input, meta);
        return redirect(usersUrl({ user: made.id, saved: "created" }));
      }
      case "update": {
        const before = await getUser(db, id);
        const after = await updateUser(db, user, id, input, meta);
        const emailChanged = before !== null && before.email !== after.email && id !== user.id;
        return redirect(usersUrl({ user: id, saved: emailChanged ? "email-changed" : "updated" }));
      }
      case "deactivate":
      case "reactivate":
        await setUserActive(db, user, id, intent === "reactivate", meta);
        return redirect(usersUrl({ user: id, saved: `${intent}d` }));
      case "delete":
        await deleteUser(db, user, id, meta);
        return redirect(usersUrl({ saved: "deleted" }));
      case "reset-2fa":
        await resetTwoFactor(db, user, id, meta);
        return redirect(usersUrl({ user: id, saved: "2fa-reset" }));
      case "end-sessions":
        await endUserSessions(db, user, id, meta);
        return redirect(usersUrl({ user: id, saved: "sessions-ended" }));
      case "resend-invitation":
        await resendInvitation(db, user, id, meta);
        return redirect(usersUrl({ user: id, saved: "invited" }));
      case "accept-request":
      case "reject-request":
        await decideApplicantRequest(db, user, id, intent === "accept-request" ? "accept" : "reject", meta);
        return redirect(usersUrl({ view: "requests", saved: intent === "accept-request" ? "request-accepted" : "request-rejected" }));
    }
  } catch (error) {
    if (!(error instanceof UserAdminError)) throw error;
    const errors: Record<string, string> = { "": `${FAILED[intent]} ${error.detail}` };
    for (const e of error.errors) errors[e.field] ??= e.message;
    return refuse(errors, error.status);
  }
}
