import { rootCauseBodySchema, runRootCause } from "~/features/flows/rootcause/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/rootcause/ (an extension of the contract): the root-cause analysis of one object's
 * ingress traffic in a period — baseline with its band, decomposition, classification with each
 * candidate's conclusion, routing evidence. Access: API_FLOWS_4D, never a delegated user (403).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: rootCauseBodySchema,
    handler: async ({ context, user, body }) => runRootCause(context.services, user, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
