import { runFlowsQuery } from "~/features/flows/query.server";
import { bodyIpVersion, flowsBodySchema, normalizeFilters } from "~/features/flows/request-schema";
import { PREDICTION_UNAVAILABLE } from "~/features/flows/prediction.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/flows/: the timeseries (bit/s per bucket, top N + Others) and the table of one
 * dimension. Access: API_FLOWS_4D, plus the dimension's own permission (400 without it).
 * Delegated users' restrictions are always applied as locked filters (runFlowsQuery).
 * shouldPredict: the timeseries also holds `prediction`, the next period (prediction.server.ts).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: flowsBodySchema,
    handler: async ({ context, user, body, version }) => {
      const notes: string[] = [];
      const result = await runFlowsQuery(context.services, user, version, {
        dimension: body.dimension,
        start: body.startTimestamp,
        end: body.endTimestamp,
        filters: normalizeFilters(body.filters),
        ipVersion: bodyIpVersion(body.ipVersion),
        window: body.window,
        topN: body.topN,
        limit: body.limit,
        predict: body.shouldPredict === true,
      });
      if (result.noData) {
        return {
          timeseries: result.timeseries,
          window: result.window,
          table: [],
          range: null,
          filters: result.filters,
          notices: result.notices,
          notes: [...notes, "No flow data."],
        };
      }
      const { noData: _noData, ...rest } = result;
      if (body.shouldPredict && !result.timeseries.prediction) notes.push(PREDICTION_UNAVAILABLE);
      return { ...rest, notes };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
