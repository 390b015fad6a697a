import { z } from "zod";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { takeAnonymousCall, tooManyRequestsResponse } from "~/server/auth/anonymous-limits.server";
import { requestReset, RESET_TEXTS } from "~/server/auth/password-reset.server";
import { FIELD_MAX_LENGTH } from "~/server/request-body.server";

/**
 * POST auth/password/reset/ {email}: mails a reset link when an active account has the address.
 * The answer is the same, in the same time, whether or not it does (only a malformed address is
 * refused); each client may ask a limited number of times (429 with Retry-After).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    body: z.object({ email: z.string().max(FIELD_MAX_LENGTH.email, MESSAGES.emailFormat) }),
    handler: async ({ request, context, body }) => {
      if (!isValidEmail(normalizeEmail(body.email))) {
        return apiError(400, MESSAGES.emailFormat, { errors: [{ field: "email", message: MESSAGES.emailFormat }] });
      }
      const limit = takeAnonymousCall("passwordReset", request);
      if (!limit.allowed) return tooManyRequestsResponse(limit);
      await requestReset(context.services.pg.db, body.email);
      return { detail: RESET_TEXTS.requested };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
