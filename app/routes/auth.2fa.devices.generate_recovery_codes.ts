import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { verifyCsrf } from "~/server/auth/csrf.server";
import { generateRecoveryCodes } from "~/server/auth/two-factor.server";

/**
 * GET auth/2fa/devices/generate_recovery_codes/: ten new single-use codes, replacing the earlier
 * ones; shown only now. A GET by the spec, yet it replaces codes: with a session cookie it needs
 * the CSRF header like a mutation, so no other site can make a browser throw the codes away.
 */
const routes = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ request, context, user }) => {
      if (!context.viaToken) verifyCsrf(request);
      return { codes: await generateRecoveryCodes(context.services.pg.db, user!.id) };
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
