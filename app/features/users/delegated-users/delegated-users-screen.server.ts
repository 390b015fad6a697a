/**
 * The Delegated Users screen (/manage-delegated-users, MANAGE_DELEGATED_USERS): the list (search,
 * paging), the create and edit forms with the restrictions editor, the confirmation step of a
 * deletion, and the preview "what this account sees". Every change is a POST form with one
 * `intent`, answered by a redirect with `saved=<what>` (PRG) or by the service's refusal (400 with
 * the messages next to the fields, 404) with the values as typed. The editor's "Add restriction",
 * "Remove" and "Preview" buttons post the form too and answer it re-rendered (no JavaScript needed).
 */
import { data, redirect } from "@remix-run/node";
import { menuItems } from "~/lib/routes";
import { readProtectedForm, tablesWithoutData } from "~/server/auth/guard.server";
import { EXTERNAL_LINK_PERMISSIONS } from "~/server/auth/delegation.server";
import { clientAddress } from "~/server/auth/session.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { welcomePageEnabled } from "~/server/auth/welcome-page.server";
import type { Services } from "~/server/services.server";
import { count, inArray } from "drizzle-orm";
import { vantagePoints } from "~db/postgres/schema";
import { delegationPolicy } from "~/features/filter/delegation-policy.server";
import { DIMENSIONS } from "~/features/filter/dimensions";
import type { DelegationPolicy } from "~/features/filter/delegation-policy.server";
import {
  checkRestrictions,
  createDelegatedUser,
  deleteDelegatedUser,
  DelegatedUserError,
  getDelegatedUser,
  listDelegatedUsers,
  reinviteDelegatedUser,
  setDelegatedUserActive,
  updateDelegatedUser,
  type DelegatedUserView,
} from "./delegated-users.server";
import {
  DELEGABLE_PERMISSIONS,
  delegatedUsersUrl,
  EMPTY_ROW,
  MAX_RESTRICTIONS,
  parseDelegatedUsersParams,
  readRestrictionRows,
  SAVED_MESSAGES,
  type DelegatedUserForm,
} from "./params";

export const PREVIEW_HOURS = 24;
export const PREVIEW_TOP = 10;

/**
 * The flows an account would see under one restriction, by its output: the top rows and the total,
 * or the refusal's messages. The flows tool answers it (restrictedTraffic of
 * app/features/flows/restriction-preview.server.ts, with the code a delegated user's request runs);
 * the route hands it in, so this tool does not import the flows tool.
 */
export type TrafficOf = (
  services: Services,
  account: UserContext,
  policy: DelegationPolicy,
  query: { output: string; start: number; end: number; top: number },
) => Promise<
  | { errors: string[] }
  | { output: string; range: { start: number; end: number } | null; rows: { key: string; name: string; bps: number }[]; total: number }
>;

/** The form of a stored account. */
export function formOf(v: DelegatedUserView): DelegatedUserForm {
  return {
    email: v.email,
    firstName: v.first_name,
    lastName: v.last_name,
    permissions: v.permissions,
    restrictions: v.flows_views_restrictions.map((r) => ({
      dimension: r.dimension,
      values: r.constrained_values.join("\n"),
      output: r.output,
    })),
    asNumbers: v.external_links_views_restrictions.ASNumberList.join("\n"),
    routers: v.external_links_views_restrictions.routerList.join("\n"),
    interfaces: v.external_links_views_restrictions.interfaceList.join("\n"),
    welcomeText: v.welcome_text,
  };
}

const EMPTY_FORM: DelegatedUserForm = {
  email: "",
  firstName: "",
  lastName: "",
  permissions: ["API_FLOWS_4D"],
  restrictions: [EMPTY_ROW],
  asNumbers: "",
  routers: "",
  interfaces: "",
  welcomeText: "",
};

