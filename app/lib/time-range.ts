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

/**
 * The spec's short and long date formats as the form fields take them (dd.MM.yyyy, dd.MM.yyyy HH:mm,
 * in the user's timezone) rewritten as the ISO text the screens' parsers read (2026-11-29,
 * 2026-11-29T21:31); any other text is returned unchanged, so each parser still judges it.
 * Only the order of the parts changes here: whether the day exists is the parser's business.
 */
export const SPEC_DATE_PATTERN = "\\s*\\d{1,2}\\.\\d{1,2}\\.\\d{4}\\s*";
export const SPEC_DATE_TIME_PATTERN = "\\s*\\d{1,2}\\.\\d{1,2}\\.\\d{4}(\\s+\\d{1,2}:\\d{2})?\\s*";
const SPEC_DATE_TEXT = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/;

export function specDateToIso(text: string): string {
  const m = SPEC_DATE_TEXT.exec(text.trim());
  if (!m) return text;
  const [, d, mo, y, h, mi] = m;
  const day = `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`;
  return h === undefined ? day : `${day}T${h.padStart(2, "0")}:${mi}`;
}
