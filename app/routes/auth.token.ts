import { z } from "zod";
import { singleLineText } from "~/lib/input-fields";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { createApiToken, listApiTokens } from "~/server/auth/api-tokens.server";

/**
 * POST auth/token/ {name}: a new API token for the calling user (shown once), for scripts that
 * send "Authorization: Token <key>" instead of a session cookie. GET lists the user's tokens.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "DEVELOPER_API_TOKEN" },
    handler: async ({ context, user }) => ({ tokens: await listApiTokens(context.services.pg.db, user.id) }),
  }),
  POST: endpoint({
    method: "POST",
    access: { permission: "DEVELOPER_API_TOKEN" },
    body: z.object({ name: singleLineText(100).trim().default("") }),
    handler: async ({ context, user, body }) => {
      const { id, token } = await createApiToken(context.services.pg.db, user.id, body.name);
      return Response.json({ id, name: body.name, token }, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
