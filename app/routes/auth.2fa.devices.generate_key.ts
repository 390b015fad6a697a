import { z } from "zod";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { generateKey } from "~/server/auth/two-factor.server";

/**
 * GET auth/2fa/devices/generate_key/[?name=…]: a new unconfirmed TOTP device — its id, the base32
 * secret, the otpauth:// URI and a QR code of it (PNG data URL). Confirm it with POST auth/2fa/devices/.
 */
const routes = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    query: z.object({ name: z.string().max(64).optional() }),
    handler: async ({ context, user, query }) => {
      const key = await generateKey(context.services.pg.db, user.id, query.name);
      return { id: key.id, name: key.name, secret: key.secret, otpauth_uri: key.otpauthUri, qr_code: key.qrDataUrl };
    },
  }),
});

// Separate exports: the Remix client build strips `loader`/`action` only when each is its own declarator.
export const loader = routes.loader;
export const action = routes.action;
