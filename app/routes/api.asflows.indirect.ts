import { asIndirectBodySchema, runAsIndirect } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/asflows/indirect/: for each AS of ASNumberList, its ingress traffic as a source AS,
 * split into direct (handed over by the AS itself) and indirect (handed over by another
 * neighbour), with the indirect part per handover AS. Access: API_FLOWS_4D and API_FLOWS_INDIRECT_KPI
 * (not delegable, so never a delegated account); restrictions forced all the same.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D", also: ["API_FLOWS_INDIRECT_KPI"] },
    body: asIndirectBodySchema,
    handler: async ({ context, user, body, version }) => runAsIndirect(context.services, user, version, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
