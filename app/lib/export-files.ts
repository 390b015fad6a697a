/**
 * Export formats, content types and file names of the tools (spec §9: "Export files are named with
 * a prefix plus name; formats csv, xls, xlsx, png, svg"). Pure and isomorphic: a screen's links and
 * its export endpoint agree on both.
 *
 * File name = prefix + name + "." + format. The prefix is "flowlens_" and the screen's path segment
 * ("flowlens_flow-explorer_", "flowlens_as-flows-egress_", "flowlens_lookingglass_"); for the flow
 * screens (exportFilename) the name is
 * `<dimension>[_detailed | _<chart>]_<first day>-<last day>` with the days as yyyyMMdd (the spec's
 * compact date format) in the user's timezone, e.g.
 * `flowlens_flow-explorer_AS_SRC_INGRESS_20261120-20261122.xlsx`.
 */
import { DATE_FORMATS, formatUnix } from "~/lib/date-format";

export const EXPORT_FORMATS = ["csv", "xls", "xlsx", "png", "svg"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Formats of the table; the others are images of the chart. */
export const TABLE_FORMATS: readonly ExportFormat[] = ["csv", "xls", "xlsx"];

export const exportFilePrefix = (screenSlug: string) => `flowlens_${screenSlug}_`;

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  png: "image/png",
  svg: "image/svg+xml",
};

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

export const unsupportedFormat = (format: string) => `Unsupported export format "${format}"; use one of ${EXPORT_FORMATS.join(", ")}.`;

export type ExportName = {
  /** The dimension(s) shown, joined by "-" for a sankey. */
  dimensions: readonly string[];
  /** "detailed" for the detailed table, the chart kind ("timeseries", "sankey") for images; none for the aggregated table. */
  variant?: string;
  range: { start: number; end: number };
  timezone: string;
};

/** Only characters every file system and the Content-Disposition header take as they are. */
const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]+/g, "-");

/** The day of the first and of the last second of the half-open range, yyyyMMdd in the user's timezone. */
function days(range: { start: number; end: number }, tz: string): string {
  const day = (t: number) => formatUnix(t, tz, DATE_FORMATS.compact);
  return `${day(range.start)}-${day(Math.max(range.start, range.end - 1))}`;
}

export function exportFilename(name: ExportName, format: ExportFormat, screenSlug = "flow-explorer"): string {
  const parts = [name.dimensions.map(safe).join("-"), ...(name.variant ? [safe(name.variant)] : []), days(name.range, name.timezone)];
  return `${exportFilePrefix(screenSlug)}${parts.join("_")}.${format}`;
}
