import { tourFailures } from "~/features/help/tour-status.server";
import { MESSAGES } from "~/lib/messages";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET usertracking/tours/failures/ (staff and superusers): the tours that failed, with the account and the missing anchor. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context, user }) => {
      if (!user.isStaff && !user.isSuperuser) return apiError(403, MESSAGES.permissionDenied);
      return { failures: await tourFailures(context.services) };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
