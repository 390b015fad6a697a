/**
 * The Control Plane screen's data, computed on the server from the URL (so the screen works
 * without JavaScript): the dates with data, the range after the spec's reset and clamp rules, the
 * minutes since the newest data, and — when the URL holds a query — one page of routing rows.
 * Request statuses as in spec §4: Idle, Completed, NoData, Aborted.
 */
import { controlPlaneDates, controlPlaneQuery, type ControlPlaneRow } from "~/features/routing/controlplane.server";
import { LookingGlassInputError } from "~/features/routing/lookingglass.server";
import { MESSAGES } from "~/lib/messages";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { CONTROL_PLANE_PAGE_SIZE, parseControlPlaneParams, resolveControlPlaneRange, type ControlPlaneParams } from "./params";

export const NO_DATES_WITH_DATA = "No dates with data found.";
export const QUERY_FAILED = "There was a problem loading the control plane data. Please try again later.";

export type ControlPlaneStatus = "Idle" | "Completed" | "NoData" | "Aborted";

export type ControlPlaneScreen = {
  params: ControlPlaneParams;
  timezone: string;
  dates: { min: number; max: number } | null;
  range: { start: number; end: number } | null;
  /** Why the range differs from the URL (shown as notices). */
  notices: string[];
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

const NOTICES = {
  "start-reset": "The start was outside the dates with data and was reset to 60 minutes before the newest data.",
  "end-clamped": "The end was after the newest data and was set to it.",
  unreadable: "A start or end in the address could not be read; write unix seconds or YYYY-MM-DDTHH:mm.",
} as const;

export async function loadControlPlane(services: Services, userId: number, url: URL, now = Math.floor(Date.now() / 1000)): Promise<ControlPlaneScreen> {
  const params = parseControlPlaneParams(url.searchParams);
  const settings = await getUserSettings(services.pg.db, userId);
  const timezone = settings.timezone || "UTC";
  const base = { params, timezone, termError: null, problem: null, rows: [], totalRows: 0, page: 1, pages: 0, resultsLimit: null, resultsMaximum: null };
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
    notices: range.adjustments.map((a) => NOTICES[a]),
    minutesSinceNewest: Math.max(0, Math.floor((now - dates.max) / 60)),
  };
  // An empty AS path term is a query (routes with an empty path): the parameter's presence decides.
  if (!url.searchParams.has("queryTerm")) return { ...screen, status: "Idle" };
  try {
    const result = await controlPlaneQuery(services, { queryType: params.queryType, queryTerm: params.queryTerm, startDate: range.start, endDate: range.end });
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
