import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The spec's date formats (§9 of the shell document), in the user's timezone, never the browser's
 * locale: every screen, export and notification formats dates through this module so that the same
 * instant reads the same everywhere.
 *
 * An instant is a Date, an ISO 8601 string, or a number of milliseconds since the epoch (the JavaScript
 * convention). Unix seconds, which the flows data uses, go through `fromUnixSeconds` first.
 */
export type Instant = Date | string | number;

export const DATE_FORMATS = {
  /** dd.MM.yyyy */
  short: "DD.MM.YYYY",
  /** dd.MM.yyyy HH:mm (the timezone is appended by formatLong) */
  long: "DD.MM.YYYY HH:mm",
  /** HH:mm */
  time: "HH:mm",
  /** HH:mm:ss */
  timeSeconds: "HH:mm:ss",
  /** yyyyMMdd, for file names */
  compact: "YYYYMMDD",
  /** yyyy-MM-dd, for URLs and machine-readable cells */
  iso: "YYYY-MM-DD",
} as const;

export const DEFAULT_TIMEZONE = "UTC";

export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}

/** A timezone the runtime knows, or UTC: a stored setting that no longer resolves must not break a page. */
export function safeTimezone(tz: string | null | undefined): string {
  if (!tz) return DEFAULT_TIMEZONE;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return tz;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

function inZone(instant: Instant, tz: string | null | undefined) {
  return dayjs(instant).tz(safeTimezone(tz));
}

/** 25.11.2026 */
export function formatDateShort(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.short);
}

/** 25.11.2026 14:05 Europe/Berlin — the long format always says which timezone it is in. */
export function formatDateLong(instant: Instant, tz?: string | null): string {
  const zone = safeTimezone(tz);
  return `${inZone(instant, zone).format(DATE_FORMATS.long)} ${zone}`;
}

/** 25.11.2026 14:05 — the long format without the suffix, for tables whose header names the timezone. */
export function formatDateLongBare(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.long);
}

/** 14:05 */
export function formatTime(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.time);
}

/** 14:05:09 */
export function formatTimeSeconds(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.timeSeconds);
}

/** 20261125 */
export function formatDateCompact(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.compact);
}

/** 2026-11-25 */
export function formatDateIso(instant: Instant, tz?: string | null): string {
  return inZone(instant, tz).format(DATE_FORMATS.iso);
}
