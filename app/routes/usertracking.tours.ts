import { toursFrame } from "~/features/help/tour-status.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET usertracking/tours/: the guided tours the caller may take and the caller's status of each (Started, Finished, Failed). */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context, user }) => toursFrame(context.services, user),
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
