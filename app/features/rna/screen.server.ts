/**
 * The Raw Network Analyzer screen's data, computed on the server from the URL (so the first page
 * renders without JavaScript): the state of every control (params.ts), one page of raw records or
 * prefix-aggregated rows from the engine (runRnaQuery, which applies the delegated restriction and
 * clamps the range to what flows_raw keeps), the sums and the total of the whole query, and — when
 * the URL asks for it — the timeseries of the page's rows grouped by one column.
 */
import { getDimension, isDimensionId } from "~/features/filter/dimensions";
import { isRawFilterKind, RAW_FILTER_KINDS } from "~/features/filter/raw-filters";
import { safeTimezone } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { columnsFor, DEFAULT_RNA_COLUMNS, type RnaColumnId } from "./columns";
import { parseRnaParams, rnaDefaultState, toRnaQuery, type RnaScreenParams } from "./params";
import { isAggregated, type RnaPage, type RnaQuery, type RnaRow } from "./query";
import { runRnaQuery } from "./query.server";
import type { RouteAtTimeResult } from "./route-at-time";
import { routeAtTime } from "./route-at-time.server";
import { recordRnaRun } from "./history.server";
import { siteDefaultQuery } from "./site-default.server";
import { runRnaTimeseries } from "./timeseries.server";

/** Rows an export holds at most: every page of the query up to this many (the screen says so by the export buttons). */
export const RNA_EXPORT_ROW_CAP = 10_000;

export type RnaScreenColumn = { id: RnaColumnId; label: string; numeric: boolean; kind: "dimension" | "measure"; description?: string };

export type RnaScreenRow = {
  key: string;
  /** The text of each shown column, in the table's order. */
  cells: string[];
  /** The router dropped the record's packets (forwarding status 10xxxxxx): the row says so. */
  dropped: boolean;
  /** A copy another router exported again (counted = 0), shown only with the copies switch on. */
  copy: boolean;
  isOthers: boolean;
};

export type RnaTimeseriesView = {
  column: RnaColumnId;
  columnLabel: string;
  /** Bucket width in seconds, and the bucket starts (unix seconds) shared by every series. */
  window: number;
  buckets: number[];
  series: { key: string; label: string; bps: number[] }[];
};

export type RnaScreen = {
  params: RnaScreenParams;
  timezone: string;
  /** Every column the user may pick, in catalogue order. */
  catalogue: RnaScreenColumn[];
  /** The filters as people read them (the chips of the query form), in the order of params.filters. */
  filterLabels: string[];
  notices: string[];
  /** A query the engine refused (a filter it cannot read, a range too broad), said as it said it; the form stays. */
  problem: string | null;
  rows: RnaScreenRow[];
  total: { count: number; exact: boolean } | null;
  sums: { bytes: number; packets: number; flows: number } | null;
  dropped: { bytes: number; packets: number; flows: number } | null;
  /** The range the engine read, after clamping. */
  range: { start: number; end: number };
  next: string | null;
  durationMs: number | null;
  aggregated: boolean;
  timeseries: RnaTimeseriesView | null;
  /** The route at the time of the record the address asks for (`route=<row key>`), shown below its row. */
  route: { key: string; result: RouteAtTimeResult } | null;
  exportRowCap: number;
};

/** What a record's route at the time is looked up by (route-at-time.server.ts), read with every page of records. */
const ROUTE_FACTS: readonly RnaColumnId[] = ["time_received", "exporter_name", "exporter_address", "dst_addr", "next_hop", "vrf_name"];

/**
 * The engine's query of the screen: records also read what their row marks and their route need —
 * `counted` with the copies switch on, so a re-exported copy can say so, and the facts of the route
 * at the time. Aggregated, none of them: the columns would split the groups.
 */
export function withMarkColumns(query: RnaQuery): RnaQuery {
  if (isAggregated(query.aggregation)) return query;
  const marks: RnaColumnId[] = [...ROUTE_FACTS, ...(query.includeCopies ? (["counted"] as const) : [])];
  const missing = marks.filter((c) => !query.columns.includes(c));
  return missing.length ? { ...query, columns: [...query.columns, ...missing] } : query;
}

/** The route of the record the address names (`route=<row key>`) when it is on the page; a notice when it is not. */
async function routeOfRow(
  services: Services,
  user: UserContext,
  page: RnaPage | null,
  aggregated: boolean,
  key: string | null,
): Promise<{ route: RnaScreen["route"]; notice: string | null }> {
  if (!key) return { route: null, notice: null };
  const row = page?.rows.find((r) => r.key === key && !r.isOthers);
  if (!row || aggregated) return { route: null, notice: "The record whose route was asked for is not on this page; no route is shown." };
  const text = (id: RnaColumnId) => String(row.values[id] ?? "");
  try {
    const result = await routeAtTime(services, user, {
      exporter_name: text("exporter_name"),
      exporter_address: text("exporter_address"),
      dst_addr: text("dst_addr"),
      time_received: Number(row.values.time_received),
      next_hop: text("next_hop"),
      vrf_name: text("vrf_name"),
    });
    return { route: { key, result }, notice: null };
  } catch (error) {
    if (error instanceof ApiProblem && error.status < 500) return { route: null, notice: `No route is shown: ${error.message}` };
    throw error;
  }
}

