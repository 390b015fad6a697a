import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef } from "mantine-react-table";
import { useMemo } from "react";
import { formatBitsPerSecond } from "~/lib/units";
import { ValueName } from "./ValueName";

export type FlowTableRow = { key: string; name: string; bps: number; bytes: string };
export type FlowTableDimension = { id: string; label: string; isAs: boolean } | null;

/** The per-value table of one dimension: name, AS number (AS dimensions), traffic and share of the total. */
export function FlowTable({ rows, dimension, total }: { rows: readonly FlowTableRow[]; dimension: FlowTableDimension; total: number }) {
  const isAs = dimension?.isAs ?? false;
  const columns = useMemo<MRT_ColumnDef<FlowTableRow>[]>(
    () => [
      { accessorKey: "name", header: dimension?.label ?? "Value", Cell: ({ row }) => <ValueName row={row.original} isAs={isAs} /> },
      ...(isAs
        ? [{ accessorFn: (r: FlowTableRow) => Number(r.key), id: "asn", header: "AS number", Cell: ({ row }: { row: { original: FlowTableRow } }) => row.original.key } satisfies MRT_ColumnDef<FlowTableRow>]
        : []),
      { accessorKey: "bps", header: "Traffic", sortDescFirst: true, Cell: ({ cell }) => formatBitsPerSecond(cell.getValue<number>()) },
      { accessorFn: (r) => (total > 0 ? (r.bps / total) * 100 : 0), id: "share", header: "Share", sortDescFirst: true, Cell: ({ cell }) => `${cell.getValue<number>().toFixed(1)} %` },
    ],
    [isAs, total, dimension?.label],
  );
  const table = useMantineReactTable({
    columns,
    data: rows as FlowTableRow[],
    getRowId: (r) => r.key,
    enablePagination: false,
    enableRowVirtualization: false,
    enableColumnActions: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableGlobalFilter: false,
    enableColumnFilters: false,
    enableHiding: false,
    enableTopToolbar: false,
    enableBottomToolbar: false,
    initialState: { sorting: [{ id: "bps", desc: true }], density: "xs" },
    mantineTableProps: { "data-testid": "flow-table" } as Record<string, string>,
    mantineTableContainerProps: { style: { maxHeight: 640 } },
    enableStickyHeader: true,
  });
  return <MantineReactTable table={table} />;
}
