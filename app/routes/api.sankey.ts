import { getDimension, type DimensionId } from "~/features/flows/dimensions";
import { bodyIpVersion, normalizeFilters, sankeyBodySchema } from "~/features/flows/request-schema";
import { flowSankey, requireDimension, resolveFilters, resolveRange } from "~/features/flows/service.server";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/sankey/ (spec version 3 body): nodes per (dimension, key) and links between
 * consecutive dimensions in bit/s over the range. Access: API_FLOWS_4D plus each dimension's
 * permission. `aggregations`, `linkFilter` and `whitelist` are accepted but not applied (listed
 * in `notes`); `topN` (default 10) sets the values kept per dimension before folding into Others.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: sankeyBodySchema,
    handler: async ({ context, user, body, version }) => {
      const stores = context.services;
      const dimensions: DimensionId[] = body.dimensions.map((d, i) => requireDimension(user!, version, d, `dimensions.${i}`));
      const directions = new Set(dimensions.map((d) => getDimension(d).direction).filter((d) => d !== null));
      if (directions.size > 1) {
        throw new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field: "dimensions", message: "Ingress and egress dimensions cannot be combined in one chart." }] });
      }
      const resolved = await resolveFilters(stores, user!, version, normalizeFilters(body.filters));
      const notes = (["aggregations", "linkFilter", "whitelist"] as const)
        .filter((k) => body[k] !== undefined)
        .map((k) => `${k}: accepted but not applied.`);
      const filters = resolved.filters.map((f) => ({ dimension: f.dimension, value: f.value, isNegation: f.isNegation, locked: f.locked ?? false }));
      const range = await resolveRange(stores, body.startTimestamp, body.endTimestamp);
      if (!range) return { nodes: [], links: [], range: null, filters, notices: resolved.notices, notes: [...notes, "No flow data."] };
      const result = await flowSankey(stores, dimensions, {
        range,
        filters: resolved.filters,
        operatorAsn: resolved.operatorAsn,
        ipVersion: bodyIpVersion(body.ipVersion),
        topN: body.topN,
      });
      return {
        nodes: result.nodes,
        links: result.links,
        range: { start: range.start, end: range.end, adjusted: range.adjusted, requested: range.requested },
        filters,
        notices: resolved.notices,
        notes,
      };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
