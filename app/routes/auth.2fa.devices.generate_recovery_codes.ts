import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { generateRecoveryCodes } from "~/server/auth/two-factor.server";

/** GET auth/2fa/devices/generate_recovery_codes/: ten new single-use codes, replacing the earlier ones; shown only now. */
const routes = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context, user }) => ({ codes: await generateRecoveryCodes(context.services.pg.db, user!.id) }),
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
