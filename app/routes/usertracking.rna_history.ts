import { rnaHistoryPage } from "~/features/rna/history.server";
import { rnaHistoryQueryParams } from "~/features/rna/history-schema";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET usertracking/rna_history/?page=n (RAW_NETWORK_ANALYZER): the caller's own last Raw Network
 * Analyzer queries, newest first, a page at a time, each with its re-run link and a notice when
 * its range has left the raw flows' retention.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    query: rnaHistoryQueryParams,
    handler: async ({ context, user, query }) => rnaHistoryPage(context.services, user, query.page ?? 1),
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
