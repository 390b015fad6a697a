/**
 * The Flow Explorer's exported tables as sheets (~/lib/sheet), written out as CSV, XLS or XLSX by
 * the shared writers. Pure and isomorphic. Exports are for people: labelled headers, values as the
 * screen names them, AS numbers as numbers, bit/s rounded to whole bits (finer digits are noise of
 * the averaging), shares in percent with two decimals.
 *
 * Aggregated: <dimension label> (the AS number, or the value as people read it), Name, Bits per
 * second, Share (%), Bytes (+ Previous period (bit/s), Difference to the previous period (%) with the
 * comparison; the percentage is capped at ±1000 like on the screen).
 * Detailed: Time (<timezone>) in the spec's dd.MM.yyyy HH:mm, Timestamp (unix seconds), <dimension
 * label>, Name, Bits per second, Complete bucket (yes, or no for a bucket the range's end, the newest
 * data or now cuts: its bit/s cover only part of it).
 */
import type { Sheet, SheetColumn } from "~/lib/sheet";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import type { Comparison } from "../comparison";
import type { DetailedRow } from "../table-views";
import { formatUnix } from "~/lib/date-format";
import { valueLabel } from "~/features/filter/value-labels";

export type AggregatedRow = { key: string; name: string; bps: number; bytes: string } & Partial<Comparison>;

/** The value column of a dimension: AS numbers as numbers, other values as people read them. */
function valueColumn(dimension: DimensionId): { column: SheetColumn; cell: (key: string) => string | number } {
  const isAs = getDimension(dimension).filterKind === "AS_NUMBER";
  return {
    column: { header: getDimension(dimension).label, kind: isAs ? "number" : "text" },
    cell: (key) => (isAs ? Number(key) : valueLabel(dimension, key)),
  };
}

const wholeBits = (bps: number) => Math.round(bps);
const percent = (value: number, decimals: number) => Number(value.toFixed(decimals));

export function aggregatedSheet(title: string, dimension: DimensionId, rows: readonly AggregatedRow[], withComparison: boolean): Sheet {
  const value = valueColumn(dimension);
  const total = rows.reduce((a, r) => a + r.bps, 0);
  const columns: SheetColumn[] = [
    value.column,
    { header: "Name", kind: "text" },
    { header: "Bits per second", kind: "number" },
    { header: "Share (%)", kind: "number" },
    { header: "Bytes", kind: "integer" },
    ...(withComparison
      ? ([
          { header: "Previous period (bit/s)", kind: "number" },
          { header: "Difference to the previous period (%)", kind: "number" },
        ] as const)
      : []),
  ];
  return {
    title,
    columns,
    rows: rows.map((r) => [
      value.cell(r.key),
      r.name,
      wholeBits(r.bps),
      percent(total > 0 ? (r.bps / total) * 100 : 0, 2),
      r.bytes,
      ...(withComparison ? [wholeBits(r.previousBps ?? 0), percent(r.differencePercent ?? 0, 1)] : []),
    ]),
  };
}

export function detailedSheet(title: string, dimension: DimensionId, rows: readonly DetailedRow[], tz: string): Sheet {
  const value = valueColumn(dimension);
  return {
    title,
    columns: [
      { header: `Time (${tz})`, kind: "text" },
      { header: "Timestamp (unix seconds)", kind: "number" },
      value.column,
      { header: "Name", kind: "text" },
      { header: "Bits per second", kind: "number" },
      { header: "Complete bucket", kind: "text" },
    ],
    rows: rows.map((r) => [formatUnix(r.time, tz), r.time, value.cell(r.key), r.name, wholeBits(r.bps), r.complete ? "yes" : "no"]),
  };
}
