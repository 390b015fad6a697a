import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteNotification } from "~/server/notifications/notifications.server";

/** DELETE auth/notifications/{id}/ — only the user's own. */
const route = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: "login",
    params: z.object({ id: int32IdText }),
    handler: async ({ context, user, params }) => {
      const deleted = await deleteNotification(context.services.pg.db, user.id, params.id);
      return deleted ? { deleted: params.id } : apiError(404, "Notification not found.");
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
