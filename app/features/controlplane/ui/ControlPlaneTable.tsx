import { Anchor, Button, Checkbox, Group, SimpleGrid, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { IconArrowDown, IconArrowsSort, IconArrowUp } from "@tabler/icons-react";
import type { ControlPlaneRow } from "~/features/routing/controlplane.server";
import { CONTROL_PLANE_COLUMNS, type ControlPlaneColumn } from "~/features/routing/route-columns";
import { cellText, columnLabel, COLUMNS_PARAM } from "../columns";
import type { SortOrder } from "../table-state";

type TableProps = {
  rows: readonly ControlPlaneRow[];
  columns: readonly ControlPlaneColumn[];
  timezone: string;
  vantagePointNames: Record<string, string>;
  /** The sorted column and its direction, and the address that sorts by a column (a plain link: no JavaScript needed). */
  sort: { column: ControlPlaneColumn; order: SortOrder; href: (column: ControlPlaneColumn) => string };
};

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** A column header that sorts by its column: the sorting icon shows the direction, aria-sort says it. */
function SortableHeader({ column, timezone, sort }: { column: ControlPlaneColumn; timezone: string; sort: TableProps["sort"] }) {
  const sorted = sort.column === column;
  const Icon = !sorted ? IconArrowsSort : sort.order === "asc" ? IconArrowUp : IconArrowDown;
  const label = columnLabel(column, timezone);
  return (
    <Table.Th aria-sort={sorted ? ARIA_SORT[sort.order] : "none"} data-column={column}>
      <Anchor
        component={Link}
        to={sort.href(column)}
        c="inherit"
        fw={700}
        underline="hover"
        title={`Sort by ${label}`}
        style={{ display: "inline-flex", alignItems: "center", gap: 4 }}
        data-testid={`cp-sort-${column}`}
      >
        {label}
        <Icon size={14} aria-hidden="true" style={{ flex: "none", opacity: sorted ? 1 : 0.6 }} />
      </Anchor>
    </Table.Th>
  );
}

/**
 * The routing rows of one page (spec §3 Control plane row) as plain HTML, the same with and
 * without JavaScript: the picked columns, and first in each row a details toggle holding every
 * field, so nothing needs a horizontal scroll to be found. Wider than the screen (a phone), the
 * table scrolls inside its own box and the toggle stays in view at the start of the row.
 */
export function ControlPlaneTable({ rows, columns, timezone, vantagePointNames, sort }: TableProps) {
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }} data-testid="controlplane-scroll">
      <Table striped withTableBorder fz="xs" data-testid="controlplane-table" style={{ minWidth: 0 }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={{ width: "1%" }}>Details</Table.Th>
            {columns.map((c) => (
              <SortableHeader key={c} column={c} timezone={timezone} sort={sort} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={`${row.timestamp}-${row.vantagePoint}-${row.prefix}-${i}`}>
              <Table.Td style={{ verticalAlign: "top" }}>
                <details data-testid="cp-row-details">
                  <summary style={{ cursor: "pointer", whiteSpace: "nowrap" }}>Details</summary>
                  <RowDetail row={row} timezone={timezone} vantagePointNames={vantagePointNames} />
                </details>
              </Table.Td>
              {columns.map((c) => (
                <Table.Td
                  key={c}
                  style={{
                    verticalAlign: "top",
                    whiteSpace: c === "timestamp" || c === "prefix" ? "nowrap" : undefined,
                    overflowWrap: "anywhere",
                  }}
                >
                  {cellText(row, c, timezone, vantagePointNames)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

function RowDetail({ row, timezone, vantagePointNames }: Pick<TableProps, "timezone" | "vantagePointNames"> & { row: ControlPlaneRow }) {
  return (
    <dl style={{ margin: "6px 0 0", display: "grid", gridTemplateColumns: "max-content minmax(8rem, 22rem)", gap: "2px 12px" }}>
      {CONTROL_PLANE_COLUMNS.map((c) => (
        <div key={c} style={{ display: "contents" }}>
          <dt style={{ fontWeight: 600 }}>{columnLabel(c, timezone)}</dt>
          <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{cellText(row, c, timezone, vantagePointNames) || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The column picker (the spec's tables offer one): a GET form in a details element, so it works
 * without JavaScript; the query's parameters ride along as hidden fields.
 */
export function ColumnPicker({
  action,
  columns,
  timezone,
  keep,
}: {
  action: string;
  columns: readonly ControlPlaneColumn[];
  timezone: string;
  keep: URLSearchParams;
}) {
  const hidden = [...keep.entries()].filter(([name]) => name !== COLUMNS_PARAM && name !== "page");
  return (
    <details data-testid="cp-column-picker">
      <summary style={{ cursor: "pointer" }}>
        <Text component="span" size="sm">
          Columns ({columns.length} of {CONTROL_PLANE_COLUMNS.length})
        </Text>
      </summary>
      <form method="get" action={action}>
        {hidden.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing={4} mt="xs">
          {CONTROL_PLANE_COLUMNS.map((c) => (
            <Checkbox
              key={c}
              name={COLUMNS_PARAM}
              value={c}
              label={columnLabel(c, timezone)}
              defaultChecked={columns.includes(c)}
              size="xs"
            />
          ))}
        </SimpleGrid>
        <Group mt="xs">
          <Button type="submit" size="compact-sm" variant="default">
            Show these columns
          </Button>
        </Group>
      </form>
    </details>
  );
}
