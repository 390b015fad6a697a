/**
 * The Flow Explorer's URL state: one zod schema with tolerant defaults (a bad value falls back to
 * its default instead of failing the page). Isomorphic.
 *
 * Parameters: dimension, dimension2 (sankey), dateRange (a DATE_RANGE_PRESETS or TIME_PRESETS value, or CUSTOM),
 * start / end (used when dateRange is CUSTOM or absent and both are given; see `parseInstant`:
 * `2026-11-01`, `2026-11-01T10:00` in the user's timezone, `2026-11-01T10:00:00Z`, or unix seconds),
 * filter (repeated, `DIMENSION:v1,!v2` as in filters.ts), ipVersion (all | 4 | 6), view
 * (timeseries | sankey), compare (1: add the previous period of equal length), predict (1: the timeseries
 * chart adds the prediction of the next period, prediction.server.ts), table (aggregated |
 * detailed: one row per value, or per time bucket and value), pivot (1: the detailed table with
 * buckets as rows and values as columns; ignored for the aggregated table).
 */
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { z } from "zod";
import { safeTimezone } from "~/lib/date-format";
import { isDimensionId, type DimensionId } from "./dimensions";
import { MESSAGES } from "~/lib/messages";
import {
  DATE_RANGE_PRESETS,
  presetRange,
  PRESET_LABELS,
  specDateToIso,
  TIME_PRESETS,
  type DateRangePreset,
  type Preset,
  type TimeRange,
} from "~/lib/time-range";

export const DEFAULT_DIMENSION: DimensionId = "AS_SRC_INGRESS";
export const DEFAULT_DATE_RANGE: DateRangePreset = "LAST_2_DAYS";
export const CUSTOM_RANGE = "CUSTOM" as const;
export const VIEWS = ["timeseries", "sankey"] as const;
export type ExplorerView = (typeof VIEWS)[number];
export const TABLE_VIEWS = ["aggregated", "detailed"] as const;
export type TableView = (typeof TABLE_VIEWS)[number];
/** A checkbox's value: present as "1" (or "on", what a checkbox without value sends) means on. */
const flag = z
  .string()
  .optional()
  .transform((v) => v === "1" || v === "on" || v === "true")
  .catch(false);

dayjs.extend(utc);
dayjs.extend(timezone);

const MAX_UNIX = 4_294_967_295;
const DAY = 86_400;
const dimensionId = z
  .string()
  .refine(isDimensionId)
  .transform((d) => d as DimensionId);

export const explorerParamsSchema = z.object({
  dimension: dimensionId.catch(DEFAULT_DIMENSION),
  dimension2: dimensionId.optional().catch(undefined),
  dateRange: z
    .enum([...DATE_RANGE_PRESETS, ...TIME_PRESETS, CUSTOM_RANGE])
    .optional()
    .catch(undefined),
  /** As written in the URL: read with the user's timezone (parseInstant). */
  start: z.string().optional().catch(undefined),
  end: z.string().optional().catch(undefined),
  filter: z
    .array(z.string().trim())
    .catch([])
    .transform((list) => list.filter((f) => f !== "")),
  ipVersion: z.enum(["all", "4", "6"]).catch("all"),
  view: z.enum(VIEWS).catch("timeseries"),
  compare: flag,
  predict: flag,
  table: z.enum(TABLE_VIEWS).catch("aggregated"),
  pivot: flag,
});

export type ExplorerParams = z.infer<typeof explorerParamsSchema>;

