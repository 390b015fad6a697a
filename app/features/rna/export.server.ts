/**
 * The Raw Network Analyzer's table as a file: the query of the screen's URL, every page of it up to
 * RNA_EXPORT_ROW_CAP rows, the picked columns, written through the tools' one export path
 * (features/shared/export/export-file.server.ts): csv (the user's delimiter), xls, xlsx. Numbers
 * stay numbers; the engine applies the delegated restriction as it does for the screen.
 * 400 "Table is empty, nothing to export" when the query selects nothing.
 */
import { z } from "zod";
import { exportResponse, sheetFile, type ExportFile } from "~/features/shared/export/export-file.server";
import { exportFilePrefix, TABLE_FORMATS } from "~/lib/export-files";
import { DATE_FORMATS, formatUnix } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import type { Sheet, SheetColumn } from "~/lib/sheet";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { rnaColumn, type RnaColumnId } from "./columns";
import { MAX_PAGE_SIZE, type RnaRow } from "./query";
import { runRnaQuery } from "./query.server";
import { RNA_EXPORT_ROW_CAP, runScreenQuery, screenRow } from "./screen.server";

const TABLE_EXPORT_FORMATS = TABLE_FORMATS as readonly ("csv" | "xls" | "xlsx")[];

/** The sheet of the rows: numbers as numbers (64-bit sums exact as text where a double is not), labels for the rest. */
export function rnaSheet(rows: readonly RnaRow[], columns: readonly RnaColumnId[], tz: string): Sheet {
  const defs = columns.map((id) => rnaColumn(id));
  const marks = rows.map((r) => screenRow(r, columns));
  const withNote = marks.some((m) => m.dropped || m.copy);
  const sheetColumns: SheetColumn[] = defs.map((c) => ({
    header: c.id === "time_received" ? `${c.label} (${tz})` : c.label,
    kind: c.kind === "measure" ? "integer" : c.numeric ? "number" : "text",
  }));
  if (withNote) sheetColumns.push({ header: "Note", kind: "text" });
  return {
    title: "Raw Network Analyzer",
    columns: sheetColumns,
    rows: rows.map((row, i) => {
      const cells = defs.map((c, j) => {
        const value = row.values[c.id];
        if (c.numeric && typeof value === "number") return value;
        return marks[i].cells[j];
      });
      if (withNote) cells.push(marks[i].dropped ? "dropped by the router" : marks[i].copy ? "re-exported copy" : "");
      return cells;
    }),
  };
}

export async function buildRnaExport(services: Services, user: UserContext, url: URL, format: "csv" | "xls" | "xlsx"): Promise<ExportFile> {
  // Every page from the first: the export is the query, not the page on screen.
  const first = new URL(url);
  first.searchParams.delete("after");
  const { params, timezone, query, page, problem } = await runScreenQuery(services, user, first, {
    pageSize: Math.min(MAX_PAGE_SIZE, RNA_EXPORT_ROW_CAP),
  });
  if (problem || !page) throw new ApiProblem(400, { detail: problem ?? MESSAGES.emptyTableExport });
  const rows = [...page.rows];
  let next = page.next;
  while (next && rows.length < RNA_EXPORT_ROW_CAP) {
    const more = await runRnaQuery(services, user, { ...query, after: next });
    rows.push(...more.rows);
    next = more.next;
  }
  if (!rows.length) throw new ApiProblem(400, { detail: MESSAGES.emptyTableExport });
  const settings = await getUserSettings(services.pg.db, user.id);
  const day = (t: number) => formatUnix(t, timezone, DATE_FORMATS.compact);
  const filename = `${exportFilePrefix("rna")}${day(page.range.start)}-${day(page.range.end - 1)}.${format}`;
  return sheetFile(rnaSheet(rows.slice(0, RNA_EXPORT_ROW_CAP), params.columns, timezone), format, settings.csv_delimiter, filename);
}

/**
 * GET /rna/export?<the screen's search params>&format=csv|xls|xlsx: the screen's table as a file
 * with the screen's permission. 400 for an unsupported format, a query the engine refuses, or
 * "Table is empty, nothing to export".
 */
export const rnaExportRoute = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    query: z.object({
      format: z
        .string()
        .optional()
        .refine((f) => f === undefined || (TABLE_EXPORT_FORMATS as readonly string[]).includes(f), {
          error: (issue) => `Unsupported export format "${String(issue.input)}"; use one of ${TABLE_EXPORT_FORMATS.join(", ")}.`,
        }),
    }),
    handler: async ({ request, context, user, query }) => {
      const format = (query.format ?? "csv") as (typeof TABLE_EXPORT_FORMATS)[number];
      return exportResponse(await buildRnaExport(context.services, user, new URL(request.url), format));
    },
  }),
});
