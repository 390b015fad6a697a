import type { MRT_ColumnDef } from "mantine-react-table";
import { useMemo } from "react";
import { MESSAGES } from "~/lib/messages";
import { formatBitsPerSecond } from "~/lib/units";
import { formatPercentDifference, type Comparison } from "../comparison";
import { detailedRows, INCOMPLETE_MARK, pivotTable, type DetailedRow, type PivotRow, type TimeseriesData } from "../table-views";
import { DeferredDataTable } from "~/features/shared/table/DeferredDataTable";
import { numericColumn } from "~/features/shared/table/numeric-column";
import { formatUnix } from "~/lib/date-format";
import { ValueName } from "./ValueName";
import type { DimensionId } from "~/features/filter/dimensions";
import classes from "./FlowTable.module.css";

export type FlowTableRow = { key: string; name: string; bps: number; bytes: string } & Partial<Comparison>;
export type FlowTableDimension = { id: DimensionId; label: string; isAs: boolean } | null;

const bpsCell = ({ cell }: { cell: { getValue: () => unknown } }) => formatBitsPerSecond(Number(cell.getValue()));

/**
 * A per-row link of the interactive table only — 'Show in RNA' (rna-link.ts, in a new tab) and the
 * root-cause analysis of the row's value (rootcause/link.ts): on the server's table 200 such links
 * were an eighth of the 30-day page's HTML budget (docs/architecture.md); without JavaScript the RNA is
 * a menu item away and the analysis has its own form.
 */
function linkColumn<T extends Record<string, unknown>>(
  id: string,
  header: string,
  label: string,
  href: (row: T) => string | null,
  newTab: boolean,
): MRT_ColumnDef<T> {
  return {
    id,
    header,
    meta: { interactiveOnly: true },
    enableSorting: false,
    enableColumnFilter: false,
    Cell: ({ row }) => {
      const link = href(row.original);
      return link ? (
        <a href={link} className={classes.rnaLink} {...(newTab ? { target: "_blank", rel: "noopener" } : {})}>
          {label}
        </a>
      ) : null;
    },
  };
}

const rnaColumn = <T extends Record<string, unknown>>(href: (row: T) => string | null) =>
  linkColumn<T>("rna", "Raw flows", "Show in RNA", href, true);

/** Aggregated: one row per value — name, AS number (AS dimensions), traffic, share, and the previous period when compared. */
export function AggregatedTable({
  rows,
  dimension,
  total,
  compared,
  rnaHref = null,
  rootCauseHref = null,
}: {
  rows: readonly FlowTableRow[];
  dimension: FlowTableDimension;
  total: number;
  compared: boolean;
  /** 'Show in RNA' of a row's value; null: not offered. */
  rnaHref?: ((value: string) => string | null) | null;
  /** The root-cause analysis of a row's value over the view's range; null: not offered. */
  rootCauseHref?: ((value: string) => string | null) | null;
}) {
  const isAs = dimension?.isAs ?? false;
  const columns = useMemo<MRT_ColumnDef<FlowTableRow>[]>(
    () => [
      {
        accessorKey: "name",
        header: dimension?.label ?? "Value",
        filterFn: "contains",
        Cell: ({ row }) => <ValueName row={row.original} dimension={dimension?.id} />,
      },
      ...(isAs
        ? [
            {
              accessorFn: (r: FlowTableRow) => Number(r.key),
              id: "asn",
              header: "AS number",
              filterFn: "contains",
              Cell: ({ row }: { row: { original: FlowTableRow } }) => row.original.key,
            } satisfies MRT_ColumnDef<FlowTableRow>,
          ]
        : []),
      numericColumn<FlowTableRow>({ accessorKey: "bps", header: "Traffic", Cell: bpsCell }),
      numericColumn<FlowTableRow>(
        {
          accessorFn: (r) => (total > 0 ? (r.bps / total) * 100 : 0),
          id: "share",
          header: "Share",
          Cell: ({ cell }) => `${cell.getValue<number>().toFixed(1)} %`,
        },
        "< 5 %",
      ),
      ...(compared
        ? [
            numericColumn<FlowTableRow>({
              accessorFn: (r) => r.previousBps ?? 0,
              id: "previousBps",
              header: "Previous period",
              Cell: bpsCell,
            }),
            numericColumn<FlowTableRow>(
              {
                accessorFn: (r) => r.differencePercent ?? 0,
                id: "difference",
                header: "Δ previous period",
                // A title is a tooltip that needs no JavaScript (like the special AS values' explanations).
                Header: () => (
                  <span
                    title={MESSAGES.percentDifferenceCutOff}
                    data-testid="difference-header"
                    style={{ textDecoration: "underline dotted", cursor: "help" }}
                  >
                    Δ previous period
                  </span>
                ),
                Cell: ({ row }) =>
                  formatPercentDifference({
                    differencePercent: row.original.differencePercent ?? 0,
                    differenceCapped: row.original.differenceCapped ?? false,
                  }),
              },
              "> 50 %",
            ),
          ]
        : []),
      ...(rnaHref ? [rnaColumn<FlowTableRow>((r) => rnaHref(r.key))] : []),
      ...(rootCauseHref ? [linkColumn<FlowTableRow>("rootcause", "Why it changed", "Analyse", (r) => rootCauseHref(r.key), false)] : []),
    ],
    [isAs, total, dimension?.id, dimension?.label, compared, rnaHref, rootCauseHref],
  );
  return (
    <DeferredDataTable
      columns={columns}
      data={rows as FlowTableRow[]}
      getRowId={(r) => r.key}
      sorting={[{ id: "bps", desc: true }]}
      testId="flow-table"
    />
  );
}

