import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET auth/featureflags/: the flags in force for the user. */
export const { loader, action } = resourceRoute({
  GET: endpoint({ method: "GET", access: "login", handler: async ({ user }) => ({ feature_flags: user!.featureFlags }) }),
});
