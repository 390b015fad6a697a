import { runSankeyQuery } from "~/features/flows/query.server";
import { bodyIpVersion, normalizeFilters, sankeyBodySchema } from "~/features/flows/request-schema";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/sankey/ (spec version 3 body): nodes per (dimension, key) and links between
 * consecutive dimensions in bit/s over the range. Access: API_FLOWS_4D and SANKEY_TOPOLOGY, plus
 * each dimension's permission. `aggregations`, `linkFilter` and `whitelist` are accepted but not applied (listed
 * in `notes`); `topN` (default 10) sets the values kept per dimension before folding into Others.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D", also: ["SANKEY_TOPOLOGY"] },
    // The spec's client numbers this call on its own and sends version 3 (answered as 17); others send 13–17.
    alsoVersions: [3],
    body: sankeyBodySchema,
    handler: async ({ context, user, body, version }) => {
      const notes = (["aggregations", "linkFilter", "whitelist"] as const)
        .filter((k) => body[k] !== undefined)
        .map((k) => `${k}: accepted but not applied.`);
      const result = await runSankeyQuery(context.services, user, version, {
        dimensions: body.dimensions,
        start: body.startTimestamp,
        end: body.endTimestamp,
        filters: normalizeFilters(body.filters),
        ipVersion: bodyIpVersion(body.ipVersion),
        topN: body.topN,
      });
      if (result.noData)
        return { nodes: [], links: [], range: null, filters: result.filters, notices: result.notices, notes: [...notes, "No flow data."] };
      return { nodes: result.nodes, links: result.links, range: result.range, filters: result.filters, notices: result.notices, notes };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
