/**
 * The Control Plane screen's data, computed on the server from the URL (so the screen works
 * without JavaScript): the dates with data, the range after the spec's reset and clamp rules, the
 * minutes since the newest data, and — when the URL holds a query — one page of routing rows.
 * Request statuses as in spec §4: Idle, Completed, NoData, Aborted.
 */
import { controlPlaneDates, controlPlaneQuery, type ControlPlaneRow } from "~/features/routing/controlplane.server";
import { LookingGlassInputError } from "~/features/routing/lookingglass.server";
import { listVantagePoints } from "~/features/routing/vantage-points.server";
import { formatDateLong, safeTimezone } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import { QUERY_TYPE_LABELS } from "~/lib/routing-query-types";
import { RIB_VIEW_CHOICE_LABELS } from "~/features/routing/rib-views";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import type { ControlPlaneColumn } from "~/features/routing/route-columns";
import { parseColumns } from "./columns";
import { parseTableState, type ControlPlaneTableState } from "./table-state";
import {
  CONTROL_PLANE_PAGE_SIZE,
  parseControlPlaneParams,
  resolveControlPlaneRange,
  type ControlPlaneParams,
  type RangeAdjustment,
} from "./params";

export const NO_DATES_WITH_DATA = "No dates with data found.";
export const QUERY_FAILED = "There was a problem loading the control plane data. Please try again later.";

export type ControlPlaneStatus = "Idle" | "Completed" | "NoData" | "Aborted";

export type ControlPlaneScreen = {
  params: ControlPlaneParams;
  timezone: string;
  dates: { min: number; max: number } | null;
  range: { start: number; end: number } | null;
  /** What of the URL was not applied, and what was used instead (shown as notices). */
  notices: string[];
  /** The table's columns (the column picker's choice, or the defaults). */
  columns: ControlPlaneColumn[];
  /** The table's sorting and filters from the address, with the messages of values not applied. */
  table: ControlPlaneTableState;
  /** Vantage point key → its display name ('Router City, Country'). */
  vantagePointNames: Record<string, string>;
  minutesSinceNewest: number | null;
  status: ControlPlaneStatus;
  termError: string | null;
  problem: string | null;
  rows: ControlPlaneRow[];
  totalRows: number;
  page: number;
  pages: number;
  resultsLimit: number | null;
  resultsMaximum: number | null;
};

/** What a notice says about an adjustment: the parameter, the value asked for, and what was used instead. */
export function adjustmentNotice(
  a: RangeAdjustment,
  range: { start: number; end: number },
  dates: { min: number; max: number },
  tz: string,
): string {
  const at = (t: number) => formatDateLong(t * 1000, tz);
  const used = `${at(range.start)} – ${at(range.end)}`;
  switch (a.kind) {
    case "unknown":
      if (a.parameter === "ribView")
        return `ribView=${a.value} in the address is not a RIB view; ${RIB_VIEW_CHOICE_LABELS.default} was used instead.`;
      return a.parameter === "queryType"
        ? `queryType=${a.value} in the address is not a query type; ${QUERY_TYPE_LABELS.AsPathQuery} was used instead.`
        : `dateRange=${a.value} in the address is not a date range; ${used} was used instead.`;
    case "unreadable":
      return `${a.parameter}=${a.value} in the address is not a date (write 01.11.2026, 01.11.2026 14:00 or unix seconds); ${used} was used instead.`;
    case "swapped":
      return `The end (${at(a.end)}) was before the start (${at(a.start)}); the two were swapped: ${used}.`;
    case "start-reset":
      return `The start (${at(a.asked)}) is outside the routing data (${at(dates.min)} – ${at(dates.max)}); it was set to 60 minutes before the newest data: ${used}.`;
    case "end-clamped":
      return `The end (${at(a.asked)}) is after the newest routing data; it was set to the newest data: ${used}.`;
    case "end-before-start":
      return `The end (${at(a.asked)}) is before the start; it was set to the newest data: ${used}.`;
  }
}

/** The table state as the query applies it: vantage points are searched and sorted by the names the table shows. */
function tableQuery(table: ControlPlaneTableState, names: Record<string, string>) {
  const needle = table.search.toLowerCase();
  const shows = (key: string) => names[key].toLowerCase().includes(needle);
  return {
    sort: table.sort,
    order: table.order,
    numeric: table.numeric,
    search: table.search ? { text: table.search, vantagePoints: Object.keys(names).filter(shows) } : undefined,
    vantagePointOrder: Object.keys(names).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0)),
  };
}

export async function loadControlPlane(
  services: Services,
  userId: number,
  url: URL,
  now = Math.floor(Date.now() / 1000),
): Promise<ControlPlaneScreen> {
  const params = parseControlPlaneParams(url.searchParams);
  const [settings, vantagePoints] = await Promise.all([
    getUserSettings(services.pg.db, userId),
    listVantagePoints(services, { variant: "private" }),
  ]);
  const timezone = safeTimezone(settings.timezone);
  const vantagePointNames = Object.fromEntries(vantagePoints.map((vp) => [vp.key, vp.display_name]));
  const table = parseTableState(url.searchParams);
  const base = {
    params,
    timezone,
    vantagePointNames,
    columns: parseColumns(url.searchParams),
    table,
    termError: null,
    problem: null,
    rows: [],
    totalRows: 0,
    page: 1,
    pages: 0,
    resultsLimit: null,
    resultsMaximum: null,
  };
  const found = await controlPlaneDates(services);
  if (found.minTimestamp === null || found.maxTimestamp === null) {
    return { ...base, dates: null, range: null, notices: [], minutesSinceNewest: null, status: "NoData", problem: NO_DATES_WITH_DATA };
  }
  const dates = { min: found.minTimestamp, max: found.maxTimestamp };
  const range = resolveControlPlaneRange(params, dates, now, timezone);
  const screen = {
    ...base,
    dates,
    range: { start: range.start, end: range.end },
    notices: [
      ...range.adjustments.map((a) => adjustmentNotice(a, range, dates, timezone)),
      ...table.notices,
      ...Object.values(table.errors),
    ],
    minutesSinceNewest: Math.max(0, Math.floor((now - dates.max) / 60)),
  };
  // An empty AS path term is a query (routes with an empty path): the parameter's presence decides.
  if (!url.searchParams.has("queryTerm")) return { ...screen, status: "Idle" };
  try {
    const result = await controlPlaneQuery(services, {
      queryType: params.queryType,
      queryTerm: params.queryTerm,
      startDate: range.start,
      endDate: range.end,
      ribView: params.ribView,
      table: tableQuery(table, vantagePointNames),
    });
    const pages = Math.max(1, Math.ceil(result.data.length / CONTROL_PLANE_PAGE_SIZE));
    const page = Math.min(params.page, pages);
    return {
      ...screen,
      status: result.data.length ? "Completed" : "NoData",
      problem: result.data.length ? null : MESSAGES.noDataForSearch,
      rows: result.data.slice((page - 1) * CONTROL_PLANE_PAGE_SIZE, page * CONTROL_PLANE_PAGE_SIZE),
      totalRows: result.data.length,
      page,
      pages,
      resultsLimit: result.results_limit,
      resultsMaximum: result.results_maximum,
    };
  } catch (error) {
    if (error instanceof LookingGlassInputError) return { ...screen, status: "Idle", termError: error.message };
    log.error(`control plane query failed: ${error instanceof Error ? error.stack : String(error)}`);
    return { ...screen, status: "Aborted", problem: QUERY_FAILED };
  }
}
