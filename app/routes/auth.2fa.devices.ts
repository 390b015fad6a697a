import { z } from "zod";
import { int32Id, int32IdText } from "~/lib/input-fields";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { confirmDevice, listDevices, rethrowForApi } from "~/server/auth/two-factor.server";

/**
 * GET auth/2fa/devices/: the user's confirmed TOTP devices.
 * POST auth/2fa/devices/ {id, code}: confirms a device from generate_key/ with a code from the app.
 */
const routes = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context, user }) => {
      const devices = await listDevices(context.services.pg.db, user.id);
      return devices.map((d) => ({ id: d.id, name: d.name, confirmed: d.confirmed, created_at: d.createdAt.toISOString() }));
    },
  }),
  POST: endpoint({
    method: "POST",
    access: "login",
    body: z.object({ id: z.union([int32Id, int32IdText]), code: z.string().trim().min(1, "required").max(32) }),
    handler: async ({ context, user, body }) => {
      try {
        const device = await confirmDevice(context.services.pg.db, user.id, body.id, body.code);
        return { id: device.id, name: device.name, confirmed: device.confirmed, created_at: device.createdAt.toISOString() };
      } catch (error) {
        rethrowForApi(error);
      }
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
