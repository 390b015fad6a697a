/**
 * The Flow Explorer's URL state: one zod schema with tolerant defaults (a bad value falls back to
 * its default instead of failing the page). Isomorphic.
 *
 * Parameters: dimension, dimension2 (sankey), dateRange (a DATE_RANGE_PRESETS value or CUSTOM),
 * start / end (unix seconds, used when dateRange is CUSTOM or absent and both are given),
 * filter (repeated, `DIMENSION:v1,!v2` as in filters.ts), ipVersion (all | 4 | 6), view
 * (timeseries | sankey).
 */
import { z } from "zod";
import { isDimensionId, type DimensionId } from "./dimensions";
import { DATE_RANGE_PRESETS, presetRange, type DateRangePreset, type TimeRange } from "./time";

export const DEFAULT_DIMENSION: DimensionId = "AS_SRC_INGRESS";
export const DEFAULT_DATE_RANGE: DateRangePreset = "LAST_2_DAYS";
export const CUSTOM_RANGE = "CUSTOM" as const;
export const VIEWS = ["timeseries", "sankey"] as const;
export type ExplorerView = (typeof VIEWS)[number];

const unixSeconds = z.coerce.number().int().min(0).max(4_294_967_295);
const dimensionId = z.string().refine(isDimensionId).transform((d) => d as DimensionId);

export const explorerParamsSchema = z.object({
  dimension: dimensionId.catch(DEFAULT_DIMENSION),
  dimension2: dimensionId.optional().catch(undefined),
  dateRange: z.enum([...DATE_RANGE_PRESETS, CUSTOM_RANGE]).optional().catch(undefined),
  start: unixSeconds.optional().catch(undefined),
  end: unixSeconds.optional().catch(undefined),
  filter: z.array(z.string().trim()).catch([]).transform((list) => list.filter((f) => f !== "")),
  ipVersion: z.enum(["all", "4", "6"]).catch("all"),
  view: z.enum(VIEWS).catch("timeseries"),
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
  });
}

/** The explicit range when it applies (dateRange CUSTOM or absent, both bounds, start < end). */
export function explicitRange(p: ExplorerParams): TimeRange | null {
  if (p.dateRange !== undefined && p.dateRange !== CUSTOM_RANGE) return null;
  if (p.start === undefined || p.end === undefined || p.start >= p.end) return null;
  return { start: p.start, end: p.end };
}

/** The requested range: the explicit one, or the preset's (default LAST_2_DAYS) at `now` in `tz`. */
export function requestedRange(p: ExplorerParams, now: number, tz = "UTC"): TimeRange & { preset: DateRangePreset | null } {
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
