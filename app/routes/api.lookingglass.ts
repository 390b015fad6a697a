import { z } from "zod";
import { publicQueryLimiter } from "~/features/routing/lookingglass-cache.server";
import {
  cachedLookingGlassQuery,
  inputProblem,
  LookingGlassInputError,
  requireLookingGlassVariant,
  resolveLookingGlassRequest,
  vantagePointRouters,
} from "~/features/routing/lookingglass.server";
import { routeFilterFields } from "~/features/routing/lookingglass-request";
import { apiError, endpoint, parseBody, resourceRoute } from "~/server/api/contract.server";
import { verifyCsrf } from "~/server/auth/csrf.server";
import { clientAddress } from "~/server/auth/session.server";

const bodySchema = z.object({
  queryTerm: z.string().max(200, "At most 200 characters."),
  queryType: z.string().min(1, "Choose a query type."),
  vantagePoints: z.array(z.string().max(200)).min(1, "Select at least one vantage point.").max(500),
  ...routeFilterFields,
});

/**
 * POST api/lookingglass/: a Looking Glass query (AsPathQuery or IpPrefixQuery, legacy codes
 * accepted) on the chosen vantage points. The caller's variant decides the vantage points and
 * columns (see requireLookingGlassVariant).
 *
 * CSRF: checked for logged-in sessions, whose cookie carries authority. An anonymous public
 * query carries none — a forged one could do nothing its sender could not do directly — so it
 * needs no token; that lets the public page and plain HTTP clients query without a prior GET.
 * Access and CSRF come before the body is read, so an unauthorised caller learns nothing from
 * validation. Public queries are limited per client address (429 with Retry-After) and identical
 * ones are answered from a one-minute cache. A delegated user may query only the vantage points of
 * the routers in their routerList (403 naming the others; none when the list is empty).
 *
 * Private variant only: `ribView` (which routing tables; absent or "default": post-policy and
 * Loc-RIB) and `community` (only routes carrying it). The public variant answers 400 when either
 * asks for anything but the default.
 */
/** GET's parameters: the body's fields, vantage points as one comma-separated list (repeated parameters collapse). */
const querySchema = z.object({
  queryTerm: bodySchema.shape.queryTerm,
  queryType: bodySchema.shape.queryType,
  vantagePoints: z
    .string()
    .max(20_000)
    .transform((list) =>
      list
        .split(",")
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .pipe(bodySchema.shape.vantagePoints),
  ...routeFilterFields,
});

type LookingGlassBody = z.infer<typeof bodySchema>;
type HandlerArgs = Parameters<Parameters<typeof endpoint>[0]["handler"]>[0];

type Variant = Awaited<ReturnType<typeof requireLookingGlassVariant>>;

async function answer(
  { request, context, user }: Pick<HandlerArgs, "request" | "context" | "user">,
  variant: Variant,
  body: LookingGlassBody,
) {
  if (variant === "public") {
    const decision = publicQueryLimiter.take(clientAddress(request));
    if (!decision.allowed) {
      const response = apiError(429, `Too many Looking Glass queries. Please try again in ${decision.retryAfterSeconds} seconds.`);
      response.headers.set("Retry-After", String(decision.retryAfterSeconds));
      return response;
    }
  }
  try {
    const routers = await vantagePointRouters(context.services, user);
    const query = await resolveLookingGlassRequest(context.services, { variant, ...body, routers });
    const { cached: _cached, ...result } = await cachedLookingGlassQuery(context.services, query, user);
    return result;
  } catch (error) {
    if (error instanceof LookingGlassInputError) throw inputProblem(error);
    throw error;
  }
}

/**
 * GET api/lookingglass/?queryTerm=…&queryType=…&vantagePoints=a&vantagePoints=b: the same query as a plain link
 * (the spec reads the public variant's call as a GET in one place): a shared URL answers, and a
 * GET is a read, so it needs no CSRF token in any variant.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "public",
    query: querySchema,
    handler: async (args) => {
      const variant = await requireLookingGlassVariant(args.context, args.user);
      const vantagePoints = new URL(args.request.url).searchParams.getAll("vantagePoints");
      return answer(args, variant, parseBody(bodySchema, { ...args.query, vantagePoints }));
    },
  }),
  POST: endpoint({
    method: "POST",
    access: "public",
    csrf: false,
    handler: async (args) => {
      const { request, context, user, body: rawBody } = args;
      const variant = await requireLookingGlassVariant(context, user);
      if (user && !context.viaToken) verifyCsrf(request);
      return answer(args, variant, parseBody(bodySchema, rawBody));
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
