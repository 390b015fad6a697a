import { normalizeRnaFilters, pageKeys, rnaTimeseriesBodySchema } from "~/features/rna/request-schema";
import { runRnaTimeseries } from "~/features/rna/timeseries.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/rna/timeseries/ (RAW_NETWORK_ANALYZER): bit/s per bucket of the current page's rows,
 * one series per value of groupedColumn. currentPageData is read only as a set of row keys; the
 * filters and the caller's restriction are applied again (timeseries.server.ts).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    body: rnaTimeseriesBodySchema,
    handler: async ({ context, user, body }) =>
      Response.json(
        await runRnaTimeseries(context.services, user, {
          query: {
            start: body.epochStart,
            end: body.epochEnd,
            filters: normalizeRnaFilters(body.filters),
            expression: body.filterExpression,
            aggregation: body.aggregationPrefixes,
            includeCopies: body.includeCopies,
          },
          groupedColumn: body.groupedColumn,
          keys: pageKeys(body.currentPageData),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  }),
});

export const loader = route.loader;
export const action = route.action;
