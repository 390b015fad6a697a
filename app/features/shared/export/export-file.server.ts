/**
 * The one server path of the tools' file exports: a sheet (~/lib/sheet) written as csv (with the
 * user's delimiter), xls or xlsx, or a chart's SVG as svg or png, with its content type and file
 * name. The Flow Explorer and the planners build their sheets and SVGs, this writes them out and the
 * export routes send the result (exportResponse).
 */
import { CONTENT_TYPES } from "~/lib/export-files";
import type { Sheet } from "~/lib/sheet";
import { sheetToCsv } from "~/lib/sheet-csv";
import { svgToPng } from "./png.server";
import { writeXls, writeXlsx } from "./spreadsheet.server";

export type ExportFile = { body: string | Uint8Array<ArrayBuffer>; contentType: string; filename: string };

/** A table export: csv, xls or xlsx. */
export async function sheetFile(sheet: Sheet, format: "csv" | "xls" | "xlsx", csvDelimiter: string, filename: string): Promise<ExportFile> {
  const body = format === "csv" ? sheetToCsv(sheet, csvDelimiter) : format === "xlsx" ? await writeXlsx(sheet) : writeXls(sheet);
  return { body, contentType: CONTENT_TYPES[format], filename };
}

/** An image export: svg as it is, png rasterised from it. */
export function imageFile(svg: string, format: "png" | "svg", filename: string): ExportFile {
  return { body: format === "svg" ? svg : svgToPng(svg), contentType: CONTENT_TYPES[format], filename };
}

/** The file as a download that is never cached (it holds what the user may see). */
export function exportResponse(file: ExportFile): Response {
  return new Response(file.body, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
