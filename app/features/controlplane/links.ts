/**
 * The Control Plane screen's own addresses: the query and range as the form writes them, plus the
 * table's columns, sort and filters. Pager links, sort links and the forms' hidden fields all come
 * from here, so that moving through the pages or sorting keeps everything else. Isomorphic and pure.
 */
import type { ControlPlaneColumn } from "~/features/routing/route-columns";
import { COLUMNS_PARAM, isDefaultColumns } from "./columns";
import type { RibQueryType } from "~/lib/routing-query-types";
import type { RibViewChoice } from "~/features/routing/rib-views";
import { controlPlaneSearch } from "./params";
import { tableStateEntries, type ControlPlaneTableState, type SortOrder } from "./table-state";

export type ScreenState = {
  params: { queryType: RibQueryType; queryTerm: string; ribView: RibViewChoice };
  range: { start: number; end: number } | null;
  timezone: string;
  columns: readonly ControlPlaneColumn[];
  table: ControlPlaneTableState;
};

type Part = "columns" | "sort" | "filters";

/** The table's parameters (columns, sort, filters) of a state, leaving out the parts named. */
export function tableEntries(
  s: ScreenState,
  options: { without?: Part[]; sort?: { sort: ControlPlaneColumn; order: SortOrder } } = {},
): [string, string][] {
  const without = new Set(options.without ?? []);
  const out: [string, string][] = without.has("columns") || isDefaultColumns(s.columns) ? [] : s.columns.map((c) => [COLUMNS_PARAM, c]);
  const table = options.sort ? { ...s.table, ...options.sort } : s.table;
  return [...out, ...tableStateEntries(table, { sort: !without.has("sort"), filters: !without.has("filters") })];
}

/** The search string of the state, on `page` (1 when not given: a new sort or filter starts over). */
export function screenSearch(
  s: ScreenState,
  options: { page?: number; without?: Part[]; sort?: { sort: ControlPlaneColumn; order: SortOrder } } = {},
): URLSearchParams {
  const search = new URLSearchParams(
    s.range
      ? controlPlaneSearch(
          {
            queryType: s.params.queryType,
            queryTerm: s.params.queryTerm,
            ribView: s.params.ribView,
            start: s.range.start,
            end: s.range.end,
            page: options.page,
          },
          s.timezone,
        )
      : "",
  );
  for (const [name, value] of tableEntries(s, options)) search.append(name, value);
  return search;
}
