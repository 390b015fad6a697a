/**
 * The Raw Network Analyzer screen's URL state: the address → the query the engine runs, pure and
 * tolerant (docs/architecture.md §9a step 2). A value that cannot apply falls back to the default
 * and says so in `notices` ("Not applied as asked"); nothing here throws. Isomorphic.
 *
 * Parameters:
 * - filter (repeated): `DIMENSION:value[,value…]`, as the Flow Explorer and the Looking Glass's
 *   'Show in RNA' write them (`filter=DST_PREFIX:192.0.2.0/24`, `filter=AS_DST:!64500`); the engine
 *   parses the values (negation, tags, delegated locks);
 * - q: a filter expression in nfdump's language (docs/rna.md);
 * - columns (repeated or comma-separated): the table's columns; present but empty is the column
 *   picker refusing an empty choice (spec shell §5);
 * - aggregationPrefixV4, aggregationPrefixV6: fold addresses to /n (`24` or `/24`), empty for off;
 * - copies=1: include the re-exported copies (`counted = 0`);
 * - sort: `<column>[:asc|desc]`; after: the engine's keyset cursor (opaque);
 * - dateRange (a preset of ~/lib/time-range) or start and end (read by `parseInstant`: ISO dates
 *   and times in the user's timezone, the spec's 01.11.2026 14:00, or unix seconds);
 * - `<column>` of a numeric column with an nfdump term (src_port, as_dst …): a '>' / '<' filter
 *   (spec shell §2, §5), added to the expression so it applies to every page, not only the shown one;
 * - timeseries=<column>: the timeseries of the current page, grouped by that column.
 *
 * The defaults (no parameter in the address) come from one function, `rnaDefaultState`, which takes
 * the site's stored default query (`rna_default_query`) when there is one.
 */
import type { RequestFilter } from "~/features/filter/request-filter";
import { parseNfdumpFilter } from "~/features/filter/nfdump";
import { invalidInput } from "~/lib/messages";
import { parseNumericFilter, type NumericFilter } from "~/lib/numeric-filter";
import { toLocalInput } from "~/lib/date-format";
import { isPreset, parseInstant, presetRange, PRESET_LABELS, type Preset, type TimeRange } from "~/lib/time-range";
import type { RnaColumnDef, RnaColumnId } from "./columns";
import { isAggregated, validateAggregation, type RnaQuery, type RnaSort } from "./query";

/** What the screen needs to know of a column of the catalogue (RNA_COLUMNS, as `columnsFor(user)` gives it). */
export type RnaColumnInfo = Pick<RnaColumnDef, "label" | "numeric" | "kind"> & { id: RnaColumnId };

export type SortDirection = RnaSort["direction"];

/** The site's stored default query (rna_default_query, as read by `readRnaDefaultQuery`): every part optional. */
export type StoredRnaDefault = Partial<{
  columns: readonly string[];
  filters: readonly RequestFilter[];
  expression: string;
  aggregation: { v4: number | null; v6: number | null };
  sort: { column: string; direction: SortDirection } | null;
  dateRange: string;
}>;

export type RnaDefaultState = {
  columns: RnaColumnId[];
  filters: RequestFilter[];
  expression: string;
  aggregation: { v4: number | null; v6: number | null };
  sort: RnaSort | null;
  dateRange: Preset;
};

export const RNA_DEFAULT_DATE_RANGE: Preset = "LAST_1_HOUR";
/** Rows of one page: the first page renders on the server, so it stays a screenful. */
export const RNA_PAGE_SIZE = 50;
export const COLUMNS_PARAM = "columns";
export const PREFIX_PARAMS = { v4: "aggregationPrefixV4", v6: "aggregationPrefixV6" } as const;
/** An opaque cursor is short; anything longer is no cursor of this engine. */
const MAX_CURSOR_LENGTH = 2000;
const MINUTE = 60;

/**
 * The nfdump term of each numeric column whose '>' / '<' filter the table offers: the term compares
 * exactly the value the column shows. The sampled counters (`bytes`, `packets`) have none: nfdump's
 * `bytes` compares the scaled figure, which is the column `bytes_scaled`.
 */
export const NUMERIC_FILTER_TERMS: Readonly<Partial<Record<RnaColumnId, string>>> = {
  src_port: "src port",
  dst_port: "dst port",
  bytes_scaled: "bytes",
  packets_scaled: "packets",
};

