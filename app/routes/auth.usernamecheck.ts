import { z } from "zod";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { takeAnonymousCall, tooManyRequestsResponse } from "~/server/auth/anonymous-limits.server";
import { emailTaken, selfSignupEnabled, SIGNUP_TEXTS } from "~/server/auth/user-requests.server";
import { FIELD_MAX_LENGTH } from "~/server/request-body.server";

/** Users who create accounts themselves need the answer without limits. */
const ACCOUNT_MANAGERS = ["VIEW_USERS", "MANAGE_DELEGATED_USERS"] as const;

/**
 * POST auth/usernamecheck/ {username}: whether the name (the e-mail address: it is the login) is
 * well-formed and still free — no account and no pending request has it. It tells whether an
 * address has an account, so it answers only where that is needed: account managers, and the
 * signup form while self-signup is on (then limited per client, 429 with Retry-After). Anybody
 * else gets 403.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "session",
    body: z.object({ username: z.string().max(FIELD_MAX_LENGTH.username) }),
    handler: async ({ request, context, user, body }) => {
      const { db } = context.services.pg;
      const manager = user !== null && ACCOUNT_MANAGERS.some((p) => user.permissions.includes(p));
      if (!manager) {
        if (!(await selfSignupEnabled(db))) return apiError(403, SIGNUP_TEXTS.disabled, { exception_code: "signup_disabled" });
        const limit = takeAnonymousCall("usernameCheck", request);
        if (!limit.allowed) return tooManyRequestsResponse(limit);
      }
      const username = normalizeEmail(body.username);
      const valid = isValidEmail(username);
      const available = valid && !(await emailTaken(db, username));
      return { available, valid };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
