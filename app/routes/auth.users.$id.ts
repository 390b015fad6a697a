import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { updateUserBody } from "~/lib/user-admin-request";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";
import { deleteUser, updateUser, UserAdminError } from "~/server/auth/user-admin.server";

/**
 * PUT auth/users/{id}/ (staff and superusers): changes the fields given, also is_active (false ends
 * the account's sessions, API tokens and unfinished jobs); another account's new e-mail address only
 * with everything the account holds (the service's rule). DELETE auth/users/{id}/: deletes the
 * account. Delegated accounts are refused (409: the Delegated Users calls manage them).
 */
// Any id beyond a PostgreSQL integer names no account: 404 like a missing one.
const params = z.object({ id: z.string() }).transform((p) => ({ id: int32IdText.safeParse(p.id).data ?? null }));

const refusal = (error: unknown) => {
  if (error instanceof UserAdminError) return apiError(error.status, error.detail, error.errors.length ? { errors: error.errors } : {});
  throw error;
};

const route = resourceRoute({
  PUT: endpoint({
    method: "PUT",
    access: { permission: "VIEW_USERS" },
    params,
    body: updateUserBody,
    handler: async ({ request, context, user, params, body }) => {
      // An id that names no account is refused like a missing one, after the staff check (id 0 never exists).
      return updateUser(context.services.pg.db, user, params.id ?? 0, body, { clientAddress: clientAddress(request) }).catch(refusal);
    },
  }),
  DELETE: endpoint({
    method: "DELETE",
    access: { permission: "VIEW_USERS" },
    params,
    handler: async ({ request, context, user, params }) => {
      return deleteUser(context.services.pg.db, user, params.id ?? 0, { clientAddress: clientAddress(request) })
        .then((gone) => ({ deleted: gone.id }))
        .catch(refusal);
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
