import { z } from "zod";
import { supportMessages } from "~db/postgres/schema";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { sendMail } from "~/server/mail/mailer.server";

const SUPPORT_REQUEST_TYPES = ["BUG", "HELP", "FEEDBACK", "NEW_USER", "FEATURE_REQUEST"] as const;

/**
 * POST auth/support_message/ {type, message}: stored in support_messages and, when SUPPORT_EMAIL is
 * set, mailed to that address (reply-to is the sender, named in the text).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    body: z.object({
      type: z.enum(SUPPORT_REQUEST_TYPES),
      message: z.string().trim().min(1, "Please write a message.").max(10_000),
    }),
    handler: async ({ context, user, body }) => {
      const { db } = context.services.pg;
      const [row] = await db.insert(supportMessages).values({ userId: user.id, type: body.type, message: body.message }).returning();
      const supportAddress = process.env.SUPPORT_EMAIL?.trim();
      if (supportAddress) {
        const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
        await sendMail(
          db,
          {
            to: supportAddress,
            subject: `[flowlens ${body.type}] support message #${row.id} from ${name}`,
            text: [
              `From: ${name} <${user.email}> (user #${user.id})`,
              `Type: ${body.type}`,
              `Sent: ${row.createdAt.toISOString()}`,
              "",
              body.message,
            ].join("\n"),
          },
          { background: true },
        );
      }
      return Response.json(
        { id: row.id, type: row.type, message: row.message, created_at: row.createdAt.toISOString() },
        { status: 201, headers: { "Cache-Control": "no-store" } },
      );
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
