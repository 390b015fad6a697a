import { z } from "zod";
import { MESSAGES } from "~/lib/messages";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { accountContactLink } from "~/server/auth/account-contact.server";
import {
  AccountDeactivatedError,
  checkCredentials,
  InvalidCredentialsError,
  LoginThrottledError,
  retryAfterHeader,
} from "~/server/auth/authenticator.server";
import { tooManyRequestsResponse } from "~/server/auth/anonymous-limits.server";
import { hasControlCharacters, redirectTarget } from "~/server/auth/redirect-target.server";
import { createSession } from "~/server/auth/session.server";
import { sessionStateAfterPassword } from "~/server/auth/second-factor-gate.server";
import { HashingBusyError } from "~/server/password.server";
import { FIELD_MAX_LENGTH } from "~/server/request-body.server";

const NO_CONTROL_CHARACTERS = "must not contain control characters (CR, LF, tab, NUL …)";
const destination = z
  .string()
  .max(2048)
  .refine((v) => !hasControlCharacters(v), NO_CONTROL_CHARACTERS)
  .optional();

const Credentials = z
  .object({
    email: z.string().trim().min(1, "required").max(FIELD_MAX_LENGTH.email).optional(),
    username: z.string().trim().min(1, "required").max(FIELD_MAX_LENGTH.username).optional(),
    password: z.string().min(1, "required").max(FIELD_MAX_LENGTH.password),
    /** Where the caller wants to go afterwards: answered back as `next` once checked (same site only). */
    next: destination,
    hash: destination,
  })
  .refine((c) => c.email || c.username, { message: "email or username is required", path: ["email"] });

/**
 * POST auth/login/ {email (or username), password, optional next and hash}: a session cookie and
 * the session status (LOGGED_IN, or PENDING_2FA when a second factor is due: then POST auth/2fa/
 * with the code). With `next`, the answer's `next` is the same-site destination to open ("/"
 * when the value leads elsewhere). The right password for a deactivated account: 403
 * account_deactivated with its message and a `contact` link ({href, label}); a wrong one: 401.
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
        const next = body.next === undefined ? {} : { next: redirectTarget(body.next, body.hash, "/") };
        return Response.json({ status: state, ...next }, { headers });
      } catch (error) {
        if (error instanceof LoginThrottledError) {
          return tooManyRequestsResponse({ retryAfterSeconds: error.retryAfterSeconds, message: error.message });
        }
        if (error instanceof AccountDeactivatedError) {
          const contact = await accountContactLink(context.services.pg.db, error.userId, context.services.config.SUPPORT_EMAIL);
          return Response.json({ detail: error.message, exception_code: "account_deactivated", contact }, { status: 403 });
        }
        if (error instanceof InvalidCredentialsError) return apiError(401, MESSAGES.wrongCredentials);
        // Too many checks already waiting: a quick 503 the client can retry, not a slow answer.
        if (error instanceof HashingBusyError)
          return Response.json({ detail: error.message }, { status: 503, headers: retryAfterHeader(error) });
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
