/**
 * The Flow Explorer's range parameters (dateRange, start, end; see params.ts): the requested range
 * and why a custom one was not used. Isomorphic, and without the URL's schema, so the options
 * form in the browser loads no zod.
 */
import { MESSAGES } from "~/lib/messages";
import { parseInstant, presetRange, PRESET_LABELS, type DateRangePreset, type Preset, type TimeRange } from "~/lib/time-range";
import type { ExplorerParams } from "./params";

export const DEFAULT_DATE_RANGE: DateRangePreset = "LAST_2_DAYS";
export const CUSTOM_RANGE = "CUSTOM" as const;

/** Whether the URL asks for a custom range (dateRange CUSTOM, or absent with a start or an end). */
function wantsCustom(p: ExplorerParams): boolean {
  return p.dateRange === CUSTOM_RANGE || (p.dateRange === undefined && (p.start !== undefined || p.end !== undefined));
}

/** The explicit range when it applies (dateRange CUSTOM or absent, both bounds readable, start < end). */
export function explicitRange(p: ExplorerParams, tz: string): TimeRange | null {
  if (p.dateRange !== undefined && p.dateRange !== CUSTOM_RANGE) return null;
  const start = parseInstant(p.start, tz, "start");
  const end = parseInstant(p.end, tz, "end");
  if (start === null || end === null || start >= end) return null;
  return { start, end };
}

export const DATE_INPUT_HINT = "write a date (01.11.2026), a date and time (01.11.2026 10:00) in your timezone, or unix seconds";

/**
 * Why the URL's custom start / end were not used (the view then shows the default range), for
 * the options form to say so, also without JavaScript; null when they were used or not asked for.
 */
export function customRangeError(p: ExplorerParams, tz: string): string | null {
  if (!wantsCustom(p) || explicitRange(p, tz)) return null;
  const instead = `The default range (${PRESET_LABELS[DEFAULT_DATE_RANGE]}) is shown instead.`;
  if (p.start === undefined || p.end === undefined) return `A custom range needs a start and an end. ${instead}`;
  for (const edge of ["start", "end"] as const) {
    if (parseInstant(p[edge], tz, edge) === null) return `The ${edge} "${p[edge]}" is not a date: ${DATE_INPUT_HINT}. ${instead}`;
  }
  return `${MESSAGES.datePickerError} ${instead}`;
}

/** The requested range: the explicit one, or the preset's (default LAST_2_DAYS) at `now` in `tz`. */
export function requestedRange(p: ExplorerParams, now: number, tz = "UTC"): TimeRange & { preset: Preset | null } {
  const explicit = explicitRange(p, tz);
  if (explicit) return { ...explicit, preset: null };
  const preset = p.dateRange && p.dateRange !== CUSTOM_RANGE ? p.dateRange : DEFAULT_DATE_RANGE;
  return { ...presetRange(preset, now, tz), preset };
}
