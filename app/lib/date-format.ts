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
  /** yyyy-MM-ddTHH:mm, a local date and time in a URL (start=2026-11-01T10:00) */
  localInput: "YYYY-MM-DDTHH:mm",
} as const;
export type DateFormat = (typeof DATE_FORMATS)[keyof typeof DATE_FORMATS];

export const DEFAULT_TIMEZONE = "UTC";

export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}

const knownZones = new Map<string, boolean>();

/** A timezone the runtime knows, or UTC: a stored setting that no longer resolves must not break a page. */
export function safeTimezone(tz: string | null | undefined): string {
  if (!tz) return DEFAULT_TIMEZONE;
  let known = knownZones.get(tz);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-GB", { timeZone: tz });
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size < 1000) knownZones.set(tz, known);
  }
  return known ? tz : DEFAULT_TIMEZONE;
}

// Pages format thousands of instants (a chart's buckets, a table's rows): asking Intl for each one
// costs more than rendering the page. A zone's offset from UTC changes only at transitions, which
// fall on quarter hours, so it is looked up once per zone and quarter hour and applied by arithmetic.
const QUARTER_HOUR_MS = 900_000;
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
const zoneOffsets = new Map<string, Map<number, number>>();

function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(tz);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormatters.set(tz, formatter);
  }
  return formatter;
}

function offsetAt(quarterStartMs: number, tz: string): number {
  const parts = zoneFormatter(tz).formatToParts(new Date(quarterStartMs));
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const localAsUtc = Date.UTC(field("year"), field("month") - 1, field("day"), field("hour") % 24, field("minute"), field("second"));
  return localAsUtc - quarterStartMs;
}

/** Milliseconds to add to a UTC instant to read the wall-clock time of `tz` with getUTC*() (`tz` must be known: safeTimezone). */
export function zoneOffsetMs(ms: number, tz: string): number {
  if (tz === "UTC") return 0;
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let offsets = zoneOffsets.get(tz);
  if (!offsets) zoneOffsets.set(tz, (offsets = new Map()));
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    offset = offsetAt(quarter * QUARTER_HOUR_MS, tz);
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(quarter, offset);
  }
  return offset;
}

function toMs(instant: Instant): number {
  return instant instanceof Date ? instant.getTime() : typeof instant === "number" ? instant : Date.parse(instant);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The instant in `tz` with one of DATE_FORMATS' patterns (tokens YYYY, MM, DD, HH, mm, ss). */
export function formatInZone(instant: Instant, tz: string | null | undefined, pattern: string): string {
  const ms = toMs(instant);
  if (!Number.isFinite(ms)) return "";
  const local = new Date(ms + zoneOffsetMs(ms, safeTimezone(tz)));
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => {
    switch (token) {
      case "YYYY":
        return pad(local.getUTCFullYear(), 4);
      case "MM":
        return pad(local.getUTCMonth() + 1);
      case "DD":
        return pad(local.getUTCDate());
      case "HH":
        return pad(local.getUTCHours());
      case "mm":
        return pad(local.getUTCMinutes());
      default:
        return pad(local.getUTCSeconds());
    }
  });
}

/** 25.11.2026 */
export function formatDateShort(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.short);
}

/** 25.11.2026 14:05 Europe/Berlin — the long format always says which timezone it is in. */
export function formatDateLong(instant: Instant, tz?: string | null): string {
  const zone = safeTimezone(tz);
  return `${formatInZone(instant, zone, DATE_FORMATS.long)} ${zone}`;
}

/** 25.11.2026 14:05 — the long format without the suffix, for tables whose header names the timezone. */
export function formatDateLongBare(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.long);
}

/** 14:05 */
export function formatTime(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.time);
}

/** 14:05:09 */
export function formatTimeSeconds(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.timeSeconds);
}

/** 20261125 */
export function formatDateCompact(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.compact);
}

/** 2026-11-25 */
export function formatDateIso(instant: Instant, tz?: string | null): string {
  return formatInZone(instant, tz, DATE_FORMATS.iso);
}

/** Unix seconds in one of DATE_FORMATS' patterns; by default the long one without the zone, for tables whose header names it. */
export function formatUnix(seconds: number, tz: string | null | undefined, pattern: DateFormat = DATE_FORMATS.long): string {
  return formatInZone(fromUnixSeconds(seconds), tz, pattern);
}

/**
 * A range of unix seconds in the long format, the timezone said once: "25.11.2026 14:05 – 27.11.2026 14:05
 * Europe/Berlin"; the end's date is left out when it is the start's ("25.11.2026 10:00 – 14:05 UTC").
 */
export function formatUnixRange(start: number, end: number, tz: string | null | undefined): string {
  const sameDay = formatUnix(start, tz, DATE_FORMATS.short) === formatUnix(end, tz, DATE_FORMATS.short);
  return `${formatUnix(start, tz)} – ${sameDay ? formatTime(fromUnixSeconds(end), tz) : formatUnix(end, tz)} ${safeTimezone(tz)}`;
}

const toMinute = (seconds: number, round: "down" | "up") => (round === "up" ? Math.ceil(seconds / 60) * 60 : seconds);

/**
 * A local date and time for a URL, unix seconds in `tz` (2026-11-01T10:00), to the minute: rounded
 * down, or up for the end of a range so the range covers what was queried.
 */
export function toLocalInput(seconds: number, tz: string | null | undefined, round: "down" | "up" = "down"): string {
  return formatUnix(toMinute(seconds, round), tz, DATE_FORMATS.localInput);
}

/**
 * The value of a date and time field (components/DateFields.tsx): the spec's long format without
 * the zone, which the field's label names (29.11.2026 21:31), rounded to the minute as toLocalInput.
 */
export function toDateTimeField(seconds: number, tz: string | null | undefined, round: "down" | "up" = "down"): string {
  return formatUnix(toMinute(seconds, round), tz, DATE_FORMATS.long);
}
