import { getDimension } from "~/features/flows/dimensions";
import { bodyIpVersion, flowsBodySchema, normalizeFilters } from "~/features/flows/request-schema";
import { flowTable, flowTimeseries, MAX_BUCKETS, requireDimension, resolveFilters, resolveRange } from "~/features/flows/service.server";
import { defaultWindow, type AggregationWindow } from "~/features/flows/time";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/flows/: the timeseries (bit/s per bucket, top N + Others) and the table of one
 * dimension. Access: API_FLOWS_4D, plus the dimension's own permission (400 without it).
 * Delegated users' restrictions are always applied as locked filters.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: flowsBodySchema,
    handler: async ({ context, user, body, version }) => {
      const stores = context.services;
      const dimension = requireDimension(user!, version, body.dimension, "dimension");
      const resolved = await resolveFilters(stores, user!, version, normalizeFilters(body.filters));
      const notes: string[] = [];
      if (body.shouldPredict) notes.push("shouldPredict: prediction is not available; the timeseries holds measured values only.");
      const range = await resolveRange(stores, body.startTimestamp, body.endTimestamp);
      const filters = resolved.filters.map((f) => ({ dimension: f.dimension, value: f.value, isNegation: f.isNegation, locked: f.locked ?? false }));
      if (!range) {
        return { timeseries: { buckets: [], series: [] }, window: body.window ?? null, table: [], range: null, filters, notices: resolved.notices, notes: [...notes, "No flow data."] };
      }
      const window: AggregationWindow = body.window ?? defaultWindow(range);
      if ((range.end - range.start) / window > MAX_BUCKETS) {
        throw new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field: "window", message: `The window is too small for the range (more than ${MAX_BUCKETS} buckets).` }] });
      }
      const q = { range, filters: resolved.filters, operatorAsn: resolved.operatorAsn, ipVersion: bodyIpVersion(body.ipVersion), window };
      const [timeseries, table] = await Promise.all([flowTimeseries(stores, dimension, { ...q, topN: body.topN }), flowTable(stores, dimension, { ...q, limit: body.limit })]);
      return {
        dimension: { id: dimension, label: getDimension(dimension).label },
        timeseries,
        window,
        table,
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
