import { anomaliesQuerySchema, requestAnomalies } from "~/features/flows/rootcause/anomalies.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/rootcause/anomalies/?dateRange= or ?start=&end= (an extension of the contract): the largest
 * deviations from the seasonal baseline in the range over the tracked ASes, routers and external
 * interfaces, each classified, newest first — 200 with the list, 202 {"state": "computing"} while the
 * background computes it. Access: API_FLOWS_4D and API_FLOWS_INTERFACES, never a delegated user (403).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: anomaliesQuerySchema,
    handler: async ({ context, user, query }) => {
      const answer = await requestAnomalies(context.services, user, query);
      return answer.state === "computing" ? Response.json(answer, { status: 202, headers: { "Cache-Control": "no-store" } }) : answer;
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
