/**
 * The interactive Looking Glass table (spec §2 "Result screens", §3, §9): 25 rows per page, at
 * least the height of 20 rows, filterable and sortable columns, a row detail dialog, the export
 * menu of the variant and — for users with RAW_NETWORK_ANALYZER — 'Show in RNA'. Loaded by the
 * screens only after hydration (the server renders PlainResultsTable), so the page's first
 * JavaScript stays small.
 */
import { Button, Checkbox, Group, Menu, Modal, Stack, Table, Text, Tooltip } from "@mantine/core";
import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef } from "mantine-react-table";
import { useMemo, useState } from "react";
import { MESSAGES } from "~/lib/messages";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import {
  ACTION_COLUMN,
  cellText,
  columnHeader,
  dataColumns,
  DEFAULT_COLUMNS,
  MIN_ROWS,
  PAGE_SIZE,
  RNA_COLUMNS,
  rnaLink,
  rnaVrf,
  type RnaColumn,
  type RouterOf,
  type VrfOf,
} from "../columns";
import { RouteCell } from "./RouteCell";

/** Row height of the dense table, for the minimum height of 20 rows. */
const ROW_HEIGHT_PX = 34;

export type ExportLink = { label: string; href: string };

export type ResultsTableProps = {
  rows: readonly LookingGlassRow[];
  variant: "public" | "private";
  /** The timezone of the times shown (the user's; UTC on the public page). */
  timezone: string;
  exports: readonly ExportLink[];
  /** Show in RNA: offered with RAW_NETWORK_ANALYZER; disabled (empty-database tooltip) while the flow records are empty. */
  rna: { rawFlowsEmpty: boolean; routerOf: RouterOf; vrfOf?: VrfOf } | null;
};

export function ResultsTable(props: ResultsTableProps) {
  const [detail, setDetail] = useState<LookingGlassRow | null>(null);
  const [rnaRow, setRnaRow] = useState<LookingGlassRow | null>(null);
  const columns = useMemo<MRT_ColumnDef<LookingGlassRow>[]>(
    () => [
      // The action first, so it is in view however narrow the screen.
      {
        id: ACTION_COLUMN,
        header: ACTION_COLUMN,
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        size: 90,
        Cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="light" onClick={() => setDetail(row.original)}>
              Details
            </Button>
            {props.rna ? (
              <Tooltip label={MESSAGES.emptyDatabase} disabled={!props.rna.rawFlowsEmpty}>
                <span>
                  <Button size="compact-xs" variant="light" disabled={props.rna.rawFlowsEmpty} onClick={() => setRnaRow(row.original)}>
                    Show in RNA
                  </Button>
                </span>
              </Tooltip>
            ) : null}
          </Group>
        ),
      },
      ...dataColumns(props.variant).map((c): MRT_ColumnDef<LookingGlassRow> => ({
        id: c,
        header: columnHeader(c, props.timezone),
        accessorFn: (row) => (c === "BGP local_pref" || c === "BGP med" ? Number(row[c] ?? 0) : cellText(row, c, props.timezone)),
        filterFn: c === "BGP local_pref" || c === "BGP med" ? "equals" : "contains",
        // AS paths with their names, communities one per line, the RPKI state as a badge; the filters search the text.
        ...(c === "BGP as_path" || c === "BGP community" || c === "RPKI"
          ? { Cell: ({ row }) => <RouteCell row={row.original} column={c} timezone={props.timezone} /> }
          : {}),
      })),
    ],
    [props.variant, props.rna, props.timezone],
  );
  // The other columns are in the row details; the column picker (show/hide) adds them to the table.
  const columnVisibility = Object.fromEntries(dataColumns(props.variant).map((c) => [c, DEFAULT_COLUMNS.includes(c)]));
  const table = useMantineReactTable({
    columns,
    data: props.rows as LookingGlassRow[],
    enableColumnFilters: true,
    enableSorting: true,
    enableGlobalFilter: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableColumnActions: false,
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE }, density: "xs", showColumnFilters: true, columnVisibility },
    mantinePaginationProps: { rowsPerPageOptions: [String(PAGE_SIZE)], showRowsPerPage: false },
    mantineTableProps: { "data-testid": "lookingglass-table", striped: true } as Record<string, unknown>,
    mantineTableContainerProps: { style: { minHeight: MIN_ROWS * ROW_HEIGHT_PX } },
    renderTopToolbarCustomActions: () => <ExportMenu variant={props.variant} exports={props.exports} />,
  });
  return (
    <>
      <MantineReactTable table={table} />
      <Modal opened={detail !== null} onClose={() => setDetail(null)} title="Route details" size="lg">
        {detail ? <RowDetail row={detail} variant={props.variant} timezone={props.timezone} /> : null}
      </Modal>
      {props.rna ? <RnaDialog row={rnaRow} onClose={() => setRnaRow(null)} routerOf={props.rna.routerOf} vrfOf={props.rna.vrfOf} /> : null}
    </>
  );
}

