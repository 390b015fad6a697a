/**
 * The planner tables' exports, from the same URL as the screen (plannedRows) so a file holds what
 * the table shows — every page, the chosen columns, the filters and the order — written through
 * the tools' one export path (features/shared/export/export-file.server.ts):
 * csv (with the user's delimiter), xls, xlsx; png and svg are an image of the table.
 * Numbers stay numbers: rates in bit/s, utilisations in percent. 400 "Table is empty, nothing to export"
 * when no link is left.
 */
import { z } from "zod";
import { exportResponse, imageFile, sheetFile, type ExportFile } from "~/features/shared/export/export-file.server";
import { tableSvg } from "~/features/shared/export/table-svg.server";
import { EXPORT_FORMATS, exportFilePrefix, isExportFormat, TABLE_FORMATS, unsupportedFormat, type ExportFormat } from "~/lib/export-files";
import { formatUnix, DATE_FORMATS } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import type { Sheet, SheetColumn } from "~/lib/sheet";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { cellText } from "./cells";
import { findColumn, type ScreenKind } from "./columns";
import { plannedRows } from "./screen.server";
import type { LinkPlan } from "./types";

const SCREENS: Record<ScreenKind, { title: string; slug: string }> = {
  border: { title: "Border Planner", slug: "border-planner" },
  core: { title: "Core Planner", slug: "core-planner" },
};

/** A sheet column and its cell: numbers for rate and utilisation columns (their unit in the header), text otherwise. */
function sheetColumn(screen: ScreenKind, id: string): { column: SheetColumn; cell: (p: LinkPlan) => string | number } {
  const def = findColumn(screen, id)!;
  const label = def.label[screen];
  if (def.kind === "bps") return { column: { header: `${label} (bit/s)`, kind: "number" }, cell: (p) => round(def.value(p), 0) };
  if (def.kind === "percent" || def.kind === "ratio")
    return { column: { header: `${label} (%)`, kind: "number" }, cell: (p) => round(def.value(p), 2) };
  return { column: { header: label, kind: "text" }, cell: (p) => cellText(screen, p, id) };
}

/** Missing figures are empty cells, not zeros. */
const round = (v: number | string | null, digits: number) => (typeof v === "number" ? Number(v.toFixed(digits)) : "");

export function plannerSheet(screen: ScreenKind, plans: readonly LinkPlan[], columns: readonly string[]): Sheet {
  const cols = columns.map((c) => sheetColumn(screen, c));
  return { title: SCREENS[screen].title, columns: cols.map((c) => c.column), rows: plans.map((p) => cols.map((c) => c.cell(p))) };
}

export async function buildPlannerExport(
  services: Services,
  user: UserContext,
  screen: ScreenKind,
  url: URL,
  format: ExportFormat,
): Promise<ExportFile> {
  const { params, range, viewer, shown } = await plannedRows(services, user, screen, url);
  if (!shown.length) throw new ApiProblem(400, { detail: MESSAGES.emptyTableExport });
  const sheet = plannerSheet(screen, shown, params.columns);
  const day = (t: number) => formatUnix(t, viewer.timezone, DATE_FORMATS.compact);
  const filename = `${exportFilePrefix(SCREENS[screen].slug)}links_${day(range.start)}-${day(range.end - 1)}.${format}`;
  if (TABLE_FORMATS.includes(format)) {
    return sheetFile(sheet, format as "csv" | "xls" | "xlsx", viewer.settings.csv_delimiter, filename);
  }
  return imageFile(tableSvg(sheet), format as "png" | "svg", filename);
}

/**
 * GET /border-planner/export and /core-planner/export ?<the screen's search params>&format=csv|xls|xlsx|png|svg:
 * the planner's link table as a file (every page, the chosen columns, filters and order), with the
 * screen's permission. 400 for an unsupported format or "Table is empty, nothing to export".
 */
export function plannerExportRoute(screen: ScreenKind) {
  return resourceRoute({
    GET: endpoint({
      method: "GET",
      access: { permission: screen === "border" ? "FRONTEND_LINK_UTIL_EXTERNAL" : "API_LINK_UTIL_INTERNAL" },
      query: z.object({
        format: z
          .string()
          .optional()
          .refine((f) => f === undefined || isExportFormat(f), { error: (issue) => unsupportedFormat(String(issue.input)) }),
      }),
      handler: async ({ request, context, user, query }) => {
        const format = query.format && isExportFormat(query.format) ? query.format : EXPORT_FORMATS[0];
        return exportResponse(await buildPlannerExport(context.services, user, screen, new URL(request.url), format));
      },
    }),
  });
}
