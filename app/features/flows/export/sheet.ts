/**
 * The exported table as one neutral model (header and typed cells), written out as CSV, XLS or XLSX
 * by the writers. Pure and isomorphic.
 *
 * Aggregated: value, name, bits_per_second, bytes (+ previous_bits_per_second,
 * difference_percent with the comparison; the percentage is capped at ±1000 like on the screen).
 * Detailed: time (ISO 8601 in the user's timezone, with its offset), timestamp (unix seconds),
 * value, name, bits_per_second.
 */
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import type { Comparison } from "../comparison";
import type { DetailedRow } from "../table-views";

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * "text" cells stay text; "number" cells are numbers; "integer" cells are decimal strings of
 * UInt64 sums (bytes) that only become spreadsheet numbers while they are exact in a double.
 */
export type ColumnKind = "text" | "number" | "integer";
export type SheetColumn = { header: string; kind: ColumnKind };
export type Sheet = { title: string; columns: SheetColumn[]; rows: (string | number)[][] };

export type AggregatedRow = { key: string; name: string; bps: number; bytes: string } & Partial<Comparison>;

export function aggregatedSheet(title: string, rows: readonly AggregatedRow[], withComparison: boolean): Sheet {
  const columns: SheetColumn[] = [
    { header: "value", kind: "text" },
    { header: "name", kind: "text" },
    { header: "bits_per_second", kind: "number" },
    { header: "bytes", kind: "integer" },
    ...(withComparison ? ([{ header: "previous_bits_per_second", kind: "number" }, { header: "difference_percent", kind: "number" }] as const) : []),
  ];
  return {
    title,
    columns,
    rows: rows.map((r) => [r.key, r.name, r.bps, r.bytes, ...(withComparison ? [r.previousBps ?? 0, r.differencePercent ?? 0] : [])]),
  };
}

export function detailedSheet(title: string, rows: readonly DetailedRow[], tz: string): Sheet {
  return {
    title,
    columns: [
      { header: "time", kind: "text" },
      { header: "timestamp", kind: "number" },
      { header: "value", kind: "text" },
      { header: "name", kind: "text" },
      { header: "bits_per_second", kind: "number" },
    ],
    rows: rows.map((r) => [dayjs.unix(r.time).tz(tz).format("YYYY-MM-DDTHH:mm:ssZ"), r.time, r.key, r.name, r.bps]),
  };
}

/** A cell as a spreadsheet stores it: numbers as numbers, exact integers as numbers, the rest as text. */
export function spreadsheetValue(value: string | number, kind: ColumnKind): string | number {
  if (kind === "number") return Number(value);
  if (kind === "integer") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : String(value);
  }
  return String(value);
}
