/**
 * The planner screens' URL state: every control of /border-planner and /core-planner lives in the
 * address, so a GET form drives the screens without JavaScript and a link reproduces a view.
 * Isomorphic and pure. Tolerant: a value that cannot be used falls back to the default and is named
 * in a notice ("Not applied as asked"), never an error page.
 *
 * Parameters (both screens unless said):
 * - dateRange: a preset id (LAST_2_DAYS, LAST_7_DAYS, LAST_30_DAYS, …; default LAST_30_DAYS), or
 *   start and end: unix seconds, or days as the form's fields write them (dd.MM.yyyy) or links do
 *   (yyyy-MM-dd): start = the start of that day, end = the end of that day, in the user's timezone.
 *   A preset wins over start/end.
 * - Border Planner: group = as (neighbour AS, default) | router | interface; the spec's flags
 *   groupByRouter=true / groupByInterface=true are read too. Filters as (AS numbers, "AS" prefix
 *   allowed), router, interface: repeated or comma-separated.
 * - Core Planner: dataType = all_links (default) | single_interface_pair with inRouter, outRouter,
 *   startInterface, endInterface (the pair's two ends; all four needed, else all links and a notice).
 * - sort=<column> & order=asc|desc (default: status, highest first); one '>' / '<' filter per numeric
 *   column, named like the column (capacity=>10G, inMax=>80 %); columns=<id,…> (the column picker);
 *   page (50 links a page); link=<key> opens a link's detail.
 */
import { invalidInput } from "~/lib/messages";
import { parseNumericFilter, type NumericFilter } from "~/lib/numeric-filter";
import { DATE_RANGE_PRESETS, PRESET_LABELS, presetRange, specDateToIso, type DateRangePreset, type TimeRange } from "~/lib/time-range";
import { columnIdsOf, columnsOf, DEFAULT_COLUMNS, findColumn, isNumericColumn, type ScreenKind } from "./columns";

export const DEFAULT_PRESET: DateRangePreset = "LAST_30_DAYS";
export const PAGE_SIZE = 50;
/** Longest range the screens plan: the retention of interface utilisation (800 days). */
export const MAX_RANGE_DAYS = 800;
const DAY = 86_400;
const STEP = 300;

export const GROUPINGS = ["as", "router", "interface"] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const GROUPING_LABELS: Record<Grouping, string> = { as: "Neighbour AS", router: "Router", interface: "Interface" };

export const DATA_TYPES = ["all_links", "single_interface_pair"] as const;
export type DataType = (typeof DATA_TYPES)[number];
export const DATA_TYPE_LABELS: Record<DataType, string> = { all_links: "All links", single_interface_pair: "One interface pair" };

export type SortOrder = "asc" | "desc";
export const DEFAULT_SORT = { column: "status", order: "desc" as SortOrder };

export type InterfacePair = { inRouter: string; outRouter: string; startInterface: string; endInterface: string };

export type PlannerParams = {
  screen: ScreenKind;
  /** A preset, or null when start/end (or nothing readable: then the default preset) apply. */
  dateRange: DateRangePreset | null;
  /** Readable start/end (unix s) from the address; used when dateRange is null and both are set. */
  start: number | null;
  end: number | null;
  group: Grouping;
  asns: number[];
  routers: string[];
  interfaces: string[];
  dataType: DataType;
  /** The asked pair (Core Planner, single_interface_pair); null otherwise. */
  pair: InterfacePair | null;
  sort: string;
  order: SortOrder;
  filters: { column: string; filter: NumericFilter }[];
  /** The filter fields as typed (the form shows them back, also when invalid). */
  typedFilters: Record<string, string>;
  /** Per filter field, the spec's invalid-input message. */
  filterErrors: Record<string, string>;
  columns: string[];
  page: number;
  link: string | null;
  /** What the address asked for and was not applied, with what was used instead. */
  notices: string[];
};

/** Values of a list parameter: repeated, comma-separated, trimmed, without empties and repeats. */
function list(search: URLSearchParams, name: string): string[] {
  const out = search
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(out)];
}

/** Shortened for messages: a value of any length must not make the page unreadable. */
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/**
 * A unix second, or the start (end: the end) of a day in `tz`, written as the form's fields do
 * (dd.MM.yyyy, the spec's short format) or as links do (yyyy-MM-dd); null when unreadable.
 */
export function parseDateValue(text: string, tz: string, as: "start" | "end"): number | null {
  const value = specDateToIso(text);
  if (/^\d{1,11}$/.test(value)) return Number(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const start = zonedMidnight(Number(m[1]), Number(m[2]), Number(m[3]), tz);
  if (start === null) return null;
  if (as === "start") return start;
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
  return zonedMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), tz);
}

