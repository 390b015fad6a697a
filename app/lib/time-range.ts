/**
 * Time ranges of the tool screens: presets (looking glass §3), validity (shell §5) and clamping to
 * the available data (shell §8 "Start date unavailable…"). Pure and isomorphic. All instants are
 * unix seconds, ranges are half-open [start, end). Which aggregate table a flows range reads is the
 * Flow Explorer's business (features/flows/aggregation-window.ts).
 *
 * Presets:
 * - rolling: LAST_30_MINUTES, LAST_1_HOUR, LAST_3_HOURS, LAST_6_HOURS, LAST_2_DAYS, LAST_7_DAYS,
 *   LAST_30_DAYS, LAST_90_DAYS: [now - d, now).
 * - calendar, in the user's timezone: TODAY [start of today, now), CURRENT_MONTH [start of month,
 *   now), CURRENT_YEAR [start of year, now), LAST_MONTH the previous calendar month,
 *   LAST_3_MONTHS the three calendar months before the current one.
 *
 * Clamping (`clampToData`): a range that does not overlap [minTs, maxTs] at all becomes the last
 * 30 minutes of data [maxTs - 30 min, maxTs); otherwise a start before minTs moves to minTs (the
 * first moment of the first day with data) and an end after maxTs moves to maxTs.
 */
import dayjs from "dayjs";
import { safeTimezone, zoneOffsetMs } from "./date-format";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";

dayjs.extend(utc);
dayjs.extend(timezone);

export const DATE_RANGE_PRESETS = [
  "LAST_2_DAYS",
  "LAST_7_DAYS",
  "LAST_30_DAYS",
  "LAST_90_DAYS",
  "CURRENT_MONTH",
  "LAST_MONTH",
  "LAST_3_MONTHS",
  "CURRENT_YEAR",
] as const;
export const TIME_PRESETS = ["LAST_30_MINUTES", "LAST_1_HOUR", "LAST_3_HOURS", "LAST_6_HOURS", "TODAY"] as const;
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];
export type TimePreset = (typeof TIME_PRESETS)[number];
export type Preset = DateRangePreset | TimePreset;

export type TimeRange = { start: number; end: number };

/** Labels of the preset select, time presets first (shortest to longest), then the date ranges. */
export const PRESET_LABELS: Record<Preset, string> = {
  LAST_30_MINUTES: "Last 30 minutes",
  LAST_1_HOUR: "Last hour",
  LAST_3_HOURS: "Last 3 hours",
  LAST_6_HOURS: "Last 6 hours",
  TODAY: "Today",
  LAST_2_DAYS: "Last 2 days",
  LAST_7_DAYS: "Last 7 days",
  LAST_30_DAYS: "Last 30 days",
  LAST_90_DAYS: "Last 90 days",
  CURRENT_MONTH: "Current month",
  LAST_MONTH: "Last month",
  LAST_3_MONTHS: "Last 3 months",
  CURRENT_YEAR: "Current year",
};

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

const ROLLING: Partial<Record<Preset, number>> = {
  LAST_30_MINUTES: 30 * MINUTE,
  LAST_1_HOUR: HOUR,
  LAST_3_HOURS: 3 * HOUR,
  LAST_6_HOURS: 6 * HOUR,
  LAST_2_DAYS: 2 * DAY,
  LAST_7_DAYS: 7 * DAY,
  LAST_30_DAYS: 30 * DAY,
  LAST_90_DAYS: 90 * DAY,
};

export function isPreset(value: string): value is Preset {
  return (DATE_RANGE_PRESETS as readonly string[]).includes(value) || (TIME_PRESETS as readonly string[]).includes(value);
}

/** [start, end) of a preset, in unix seconds, for `now` and the user's IANA timezone. */
export function presetRange(preset: Preset, now: number, tz = "UTC"): TimeRange {
  const rolling = ROLLING[preset];
  if (rolling !== undefined) return { start: now - rolling, end: now };
  const local = dayjs.unix(now).tz(tz);
  const unix = (d: dayjs.Dayjs) => d.unix();
  switch (preset) {
    case "TODAY":
      return { start: unix(local.startOf("day")), end: now };
    case "CURRENT_MONTH":
      return { start: unix(local.startOf("month")), end: now };
    case "CURRENT_YEAR":
      return { start: unix(local.startOf("year")), end: now };
    case "LAST_MONTH": {
      const month = local.startOf("month");
      return { start: unix(startOfMonthBefore(month, 1, tz)), end: unix(month) };
    }
    case "LAST_3_MONTHS": {
      const month = local.startOf("month");
      return { start: unix(startOfMonthBefore(month, 3, tz)), end: unix(month) };
    }
    default:
      throw new Error(`Unknown preset ${preset}`);
  }
}

