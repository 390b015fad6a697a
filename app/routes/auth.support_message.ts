import { z } from "zod";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { submitSupportMessage, SUPPORT_REQUEST_TYPES } from "~/server/support-messages.server";

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
      const row = await submitSupportMessage(context.services.pg.db, user, body);
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