/** Unix seconds of 00:00 of a calendar day in `tz`; null for a day that does not exist (2026-02-30). */
function zonedMidnight(y: number, mo: number, d: number, tz: string): number | null {
  const guess = Date.UTC(y, mo - 1, d) / 1000;
  const probe = new Date(guess * 1000);
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  // Two rounds of "how far is the zone's wall clock from UTC here" settle DST edges.
  let t = guess;
  for (let i = 0; i < 2; i++) t = guess - offsetSeconds(t, tz);
  return t;
}

function offsetSeconds(t: number, tz: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(t * 1000));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) / 1000;
  return wall - t;
}

const isTrue = (v: string | null) => v !== null && ["true", "1", "yes"].includes(v.trim().toLowerCase());

export function parsePlannerParams(screen: ScreenKind, search: URLSearchParams, tz: string): PlannerParams {
  const notices: string[] = [];
  const text = (name: string) => search.get(name)?.trim() || null;

  // Date range.
  let dateRange: DateRangePreset | null = null;
  let start: number | null = null;
  let end: number | null = null;
  const presetText = text("dateRange");
  const defaultWords = `${PRESET_LABELS[DEFAULT_PRESET]} was used`;
  if (presetText) {
    if ((DATE_RANGE_PRESETS as readonly string[]).includes(presetText)) dateRange = presetText as DateRangePreset;
    else {
      notices.push(`dateRange=${shown(presetText)} is not a date range; ${defaultWords}.`);
      dateRange = DEFAULT_PRESET;
    }
  } else {
    const startText = text("start");
    const endText = text("end");
    if (startText || endText) {
      start = startText ? parseDateValue(startText, tz, "start") : null;
      end = endText ? parseDateValue(endText, tz, "end") : null;
      if (startText && start === null) notices.push(`${invalidInput(shown(startText), "start date")}; ${defaultWords}.`);
      else if (endText && end === null) notices.push(`${invalidInput(shown(endText), "end date")}; ${defaultWords}.`);
      else if (start === null || end === null) notices.push(`A date range needs both a start and an end date; ${defaultWords}.`);
      else if (end <= start) notices.push(`The start date must be before the end date; ${defaultWords}.`);
      else if (end - start > MAX_RANGE_DAYS * DAY)
        notices.push(`A range of at most ${MAX_RANGE_DAYS} days can be planned (the data kept); ${defaultWords}.`);
      if (notices.length) {
        start = end = null;
        dateRange = DEFAULT_PRESET;
      }
    } else dateRange = DEFAULT_PRESET;
  }

  // Grouping (Border Planner).
  let group: Grouping = "as";
  const groupText = text("group");
  if (groupText) {
    if ((GROUPINGS as readonly string[]).includes(groupText)) group = groupText as Grouping;
    else notices.push(`group=${shown(groupText)} is not a grouping (as, router or interface); grouped by neighbour AS.`);
  } else if (isTrue(search.get("groupByInterface"))) group = "interface";
  else if (isTrue(search.get("groupByRouter"))) group = "router";

  // Filters.
  const asns: number[] = [];
  for (const v of list(search, "as")) {
    const m = /^(?:as)?(\d{1,10})$/i.exec(v);
    const n = m ? Number(m[1]) : NaN;
    if (m && n <= 4_294_967_295) asns.push(n);
    else notices.push(`${invalidInput(shown(v), "AS number")}; the filter was left out.`);
  }
  const routers = list(search, "router");
  const interfaces = list(search, "interface");

  // Core Planner: which links.
  let dataType: DataType = "all_links";
  let pair: InterfacePair | null = null;
  const dataTypeText = text("dataType");
  if (screen === "core" && dataTypeText) {
    if (dataTypeText === "single_interface_pair") {
      const p = {
        inRouter: text("inRouter") ?? "",
        outRouter: text("outRouter") ?? "",
        startInterface: text("startInterface") ?? "",
        endInterface: text("endInterface") ?? "",
      };
      const missing = Object.entries(p)
        .filter(([, v]) => !v)
        .map(([k]) => k);
      if (missing.length) notices.push(`One interface pair needs ${missing.join(", ")}; all links are shown.`);
      else {
        dataType = "single_interface_pair";
        pair = p;
      }
    } else if (dataTypeText !== "all_links")
      notices.push(`dataType=${shown(dataTypeText)} is not a link choice (all_links or single_interface_pair); all links are shown.`);
  }

  // Sorting.
  let sort = DEFAULT_SORT.column;
  let order: SortOrder = DEFAULT_SORT.order;
  const sortText = text("sort");
  const sortColumn = sortText ? findColumn(screen, sortText) : undefined;
  if (sortText && !sortColumn) notices.push(`sort=${shown(sortText)} is not a column; the links are sorted by status, highest first.`);
  if (sortColumn) {
    sort = sortColumn.id;
    order = isNumericColumn(sortColumn) ? "desc" : "asc";
  }
  const orderText = text("order");
  if (orderText === "asc" || orderText === "desc") order = orderText;
  else if (orderText)
    notices.push(`order=${shown(orderText)} is not a sort order (asc or desc); ${order === "asc" ? "ascending" : "descending"} was used.`);

  // Numeric column filters.
  const filters: PlannerParams["filters"] = [];
  const typedFilters: Record<string, string> = {};
  const filterErrors: Record<string, string> = {};
  for (const c of columnsOf(screen).filter(isNumericColumn)) {
    const typed = search.get(c.id)?.trim() ?? "";
    if (!typed) continue;
    typedFilters[c.id] = typed;
    const parsed = parseNumericFilter(typed);
    if (parsed === "invalid") filterErrors[c.id] = invalidInput(shown(typed), c.label[screen]);
    else if (parsed) filters.push({ column: c.id, filter: parsed });
  }

  // Visible columns, in the table's order.
  const asked = list(search, "columns");
  const known = columnIdsOf(screen);
  let columns = known.filter((id) => asked.includes(id));
  const unknownColumns = asked.filter((id) => !known.includes(id));
  if (unknownColumns.length)
    notices.push(`columns: ${shown(unknownColumns.join(", "))} ${unknownColumns.length === 1 ? "is not a column" : "are not columns"}.`);
  if (!columns.length) columns = [...DEFAULT_COLUMNS[screen]];

  // Page.
  let page = 1;
  const pageText = text("page");
  if (pageText) {
    if (/^\d{1,6}$/.test(pageText) && Number(pageText) >= 1) page = Number(pageText);
    else notices.push(`page=${shown(pageText)} is not a page number; the first page is shown.`);
  }

  return {
    screen,
    dateRange,
    start,
    end,
    group,
    asns,
    routers,
    interfaces,
    dataType,
    pair,
    sort,
    order,
    filters,
    typedFilters,
    filterErrors,
    columns,
    page,
    link: text("link"),
    notices,
  };
}

