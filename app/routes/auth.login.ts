import { z } from "zod";
import { MESSAGES } from "~/lib/messages";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { checkCredentials, InvalidCredentialsError, LoginThrottledError } from "~/server/auth/authenticator.server";
import { createSession } from "~/server/auth/session.server";
import { sessionStateAfterPassword } from "~/server/auth/second-factor-gate.server";

const Credentials = z.object({
  email: z.string().trim().min(1, "required").optional(),
  username: z.string().trim().min(1, "required").optional(),
  password: z.string().min(1, "required"),
}).refine((c) => c.email || c.username, { message: "email or username is required", path: ["email"] });

/**
 * POST auth/login/ {email (or username), password}: a session cookie and the session status
 * (LOGGED_IN, or PENDING_2FA when a second factor is due: then POST auth/2fa/ with the code).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    body: Credentials,
    handler: async ({ request, context, body }) => {
      try {
        const { id } = await checkCredentials(request, body.email ?? body.username ?? "", body.password);
        const { services } = context;
        const state = await sessionStateAfterPassword(services.pg.db, id);
        const headers = await createSession(services.pg.db, services.config.sessionSecret, request, id, state);
        return Response.json({ status: state }, { headers });
      } catch (error) {
        if (error instanceof LoginThrottledError) {
          return Response.json({ detail: error.message }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
        }
        if (error instanceof InvalidCredentialsError) return apiError(401, MESSAGES.wrongCredentials);
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
