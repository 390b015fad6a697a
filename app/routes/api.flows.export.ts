import { tableToCsv, csvFilename } from "~/features/flows/csv";
import { loadExplorer } from "~/features/flows/explorer.server";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

export const EMPTY_TABLE_MESSAGE = "Table is empty, nothing to export";

/**
 * GET api/flows/export?<the Flow Explorer's search params>: the table of the screen as CSV, with the
 * user's CSV delimiter (user_settings, default ","). Access: API_FLOWS_4D; restrictions and
 * dimension permissions apply as on the screen. An empty table is a 400 with EMPTY_TABLE_MESSAGE.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    handler: async ({ request, context, user }) => {
      const url = new URL(request.url);
      // scope=EGRESS: the AS Flows Egress screen's table (egress traffic only).
      const scope = url.searchParams.get("scope") === "EGRESS" ? ("EGRESS" as const) : undefined;
      const data = await loadExplorer(context.services, user!, url, { tableOnly: true, scope });
      if (!data.flows || !data.dimension || !data.flows.range || data.flows.table.length === 0) {
        throw new ApiProblem(400, { detail: EMPTY_TABLE_MESSAGE });
      }
      const csv = tableToCsv(data.flows.table, data.csvDelimiter);
      return new Response(csv, {
        status: 200,
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${csvFilename(data.dimension.id, data.flows.range.start, data.flows.range.end)}"`,
          "Cache-Control": "no-store",
        },
      });
    },
  }),
});

export const loader = route.loader;