/** Start of the month `n` months before `monthStart`, recomputed in `tz` (DST-safe). */
function startOfMonthBefore(monthStart: dayjs.Dayjs, n: number, tz: string): dayjs.Dayjs {
  const y = monthStart.year();
  const m = monthStart.month() - n;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  return dayjs.tz(`${year}-${String(month + 1).padStart(2, "0")}-01 00:00:00`, tz);
}

/** The validity rule of the date picker: start <= end <= max (and start >= min when given). */
export function isValidRange(range: TimeRange, max: number, min?: number): boolean {
  return range.start <= range.end && range.end <= max && (min === undefined || range.start >= min);
}

/**
 * What is wrong with a range picked in the date picker, checked in the order the user is told:
 * a start outside [min, max] and an end outside [min, max] have their own toasts; otherwise the
 * validity rule (start <= end <= max) decides. null: the range is valid.
 */
export type RangeProblem = "start-out-of-range" | "end-out-of-range" | "invalid";
export function rangeProblem(range: TimeRange, bounds: { min: number; max: number }): RangeProblem | null {
  if (range.start < bounds.min || range.start > bounds.max) return "start-out-of-range";
  if (range.end < bounds.min || range.end > bounds.max) return "end-out-of-range";
  return isValidRange(range, bounds.max) ? null : "invalid";
}

export type ClampResult = TimeRange & { adjusted: "none" | "start-moved" | "end-clamped" | "start-moved-end-clamped" | "last-30-minutes" };

/** Clamps a range to the data available in [minTs, maxTs]. */
export function clampToData(range: TimeRange, minTs: number, maxTs: number): ClampResult {
  if (range.start >= maxTs || range.end <= minTs || range.start > range.end) {
    return { start: Math.max(minTs, maxTs - 30 * MINUTE), end: maxTs, adjusted: "last-30-minutes" };
  }
  const startMoved = range.start < minTs;
  const endClamped = range.end > maxTs;
  return {
    start: startMoved ? minTs : range.start,
    end: endClamped ? maxTs : range.end,
    adjusted: startMoved && endClamped ? "start-moved-end-clamped" : startMoved ? "start-moved" : endClamped ? "end-clamped" : "none",
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading an instant a URL, a form or a call names: the one parser of every tool (Flow Explorer, Control Plane,
// both planners' screens and API). Its rules:
// - unix seconds: 1 to 10 digits, at most UNIX_MAX. Longer numbers are refused rather than guessed at (a 13-digit
//   millisecond value would otherwise read as a date 50,000 years ahead).
// - a calendar day, yyyy-MM-dd or the spec's dd.MM.yyyy: its local midnight in the zone; as an *end*, the local
//   midnight of the next day, so start=D&end=D is that whole day, 23 or 25 hours long on a DST change.
// - a local date and time, yyyy-MM-ddTHH:mm[:ss] (also with a space: what <input type="datetime-local"> sends) or
//   the spec's dd.MM.yyyy HH:mm[:ss], in the zone.
// - an ISO date and time with Z or an offset, whatever the zone.
// Fields never roll over: 2026-02-30, 24:00 or 10:61 are refused, not read as the next day or hour.
// A local time a DST change skips (02:30 on a spring-forward night) is read with the offset before the change, i.e.
// as the same distance past the change (03:30); a local time that occurs twice (autumn) is its first occurrence.
// These are the "compatible" rules of JavaScript's Temporal and of most calendars. Property-tested against Intl in
// tests/unit/time-parse.test.ts.

export const UNIX_MAX = 4_294_967_295;

const UNIX = /^\d{1,10}$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// The spec's forms as people type them: one or two digits for day, month and hour, any blanks between date and time.
const SPEC_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const SPEC_LOCAL = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
/** The HTML `pattern` of the date fields (components/DateFields.tsx): the spec's day, and day with an optional time. */
export const SPEC_DATE_PATTERN = "\\s*\\d{1,2}\\.\\d{1,2}\\.\\d{4}\\s*";
export const SPEC_DATE_TIME_PATTERN = "\\s*\\d{1,2}\\.\\d{1,2}\\.\\d{4}(\\s+\\d{1,2}:\\d{2})?\\s*";
const ZONED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Wall-clock fields, as written. */
export type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** Whether the fields name a real date and time (no rollover: 2026-02-30, 24:00, 10:61 are not). */
function isRealWallTime(w: WallTime): boolean {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day));
  return (
    w.year >= 1970 &&
    d.getUTCFullYear() === w.year &&
    d.getUTCMonth() === w.month - 1 &&
    d.getUTCDate() === w.day &&
    w.hour <= 23 &&
    w.minute <= 59 &&
    w.second <= 59
  );
}

/**
 * The unix second at which the zone's clocks show `w` (fields assumed real). Of the offsets in force a day before
 * and a day after (a zone changes at most once in between), those that read back as `w` are candidates: two on a
 * repeated hour (the earlier wins), none in a skipped one (then the offset before the change applies).
 */
export function zonedWallTimeToUnix(w: WallTime, tz: string): number {
  const zone = safeTimezone(tz);
  const wallMs = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const before = zoneOffsetMs(wallMs - 86_400_000, zone);
  const after = zoneOffsetMs(wallMs + 86_400_000, zone);
  const candidates = [wallMs - before, wallMs - after].filter((t) => t + zoneOffsetMs(t, zone) === wallMs);
  const ms = candidates.length ? Math.min(...candidates) : wallMs - before;
  return Math.floor(ms / 1000);
}

const wallOf = (y: string, mo: string, d: string, h?: string, mi?: string, s?: string): WallTime => ({
  year: Number(y),
  month: Number(mo),
  day: Number(d),
  hour: Number(h ?? 0),
  minute: Number(mi ?? 0),
  second: Number(s ?? 0),
});

/** The calendar day after `w`'s, at 00:00. */
function nextDay(w: WallTime): WallTime {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 };
}

