import { linkLevelQuerySchema, runLinkTopology } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/linkleveltopology/?begin_timestamp&end_timestamp&origin&destination: the routers and
 * links (external in, core, external out) that the traffic from origin to destination traverses,
 * bit/s per link. Access: API_FLOWS_4D plus API_FLOWS_INTERFACES and FLOWS_BY_LINK_FILTER.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: linkLevelQuerySchema,
    handler: async ({ context, user, query, version }) => runLinkTopology(context.services, user, version, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
