/**
 * The permission matrix: every route module of app/routes (screens and resource routes) called as
 * each kind of visitor — anonymous, expired session, PENDING_2FA, operator (a subset of the
 * permissions), delegated, moderator, staff, superuser — against the status or redirect it must get.
 *
 * The matrix is keyed by route file name and must name exactly the files on disk: a new route
 * without an entry, or an entry for a deleted route, fails the first test. Expected outcomes come
 * from a few rules (screen(), api(), everyone(), …) written from the spec's access rules, with
 * per-role overrides where a route differs; landing routes are computed here from TOOL_ROUTES and
 * the roles' demo permissions, not by the app's own function.
 *
 * Outcomes: a number is the HTTP status (not a redirect); "403:code" a status with that JSON
 * exception_code; "/path" a redirect to exactly that target; "throws:Name" an error thrown on purpose.
 * Every check gets a fresh session, so logouts and revocations cannot leak into later checks;
 * mutations use bodies that fail validation after the access check, or are undone in `after`.
 */
import { and, eq, notInArray } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoUsers, type DemoUser } from "~db/demo/users";
import {
  delegationRestrictions,
  groups,
  mappings,
  notifications,
  sessions,
  siteSettings,
  tags,
  tagValues,
  totpDevices,
  userGroups,
  userPermissions,
  userSettings,
  users,
  vantagePoints,
} from "~db/postgres/schema";
import { MODERATORS_GROUP, PERMISSIONS, type Permission } from "~/lib/permissions";
import { TOOL_ROUTES } from "~/lib/routes";
import { tablesWithoutData } from "~/server/auth/guard.server";
import { confirmDevice, generateKey, setEnable2fa } from "~/server/auth/two-factor.server";
import { hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { isPathlessLayout, routeFilesOnDisk, routePattern } from "../helpers/route-table";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chCommand } from "~/server/clickhouse/query.server";

// ---------------------------------------------------------------------------------------------------------------
// Roles

const ROLES = ["anonymous", "expired", "pending", "operator", "delegated", "moderator", "staff", "superuser"] as const;
type Role = (typeof ROLES)[number];
type SignedOutRole = "anonymous" | "expired" | "pending";
type LoggedInRole = Exclude<Role, SignedOutRole>;
const LOGGED_IN: LoggedInRole[] = ["operator", "delegated", "moderator", "staff", "superuser"];

/** The demo accounts (db/demo/users.ts): the same flags and permissions, created here without the 30 s demo load. */
const DEMO = Object.fromEntries(demoUsers(64500).map((u) => [u.kind, u])) as Record<string, DemoUser>;
const DEMO_OF: Record<LoggedInRole, DemoUser> = {
  operator: DEMO.operator,
  delegated: DEMO.delegated,
  moderator: DEMO.moderator,
  staff: DEMO.staff,
  superuser: DEMO.superuser,
};

type Profile = { permissions: ReadonlySet<string>; isStaff: boolean; isSuperuser: boolean; isDelegated: boolean; moderator: boolean };
const PROFILES = Object.fromEntries(
  LOGGED_IN.map((role) => {
    const u = DEMO_OF[role];
    const profile: Profile = {
      permissions: new Set<string>(u.isSuperuser ? PERMISSIONS : u.permissions),
      isStaff: u.isStaff ?? false,
      isSuperuser: u.isSuperuser ?? false,
      isDelegated: u.isDelegated ?? false,
      moderator: u.moderator ?? false,
    };
    return [role, profile];
  }),
) as Record<LoggedInRole, Profile>;

const has = (role: LoggedInRole, permission: Permission) => PROFILES[role].permissions.has(permission);

/** Site settings a sample runs with (restored afterwards); the demo has both off. */
type Site = { welcome?: boolean; signup?: boolean; publicLookingGlass?: boolean };
const WELCOME: Site = { welcome: true };
const SIGNUP: Site = { signup: true };
const PUBLIC_LG: Site = { publicLookingGlass: true };

type Path = `/${string}`;
const NO_PERMISSIONS: Path = "/logout?reason=no-permissions";

/** The first built tool in menu order whose permission the role holds (FAQ and Notifications do not count). */
function firstTool(role: LoggedInRole): Path {
  const route = TOOL_ROUTES.find((r) => r.built && r.permission !== null && has(role, r.permission) && !r.featureFlag);
  return (route?.path as Path | undefined) ?? NO_PERMISSIONS;
}

/** Where a role lands: its first tool; delegated users see /welcome first when the site enables it. */
function landing(role: LoggedInRole, site: Site = {}): Path {
  const first = firstTool(role);
  if (first === NO_PERMISSIONS) return first;
  return PROFILES[role].isDelegated && site.welcome ? "/welcome" : first;
}

// ---------------------------------------------------------------------------------------------------------------
// Outcomes and the rules that produce them

type Outcome = number | `${number}:${string}` | `/${string}` | `throws:${string}`;
type Expect = Record<Role, Outcome>;

const enc = encodeURIComponent;
const NOT_AUTHENTICATED = "403:not_authenticated";
const CSRF_FAILED = "403:csrf_failed";

function perRole(outcome: (role: LoggedInRole) => Outcome): Record<LoggedInRole, Outcome> {
  return Object.fromEntries(LOGGED_IN.map((role) => [role, outcome(role)])) as Record<LoggedInRole, Outcome>;
}

function everyone(outcome: Outcome): Expect {
  return Object.fromEntries(ROLES.map((role) => [role, outcome])) as Expect;
}

/** The login guard (requireUser) for a screen at `url`: login, login with the expiry notice, or the second step. */
function toLogin(url: string): Record<SignedOutRole, Outcome> {
  return {
    anonymous: `/login?next=${enc(url)}`,
    expired: `/login?next=${enc(url)}&expired=1`,
    pending: `/login/2fa?next=${enc(url)}`,
  };
}

/** A screen behind the login guard and (optionally) a permission: `ok` with it, the landing route without. */
function screen(url: string, permission: Permission | null, options: { ok?: Outcome; site?: Site } = {}): Expect {
  return {
    ...toLogin(url),
    ...perRole((role) => (permission === null || has(role, permission) ? (options.ok ?? 200) : landing(role, options.site))),
  };
}

/** A screen action whose CSRF field is checked after the login guard: signed out → login, logged in → refused. */
function csrfAfterGuard(url: string): Expect {
  return { ...toLogin(url), ...perRole(() => CSRF_FAILED) };
}

/** JSON endpoint with access "login" (a LOGGED_IN session) or permissions on top of it (all of them when several). */
function api(access: "login" | Permission | readonly Permission[], ok: Outcome = 200): Expect {
  const needed: readonly Permission[] = access === "login" ? [] : typeof access === "string" ? [access] : access;
  return {
    anonymous: NOT_AUTHENTICATED,
    expired: NOT_AUTHENTICATED,
    pending: NOT_AUTHENTICATED,
    ...perRole((role) => (needed.every((p) => has(role, p)) ? ok : "403:permission_denied")),
  };
}

/** The Sankey and link-level topology calls; the indirect-traffic figures. */
const SANKEY_TOPOLOGY: Permission[] = ["API_FLOWS_4D", "SANKEY_TOPOLOGY"];
const INDIRECT_KPI: Permission[] = ["API_FLOWS_4D", "API_FLOWS_INDIRECT_KPI"];

/** /site-settings: staff and superusers (admin) and moderators; anyone else a 403 page. */
function siteRole(role: LoggedInRole): "admin" | "moderator" | null {
  const p = PROFILES[role];
  if (p.isStaff || p.isSuperuser) return "admin";
  return p.moderator ? "moderator" : null;
}

/** An Alerts screen action: VIEW_ALERTS holders reach the action (`ok`), others their landing route (the screen's guard). */
function alertsAction(ok: (role: LoggedInRole) => Outcome): Expect {
  return { ...toLogin("/alerts"), ...perRole((role) => (has(role, "VIEW_ALERTS") ? ok(role) : landing(role))) };
}

/** A Tag list action: MANAGE_TAGS holders get `ok`, others their landing route (the screen's guard). */
function tagListAction(ok: (role: LoggedInRole) => Outcome): Expect {
  return { ...toLogin("/manage-tags"), ...perRole((role) => (has(role, "MANAGE_TAGS") ? ok(role) : landing(role))) };
}

/** Changes of the Users screen and auth/users/: staff and superusers. */
const administersUsers = (role: LoggedInRole) => PROFILES[role].isStaff || PROFILES[role].isSuperuser;

/** A Users screen action: VIEW_USERS holders reach the service (staff and superusers `admin`, the others 403); the rest their landing route. */
function usersAction(admin: Outcome): Expect {
  return {
    ...toLogin("/manage-users"),
    ...perRole((role) => (has(role, "VIEW_USERS") ? (administersUsers(role) ? admin : 403) : landing(role))),
  };
}

/** A change through auth/users/ (or an applicant decision): VIEW_USERS, then staff or superuser (403 from the service). */
function usersApiChange(admin: Outcome): Expect {
  return {
    ...api("VIEW_USERS", admin),
    ...perRole((role) => (!has(role, "VIEW_USERS") ? "403:permission_denied" : administersUsers(role) ? admin : 403)),
  };
}

/** Shared tags and groups: staff, superusers and moderators. */
const editsShared = (role: LoggedInRole) => PROFILES[role].isStaff || PROFILES[role].isSuperuser || PROFILES[role].moderator;

/** The shared AS tag the Tag list samples change (made again when a sample deleted it). */
async function ensureSharedTag() {
  const db = stores.pg.db;
  const [found] = await db.select({ id: tags.id }).from(tags).where(eq(tags.id, fx.sharedTag));
  if (found) return;
  const [made] = await db.insert(tags).values({ name: "Matrix shared", dimension: "AS_NUMBER" }).returning({ id: tags.id });
  await db.insert(tagValues).values({ tagId: made.id, value: "64500" });
  fx.sharedTag = made.id;
}

/** Removes the tags the samples added (all but the fixtures). */
async function removeMadeTags() {
  await stores.pg.db.delete(tags).where(notInArray(tags.id, [fx.sharedTag, fx.foreignTag]));
}

// ---------------------------------------------------------------------------------------------------------------
// The matrix

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Sample = {
  method?: Method;
  /** Path and search; the route params are derived from it and the file name. */
  url: string | (() => string);
  /** JSON body (sent with the X-CSRFToken header unless csrf is false). */
  json?: unknown;
  /** Form body of a screen action (with the csrfmiddlewaretoken field unless csrf is false). */
  form?: Record<string, string> | (() => Record<string, string>);
  csrf?: boolean;
  /** Extra request headers (e.g. Sec-Fetch-Site of a browser). */
  headers?: Record<string, string>;
  site?: Site;
  note?: string;
  /** Undo a mutation the access check let through (runs after every role's call). */
  after?: () => Promise<void>;
  expect: Expect;
};

const ERROR_SECRET = "matrix-error-secret-0123";
/** Rows of another account (the pending user's): nobody else may touch them. */
const fx = { device: 0, notification: 0, sharedTag: 0, foreignTag: 0 };
let loginSerial = 0;
/** Unique e-mail addresses, so the per-account login throttle (5 failures) never turns a 401 into a 429. */
const wrongLogin = () => ({ email: `nobody-${++loginSerial}@matrix.test`, password: "not-the-password" });

const GET_ONLY_405 = (url: string): Sample => ({ method: "POST", url, json: {}, expect: everyone(405) });
const POST_ONLY_405 = (url: string): Sample => ({ method: "GET", url, expect: everyone(405) });

