import { dataRange } from "~/features/flows/data-range.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/flows/timestamps/: first and last 5-minute bucket with flow data (unix seconds), nulls when empty. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    handler: async ({ context }) => dataRange(context.services),
  }),
});

export const loader = route.loader;
export const action = route.action;
