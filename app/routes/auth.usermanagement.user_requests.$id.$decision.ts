import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";
import { decideApplicantRequest, UserAdminError } from "~/server/auth/user-admin.server";

/**
 * PUT auth/usermanagement/user_requests/{id}/accept/ or /reject/ (shell §4, §7). VIEW_USERS, and
 * deciding is for staff and superusers (403 otherwise). Accepting creates the account without a
 * password and mails the applicant a link to set one; rejecting mails the applicant a short notice.
 * Both are written to the audit log.
 */
const route = resourceRoute({
  PUT: endpoint({
    method: "PUT",
    access: { permission: "VIEW_USERS" },
    // Any id beyond a PostgreSQL integer names no request: 404 like a missing one.
    params: z
      .object({ id: z.string(), decision: z.string().optional() })
      .transform((p) => ({ id: int32IdText.safeParse(p.id).data ?? null, decision: p.decision })),
    handler: async ({ request, params, context, user }) => {
      const { id, decision } = params;
      if (id === null) return apiError(404, "No such user request.");
      if (decision !== "accept" && decision !== "reject") return apiError(404, "Unknown decision: use accept or reject.");
      try {
        const result = await decideApplicantRequest(context.services.pg.db, user, id, decision, { clientAddress: clientAddress(request) });
        return { ...result.request, user_id: result.userId };
      } catch (error) {
        if (error instanceof UserAdminError) return apiError(error.status, error.detail);
        throw error;
      }
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
