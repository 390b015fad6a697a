/** CSV of the Flow Explorer's exported table (export/sheet.ts). Pure and isomorphic. */
import type { Sheet } from "./export/sheet";

/** One field, quoted when it holds the delimiter, a quote or a line break. */
export function csvField(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Header and one line per row, CRLF line ends (RFC 4180); numbers in JavaScript's shortest exact form. */
export function sheetToCsv(sheet: Sheet, delimiter: string): string {
  const line = (fields: readonly (string | number)[]) => fields.map((f) => csvField(String(f), delimiter)).join(delimiter);
  return [line(sheet.columns.map((c) => c.header)), ...sheet.rows.map(line)].join("\r\n") + "\r\n";
}