const MATRIX: Record<string, Sample[]> = {
  // --- Screens -------------------------------------------------------------------------------------------------
  // Tools of the spec not built yet are not found for everybody after login (they used to be "Not available yet"
  // placeholders behind their permission); their permissions stay in the catalogue.
  "$tool.tsx": [
    { url: "/nope", note: "unknown: 404 after login", expect: screen("/nope", null, { ok: 404 }) },
    { url: "/error-not-the-secret", expect: screen("/error-not-the-secret", null, { ok: 404 }) },
    { url: `/error-${ERROR_SECRET}`, note: "the error test page (session initialised only)", expect: everyone("throws:TestPageError") },
    { method: "POST", url: "/nope", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "_app.$.tsx": [
    { url: "/foo/bar", expect: screen("/foo/bar", null, { ok: 404 }) },
    {
      url: "/manage-users/42",
      note: "below a screen the role may not open: still only a 404",
      expect: screen("/manage-users/42", null, { ok: 404 }),
    },
  ],
  "_app.flow-explorer.tsx": [
    { url: "/flow-explorer", expect: screen("/flow-explorer", "API_FLOWS_4D") },
    {
      url: "/flow-explorer?view=sankey&dimension2=AS_DST_INGRESS&filter=AS_SRC_INGRESS:AS15169&dateRange=BOGUS",
      note: "every option (a bad one falls back to its default)",
      expect: screen("/flow-explorer?view=sankey&dimension2=AS_DST_INGRESS&filter=AS_SRC_INGRESS:AS15169&dateRange=BOGUS", "API_FLOWS_4D"),
    },
    { method: "POST", url: "/flow-explorer", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "_app.flow-explorer_.rootcause.tsx": [
    {
      url: "/flow-explorer/rootcause",
      note: "the Flow Explorer's root-cause sub-view, the form only; not for delegated accounts (their landing route)",
      expect: { ...screen("/flow-explorer/rootcause", "API_FLOWS_4D"), delegated: landing("delegated") },
    },
  ],
  "_app.as-flows-analysis.tsx": [
    {
      url: "/as-flows-analysis",
      note: "no AS chosen: the form only; not for delegated accounts (their landing route)",
      expect: { ...screen("/as-flows-analysis", "API_FLOWS_4D"), delegated: landing("delegated") },
    },
  ],
  "_app.rna.tsx": [
    { url: "/rna", expect: screen("/rna", "RAW_NETWORK_ANALYZER") },
    {
      url: "/rna?filter=AS_DST:64500&q=proto+tcp&aggregationPrefixV4=33&sort=nope&dateRange=BOGUS",
      note: "every control (a bad one falls back with a notice)",
      expect: screen("/rna?filter=AS_DST:64500&q=proto+tcp&aggregationPrefixV4=33&sort=nope&dateRange=BOGUS", "RAW_NETWORK_ANALYZER"),
    },
    { method: "POST", url: "/rna", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "_app.as-relations.tsx": [
    { url: "/as-relations", expect: screen("/as-relations", "AS_RELATIONS") },
    {
      url: "/as-relations?month=2026-13&asn=x",
      note: "a bad month and AS fall back with a notice",
      expect: screen("/as-relations?month=2026-13&asn=x", "AS_RELATIONS"),
    },
    { method: "POST", url: "/as-relations", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "as-relations.export.ts": [
    { url: "/as-relations/export?format=png", note: "a table only: no image format", expect: api("AS_RELATIONS", 400) },
    GET_ONLY_405("/as-relations/export"),
  ],
  "_app.rawnetworkanalyzer.tsx": [
    {
      url: "/rawnetworkanalyzer?filter=EXPORTER:edge-1",
      note: "alias of /rna, keeps the search params",
      expect: screen("/rawnetworkanalyzer?filter=EXPORTER:edge-1", "RAW_NETWORK_ANALYZER", { ok: "/rna?filter=EXPORTER:edge-1" }),
    },
  ],
  "rna.export.ts": [
    { url: "/rna/export?format=xlsx", note: "the last hour's raw records as a file", expect: api("RAW_NETWORK_ANALYZER") },
    {
      url: "/rna/export?format=csv&filter=EXPORTER:no-such-router",
      note: "a query that selects nothing: the empty-table 400 after the access check",
      expect: api("RAW_NETWORK_ANALYZER", 400),
    },
    { url: "/rna/export?format=png", note: "a table only: no image format", expect: api("RAW_NETWORK_ANALYZER", 400) },
    GET_ONLY_405("/rna/export"),
  ],
  "_app.as-flows.tsx": [
    { url: "/as-flows", note: "alias of /flow-explorer", expect: screen("/as-flows", "API_FLOWS_4D", { ok: "/flow-explorer" }) },
    {
      url: "/as-flows?dimension=AS_DST_INGRESS&filter=AS_SRC_INGRESS:2906",
      note: "keeps the search params",
      expect: screen("/as-flows?dimension=AS_DST_INGRESS&filter=AS_SRC_INGRESS:2906", "API_FLOWS_4D", {
        ok: "/flow-explorer?dimension=AS_DST_INGRESS&filter=AS_SRC_INGRESS:2906",
      }),
    },
  ],
  "_app.border-planner.tsx": [
    { url: "/border-planner", expect: screen("/border-planner", "FRONTEND_LINK_UTIL_EXTERNAL") },
    {
      url: "/border-planner?group=router&sort=billedP95&order=asc&link=r1%7Cet-1&dateRange=NOPE",
      note: "bad values are notices, an unknown link no detail",
      expect: screen("/border-planner?group=router&sort=billedP95&order=asc&link=r1%7Cet-1&dateRange=NOPE", "FRONTEND_LINK_UTIL_EXTERNAL"),
    },
    { method: "POST", url: "/border-planner", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "_app.external-links.tsx": [
    {
      url: "/external-links?group=router",
      note: "alias of /border-planner, keeps the search params",
      expect: screen("/external-links?group=router", "FRONTEND_LINK_UTIL_EXTERNAL", { ok: "/border-planner?group=router" }),
    },
  ],
  "_app.core-planner.tsx": [
    { url: "/core-planner", expect: screen("/core-planner", "API_LINK_UTIL_INTERNAL") },
    {
      url: "/core-planner?dataType=single_interface_pair&inRouter=a",
      note: "an incomplete pair is a notice",
      expect: screen("/core-planner?dataType=single_interface_pair&inRouter=a", "API_LINK_UTIL_INTERNAL"),
    },
  ],
  "_app.links.tsx": [
    {
      url: "/links?dataType=all_links",
      note: "alias of /core-planner, keeps the search params",
      expect: screen("/links?dataType=all_links", "API_LINK_UTIL_INTERNAL", { ok: "/core-planner?dataType=all_links" }),
    },
  ],
  "_app.as-flows-egress.tsx": [{ url: "/as-flows-egress", expect: screen("/as-flows-egress", "FLOWS_EGRESS") }],
  "_app.revenues-and-costs.tsx": [
    { url: "/revenues-and-costs", expect: screen("/revenues-and-costs", "REVENUES_AND_COSTS") },
    {
      url: "/revenues-and-costs?month=2024-13&edit=x",
      note: "a bad month is a notice",
      expect: screen("/revenues-and-costs?month=2024-13&edit=x", "REVENUES_AND_COSTS"),
    },
    {
      method: "POST",
      url: "/revenues-and-costs",
      form: { intent: "bogus" },
      note: "contract changes: MANAGE_CONTRACTS as staff or superuser (403 otherwise), then the unknown intent's 400",
      expect: {
        ...toLogin("/revenues-and-costs"),
        ...perRole((role) =>
          !has(role, "REVENUES_AND_COSTS")
            ? landing(role)
            : has(role, "MANAGE_CONTRACTS") && (PROFILES[role].isStaff || PROFILES[role].isSuperuser) && !PROFILES[role].isDelegated
              ? 400
              : 403,
        ),
      },
    },
  ],
  "_app.controlplane.tsx": [
    { url: "/controlplane", expect: screen("/controlplane", "CONTROL_PLANE") },
    { url: "/controlplane", site: WELCOME, expect: screen("/controlplane", "CONTROL_PLANE", { site: WELCOME }) },
    { method: "POST", url: "/controlplane", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "_app.mappings.applications.tsx": [
    { url: "/mappings/applications", expect: screen("/mappings/applications", "API_FLOWS_4D") },
    {
      url: "/mappings/applications?q=net&page=2&id=Netflix",
      expect: screen("/mappings/applications?q=net&page=2&id=Netflix", "API_FLOWS_4D"),
    },
    {
      method: "POST",
      url: "/mappings/applications",
      form: { intent: "import", csv: "id,layer,name\nMatrix app,20,Matrix" },
      note: "an import into the site layer: moderators, staff and superusers (removed afterwards); others a 400 naming the line",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "Matrix app"));
      },
      expect: {
        ...screen("/mappings/applications", "API_FLOWS_4D"),
        ...perRole((role) => (siteRole(role) ? "/mappings/applications?rows=1&saved=imported" : 400)),
      },
    },
    {
      method: "POST",
      url: "/mappings/applications",
      form: { intent: "bogus", id: "Netflix" },
      expect: screen("/mappings/applications", "API_FLOWS_4D", { ok: 400 }),
    },
    {
      method: "POST",
      url: "/mappings/applications",
      form: { intent: "bogus" },
      csrf: false,
      expect: csrfAfterGuard("/mappings/applications"),
    },
  ],
  "_app.mappings.infrastructures.tsx": [
    { url: "/mappings/infrastructures", expect: screen("/mappings/infrastructures", "API_FLOWS_4D") },
    {
      method: "POST",
      url: "/mappings/infrastructures",
      form: { intent: "save-layer", id: "Matrix CDN", layer: "30", color: "#123456" },
      note: "the user's own layer: every flows user (removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "Matrix CDN"));
      },
      expect: screen("/mappings/infrastructures", "API_FLOWS_4D", {
        ok: `/mappings/infrastructures?${new URLSearchParams({ id: "Matrix CDN", saved: "layer-saved" })}`,
      }),
    },
    {
      method: "POST",
      url: "/mappings/infrastructures",
      form: { intent: "save-layer", id: "Matrix CDN", layer: "10", color: "#123456" },
      note: "the product layer: staff and superusers (removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "Matrix CDN"));
      },
      expect: {
        ...screen("/mappings/infrastructures", "API_FLOWS_4D"),
        ...perRole((role) =>
          PROFILES[role].isStaff || PROFILES[role].isSuperuser
            ? `/mappings/infrastructures?${new URLSearchParams({ id: "Matrix CDN", saved: "layer-saved" })}`
            : 400,
        ),
      },
    },
    {
      method: "POST",
      url: "/mappings/infrastructures",
      form: { intent: "bogus" },
      csrf: false,
      expect: csrfAfterGuard("/mappings/infrastructures"),
    },
  ],
  "_app.mappings.as.tsx": [
    { url: "/mappings/as", expect: screen("/mappings/as", "API_FLOWS_4D") },
    {
      url: "/mappings/as?id=AS2906&page=abc",
      note: "a bad page falls back with a notice",
      expect: screen("/mappings/as?id=AS2906&page=abc", "API_FLOWS_4D"),
    },
    {
      method: "POST",
      url: "/mappings/as",
      form: { intent: "save-layer", id: "2906", layer: "20", color: "#123456" },
      note: "the site layer: moderators, staff and superusers (shell §6; removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "2906"));
      },
      expect: {
        ...screen("/mappings/as", "API_FLOWS_4D"),
        ...perRole((role) => (siteRole(role) ? "/mappings/as?id=2906&saved=layer-saved" : 400)),
      },
    },
    {
      method: "POST",
      url: "/mappings/as",
      form: { intent: "save-layer", id: "2906", layer: "30", name: "Mine" },
      note: "an AS name in one's own layer: API_CHANGE_AS_INFO (removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "2906"));
      },
      expect: {
        ...screen("/mappings/as", "API_FLOWS_4D"),
        ...perRole((role) => (has(role, "API_CHANGE_AS_INFO") ? "/mappings/as?id=2906&saved=layer-saved" : 400)),
      },
    },
    {
      method: "POST",
      url: "/mappings/as",
      form: { intent: "assign", id: "2906", application: "", infrastructure: "" },
      note: "the AS assignment: moderators, staff and superusers (nothing assigned: nothing changes)",
      expect: {
        ...screen("/mappings/as", "API_FLOWS_4D"),
        ...perRole((role) => (siteRole(role) ? "/mappings/as?id=2906&saved=assigned" : 400)),
      },
    },
    { method: "POST", url: "/mappings/as", form: { intent: "bogus" }, csrf: false, expect: csrfAfterGuard("/mappings/as") },
  ],
  "_app.faq.tsx": [{ url: "/faq", expect: screen("/faq", null) }],
  "_app.help._index.tsx": [{ url: "/help", expect: screen("/help", null) }],
  "_app.help.$tourId.tsx": [
    { url: "/help/how-to-set-up-2fa", note: "a tour for every account", expect: screen("/help/how-to-set-up-2fa", null) },
    {
      url: "/help/demolytics",
      note: "TOUR_DEMOLYTICS and the screens' permissions, else 403",
      expect: {
        ...toLogin("/help/demolytics"),
        ...perRole((role) =>
          ["TOUR_DEMOLYTICS", "API_FLOWS_4D", "FRONTEND_LINK_UTIL_EXTERNAL"].every((p) => has(role, p as Permission)) ? 200 : 403,
        ),
      },
    },
    { url: "/help/no-such-tour", expect: { ...toLogin("/help/no-such-tour"), ...perRole(() => 404) } },
  ],
  "_app.manage-delegated-users.tsx": [
    { url: "/manage-delegated-users", expect: screen("/manage-delegated-users", "MANAGE_DELEGATED_USERS") },
    {
      url: "/manage-delegated-users?id=999999&page=x&delete=abc",
      note: "an unknown account and bad options: the list, with a notice",
      expect: screen("/manage-delegated-users?id=999999&page=x&delete=abc", "MANAGE_DELEGATED_USERS"),
    },
    {
      method: "POST",
      url: "/manage-delegated-users",
      form: { intent: "bogus" },
      expect: {
        ...toLogin("/manage-delegated-users"),
        ...perRole((role) => (has(role, "MANAGE_DELEGATED_USERS") ? 400 : landing(role))),
      },
    },
    {
      method: "POST",
      url: "/manage-delegated-users",
      form: { intent: "deactivate", id: "999999" },
      note: "no such account of theirs: 404",
      expect: {
        ...toLogin("/manage-delegated-users"),
        ...perRole((role) => (has(role, "MANAGE_DELEGATED_USERS") ? 404 : landing(role))),
      },
    },
    {
      method: "POST",
      url: "/manage-delegated-users",
      form: { intent: "bogus" },
      csrf: false,
      expect: {
        ...toLogin("/manage-delegated-users"),
        ...perRole((role) => (has(role, "MANAGE_DELEGATED_USERS") ? CSRF_FAILED : landing(role))),
      },
    },
  ],
  // Alerts (an extension of the spec, docs/alerts.md): VIEW_ALERTS to see, MANAGE_ALERTS to change.
  "_app.alerts.tsx": [
    { url: "/alerts", expect: screen("/alerts", "VIEW_ALERTS") },
    {
      url: "/alerts?rule=999999&edit=abc&delete=999999",
      note: "no such rule: the list with a notice",
      expect: screen("/alerts?rule=999999&edit=abc&delete=999999", "VIEW_ALERTS"),
    },
    {
      method: "POST",
      url: "/alerts",
      form: { intent: "create", name: "", dimension: "AS_SRC_INGRESS", metric: "bps", condition: "above", threshold: "x" },
      note: "invalid values: 400 for MANAGE_ALERTS, 403 for VIEW_ALERTS alone, nothing stored",
      expect: alertsAction((role) => (has(role, "MANAGE_ALERTS") ? 400 : 403)),
    },
    {
      method: "POST",
      url: "/alerts",
      form: { intent: "acknowledge", id: "999999" },
      note: "no such rule: 404",
      expect: alertsAction((role) => (has(role, "MANAGE_ALERTS") ? 404 : 403)),
    },
    {
      method: "POST",
      url: "/alerts",
      form: { intent: "bogus" },
      csrf: false,
      expect: alertsAction(() => CSRF_FAILED),
    },
  ],
  "_app.manage-tags.tsx": [
    { url: "/manage-tags", expect: screen("/manage-tags", "MANAGE_TAGS") },
    {
      url: "/manage-tags?kind=BOGUS&tag=abc&group=999999",
      note: "bad options fall back to the list, with a notice",
      expect: screen("/manage-tags?kind=BOGUS&tag=abc&group=999999", "MANAGE_TAGS"),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "create-tag", kind: "AS_NUMBER", name: "", values: "not-an-as" },
      note: "invalid values: 400 after the access check, nothing stored",
      expect: tagListAction(() => 400),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "create-tag", kind: "AS_NUMBER", name: "Matrix personal", scope: "personal", values: "64501" },
      after: removeMadeTags,
      expect: tagListAction(() => "/manage-tags?kind=AS_NUMBER&saved=tag-created"),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "create-tag", kind: "AS_NUMBER", name: "Matrix new shared", scope: "shared", values: "64502" },
      note: "a shared tag: staff, superusers and moderators; other tag managers get the scope refused",
      after: removeMadeTags,
      expect: tagListAction((role) => (editsShared(role) ? "/manage-tags?kind=AS_NUMBER&saved=tag-created" : 400)),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: () => ({ intent: "update-tag", id: String(fx.sharedTag), name: "Matrix shared", scope: "shared", values: "" }),
      note: "a shared tag's edit: refused values for those who may, 403 for the others",
      expect: tagListAction((role) => (editsShared(role) ? 400 : 403)),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: () => ({ intent: "delete-tag", id: String(fx.sharedTag), confirm: "yes" }),
      after: ensureSharedTag,
      expect: tagListAction((role) => (editsShared(role) ? "/manage-tags?kind=AS_NUMBER&saved=tag-deleted" : 403)),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: () => ({ intent: "delete-tag", id: String(fx.foreignTag), confirm: "yes" }),
      note: "another user's personal tag: as if it did not exist",
      expect: tagListAction(() => 404),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "create-group", kind: "AS_NUMBER", name: "Matrix group", scope: "personal" },
      note: "groups need AGGREGATE_TAG_GROUPS; no tags chosen: 400",
      expect: tagListAction((role) => (has(role, "AGGREGATE_TAG_GROUPS") ? 400 : 403)),
    },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "delete-group", id: "999999", confirm: "yes" },
      expect: tagListAction((role) => (has(role, "AGGREGATE_TAG_GROUPS") ? 404 : 403)),
    },
    { method: "POST", url: "/manage-tags", form: { intent: "bogus" }, expect: tagListAction(() => 400) },
    {
      method: "POST",
      url: "/manage-tags",
      form: { intent: "create-tag", kind: "AS_NUMBER", name: "No CSRF", values: "64503" },
      csrf: false,
      expect: tagListAction(() => CSRF_FAILED),
    },
  ],
  "_app.manage-users.tsx": [
    { url: "/manage-users", expect: screen("/manage-users", "VIEW_USERS") },
    {
      url: "/manage-users?view=audit&sort=bogus&user=abc&page=x",
      note: "bad options fall back with a notice; the audit log only for staff and superusers (others see the list)",
      expect: screen("/manage-users?view=audit&sort=bogus&user=abc&page=x", "VIEW_USERS"),
    },
    { url: "/manage-users?view=requests&new=1", expect: screen("/manage-users?view=requests&new=1", "VIEW_USERS") },
    {
      method: "POST",
      url: "/manage-users",
      form: { intent: "create", email: "not-an-address" },
      note: "a bad address: 400 after the access check, nothing stored",
      expect: usersAction(400),
    },
    { method: "POST", url: "/manage-users", form: { intent: "deactivate", id: "99999999" }, expect: usersAction(404) },
    { method: "POST", url: "/manage-users", form: { intent: "delete", id: "99999999" }, expect: usersAction(404) },
    { method: "POST", url: "/manage-users", form: { intent: "accept-request", id: "99999999" }, expect: usersAction(404) },
    {
      method: "POST",
      url: "/manage-users",
      form: { intent: "reset-2fa", id: "99999999" },
      note: "RESET_USER_2FA (superusers hold it)",
      expect: {
        ...toLogin("/manage-users"),
        ...perRole((role) => (has(role, "VIEW_USERS") ? (has(role, "RESET_USER_2FA") ? 404 : 403) : landing(role))),
      },
    },
    {
      method: "POST",
      url: "/manage-users",
      form: { intent: "bogus" },
      expect: { ...toLogin("/manage-users"), ...perRole((role) => (has(role, "VIEW_USERS") ? 400 : landing(role))) },
    },
    {
      method: "POST",
      url: "/manage-users",
      form: { intent: "deactivate", id: "99999999" },
      csrf: false,
      expect: { ...toLogin("/manage-users"), ...perRole((role) => (has(role, "VIEW_USERS") ? CSRF_FAILED : landing(role))) },
    },
  ],
  "_app.lookingglass.tsx": [
    { url: "/lookingglass", expect: screen("/lookingglass", "PRIVATE_LOOKING_GLASS") },
    {
      url: "/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=not-an-ip",
      note: "a bad term is shown on the form, not an error",
      expect: screen(
        "/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=not-an-ip",
        "PRIVATE_LOOKING_GLASS",
      ),
    },
    { method: "POST", url: "/lookingglass", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "public.lookingglass.tsx": [
    { url: "/public/lookingglass", note: "public Looking Glass off: not found for anybody", expect: everyone(404) },
    { url: "/public/lookingglass", site: PUBLIC_LG, note: "on: open to anybody, logged in or not", expect: everyone(200) },
    { url: "/public/lookingglass?selectedVantagePoints=all&queryType=AS_PATH_QUERY&queryTerm=%3F", site: PUBLIC_LG, expect: everyone(200) },
  ],
  "_app.tsx": [{ url: "/settings", note: "the layout's login guard", expect: screen("/settings", null) }],
  "_app.notifications.tsx": [
    { url: "/notifications", expect: screen("/notifications", null) },
    { url: "/notifications?archived=1", expect: screen("/notifications?archived=1", null) },
    {
      method: "POST",
      url: "/notifications",
      form: () => ({ intent: "delete", id: String(fx.notification) }),
      note: "someone else's notification: 404 as if it did not exist, nothing deleted (checked at the end)",
      expect: screen("/notifications", null, { ok: 404 }),
    },
    { method: "POST", url: "/notifications", form: { intent: "read", id: "1" }, csrf: false, expect: csrfAfterGuard("/notifications") },
  ],
  "_app.support.tsx": [
    { url: "/support", expect: screen("/support", null) },
    {
      method: "POST",
      url: "/support",
      form: { type: "HELP", message: "" },
      note: "an empty message: 400 with the form's errors, nothing stored",
      expect: screen("/support", null, { ok: 400 }),
    },
    { method: "POST", url: "/support", form: { type: "HELP", message: "" }, csrf: false, expect: csrfAfterGuard("/support") },
  ],
  "_app.settings.tsx": [
    { url: "/settings", expect: screen("/settings", null) },
    { method: "POST", url: "/settings", form: { intent: "bogus" }, expect: screen("/settings", null, { ok: 400 }) },
    { method: "POST", url: "/settings", form: { intent: "bogus" }, csrf: false, expect: csrfAfterGuard("/settings") },
  ],
  "_app.settings_.group.tsx": [
    { url: "/settings/group", expect: screen("/settings/group", null) },
    {
      method: "POST",
      url: "/settings/group",
      form: { back: "/faq" },
      note: "no group chosen: 400 for who may switch (superusers), 403 for the rest",
      expect: { ...toLogin("/settings/group"), ...perRole((role) => (PROFILES[role].isSuperuser ? 400 : 403)) },
    },
    { method: "POST", url: "/settings/group", form: { back: "/faq" }, csrf: false, expect: csrfAfterGuard("/settings/group") },
  ],
  "_app.settings_.restriction.tsx": [
    {
      url: "/settings/restriction",
      note: "nothing to show: the landing route",
      expect: { ...toLogin("/settings/restriction"), ...perRole(() => "/") },
    },
    {
      method: "POST",
      url: "/settings/restriction",
      form: { back: "/faq?x=1" },
      note: "the next flows restriction (a no-op with fewer than two), back to the path",
      expect: { ...toLogin("/settings/restriction"), ...perRole(() => "/faq") },
    },
    {
      method: "POST",
      url: "/settings/restriction",
      form: { back: "/faq" },
      csrf: false,
      expect: csrfAfterGuard("/settings/restriction"),
    },
  ],
  "_app.settings_.security.tsx": [
    { url: "/settings/security", expect: screen("/settings/security", null) },
    { method: "POST", url: "/settings/security", form: { intent: "bogus" }, expect: screen("/settings/security", null, { ok: 400 }) },
    {
      method: "POST",
      url: "/settings/security",
      form: { intent: "bogus" },
      csrf: false,
      note: "CSRF checked before the guard",
      expect: everyone(CSRF_FAILED),
    },
  ],
  "_app.site-settings.tsx": [
    { url: "/site-settings", expect: { ...toLogin("/site-settings"), ...perRole((role) => (siteRole(role) ? 200 : 403)) } },
    {
      method: "POST",
      url: "/site-settings",
      form: { intent: "bogus" },
      expect: { ...toLogin("/site-settings"), ...perRole((role) => (siteRole(role) ? 400 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings",
      form: { intent: "site", mandatory_2fa: "maybe" },
      note: "site settings are for admins only; invalid values, so nothing is saved",
      expect: { ...toLogin("/site-settings"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings",
      form: { intent: "bogus" },
      csrf: false,
      expect: { ...toLogin("/site-settings"), ...perRole((role) => (siteRole(role) ? CSRF_FAILED : 403)) },
    },
  ],
  "_app.site-settings_.data-sources.tsx": [
    {
      url: "/site-settings/data-sources",
      expect: { ...toLogin("/site-settings/data-sources"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/data-sources",
      form: { intent: "confirm-capacity", router: "", interface: "", deviceBps: "0" },
      note: "applying a device's capacity: 400 for admins after the access check (nothing named), nothing changed",
      expect: { ...toLogin("/site-settings/data-sources"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
  ],
  "_app.site-settings_.error-reports.tsx": [
    {
      url: "/site-settings/error-reports",
      expect: { ...toLogin("/site-settings/error-reports"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/error-reports",
      form: { intent: "handled", message: "" },
      note: "marking a group as handled: 400 for admins after the access check (no message named), nothing changed",
      expect: { ...toLogin("/site-settings/error-reports"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
  ],
  "_app.settings_.request-history.tsx": [
    {
      url: "/settings/request-history",
      expect: { ...toLogin("/settings/request-history"), ...perRole((role) => (has(role, "DEVELOPER_API_TOKEN") ? 200 : 403)) },
    },
  ],
  "_app.site-settings_.usage.tsx": [
    {
      url: "/site-settings/usage",
      expect: { ...toLogin("/site-settings/usage"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
  ],
  "_app.site-settings_.support-messages.tsx": [
    {
      url: "/site-settings/support-messages",
      expect: { ...toLogin("/site-settings/support-messages"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/support-messages",
      form: { intent: "done", id: "x" },
      note: "marking a message as done: 400 for admins after the access check (no message named), nothing changed",
      expect: { ...toLogin("/site-settings/support-messages"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
  ],
  "_app.site-settings_.inventory.tsx": [
    {
      url: "/site-settings/inventory",
      expect: { ...toLogin("/site-settings/inventory"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/inventory",
      form: { intent: "create-router", name: "" },
      note: "invalid values: 400 for admins after the access check, nothing stored",
      expect: { ...toLogin("/site-settings/inventory"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/inventory",
      form: { intent: "bogus" },
      csrf: false,
      expect: { ...toLogin("/site-settings/inventory"), ...perRole((role) => (siteRole(role) === "admin" ? CSRF_FAILED : 403)) },
    },
  ],
  "_app.site-settings_.routing-data.tsx": [
    {
      url: "/site-settings/routing-data",
      expect: { ...toLogin("/site-settings/routing-data"), ...perRole((role) => (siteRole(role) === "admin" ? 200 : 403)) },
    },
    {
      method: "POST",
      url: "/site-settings/routing-data",
      form: { vantagePoint: "fra1" },
      note: "neither a multipart upload nor a community label's intent: 400 for admins after the access check, nothing changed",
      expect: { ...toLogin("/site-settings/routing-data"), ...perRole((role) => (siteRole(role) === "admin" ? 400 : 403)) },
    },
  ],
  "_app.welcome.tsx": [
    {
      url: "/welcome",
      note: "welcome page off (as in the demo)",
      expect: { ...toLogin("/welcome"), ...perRole((role) => firstTool(role)) },
    },
    {
      url: "/welcome",
      site: WELCOME,
      expect: { ...toLogin("/welcome"), ...perRole((role) => (PROFILES[role].isDelegated ? 200 : firstTool(role))) },
    },
  ],
  "_index.tsx": [
    { url: "/", expect: { anonymous: "/login", expired: "/login", pending: "/login", ...perRole((role) => landing(role)) } },
    {
      url: "/",
      site: WELCOME,
      expect: { anonymous: "/login", expired: "/login", pending: "/login", ...perRole((role) => landing(role, WELCOME)) },
    },
  ],
  "consent.tsx": [
    {
      url: "/consent",
      note: "everyone here has consented",
      expect: { anonymous: "/login?next=%2Fconsent", expired: "/login?next=%2Fconsent", pending: "/login", ...perRole(() => "/") },
    },
    {
      url: "/consent?next=%2Fsettings",
      expect: {
        anonymous: `/login?next=${enc("/consent?next=%2Fsettings")}`,
        expired: `/login?next=${enc("/consent?next=%2Fsettings")}`,
        pending: "/login",
        ...perRole(() => "/settings"),
      },
    },
    {
      method: "POST",
      url: "/consent",
      form: { intent: "bogus" },
      expect: { anonymous: "/login?next=%2Fconsent", expired: "/login?next=%2Fconsent", pending: "/login", ...perRole(() => 400) },
    },
    {
      method: "POST",
      url: "/consent",
      form: { intent: "withdraw" },
      note: "withdraw (from the settings page): consent cleared, session ended; restored afterwards",
      after: restoreConsent,
      expect: { anonymous: "/login?next=%2Fconsent", expired: "/login?next=%2Fconsent", pending: "/login", ...perRole(() => "/login") },
    },
    { method: "POST", url: "/consent", form: { intent: "accept" }, csrf: false, expect: everyone(CSRF_FAILED) },
  ],
  "login.tsx": [
    { url: "/login", expect: { anonymous: 200, expired: 200, pending: "/login/2fa", ...perRole((role) => landing(role)) } },
    {
      url: "/login",
      site: WELCOME,
      expect: { anonymous: 200, expired: 200, pending: "/login/2fa", ...perRole((role) => landing(role, WELCOME)) },
    },
    {
      url: "/login?next=%2Fsettings",
      expect: { anonymous: 200, expired: 200, pending: "/login/2fa?next=%2Fsettings", ...perRole(() => "/settings") },
    },
    {
      url: "/login?next=%2F%2Fevil.example%2Fx",
      note: "no open redirect",
      expect: { anonymous: 200, expired: 200, pending: "/login/2fa?next=%2F%2Fevil.example%2Fx", ...perRole((role) => landing(role)) },
    },
    { method: "POST", url: "/login", form: wrongLogin, expect: everyone(401) },
    { method: "POST", url: "/login", form: wrongLogin, csrf: false, expect: everyone(CSRF_FAILED) },
  ],
  "login_.2fa.tsx": [
    {
      url: "/login/2fa?next=%2Fsettings",
      expect: {
        anonymous: "/login?next=%2Fsettings",
        expired: "/login?next=%2Fsettings&reason=2fa",
        pending: 200,
        ...perRole(() => "/login?next=%2Fsettings"),
      },
    },
    {
      method: "POST",
      url: "/login/2fa",
      form: { code: "wrong-code", next: "/settings" },
      expect: {
        anonymous: "/login?next=%2Fsettings",
        expired: "/login?next=%2Fsettings&reason=2fa",
        pending: 400,
        ...perRole(() => "/login?next=%2Fsettings"),
      },
    },
    { method: "POST", url: "/login/2fa", form: { code: "wrong-code" }, csrf: false, expect: everyone(CSRF_FAILED) },
  ],
  "logout.tsx": [
    { url: "/logout", headers: { "Sec-Fetch-Site": "same-origin" }, expect: everyone("/login") },
    {
      url: "/logout?reason=no-permissions",
      headers: { "Sec-Fetch-Site": "same-origin" },
      expect: everyone("/login?reason=no-permissions"),
    },
    {
      url: "/logout",
      headers: { "Sec-Fetch-Site": "cross-site" },
      note: "a confirmation for signed-in sessions",
      expect: { ...everyone(200), anonymous: "/login", expired: "/login" },
    },
    { method: "POST", url: "/logout", form: {}, expect: everyone("/login") },
    { method: "POST", url: "/logout", form: {}, csrf: false, note: "no CSRF field: the confirmation instead", expect: everyone("/logout") },
  ],
  "password-reset.tsx": [
    { url: "/password-reset", expect: everyone(200) },
    { method: "POST", url: "/password-reset", form: { email: "not-an-email" }, expect: everyone(400) },
    { method: "POST", url: "/password-reset", form: { email: "not-an-email" }, csrf: false, expect: everyone(CSRF_FAILED) },
  ],
  "password-reset-confirm.tsx": [
    { url: "/password-reset-confirm?token=bogus", expect: everyone(200) },
    {
      method: "POST",
      url: "/password-reset-confirm",
      form: { token: "bogus", new_password: "a-long-new-password-1", new_password_repeat: "a-long-new-password-1" },
      expect: everyone(400),
    },
    { method: "POST", url: "/password-reset-confirm", form: { token: "bogus" }, csrf: false, expect: everyone(CSRF_FAILED) },
  ],
  "imprint.tsx": [
    { url: "/imprint", note: "public: linked from every page's footer", expect: everyone(200) },
    { method: "POST", url: "/imprint", json: {}, expect: everyone(405) },
  ],
  "privacy-policy.tsx": [
    { url: "/privacy-policy", note: "public: linked from every page's footer", expect: everyone(200) },
    { method: "POST", url: "/privacy-policy", json: {}, expect: everyone(405) },
  ],
  "signup.tsx": [
    {
      url: "/signup",
      note: "self-signup off",
      expect: { anonymous: "/login", expired: "/login", pending: "/login", ...perRole(() => "/") },
    },
    { url: "/signup", site: SIGNUP, expect: { anonymous: 200, expired: 200, pending: 200, ...perRole(() => "/") } },
    {
      method: "POST",
      url: "/signup",
      site: SIGNUP,
      form: { email: "not-an-email", first_name: "", last_name: "" },
      expect: { anonymous: 400, expired: 400, pending: 400, ...perRole(() => "/") },
    },
    { method: "POST", url: "/signup", site: SIGNUP, form: { email: "x" }, csrf: false, expect: everyone(CSRF_FAILED) },
  ],

  // --- Resource routes -----------------------------------------------------------------------------------------
  "api.error.$secret.ts": [
    { url: "/api/error/not-the-secret", expect: everyone(404) },
    { url: `/api/error/${ERROR_SECRET}`, note: "raises on purpose, for everyone (access session)", expect: everyone(500) },
    GET_ONLY_405("/api/error/not-the-secret"),
  ],
  "api.error_report.ts": [
    {
      method: "POST",
      url: "/api/error_report",
      json: { message: "permission matrix probe" },
      note: "access session",
      expect: everyone(200),
    },
    { method: "POST", url: "/api/error_report", json: { message: "probe" }, csrf: false, expect: everyone(CSRF_FAILED) },
    POST_ONLY_405("/api/error_report"),
  ],
  "api.controlplane.ts": [
    {
      method: "POST",
      url: "/api/controlplane",
      json: { queryType: "IpPrefixQuery", queryTerm: "not-an-ip", startDate: 0, endDate: 1 },
      note: "bad term: 400 after the access check",
      expect: api("CONTROL_PLANE", 400),
    },
    { method: "POST", url: "/api/controlplane", json: {}, csrf: false, expect: api("CONTROL_PLANE", CSRF_FAILED) },
    POST_ONLY_405("/api/controlplane"),
  ],
  "api.asrelations.ts": [
    { url: "/api/asrelations", expect: api("AS_RELATIONS") },
    { url: "/api/asrelations?month=2026-13", note: "bad month: 400 after the access check", expect: api("AS_RELATIONS", 400) },
    GET_ONLY_405("/api/asrelations"),
  ],
  "api.peering_db.ts": [
    { url: "/api/peering_db?asn=64500", note: "nothing imported in the matrix's stores: the spec's 404", expect: api("AS_RELATIONS", 404) },
    { url: "/api/peering_db?asn=x", note: "bad AS number: 400 after the access check", expect: api("AS_RELATIONS", 400) },
    GET_ONLY_405("/api/peering_db"),
  ],
  "api.routingstreams.ts": [
    { url: "/api/routingstreams?asn=64500", expect: api("AS_RELATIONS") },
    { url: "/api/routingstreams?asn=x", note: "bad AS number: 400 after the access check", expect: api("AS_RELATIONS", 400) },
    GET_ONLY_405("/api/routingstreams"),
  ],
  "api.controlplane.dateswithdata.ts": [
    { url: "/api/controlplane/dateswithdata", expect: api("CONTROL_PLANE") },
    GET_ONLY_405("/api/controlplane/dateswithdata"),
  ],
  "api.rna.ts": [
    {
      method: "POST",
      url: "/api/rna",
      json: { enabledColumns: [] },
      note: "no columns, no range: 400 after the access check",
      expect: api("RAW_NETWORK_ANALYZER", 400),
    },
    { method: "POST", url: "/api/rna", json: {}, csrf: false, expect: api("RAW_NETWORK_ANALYZER", CSRF_FAILED) },
    POST_ONLY_405("/api/rna"),
  ],
  "api.rna.timeseries.ts": [
    {
      method: "POST",
      url: "/api/rna/timeseries",
      json: { groupedColumn: "src_addr" },
      note: "no range, no keys: 400 after the access check",
      expect: api("RAW_NETWORK_ANALYZER", 400),
    },
    { method: "POST", url: "/api/rna/timeseries", json: {}, csrf: false, expect: api("RAW_NETWORK_ANALYZER", CSRF_FAILED) },
    POST_ONLY_405("/api/rna/timeseries"),
  ],
  "api.revenue_cost.ts": [
    {
      method: "POST",
      url: "/api/revenue_cost",
      json: { month: 13, year: 2026 },
      note: "month 13: 400 after the access check (delegated accounts never hold REVENUES_AND_COSTS)",
      expect: api("REVENUES_AND_COSTS", 400),
    },
    { method: "POST", url: "/api/revenue_cost", json: {}, csrf: false, expect: api("REVENUES_AND_COSTS", CSRF_FAILED) },
    POST_ONLY_405("/api/revenue_cost"),
  ],
  "api.rna.dateswithdata.ts": [
    { url: "/api/rna/dateswithdata", expect: api("RAW_NETWORK_ANALYZER") },
    GET_ONLY_405("/api/rna/dateswithdata"),
  ],
  "api.lookingglass.ts": [
    {
      method: "POST",
      url: "/api/lookingglass",
      json: { queryType: "IpPrefixQuery", queryTerm: "not-an-ip", vantagePoints: ["all"] },
      note: "bad term: 400 after the access check",
      expect: api("PRIVATE_LOOKING_GLASS", 400),
    },
    { method: "POST", url: "/api/lookingglass", json: {}, csrf: false, expect: api("PRIVATE_LOOKING_GLASS", CSRF_FAILED) },
    {
      method: "POST",
      url: "/api/lookingglass",
      site: PUBLIC_LG,
      json: { queryType: "IpPrefixQuery", queryTerm: "not-an-ip", vantagePoints: ["all"] },
      note: "public Looking Glass on: anybody may query (public vantage points)",
      expect: everyone(400),
    },
    {
      method: "POST",
      url: "/api/lookingglass",
      site: PUBLIC_LG,
      json: { queryType: "IpPrefixQuery", queryTerm: "not-an-ip", vantagePoints: ["all"] },
      csrf: false,
      note: "CSRF only where a logged-in session carries authority",
      expect: { anonymous: 400, expired: 400, pending: 400, ...perRole(() => CSRF_FAILED) },
    },
    {
      url: "/api/lookingglass?queryType=IpPrefixQuery&queryTerm=not-an-ip&vantagePoints=all",
      note: "the same query as a link (GET): 400 after the access check",
      expect: api("PRIVATE_LOOKING_GLASS", 400),
    },
    {
      url: "/api/lookingglass?queryType=IpPrefixQuery&queryTerm=not-an-ip&vantagePoints=all",
      site: PUBLIC_LG,
      note: "public Looking Glass on: anybody, no CSRF token for a read",
      expect: everyone(400),
    },
  ],
  "api.lookingglass_.export.ts": [
    {
      url: "/api/lookingglass/export?format=csv",
      note: "no query: the empty-table 400 after the access check",
      expect: api("PRIVATE_LOOKING_GLASS", 400),
    },
    {
      url: "/api/lookingglass/export?format=csv&variant=public",
      site: PUBLIC_LG,
      note: "public Looking Glass on: anybody",
      expect: everyone(400),
    },
    GET_ONLY_405("/api/lookingglass/export"),
  ],
  "api.lookingglass.vantagepoints.ts": [
    { url: "/api/lookingglass/vantagepoints", expect: api("PRIVATE_LOOKING_GLASS") },
    {
      url: "/api/lookingglass/vantagepoints",
      site: PUBLIC_LG,
      note: "public Looking Glass on: the public vantage points for anybody",
      expect: everyone(200),
    },
    GET_ONLY_405("/api/lookingglass/vantagepoints"),
  ],
  "api.netcommand.ts": [
    {
      method: "POST",
      url: "/api/netcommand",
      json: { networkElement: "matrix-vp", protocol: null, queryType: "PingQuery", sourceAddress: null, targetAddress: "not-an-ip" },
      note: "the flag canInvokeNetcommandApi, which no demo role holds (nothing is stored: bad target)",
      expect: api("login", "403:permission_denied"),
    },
    {
      method: "POST",
      url: "/api/netcommand",
      site: PUBLIC_LG,
      json: { networkElement: "matrix-vp", protocol: null, queryType: "PingQuery", sourceAddress: null, targetAddress: "not-an-ip" },
      note: "public Looking Glass on, but the flag is not on for everybody: still refused",
      expect: api("login", "403:permission_denied"),
    },
    POST_ONLY_405("/api/netcommand"),
  ],
  "api.netcommand.$jobId.ts": [
    {
      url: "/api/netcommand/0b5c3f1e-8a4e-4c1e-9a55-2b1d6c1f0a11",
      note: "the flag canInvokeNetcommandApi, which no demo role holds",
      expect: api("login", "403:permission_denied"),
    },
    GET_ONLY_405("/api/netcommand/0b5c3f1e-8a4e-4c1e-9a55-2b1d6c1f0a11"),
  ],
  "api.flows.ts": [
    {
      method: "POST",
      url: "/api/flows",
      json: { dimension: "AS_SRC_INGRESS" },
      note: "no time range: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/flows", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/flows"),
  ],
  "revenues-and-costs.export.ts": [
    {
      url: "/revenues-and-costs/export?format=xlsx",
      note: "these stores have no link data, so no month to bill: the 400 after the access check",
      expect: api("REVENUES_AND_COSTS", 400),
    },
    { url: "/revenues-and-costs/export?format=pdf", note: "an unsupported format", expect: api("REVENUES_AND_COSTS", 400) },
    GET_ONLY_405("/revenues-and-costs/export"),
  ],
  "border-planner.export.ts": [
    {
      url: "/border-planner/export?format=xlsx",
      note: "these stores have no inventory, so nothing to export: the empty-table 400 after the access check",
      expect: api("FRONTEND_LINK_UTIL_EXTERNAL", 400),
    },
    { url: "/border-planner/export?format=pdf", note: "an unsupported format", expect: api("FRONTEND_LINK_UTIL_EXTERNAL", 400) },
    GET_ONLY_405("/border-planner/export"),
  ],
  "core-planner.export.ts": [
    { url: "/core-planner/export", note: "no inventory: the empty-table 400", expect: api("API_LINK_UTIL_INTERNAL", 400) },
    GET_ONLY_405("/core-planner/export"),
  ],
  "api.flows.export.ts": [
    {
      url: "/api/flows/export?dimension=AS_SRC_INGRESS",
      note: "these stores have no operator AS, so nothing to export: the empty-table 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    {
      url: "/api/flows/export?dimension=AS_SRC_INGRESS&scope=EGRESS",
      note: "the AS Flows Egress export needs FLOWS_EGRESS too",
      expect: {
        ...api("API_FLOWS_4D", 400),
        ...perRole((role) =>
          has(role, "API_FLOWS_4D") ? (has(role, "FLOWS_EGRESS") ? 400 : "403:permission_denied") : "403:permission_denied",
        ),
      },
    },
    {
      url: "/api/flows/export?dimension=AS_SRC_INGRESS&view=sankey&dimension2=AS_DST_INGRESS&format=svg",
      note: "an image of the Sankey view needs SANKEY_TOPOLOGY too (the screen falls back to the timeseries)",
      expect: api(SANKEY_TOPOLOGY, 400),
    },
    {
      url: "/api/flows/export?dimension=AS_SRC_INGRESS&view=sankey&dimension2=AS_DST_INGRESS&format=csv",
      note: "a table export holds the same table whatever the view: no extra permission",
      expect: api("API_FLOWS_4D", 400),
    },
    GET_ONLY_405("/api/flows/export"),
  ],
  "api.flows.timestamps.ts": [{ url: "/api/flows/timestamps", expect: api("API_FLOWS_4D") }, GET_ONLY_405("/api/flows/timestamps")],
  "api.autocomplete.ts": [
    {
      method: "POST",
      url: "/api/autocomplete",
      json: { dimension: "IANA_PROTOCOL", searchTerm: "tcp" },
      note: "IANA_PROTOCOL needs no extra permission; the delegated user may only use the restricted dimension and its output",
      expect: { ...api("API_FLOWS_4D"), delegated: "403:permission_denied" },
    },
    {
      method: "POST",
      url: "/api/autocomplete",
      json: { dimension: "AS_SRC_INGRESS" },
      note: "no searchTerm: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/autocomplete", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/autocomplete"),
  ],
  "api.filter.metadata.ts": [
    { method: "POST", url: "/api/filter/metadata", json: { filters: [] }, expect: api("API_FLOWS_4D") },
    {
      method: "POST",
      url: "/api/filter/metadata",
      json: { filters: "x" },
      note: "filters not a list: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/filter/metadata", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/filter/metadata"),
  ],
  // Alerts (an extension of the spec, docs/alerts.md): VIEW_ALERTS to read, MANAGE_ALERTS as well to change.
  "api.alerts.rules.ts": [
    { url: "/api/alerts/rules", expect: api("VIEW_ALERTS") },
    {
      method: "POST",
      url: "/api/alerts/rules",
      json: {},
      note: "an empty rule: 400 after the access check",
      expect: api(["MANAGE_ALERTS", "VIEW_ALERTS"], 400),
    },
    { method: "POST", url: "/api/alerts/rules", json: {}, csrf: false, expect: api(["MANAGE_ALERTS", "VIEW_ALERTS"], CSRF_FAILED) },
  ],
  "api.alerts.rules.$id.ts": [
    { url: "/api/alerts/rules/999999", note: "no such rule: 404 after the access check", expect: api("VIEW_ALERTS", 404) },
    {
      method: "PUT",
      url: "/api/alerts/rules/999999",
      json: {},
      note: "an empty rule: 400 after the access check",
      expect: api(["MANAGE_ALERTS", "VIEW_ALERTS"], 400),
    },
    {
      method: "DELETE",
      url: "/api/alerts/rules/999999",
      note: "no such rule: 404 after the access check",
      expect: api(["MANAGE_ALERTS", "VIEW_ALERTS"], 404),
    },
  ],
  "api.alerts.events.ts": [
    { url: "/api/alerts/events", expect: api("VIEW_ALERTS") },
    { url: "/api/alerts/events?limit=0", note: "limit 0: 400 after the access check", expect: api("VIEW_ALERTS", 400) },
    GET_ONLY_405("/api/alerts/events"),
  ],
  "api.asflows.indirect.ts": [
    {
      method: "POST",
      url: "/api/asflows/indirect",
      json: { ASNumberList: [] },
      note: "empty list: 400 after the access check",
      expect: api(INDIRECT_KPI, 400),
    },
    { method: "POST", url: "/api/asflows/indirect", json: {}, csrf: false, expect: api(INDIRECT_KPI, CSRF_FAILED) },
    POST_ONLY_405("/api/asflows/indirect"),
  ],
  "api.rootcause.ts": [
    {
      method: "POST",
      url: "/api/rootcause",
      json: {},
      note: "empty body: 400 after the access check; delegated accounts 403 in the handler before reading",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/rootcause", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/rootcause"),
  ],
  "api.rootcause.anomalies.ts": [
    {
      url: "/api/rootcause/anomalies?dateRange=LAST_30_DAYS",
      note: "a range over 7 days: 400 after the access check; delegated accounts 403 in the handler before queueing",
      expect: api("API_FLOWS_4D", 400),
    },
    GET_ONLY_405("/api/rootcause/anomalies"),
  ],
  "api.netflowstatistics.ts": [
    {
      method: "POST",
      url: "/api/netflowstatistics",
      json: { targetDimension: "AS_SRC_INGRESS" },
      note: "no time range: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/netflowstatistics", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/netflowstatistics"),
  ],
  "api.linkleveltopology.ts": [
    { url: "/api/linkleveltopology?origin=AS2906", note: "no time range: 400 after the access check", expect: api(SANKEY_TOPOLOGY, 400) },
    GET_ONLY_405("/api/linkleveltopology"),
  ],
  "api.linklevelstatistics.ts": [
    { url: "/api/linklevelstatistics?origin=AS2906", note: "no time range: 400 after the access check", expect: api(SANKEY_TOPOLOGY, 400) },
    GET_ONLY_405("/api/linklevelstatistics"),
  ],
  "api.untracked_data.ts": [
    {
      method: "POST",
      url: "/api/untracked_data",
      json: { dimension: "AS_SRC_INGRESS" },
      note: "no time range: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/untracked_data", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/untracked_data"),
  ],
  "api.linkutil.external.ts": [
    {
      method: "POST",
      url: "/api/linkutil/external",
      json: { startTime: 600, endTime: 300 },
      note: "end before start: 400 after the access check",
      expect: api("API_LINK_UTIL_EXTERNAL", 400),
    },
    { method: "POST", url: "/api/linkutil/external", json: {}, csrf: false, expect: api("API_LINK_UTIL_EXTERNAL", CSRF_FAILED) },
    POST_ONLY_405("/api/linkutil/external"),
  ],
  "api.linkutil.external.summary.ts": [
    {
      method: "POST",
      url: "/api/linkutil/external/summary",
      json: { startDate: "2026-02-30", endDate: "2026-03-01" },
      note: "no such day: 400 after the access check",
      expect: api("API_LINK_UTIL_EXTERNAL", 400),
    },
    { method: "POST", url: "/api/linkutil/external/summary", json: {}, csrf: false, expect: api("API_LINK_UTIL_EXTERNAL", CSRF_FAILED) },
    POST_ONLY_405("/api/linkutil/external/summary"),
  ],
  "api.linkutil.external.timeseries.ts": [
    {
      method: "POST",
      url: "/api/linkutil/external/timeseries",
      json: JSON.stringify({ startDate: "2026-03-02", endDate: "2026-03-01" }),
      note: "the body as a JSON string, end before start: 400 after the access check",
      expect: api("API_LINK_UTIL_EXTERNAL", 400),
    },
    { method: "POST", url: "/api/linkutil/external/timeseries", json: {}, csrf: false, expect: api("API_LINK_UTIL_EXTERNAL", CSRF_FAILED) },
    POST_ONLY_405("/api/linkutil/external/timeseries"),
  ],
  "api.linkutil.internal.ts": [
    {
      url: "/api/linkutil/internal?dataType=single_interface_pair&startDate=2026-03-01&endDate=2026-03-02",
      note: "a pair without its interfaces: 400 after the access check",
      expect: api("API_LINK_UTIL_INTERNAL", 400),
    },
    GET_ONLY_405("/api/linkutil/internal"),
  ],
  "api.linkutil.interfaces.ts": [
    {
      url: "/api/linkutil/interfaces?startDate=2026-03-01&endDate=2026-03-02",
      note: "no inRouter: 400 after the access check",
      expect: api("API_LINK_UTIL_INTERNAL", 400),
    },
    GET_ONLY_405("/api/linkutil/interfaces"),
  ],
  "api.linkutil.interfacestatistics.ts": [
    {
      url: "/api/linkutil/interfacestatistics?router=pa-r1&dimension=source&isDirectedIn=true&startDate=2026-03-01&endDate=2026-03-02",
      note: "neither AS numbers nor an interface: 400 after the access check",
      expect: api("API_LINK_UTIL_EXTERNAL", 400),
    },
    GET_ONLY_405("/api/linkutil/interfacestatistics"),
  ],
  "api.linkutil.$x.dateswithdata.ts": [
    { url: "/api/linkutil/external/dateswithdata", expect: api("API_LINK_UTIL_EXTERNAL") },
    { url: "/api/linkutil/internal/dateswithdata", expect: api("API_LINK_UTIL_INTERNAL") },
    { url: "/api/linkutil/sideways/dateswithdata", note: "neither external nor internal: 400 for any login", expect: api("login", 400) },
    GET_ONLY_405("/api/linkutil/external/dateswithdata"),
  ],
  "api.openapi[.]json.ts": [
    { url: "/api/openapi.json", note: "public description of the API", expect: everyone(200) },
    GET_ONLY_405("/api/openapi.json"),
  ],
  "api.max_timestamp.ts": [{ url: "/api/max_timestamp", expect: api("login") }, GET_ONLY_405("/api/max_timestamp")],
  "api.sankey.ts": [
    {
      method: "POST",
      url: "/api/sankey",
      json: { dimensions: ["AS_SRC_INGRESS"] },
      note: "one dimension: 400 after the access check",
      expect: api(SANKEY_TOPOLOGY, 400),
    },
    { method: "POST", url: "/api/sankey", json: {}, csrf: false, expect: api(SANKEY_TOPOLOGY, CSRF_FAILED) },
    POST_ONLY_405("/api/sankey"),
  ],
  "api.tags.ts": [
    { url: "/api/tags?dimension=AS_SRC_INGRESS", expect: api("API_FLOWS_4D") },
    { url: "/api/tags?dimension=BOGUS", note: "unknown dimension: 400 after the access check", expect: api("API_FLOWS_4D", 400) },
    GET_ONLY_405("/api/tags"),
  ],
  "api.tag_groups.ts": [
    { url: "/api/tag_groups?dimension=AS_DST_INGRESS", expect: api("API_FLOWS_4D") },
    { url: "/api/tag_groups", note: "no dimension: 400 after the access check", expect: api("API_FLOWS_4D", 400) },
    GET_ONLY_405("/api/tag_groups"),
  ],
  "api.tag.values.ts": [
    {
      method: "POST",
      url: "/api/tag/values",
      json: { dimension: "AS_SRC_INGRESS", id: 999_999 },
      note: "unknown tag: 404 after the access check",
      expect: api("API_FLOWS_4D", 404),
    },
    {
      method: "POST",
      url: "/api/tag/values",
      json: { dimension: "AS_SRC_INGRESS", id: "x" },
      note: "bad id: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/tag/values", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    POST_ONLY_405("/api/tag/values"),
  ],
  "api.mapping.ts": [
    { url: "/api/mapping?id=2906&type=AS", expect: api("API_FLOWS_4D") },
    {
      method: "PUT",
      url: "/api/mapping?id=2906&type=AS&priority=20",
      json: { color: "#123456" },
      note: "the site layer: moderators, staff and superusers (shell §6; the row is removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "2906"));
      },
      expect: {
        ...api("API_FLOWS_4D"),
        ...perRole((role) => (has(role, "API_FLOWS_4D") && siteRole(role) ? 200 : "403:permission_denied")),
      },
    },
    {
      method: "PUT",
      url: "/api/mapping?id=2906&type=AS&priority=10",
      json: { color: "#123456" },
      note: "the product layer: staff and superusers only (the row is removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "2906"));
      },
      expect: {
        ...api("API_FLOWS_4D"),
        ...perRole((role) => (siteRole(role) === "admin" ? 200 : "403:permission_denied")),
      },
    },
    {
      method: "PUT",
      url: "/api/mapping?id=2906&type=AS&priority=30",
      json: { name: "Mine" },
      note: "an AS name in one's own layer: API_CHANGE_AS_INFO (the row is removed afterwards)",
      after: async () => {
        await stores.pg.db.delete(mappings).where(eq(mappings.objectId, "2906"));
      },
      expect: {
        ...api("API_FLOWS_4D"),
        ...perRole((role) => (has(role, "API_CHANGE_AS_INFO") ? 200 : "403:permission_denied")),
      },
    },
    {
      method: "PUT",
      url: "/api/mapping?id=2906&type=AS&priority=30",
      json: { color: "red" },
      note: "bad colour: 400 after the access check",
      expect: api("API_FLOWS_4D", 400),
    },
    {
      method: "DELETE",
      url: "/api/mapping?id=2906&type=AS&priority=30",
      note: "no such row: 404 after the access check",
      expect: api("API_FLOWS_4D", 404),
    },
    { method: "DELETE", url: "/api/mapping?id=2906&type=AS&priority=30", csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    { method: "POST", url: "/api/mapping", json: {}, expect: everyone(405) },
  ],
  "api.tables_without_data.ts": [{ url: "/api/tables_without_data", expect: api("login") }, GET_ONLY_405("/api/tables_without_data")],
  "api.version.ts": [{ url: "/api/version", expect: api("API_APP_VERSION") }, GET_ONLY_405("/api/version")],
  "api.v2.$.ts": [
    {
      method: "POST",
      url: "/api/v2/flows",
      json: { dimension: "AS_SRC_INGRESS" },
      note: "the api/ twin's rules: no range, 400 after the access check, before anything starts",
      expect: api("API_FLOWS_4D", 400),
    },
    { method: "POST", url: "/api/v2/sankey", json: { dimensions: ["AS_SRC_INGRESS"] }, expect: api(SANKEY_TOPOLOGY, 400) },
    { method: "POST", url: "/api/v2/rna", json: { enabledColumns: [] }, expect: api("RAW_NETWORK_ANALYZER", 400) },
    { method: "POST", url: "/api/v2/flows", json: {}, csrf: false, expect: api("API_FLOWS_4D", CSRF_FAILED) },
    { url: "/api/v2/results/no-such-result", note: "any logged-in caller; an unknown id is a 404", expect: api("login", 404) },
    POST_ONLY_405("/api/v2/flows"),
    { method: "POST", url: "/api/v2/flows/export", json: {}, note: "not a call of the second client", expect: everyone(404) },
  ],
  "auth.2fa.devices.$id.ts": [
    { method: "DELETE", url: () => `/auth/2fa/devices/${fx.device}`, note: "another user's device", expect: api("login", 404) },
    { method: "DELETE", url: () => `/auth/2fa/devices/${fx.device}`, csrf: false, expect: api("login", CSRF_FAILED) },
    { method: "GET", url: () => `/auth/2fa/devices/${fx.device}`, expect: everyone(405) },
  ],
  "auth.2fa.devices.generate_key.ts": [
    { url: "/auth/2fa/devices/generate_key?name=Matrix", expect: api("login") },
    GET_ONLY_405("/auth/2fa/devices/generate_key"),
  ],
  "auth.2fa.devices.generate_recovery_codes.ts": [
    {
      url: "/auth/2fa/devices/generate_recovery_codes",
      headers: { "X-CSRFToken": CSRF_TOKEN },
      note: "past the access check the current password or a code is asked for (none sent: nothing is replaced)",
      expect: api("login", "400:reauthentication_required"),
    },
    {
      url: "/auth/2fa/devices/generate_recovery_codes",
      note: "a GET that replaces codes: the CSRF header is required",
      expect: api("login", CSRF_FAILED),
    },
    GET_ONLY_405("/auth/2fa/devices/generate_recovery_codes"),
  ],
  "auth.2fa.devices.ts": [
    { url: "/auth/2fa/devices", expect: api("login") },
    {
      method: "POST",
      url: "/auth/2fa/devices",
      json: () => ({ id: fx.device, code: "000000" }),
      note: "another user's device",
      expect: api("login", 404),
    },
    { method: "PUT", url: "/auth/2fa/devices", json: {}, expect: everyone(405) },
  ],
  "auth.2fa.ts": [
    {
      method: "POST",
      url: "/auth/2fa",
      json: { code: "wrong-code" },
      note: "only a PENDING_2FA session gets to the code check",
      expect: { ...everyone(NOT_AUTHENTICATED), pending: 400 },
    },
    POST_ONLY_405("/auth/2fa"),
  ],
  "auth.clickhouse_override.ts": [
    {
      method: "POST",
      url: "/auth/clickhouse_override",
      json: { database: "no_such_database_matrix" },
      expect: api("CLICKHOUSE_DIRECT_QUERY", 400),
    },
    POST_ONLY_405("/auth/clickhouse_override"),
  ],
  "auth.clickhouse_raw_flow_override.ts": [
    {
      method: "POST",
      url: "/auth/clickhouse_raw_flow_override",
      json: { database: "no_such_database_matrix" },
      expect: api("CLICKHOUSE_DIRECT_QUERY", 400),
    },
    POST_ONLY_405("/auth/clickhouse_raw_flow_override"),
  ],
  "auth.consent.accept.ts": [
    { method: "POST", url: "/auth/consent/accept", json: {}, expect: api("login") },
    POST_ONLY_405("/auth/consent/accept"),
  ],
  "auth.consent.revoke.ts": [
    { method: "POST", url: "/auth/consent/revoke", json: {}, after: restoreConsent, expect: api("login") },
    { method: "POST", url: "/auth/consent/revoke", json: {}, csrf: false, after: restoreConsent, expect: api("login", CSRF_FAILED) },
    POST_ONLY_405("/auth/consent/revoke"),
  ],
  "auth.delete.ts": [
    {
      method: "POST",
      url: "/auth/delete",
      json: { password: "not-the-password" },
      note: "wrong password: nothing deleted",
      expect: api("login", 400),
    },
    { method: "POST", url: "/auth/delete", json: { password: "not-the-password" }, csrf: false, expect: api("login", CSRF_FAILED) },
    POST_ONLY_405("/auth/delete"),
  ],
  "auth.featureflags.ts": [{ url: "/auth/featureflags", expect: api("login") }, GET_ONLY_405("/auth/featureflags")],
  "auth.groups.ts": [
    { url: "/auth/groups", expect: api("login") },
    {
      method: "POST",
      url: "/auth/groups",
      json: { groups: [] },
      note: "no group chosen: 400 for who may switch (superusers), 403 for the rest",
      expect: { ...api("login"), ...perRole((role) => (PROFILES[role].isSuperuser ? 400 : 403)) },
    },
    { method: "PUT", url: "/auth/groups", json: {}, expect: everyone(405) },
  ],
  "auth.login.ts": [
    { method: "POST", url: "/auth/login", json: wrongLogin, expect: everyone(401) },
    { method: "POST", url: "/auth/login", json: wrongLogin, csrf: false, expect: everyone(CSRF_FAILED) },
    POST_ONLY_405("/auth/login"),
  ],
  "auth.logout.ts": [
    { method: "POST", url: "/auth/logout", json: {}, expect: everyone(200) },
    { method: "POST", url: "/auth/logout", json: {}, csrf: false, expect: everyone(CSRF_FAILED) },
    POST_ONLY_405("/auth/logout"),
  ],
  "auth.notifications.$id.ts": [
    {
      method: "DELETE",
      url: () => `/auth/notifications/${fx.notification}`,
      note: "another user's notification",
      expect: api("login", 404),
    },
    { method: "GET", url: () => `/auth/notifications/${fx.notification}`, expect: everyone(405) },
  ],
  "auth.notifications.ts": [
    { url: "/auth/notifications", expect: api("login") },
    {
      method: "POST",
      url: "/auth/notifications",
      json: () => [{ id: fx.notification, is_read: true, is_archived: true }],
      note: "another user's notification: nothing updated (checked at the end)",
      expect: api("login"),
    },
  ],
  "auth.password.reset.confirm.ts": [
    {
      method: "POST",
      url: "/auth/password/reset/confirm",
      json: { token: "bogus", new_password: "a-long-new-password-1" },
      expect: everyone(400),
    },
    POST_ONLY_405("/auth/password/reset/confirm"),
  ],
  "auth.password.reset.ts": [
    { method: "POST", url: "/auth/password/reset", json: { email: "not-an-email" }, expect: everyone(400) },
    POST_ONLY_405("/auth/password/reset"),
  ],
  "auth.settings.$name.ts": [
    { method: "POST", url: "/auth/settings/timezone", json: { value: "Not/AZone" }, expect: api("login", 400) },
    { method: "POST", url: "/auth/settings/timezone", json: { value: "UTC" }, csrf: false, expect: api("login", CSRF_FAILED) },
    POST_ONLY_405("/auth/settings/timezone"),
  ],
  "auth.signup.ts": [
    {
      method: "POST",
      url: "/auth/signup",
      json: { email: "not-an-email", first_name: "", last_name: "" },
      note: "self-signup off",
      expect: everyone("403:signup_disabled"),
    },
    {
      method: "POST",
      url: "/auth/signup",
      site: SIGNUP,
      json: { email: "not-an-email", first_name: "", last_name: "" },
      expect: everyone(400),
    },
    POST_ONLY_405("/auth/signup"),
  ],
  "auth.support_message.ts": [
    { method: "POST", url: "/auth/support_message", json: { type: "BOGUS", message: "" }, expect: api("login", 400) },
    POST_ONLY_405("/auth/support_message"),
  ],
  "auth.token.$id.ts": [
    { method: "DELETE", url: "/auth/token/999999", expect: api("DEVELOPER_API_TOKEN", 404) },
    { method: "DELETE", url: "/auth/token/999999", csrf: false, expect: api("DEVELOPER_API_TOKEN", CSRF_FAILED) },
    { method: "GET", url: "/auth/token/999999", expect: everyone(405) },
  ],
  "auth.token.ts": [
    { url: "/auth/token", expect: api("DEVELOPER_API_TOKEN") },
    {
      method: "POST",
      url: "/auth/token",
      json: { name: 42 },
      note: "invalid name: no token created",
      expect: api("DEVELOPER_API_TOKEN", 400),
    },
    { method: "POST", url: "/auth/token", json: { name: "x" }, csrf: false, expect: api("DEVELOPER_API_TOKEN", CSRF_FAILED) },
    { method: "PUT", url: "/auth/token", json: {}, expect: everyone(405) },
  ],
  "auth.user.ts": [
    { url: "/auth/user", note: "access session, but only LOGGED_IN gets the user", expect: api("login") },
    GET_ONLY_405("/auth/user"),
  ],
  "auth.usermanagement.user_requests.$id.$decision.ts": [
    {
      method: "PUT",
      url: "/auth/usermanagement/user_requests/999999/accept",
      note: "deciding: staff and superusers",
      expect: usersApiChange(404),
    },
    { method: "PUT", url: "/auth/usermanagement/user_requests/999999/reject", csrf: false, expect: api("VIEW_USERS", CSRF_FAILED) },
    { method: "GET", url: "/auth/usermanagement/user_requests/999999/accept", expect: everyone(405) },
  ],
  "auth.users.ts": [
    { url: "/auth/users", expect: api("VIEW_USERS") },
    { url: "/auth/users?search=matrix&sort=-last_login&page=1&page_size=10", expect: api("VIEW_USERS") },
    { url: "/auth/users?sort=password_hash", expect: api("VIEW_USERS", 400) },
    {
      method: "POST",
      url: "/auth/users",
      json: { email: "not-an-address" },
      note: "a bad address: 400 from the service after the staff check",
      expect: usersApiChange(400),
    },
    { method: "POST", url: "/auth/users", json: { email: "x@matrix.test" }, csrf: false, expect: api("VIEW_USERS", CSRF_FAILED) },
    { method: "DELETE", url: "/auth/users", expect: everyone(405) },
  ],
  "auth.users.$id.ts": [
    { method: "PUT", url: "/auth/users/99999999", json: { first_name: "X" }, expect: usersApiChange(404) },
    { method: "DELETE", url: "/auth/users/99999999", expect: usersApiChange(404) },
    { method: "DELETE", url: "/auth/users/99999999", csrf: false, expect: api("VIEW_USERS", CSRF_FAILED) },
    { method: "GET", url: "/auth/users/99999999", expect: everyone(405) },
  ],
  "auth.delegated_users.ts": [
    { url: "/auth/delegated_users", expect: api("MANAGE_DELEGATED_USERS") },
    { url: "/auth/delegated_users?q=x&page=abc", note: "bad options: the first page", expect: api("MANAGE_DELEGATED_USERS") },
    {
      method: "POST",
      url: "/auth/delegated_users",
      json: { email: "not-an-email" },
      note: "invalid: 400 after the access check, nothing stored",
      expect: api("MANAGE_DELEGATED_USERS", 400),
    },
    { method: "POST", url: "/auth/delegated_users", json: {}, csrf: false, expect: api("login", CSRF_FAILED) },
    { method: "DELETE", url: "/auth/delegated_users", expect: everyone(405) },
  ],
  "auth.delegated_users.$id.ts": [
    { url: "/auth/delegated_users/999999", note: "no such account of theirs", expect: api("MANAGE_DELEGATED_USERS", 404) },
    { method: "PATCH", url: "/auth/delegated_users/999999", json: { first_name: "X" }, expect: api("MANAGE_DELEGATED_USERS", 404) },
    { method: "DELETE", url: "/auth/delegated_users/999999", expect: api("MANAGE_DELEGATED_USERS", 404) },
    { method: "DELETE", url: "/auth/delegated_users/999999", csrf: false, expect: api("login", CSRF_FAILED) },
    { method: "PUT", url: "/auth/delegated_users/999999", json: {}, expect: everyone(405) },
  ],
  "auth.usermanagement.user_requests.ts": [
    { url: "/auth/usermanagement/user_requests", expect: api("VIEW_USERS") },
    { url: "/auth/usermanagement/user_requests?status=PENDING", expect: api("VIEW_USERS") },
    {
      method: "POST",
      url: "/auth/usermanagement/user_requests",
      json: { email: "not-an-email", first_name: "", last_name: "" },
      expect: api("VIEW_USERS", 400),
    },
    { method: "DELETE", url: "/auth/usermanagement/user_requests", expect: everyone(405) },
  ],
  "auth.usernamecheck.ts": [
    {
      method: "POST",
      url: "/auth/usernamecheck",
      json: { username: "someone@matrix.test" },
      note: "self-signup off: account managers only",
      expect: {
        ...everyone("403:signup_disabled"),
        ...perRole((role) => (has(role, "VIEW_USERS") || has(role, "MANAGE_DELEGATED_USERS") ? 200 : "403:signup_disabled")),
      },
    },
    { method: "POST", url: "/auth/usernamecheck", site: SIGNUP, json: { username: "someone@matrix.test" }, expect: everyone(200) },
    POST_ONLY_405("/auth/usernamecheck"),
  ],
  "healthz.ts": [
    { url: "/healthz", expect: everyone(200) },
    { method: "POST", url: "/healthz", json: {}, note: "no action: Remix answers 405", expect: everyone(405) },
  ],
  "siteconfig.ts": [{ url: "/siteconfig", expect: everyone(200) }, GET_ONLY_405("/siteconfig")],
  // The RNA query history: the caller's own entries (RAW_NETWORK_ANALYZER is not delegable: delegated accounts are refused).
  "usertracking.interaction.ts": [
    { method: "POST", url: "/usertracking/interaction", json: { target: "/rna?x=1" }, expect: api("login", 400) },
    POST_ONLY_405("/usertracking/interaction"),
  ],
  "usertracking.tours.ts": [{ url: "/usertracking/tours", expect: api("login") }, GET_ONLY_405("/usertracking/tours")],
  "usertracking.tours.$tourId.ts": [
    {
      method: "POST",
      url: "/usertracking/tours/how-to-set-up-2fa",
      json: { status: "Bogus" },
      note: "bad status: 400 after the access check",
      expect: api("login", 400),
    },
    POST_ONLY_405("/usertracking/tours/how-to-set-up-2fa"),
  ],
  "usertracking.tours.failures.ts": [
    { url: "/usertracking/tours/failures", expect: { ...api("login"), ...perRole((role) => (administersUsers(role) ? 200 : 403)) } },
    GET_ONLY_405("/usertracking/tours/failures"),
  ],
  "usertracking.rna_history.ts": [
    { url: "/usertracking/rna_history?page=1", expect: api("RAW_NETWORK_ANALYZER") },
    { url: "/usertracking/rna_history?page=0", note: "bad page: 400 after the access check", expect: api("RAW_NETWORK_ANALYZER", 400) },
    GET_ONLY_405("/usertracking/rna_history"),
  ],
  // The Prometheus scrape answers to METRICS_TOKEN alone (unset here), never to a session.
  "metrics.ts": [{ url: "/metrics", expect: everyone(404) }, GET_ONLY_405("/metrics")],
};

// ---------------------------------------------------------------------------------------------------------------
// Calling routes

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => unknown;
type RouteModule = { loader?: RouteFn; action?: RouteFn };
const MODULES = import.meta.glob<RouteModule>("/app/routes/*.{ts,tsx}");

// Importing a route module the first time transforms it and everything it imports: for all of
// them together that took 40 s of a test's 60 s limit on a busy two-core machine. Done once here,
// under the hook limit, so that no single test carries the cost (later imports come from the cache).
beforeAll(async () => {
  for (const load of Object.values(MODULES)) await load();
}, 180_000);

/** The route file Remix would pick for a URL: among the files that match, static segments beat params beat splats. */
function ownerOf(url: string, files: string[]): string | null {
  const rank = (file: string) => routePattern(file).map((s) => (s === "$" ? 1 : s.startsWith("$") ? 2 : 3));
  const better = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
    return false;
  };
  let best: string | null = null;
  for (const file of files) {
    if (isPathlessLayout(file) || !paramsFor(file, url)) continue;
    if (best === null || better(rank(file), rank(best))) best = file;
  }
  return best;
}

/** The params Remix would pass for a URL, or null when the URL does not match the file. */
function paramsFor(file: string, url: string): Record<string, string> | null {
  const pattern = routePattern(file);
  const parts = new URL(url, ORIGIN).pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const params: Record<string, string> = {};
  for (const [i, segment] of pattern.entries()) {
    if (i >= parts.length) return null;
    if (segment === "$") {
      params["*"] = parts.slice(i).join("/");
      return params;
    }
    if (segment.startsWith("$")) params[segment.slice(1)] = parts[i];
    else if (segment !== parts[i]) return null;
  }
  return parts.length === pattern.length ? params : null;
}

let stores: TestStores;
const ids = {} as Record<LoggedInRole | "pending", number>;
let expiredCookie = "";

async function cookieFor(role: Role): Promise<string> {
  if (role === "anonymous") return `csrftoken=${CSRF_TOKEN}`;
  if (role === "expired") return expiredCookie;
  if (role === "pending") return sessionCookie(stores, ids.pending, "PENDING_2FA");
  return sessionCookie(stores, ids[role]);
}

async function buildRequest(sample: Sample, role: Role): Promise<Request> {
  const method = sample.method ?? "GET";
  const url = typeof sample.url === "function" ? sample.url() : sample.url;
  const headers = new Headers({ Cookie: await cookieFor(role), Accept: sample.form ? "text/html" : "application/json", ...sample.headers });
  let body: string | undefined;
  if (sample.form) {
    const fields = new URLSearchParams(typeof sample.form === "function" ? sample.form() : sample.form);
    if (sample.csrf !== false) fields.set("csrfmiddlewaretoken", CSRF_TOKEN);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = fields.toString();
  } else if (method !== "GET") {
    if (sample.csrf !== false) headers.set("X-CSRFToken", CSRF_TOKEN);
    if (sample.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(typeof sample.json === "function" ? (sample.json as () => unknown)() : sample.json);
    }
  }
  return new Request(`${ORIGIN}${url}`, { method, headers, body });
}

type Actual = { status: number; location: string | null; code: string | null; thrown: string | null };
type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
const exceptionCode = (data: unknown): string | null =>
  typeof data === "object" && data !== null && typeof (data as { exception_code?: unknown }).exception_code === "string"
    ? (data as { exception_code: string }).exception_code
    : null;

/** Like Remix: GET → loader, other methods → action (405 without one); thrown responses are outcomes too. */
async function call(module: RouteModule, request: Request, params: Record<string, string>): Promise<Actual> {
  const fn = request.method === "GET" ? module.loader : module.action;
  if (!fn) return { status: 405, location: null, code: null, thrown: null };
  let result: unknown;
  try {
    result = await fn({ request, params, context: {} });
  } catch (error) {
    if (!(error instanceof Response) && !isDataWithInit(error)) {
      return { status: 500, location: null, code: null, thrown: error instanceof Error ? error.name : String(error) };
    }
    result = error;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: result.status, location: result.headers.get("Location"), code: exceptionCode(data), thrown: null };
  }
  if (isDataWithInit(result)) {
    const location = new Headers(result.init?.headers).get("Location");
    return { status: result.init?.status ?? 200, location, code: exceptionCode(result.data), thrown: null };
  }
  return { status: 200, location: null, code: null, thrown: null };
}

const isRedirect = (a: Actual) => a.status >= 300 && a.status < 400 && a.location !== null;

function matches(expected: Outcome, actual: Actual): boolean {
  if (typeof expected === "number") return actual.thrown === null && !isRedirect(actual) && actual.status === expected;
  if (expected.startsWith("throws:")) return actual.thrown === expected.slice("throws:".length);
  if (expected.startsWith("/")) return isRedirect(actual) && actual.location === expected;
  const [status, code] = expected.split(":");
  return actual.thrown === null && actual.status === Number(status) && actual.code === code;
}

function show(actual: Actual): string {
  if (actual.thrown) return `throws:${actual.thrown}`;
  if (isRedirect(actual)) return `${actual.status} → ${actual.location}`;
  return actual.code ? `${actual.status}:${actual.code}` : String(actual.status);
}

async function withSite<T>(site: Site | undefined, fn: () => Promise<T>): Promise<T> {
  if (!site) return fn();
  const db = stores.pg.db;
  const [before] = await db
    .select({
      welcome: siteSettings.welcomePageEnabled,
      signup: siteSettings.enableUserSelfSignup,
      publicLg: siteSettings.publicLookingGlassEnabled,
    })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1));
  await db
    .update(siteSettings)
    .set({
      welcomePageEnabled: site.welcome ?? before.welcome,
      enableUserSelfSignup: site.signup ?? before.signup,
      publicLookingGlassEnabled: site.publicLookingGlass ?? before.publicLg,
    })
    .where(eq(siteSettings.id, 1));
  try {
    return await fn();
  } finally {
    await db
      .update(siteSettings)
      .set({ welcomePageEnabled: before.welcome, enableUserSelfSignup: before.signup, publicLookingGlassEnabled: before.publicLg })
      .where(eq(siteSettings.id, 1));
  }
}

async function restoreConsent(): Promise<void> {
  const all = Object.values(ids);
  for (const id of all) await stores.pg.db.update(users).set({ hasConsented: true, consentedAt: new Date() }).where(eq(users.id, id));
}

// ---------------------------------------------------------------------------------------------------------------
// Fixtures: the five demo accounts, a pending-2FA account with a device and a notification, data in every table

async function createAccount(values: typeof users.$inferInsert, permissions: readonly string[]): Promise<number> {
  const db = stores.pg.db;
  const [row] = await db
    .insert(users)
    .values({ hasConsented: true, consentedAt: new Date(), ...values })
    .returning({ id: users.id });
  await db.insert(userSettings).values({ userId: row.id });
  if (permissions.length) await db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  Object.assign(stores.config, { ERROR_PAGE_SECRET: ERROR_SECRET });
  const db = stores.pg.db;

  // Menus hide table-backed tools from non-staff while their table is empty (and the looking glass
  // without vantage points): one row each, so the landing routes are those of a network with data.
  const tables: [string, string][] = [
    ["flows_raw", "time_received"],
    ["flows_5m", "time"],
    ["flows_1h", "time"],
    ["interface_util_5m", "time"],
    ["rib_entries", "timestamp"],
    ["rib_current", "timestamp"],
  ];
  for (const [table, column] of tables)
    await chCommand(stores.ch, { name: "test.fixture", sql: `INSERT INTO ${table} (${column}) VALUES (now())` });
  await db.insert(vantagePoints).values({ key: "matrix-vp", city: "Zurich", country: "Switzerland", router: "matrix-r1", ip: "192.0.2.1" });
  expect([...(await tablesWithoutData(stores))]).toEqual([]);

  const [moderators] = await db.select().from(groups).where(eq(groups.name, MODERATORS_GROUP));
  for (const role of ["operator", "superuser", "staff", "moderator", "delegated"] as const) {
    const u = DEMO_OF[role];
    ids[role] = await createAccount(
      {
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        passwordHash: await hashPassword(u.password),
        isSuperuser: u.isSuperuser ?? false,
        isStaff: u.isStaff ?? false,
        isDelegated: u.isDelegated ?? false,
        delegatedById: u.isDelegated ? ids.operator : null,
      },
      u.permissions,
    );
    if (u.moderator) await db.insert(userGroups).values({ userId: ids[role], groupId: moderators.id });
    if (u.restrictions) {
      await db.insert(delegationRestrictions).values({
        userId: ids[role],
        flowsViewsRestrictions: u.restrictions.flows,
        externalLinksViewsRestrictions: { ASNumberList: u.restrictions.externalAsns, routerList: [], interfaceList: [] },
      });
    }
  }

  // PENDING_2FA: a superuser who gave the password but not yet the code (2FA on, one confirmed device).
  ids.pending = await createAccount(
    {
      email: "pending@matrix.test",
      firstName: "Pat",
      passwordHash: await hashPassword("pending-password-1"),
      isSuperuser: true,
      isStaff: true,
    },
    [],
  );
  const key = await generateKey(db, ids.pending, "Phone");
  await confirmDevice(db, ids.pending, key.id, await generate({ secret: key.secret, epoch: Math.floor(Date.now() / 1000) }));
  await setEnable2fa(db, ids.pending, true);
  fx.device = key.id;
  const [note] = await db
    .insert(notifications)
    .values({ userId: ids.pending, title: "Private to the pending user" })
    .returning({ id: notifications.id });
  fx.notification = note.id;
  const [foreign] = await db
    .insert(tags)
    .values({ name: "Private to the pending user", dimension: "AS_NUMBER", ownerUserId: ids.pending })
    .returning({ id: tags.id });
  await db.insert(tagValues).values({ tagId: foreign.id, value: "64510" });
  fx.foreignTag = foreign.id;
  await ensureSharedTag();

  // EXPIRED: the cookies of a superuser session whose row has lapsed (the logged_in marker stays).
  expiredCookie = await sessionCookie(stores, ids.superuser);
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.userId, ids.superuser));
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// ---------------------------------------------------------------------------------------------------------------
// Tests

let checks = 0;
const started = Date.now();

describe("permission matrix", () => {
  it("has an entry for every route file of app/routes, and none for a file that is gone", () => {
    const onDisk = routeFilesOnDisk();
    const named = Object.keys(MATRIX).sort();
    expect({ missingFromMatrix: onDisk.filter((f) => !(f in MATRIX)), noSuchRouteFile: named.filter((f) => !onDisk.includes(f)) }).toEqual({
      missingFromMatrix: [],
      noSuchRouteFile: [],
    });
  });

  it("samples each route's loader and action, at URLs Remix would send to that file", async () => {
    const problems: string[] = [];
    const files = routeFilesOnDisk();
    for (const [file, samples] of Object.entries(MATRIX)) {
      const load = MODULES[`/app/routes/${file}`];
      if (!load) {
        problems.push(`${file}: not importable`);
        continue;
      }
      const module = await load();
      if (!samples.length) problems.push(`${file}: no samples`);
      if (module.loader && !samples.some((s) => (s.method ?? "GET") === "GET"))
        problems.push(`${file}: exports a loader but no GET is sampled`);
      if (module.action && !samples.some((s) => (s.method ?? "GET") !== "GET"))
        problems.push(`${file}: exports an action but no other method is sampled`);
      for (const sample of samples) {
        const url = typeof sample.url === "function" ? sample.url() : sample.url;
        const owner = ownerOf(url, files);
        if (isPathlessLayout(file) ? owner === null : owner !== file) problems.push(`${file}: ${url} is served by ${owner ?? "no route"}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("computes the landing routes from TOOL_ROUTES and the demo permissions", () => {
    expect(perRole((role) => landing(role))).toEqual({
      operator: "/flow-explorer",
      delegated: "/flow-explorer",
      moderator: "/flow-explorer",
      staff: "/flow-explorer",
      superuser: "/flow-explorer",
    });
    expect(landing("delegated", WELCOME)).toBe("/welcome");
  });

  for (const [file, samples] of Object.entries(MATRIX)) {
    it(file, async () => {
      const module = await MODULES[`/app/routes/${file}`]();
      const failures: string[] = [];
      for (const sample of samples) {
        const method = sample.method ?? "GET";
        await withSite(sample.site, async () => {
          for (const role of ROLES) {
            const request = await buildRequest(sample, role);
            const params = paramsFor(file, new URL(request.url).pathname) ?? {};
            const actual = await call(module, request, params);
            if (sample.after) await sample.after();
            checks += 1;
            const expected = sample.expect[role];
            if (!matches(expected, actual)) {
              const where = `${method} ${new URL(request.url).pathname}${new URL(request.url).search}${sample.site ? ` ${JSON.stringify(sample.site)}` : ""}${sample.csrf === false ? " (no CSRF)" : ""}`;
              failures.push(`${where} as ${role}: expected ${expected}, got ${show(actual)}`);
            }
          }
        });
      }
      expect(failures).toEqual([]);
    });
  }

  it("left other accounts' rows and the site settings alone", async () => {
    const db = stores.pg.db;
    const [note] = await db.select().from(notifications).where(eq(notifications.id, fx.notification));
    expect(note).toMatchObject({ userId: ids.pending, isRead: false, isArchived: false });
    const [device] = await db
      .select()
      .from(totpDevices)
      .where(and(eq(totpDevices.id, fx.device), eq(totpDevices.userId, ids.pending)));
    expect(device?.confirmed).toBe(true);
    const accounts = await db.select({ id: users.id, hasConsented: users.hasConsented }).from(users);
    for (const id of Object.values(ids)) expect(accounts.find((a) => a.id === id)?.hasConsented).toBe(true);
    const [site] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
    expect(site).toMatchObject({ welcomePageEnabled: false, enableUserSelfSignup: false, mandatory2fa: false });
    const superuserGroups = await db.select({ id: userGroups.groupId }).from(userGroups).where(eq(userGroups.userId, ids.superuser));
    expect(superuserGroups).toEqual([]);
  });
});

afterAll(() => {
  const requests = Object.values(MATRIX).reduce((n, samples) => n + samples.length, 0);
  const files = Object.keys(MATRIX).length;
  console.log(
    `permission matrix: ${files} routes (${requests} requests) × ${ROLES.length} roles = ${requests * ROLES.length} checks` +
      ` (${checks} run, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
});