/** The 5-minute aligned range the planners compute over (the kernel's PlanRange). */
export function resolvePlannerRange(p: Pick<PlannerParams, "dateRange" | "start" | "end">, now: number, tz: string): TimeRange {
  const raw =
    p.dateRange || p.start === null || p.end === null
      ? presetRange(p.dateRange ?? DEFAULT_PRESET, now, tz)
      : { start: p.start, end: p.end };
  const start = Math.floor(raw.start / STEP) * STEP;
  // The interval still being measured is left out; a range ends on a whole 5 minutes.
  const end = Math.max(start + STEP, Math.floor(raw.end / STEP) * STEP);
  return { start, end };
}

/**
 * The address of a state: what differs from the defaults, in a stable order. `change` overrides
 * fields (e.g. another sort, page or link); undefined fields keep the current value.
 */
export function plannerSearch(p: PlannerParams, change: Partial<PlannerParams> = {}): string {
  const s = { ...p, ...change };
  const out = new URLSearchParams();
  if (s.dateRange && s.dateRange !== DEFAULT_PRESET) out.set("dateRange", s.dateRange);
  if (!s.dateRange && s.start !== null && s.end !== null) {
    out.set("start", String(s.start));
    out.set("end", String(s.end));
  }
  if (s.screen === "border" && s.group !== "as") out.set("group", s.group);
  if (s.asns.length) out.set("as", s.asns.join(","));
  if (s.routers.length) out.set("router", s.routers.join(","));
  if (s.interfaces.length) out.set("interface", s.interfaces.join(","));
  if (s.screen === "core" && s.dataType === "single_interface_pair" && s.pair) {
    out.set("dataType", s.dataType);
    for (const [k, v] of Object.entries(s.pair)) out.set(k, v);
  }
  if (s.sort !== DEFAULT_SORT.column || s.order !== DEFAULT_SORT.order) {
    out.set("sort", s.sort);
    out.set("order", s.order);
  }
  for (const f of s.filters) out.set(f.column, s.typedFilters[f.column] ?? `${f.filter.op}${f.filter.value}`);
  const defaults = DEFAULT_COLUMNS[s.screen];
  if (s.columns.length !== defaults.length || s.columns.some((c, i) => c !== defaults[i])) out.set("columns", s.columns.join(","));
  if (s.page > 1) out.set("page", String(s.page));
  if (s.link) out.set("link", s.link);
  const text = out.toString();
  return text ? `?${text}` : "";
}
