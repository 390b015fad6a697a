import { createSession } from "~/server/auth/session.server";
import type { Services } from "~/server/services.server";

export const ORIGIN = "http://flowlens.test";
export const CSRF_TOKEN = "csrf-token-for-tests-0123456789";

/** Cookie header of a fresh session for the user (plus the CSRF cookie). */
export async function sessionCookie(services: Services, userId: number, state: "LOGGED_IN" | "PENDING_2FA" = "LOGGED_IN"): Promise<string> {
  const headers = await createSession(services.pg.db, services.config.sessionSecret, new Request(`${ORIGIN}/login`), userId, state);
  const cookies = headers.getSetCookie().map((c) => c.split(";")[0]);
  return [...cookies, `csrftoken=${CSRF_TOKEN}`].join("; ");
}

type RouteModule = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

/** Calls a resource route the way Remix would: GET → loader, others → action. */
export async function callRoute(
  module: RouteModule,
  path: string,
  options: {
    method?: string;
    cookie?: string;
    body?: unknown;
    csrf?: boolean;
    params?: Record<string, string>;
    accept?: string;
    /** Another scheme and host than the tests' default, e.g. https://… for what only HTTPS gets. */
    origin?: string;
  } = {},
): Promise<Response> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { Accept: options.accept ?? "application/json" };
  if (options.cookie) headers.Cookie = options.cookie;
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    if (options.csrf !== false) headers["X-CSRFToken"] = CSRF_TOKEN;
  }
  const request = new Request(`${options.origin ?? ORIGIN}${path}`, {
    method,
    headers,
    body: method === "GET" || options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const handler = (method === "GET" ? module.loader : module.action) as (args: {
    request: Request;
    params: Record<string, string>;
    context: object;
  }) => Promise<Response>;
  return handler({ request, params: options.params ?? {}, context: {} });
}

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => unknown;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Outcome = { status: number; headers: Headers; data: any; location: string | null };

/** Runs a loader or action like Remix does: thrown responses (redirects, `throw data(…)`) are outcomes too. */
export async function runRoute(fn: unknown, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  let result: unknown;
  try {
    result = await (fn as RouteFn)({ request, params, context: {} });
  } catch (error) {
    const thrownData = !!error && typeof error === "object" && (error as { type?: string }).type === "DataWithResponseInit";
    if (!(error instanceof Response) && !thrownData) throw error;
    result = error;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: result.status, headers: result.headers, data, location: result.headers.get("Location") };
  }
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data, location: null };
  }
  return { status: 200, headers: new Headers(), data: result, location: null };
}

/** The cookie header plus the CSRF cookie the requests below repeat. */
export const withCsrf = (cookie?: string) => [cookie, `csrftoken=${CSRF_TOKEN}`].filter(Boolean).join("; ");

export function getRequest(path: string, cookie?: string): Request {
  return new Request(`${ORIGIN}${path}`, { headers: { Cookie: withCsrf(cookie) } });
}

/** A form post with its CSRF field, as a browser without JavaScript sends it. */
export function formRequest(path: string, fields: Record<string, string>, cookie?: string): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(cookie) },
    body: new URLSearchParams({ csrfmiddlewaretoken: CSRF_TOKEN, ...fields }).toString(),
  });
}

/** A JSON call with the CSRF header (unless csrf is false). */
export function jsonRequest(path: string, body: unknown, options: { cookie?: string; method?: string; csrf?: boolean } = {}): Request {
  const headers: Record<string, string> = { "Content-Type": "application/json", Cookie: withCsrf(options.cookie) };
  if (options.csrf !== false) headers["X-CSRFToken"] = CSRF_TOKEN;
  return new Request(`${ORIGIN}${path}`, {
    method: options.method ?? "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
