import { interfaceStatisticsQuerySchema } from "~/features/planners/api-schema";
import { interfaceStatisticsCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/linkutil/interfacestatistics/ (API_LINK_UTIL_EXTERNAL): the traffic of external links by
 * neighbour, source or destination AS from the flows; each AS's 95th with NETFLOW95TH.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_LINK_UTIL_EXTERNAL" },
    query: interfaceStatisticsQuerySchema,
    handler: ({ context, user, query }) => interfaceStatisticsCall(context.services, user, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
