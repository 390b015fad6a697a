import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { Permission } from "~/lib/permissions";
import { MESSAGES } from "~/lib/messages";
import { NO_CONTROL_CHARACTERS, NO_NUL, fieldsWithNul, parameterWithControlCharacter } from "~/lib/input-fields";
import { getApiRequestContext, type RequestContext } from "../auth/guard.server";
import type { UserContext } from "../auth/user-context.server";
import { csrfCookieHeader, newCsrfToken, readCsrfCookie, verifyCsrf } from "../auth/csrf.server";
import { raiseAlert } from "../alerts.server";
import { log } from "../log.server";
import { getServices } from "../services.server";
import { BodyProblem, readBodyText } from "../request-body.server";

export const API_VERSIONS = { min: 13, max: 17, default: 17 } as const;

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * Who may call: anybody, any session, a logged-in user, or a logged-in user holding `permission`
 * and every permission of `also` (a call that is part of a tool and also needs its own permission,
 * e.g. api/sankey/: API_FLOWS_4D and SANKEY_TOPOLOGY).
 */
export type Access = "public" | "session" | "login" | { permission: Permission; also?: readonly Permission[] };

/** The permissions an access rule requires, all of them (none for public, session and login). */
export function requiredPermissions(access: Access): Permission[] {
  return typeof access === "object" ? [access.permission, ...(access.also ?? [])] : [];
}

/** JSON error body of every endpoint: what went wrong, and for bad input which field and why. */
export type ApiError = { detail: string; exception_code?: string; errors?: { field: string; message: string }[] };

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.detail);
  }
}

export const apiError = (status: number, detail: string, extra: Omit<ApiError, "detail"> = {}) =>
  Response.json({ detail, ...extra } satisfies ApiError, { status });

/**
 * "application/json; version=16" → 16; absent → the newest; one of the endpoint's `alsoVersions`
 * (the call's own numbering in the spec's client) → the newest; otherwise outside 13–17 → 406.
 */
export function apiVersion(request: Request, alsoVersions: readonly number[] = []): number {
  const match = /version\s*=\s*v?(\d+)/i.exec(request.headers.get("Accept") ?? "");
  if (!match) return API_VERSIONS.default;
  const version = Number(match[1]);
  if (alsoVersions.includes(version)) return API_VERSIONS.default;
  if (version < API_VERSIONS.min || version > API_VERSIONS.max) {
    const also = alsoVersions.length > 0 ? `${alsoVersions.join(", ")} and ` : "";
    throw new ApiProblem(406, {
      detail: `API version ${version} is not supported (supported: ${also}${API_VERSIONS.min} to ${API_VERSIONS.max}).`,
    });
  }
  return version;
}

/** The caller a handler sees: always there when the rule requires a login or a permission, else only when logged in. */
export type CallerOf<A extends Access> = A extends "public" | "session" ? UserContext | null : UserContext;

export type HandlerArgs<Q, B, P = Record<string, string | undefined>, A extends Access = Access> = {
  request: Request;
  /** The path parameters, as the endpoint's `params` schema made them. */
  params: P;
  context: RequestContext;
  user: CallerOf<A>;
  query: Q;
  body: B;
  version: number;
};

export type EndpointSpec<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, A extends Access = Access> = {
  method: Method;
  access: A;
  query?: Q;
  body?: B;
  /** Schema of the path parameters ({id} …); 400 naming the parameter when it does not match. */
  params?: P;
  /** JSON mutations need the CSRF header; set false only for calls that create the session (login). */
  csrf?: boolean;
  /**
   * API versions this call accepts besides 13–17: the spec's client numbers api/sankey/ and
   * api/version/ on their own and sends version 3 to them. The handler sees such a version as the
   * newest (17). Describe them in the call's OpenAPI entry (Operation.alsoVersions).
   */
  alsoVersions?: readonly number[];
  /** Reachable by a logged-in user who has not consented yet (the consent calls, user details, logout). */
  allowWithoutConsent?: boolean;
  handler: (args: HandlerArgs<z.infer<Q>, z.infer<B>, z.infer<P>, A>) => Promise<Response | object | null>;
};

function zodErrors(error: z.ZodError): ApiError["errors"] {
  return error.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message }));
}

/**
 * Validates a body an endpoint reads itself (endpoints whose access rule must run before the body
 * is validated, e.g. the public Looking Glass calls): the data, or the contract's 400 thrown.
 */
