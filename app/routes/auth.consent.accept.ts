import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { recordConsent } from "~/server/auth/consent.server";

/**
 * POST auth/consent/accept/: the logged-in user gives the GDPR consent (shell §4, §6). Access
 * "login" needs a LOGGED_IN session but not consent — this is how consent is given.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    allowWithoutConsent: true,
    handler: async ({ context, user }) => {
      const consentedAt = await recordConsent(context.services.pg.db, user.id);
      return { has_consented: true, consented_at: consentedAt.toISOString() };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
