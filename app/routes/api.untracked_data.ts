import { runUntracked, untrackedBodySchema } from "~/features/flows/analysis.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/untracked_data/: the share of the traffic of an AS dimension that the aggregates carry
 * as Untracked (-999), Others (-101: outside the tracked top 200) and Not routable (-1), per
 * bucket and over the range. Access: API_FLOWS_4D plus the dimension's permission.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: untrackedBodySchema,
    handler: async ({ context, user, body, version }) => runUntracked(context.services, user, version, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
