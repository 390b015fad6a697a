/**
 * An exported table as one neutral model (title, header and typed cells), which the writers of
 * features/shared/export and sheet-csv.ts write out as CSV, XLS, XLSX or an image. Pure and
 * isomorphic: each tool builds its own sheets from its rows.
 */

/**
 * "text" cells stay text; "number" cells are numbers; "integer" cells are decimal strings of
 * UInt64 sums (bytes) that only become spreadsheet numbers while they are exact in a double.
 */
export type ColumnKind = "text" | "number" | "integer";
export type SheetColumn = { header: string; kind: ColumnKind };
export type Sheet = { title: string; columns: SheetColumn[]; rows: (string | number)[][] };

/** A cell as a spreadsheet stores it: numbers as numbers, exact integers as numbers, the rest as text. */
export function spreadsheetValue(value: string | number, kind: ColumnKind): string | number {
  if (kind === "number") return Number(value);
  if (kind === "integer") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : String(value);
  }
  return String(value);
}
