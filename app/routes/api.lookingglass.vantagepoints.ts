import { requireLookingGlassVariant, vantagePointRouters } from "~/features/routing/lookingglass.server";
import { listVantagePoints } from "~/features/routing/vantage-points.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/lookingglass/vantagepoints/: the vantage points the caller may query — every one for
 * logged-in users with PRIVATE_LOOKING_GLASS, the public ones for anybody else while the public
 * Looking Glass is on — with their display names; for a delegated user only those of the routers
 * in their routerList (none when it is empty).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "public",
    handler: async ({ context, user }) => {
      const variant = await requireLookingGlassVariant(context, user);
      const routers = await vantagePointRouters(context.services, user);
      return Response.json(await listVantagePoints(context.services, { variant, routers }), { headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
