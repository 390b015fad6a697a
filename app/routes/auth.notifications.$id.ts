import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteNotification } from "~/server/notifications/notifications.server";

/** DELETE auth/notifications/{id}/ — only the user's own. */
const route = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: "login",
    handler: async ({ context, user, params }) => {
      const id = z.coerce.number().int().positive().safeParse(params.id);
      if (!id.success) return apiError(400, "Invalid notification id.", { errors: [{ field: "id", message: "must be a positive integer" }] });
      const deleted = await deleteNotification(context.services.pg.db, user!.id, id.data);
      return deleted ? { deleted: id.data } : apiError(404, "Notification not found.");
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
