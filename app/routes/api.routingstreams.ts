import { asnQuerySchema } from "~/features/routing/peeringdb/api";
import { routingStreams } from "~/features/routing/streams/streams.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/routingstreams/?asn (AS_RELATIONS): the prefixes the AS originates in the current routing
 * tables, and through which neighbours and paths each vantage point receives them, with counts;
 * 400 for a bad AS number. An AS no route has answers empty lists.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "AS_RELATIONS" },
    query: asnQuerySchema,
    handler: async ({ context, query }) =>
      Response.json(await routingStreams(context.services, query.asn), { headers: { "Cache-Control": "no-store" } }),
  }),
});

export const loader = route.loader;
export const action = route.action;