export function parseBody<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const body = schema.safeParse(raw);
  if (!body.success) throw new ApiProblem(400, { detail: "Invalid request body.", errors: zodErrors(body.error) });
  return body.data;
}

/** The body as JSON (or urlencoded fields), at most MAX_JSON_BODY bytes: 413 beyond, counted while it streams. */
async function readBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  let text: string;
  try {
    text = await readBodyText(request, limit);
  } catch (error) {
    if (error instanceof BodyProblem) throw new ApiProblem(error.status, { detail: error.message });
    throw error;
  }
  if (!text) return {};
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiProblem(400, { detail: "The request body is not valid JSON." });
  }
}

export type AccessRefusal = "not_authenticated" | "consent_required" | "permission_denied";

/** The contract's 403 for a refused caller (also used by endpoints with their own access rules). */
export function accessProblem(reason: AccessRefusal, context: Pick<RequestContext, "session">): ApiProblem {
  if (reason === "not_authenticated") {
    const detail = context.session.status === "EXPIRED" ? MESSAGES.sessionExpired : "Authentication credentials were not provided.";
    return new ApiProblem(403, { detail, exception_code: "not_authenticated" });
  }
  if (reason === "consent_required")
    return new ApiProblem(403, { detail: "Consent is required before using flowlens.", exception_code: "consent_required" });
  return new ApiProblem(403, { detail: MESSAGES.permissionDenied, exception_code: "permission_denied" });
}

function checkAccess(access: Access, context: RequestContext, allowWithoutConsent: boolean): UserContext | null {
  // A PENDING_2FA session has a user but is not logged in: handlers never see that user.
  if (access === "public" || access === "session") return context.session.status === "LOGGED_IN" ? context.session.user : null;
  const user = context.session.status === "LOGGED_IN" ? context.session.user : null;
  if (!user) throw accessProblem("not_authenticated", context);
  // GDPR: withdrawing consent removes access, to the API as to the screens.
  if (!user.hasConsented && !allowWithoutConsent) throw accessProblem("consent_required", context);
  if (requiredPermissions(access).some((p) => !user.permissions.includes(p))) throw accessProblem("permission_denied", context);
  return user;
}

/**
 * One JSON endpoint: access rule, zod schemas of query and body, then the handler. Bad input is a
 * 400 naming the field; missing session or permission a 403; unexpected failures a logged 500
 * with the catalogue's server-error text — never a stack trace.
 */
export function endpoint<
  Q extends z.ZodType = z.ZodObject<{}>,
  B extends z.ZodType = z.ZodObject<{}>,
  P extends z.ZodType = z.ZodType<Record<string, string | undefined>>,
  A extends Access = Access,
