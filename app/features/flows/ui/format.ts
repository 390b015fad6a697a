import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import {
  DATE_FORMATS,
  formatDateLong,
  formatDateLongBare,
  formatInZone,
  formatTime,
  fromUnixSeconds,
  safeTimezone,
} from "~/lib/date-format";

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * A unix time in the user's timezone with a dayjs pattern. The flows screens use the spec's
 * formats below (~/lib/date-format) instead; this stays for screens that still pass a pattern.
 */
export function fmtTime(ts: number, tz: string, pattern = "YYYY-MM-DD HH:mm") {
  return dayjs.unix(ts).tz(tz).format(pattern);
}

/** A unix time in one of the spec's formats, in the user's timezone: "25.11.2026 14:05" (long without the zone). */
export function fmtUnix(ts: number, tz: string, pattern: (typeof DATE_FORMATS)[keyof typeof DATE_FORMATS] = DATE_FORMATS.long): string {
  return formatInZone(ts * 1000, tz, pattern);
}

/** "25.11.2026 14:05 Europe/Berlin": the long format, which names its timezone. */
export const fmtUnixLong = (ts: number, tz: string) => formatDateLong(fromUnixSeconds(ts), tz);

/** "25.11.2026 14:05": the long format in a table whose header names the timezone. */
export const fmtUnixLongBare = (ts: number, tz: string) => formatDateLongBare(fromUnixSeconds(ts), tz);

/**
 * A range in the long format, the timezone said once: "25.11.2026 14:05 – 27.11.2026 14:05
 * Europe/Berlin"; the end's date is left out when it is the start's ("25.11.2026 10:00 – 14:05 UTC").
 */
export function fmtRange(start: number, end: number, tz: string): string {
  const sameDay = fmtUnix(start, tz, DATE_FORMATS.short) === fmtUnix(end, tz, DATE_FORMATS.short);
  return `${fmtUnixLongBare(start, tz)} – ${sameDay ? formatTime(fromUnixSeconds(end), tz) : fmtUnixLongBare(end, tz)} ${safeTimezone(tz)}`;
}
