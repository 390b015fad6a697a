/**
 * The Control Plane screen's URL state and its date rules (spec §4 "Control plane dates"). Isomorphic.
 *
 * Parameters: queryType (AsPathQuery | IpPrefixQuery; legacy AS_PATH_QUERY / IP_PREFIX_QUERY),
 * queryTerm, dateRange (a preset of ~/lib/time-range, or any LAST_<n>_MINUTES /
 * _HOURS / _DAYS) or start and end, ribView (the routing tables: absent for post-policy and
 * Loc-RIB, or pre-policy, post-policy, loc-rib), and page. start and end are ISO dates (2026-11-01, the whole
 * day in the user's timezone), ISO times (2026-11-01T14:00, as the form's datetime-local fields
 * submit them, in the user's timezone; with Z or an offset, absolute), the spec's 01.11.2026 [14:00] or unix
 * seconds — read by the one parser of every tool, `parseInstant` of lib/time-range.ts.
 *
 * Rules, once the dates with data [min, max] are known:
 * - no range in the URL: the 60 minutes before max (spec §9 default range);
 * - an end before the start (both given): the two are swapped;
 * - a start outside [min, max] is reset to 60 minutes before max (not before min);
 * - the end is clamped to max — silently when it is only the routine lag of the newest data
 *   behind "now" (ROUTINE_LAG_SECONDS), said otherwise; an end before the start after that becomes max;
 * - the range is whole minutes, as the form's fields show them (start rounded down, end up), so
 *   the form and the caption show exactly what was queried.
 * Whatever the URL asked for that was not applied is reported (parameter, value, what was used).
 */
import { toLocalInput } from "~/lib/date-format";
import { isRibQueryType, toQueryType, type RibQueryType } from "~/lib/routing-query-types";
import { DEFAULT_RIB_VIEW, RIB_VIEW_PARAM, parseRibViewChoice, type RibViewChoice } from "~/features/routing/rib-views";
import { isPreset, parseInstant, presetRange, type TimeRange } from "~/lib/time-range";

/** Default and reset range (spec §9): 60 minutes. */
export const CONTROL_PLANE_RANGE_SECONDS = 60 * 60;
export const CONTROL_PLANE_PAGE_SIZE = 50;
/**
 * How far the newest routing data may lag behind the end asked for without a word: routers send
 * updates as routes change, so "now" is routinely minutes past the newest row.
 */
export const ROUTINE_LAG_SECONDS = 60 * 60;

const MINUTE = 60;
const ROLLING_UNITS = { MINUTES: 60, HOURS: 3600, DAYS: 86_400 } as const;
const ROLLING = /^LAST_(\d{1,4})_(MINUTES|HOURS|DAYS)$/;

/** A URL value the screen did not apply. */
export type UnappliedValue = { parameter: "queryType" | "dateRange" | "ribView" | "start" | "end"; value: string };

export type ControlPlaneParams = {
  queryType: RibQueryType;
  queryTerm: string;
  /** A preset the screen knows (see isControlPlanePreset), null when absent or unknown. */
  dateRange: string | null;
  /** The URL's start / end as given, null when absent. */
  start: string | null;
  end: string | null;
  /** The routing tables to read ("default": post-policy and Loc-RIB). */
  ribView: RibViewChoice;
  page: number;
  /** queryType, dateRange and ribView values that are not known (start / end are judged with the dates). */
  unknown: UnappliedValue[];
};

/** The Flow Explorer's presets, and rolling ranges such as LAST_24_HOURS. */
export function isControlPlanePreset(value: string): boolean {
  const rolling = ROLLING.exec(value);
  return isPreset(value) || (rolling !== null && Number(rolling[1]) > 0);
}

/** [start, end) of a preset for `now` in the user's timezone. */
export function controlPlanePresetRange(value: string, now: number, tz: string): TimeRange {
  if (isPreset(value)) return presetRange(value, now, tz);
  const [, n, unit] = ROLLING.exec(value)!;
  return { start: now - Number(n) * ROLLING_UNITS[unit as keyof typeof ROLLING_UNITS], end: now };
}

/** The Control Plane offers the query types the routing tables answer (current or legacy id); null for any other. */
function parseQueryTypeValue(value: string | null): RibQueryType | null {
  if (!value) return "AsPathQuery";
  const type = toQueryType(value);
  return type && isRibQueryType(type) ? type : null;
}

