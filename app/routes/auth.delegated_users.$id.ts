import { z } from "zod";
import { deleteForApi, getForApi, patchForApi } from "~/features/users/delegated-users/delegated-users-api.server";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clientAddress } from "~/server/auth/session.server";

const idOf = (raw: string | undefined) => z.coerce.number().int().min(1).max(2_147_483_647).safeParse(raw);

/**
 * GET, PATCH, DELETE auth/delegated_users/{id}/: one delegated account the caller manages (another
 * manager's, or no delegated account: 404). PATCH changes the fields it names; DELETE ends the
 * account's access and removes it (204).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ request, params, context, user }) => {
      const id = idOf(params.id);
      if (!id.success) return apiError(404, "Not found.");
      return getForApi({ services: context.services, user, clientAddress: clientAddress(request) }, id.data);
    },
  }),
  PATCH: endpoint({
    method: "PATCH",
    access: "login",
    handler: async ({ request, params, context, user, body }) => {
      const id = idOf(params.id);
      if (!id.success) return apiError(404, "Not found.");
      return patchForApi({ services: context.services, user, clientAddress: clientAddress(request) }, id.data, body);
    },
  }),
  DELETE: endpoint({
    method: "DELETE",
    access: "login",
    handler: async ({ request, params, context, user }) => {
      const id = idOf(params.id);
      if (!id.success) return apiError(404, "Not found.");
      await deleteForApi({ services: context.services, user, clientAddress: clientAddress(request) }, id.data);
      return new Response(null, { status: 204 });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
