/**
 * The Flow Explorer's exports, computed from the same URL as the screen (loadExplorer), so a file
 * holds exactly what the screen shows:
 *
 * - csv, xls, xlsx: the table of the chosen view — Aggregated (with the previous-period columns
 *   when `compare=1`) or Detailed (one row per bucket and value); CSV with the user's delimiter.
 * - svg, png: the chart of the view (timeseries or sankey).
 *
 * Refusals: 403 when the URL asks for a dimension a delegated user's restriction does not allow
 * (delegation-policy.server.ts; the screen shows the allowed view instead), or for an image of the
 * Sankey view without SANKEY_TOPOLOGY (the screen shows the timeseries instead); 400 (spec shell §5): a pivoted table (the export is disabled there), an empty table
 * ("Table is empty, nothing to export"), a sankey that cannot be drawn (its own message).
 */
import { imageFile, sheetFile, type ExportFile } from "~/features/shared/export/export-file.server";
import { exportFilename, TABLE_FORMATS, type ExportFormat, type ExportName } from "~/lib/export-files";
import { MESSAGES } from "~/lib/messages";
import type { Sheet } from "~/lib/sheet";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import type { Direction } from "~/features/filter/dimensions";
import { loadExplorer, type ExplorerData } from "../explorer.server";
import { formatUnixRange } from "~/lib/date-format";
import { parseExplorerParams } from "../params";
import { detailedRows } from "../table-views";
import { chartSvg, type ChartCaption, type ChartInput } from "./chart-svg.server";
import { aggregatedSheet, detailedSheet } from "./sheet";

export type { ExportFile };

const refuse = (detail: string) => new ApiProblem(400, { detail });

/** The screen a scope belongs to, for the sheet's title and the file name's prefix. */
const screenOf = (scope: Direction | undefined) =>
  scope === "EGRESS" ? { title: "AS Flows Egress", slug: "as-flows-egress" } : { title: "Flow Explorer", slug: "flow-explorer" };

/** The image's caption: screen and dimension(s); the range in the spec's format with its timezone, the counted traffic, the filters. */
function chartCaption(title: string, data: ExplorerData, range: { start: number; end: number }): ChartCaption {
  const second = data.params.view === "sankey" ? data.dimensions.find((d) => d.value === data.params.dimension2) : undefined;
  const lines = [
    `${formatUnixRange(range.start, range.end, data.timezone)}${data.traffic ? ` · ${data.traffic.label}` : ""}${data.params.ipVersion !== "all" ? ` · IPv${data.params.ipVersion} only` : ""}`,
  ];
  if (data.filterLabels.length) lines.push(`Filters: ${data.filterLabels.join("; ")}`);
  return { title: `${title}: ${[data.dimension?.label, second?.label].filter(Boolean).join(" → ")}`, lines };
}

export async function buildFlowExport(
  services: Services,
  user: UserContext,
  url: URL,
  format: ExportFormat,
  scope?: Direction,
): Promise<ExportFile> {
  const params = parseExplorerParams(url.searchParams);
  if (params.table === "detailed" && params.pivot) throw refuse(MESSAGES.exportWhilePivoted);
  const isTable = TABLE_FORMATS.includes(format);
  // Charts need the chart's data; a table export skips it unless the detailed view is built from it.
  const data = await loadExplorer(services, user, url, { output: isTable ? "table" : "image", scope });
  // A delegated user asking for a dimension outside their restriction: the screen falls back, a file is refused.
  if (data.refusals.length) throw new ApiProblem(403, { detail: data.refusals[0], exception_code: "permission_denied" });
  const flows = data.flows;
  if (!flows || !data.dimension || !flows.range || flows.table.length === 0) throw refuse(MESSAGES.emptyTableExport);
  const screen = screenOf(scope);
  const name = (dimensions: readonly string[], variant?: string): ExportName => ({
    dimensions,
    variant,
    range: flows.range!,
    timezone: data.timezone,
  });
  const filename = (n: ExportName) => exportFilename(n, format, screen.slug);

  if (isTable) {
    let sheet: Sheet;
    let fileName: ExportName;
    if (params.table === "detailed") {
      const rows = detailedRows(flows.timeseries);
      if (!rows.length) throw refuse(MESSAGES.emptyTableExport);
      sheet = detailedSheet(screen.title, data.dimension.id, rows, data.timezone);
      fileName = name([data.dimension.id], "detailed");
    } else {
      sheet = aggregatedSheet(screen.title, data.dimension.id, data.comparison?.rows ?? flows.table, data.comparison !== null);
      fileName = name([data.dimension.id]);
    }
    return sheetFile(sheet, format as "csv" | "xls" | "xlsx", data.csvDelimiter, filename(fileName));
  }

  let chart: ChartInput;
  let fileName: ExportName;
  if (data.params.view === "sankey") {
    if (data.sankeyError) throw refuse(data.sankeyError);
    if (!data.sankey || !data.sankey.links.length || !data.params.dimension2) throw refuse(MESSAGES.emptyTableExport);
    const second = data.dimensions.find((d) => d.value === data.params.dimension2);
    chart = { kind: "sankey", sankey: data.sankey, stages: [data.dimension.label, second?.label ?? data.params.dimension2] };
    fileName = name([data.dimension.id, data.params.dimension2], "sankey");
  } else {
    if (!flows.timeseries.buckets.length || !flows.timeseries.series.length) throw refuse(MESSAGES.emptyTableExport);
    chart = {
      kind: "timeseries",
      timeseries: flows.timeseries,
      timezone: data.timezone,
      window: flows.window,
      previous: data.comparison?.totals,
    };
    fileName = name([data.dimension.id], "timeseries");
  }
  const svg = chartSvg(chart, chartCaption(screen.title, data, flows.range));
  return imageFile(svg, format as "png" | "svg", filename(fileName));
}