export async function loadDelegatedUsers(services: Services, user: UserContext, url: URL) {
  const params = parseDelegatedUsersParams(url.searchParams);
  const db = services.pg.db;
  const notices: string[] = [];
  const list = await listDelegatedUsers(db, user, { q: params.q, page: params.page });
  const find = async (id: number | null) => {
    if (id === null) return null;
    try {
      return await getDelegatedUser(db, user, id);
    } catch (error) {
      if (!(error instanceof DelegatedUserError)) throw error;
      notices.push(error.message);
      return null;
    }
  };
  const [edited, toDelete] = await Promise.all([find(params.id), find(params.confirmDelete)]);
  return {
    params,
    notices,
    savedMessage: params.saved ? SAVED_MESSAGES[params.saved] : null,
    list: {
      total: list.total,
      page: list.page,
      pages: list.pages,
      rows: list.results.map((v) => ({
        id: v.id,
        email: v.email,
        name: `${v.first_name} ${v.last_name}`.trim(),
        active: v.is_active,
        invited: !v.has_password,
        managedBy: v.delegated_by?.email ?? "",
        restrictions: v.flows_views_restrictions.length,
      })),
    },
    edited: edited ? { id: edited.id, active: edited.is_active, invited: !edited.has_password, form: formOf(edited) } : null,
    creating: params.creating ? EMPTY_FORM : null,
    toDelete: toDelete ? { id: toDelete.id, email: toDelete.email } : null,
    dimensions: DIMENSIONS.map((d) => ({ value: d.id, label: d.label })),
    permissions: DELEGABLE_PERMISSIONS.filter((p) => user.permissions.includes(p.permission)),
    managesAll: user.isStaff || user.isSuperuser,
  };
}

export type DelegatedUsersScreen = Awaited<ReturnType<typeof loadDelegatedUsers>>;

// ---------------------------------------------------------------------------------------------------------------
// The preview

export type Preview = {
  restriction: number;
  errors: string[];
  range: { start: number; end: number } | null;
  output: string;
  rows: { key: string; name: string; bps: number }[];
  total: number;
  menu: string[];
};

/** The account's effective permissions as the user context will load them (the external-links rule). */
export function effectivePermissions(form: Pick<DelegatedUserForm, "permissions" | "asNumbers">): string[] {
  const dropLinks = !form.asNumbers.trim();
  return [...new Set(form.permissions)].filter((p) => !(dropLinks && (EXTERNAL_LINK_PERMISSIONS as readonly string[]).includes(p)));
}

/**
 * What the account would see under restriction `index` of the form (saved or not): the same
 * server code a delegated user's request runs — the delegation policy, the filter resolution and
 * the flows query of api/flows/ — for the last 24 complete hours, broken down by the restriction's output:
 * the top rows (bit/s) and the total; and the menu items the account gets.
 */
export async function previewRestriction(
  services: Services,
  trafficOf: TrafficOf,
  form: DelegatedUserForm,
  index: number,
  // The last 24 complete hours: a range on hour boundaries is whole windows of every aggregation
  // (5 and 15 minutes, 1 hour), so the figures are the range's traffic, not that of a wider first window.
  now = Math.floor(Date.now() / 3_600_000) * 3600,
): Promise<Preview> {
  const base: Preview = { restriction: index, errors: [], range: null, output: "", rows: [], total: 0, menu: [] };
  const permissions = effectivePermissions(form);
  const [empty, vpCount, welcomePage] = await Promise.all([
    tablesWithoutData(services),
    routerVantagePoints(services, form),
    welcomePageEnabled(services.pg.db),
  ]);
  base.menu = menuItems({ permissions: new Set(permissions), featureFlags: new Set(), isStaff: false, isDelegated: true }, empty, {
    hasVantagePoints: vpCount > 0,
    welcomePage,
  }).map((m) => m.menuLabel);
  const checked = await checkRestrictions(services.pg.db, form);
  if (!checked.ok) return { ...base, errors: Object.values(checked.errors) };
  const restriction = checked.value.flows[index];
  if (!restriction) return { ...base, errors: ["There is no such restriction in the form."] };
  const policy = delegationPolicy([restriction], 0);
  if (!policy) return { ...base, errors: ["This restriction cannot be applied."] };
  if (!permissions.includes("API_FLOWS_4D"))
    return { ...base, errors: ["Without the Flow Explorer permission the account sees no traffic."] };
  const account: UserContext = {
    id: 0,
    email: form.email,
    firstName: form.firstName,
    lastName: form.lastName,
    isStaff: false,
    isSuperuser: false,
    isDelegated: true,
    hasConsented: true,
    canChangeOwnGroup: false,
    permissions,
    featureFlags: [],
    groups: [],
  };
  const traffic = await trafficOf(services, account, policy, {
    output: restriction.output,
    start: now - PREVIEW_HOURS * 3600,
    end: now,
    top: PREVIEW_TOP,
  });
  return "errors" in traffic ? { ...base, errors: traffic.errors } : { ...base, ...traffic };
}

