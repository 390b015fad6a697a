/**
 * The Flow Explorer's URL state: one zod schema with tolerant defaults (a bad value falls back to
 * its default instead of failing the page). Isomorphic.
 *
 * Parameters: dimension, dimension2 (sankey), dateRange (a DATE_RANGE_PRESETS or TIME_PRESETS value, or CUSTOM),
 * start / end (used when dateRange is CUSTOM or absent and both are given; read by the one parser,
 * `parseInstant` of lib/time-range.ts: `2026-11-01`, `01.11.2026`, `2026-11-01T10:00` or `01.11.2026 10:00` in the
 * user's timezone, `2026-11-01T10:00:00Z`, or unix seconds),
 * filter (repeated, `DIMENSION:v1,!v2` as in filters.ts), ipVersion (all | 4 | 6), view
 * (timeseries | sankey), compare (1: add the previous period of equal length), predict (1: the timeseries
 * chart adds the prediction of the next period, prediction.server.ts), table (aggregated |
 * detailed: one row per value, or per time bucket and value), pivot (1: the detailed table with
 * buckets as rows and values as columns; ignored for the aggregated table).
 */
import { z } from "zod";
import { isDimensionId, type DimensionId } from "~/features/filter/dimensions";
import { DATE_RANGE_PRESETS, TIME_PRESETS } from "~/lib/time-range";
import { CUSTOM_RANGE } from "./range-params";

// The range's rules live apart from the schema, so a form in the browser uses them without zod.
export { CUSTOM_RANGE, customRangeError, DATE_INPUT_HINT, DEFAULT_DATE_RANGE, explicitRange, requestedRange } from "./range-params";

export const DEFAULT_DIMENSION: DimensionId = "AS_SRC_INGRESS";
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
