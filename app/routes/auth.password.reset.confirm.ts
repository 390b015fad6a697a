import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { confirmReset, RESET_TEXTS } from "~/server/auth/password-reset.server";
import { destroySession } from "~/server/auth/session.server";

/** The new password in `password` (the documented name) or `new_password` (also accepted); both given must agree. */
const Confirm = z
  .object({ token: z.string().max(200), password: z.string().max(10_000).optional(), new_password: z.string().max(10_000).optional() })
  .refine((b) => b.password !== undefined || b.new_password !== undefined, { message: "Enter the new password.", path: ["password"] })
  .refine((b) => b.password === undefined || b.new_password === undefined || b.password === b.new_password, {
    message: "password and new_password differ: send the new password once.",
    path: ["new_password"],
  });

/**
 * POST auth/password/reset/confirm/ {token, password} (or new_password): sets the password with a
 * mailed token (single use; one hour, 72 hours for an invitation). Every session of the account
 * ends; this one's cookies are cleared if it belonged to the account.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    body: Confirm,
    handler: async ({ request, context, body }) => {
      const { db } = context.services.pg;
      const passwordField = body.password !== undefined ? "password" : "new_password";
      const result = await confirmReset(db, body.token, body.password ?? body.new_password ?? "");
      if (!result.ok) {
        const field = result.reason === "token" ? "token" : passwordField;
        return apiError(400, result.message, {
          exception_code: result.reason === "token" ? "token_invalid" : undefined,
          errors: [{ field, message: result.message }],
        });
      }
      const headers = new Headers({ "Cache-Control": "no-store" });
      if (context.session.user?.id === result.userId) {
        const cleared = await destroySession(db, context.services.config.sessionSecret, request, context.session.idHash);
        for (const cookie of cleared.getSetCookie()) headers.append("Set-Cookie", cookie);
      }
      return Response.json({ detail: RESET_TEXTS.done }, { headers });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