function ExportMenu({ variant, exports }: { variant: "public" | "private"; exports: readonly ExportLink[] }) {
  if (variant === "public") {
    return (
      <Group gap="xs">
        {exports.map((e) => (
          <Button key={e.label} component="a" href={e.href} size="compact-sm" variant="default">
            {e.label}
          </Button>
        ))}
      </Group>
    );
  }
  return (
    <Menu>
      <Menu.Target>
        <Button size="compact-sm" variant="default">
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {exports.map((e) => (
          <Menu.Item key={e.label} component="a" href={e.href}>
            {e.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function RowDetail({ row, variant, timezone }: { row: LookingGlassRow; variant: "public" | "private"; timezone: string }) {
  return (
    <Table withRowBorders>
      <Table.Tbody>
        {dataColumns(variant).map((c) => (
          <Table.Tr key={c}>
            <Table.Th w={180}>{columnHeader(c, timezone)}</Table.Th>
            <Table.Td style={{ wordBreak: "break-word" }}>
              <RouteCell row={row} column={c} timezone={timezone} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The column picker of 'Show in RNA': confirm stays disabled until a column is picked. */
function RnaDialog({
  row,
  onClose,
  routerOf,
  vrfOf,
}: {
  row: LookingGlassRow | null;
  onClose: () => void;
  routerOf: RouterOf;
  vrfOf?: VrfOf;
}) {
  const [picked, setPicked] = useState<RnaColumn[]>([]);
  const link = row && picked.length ? rnaLink(row, picked, routerOf, vrfOf) : null;
  const vrf = row ? rnaVrf(row, vrfOf) : null;
  return (
    <Modal
      opened={row !== null}
      onClose={() => {
        setPicked([]);
        onClose();
      }}
      title={MESSAGES.selectColumnTitle}
    >
      <Stack>
        <Text size="sm">
          The chosen columns of this route become the filters of the Raw Network Analyzer
          {vrf ? `; the prefix, AS and next hop match only the flows of VRF ${vrf}, the table of this route.` : "."}
        </Text>
        <Checkbox.Group value={picked} onChange={(v) => setPicked(v as RnaColumn[])}>
          <Stack gap={6}>
            {RNA_COLUMNS.map((c) => (
              <Checkbox key={c} value={c} label={`${columnHeader(c)}: ${row ? cellText(row, c) : ""}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Tooltip label={MESSAGES.selectAtLeastOneColumn} disabled={picked.length > 0}>
            <span>
              <Button
                disabled={!link}
                onClick={() => {
                  if (link) window.open(link, "_blank", "noopener");
                  setPicked([]);
                  onClose();
                }}
              >
                Show in RNA
              </Button>
            </span>
          </Tooltip>
        </Group>
      </Stack>
    </Modal>
  );
}
