import { revenueCostBodySchema } from "~/features/revenues/request-schema";
import { revenueCostMonth, RevenueCostError } from "~/features/revenues/revenue-cost.server";
import { accessProblem, ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/revenue_cost/ (REVENUES_AND_COSTS, never a delegated account): the bills of a calendar
 * month, their totals and the change against the previous month (docs/revenues-and-costs.md, docs/api.md).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "REVENUES_AND_COSTS" },
    body: revenueCostBodySchema,
    handler: async ({ context, user, body }) => {
      try {
        return await revenueCostMonth(context.services, user, body.year, body.month);
      } catch (error) {
        if (error instanceof RevenueCostError && error.status === 403) throw accessProblem("permission_denied", context);
        if (error instanceof RevenueCostError)
          throw new ApiProblem(400, { detail: error.message, errors: error.field ? [{ field: error.field, message: error.message }] : [] });
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
