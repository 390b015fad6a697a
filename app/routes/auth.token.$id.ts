import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteApiToken } from "~/server/auth/api-tokens.server";

/** DELETE auth/token/{id}/: revokes one of the user's API tokens. */
const route = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: { permission: "DEVELOPER_API_TOKEN" },
    handler: async ({ context, user, params }) => {
      const id = z.coerce.number().int().positive().safeParse(params.id);
      if (!id.success) return apiError(400, "Invalid token id.", { errors: [{ field: "id", message: "must be a positive integer" }] });
      return (await deleteApiToken(context.services.pg.db, user!.id, id.data)) ? { deleted: id.data } : apiError(404, "Token not found.");
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
