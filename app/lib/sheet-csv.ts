/** CSV of an exported table (sheet.ts), with the user's delimiter. Pure and isomorphic. */
import type { Sheet } from "./sheet";

/** A plain decimal number ("-101", "1.5e9"): a spreadsheet reads it as that number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** What makes a spreadsheet read a cell as a formula (or run one): OWASP's CSV injection list, plus LF. */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/**
 * A text cell that a spreadsheet would take for a formula (a name such as "=HYPERLINK(…)" from a
 * mapping or a routing attribute) gets a leading apostrophe, which shows it as text. Numbers,
 * negative ones included, stay numbers.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** neutraliseFormula undone: what the export wrote as "'=…" reads back as "=…" (an import of an exported file). */
export function restoreFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) && !PLAIN_NUMBER.test(text.slice(1)) ? text.slice(1) : text;
}

/** One field, quoted when it holds the delimiter, a quote or a line break. */
export function csvField(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Header and one line per row, CRLF line ends (RFC 4180); numbers in JavaScript's shortest exact form. */
export function sheetToCsv(sheet: Sheet, delimiter: string): string {
  const line = (fields: readonly (string | number)[]) =>
    fields.map((f) => csvField(neutraliseFormula(String(f)), delimiter)).join(delimiter);
  return [line(sheet.columns.map((c) => c.header)), ...sheet.rows.map(line)].join("\r\n") + "\r\n";
}
