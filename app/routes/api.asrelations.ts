import { asRelationsQuerySchema } from "~/features/asrelations/api";
import { asRelations } from "~/features/asrelations/relations.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/asrelations/?month (AS_RELATIONS, not delegable): every neighbour AS of the inventory with
 * its relation, links, PeeringDB facts and the declared and observed traffic ratio of the month.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "AS_RELATIONS" },
    query: asRelationsQuerySchema,
    handler: async ({ context, query }) =>
      Response.json(await asRelations(context.services, query.month), { headers: { "Cache-Control": "no-store" } }),
  }),
});

export const loader = route.loader;
export const action = route.action;
