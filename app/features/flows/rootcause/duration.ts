/**
 * The anomaly selection's typed inputs (spec §5: "Anomaly selection takes a duration such as 10h20m
 * and a start in ISO form"), pure. A bad value answers the spec's invalid-input text
 * "{value} is not a valid {name} input" with name "duration" or "start".
 */
import { invalidInput } from "~/lib/messages";

/** The longest analysed period. */
export const MAX_DURATION_SECONDS = 7 * 86_400;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const DURATION = /^(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$/;

/**
 * A duration in days, hours and minutes, each unit at most once and in that order ("10h20m", "3h",
 * "1d12h", "90m"): seconds, more than 0 and at most 7 days.
 */
export function parseDuration(text: string): Parsed<number> {
  const value = text.trim();
  const match = DURATION.exec(value);
  if (!value || !match) return { ok: false, message: invalidInput(text, "duration") };
  const [d, h, m] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  const seconds = d * 86_400 + h * 3_600 + m * 60;
  if (seconds <= 0 || seconds > MAX_DURATION_SECONDS) return { ok: false, message: invalidInput(text, "duration") };
  return { ok: true, value: seconds };
}

/** The canonical text of a duration in seconds (whole minutes): "10h20m", "1d", "45m". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return `${d ? `${d}d` : ""}${h ? `${h}h` : ""}${m || (!d && !h) ? `${m}m` : ""}`;
}

const ISO_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A start in ISO 8601 form with its offset ("2026-11-20T18:00:00Z", "2026-11-20T19:00+01:00"): Unix seconds. */
export function parseStart(text: string): Parsed<number> {
  const value = text.trim();
  if (!ISO_START.test(value)) return { ok: false, message: invalidInput(text, "start") };
  const [y, mo, d] = value.slice(0, 10).split("-").map(Number);
  const ms = Date.parse(value);
  // Date.parse rolls 2026-02-31 over into March: the calendar day must exist.
  if (!Number.isFinite(ms) || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d)
    return { ok: false, message: invalidInput(text, "start") };
  return { ok: true, value: Math.floor(ms / 1000) };
}
