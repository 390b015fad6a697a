import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { verifyCsrf } from "~/server/auth/csrf.server";
import { requireIdentityForApi } from "~/server/auth/reauthentication.server";
import { generateRecoveryCodes } from "~/server/auth/two-factor.server";

/**
 * GET auth/2fa/devices/generate_recovery_codes/: ten new single-use codes, replacing the earlier
 * ones; shown only now. A GET by the spec, yet it replaces codes: with a session cookie it needs
 * the CSRF header like a mutation, so no other site can make a browser throw the codes away; and
 * whoever holds the session must also give the current password (X-Current-Password) or a code
 * (X-OTP-Code) — headers, not query parameters, which would end up in access logs.
 */
const routes = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ request, context, user }) => {
      if (!context.viaToken) verifyCsrf(request);
      const db = context.services.pg.db;
      await requireIdentityForApi(db, request, user.id);
      return { codes: await generateRecoveryCodes(db, user.id) };
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
