import type { MRT_ColumnDef, MRT_RowData, MRT_SortingState } from "mantine-react-table";
import { lazy, Suspense } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { StaticTable } from "./StaticTable";

/** The interactive table (mantine-react-table), fetched once the page runs: not among the scripts the page loads first. */
const InteractiveTable = lazy(() => import("./DataTable").then((m) => ({ default: m.DataTable })));

type Props<T extends MRT_RowData> = {
  columns: MRT_ColumnDef<T>[];
  data: T[];
  getRowId: (row: T) => string;
  sorting: MRT_SortingState;
  testId: string;
};

/**
 * A tool table that loads its interactive version (DataTable.tsx: sorting, filters, column picker)
 * after the page: the server's HTML and the page until then hold the same table as plain HTML
 * (StaticTable.tsx), which is all a browser without JavaScript gets.
 */
export function DeferredDataTable<T extends MRT_RowData>(props: Props<T>) {
  const hydrated = useHydrated();
  const plain = <StaticTable {...props} />;
  if (!hydrated) return plain;
  return (
    <Suspense fallback={plain}>
      <InteractiveTable {...(props as Props<MRT_RowData>)} />
    </Suspense>
  );
}
