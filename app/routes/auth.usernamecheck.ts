import { z } from "zod";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { emailTaken } from "~/server/auth/user-requests.server";

/**
 * POST auth/usernamecheck/ {username}: whether the name (the e-mail address: it is the login) is
 * well-formed and still free — no account and no pending request has it.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "public",
    body: z.object({ username: z.string().max(1000) }),
    handler: async ({ context, body }) => {
      const username = normalizeEmail(body.username);
      const valid = isValidEmail(username);
      const available = valid && !(await emailTaken(context.services.pg.db, username));
      return { available, valid };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
