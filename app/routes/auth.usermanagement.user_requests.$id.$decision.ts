import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { decideUserRequest } from "~/server/auth/user-requests.server";

/**
 * PUT auth/usermanagement/user_requests/{id}/accept/ or /reject/ (shell §4, §7). Accepting creates
 * the account without a password and mails the applicant a link to set one.
 */
const route = resourceRoute({
  PUT: endpoint({
    method: "PUT",
    access: { permission: "VIEW_USERS" },
    // Any id beyond a PostgreSQL integer names no request: 404 like a missing one.
    params: z
      .object({ id: z.string(), decision: z.string().optional() })
      .transform((p) => ({ id: int32IdText.safeParse(p.id).data ?? null, decision: p.decision })),
    handler: async ({ params, context, user }) => {
      const { id, decision } = params;
      if (id === null) return apiError(404, "No such user request.");
      if (decision !== "accept" && decision !== "reject") return apiError(404, "Unknown decision: use accept or reject.");
      const result = await decideUserRequest(context.services.pg.db, id, decision, user.id);
      if (!result.ok) return apiError(result.status, result.detail);
      return { ...result.request, user_id: result.userId };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