/** Parses a URL's search params (empty values count as absent). Never throws. */
export function parseExplorerParams(search: URLSearchParams): ExplorerParams {
  const one = (name: string) => {
    const v = search.get(name);
    return v === null || v.trim() === "" ? undefined : v.trim();
  };
  return explorerParamsSchema.parse({
    dimension: one("dimension"),
    dimension2: one("dimension2"),
    dateRange: one("dateRange"),
    start: one("start"),
    end: one("end"),
    filter: search.getAll("filter"),
    ipVersion: one("ipVersion"),
    view: one("view"),
    compare: one("compare"),
    predict: one("predict"),
    table: one("table"),
    pivot: one("pivot"),
  });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An instant of the URL's start / end in unix seconds, null when unreadable:
 * - unix seconds (`1793526000`), what old links carry;
 * - an ISO date (`2026-11-01`): the day's local midnight in the user's timezone — for `end`, the
 *   midnight after it, so `start=2026-11-01&end=2026-11-01` is that whole day;
 * - a local date and time (`2026-11-01T10:00`, what links write) in the user's timezone;
 * - the spec's formats, what the form's date fields send (`01.11.2026 10:00`, `01.11.2026`): as the
 *   two above;
 * - an ISO date and time with `Z` or an offset (`2026-11-01T10:00:00Z`).
 */
export function parseInstant(text: string | undefined, tz: string, edge: "start" | "end"): number | null {
  if (text === undefined) return null;
  const t = specDateToIso(text.trim());
  if (/^\d{1,10}$/.test(t)) return Number(t) <= MAX_UNIX ? Number(t) : null;
  const zone = safeTimezone(tz);
  const date = DATE.exec(t);
  const local = LOCAL_DATE_TIME.exec(t);
  let seconds: number | null = null;
  if (date || local) {
    const [, y, mo, d, h = "00", mi = "00", sec = "00"] = (date ?? local)!;
    const parsed = dayjs.tz(`${y}-${mo}-${d} ${h}:${mi}:${sec}`, zone);
    // dayjs rolls 2026-02-30 over to March: refuse what does not read back as written.
    if (!parsed.isValid() || parsed.format("YYYY-MM-DD") !== `${y}-${mo}-${d}` || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)
      return null;
    seconds = date && edge === "end" ? dayjs.tz(parsed.add(DAY + 12 * 3600, "second").format("YYYY-MM-DD"), zone).unix() : parsed.unix();
  } else if (ZONED_DATE_TIME.test(t)) {
    const ms = Date.parse(t);
    seconds = Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
  }
  return seconds !== null && seconds >= 0 && seconds <= MAX_UNIX ? seconds : null;
}

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

/**
 * The URL's values that were not applied because they are not one of the parameter's values
 * (dimensions are checked by the screens, which know what the user may see): one sentence each,
 * naming the parameter, the value and what is used instead.
 */
export function unappliedParams(search: URLSearchParams, p: ExplorerParams, shown: { rangeLabel: string }): string[] {
  const out: string[] = [];
  const raw = (name: string) => search.get(name)?.trim() || null;
  const check = (name: string, parsed: unknown, reason: string, instead: string) => {
    const value = raw(name);
    if (value !== null && String(parsed) !== value && !(name === "ipVersion" && value === "all"))
      out.push(notApplied(name, value, reason, instead));
  };
  check(
    "dateRange",
    p.dateRange,
    `a date range is one of ${[...TIME_PRESETS, ...DATE_RANGE_PRESETS, CUSTOM_RANGE].join(", ")}`,
    shown.rangeLabel,
  );
  check("ipVersion", p.ipVersion, "the IP version is all, 4 or 6", "all IP versions");
  check("view", p.view, "the view is timeseries or sankey", "the timeseries");
  check("table", p.table, "the table is aggregated or detailed", "the aggregated table");
  return out;
}

/** "The address's ipVersion=7 was not applied (the IP version is all, 4 or 6); showing all IP versions instead." */
export function notApplied(param: string, value: string, reason: string, instead: string): string {
  return `The address's ${param}=${value} was not applied (${reason}); showing ${instead} instead.`;
}

/** The `filter` parameters as request filters ({dimension, values}); entries without a dimension prefix are kept for the error message. */
export function filterParamsToRequest(filters: readonly string[]): { dimension: string; values: string[] }[] {
  return filters.map((f) => {
    const colon = f.indexOf(":");
    const dimension = (colon < 0 ? f : f.slice(0, colon)).trim();
    const values =
      colon < 0
        ? []
        : f
            .slice(colon + 1)
            .split(",")
            .map((v) => v.trim())
            .filter((v) => v !== "");
    return { dimension, values };
  });
}