async function routerVantagePoints(services: Services, form: Pick<DelegatedUserForm, "routers">): Promise<number> {
  const names = form.routers
    .split(/[\r\n,]+/)
    .map((r) => r.trim())
    .filter(Boolean);
  if (!names.length) return 0;
  const [{ n }] = await services.pg.db.select({ n: count() }).from(vantagePoints).where(inArray(vantagePoints.router, names));
  return Number(n);
}

// ---------------------------------------------------------------------------------------------------------------
// Actions

export type DelegatedUsersActionResult = {
  intent: string;
  /** The account the form is about (null: the create form). */
  id: number | null;
  errors: Record<string, string>;
  form: DelegatedUserForm | null;
  preview: Preview | null;
};

function readForm(form: FormData): DelegatedUserForm {
  const one = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const keys = [...new Set([...form.keys()])];
  return {
    email: one("email"),
    firstName: one("firstName"),
    lastName: one("lastName"),
    permissions: form.getAll("permissions").filter((v): v is string => typeof v === "string"),
    restrictions: readRestrictionRows((name) => (form.has(name) ? one(name) : null), keys),
    asNumbers: one("asNumbers"),
    routers: one("routers"),
    interfaces: one("interfaces"),
    welcomeText: one("welcomeText"),
  };
}

/** The screen's action; `trafficOf` answers the preview (TrafficOf). */
export async function saveDelegatedUsers(services: Services, user: UserContext, request: Request, trafficOf: TrafficOf) {
  const form = await readProtectedForm(request);
  const intent = String(form.get("intent") ?? "");
  const idText = String(form.get("id") ?? "");
  const id = /^\d{1,9}$/.test(idText) ? Number(idText) : null;
  const typed = readForm(form);
  const db = services.pg.db;
  const ctx = { clientAddress: clientAddress(request) };
  const answer = (errors: Record<string, string>, extra: Partial<DelegatedUsersActionResult> = {}, status = 400) =>
    data<DelegatedUsersActionResult>({ intent, id, errors, form: typed, preview: null, ...extra }, { status });
  try {
    if (intent === "add-restriction") {
      if (typed.restrictions.length >= MAX_RESTRICTIONS) return answer({ restrictions: `At most ${MAX_RESTRICTIONS} restrictions.` });
      return answer({}, { form: { ...typed, restrictions: [...typed.restrictions, EMPTY_ROW] } }, 200);
    }
    const row = /^(remove-restriction|preview)-(\d{1,3})$/.exec(intent);
    if (row?.[1] === "remove-restriction") {
      const restrictions = typed.restrictions.filter((_, i) => i !== Number(row[2]));
      return answer({}, { form: { ...typed, restrictions } }, 200);
    }
    if (row?.[1] === "preview") {
      return answer({}, { preview: await previewRestriction(services, trafficOf, typed, Number(row[2])) }, 200);
    }
    switch (intent) {
      case "create": {
        const made = await createDelegatedUser(db, user, typed, ctx);
        return redirect(delegatedUsersUrl({ id: made.id, saved: "created" }));
      }
      case "update": {
        if (id === null) return answer({ "": "Which account?" }, {}, 404);
        const { email: _email, ...patch } = typed;
        await updateDelegatedUser(db, user, id, patch, ctx);
        return redirect(delegatedUsersUrl({ id, saved: "updated" }));
      }
      case "deactivate":
      case "reactivate": {
        if (id === null) return answer({ "": "Which account?" }, {}, 404);
        await setDelegatedUserActive(db, user, id, intent === "reactivate", ctx);
        return redirect(delegatedUsersUrl({ id, saved: intent === "reactivate" ? "reactivated" : "deactivated" }));
      }
      case "reinvite": {
        if (id === null) return answer({ "": "Which account?" }, {}, 404);
        await reinviteDelegatedUser(db, user, id, ctx);
        return redirect(delegatedUsersUrl({ id, saved: "invited" }));
      }
      case "delete": {
        if (id === null) return answer({ "": "Which account?" }, {}, 404);
        // Without JavaScript the list's Delete leads to the confirmation page; only its button sends confirm=yes.
        if (form.get("confirm") !== "yes") return redirect(delegatedUsersUrl({ confirmDelete: id }));
        await deleteDelegatedUser(db, user, id, ctx);
        return redirect(delegatedUsersUrl({ saved: "deleted" }));
      }
      default:
        return answer({ "": "Unknown action." });
    }
  } catch (error) {
    if (error instanceof DelegatedUserError) return answer(error.errors, {}, error.status);
    throw error;
  }
}
