/**
 * The Flow Explorer's URL state: one zod schema with tolerant defaults (a bad value falls back to
 * its default instead of failing the page). Isomorphic.
 *
 * Parameters: dimension, dimension2 (sankey), dateRange (a DATE_RANGE_PRESETS or TIME_PRESETS value, or CUSTOM),
 * start / end (unix seconds, used when dateRange is CUSTOM or absent and both are given),
 * filter (repeated, `DIMENSION:v1,!v2` as in filters.ts), ipVersion (all | 4 | 6), view
 * (timeseries | sankey), compare (1: add the previous period of equal length), table (aggregated |
 * detailed: one row per value, or per time bucket and value), pivot (1: the detailed table with
 * buckets as rows and values as columns; ignored for the aggregated table).
 */
import { z } from "zod";
import { isDimensionId, type DimensionId } from "./dimensions";
import { MESSAGES } from "~/lib/messages";
import { DATE_RANGE_PRESETS, presetRange, PRESET_LABELS, TIME_PRESETS, type DateRangePreset, type Preset, type TimeRange } from "./time";

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

const unixSeconds = z.coerce.number().int().min(0).max(4_294_967_295);
const dimensionId = z.string().refine(isDimensionId).transform((d) => d as DimensionId);

export const explorerParamsSchema = z.object({
  dimension: dimensionId.catch(DEFAULT_DIMENSION),
  dimension2: dimensionId.optional().catch(undefined),
  dateRange: z.enum([...DATE_RANGE_PRESETS, ...TIME_PRESETS, CUSTOM_RANGE]).optional().catch(undefined),
  start: unixSeconds.optional().catch(undefined),
  end: unixSeconds.optional().catch(undefined),
  filter: z.array(z.string().trim()).catch([]).transform((list) => list.filter((f) => f !== "")),
  ipVersion: z.enum(["all", "4", "6"]).catch("all"),
  view: z.enum(VIEWS).catch("timeseries"),
  compare: flag,
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
    table: one("table"),
    pivot: one("pivot"),
  });
}

/** The explicit range when it applies (dateRange CUSTOM or absent, both bounds, start < end). */
export function explicitRange(p: ExplorerParams): TimeRange | null {
  if (p.dateRange !== undefined && p.dateRange !== CUSTOM_RANGE) return null;
  if (p.start === undefined || p.end === undefined || p.start >= p.end) return null;
  return { start: p.start, end: p.end };
}

/**
 * Why the URL's custom start / end were not used (the view then shows the default range), for
 * the options form to say so, also without JavaScript; null when they were used or not asked for.
 */
export function customRangeError(p: ExplorerParams): string | null {
  const custom = p.dateRange === CUSTOM_RANGE || (p.dateRange === undefined && (p.start !== undefined || p.end !== undefined));
  if (!custom || explicitRange(p)) return null;
  if (p.start === undefined || p.end === undefined) return `A custom range needs a start and an end (unix seconds); the default range (${PRESET_LABELS[DEFAULT_DATE_RANGE]}) is shown instead.`;
  return `${MESSAGES.datePickerError} The default range (${PRESET_LABELS[DEFAULT_DATE_RANGE]}) is shown instead.`;
}

/** The requested range: the explicit one, or the preset's (default LAST_2_DAYS) at `now` in `tz`. */
export function requestedRange(p: ExplorerParams, now: number, tz = "UTC"): TimeRange & { preset: Preset | null } {
  const explicit = explicitRange(p);
  if (explicit) return { ...explicit, preset: null };
  const preset = p.dateRange && p.dateRange !== CUSTOM_RANGE ? p.dateRange : DEFAULT_DATE_RANGE;
  return { ...presetRange(preset, now, tz), preset };
}

/** The `filter` parameters as request filters ({dimension, values}); entries without a dimension prefix are kept for the error message. */
export function filterParamsToRequest(filters: readonly string[]): { dimension: string; values: string[] }[] {
  return filters.map((f) => {
    const colon = f.indexOf(":");
    const dimension = (colon < 0 ? f : f.slice(0, colon)).trim();
    const values = colon < 0 ? [] : f.slice(colon + 1).split(",").map((v) => v.trim()).filter((v) => v !== "");
    return { dimension, values };
  });
}
