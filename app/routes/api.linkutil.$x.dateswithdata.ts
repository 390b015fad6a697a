import { datesParamsSchema } from "~/features/planners/api-schema";
import { datesPermission, datesWithDataCall } from "~/features/planners/api.server";
import { accessProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/linkutil/{x}/dateswithdata/, x = external (API_LINK_UTIL_EXTERNAL) or internal
 * (API_LINK_UTIL_INTERNAL): [{minTimestamp, maxTimestamp}] of the caller's links, nulls when empty.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    params: datesParamsSchema,
    handler: async ({ context, user, params }) => {
      // The permission depends on the path, so the access rule is checked here rather than by the contract.
      if (!user.permissions.includes(datesPermission(params.x))) throw accessProblem("permission_denied", context);
      return datesWithDataCall(context.services, user, params.x);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
