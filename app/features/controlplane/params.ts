/**
 * The Control Plane screen's URL state and its date rules (spec §4 "Control plane dates"). Isomorphic.
 *
 * Parameters: queryType (AsPathQuery | IpPrefixQuery; legacy AS_PATH_QUERY / IP_PREFIX_QUERY),
 * queryTerm, dateRange (a preset of flows/time.ts) or start and end — unix seconds, or the
 * `YYYY-MM-DDTHH:mm` text a datetime-local field submits, read in the user's timezone — and page.
 *
 * Rules, once the dates with data [min, max] are known:
 * - no range in the URL: the 60 minutes before max (spec §9 default range);
 * - a start outside [min, max] is reset to 60 minutes before max (not before min);
 * - the end is clamped to max; an end before the start after that becomes max.
 */
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { isPreset, presetRange, type Preset, type TimeRange } from "~/features/flows/time";

dayjs.extend(utc);
dayjs.extend(timezone);

export const CONTROL_PLANE_QUERY_TYPES = ["AsPathQuery", "IpPrefixQuery"] as const;
export type ControlPlaneQueryType = (typeof CONTROL_PLANE_QUERY_TYPES)[number];
export const CONTROL_PLANE_QUERY_LABELS: Record<ControlPlaneQueryType, string> = { AsPathQuery: "AS Path", IpPrefixQuery: "IP / IP Prefix" };
const LEGACY: Record<string, ControlPlaneQueryType> = { AS_PATH_QUERY: "AsPathQuery", IP_PREFIX_QUERY: "IpPrefixQuery" };

/** Default and reset range (spec §9): 60 minutes. */
export const CONTROL_PLANE_RANGE_SECONDS = 60 * 60;
export const CONTROL_PLANE_PAGE_SIZE = 50;

export type ControlPlaneParams = {
  queryType: ControlPlaneQueryType;
  queryTerm: string;
  dateRange: Preset | null;
  /** The URL's start / end as given (unix seconds or datetime-local text), null when absent. */
  start: string | null;
  end: string | null;
  page: number;
};

export function parseQueryType(value: string | null): ControlPlaneQueryType {
  if (!value) return "AsPathQuery";
  if ((CONTROL_PLANE_QUERY_TYPES as readonly string[]).includes(value)) return value as ControlPlaneQueryType;
  return LEGACY[value] ?? "AsPathQuery";
}

export function parseControlPlaneParams(search: URLSearchParams): ControlPlaneParams {
  const text = (name: string) => {
    const v = search.get(name)?.trim();
    return v ? v : null;
  };
  const preset = text("dateRange");
  const page = Number(text("page") ?? "1");
  return {
    queryType: parseQueryType(text("queryType")),
    queryTerm: (search.get("queryTerm") ?? "").trim(),
    dateRange: preset && isPreset(preset) ? preset : null,
    start: text("start"),
    end: text("end"),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** A URL time: unix seconds, or `YYYY-MM-DDTHH:mm[:ss]` wall-clock time in `tz`. null: unreadable. */
export function parseUrlTime(value: string, tz: string): number | null {
  if (/^\d{1,12}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const parsed = dayjs.tz(value.replace("T", " ").padEnd(19, ":00").slice(0, 19), tz);
  return parsed.isValid() ? parsed.unix() : null;
}

const MINUTE = 60;

/**
 * The datetime-local text of a unix time in `tz` (what the form's fields show), to the minute:
 * rounded down for a start, up for an end, so a range shown and submitted again keeps its rows.
 */
export function toLocalInput(ts: number, tz: string, round: "down" | "up" = "down"): string {
  const t = round === "up" ? Math.ceil(ts / MINUTE) * MINUTE : ts;
  return dayjs.unix(t).tz(tz).format("YYYY-MM-DDTHH:mm");
}

export type ResolvedControlPlaneRange = TimeRange & {
  /** What was changed, for the notices: the start reset and/or the end clamped, or unreadable input. */
  adjustments: ("start-reset" | "end-clamped" | "unreadable")[];
};

/** The range to query for the URL state and the dates with data (see the rules above). */
export function resolveControlPlaneRange(p: ControlPlaneParams, dates: { min: number; max: number }, now: number, tz: string): ResolvedControlPlaneRange {
  const adjustments: ResolvedControlPlaneRange["adjustments"] = [];
  let range: TimeRange;
  if (p.dateRange) {
    range = presetRange(p.dateRange, now, tz);
  } else if (p.start !== null || p.end !== null) {
    const start = p.start === null ? null : parseUrlTime(p.start, tz);
    const end = p.end === null ? null : parseUrlTime(p.end, tz);
    if ((p.start !== null && start === null) || (p.end !== null && end === null)) adjustments.push("unreadable");
    range = { start: start ?? dates.max - CONTROL_PLANE_RANGE_SECONDS, end: end ?? dates.max };
  } else {
    return { start: dates.max - CONTROL_PLANE_RANGE_SECONDS, end: dates.max, adjustments };
  }
  let { start, end } = range;
  // The form's fields hold whole minutes: the minute of the first and of the newest data count as inside.
  if (start < dates.min - (dates.min % MINUTE) || start > dates.max) {
    start = dates.max - CONTROL_PLANE_RANGE_SECONDS;
    adjustments.push("start-reset");
  }
  if (end > dates.max) {
    if (end - dates.max >= MINUTE) adjustments.push("end-clamped");
    end = dates.max;
  }
  if (end < start) {
    end = dates.max;
    if (!adjustments.includes("end-clamped")) adjustments.push("end-clamped");
  }
  return { start, end, adjustments };
}

/** The search string of a state (for pager links and the form's round trip). */
export function controlPlaneSearch(p: { queryType: string; queryTerm: string; start: number; end: number; page?: number }): string {
  const s = new URLSearchParams({ queryType: p.queryType, queryTerm: p.queryTerm, start: String(p.start), end: String(p.end) });
  if (p.page && p.page > 1) s.set("page", String(p.page));
  return s.toString();
}
