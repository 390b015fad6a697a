import { Group, Stack, TextInput } from "@mantine/core";
import {
  MantineReactTable,
  useMantineReactTable,
  type MRT_Column,
  type MRT_ColumnDef,
  type MRT_RowData,
  type MRT_SortingState,
  type MRT_VisibilityState,
} from "mantine-react-table";
import { useMemo, useState } from "react";
import { MESSAGES } from "~/lib/messages";
import { formatBitsPerSecond } from "~/lib/units";
import { formatPercentDifference, type Comparison } from "../comparison";
import { detailedRows, pivotTable, type DetailedRow, type PivotRow, type TimeseriesData } from "../table-views";
import { canApplyColumns, ColumnPicker } from "./ColumnPicker";
import { formatUnix } from "~/lib/date-format";
import { matchesNumericFilter, NUMERIC_FILTER_HINT, parseNumericFilter } from "~/lib/numeric-filter";
import { ValueName } from "./ValueName";
import type { DimensionId } from "../dimensions";

export type FlowTableRow = { key: string; name: string; bps: number; bytes: string } & Partial<Comparison>;
export type FlowTableDimension = { id: DimensionId; label: string; isAs: boolean } | null;

const NUMERIC = "numericComparison";

/**
 * The '>' / '<' filter input of a numeric column. An unreadable filter filters nothing and marks the
 * input invalid; the hint is its title (the header cell is too small for a message below it).
 */
function NumericFilterInput<T extends MRT_RowData>({ column, placeholder }: { column: MRT_Column<T>; placeholder: string }) {
  // The text is the input's own: the table only ever holds a readable filter (or none).
  const [text, setText] = useState(() => (column.getFilterValue() as string | undefined) ?? "");
  const invalid = parseNumericFilter(text) === "invalid";
  return (
    <TextInput
      size="xs"
      value={text}
      placeholder={placeholder}
      title={NUMERIC_FILTER_HINT}
      aria-label={`Filter ${column.columnDef.header}`}
      error={invalid}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const parsed = parseNumericFilter(next);
        column.setFilterValue(parsed === null || parsed === "invalid" ? undefined : next);
      }}
    />
  );
}

/** The column settings shared by the numeric columns: sorted largest first, filtered with '>' and '<'. */
function numericColumn<T extends MRT_RowData>(def: MRT_ColumnDef<T>, placeholder = "> 10M"): MRT_ColumnDef<T> {
  return {
    sortDescFirst: true,
    filterFn: NUMERIC,
    Filter: ({ column }) => <NumericFilterInput column={column} placeholder={placeholder} />,
    ...def,
  };
}

const bpsCell = ({ cell }: { cell: { getValue: () => unknown } }) => formatBitsPerSecond(Number(cell.getValue()));

/**
 * One mantine-react-table with the flow tables' features: sorting icons, a filter row (text filters
 * on names, '>'/'<' on numbers), the "Select a column" picker (at least one column stays visible),
 * every row rendered (no pagination), so the server's HTML holds the whole table without JavaScript.
 */
function FlowMrt<T extends MRT_RowData>({
  columns,
  data,
  getRowId,
  sorting,
  testId,
}: {
  columns: MRT_ColumnDef<T>[];
  data: T[];
  getRowId: (row: T) => string;
  sorting: MRT_SortingState;
  testId: string;
}) {
  const [visibility, setVisibility] = useState<MRT_VisibilityState>({});
  const table = useMantineReactTable<T>({
    columns,
    data,
    getRowId,
    filterFns: { [NUMERIC]: (row, id, filterValue) => matchesNumericFilter(row.getValue(id), filterValue) },
    enablePagination: false,
    enableRowVirtualization: false,
    enableColumnActions: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableGlobalFilter: false,
    enableColumnFilters: true,
    enableHiding: true,
    enableTopToolbar: false,
    enableBottomToolbar: false,
    state: { columnVisibility: visibility },
    onColumnVisibilityChange: (updater) =>
      setVisibility((prev) => {
        const next = typeof updater === "function" ? updater(prev) : updater;
        const shown = Object.fromEntries(
          columns.map((c) => [c.id ?? String(c.accessorKey), next[c.id ?? String(c.accessorKey)] !== false]),
        );
        // Whatever asks for it, the last visible column stays.
        return canApplyColumns(shown) ? next : prev;
      }),
    initialState: { sorting, density: "xs", showColumnFilters: true },
    mantineTableProps: { "data-testid": testId } as Record<string, string>,
    mantineTableContainerProps: { style: { maxHeight: 640 } },
    enableStickyHeader: true,
  });
  const pickable = table.getAllLeafColumns().map((c) => ({ id: c.id, header: c.columnDef.header, visible: c.getIsVisible() }));
  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <ColumnPicker columns={pickable} onApply={(v) => table.setColumnVisibility(v)} />
      </Group>
      <MantineReactTable table={table} />
    </Stack>
  );
}

/** Aggregated: one row per value — name, AS number (AS dimensions), traffic, share, and the previous period when compared. */
export function AggregatedTable({
  rows,
  dimension,
  total,
  compared,
}: {
  rows: readonly FlowTableRow[];
  dimension: FlowTableDimension;
  total: number;
  compared: boolean;
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
    ],
    [isAs, total, dimension?.id, dimension?.label, compared],
  );
  return (
    <FlowMrt
      columns={columns}
      data={rows as FlowTableRow[]}
      getRowId={(r) => r.key}
      sorting={[{ id: "bps", desc: true }]}
      testId="flow-table"
    />
  );
}

/** Detailed: one row per time bucket and value, time in the user's timezone. */
export function DetailedTable({
  timeseries,
  dimension,
  timezone,
}: {
  timeseries: TimeseriesData;
  dimension: FlowTableDimension;
  timezone: string;
}) {
  const rows = useMemo(() => detailedRows(timeseries), [timeseries]);
  const columns = useMemo<MRT_ColumnDef<DetailedRow>[]>(
    () => [
      {
        accessorKey: "time",
        header: `Time (${timezone})`,
        enableColumnFilter: false,
        Cell: ({ cell }) => formatUnix(cell.getValue<number>(), timezone),
      },
      {
        accessorKey: "name",
        header: dimension?.label ?? "Value",
        filterFn: "contains",
        Cell: ({ row }) => <ValueName row={row.original} dimension={dimension?.id} />,
      },
      numericColumn<DetailedRow>({ accessorKey: "bps", header: "Traffic", Cell: bpsCell }),
    ],
    [timezone, dimension?.id, dimension?.label],
  );
  return (
    <FlowMrt
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
        Cell: ({ cell }) => formatUnix(cell.getValue<number>(), timezone),
      },
      ...pivot.columns.map((c, i) =>
        numericColumn<PivotRow>({ accessorFn: (r) => r.values[i], id: `value:${c.key}`, header: c.name, Cell: bpsCell }),
      ),
    ],
    [pivot, timezone],
  );
  return (
    <FlowMrt
      columns={columns}
      data={pivot.rows}
      getRowId={(r) => String(r.time)}
      sorting={[{ id: "time", desc: false }]}
      testId="flow-table"
    />
  );
}
