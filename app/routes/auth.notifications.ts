import { z } from "zod";
import { int32Id } from "~/lib/input-fields";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { listNotifications, updateNotifications } from "~/server/notifications/notifications.server";

const Updates = z
  .array(z.object({ id: int32Id, is_read: z.boolean().optional(), is_archived: z.boolean().optional(), do_pop_up: z.boolean().optional() }))
  .max(500, "at most 500 updates at once");

/**
 * GET auth/notifications/ (the user's, newest first); POST [{id, is_read?, is_archived?, do_pop_up?}]
 * (do_pop_up false: it popped up, lib/notification-popups.ts).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    query: z.object({ archived: z.enum(["0", "1"]).default("0") }),
    handler: async ({ context, user, query }) => ({
      notifications: await listNotifications(context.services.pg.db, user.id, { includeArchived: query.archived === "1" }),
    }),
  }),
  POST: endpoint({
    method: "POST",
    access: "login",
    body: Updates,
    handler: async ({ context, user, body }) => ({ updated: await updateNotifications(context.services.pg.db, user.id, body) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
