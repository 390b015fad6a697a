import { netflowStatisticsBodySchema, runNetflowStatistics } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/netflowstatistics/: per value of targetDimension, the traffic entering at
 * ingressRouter (bit/s, share) and the totals at the router and in the network. Access:
 * API_FLOWS_4D plus the target dimension's permission (and the router dimension's for ingressRouter).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: netflowStatisticsBodySchema,
    handler: async ({ context, user, body, version }) => runNetflowStatistics(context.services, user, version, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
