import { asnQuerySchema } from "~/features/routing/peeringdb/api";
import { peeringDbNetwork } from "~/features/routing/peeringdb/lookup.server";
import { MESSAGES } from "~/lib/messages";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/peering_db/?asn (AS_RELATIONS): what the last PeeringDB import says of that AS; 400 for
 * a bad AS number, 404 with the spec's message when PeeringDB does not know it (or nothing was imported).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "AS_RELATIONS" },
    query: asnQuerySchema,
    handler: async ({ context, query }) => {
      const network = await peeringDbNetwork(context.services, query.asn);
      if (!network) return apiError(404, MESSAGES.peeringDbNotFound);
      return Response.json(network, { headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
