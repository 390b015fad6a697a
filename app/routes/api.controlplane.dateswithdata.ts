import { controlPlaneDates } from "~/features/routing/controlplane.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/controlplane/dateswithdata/ (CONTROL_PLANE): [{minTimestamp, maxTimestamp}] of the routing history, nulls when empty. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "CONTROL_PLANE" },
    handler: async ({ context }) =>
      Response.json([await controlPlaneDates(context.services)], { headers: { "Cache-Control": "no-store" } }),
  }),
});

export const loader = route.loader;
export const action = route.action;
