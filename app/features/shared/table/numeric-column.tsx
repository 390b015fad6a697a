import { TextInput } from "@mantine/core";
import type { MRT_Column, MRT_ColumnDef, MRT_RowData } from "mantine-react-table";
import { useState } from "react";
import { NUMERIC_FILTER_HINT, parseNumericFilter } from "~/lib/numeric-filter";

/**
 * The numeric columns of the tool tables (DataTable.tsx). Apart from the table itself, which is
 * loaded after the page (DeferredDataTable.tsx): a screen defines its columns without loading it.
 */
export const NUMERIC = "numericComparison";

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
export function numericColumn<T extends MRT_RowData>(def: MRT_ColumnDef<T>, placeholder = "> 10M"): MRT_ColumnDef<T> {
  return {
    sortDescFirst: true,
    filterFn: NUMERIC,
    Filter: ({ column }) => <NumericFilterInput column={column} placeholder={placeholder} />,
    ...def,
  };
}
