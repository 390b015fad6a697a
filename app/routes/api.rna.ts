import { queryOfBody, rnaBodySchema } from "~/features/rna/request-schema";
import { recordRnaRun } from "~/features/rna/history.server";
import { runRnaQuery } from "~/features/rna/query.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/rna/ (RAW_NETWORK_ANALYZER): one page of raw flow records (or prefix-aggregated groups)
 * of a range, filtered by dimension filters, raw-record kinds and an nfdump expression → RnaPage
 * (docs/rna.md, docs/api.md).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    body: rnaBodySchema,
    handler: async ({ context, user, body, request }) => {
      const query = queryOfBody(body);
      const page = await runRnaQuery(context.services, user, query, { signal: request.signal });
      void recordRnaRun(context.services, user, query, page);
      return Response.json(page, { headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