/**
 * The screen's default state: the stored default query's parts that fit (columns the user may see,
 * prefixes in range), the built-in defaults for the rest — the last hour, the catalogue's default
 * columns, no filter, no aggregation, the engine's order. The notice says what of the stored value
 * was left out.
 */
export function rnaDefaultState(
  catalogue: readonly RnaColumnInfo[],
  defaultColumns: readonly RnaColumnId[],
  stored: StoredRnaDefault | null = null,
): { state: RnaDefaultState; notices: string[] } {
  const notices: string[] = [];
  const known = new Set(catalogue.map((c) => c.id as string));
  const builtIn = defaultColumns.filter((c) => known.has(c));
  let columns = builtIn;
  if (stored?.columns) {
    const fitting = stored.columns.filter((c) => known.has(c)) as RnaColumnId[];
    if (fitting.length !== stored.columns.length)
      notices.push(
        `The site's default query names columns this screen does not show (${stored.columns.filter((c) => !known.has(c)).join(", ")}); they were left out.`,
      );
    if (fitting.length) columns = fitting;
  }
  const aggregation = { v4: null as number | null, v6: null as number | null };
  for (const v of ["v4", "v6"] as const) {
    const n = stored?.aggregation?.[v] ?? null;
    if (n === null) continue;
    const checked = validateAggregation({ [v]: n });
    if (checked.ok) aggregation[v] = checked.aggregation[v];
    else notices.push(`The site's default query: ${checked.errors[0].message}; no IP${v} aggregation was used.`);
  }
  let sort: RnaSort | null = null;
  if (stored?.sort) {
    if (known.has(stored.sort.column)) sort = { column: stored.sort.column as RnaColumnId, direction: stored.sort.direction };
    else
      notices.push(`The site's default query sorts by ${stored.sort.column}, which this screen does not show; the default order was used.`);
  }
  let dateRange = RNA_DEFAULT_DATE_RANGE;
  if (stored?.dateRange) {
    if (isPreset(stored.dateRange)) dateRange = stored.dateRange;
    else notices.push(`The site's default query's date range ${stored.dateRange} is not a date range; the last hour was used.`);
  }
  return {
    state: {
      columns: columns.length ? [...columns] : catalogue.slice(0, 1).map((c) => c.id),
      filters: (stored?.filters ?? []).map((f) => ({ dimension: f.dimension, values: [...f.values] })),
      expression: stored?.expression ?? "",
      aggregation,
      sort,
      dateRange,
    },
    notices,
  };
}

/** The screen's state: what the query runs with, and what the forms show back. */
export type RnaScreenParams = {
  filters: RequestFilter[];
  /** The URL's nfdump expression as typed (the form shows it back, also when it cannot apply). */
  q: string;
  /** Why `q` cannot apply (the parser's message with the position), or null. */
  qError: string | null;
  columns: RnaColumnId[];
  aggregation: { v4: number | null; v6: number | null };
  /** The prefix fields as typed, and the spec's message of a value that cannot apply. */
  aggregationText: { v4: string; v6: string };
  aggregationErrors: Partial<Record<"v4" | "v6", string>>;
  includeCopies: boolean;
  sort: RnaSort | null;
  after: string | null;
  /** The range asked for, before the engine clamps it to what flows_raw keeps; minutes whole. */
  range: TimeRange;
  /** The preset in use, or null for a start / end range. */
  dateRange: Preset | null;
  /** The '>' / '<' column filters that apply, and the fields as typed with the messages of those that do not. */
  numeric: { column: RnaColumnId; filter: NumericFilter }[];
  numericText: Record<string, string>;
  numericErrors: Record<string, string>;
  timeseries: RnaColumnId | null;
  notices: string[];
};

/** Shortened for messages: a value of any length must not make the page unreadable. */
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);
const floorMinute = (t: number) => t - (((t % MINUTE) + MINUTE) % MINUTE);
const ceilMinute = (t: number) => Math.ceil(t / MINUTE) * MINUTE;

/** `DIMENSION:v1,v2` → a request filter; null for a text that is not of that form. */
export function parseFilterParam(text: string): RequestFilter | null {
  const colon = text.indexOf(":");
  if (colon <= 0) return null;
  const dimension = text.slice(0, colon).trim();
  const values = text
    .slice(colon + 1)
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return /^[A-Z][A-Z0-9_]*$/.test(dimension) && values.length ? { dimension, values } : null;
}

