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
    handler: async ({ params, context, user }) => {
      const id = Number(params.id);
      const decision = params.decision;
      if (!Number.isSafeInteger(id) || id <= 0) return apiError(404, "No such user request.");
      if (decision !== "accept" && decision !== "reject") return apiError(404, "Unknown decision: use accept or reject.");
      const result = await decideUserRequest(context.services.pg.db, id, decision, user!.id);
      if (!result.ok) return apiError(result.status, result.detail);
      return { ...result.request, user_id: result.userId };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
