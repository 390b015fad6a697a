import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";
import { createUser, listUsers, USER_ADMIN_TEXTS, UserAdminError } from "~/server/auth/user-admin.server";
import { createUserBody, userListQuery } from "~/lib/user-admin-request";

/**
 * GET auth/users/?search=&sort=&page=&page_size= (VIEW_USERS): the accounts, paged, never a password
 * hash. POST auth/users/ (staff and superusers): a new account without a password; the address is
 * mailed an invitation to choose one (single-use link, 72 hours).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "VIEW_USERS" },
    query: userListQuery,
    handler: async ({ context, query, user }) =>
      user.isDelegated
        ? apiError(403, USER_ADMIN_TEXTS.delegatedCaller)
        : listUsers(context.services.pg.db, { search: query.search, sort: query.sort, page: query.page, pageSize: query.page_size }),
  }),
  POST: endpoint({
    method: "POST",
    access: { permission: "VIEW_USERS" },
    body: createUserBody,
    handler: async ({ request, context, user, body }) => {
      try {
        const created = await createUser(context.services.pg.db, user, body, { clientAddress: clientAddress(request) });
        return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
      } catch (error) {
        if (error instanceof UserAdminError)
          return apiError(error.status, error.detail, error.errors.length ? { errors: error.errors } : {});
        throw error;
      }
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
