import { rnaDatesWithData } from "~/features/rna/query.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/rna/dateswithdata/ (RAW_NETWORK_ANALYZER): [{minTimestamp, maxTimestamp}] of the raw flow records, the Control Plane's shape; nulls when empty. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    handler: async ({ context }) => Response.json([await rnaDatesWithData(context.services)], { headers: { "Cache-Control": "no-store" } }),
  }),
});

export const loader = route.loader;
export const action = route.action;
