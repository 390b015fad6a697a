import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteOwnAccount } from "~/server/auth/account-deletion.server";
import { destroySession } from "~/server/auth/session.server";
import { log } from "~/server/log.server";

const WRONG_PASSWORD = "The password is incorrect.";
const LAST_SUPERUSER = "You are the last superuser: your account cannot be deleted until there is another one.";

/**
 * POST auth/delete/ {password}: deletes the caller's own account, and the personal data kept beside
 * it, after the password is entered again (account-deletion.server). The last active superuser
 * cannot delete themselves.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    allowWithoutConsent: true,
    body: z.object({ password: z.string().max(10_000) }),
    handler: async ({ request, context, user, body }) => {
      const { db } = context.services.pg;
      const deletion = await deleteOwnAccount(db, user.id, body.password);
      if (!deletion.deleted && deletion.reason === "wrong_password") {
        return apiError(400, WRONG_PASSWORD, {
          exception_code: "wrong_password",
          errors: [{ field: "password", message: WRONG_PASSWORD }],
        });
      }
      if (!deletion.deleted) return apiError(400, LAST_SUPERUSER, { exception_code: "last_superuser" });
      log.info(`user #${user.id} deleted their own account`);
      const headers = await destroySession(db, context.services.config.sessionSecret, request, null);
      headers.set("Cache-Control", "no-store");
      return Response.json({ detail: "Your account has been deleted." }, { headers });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
