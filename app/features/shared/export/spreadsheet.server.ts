/**
 * The exported table as a spreadsheet: XLSX (Office Open XML) and XLS (Excel 97–2003, BIFF8 in a
 * compound file). See docs/decisions/012-spreadsheet-writers.md for the choice of libraries:
 *
 * - XLSX with exceljs: maintained on npm, writes typed cells, column widths and a frozen header.
 * - XLS with SheetJS (`xlsx` 0.18.5): the one widely used JavaScript writer of real BIFF8 files
 *   (not HTML or XML renamed to .xls, which Excel opens only after a warning). Its known advisories
 *   concern reading untrusted files; flowlens only writes with it and never parses a spreadsheet
 *   (tests/unit/spreadsheet-writers.test.ts keeps it so).
 */
import ExcelJS from "exceljs";
import XLSX from "xlsx";
import { spreadsheetValue, type Sheet } from "~/lib/sheet";

/** Excel's limit for a sheet name is 31 characters, without : \ / ? * [ ]. */
function sheetName(title: string): string {
  return title.replace(/[:\\/?*[\]]/g, " ").slice(0, 31) || "Sheet1";
}

const cells = (sheet: Sheet) => sheet.rows.map((row) => row.map((v, i) => spreadsheetValue(v, sheet.columns[i]?.kind ?? "text")));

export async function writeXlsx(sheet: Sheet): Promise<Uint8Array<ArrayBuffer>> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "flowlens";
  const ws = workbook.addWorksheet(sheetName(sheet.title), { views: [{ state: "frozen", ySplit: 1 }] });
  ws.columns = sheet.columns.map((c) => ({ header: c.header, width: Math.max(12, c.header.length + 2) }));
  ws.getRow(1).font = { bold: true };
  ws.addRows(cells(sheet));
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer);
}

export function writeXls(sheet: Sheet): Uint8Array<ArrayBuffer> {
  const workbook = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet([sheet.columns.map((c) => c.header), ...cells(sheet)]);
  XLSX.utils.book_append_sheet(workbook, ws, sheetName(sheet.title));
  const buffer: Buffer = XLSX.write(workbook, { type: "buffer", bookType: "biff8" });
  return new Uint8Array(buffer);
}
