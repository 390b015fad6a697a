import { timeseriesBodySchema } from "~/features/planners/api-schema";
import { externalTimeseriesCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/linkutil/external/timeseries/ (API_LINK_UTIL_EXTERNAL): in/out bit/s of the caller's
 * external links per bucket. The body is the summary's, as an object or as a JSON string (the spec's
 * client sends a string).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_LINK_UTIL_EXTERNAL" },
    body: timeseriesBodySchema,
    handler: ({ context, user, body }) => externalTimeseriesCall(context.services, user, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
