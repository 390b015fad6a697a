import { latestFlowBucket } from "~/features/flows/data-range.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/max_timestamp/: the newest 5-minute bucket with flow data (unix seconds), null when empty. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context }) => ({ maxTimestamp: await latestFlowBucket(context.services) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
