import { linkLevelQuerySchema, runLinkStatistics } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/linklevelstatistics/?begin_timestamp&end_timestamp&origin&destination: per link of the
 * traffic from origin to destination, its bit/s, the link's capacity, the share of the capacity
 * it uses and the link's whole load. Access: as api/linkleveltopology/ — the same links measured
 * (the spec lists the two calls as one, with the same parameters), so SANKEY_TOPOLOGY as well.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D", also: ["SANKEY_TOPOLOGY"] },
    query: linkLevelQuerySchema,
    handler: async ({ context, user, query, version }) => runLinkStatistics(context.services, user, version, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