/**
 * The instant `text` names in zone `tz`, in unix seconds; null when unreadable or outside [0, UNIX_MAX].
 * `edge` decides what a bare day means: its first moment (start) or the first moment of the next day (end).
 */
export function parseInstant(text: string | null | undefined, tz: string, edge: "start" | "end"): number | null {
  if (text === null || text === undefined) return null;
  const t = text.trim();
  const unix = UNIX.test(t) ? Number(t) : instantOfDate(t, tz, edge);
  return unix !== null && unix >= 0 && unix <= UNIX_MAX ? unix : null;
}

function instantOfDate(t: string, tz: string, edge: "start" | "end"): number | null {
  const day = ISO_DAY.exec(t) ?? reorderSpec(SPEC_DAY.exec(t));
  if (day) {
    const wall = wallOf(day[1], day[2], day[3]);
    return isRealWallTime(wall) ? zonedWallTimeToUnix(edge === "end" ? nextDay(wall) : wall, tz) : null;
  }
  const local = ISO_LOCAL.exec(t) ?? reorderSpec(SPEC_LOCAL.exec(t));
  if (local) {
    const wall = wallOf(local[1], local[2], local[3], local[4], local[5], local[6]);
    return isRealWallTime(wall) ? zonedWallTimeToUnix(wall, tz) : null;
  }
  const zoned = ZONED.exec(t);
  if (zoned && isRealWallTime(wallOf(zoned[1], zoned[2], zoned[3], zoned[4], zoned[5], zoned[6]))) {
    const ms = Date.parse(t);
    return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
  }
  return null;
}

/** dd.MM.yyyy[ HH:mm[:ss]] matches as [all, year, month, day, …time], like the ISO forms. */
function reorderSpec(m: RegExpExecArray | null): string[] | null {
  return m ? [m[0], m[3], m[2], m[1], ...m.slice(4)] : null;
}

/** Whether a text is a real calendar day written yyyy-MM-dd (2026-02-30 is not one). */
export function isIsoCalendarDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  return m !== null && isRealWallTime(wallOf(m[1], m[2], m[3]));
}
