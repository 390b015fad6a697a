import { data, redirect } from "@remix-run/node";
import { count, inArray } from "drizzle-orm";
import { z } from "zod";
import { vantagePoints } from "~db/postgres/schema";
import { firstAvailableRoute, menuItems, mayOpen, type Access, type ToolRoute } from "~/lib/routes";
import { chQuery } from "../clickhouse/query.server";
import { BodyProblem, checkFormFields, readFormBody } from "../request-body.server";
import { oncePerRequest, requestSession } from "../request-scope.server";
import { getServices, type Services } from "../services.server";
export { safeNext } from "./redirect-target.server";
import type { SessionState } from "./session.server";
import { loadUserContext, type UserContext } from "./user-context.server";
import { lookingGlassRouters } from "./delegation.server";
import { welcomePageFor } from "./welcome-page.server";

/** viaToken: authenticated by an API token (no cookies, so no CSRF exposure). */
export type RequestContext = { services: Services; session: SessionState; viaToken?: boolean };

/** The services and the session; the root, layout and screen loaders of one request share one read of it. */
export async function getRequestContext(request: Request): Promise<RequestContext> {
  const services = await getServices();
  const session = await requestSession(request, { db: services.pg.db, sessionSecret: services.config.sessionSecret });
  return { services, session };
}

/**
 * For JSON endpoints only: integrators authenticate with "Authorization: Token <key>" instead of a
 * session cookie (screens never accept tokens). Falls back to the cookie session without the header.
 */
export async function getApiRequestContext(request: Request): Promise<RequestContext> {
  if (!request.headers.has("Authorization")) return getRequestContext(request);
  const services = await getServices();
  const { userIdForToken } = await import("./api-tokens.server");
  const userId = await userIdForToken(services.pg.db, request.headers.get("Authorization"));
  const user = userId === null ? null : await loadUserContext(services.pg.db, userId);
  const session: SessionState = user ? { status: "LOGGED_IN", user, idHash: null } : { status: "ANONYMOUS", user: null, idHash: null };
  return { services, session, viaToken: true };
}

const TableRows = z.object({ name: z.string(), total_rows: z.coerce.number() });

/** ClickHouse tables without rows (spec: api/tables_without_data hides their menu items for non-staff). */
export async function tablesWithoutData(services: Services): Promise<Set<string>> {
  const tables = ["flows_raw", "flows_5m", "flows_1h", "interface_util_5m", "rib_entries", "rib_current"];
  const rows = await chQuery(services.ch, {
    name: "menu.tablesWithRows",
    sql: `SELECT name, toUInt64(ifNull(total_rows, 0)) AS total_rows FROM system.tables
            WHERE database = currentDatabase() AND name IN {tables:Array(String)}`,
    params: { tables },
    schema: TableRows,
  });
  const filled = new Set(rows.filter((r) => Number(r.total_rows) > 0).map((r) => r.name));
  return new Set(tables.filter((t) => !filled.has(t)));
}

/** The vantage points a user may query: all of them, or for a delegated user those of their routers. */
async function usableVantagePoints(services: Services, user: UserContext): Promise<number> {
  const routers = await lookingGlassRouters(services.pg.db, user);
  if (routers !== null && !routers.length) return 0;
  const query = services.pg.db.select({ n: count() }).from(vantagePoints);
  const [{ n }] = await (routers === null ? query : query.where(inArray(vantagePoints.router, routers)));
  return Number(n);
}

/** What a user's permissions, flags and kind open (lib/routes.ts mayOpen). */
export function accessOf(user: UserContext): Access {
  return {
    permissions: new Set(user.permissions),
    featureFlags: new Set(user.featureFlags),
    isStaff: user.isStaff,
    isDelegated: user.isDelegated,
  };
}

export async function userMenu(services: Services, user: UserContext): Promise<ToolRoute[]> {
  const [empty, n, welcome] = await Promise.all([
    tablesWithoutData(services),
    usableVantagePoints(services, user),
    user.isDelegated ? welcomePageFor(services.pg.db, user) : null,
  ]);
  return menuItems(accessOf(user), empty, { hasVantagePoints: Number(n) > 0, welcomePage: welcome !== null });
}