>(spec: EndpointSpec<Q, B, P, A>): EndpointFunction {
  const prepare = async ({ request, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response | PreparedCall> => {
    try {
      if (request.method !== spec.method) {
        return apiError(405, `Method ${request.method} not allowed.`);
      }
      const version = apiVersion(request, spec.alsoVersions);
      const context = await getApiRequestContext(request);
      const user = checkAccess(spec.access, context, spec.allowWithoutConsent ?? false);
      if (spec.method !== "GET" && spec.csrf !== false && !context.viaToken) verifyCsrf(request);
      const url = new URL(request.url);
      const path = checkPathParams(spec.params, params);
      if (path instanceof Response) return path;
      const badParameter = parameterWithControlCharacter(url.searchParams);
      if (badParameter !== null)
        return apiError(400, "Invalid query parameters.", { errors: [{ field: badParameter, message: NO_CONTROL_CHARACTERS }] });
      const query = (spec.query ?? z.object({})).safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return apiError(400, "Invalid query parameters.", { errors: zodErrors(query.error) });
      const rawBody =
        spec.method === "GET" || spec.method === "DELETE" ? {} : await readBody(request, context.services.config.MAX_JSON_BODY);
      // No store keeps NUL in text: refused wherever it hides in the body, whatever the schema says.
      const nulFields = fieldsWithNul(rawBody);
      if (nulFields.length > 0)
        return apiError(400, "Invalid request body.", { errors: nulFields.map((field) => ({ field, message: NO_NUL })) });
      const body = (spec.body ?? z.unknown()).safeParse(rawBody);
      if (!body.success) return apiError(400, "Invalid request body.", { errors: zodErrors(body.error) });
      const args = {
        params: path as z.infer<P>,
        context,
        // checkAccess threw for a rule needing a login or permission and nobody logged in.
        user: user as CallerOf<A>,
        query: query.data as z.infer<Q>,
        body: body.data as z.infer<B>,
        version,
      };
      const runHandler = async (handlerRequest: Request): Promise<{ response: Response; thrown: boolean }> => {
        try {
          const result = await spec.handler({ ...args, request: handlerRequest });
          const response = result instanceof Response ? result : Response.json(result ?? {}, { headers: { "Cache-Control": "no-store" } });
          return { response, thrown: false };
        } catch (error) {
          return { response: errorResponse(error, handlerRequest), thrown: true };
        }
      };
      return {
        context,
        user: context.session.status === "LOGGED_IN" ? context.session.user : null,
        query: query.data as unknown,
        body: body.data as unknown,
        version,
        run: async (handlerRequest: Request) => (await runHandler(handlerRequest)).response,
        runHandler,
      };
    } catch (error) {
      return errorResponse(error, request);
    }
  };
  const call = async (args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const prepared = await prepare(args);
    if (prepared instanceof Response) return prepared;
    const { response, thrown } = await prepared.runHandler(args.request);
    // API clients that start with a GET (e.g. siteconfig/) receive the CSRF cookie their mutations must echo.
    if (spec.method === "GET" && !thrown && !readCsrfCookie(args.request))
      response.headers.append("Set-Cookie", csrfCookieHeader(newCsrfToken(), args.request));
    return response;
  };
  return Object.assign(call, { prepare, method: spec.method });
}

/**
 * A call checked and parsed but not yet run: access, version, CSRF, query and body are the
 * endpoint's own (the same checks as a direct call); `run` calls its handler once, with the given
 * request (its signal is the handler's), and turns what it returns or throws into the response.
 * The second client (api/v2/, app/features/api-v2/) runs it later, as a job.
 */
export type PreparedCall = {
  context: RequestContext;
  user: UserContext | null;
  query: unknown;
  body: unknown;
  version: number;
  run: (request: Request) => Promise<Response>;
  /** `run`, telling an answer the handler returned from one made of what it threw. */
  runHandler: (request: Request) => Promise<{ response: Response; thrown: boolean }>;
};

export type EndpointFunction = ((args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>) & {
  prepare: (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response | PreparedCall>;
  method: Method;
};

/** What an endpoint answers for a thrown error: the contract's body of an ApiProblem, a thrown Response, else a logged 500. */
function errorResponse(error: unknown, request: Request): Response {
  if (error instanceof ApiProblem) return Response.json(error.body, { status: error.status });
  if (error instanceof Response) return error;
  const url = new URL(request.url);
  log.error(`${request.method} ${url.pathname} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  // The team-chat alert (the limiter's 429 and 503 are answers, not failures: they never come here).
  void getServices()
    .then((services) =>
      raiseAlert(services.pg.db, services.config, {
        kind: "server error",
        message: `${request.method} ${url.pathname}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        url: url.pathname,
        host: url.host,
      }),
    )
    .catch(() => {});
  return apiError(500, MESSAGES.serverError);
}

/** The path parameters as the endpoint's schema makes them, or the 400 naming the first bad one (control characters never pass). */
function checkPathParams(schema: z.ZodType | undefined, params: Record<string, string | undefined>): unknown {
  const bad = parameterWithControlCharacter(Object.entries(params));
  if (bad !== null) return apiError(400, "Invalid path parameters.", { errors: [{ field: bad, message: NO_CONTROL_CHARACTERS }] });
  if (!schema) return params;
  const parsed = schema.safeParse(params);
  return parsed.success ? parsed.data : apiError(400, "Invalid path parameters.", { errors: zodErrors(parsed.error) });
}

/** Resource route exports for endpoints keyed by method: GET → loader, the rest → action. */
export function resourceRoute(endpoints: Partial<Record<Method, EndpointFunction>>) {
  const dispatch = async (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const handler = endpoints[args.request.method as Method];
    if (!handler) {
      return apiError(405, `Method ${args.request.method} not allowed.`, {});
    }
    return handler(args);
  };
  // The endpoints stay reachable from the route's exports: api/v2/ wraps them (app/features/api-v2/).
  const routeFn: RouteDispatch = Object.assign(dispatch, { endpoints });
  return { loader: routeFn, action: routeFn };
}

export type RouteDispatch = ((args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>) & {
  endpoints: Partial<Record<Method, EndpointFunction>>;
};