/** A prefix field: `24` or `/24`, empty for off; the spec's messages (the engine's validateAggregation) otherwise. */
export function parsePrefixLength(text: string, version: "v4" | "v6"): { value: number | null } | { error: string } {
  const checked = validateAggregation({ [version]: text.trim() });
  return checked.ok ? { value: checked.aggregation[version] } : { error: checked.errors[0].message };
}

/** The first direction of a column: times and numbers largest first, text A to Z. */
export function defaultDirection(column: RnaColumnInfo): SortDirection {
  return column.id === "time_received" || column.numeric ? "desc" : "asc";
}

/** Whether the page's timeseries may be grouped by the column: a dimension that names a value (the engine groups neither by time nor by tags). */
export const isTimeseriesColumn = (column: Pick<RnaColumnInfo, "id" | "kind">) =>
  column.kind === "dimension" && column.id !== "time_received" && column.id !== "tags";

/** The numeric columns of the catalogue that have a '>' / '<' filter. */
export function filterableColumns(catalogue: readonly RnaColumnInfo[]): RnaColumnInfo[] {
  return catalogue.filter((c) => c.numeric && NUMERIC_FILTER_TERMS[c.id] !== undefined);
}

/**
 * Resolves the range: a preset (default: the stored default's, else the last hour), or a start and
 * an end read in the user's timezone; an unreadable one falls back, an end before the start is
 * swapped. Whole minutes, so that the form's fields and the links show exactly what was queried.
 */
function resolveRange(
  search: URLSearchParams,
  fallback: Preset,
  now: number,
  tz: string,
  notices: string[],
): { range: TimeRange; dateRange: Preset | null } {
  const text = (name: string) => search.get(name)?.trim() || null;
  const preset = text("dateRange");
  const startText = text("start");
  const endText = text("end");
  const whole = (r: TimeRange) => ({ start: floorMinute(r.start), end: ceilMinute(r.end) });
  const byPreset = (p: Preset) => ({ range: whole(presetRange(p, now, tz)), dateRange: p });
  if (preset && preset !== "CUSTOM") {
    if (isPreset(preset)) return byPreset(preset);
    notices.push(`dateRange=${shown(preset)} in the address is not a date range; ${PRESET_LABELS[fallback]} was used instead.`);
  }
  if (startText === null && endText === null) return byPreset(fallback);
  const start = startText === null ? null : parseInstant(startText, tz, "start");
  const end = endText === null ? null : parseInstant(endText, tz, "end");
  for (const [name, value, parsed] of [
    ["start", startText, start],
    ["end", endText, end],
  ] as const) {
    if (value !== null && parsed === null)
      notices.push(
        `${name}=${shown(value)} in the address is not a date (write 01.11.2026, 01.11.2026 14:00 or unix seconds); ${
          name === "start" ? `the start of ${PRESET_LABELS[fallback].toLowerCase()}` : "now"
        } was used instead.`,
      );
  }
  const base = presetRange(fallback, now, tz);
  let range = { start: start ?? base.start, end: end ?? base.end };
  if (range.end < range.start) {
    notices.push("The end was before the start; the two were swapped.");
    range = { start: range.end, end: range.start };
  }
  return { range: whole(range), dateRange: null };
}

