import {
  createNetcommandJob,
  NetcommandForbiddenError,
  NetcommandInputError,
  NetcommandLimitError,
} from "~/features/netcommand/jobs.server";
import { requestOwner, requireNetcommandScope } from "~/features/netcommand/access.server";
import { netcommandBodySchema } from "~/features/netcommand/request-schema";
import { apiError, ApiProblem, endpoint, parseBody, resourceRoute } from "~/server/api/contract.server";
import { verifyCsrf } from "~/server/auth/csrf.server";

/**
 * POST api/netcommand/: starts a ping or traceroute from a vantage point → [{jobID}]; the result
 * is polled at api/netcommand/{jobId}/. Access and CSRF are checked before the body is read (see
 * access.server.ts); like the Looking Glass query, an anonymous public call carries no authority
 * and needs no CSRF header. Bad input 400, a delegated user's vantage point outside their routers
 * 403, too many jobs 429 with Retry-After.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    csrf: false,
    handler: async ({ request, context, user, body: rawBody }) => {
      const scope = await requireNetcommandScope(context, user);
      if (user && !context.viaToken) verifyCsrf(request);
      const body = parseBody(netcommandBodySchema, rawBody);
      const { owner, setCookie } = requestOwner(request, user);
      try {
        const job = await createNetcommandJob(context.services, {
          owner,
          scope,
          networkElement: body.networkElement,
          queryType: body.queryType,
          targetAddress: body.targetAddress as string,
        });
        const response = Response.json([job], { headers: { "Cache-Control": "no-store" } });
        if (setCookie) response.headers.append("Set-Cookie", setCookie);
        return response;
      } catch (error) {
        if (error instanceof NetcommandForbiddenError)
          throw new ApiProblem(403, { detail: error.message, exception_code: "permission_denied" });
        if (error instanceof NetcommandInputError) {
          throw new ApiProblem(400, { detail: error.message, errors: [{ field: error.field, message: error.message }] });
        }
        if (error instanceof NetcommandLimitError) {
          const response = apiError(429, error.message);
          response.headers.set("Retry-After", String(error.retryAfterSeconds));
          return response;
        }
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
