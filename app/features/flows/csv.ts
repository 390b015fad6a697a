/** CSV of the Flow Explorer table. Pure and isomorphic. */

export type CsvTableRow = { key: string; name: string; bps: number; bytes: string };

export const CSV_HEADER = ["value", "name", "bits_per_second", "bytes"] as const;

/** One field, quoted when it holds the delimiter, a quote or a line break. */
export function csvField(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Header and one line per row, CRLF line ends (RFC 4180). */
export function tableToCsv(rows: readonly CsvTableRow[], delimiter: string): string {
  const line = (fields: readonly string[]) => fields.map((f) => csvField(f, delimiter)).join(delimiter);
  return [line(CSV_HEADER), ...rows.map((r) => line([r.key, r.name, String(r.bps), r.bytes]))].join("\r\n") + "\r\n";
}

export function csvFilename(dimension: string, start: number, end: number): string {
  return `flowlens_flow-explorer_${dimension}_${start}_${end}.csv`;
}