export function parseRnaParams(
  search: URLSearchParams,
  context: {
    catalogue: readonly RnaColumnInfo[];
    defaults: RnaDefaultState;
    timezone: string;
    now: number;
  },
): RnaScreenParams {
  const { catalogue, defaults } = context;
  const notices: string[] = [];
  const byId = new Map(catalogue.map((c) => [c.id as string, c]));
  const text = (name: string) => search.get(name)?.trim() ?? "";

  // Filters: the URL's replace the default's; a text not of the form DIMENSION:value is reported.
  const filterTexts = search
    .getAll("filter")
    .map((f) => f.trim())
    .filter(Boolean);
  const filters: RequestFilter[] = [];
  for (const f of filterTexts) {
    const parsed = parseFilterParam(f);
    if (parsed) filters.push(parsed);
    else notices.push(`filter=${shown(f)} in the address is not a filter (write DIMENSION:value, e.g. AS_DST:64500); it was left out.`);
  }

  // The nfdump expression: parsed here as well, so that a bad one is said on its field and the page still loads.
  const q = search.has("q") ? (search.get("q") ?? "") : defaults.expression;
  let qError: string | null = null;
  if (q.trim()) {
    const parsed = parseNfdumpFilter(q);
    if (!parsed.ok) qError = `Column ${parsed.error.column}: ${parsed.error.message}`;
  }
  if (qError) notices.push(`q=${shown(q.trim())} in the address is not a filter expression this screen reads; it was not applied.`);

  // Columns: present but empty is an empty choice, which the column picker refuses.
  let columns = defaults.columns;
  if (search.has(COLUMNS_PARAM)) {
    const asked = search
      .getAll(COLUMNS_PARAM)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean);
    const picked = [...new Set(asked)].filter((c) => byId.has(c)) as RnaColumnId[];
    const unknown = asked.filter((c) => !byId.has(c));
    if (unknown.length)
      notices.push(`columns=${shown(unknown.join(","))} in the address: no such column${unknown.length > 1 ? "s" : ""} for you; left out.`);
    if (picked.length) columns = catalogue.filter((c) => picked.includes(c.id)).map((c) => c.id);
    else notices.push("Column picker needs at least one column selected; the default columns are shown.");
  }

  // Prefix aggregation, with the spec's four messages on the fields.
  const aggregation = { ...defaults.aggregation };
  const aggregationText = {
    v4: search.has(PREFIX_PARAMS.v4) ? text(PREFIX_PARAMS.v4) : defaults.aggregation.v4 === null ? "" : String(defaults.aggregation.v4),
    v6: search.has(PREFIX_PARAMS.v6) ? text(PREFIX_PARAMS.v6) : defaults.aggregation.v6 === null ? "" : String(defaults.aggregation.v6),
  };
  const aggregationErrors: RnaScreenParams["aggregationErrors"] = {};
  for (const v of ["v4", "v6"] as const) {
    const parsed = parsePrefixLength(aggregationText[v], v);
    if ("error" in parsed) {
      aggregationErrors[v] = parsed.error;
      aggregation[v] = null;
      notices.push(`${PREFIX_PARAMS[v]}=${shown(aggregationText[v])}: ${parsed.error}; the IP${v} addresses are not aggregated.`);
    } else aggregation[v] = parsed.value;
  }

  const copiesText = text("copies");
  const includeCopies = copiesText === "1" || copiesText === "on" || copiesText === "true";
  if (copiesText && !includeCopies && copiesText !== "0")
    notices.push(`copies=${shown(copiesText)} in the address is not 1 or 0; re-exported copies are left out.`);

  // Sort: <column>[:asc|desc]; a column not shown cannot be the order.
  let sort = defaults.sort && columns.includes(defaults.sort.column) ? defaults.sort : null;
  const sortText = text("sort");
  if (sortText) {
    const [columnText, directionText = ""] = sortText.split(":");
    const column = byId.get(columnText);
    if (!column || !columns.includes(column.id))
      notices.push(`sort=${shown(sortText)} in the address is not a column of the table; the default order was used.`);
    else if (directionText && directionText !== "asc" && directionText !== "desc")
      notices.push(
        `sort=${shown(sortText)} in the address: ${shown(directionText)} is not asc or desc; ${defaultDirection(column) === "asc" ? "ascending" : "descending"} was used.`,
      );
    sort =
      column && columns.includes(column.id)
        ? { column: column.id, direction: directionText === "asc" || directionText === "desc" ? directionText : defaultDirection(column) }
        : sort;
  }

  const afterText = text("after");
  let after: string | null = null;
  if (afterText.length > MAX_CURSOR_LENGTH) notices.push("after= in the address is not a page of this table; the first page is shown.");
  else if (afterText) after = afterText;

  const { range, dateRange } = resolveRange(search, defaults.dateRange, context.now, context.timezone, notices);

  // '>' / '<' column filters: typed values shown back; one that cannot apply carries the spec's message.
  const numeric: RnaScreenParams["numeric"] = [];
  const numericText: Record<string, string> = {};
  const numericErrors: Record<string, string> = {};
  for (const column of filterableColumns(catalogue)) {
    const typed = search.get(column.id) ?? "";
    numericText[column.id] = typed;
    const parsed = /[%/]|bps\s*$/i.test(typed) ? "invalid" : parseNumericFilter(typed);
    if (parsed === "invalid") numericErrors[column.id] = invalidInput(shown(typed.trim()), column.label);
    // Aggregated, a measure's row is a sum; the term would still compare single records.
    else if (parsed && column.kind === "measure" && isAggregated(aggregation))
      numericErrors[column.id] =
        `With prefix aggregation the rows are sums: the ${column.label} filter compares single records, so it was not applied.`;
    else if (parsed) numeric.push({ column: column.id, filter: parsed });
  }

  const timeseriesText = text("timeseries");
  let timeseries: RnaColumnId | null = null;
  if (timeseriesText) {
    const column = byId.get(timeseriesText);
    if (column && columns.includes(column.id) && isTimeseriesColumn(column)) timeseries = column.id;
    else
      notices.push(
        `timeseries=${shown(timeseriesText)} in the address is not a column of the table that describes the records; no timeseries is shown.`,
      );
  }

  return {
    filters: search.has("filter") ? filters : defaults.filters,
    q,
    qError,
    columns,
    aggregation,
    aggregationText,
    aggregationErrors,
    includeCopies,
    sort,
    after,
    range,
    dateRange,
    numeric,
    numericText,
    numericErrors,
    timeseries,
    notices,
  };
}

