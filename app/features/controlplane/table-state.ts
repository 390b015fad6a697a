/**
 * The Control Plane table's sorting and filtering as URL state (spec shell §2: tables offer column
 * sorting, a column picker and numeric '>' / '<' column filters; §5: only > and < are accepted, and
 * an invalid value is reported as '{value} is not a valid {name} input'). The state lives in the
 * address so that headers are plain links and the filters a GET form: everything works without
 * JavaScript, and the query applies it on the server (see controlPlaneSql). Isomorphic and pure.
 *
 * Parameters: sort=<column>&order=asc|desc (default: time, newest first), q=<text> (rows that
 * contain the text in any of their shown values), localPref=>100 or <200.
 */
import { parseNumericFilter, type NumericFilter } from "~/lib/numeric-filter";
import { invalidInput } from "~/lib/messages";
import { CONTROL_PLANE_COLUMNS, type ControlPlaneColumn } from "~/features/routing/route-columns";
import { COLUMN_LABELS } from "./columns";

export const SORT_PARAM = "sort";
export const ORDER_PARAM = "order";
export const SEARCH_PARAM = "q";
export const SEARCH_LABEL = "Search";
/** Longest search text: longer than any value of a row, short enough to keep the address readable. */
export const SEARCH_MAX_LENGTH = 200;

/** The numeric columns, each with a '>' / '<' filter whose parameter is the column's name. */
export const NUMERIC_FILTER_COLUMNS = ["localPref"] as const satisfies readonly ControlPlaneColumn[];
export type NumericFilterColumn = (typeof NUMERIC_FILTER_COLUMNS)[number];

export type SortOrder = "asc" | "desc";
export const DEFAULT_SORT: { column: ControlPlaneColumn; order: SortOrder } = { column: "timestamp", order: "desc" };

export type ControlPlaneTableState = {
  sort: ControlPlaneColumn;
  order: SortOrder;
  /** The trimmed search text; empty: no search. */
  search: string;
  /** The numeric filters that apply. */
  numeric: { column: NumericFilterColumn; filter: NumericFilter }[];
  /** The filter fields as typed, so that the form shows them back (also when invalid). */
  typed: Record<typeof SEARCH_PARAM | NumericFilterColumn, string>;
  /** Per filter field, the spec's invalid-input message of a value that was not applied. */
  errors: Partial<Record<typeof SEARCH_PARAM | NumericFilterColumn, string>>;
  /** Sort parameters that were not understood, with what was used instead. */
  notices: string[];
};

const ORDER_WORDS: Record<SortOrder, string> = { asc: "ascending", desc: "descending" };

/** A filter of a numeric column: '>' or '<' and a plain number (k and M are read as thousands and millions). */
function parseColumnFilter(text: string): NumericFilter | null | "invalid" {
  // The shared parser also reads units of traffic (%, bit/s), which a local preference has not.
  if (/[%/]|bps\s*$/i.test(text)) return "invalid";
  return parseNumericFilter(text);
}

/** Shortened for messages: a value of any length must not make the page unreadable. */
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

export function parseTableState(search: URLSearchParams): ControlPlaneTableState {
  const notices: string[] = [];
  const errors: ControlPlaneTableState["errors"] = {};
  const sortText = search.get(SORT_PARAM)?.trim() ?? "";
  const orderText = search.get(ORDER_PARAM)?.trim() ?? "";
  let sort = DEFAULT_SORT.column;
  let order: SortOrder | null = null;
  if (sortText) {
    if ((CONTROL_PLANE_COLUMNS as readonly string[]).includes(sortText)) sort = sortText as ControlPlaneColumn;
    else
      notices.push(
        `sort=${shown(sortText)} in the address is not a column; the rows are sorted by ${COLUMN_LABELS[DEFAULT_SORT.column]}, newest first.`,
      );
  }
  if (orderText === "asc" || orderText === "desc") order = orderText;
  else if (orderText)
    notices.push(
      `order=${shown(orderText)} in the address is not a sort order (asc or desc); ${ORDER_WORDS[defaultOrder(sort)]} was used.`,
    );
  const typed = { [SEARCH_PARAM]: search.get(SEARCH_PARAM) ?? "", localPref: search.get("localPref") ?? "" };
  let text = typed[SEARCH_PARAM].trim();
  // Control characters (NUL included) are no text of a row; over-long texts cannot match one.

  if (/[\u0000-\u001f\u007f]/.test(text) || text.length > SEARCH_MAX_LENGTH) {
    errors[SEARCH_PARAM] = invalidInput(shown(text), SEARCH_LABEL);
    text = "";
  }
  const numeric: ControlPlaneTableState["numeric"] = [];
  for (const column of NUMERIC_FILTER_COLUMNS) {
    const parsed = parseColumnFilter(typed[column]);
    if (parsed === "invalid") errors[column] = invalidInput(shown(typed[column].trim()), COLUMN_LABELS[column]);
    else if (parsed) numeric.push({ column, filter: parsed });
  }
  return { sort, order: order ?? defaultOrder(sort), search: text, numeric, typed, errors, notices };
}

/** Times show the newest first; every other column starts ascending. */
export function defaultOrder(column: ControlPlaneColumn): SortOrder {
  return column === "timestamp" ? "desc" : "asc";
}

/** Where a header link leads: the other direction for the sorted column, the column's first direction otherwise. */
export function nextSort(
  state: Pick<ControlPlaneTableState, "sort" | "order">,
  column: ControlPlaneColumn,
): { sort: ControlPlaneColumn; order: SortOrder } {
  if (state.sort === column) return { sort: column, order: state.order === "asc" ? "desc" : "asc" };
  return { sort: column, order: defaultOrder(column) };
}

export const isFiltered = (state: ControlPlaneTableState) => state.search !== "" || state.numeric.length > 0;

/**
 * The address parameters of a sort and of the filters that apply (defaults left out), for links
 * and the forms' hidden fields.
 */
export function tableStateEntries(
  state: Pick<ControlPlaneTableState, "sort" | "order" | "search" | "typed" | "errors">,
  parts: { sort?: boolean; filters?: boolean } = {},
): [string, string][] {
  const out: [string, string][] = [];
  if (parts.sort !== false && (state.sort !== DEFAULT_SORT.column || state.order !== DEFAULT_SORT.order)) {
    out.push([SORT_PARAM, state.sort], [ORDER_PARAM, state.order]);
  }
  if (parts.filters !== false) {
    if (state.search) out.push([SEARCH_PARAM, state.search]);
    for (const column of NUMERIC_FILTER_COLUMNS) {
      const text = state.typed[column].trim();
      if (text && !state.errors[column]) out.push([column, text]);
    }
  }
  return out;
}
