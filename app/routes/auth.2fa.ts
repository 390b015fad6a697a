import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";
import { promoteSession, secondFactorError, verifySecondFactor } from "~/server/auth/two-factor.server";

/**
 * POST auth/2fa/ {code}: the second factor of a PENDING_2FA session — a 6-digit TOTP code or a
 * recovery code. Right: the session is replaced by a LOGGED_IN one (new cookie). Wrong: 400 with
 * "The entered token is invalid."; too many wrong codes: 429.
 */
const routes = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "session",
    body: z.object({ code: z.string().trim().min(1, "required").max(64) }),
    handler: async ({ request, context, body }) => {
      const { session, services } = context;
      if (session.status !== "PENDING_2FA" || !session.user || !session.idHash) {
        return apiError(403, "No two-factor authentication is pending for this session.", { exception_code: "not_authenticated" });
      }
      const db = services.pg.db;
      const result = await verifySecondFactor(db, session.user.id, body.code, { clientAddress: clientAddress(request) });
      if (!result.ok) {
        const { message, status } = secondFactorError(result);
        return apiError(status, message, { exception_code: result.reason === "throttled" ? "throttled" : "token_invalid" });
      }
      const headers = await promoteSession(db, services.config.sessionSecret, request, session.idHash, session.user.id);
      headers.set("Cache-Control", "no-store");
      return Response.json({ status: "LOGGED_IN", is_2fa_verified: true }, { headers });
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
