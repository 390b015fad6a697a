import { interfacesQuerySchema } from "~/features/planners/api-schema";
import { interfacesCall } from "~/features/planners/api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/linkutil/interfaces/ (API_LINK_UTIL_INTERNAL): the interface pairs of the internal links between two routers. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_LINK_UTIL_INTERNAL" },
    query: interfacesQuerySchema,
    handler: ({ context, user, query }) => interfacesCall(context.services, user, query),
  }),
});

export const loader = route.loader;
export const action = route.action;