export function screenRow(row: RnaRow, columns: readonly RnaColumnId[]): RnaScreenRow {
  return {
    key: row.key,
    cells: columns.map((c) => row.labels[c] ?? (row.values[c] === null || row.values[c] === undefined ? "" : String(row.values[c]))),
    dropped: row.dropped,
    copy: row.values.counted === 0,
    isOthers: row.isOthers,
  };
}

/** A filter as the chips show it: the dimension's label and the values. */
function filterLabel(dimension: string, values: readonly string[]): string {
  const label = isRawFilterKind(dimension)
    ? RAW_FILTER_KINDS[dimension].label
    : isDimensionId(dimension)
      ? getDimension(dimension).label
      : dimension;
  return `${label}: ${values.join(", ")}`;
}

/** The engine's refusal of a query the user can fix (400–422): its text; anything else is not the screen's to answer. */
function refusal(error: unknown): string | null {
  return error instanceof ApiProblem && error.status >= 400 && error.status < 429 ? error.message : null;
}

/**
 * The URL's state and the first page of its query (or the page its cursor names); a query the
 * engine refuses comes back as `problem`, a cursor it refuses as the first page with a notice.
 */
export async function runScreenQuery(
  services: Services,
  user: UserContext,
  url: URL,
  options: { now?: number; pageSize?: number } = {},
): Promise<{
  params: RnaScreenParams;
  timezone: string;
  query: RnaQuery;
  page: RnaPage | null;
  problem: string | null;
  notices: string[];
}> {
  const settings = await getUserSettings(services.pg.db, user.id);
  const timezone = safeTimezone(settings.timezone);
  const catalogue = columnsFor(user);
  const stored = await siteDefaultQuery(services);
  const defaults = rnaDefaultState(catalogue, DEFAULT_RNA_COLUMNS, stored.value);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const params = parseRnaParams(url.searchParams, { catalogue, defaults: defaults.state, timezone, now });
  const notices = [...(stored.notice ? [stored.notice] : []), ...defaults.notices, ...params.notices];
  const query = withMarkColumns(toRnaQuery(params, options.pageSize));
  const run = (q: RnaQuery) => runRnaQuery(services, user, q);
  try {
    return { params, timezone, query, page: await run(query), problem: null, notices };
  } catch (error) {
    const text = refusal(error);
    if (text === null) throw error;
    // A cursor of another query (an edited address): the first page, said so.
    if (query.after) {
      const first = { ...query, after: null };
      try {
        const page = await run(first);
        return {
          params: { ...params, after: null },
          timezone,
          query: first,
          page,
          problem: null,
          notices: [
            ...notices,
            `after=${query.after.slice(0, 40)} in the address is not a page of this query (${text}); the first page is shown.`,
          ],
        };
      } catch (again) {
        const second = refusal(again);
        if (second === null) throw again;
        return { params, timezone, query, page: null, problem: second, notices };
      }
    }
    return { params, timezone, query, page: null, problem: text, notices };
  }
}

export async function loadRnaScreen(
  services: Services,
  user: UserContext,
  url: URL,
  now = Math.floor(Date.now() / 1000),
): Promise<RnaScreen> {
  const { params, timezone, query, page, problem, notices } = await runScreenQuery(services, user, url, { now });
  const catalogue = columnsFor(user).map((c) => ({
    id: c.id,
    label: c.label,
    numeric: c.numeric,
    kind: c.kind,
    description: c.description,
  }));
  // The screen's run goes into the user's history (not the export's pages); it never waits for it.
  if (page) void recordRnaRun(services, user, query, page, params.columns);
  const rows = page ? page.rows.map((r) => screenRow(r, params.columns)) : [];
  let timeseries: RnaTimeseriesView | null = null;
  if (page && params.timeseries && page.rows.length) {
    const result = await runRnaTimeseries(services, user, { query, groupedColumn: params.timeseries, keys: page.rows.map((r) => r.key) });
    timeseries = timeseriesView(result, params.timeseries, catalogue);
  }
  const route = await routeOfRow(services, user, page, isAggregated(query.aggregation), url.searchParams.get("route"));
  return {
    params,
    timezone,
    catalogue,
    filterLabels: params.filters.map((f) => filterLabel(f.dimension, f.values)),
    notices: [...notices, ...(page?.notices ?? []), ...(route.notice ? [route.notice] : [])],
    problem: problem ?? (page && !page.rows.length ? MESSAGES.noDataForSearch : null),
    rows,
    total: page?.total ?? null,
    sums: page?.sums ?? null,
    dropped: page?.dropped ?? null,
    range: page?.range ?? params.range,
    next: page?.next ?? null,
    durationMs: page?.durationMs ?? null,
    aggregated: isAggregated(params.aggregation),
    timeseries,
    route: route.route,
    exportRowCap: RNA_EXPORT_ROW_CAP,
  };
}

type TimeseriesResult = Awaited<ReturnType<typeof runRnaTimeseries>>;

function timeseriesView(result: TimeseriesResult, column: RnaColumnId, catalogue: readonly RnaScreenColumn[]): RnaTimeseriesView {
  return {
    column,
    columnLabel: catalogue.find((c) => c.id === column)?.label ?? column,
    window: result.window,
    buckets: result.buckets,
    series: result.series.map((s) => ({ key: s.key, label: s.label, bps: s.values })),
  };
}
