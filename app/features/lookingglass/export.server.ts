/**
 * Looking Glass exports (spec §2, §9): the table of a query — given by the screen's URL state —
 * as csv, xls or xlsx (both variants) or as a PNG image of the table (private variant). The query
 * runs again on the server from the URL, so an export link works without JavaScript. The sheet and
 * the csv/xls/xlsx/png writers are the shared ones (~/lib/sheet-csv, features/shared/export).
 */
import { vantagePointRouters } from "~/features/routing/lookingglass.server";
import { listVantagePoints } from "~/features/routing/vantage-points.server";
import { ApiProblem } from "~/server/api/contract.server";
import { refusedVantagePoints } from "./page.server";
import { svgToPng } from "~/features/shared/export/png.server";
import { writeXls, writeXlsx } from "~/features/shared/export/spreadsheet.server";
import { tableSvg } from "~/features/shared/export/table-svg.server";
import { CONTENT_TYPES, exportFilePrefix } from "~/lib/export-files";
import { sheetToCsv } from "~/lib/sheet-csv";
import { formatDateCompact } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import { isNetcommandType } from "~/lib/routing-query-types";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { resultsSheet } from "./columns";
import { loadLookingGlassPage } from "./page.server";
import { flattenRunRows } from "./run-rows";
import { parseQueryType } from "./url-state";

export const LOOKING_GLASS_EXPORT_FORMATS = { public: ["csv", "xls", "xlsx"], private: ["csv", "xls", "xlsx", "png"] } as const;
export type LookingGlassExportFormat = "csv" | "xls" | "xlsx" | "png";
/** The spec's default CSV delimiter of this area (§9): the public page's, which has no user settings. */
export const CSV_DELIMITER = ";";
export const EXPORT_FILE_PREFIX = exportFilePrefix("lookingglass");

export class ExportInputError extends Error {}

export async function buildLookingGlassExport(
  services: Pick<Services, "pg" | "ch" | "config">,
  options: { variant: "public" | "private"; url: URL; request: Request; format: string; user: UserContext | null },
): Promise<{ body: Uint8Array<ArrayBuffer> | string; contentType: string; filename: string }> {
  const allowed: readonly string[] = LOOKING_GLASS_EXPORT_FORMATS[options.variant];
  if (!allowed.includes(options.format))
    throw new ExportInputError(`Unsupported export format "${options.format}"; use one of ${allowed.join(", ")}.`);
  const format = options.format as LookingGlassExportFormat;
  if (isNetcommandType(parseQueryType(options.url.searchParams.get("queryType")) ?? "AsPathQuery"))
    throw new ExportInputError(MESSAGES.emptyTableExport);
  // A delegated user naming vantage points outside their routers: refused (403), as the API refuses them.
  const routers = await vantagePointRouters(services, options.user);
  const refusal = refusedVantagePoints(await listVantagePoints(services, { variant: options.variant }), routers, options.url);
  if (refusal) throw new ApiProblem(403, { detail: refusal, exception_code: "permission_denied" });
  const page = await loadLookingGlassPage(services, options);
  if (page.termError) throw new ExportInputError(page.termError);
  if (page.vantagePointError) throw new ExportInputError(page.vantagePointError);
  if (page.filterError) throw new ExportInputError(page.filterError.message);
  const rows = flattenRunRows(page.run);
  if (rows.length === 0) throw new ExportInputError(MESSAGES.emptyTableExport);
  const sheet = resultsSheet("Looking Glass", rows, options.variant, page.timezone);
  // The day of the export in the user's timezone, in the spec's compact format (yyyyMMdd).
  const name = `${EXPORT_FILE_PREFIX}${page.state.queryType}_${formatDateCompact(Date.now(), page.timezone)}`;
  const filename = `${name}.${format}`;
  switch (format) {
    case "csv":
      return { body: sheetToCsv(sheet, await csvDelimiter(services, options.user)), contentType: CONTENT_TYPES.csv, filename };
    case "xls":
      return { body: writeXls(sheet), contentType: CONTENT_TYPES.xls, filename };
    case "xlsx":
      return { body: await writeXlsx(sheet), contentType: CONTENT_TYPES.xlsx, filename };
    case "png":
      return { body: svgToPng(tableSvg(sheet)), contentType: CONTENT_TYPES.png, filename };
  }
}

/** The user's CSV delimiter setting (user_settings.csv_delimiter); the area's default for anonymous visitors. */
async function csvDelimiter(services: Pick<Services, "pg">, user: UserContext | null): Promise<string> {
  return user ? (await getUserSettings(services.pg.db, user.id)).csv_delimiter || CSV_DELIMITER : CSV_DELIMITER;
}
