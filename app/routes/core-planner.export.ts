import { z } from "zod";
import { buildPlannerExport } from "~/features/planners/export.server";
import { exportResponse } from "~/features/shared/export/export-file.server";
import { EXPORT_FORMATS, isExportFormat, unsupportedFormat } from "~/lib/export-files";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET /core-planner/export?<the screen's search params>&format=csv|xls|xlsx|png|svg: the Core Planner's
 * link table as a file (every page, the chosen columns, filters and order). Access: API_LINK_UTIL_INTERNAL.
 * 400 for an unsupported format or "Table is empty, nothing to export".
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_LINK_UTIL_INTERNAL" },
    query: z.object({
      format: z
        .string()
        .optional()
        .refine((f) => f === undefined || isExportFormat(f), { error: (issue) => unsupportedFormat(String(issue.input)) }),
    }),
    handler: async ({ request, context, user, query }) => {
      const format = query.format && isExportFormat(query.format) ? query.format : EXPORT_FORMATS[0];
      return exportResponse(await buildPlannerExport(context.services, user, "core", new URL(request.url), format));
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
