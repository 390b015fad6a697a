import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { MESSAGES } from "~/lib/messages";
import { takeAnonymousCall, tooManyRequestsResponse } from "~/server/auth/anonymous-limits.server";
import { FIELD_MAX_LENGTH } from "~/server/request-body.server";
import { createUserRequest, selfSignupEnabled, SIGNUP_TEXTS } from "~/server/auth/user-requests.server";

/**
 * POST auth/signup/ {email, first_name, last_name} (shell §4, §7): a visitor asks for an account;
 * the request waits (PENDING) for a manager. Only when the site setting enable_user_self_signup is
 * on, and not for a logged-in session.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    body: z.object({
      email: z.string().max(FIELD_MAX_LENGTH.email, MESSAGES.emailFormat),
      first_name: z.string().max(FIELD_MAX_LENGTH.first_name, SIGNUP_TEXTS.nameTooLong),
      last_name: z.string().max(FIELD_MAX_LENGTH.last_name, SIGNUP_TEXTS.nameTooLong),
    }),
    handler: async ({ request, context, body }) => {
      const { db } = context.services.pg;
      if (!(await selfSignupEnabled(db))) return apiError(403, SIGNUP_TEXTS.disabled, { exception_code: "signup_disabled" });
      if (context.session.status === "LOGGED_IN") return apiError(400, SIGNUP_TEXTS.loggedIn);
      const limit = takeAnonymousCall("signup", request);
      if (!limit.allowed) return tooManyRequestsResponse(limit);
      const result = await createUserRequest(db, body);
      if (!result.ok) return apiError(400, result.detail, { errors: result.errors });
      return Response.json({ detail: SIGNUP_TEXTS.sent }, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