/** Where the visitor was going, kept through the login (path and search; the hash is added client-side). */
export function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const next = url.pathname + url.search;
  return redirect(next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`);
}

/**
 * The guard of every screen: a logged-in session, then the route's permission. Anonymous or
 * expired visitors go to login with their destination remembered; users lacking the permission
 * go to their first available route.
 */
export async function requireUser(request: Request, route?: ToolRoute): Promise<RequestContext & { user: UserContext; menu: ToolRoute[] }> {
  const context = await getRequestContext(request);
  const { session } = context;
  if (session.status === "PENDING_2FA") {
    const url = new URL(request.url);
    throw redirect(`/login/2fa?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (session.status !== "LOGGED_IN" || !session.user) {
    const response = loginRedirect(request);
    if (session.status === "EXPIRED") {
      const url = new URL(response.headers.get("Location")!, "http://x");
      url.searchParams.set("expired", "1");
      throw redirect(url.pathname + url.search);
    }
    throw response;
  }
  const user = session.user;
  // GDPR: nothing else is reachable before consent is given (shell §6).
  if (!user.hasConsented) {
    const url = new URL(request.url);
    throw redirect(`/consent?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  // The layout's frame and the screen's permission check both need it: computed once per request.
  const menu = await oncePerRequest(request, `menu ${user.id}`, () => userMenu(context.services, user));
  if (route && !mayOpen(route, accessOf(user))) {
    throw redirect(await landingRoute(context.services, user, menu));
  }
  checkScreenParameters(request);
  return { ...context, user, menu };
}

/**
 * A screen's GET parameters get the checks of its form fields (checkFormFields), after the
 * login and permission: a NUL that PostgreSQL refuses in text, or a value longer than any field,
 * is a 400 naming the parameter on every screen, not a 500 of the one whose query meets it.
 */
function checkScreenParameters(request: Request): void {
  try {
    checkFormFields(new URL(request.url).searchParams);
  } catch (error) {
    if (error instanceof BodyProblem) throw refusal(error.status, error.message, error.field);
    throw error;
  }
}

/** The thrown answer of a refused input: its `detail` is what the error page shows, `errors` names the field. */
function refusal(status: 400 | 413, message: string, field: string | null) {
  const errors = field ? [{ field, message }] : undefined;
  return data({ detail: field ? `${field}: ${message}` : message, errors }, { status });
}

/** A page form as read by readPageForm: the fields, or why they were refused (and which field, if one). */
export type PageForm = { ok: true; form: FormData } | { ok: false; status: 400 | 413; error: string; field: string | null };

/**
 * For screen actions that show input problems in their own form (login, password reset, signup):
 * the form data within MAX_FORM_BODY, each field checked (checkFormFields), then the CSRF field.
 * A body too large, malformed or with a bad field is returned as a problem, never a 500; a CSRF
 * failure throws the usual 403.
 */
export async function readPageForm(request: Request): Promise<PageForm> {
  const { verifyCsrfForm } = await import("./csrf.server");
  const { config } = await getServices();
  let form: FormData;
  try {
    form = await readFormBody(request, config.MAX_FORM_BODY);
  } catch (error) {
    if (error instanceof BodyProblem) return { ok: false, status: error.status, error: error.message, field: error.field };
    throw error;
  }
  verifyCsrfForm(request, form);
  return { ok: true, form };
}

/**
 * For screen actions: the form data, after checking its CSRF field. Input problems (413, or 400
 * naming the field) are thrown as a response whose `detail` the error page shows.
 */
export async function readProtectedForm(request: Request): Promise<FormData> {
  const result = await readPageForm(request);
  if (result.ok) return result.form;
  throw refusal(result.status, result.error, result.field);
}

/**
 * Where a user lands (after login, from "/", or from a route they may not open): their first
 * available route; delegated users see the welcome page first when the site enables it; with no
 * route at all the session ends with the 'No Permissions' notice.
 */
export async function landingRoute(services: Services, user: UserContext, menu?: ToolRoute[]): Promise<string> {
  const first = firstAvailableRoute(menu ?? (await userMenu(services, user)));
  if (!first) return "/logout?reason=no-permissions";
  if (user.isDelegated) {
    const { siteSettings } = await import("~db/postgres/schema");
    const { eq } = await import("drizzle-orm");
    const [settings] = await services.pg.db
      .select({ welcome: siteSettings.welcomePageEnabled })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1));
    if (settings?.welcome) return "/welcome";
  }
  return first;
}
