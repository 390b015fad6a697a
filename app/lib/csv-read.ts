/**
 * Reading a CSV file people wrote (the bulk imports: mappings, contracts). Pure and isomorphic.
 *
 * A header line names the columns, then one object per line. Comma or semicolon (shell §9: semicolon is
 * always allowed), chosen by the header; fields may be quoted with `"` (`""` inside, RFC 4180); a line
 * break inside quotes stays in the field; a byte-order mark is ignored; blank lines are skipped.
 */
import { restoreFormula } from "./sheet-csv";

export type CsvLine = { line: number; fields: string[] };
export type CsvProblem = { line: number; message: string };

/** Splits CSV text into lines of fields, each with the number of the line it starts on. */
export function parseCsv(text: string, delimiter: string): CsvLine[] {
  const out: CsvLine[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let startLine = 1;
  const endLine = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0].trim() !== "") out.push({ line: startLine, fields });
    fields = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === "") {
      field = "";
      quoted = true;
    } else if (c === delimiter) {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endLine();
      line++;
      startLine = line;
    } else field += c;
  }
  endLine();
  return out;
}

export type CsvTable = {
  /** The header's columns, trimmed and in lower case. */
  columns: string[];
  headerLine: number;
  rows: CsvLine[];
};

/**
 * The file's header checked against the columns a format has (all required ones present, none unknown or
 * repeated) and its data lines (1 to maxRows), or the one problem that stops the whole import.
 */
export function readCsvTable(
  text: string,
  format: { allowed: readonly string[]; required: readonly string[]; example: string; maxRows: number },
): { ok: true; table: CsvTable } | { ok: false; problem: CsvProblem } {
  const body = text.replace(/^\uFEFF/, "");
  const headerText = body.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = headerText.includes(";") && !headerText.includes(",") ? ";" : ",";
  const [header, ...rows] = parseCsv(body, delimiter);
  if (!header)
    return { ok: false, problem: { line: 1, message: `The file is empty: the first line names the columns, e.g. ${format.example}.` } };
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const missing = format.required.filter((c) => !columns.includes(c));
  const unknown = columns.filter((c) => !format.allowed.includes(c));
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (missing.length || unknown.length || repeated.length) {
    const why = [
      ...missing.map((c) => `the ${c} column is missing`),
      unknown.length ? `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((c) => `"${c}"`).join(", ")}` : "",
      repeated.length ? `repeated column ${repeated.map((c) => `"${c}"`).join(", ")}` : "",
    ].filter(Boolean);
    return { ok: false, problem: { line: header.line, message: `Header: ${why.join("; ")}. Columns: ${format.allowed.join(", ")}.` } };
  }
  if (rows.length > format.maxRows)
    return {
      ok: false,
      problem: { line: header.line, message: `At most ${format.maxRows} lines per import; this file has ${rows.length}.` },
    };
  if (!rows.length) return { ok: false, problem: { line: header.line, message: "No lines below the header: nothing to import." } };
  return { ok: true, table: { columns, headerLine: header.line, rows } };
}

/**
 * A line's cell by column name (trimmed; "" when the column or the field is absent). The apostrophe the exports
 * put before a text a spreadsheet would run as a formula is taken off again, so an exported file reads back as it was.
 */
export function csvCell(table: CsvTable, fields: readonly string[], column: string): string {
  const i = table.columns.indexOf(column);
  return i >= 0 ? restoreFormula((fields[i] ?? "").trim()) : "";
}
