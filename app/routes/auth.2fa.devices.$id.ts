import { z } from "zod";
import { int32IdText } from "~/lib/input-fields";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteDevice, rethrowForApi } from "~/server/auth/two-factor.server";

/**
 * DELETE auth/2fa/devices/{id}/: removes a device. The last confirmed one is refused (400) while 2FA
 * is mandatory, or while voluntary 2FA is still switched on (spec §5).
 */
const routes = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: "login",
    params: z.object({ id: int32IdText }),
    handler: async ({ context, user, params }) => {
      try {
        await deleteDevice(context.services.pg.db, user.id, params.id);
      } catch (error) {
        rethrowForApi(error);
      }
      return new Response(null, { status: 204 });
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