export function parseControlPlaneParams(search: URLSearchParams): ControlPlaneParams {
  const text = (name: string) => {
    const v = search.get(name)?.trim();
    return v ? v : null;
  };
  const unknown: UnappliedValue[] = [];
  const queryTypeText = text("queryType");
  const queryType = parseQueryTypeValue(queryTypeText);
  if (queryType === null) unknown.push({ parameter: "queryType", value: queryTypeText! });
  const preset = text("dateRange");
  if (preset && !isControlPlanePreset(preset)) unknown.push({ parameter: "dateRange", value: preset });
  const ribViewText = text(RIB_VIEW_PARAM);
  const ribView = parseRibViewChoice(ribViewText);
  if (ribView === null) unknown.push({ parameter: "ribView", value: ribViewText! });
  const page = Number(text("page") ?? "1");
  return {
    queryType: queryType ?? "AsPathQuery",
    queryTerm: (search.get("queryTerm") ?? "").trim(),
    dateRange: preset && isControlPlanePreset(preset) ? preset : null,
    start: text("start"),
    end: text("end"),
    ribView: ribView ?? DEFAULT_RIB_VIEW,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    unknown,
  };
}

/** What the resolution changed, for the notices. Times are unix seconds. */
export type RangeAdjustment =
  | { kind: "unknown"; parameter: "queryType" | "dateRange" | "ribView"; value: string }
  | { kind: "unreadable"; parameter: "start" | "end"; value: string }
  | { kind: "swapped"; start: number; end: number }
  | { kind: "start-reset"; asked: number }
  | { kind: "end-clamped"; asked: number }
  | { kind: "end-before-start"; asked: number };

export type ResolvedControlPlaneRange = TimeRange & { adjustments: RangeAdjustment[] };

const floorMinute = (t: number) => t - (((t % MINUTE) + MINUTE) % MINUTE);
const ceilMinute = (t: number) => Math.ceil(t / MINUTE) * MINUTE;

/** The range to query for the URL state and the dates with data (see the rules above). */
export function resolveControlPlaneRange(
  p: ControlPlaneParams,
  dates: { min: number; max: number },
  now: number,
  tz: string,
): ResolvedControlPlaneRange {
  const adjustments: RangeAdjustment[] = p.unknown.map((u) => ({
    kind: "unknown" as const,
    parameter: u.parameter as "queryType" | "dateRange" | "ribView",
    value: u.value,
  }));
  // The minute of the first and of the newest data count as inside: the form's fields hold whole minutes.
  const first = floorMinute(dates.min);
  const newest = ceilMinute(dates.max);
  const fallback = { start: floorMinute(dates.max - CONTROL_PLANE_RANGE_SECONDS), end: newest };
  let start = fallback.start;
  let end = fallback.end;
  if (p.dateRange) {
    ({ start, end } = controlPlanePresetRange(p.dateRange, now, tz));
  } else if (p.start !== null || p.end !== null) {
    const parsedStart = p.start === null ? null : parseInstant(p.start, tz, "start");
    const parsedEnd = p.end === null ? null : parseInstant(p.end, tz, "end");
    if (p.start !== null && parsedStart === null) adjustments.push({ kind: "unreadable", parameter: "start", value: p.start });
    if (p.end !== null && parsedEnd === null) adjustments.push({ kind: "unreadable", parameter: "end", value: p.end });
    start = parsedStart ?? fallback.start;
    end = parsedEnd ?? fallback.end;
    if (parsedStart !== null && parsedEnd !== null && parsedEnd < parsedStart) {
      adjustments.push({ kind: "swapped", start: parsedStart, end: parsedEnd });
      [start, end] = [parsedEnd, parsedStart];
    }
  } else {
    return { ...fallback, adjustments };
  }
  start = floorMinute(start);
  end = ceilMinute(end);
  if (start < first || start > newest) {
    adjustments.push({ kind: "start-reset", asked: start });
    start = fallback.start;
  }
  if (end > newest) {
    // A preset or typed end a little past the newest data is the routine lag: clamp without a word.
    if (end - dates.max > ROUTINE_LAG_SECONDS) adjustments.push({ kind: "end-clamped", asked: end });
    end = newest;
  }
  if (end < start) {
    adjustments.push({ kind: "end-before-start", asked: end });
    end = newest;
  }
  return { start, end, adjustments };
}

/** The search string of a state (pager links, the form's round trip): times as ISO local times in `tz` (2026-09-21T16:14). */
export function controlPlaneSearch(
  p: { queryType: string; queryTerm: string; start: number; end: number; page?: number; ribView?: RibViewChoice },
  tz: string,
): string {
  const s = new URLSearchParams({
    queryType: p.queryType,
    queryTerm: p.queryTerm,
    start: toLocalInput(p.start, tz),
    end: toLocalInput(p.end, tz, "up"),
  });
  if (p.ribView && p.ribView !== DEFAULT_RIB_VIEW) s.set(RIB_VIEW_PARAM, p.ribView);
  if (p.page && p.page > 1) s.set("page", String(p.page));
  return s.toString();
}
