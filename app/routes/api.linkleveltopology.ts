import { linkLevelQuerySchema, runLinkTopology } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/linkleveltopology/?begin_timestamp&end_timestamp&origin&destination: the routers and
 * links (external in, core, external out) that the traffic from origin to destination traverses,
 * bit/s per link. Access: API_FLOWS_4D and SANKEY_TOPOLOGY (the link-level topology), plus the
 * link dimensions' API_FLOWS_INTERFACES and FLOWS_BY_LINK_FILTER (checked by the service).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D", also: ["SANKEY_TOPOLOGY"] },
    query: linkLevelQuerySchema,
    handler: async ({ context, user, query, version }) => runLinkTopology(context.services, user, version, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