/** A '>' / '<' filter as an nfdump term: integers only (a port or an AS number has no fraction). */
function numericTerm(column: RnaColumnId, filter: NumericFilter): string {
  const bound = filter.op === ">" ? Math.floor(filter.value) : Math.ceil(filter.value);
  return `${NUMERIC_FILTER_TERMS[column]} ${filter.op} ${Math.max(0, bound)}`;
}

/** The expression the engine runs: the URL's `q` (when it parses) and the column filters, joined by `and`. */
export function effectiveExpression(p: Pick<RnaScreenParams, "q" | "qError" | "numeric">): string {
  const parts = [...(p.q.trim() && !p.qError ? [`(${p.q.trim()})`] : []), ...p.numeric.map((n) => numericTerm(n.column, n.filter))];
  return parts.join(" and ");
}

/** The engine's query of a state. */
export function toRnaQuery(p: RnaScreenParams, pageSize = RNA_PAGE_SIZE): RnaQuery {
  return {
    start: p.range.start,
    end: p.range.end,
    columns: p.columns,
    filters: p.filters,
    expression: effectiveExpression(p),
    aggregation: p.aggregation,
    includeCopies: p.includeCopies,
    sort: p.sort,
    after: p.after,
    pageSize,
  };
}

/** The parts a link may change or leave out. */
export type SearchChange = Partial<{
  sort: RnaSort | null;
  after: string | null;
  columns: readonly RnaColumnId[];
  timeseries: RnaColumnId | null;
}> & { without?: readonly ("aggregation" | "numeric" | "filters" | "q" | "columns" | "timeseries")[] };

/**
 * The address of a state (sort links, the next page, the forms' hidden fields, exports): every
 * control as its parameter, the range pinned as start and end in the user's timezone so that the
 * pages of one query read the same window, `after` only when a change asks for it.
 */
export function rnaSearch(p: RnaScreenParams, tz: string, change: SearchChange = {}): URLSearchParams {
  const without = new Set(change.without ?? []);
  const s = new URLSearchParams();
  if (!without.has("filters")) for (const f of p.filters) s.append("filter", `${f.dimension}:${f.values.join(",")}`);
  if (!without.has("q") && p.q.trim() && !p.qError) s.set("q", p.q.trim());
  if (!without.has("columns")) for (const c of change.columns ?? p.columns) s.append(COLUMNS_PARAM, c);
  if (!without.has("aggregation")) {
    if (p.aggregation.v4 !== null) s.set(PREFIX_PARAMS.v4, String(p.aggregation.v4));
    if (p.aggregation.v6 !== null) s.set(PREFIX_PARAMS.v6, String(p.aggregation.v6));
  }
  if (p.includeCopies) s.set("copies", "1");
  const sort = change.sort === undefined ? p.sort : change.sort;
  if (sort) s.set("sort", `${sort.column}:${sort.direction}`);
  s.set("start", toLocalInput(p.range.start, tz));
  s.set("end", toLocalInput(p.range.end, tz, "up"));
  if (!without.has("numeric")) for (const n of p.numeric) s.set(n.column, `${n.filter.op}${n.filter.value}`);
  const timeseries = change.timeseries === undefined ? p.timeseries : change.timeseries;
  if (!without.has("timeseries") && timeseries) s.set("timeseries", timeseries);
  if (change.after) s.set("after", change.after);
  return s;
}

/** Where a column header leads: the other direction for the sorted column, the column's first direction otherwise. */
export function nextSort(current: RnaSort | null, column: RnaColumnInfo): RnaSort {
  if (current?.column === column.id) return { column: column.id, direction: current.direction === "asc" ? "desc" : "asc" };
  return { column: column.id, direction: defaultDirection(column) };
}
