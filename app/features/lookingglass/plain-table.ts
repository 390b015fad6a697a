/**
 * The server-rendered Looking Glass table's own state in the URL: page, sort and a text filter, so
 * the table is sortable and filterable (spec §2 "filterable and sortable columns") where no script
 * runs — the public page never loads one (decision 014), the private page without JavaScript. The
 * interactive table keeps its own state in the browser. Pure and tolerant: an unknown column or
 * order is left out, never an error.
 */
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { cellText, dataColumns, type DataColumn } from "./columns";

export const PLAIN_TABLE_PARAMS = { page: "page", sort: "sort", order: "order", filter: "filter", filterColumn: "filterColumn" } as const;
const OWN_PARAMS: readonly string[] = Object.values(PLAIN_TABLE_PARAMS);
/** The longest filter text kept (a route's longest cell is its community list). */
export const FILTER_MAX_LENGTH = 200;

export type SortOrder = "asc" | "desc";
export type PlainTableState = {
  page: number;
  sort: { column: DataColumn; order: SortOrder } | null;
  /** Rows whose cell (in `column`, or in any column for null) contains `text`, ignoring case. */
  filter: { text: string; column: DataColumn | null } | null;
};

export const DEFAULT_PLAIN_TABLE_STATE: PlainTableState = { page: 1, sort: null, filter: null };

function columnOf(value: string | null, variant: "public" | "private"): DataColumn | null {
  return value !== null && (dataColumns(variant) as string[]).includes(value) ? (value as DataColumn) : null;
}

export function parsePlainTableState(search: URLSearchParams, variant: "public" | "private"): PlainTableState {
  const page = Number(search.get(PLAIN_TABLE_PARAMS.page));
  const sortColumn = columnOf(search.get(PLAIN_TABLE_PARAMS.sort), variant);
  const order: SortOrder = search.get(PLAIN_TABLE_PARAMS.order) === "desc" ? "desc" : "asc";
  const text = (search.get(PLAIN_TABLE_PARAMS.filter) ?? "").trim().slice(0, FILTER_MAX_LENGTH);
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    sort: sortColumn ? { column: sortColumn, order } : null,
    filter: text ? { text, column: columnOf(search.get(PLAIN_TABLE_PARAMS.filterColumn), variant) } : null,
  };
}

/** Numbers compare as numbers; text (prefixes and addresses included) with numeric collation, so 9.0.0.0 < 10.0.0.0. */
const NUMERIC: readonly DataColumn[] = ["BGP local_pref", "BGP med"];
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function sortKey(row: LookingGlassRow, column: DataColumn, tz: string): string | number {
  if (NUMERIC.includes(column)) {
    const n = Number(row[column]);
    return Number.isFinite(n) ? n : Number.NEGATIVE_INFINITY;
  }
  // The raw timestamp orders in time; its display text (in the user's timezone) would not.
  if (column === "LastUpdate") return String(row.LastUpdate ?? "");
  return cellText(row, column, tz);
}

/** The rows the table shows, filtered then sorted (a stable sort: equal rows keep the answer's order). */
export function applyPlainTableState(
  rows: readonly LookingGlassRow[],
  state: PlainTableState,
  variant: "public" | "private",
  tz: string,
): LookingGlassRow[] {
  let shown = [...rows];
  const filter = state.filter;
  if (filter) {
    const needle = filter.text.toLowerCase();
    const columns = filter.column ? [filter.column] : dataColumns(variant);
    shown = shown.filter((row) => columns.some((c) => cellText(row, c, tz).toLowerCase().includes(needle)));
  }
  const sort = state.sort;
  if (sort) {
    const sign = sort.order === "desc" ? -1 : 1;
    const keyed = shown.map((row, i) => ({ row, i, key: sortKey(row, sort.column, tz) }));
    keyed.sort((a, b) => {
      const c = typeof a.key === "number" && typeof b.key === "number" ? a.key - b.key : collator.compare(String(a.key), String(b.key));
      return c !== 0 ? sign * c : a.i - b.i;
    });
    shown = keyed.map((k) => k.row);
  }
  return shown;
}

/** The query's own parameters (without the table's), for links and the filter form's hidden fields. */
export function queryParams(search: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of search) if (!OWN_PARAMS.includes(k)) out.append(k, v);
  return out;
}

/** The URL of the table in `next` state over the same query. */
export function plainTableHref(path: string, query: URLSearchParams, next: PlainTableState): string {
  const s = new URLSearchParams(query);
  if (next.filter) {
    s.set(PLAIN_TABLE_PARAMS.filter, next.filter.text);
    if (next.filter.column) s.set(PLAIN_TABLE_PARAMS.filterColumn, next.filter.column);
  }
  if (next.sort) {
    s.set(PLAIN_TABLE_PARAMS.sort, next.sort.column);
    s.set(PLAIN_TABLE_PARAMS.order, next.sort.order);
  }
  if (next.page > 1) s.set(PLAIN_TABLE_PARAMS.page, String(next.page));
  return `${path}?${s}`;
}

/** A header's link: sorts by the column ascending, or flips the order when it already sorts; back to page 1. */
export function sortedBy(state: PlainTableState, column: DataColumn): PlainTableState {
  const order: SortOrder = state.sort?.column === column && state.sort.order === "asc" ? "desc" : "asc";
  return { ...state, page: 1, sort: { column, order } };
}
