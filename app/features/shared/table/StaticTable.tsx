import { Table } from "@mantine/core";
import type { MRT_ColumnDef, MRT_RowData, MRT_SortingState } from "mantine-react-table";
import type { ReactNode } from "react";
import classes from "./StaticTable.module.css";

type Column<T extends MRT_RowData> = MRT_ColumnDef<T>;

const idOf = <T extends MRT_RowData>(c: Column<T>) => c.id ?? String(c.accessorKey);

function valueOf<T extends MRT_RowData>(c: Column<T>, row: T): unknown {
  if (c.accessorFn) return c.accessorFn(row);
  return c.accessorKey === undefined ? undefined : (row as Record<string, unknown>)[String(c.accessorKey)];
}

/** The order the interactive table starts in: by each sorted column in turn, numbers as numbers, text in the locale's order. */
function sortedRows<T extends MRT_RowData>(columns: readonly Column<T>[], data: readonly T[], sorting: MRT_SortingState): T[] {
  const keys = sorting
    .map((s) => ({ column: columns.find((c) => idOf(c) === s.id), desc: s.desc }))
    .filter((k): k is { column: Column<T>; desc: boolean } => k.column !== undefined);
  const values = new Map(data.map((row) => [row, keys.map((k) => valueOf(k.column, row))]));
  return [...data].sort((a, b) => {
    for (const [i, k] of keys.entries()) {
      const x = values.get(a)![i];
      const y = values.get(b)![i];
      const order =
        typeof x === "number" && typeof y === "number"
          ? x - y
          : String(x ?? "").localeCompare(String(y ?? ""), undefined, { numeric: true });
      if (order !== 0) return k.desc ? -order : order;
    }
    return 0;
  });
}

/**
 * A tool table as plain HTML, from the columns of its interactive table (DataTable.tsx): the same
 * headers, cells and first order, without sorting, filters or the column picker. What the server
 * sends and the page shows until the interactive table has loaded (DeferredDataTable.tsx), so the
 * screen's table needs no JavaScript and the page loads none for it.
 */
export function StaticTable<T extends MRT_RowData>({
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
  // Columns marked interactive-only (a per-row action whose links would outweigh the page) wait for the interactive table.
  columns = columns.filter((c) => !(c.meta as { interactiveOnly?: boolean } | undefined)?.interactiveOnly);
  const rows = sortedRows(columns, data, sorting);
  return (
    // Scrolls when long: focusable, so the keyboard scrolls it too (WCAG 2.1.1), and named as a region.
    <div style={{ maxHeight: 640, overflow: "auto" }} tabIndex={0} role="region" aria-label="Table">
      <Table stickyHeader striped={false} highlightOnHover data-testid={testId} fz="sm" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={idOf(c)}>{headerOf(c)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        {/* Plain rows and cells, styled by the body's class: Mantine's classes on every cell would double the table's bytes. */}
        <tbody className={classes.rows}>
          {rows.map((row, index) => (
            <tr key={getRowId(row)}>
              {columns.map((c) => (
                <td key={idOf(c)}>{cellOf(c, row, index)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

/** A column's header: its Header component when it has one (called with no table: the tool tables' headers need none). */
function headerOf<T extends MRT_RowData>(c: Column<T>): ReactNode {
  if (typeof c.Header === "function") return (c.Header as unknown as (props: Record<string, never>) => ReactNode)({});
  return c.Header ?? c.header;
}

/** A cell as the interactive table renders it: its Cell with the value and the row (the tool tables' cells read nothing else). */
function cellOf<T extends MRT_RowData>(c: Column<T>, row: T, index: number): ReactNode {
  const value = valueOf(c, row);
  if (!c.Cell) return value === null || value === undefined ? "" : String(value);
  const props = { cell: { getValue: () => value }, row: { original: row, index }, renderedCellValue: value as ReactNode };
  return (c.Cell as (props: unknown) => ReactNode)(props);
}
