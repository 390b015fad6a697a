import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteApiToken } from "~/server/auth/api-tokens.server";

/** DELETE auth/token/{id}/: revokes one of the user's API tokens. */
const route = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: { permission: "DEVELOPER_API_TOKEN" },
    params: z.object({ id: int32IdText }),
    handler: async ({ context, user, params }) => {
      return (await deleteApiToken(context.services.pg.db, user.id, params.id))
        ? { deleted: params.id }
        : apiError(404, "Token not found.");
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
