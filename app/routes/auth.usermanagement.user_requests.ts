import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { createUserRequest, listUserRequests } from "~/server/auth/user-requests.server";

/**
 * GET auth/usermanagement/user_requests/[?status=PENDING|ACCEPTED|REJECTED]: the applicants, newest
 * first. POST {email, first_name, last_name}: a manager records a request (also with self-signup off).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "VIEW_USERS" },
    query: z.object({ status: z.enum(["PENDING", "ACCEPTED", "REJECTED"]).optional() }),
    handler: async ({ context, query }) => listUserRequests(context.services.pg.db, query.status),
  }),
  POST: endpoint({
    method: "POST",
    access: { permission: "VIEW_USERS" },
    body: z.object({ email: z.string().max(1000), first_name: z.string().max(1000), last_name: z.string().max(1000) }),
    handler: async ({ context, body }) => {
      const result = await createUserRequest(context.services.pg.db, body);
      if (!result.ok) return apiError(400, result.detail, { errors: result.errors });
      return Response.json(result.request, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
