import { Group, Stack } from "@mantine/core";
import {
  MantineReactTable,
  useMantineReactTable,
  type MRT_ColumnDef,
  type MRT_RowData,
  type MRT_SortingState,
  type MRT_VisibilityState,
} from "mantine-react-table";
import { useState } from "react";
import { matchesNumericFilter } from "~/lib/numeric-filter";
import { canApplyColumns, ColumnPicker } from "./ColumnPicker";
import { NUMERIC } from "./numeric-column";

/**
 * One mantine-react-table with the tool tables' features, sorted and filtered in the browser:
 * sorting icons, a filter row (text filters on names, '>'/'<' on numbers), the "Select a column"
 * picker (at least one column stays visible), every row rendered (no pagination), so the server's
 * HTML holds the whole table without JavaScript.
 */
export function DataTable<T extends MRT_RowData>({
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
