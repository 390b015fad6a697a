import { TourStatusProblem, recordTourStatus, tourStatusBody } from "~/features/help/tour-status.server";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST usertracking/tours/{tourId}/ {status, step?, failedAnchor?}: records the caller's status of a guided
 * tour (Started with the step shown, Finished, or Failed with the anchor that was missing).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    body: tourStatusBody,
    handler: async ({ context, user, params, body }) => {
      try {
        return await recordTourStatus(context.services, user, params.tourId ?? "", body);
      } catch (error) {
        if (error instanceof TourStatusProblem) return apiError(error.status, error.message);
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
