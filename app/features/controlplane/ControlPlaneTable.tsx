import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef } from "mantine-react-table";
import { useMemo } from "react";
import type { ControlPlaneRow } from "~/features/routing/controlplane.server";
import { fmtTime } from "~/features/flows/ui/format";

/** The routing rows of one page (spec §3 Control plane row), times in the user's timezone. */
export function ControlPlaneTable({ rows, timezone }: { rows: readonly ControlPlaneRow[]; timezone: string }) {
  const columns = useMemo<MRT_ColumnDef<ControlPlaneRow>[]>(
    () => [
      { accessorKey: "timestamp", header: "timestamp", Cell: ({ cell }) => fmtTime(cell.getValue<number>(), timezone, "YYYY-MM-DD HH:mm:ss") },
      { accessorKey: "vantagePoint", header: "Vantage point" },
      { accessorKey: "IP", header: "IP" },
      { accessorKey: "prefix", header: "prefix" },
      { accessorKey: "withdrawn", header: "Event", Cell: ({ cell }) => (cell.getValue<boolean>() ? "withdrawn" : "announced") },
      { accessorKey: "ASPathSeq", header: "ASPathSeq" },
      { accessorKey: "localPref", header: "localPref" },
      { accessorKey: "BGPNextHop", header: "BGPNextHop" },
      { accessorKey: "AFI", header: "AFI" },
      { accessorKey: "SAFI", header: "SAFI" },
      { accessorKey: "ASConfedSeq", header: "ASConfedSeq" },
      { accessorKey: "ASPathSet", header: "ASPathSet" },
      { accessorKey: "Aggregator", header: "Aggregator" },
      { accessorKey: "Origin", header: "Origin" },
      { accessorKey: "Originator", header: "Originator" },
      { accessorKey: "communityIndex", header: "communityIndex" },
      { accessorKey: "expireMgmt", header: "expireMgmt", Cell: ({ cell }) => (cell.getValue<number | null>() === null ? "" : fmtTime(cell.getValue<number>(), timezone, "YYYY-MM-DD HH:mm")) },
    ],
    [timezone],
  );
  const table = useMantineReactTable({
    columns,
    data: rows as ControlPlaneRow[],
    enablePagination: false,
    enableTopToolbar: true,
    enableBottomToolbar: false,
    enableGlobalFilter: true,
    enableColumnFilters: true,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    initialState: { density: "xs", showGlobalFilter: false },
    mantineTableProps: { "data-testid": "controlplane-table", style: { fontSize: 12 } } as Record<string, unknown>,
    mantineTableContainerProps: { style: { maxHeight: 720 } },
    enableStickyHeader: true,
  });
  return <MantineReactTable table={table} />;
}
