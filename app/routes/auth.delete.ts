import { and, count, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { loginAttempts, mappings, outboxEmails, styles, users } from "~db/postgres/schema";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { destroySession } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { verifyPassword } from "~/server/password.server";

const WRONG_PASSWORD = "The password is incorrect.";
const LAST_SUPERUSER = "You are the last superuser: your account cannot be deleted until there is another one.";

/**
 * POST auth/delete/ {password}: deletes the caller's own account after the password is entered
 * again, together with the personal data kept beside it (sessions, settings, tokens and devices go
 * with the row; personal styles and mappings, login attempts and mail are removed here). The last
 * active superuser cannot delete themselves.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    allowWithoutConsent: true,
    body: z.object({ password: z.string().max(10_000) }),
    handler: async ({ request, context, user, body }) => {
      const { db } = context.services.pg;
      const [account] = await db.select().from(users).where(eq(users.id, user.id));
      if (!account || !(await verifyPassword(body.password, account.passwordHash))) {
        return apiError(400, WRONG_PASSWORD, {
          exception_code: "wrong_password",
          errors: [{ field: "password", message: WRONG_PASSWORD }],
        });
      }
      const refused = await db.transaction(async (tx) => {
        if (account.isSuperuser) {
          // Serialise concurrent deletions of superusers: two of the last two must not both succeed.
          await tx.execute(sql`SELECT id FROM users WHERE is_superuser FOR UPDATE`);
          const [{ n }] = await tx
            .select({ n: count() })
            .from(users)
            .where(and(eq(users.isSuperuser, true), eq(users.isActive, true), ne(users.id, account.id)));
          if (Number(n) === 0) return true;
        }
        await tx.delete(styles).where(eq(styles.ownerUserId, account.id));
        await tx.delete(mappings).where(eq(mappings.ownerUserId, account.id));
        await tx.delete(loginAttempts).where(eq(sql`lower(${loginAttempts.email})`, account.email.toLowerCase()));
        await tx.delete(outboxEmails).where(eq(sql`lower(${outboxEmails.to})`, account.email.toLowerCase()));
        await tx.delete(users).where(eq(users.id, account.id));
        return false;
      });
      if (refused) return apiError(400, LAST_SUPERUSER, { exception_code: "last_superuser" });
      log.info(`user #${account.id} deleted their own account`);
      const headers = await destroySession(db, context.services.config.sessionSecret, request, null);
      headers.set("Cache-Control", "no-store");
      return Response.json({ detail: "Your account has been deleted." }, { headers });
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
