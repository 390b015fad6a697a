import { createForApi, listForApi, listQuerySchema } from "~/features/users/delegated-users/delegated-users-api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";

/**
 * GET auth/delegated_users/[?q&page]: the delegated accounts the caller manages (their own with
 * MANAGE_DELEGATED_USERS; all for staff and superusers), 25 a page. POST: a new delegated account
 * (invited by mail to choose its password). docs/api.md and docs/delegated-users.md.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    query: listQuerySchema,
    handler: ({ request, context, user, query }) =>
      listForApi({ services: context.services, user, clientAddress: clientAddress(request) }, query),
  }),
  POST: endpoint({
    method: "POST",
    access: "login",
    handler: async ({ request, context, user, body }) => {
      const made = await createForApi({ services: context.services, user, clientAddress: clientAddress(request) }, body);
      return Response.json(made, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
