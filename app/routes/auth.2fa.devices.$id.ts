import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { deleteDevice, rethrowForApi } from "~/server/auth/two-factor.server";

const DeviceId = z.coerce.number().int().positive();

/**
 * DELETE auth/2fa/devices/{id}/: removes a device. The last confirmed one is refused (400) while 2FA
 * is mandatory, or while voluntary 2FA is still switched on (spec §5).
 */
const routes = resourceRoute({
  DELETE: endpoint({
    method: "DELETE",
    access: "login",
    handler: async ({ context, user, params }) => {
      const id = DeviceId.safeParse(params.id);
      if (!id.success) return apiError(400, "Invalid device id.", { errors: [{ field: "id", message: "a positive integer is required" }] });
      try {
        await deleteDevice(context.services.pg.db, user!.id, id.data);
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
