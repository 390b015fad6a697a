import { alertEventsQuerySchema } from "~/features/alerts/request-schema";
import { listAlertEvents } from "~/features/alerts/rules.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/alerts/events/?rule=&limit= (an extension of the spec, docs/alerts.md) → the alert
 * history, newest first: each transition with its bucket, time, value, limit and whether it was
 * told (false while silenced). VIEW_ALERTS; a delegated account sees its own rules' only (another
 * rule is a 404).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "VIEW_ALERTS" },
    query: alertEventsQuerySchema,
    handler: async ({ context, user, query }) => ({ events: await listAlertEvents(context.services.pg.db, user, query) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