/** A bucket's time in the user's timezone; an incomplete bucket (not drawn in the chart) says so. */
function bucketTime(row: { time: number; complete: boolean }, timezone: string): string {
  const time = formatUnix(row.time, timezone);
  return row.complete ? time : `${time} ${INCOMPLETE_MARK}`;
}

/** Detailed: one row per time bucket and value, time in the user's timezone. */
export function DetailedTable({
  timeseries,
  dimension,
  timezone,
  rnaHref = null,
}: {
  timeseries: TimeseriesData;
  dimension: FlowTableDimension;
  timezone: string;
  /** 'Show in RNA' of a row's value in its bucket (the bucket's start, unix seconds); null: not offered. */
  rnaHref?: ((value: string, time: number) => string | null) | null;
}) {
  const rows = useMemo(() => detailedRows(timeseries), [timeseries]);
  const columns = useMemo<MRT_ColumnDef<DetailedRow>[]>(
    () => [
      {
        accessorKey: "time",
        header: `Time (${timezone})`,
        enableColumnFilter: false,
        Cell: ({ row }) => bucketTime(row.original, timezone),
      },
      {
        accessorKey: "name",
        header: dimension?.label ?? "Value",
        filterFn: "contains",
        Cell: ({ row }) => <ValueName row={row.original} dimension={dimension?.id} />,
      },
      numericColumn<DetailedRow>({ accessorKey: "bps", header: "Traffic", Cell: bpsCell }),
      ...(rnaHref ? [rnaColumn<DetailedRow>((r) => rnaHref(r.key, r.time))] : []),
    ],
    [timezone, dimension?.id, dimension?.label, rnaHref],
  );
  return (
    <DeferredDataTable
      columns={columns}
      data={rows}
      getRowId={(r) => `${r.time}:${r.key}`}
      sorting={[
        { id: "time", desc: false },
        { id: "bps", desc: true },
      ]}
      testId="flow-table"
    />
  );
}

/** The detailed table pivoted: one row per bucket, one column per value. */
export function PivotedTable({ timeseries, timezone }: { timeseries: TimeseriesData; timezone: string }) {
  const pivot = useMemo(() => pivotTable(timeseries), [timeseries]);
  const columns = useMemo<MRT_ColumnDef<PivotRow>[]>(
    () => [
      {
        accessorKey: "time",
        header: `Time (${timezone})`,
        enableColumnFilter: false,
        Cell: ({ row }) => bucketTime(row.original, timezone),
      },
      ...pivot.columns.map((c, i) =>
        numericColumn<PivotRow>({ accessorFn: (r) => r.values[i], id: `value:${c.key}`, header: c.name, Cell: bpsCell }),
      ),
    ],
    [pivot, timezone],
  );
  return (
    <DeferredDataTable
      columns={columns}
      data={pivot.rows}
      getRowId={(r) => String(r.time)}
      sorting={[{ id: "time", desc: false }]}
      testId="flow-table"
    />
  );
}
