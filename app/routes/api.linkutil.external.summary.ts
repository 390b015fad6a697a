import { summaryBodySchema } from "~/features/planners/api-schema";
import { externalSummaryCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** POST api/linkutil/external/summary/ (API_LINK_UTIL_EXTERNAL): links, capacity, billed 95th, links per status, build-outs due. */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_LINK_UTIL_EXTERNAL" },
    body: summaryBodySchema,
    handler: ({ context, user, body }) => externalSummaryCall(context.services, user, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
