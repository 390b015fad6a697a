import { internalQuerySchema } from "~/features/planners/api-schema";
import { internalLinksCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/linkutil/internal/ (API_LINK_UTIL_INTERNAL): every internal link, or one interface pair, with the figures per direction. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_LINK_UTIL_INTERNAL" },
    query: internalQuerySchema,
    handler: ({ context, user, query }) => internalLinksCall(context.services, user, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
