import { z } from "zod";
import { buildFlowExport } from "~/features/flows/export/flow-export.server";
import { exportResponse } from "~/features/shared/export/export-file.server";
import { EXPORT_FORMATS, isExportFormat, unsupportedFormat } from "~/lib/export-files";
import { accessProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

const querySchema = z.object({
  // Absent: csv, what the first version of this endpoint always answered.
  format: z
    .string()
    .optional()
    .refine((f) => f === undefined || isExportFormat(f), { error: (issue) => unsupportedFormat(String(issue.input)) }),
  // The AS Flows Egress screen's export: egress traffic only.
  scope: z.enum(["EGRESS"], { error: "scope must be EGRESS or absent." }).optional(),
});

/**
 * GET api/flows/export?<the screen's search params>&format=csv|xls|xlsx|png|svg: the table (csv with
 * the user's delimiter, xls, xlsx) or the chart (svg, png) of the Flow Explorer as a file download.
 * Access: API_FLOWS_4D, and FLOWS_EGRESS for scope=EGRESS (403 without); restrictions and dimension permissions apply as on the screen. 400 for an
 * unsupported format (naming the formats), a pivoted table, or "Table is empty, nothing to export".
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: querySchema,
    handler: async ({ request, context, user, query }) => {
      // Egress traffic is the AS Flows Egress screen's, behind its own permission.
      if (query.scope === "EGRESS" && !user.permissions.includes("FLOWS_EGRESS")) throw accessProblem("permission_denied", context);
      const format = query.format && isExportFormat(query.format) ? query.format : EXPORT_FORMATS[0];
      const file = await buildFlowExport(context.services, user, new URL(request.url), format, query.scope);
      return exportResponse(file);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
