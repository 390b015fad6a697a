import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET auth/featureflags/: the flags in force for the user. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    allowWithoutConsent: true,
    handler: async ({ user }) => ({ feature_flags: user.featureFlags }),
  }),
});

export const loader = route.loader;
export const action = route.action;
