import { externalBodySchema } from "~/features/planners/api-schema";
import { externalLinksCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/linkutil/external/ (API_LINK_UTIL_EXTERNAL): the caller's external links grouped by
 * neighbour AS, router or interface, with capacity, peak-hour daily utilisation, 95th (with
 * LINK_UTILIZATION_95TH), status and forecast per link.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_LINK_UTIL_EXTERNAL" },
    body: externalBodySchema,
    handler: ({ context, user, body }) => externalLinksCall(context.services, user, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
