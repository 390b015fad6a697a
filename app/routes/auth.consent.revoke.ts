import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { withdrawConsent } from "~/server/auth/consent.server";
import { destroySession } from "~/server/auth/session.server";
import { log } from "~/server/log.server";

/**
 * POST auth/consent/revoke/: withdrawing consent removes access (shell §4). The consent is cleared
 * and this session ends; any other session of the user is held at /consent by the screen guard.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    allowWithoutConsent: true,
    handler: async ({ request, context, user }) => {
      const { db } = context.services.pg;
      await withdrawConsent(db, user.id);
      const headers = await destroySession(db, context.services.config.sessionSecret, request, context.session.idHash);
      log.info(`user #${user.id} withdrew the GDPR consent; session ended`);
      headers.set("Cache-Control", "no-store");
      return Response.json({ has_consented: false }, { headers });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
