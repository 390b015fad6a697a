/**
 * zod schemas of the flows API bodies (api/flows/, api/sankey/). Isomorphic.
 *
 * Filters, one schema for every flows body (api/flows/, api/sankey/, the analysis calls): a list
 * whose items are `{dimension, values}` (each value written as in the URL form: `"2906"`,
 * `"AS2906"`, `"!AS15169"` for a negation) or the URL form itself as a string
 * (`"AS_SRC_INGRESS:2906,!AS15169"`); or one string of such filters separated by `;`
 * (`"AS_SRC_INGRESS:2906,!AS15169;IANA_PROTOCOL:6"`), what a query string or a shell script writes.
 */
import { z } from "zod";
import { isDimensionId } from "~/features/filter/dimensions";
import type { RequestFilter } from "~/features/filter/request-filter";

const unixSeconds = z.number().int().min(0).max(4_294_967_295);

const filterObject = z.object({
  dimension: z.string().refine(isDimensionId, { message: "Unknown dimension." }),
  values: z.array(z.string().min(1)).min(1, "At least one value is needed."),
});
const filterString = z.string().regex(/^[A-Z_]+:.+$/, "Expected DIMENSION:value,!value");

const filterList = z.array(z.union([filterObject, filterString])).max(50);
/** Filters written as one string: the URL form, several separated by ";" (empty parts ignored). */
const filterText = z
  .string()
  .max(10_000)
  .transform((text) =>
    text
      .split(";")
      .map((part) => part.trim())
      .filter((part) => part !== ""),
  )
  .pipe(z.array(filterString).max(50));

export const filtersSchema = z.union([filterList, filterText]).default([]);

export const ipVersionSchema = z.union([z.literal("all"), z.literal(4), z.literal(6), z.literal("4"), z.literal("6")]).optional();

export const windowSchema = z.union([z.literal(300), z.literal(900), z.literal(3600), z.literal(86_400)]).optional();

const rangeRefine = <T extends { startTimestamp: number; endTimestamp: number }>(b: T, ctx: z.core.$RefinementCtx<T>) => {
  if (b.startTimestamp >= b.endTimestamp) {
    ctx.addIssue({ code: "custom", path: ["startTimestamp"], message: "startTimestamp must be before endTimestamp." });
  }
};

export const flowsBodySchema = z
  .object({
    dimension: z.string().refine(isDimensionId, { message: "Unknown dimension." }),
    startTimestamp: unixSeconds,
    endTimestamp: unixSeconds,
    filters: filtersSchema,
    ipVersion: ipVersionSchema,
    /** Also predict the next period of the timeseries (timeseries.prediction, prediction.server.ts). */
    shouldPredict: z.boolean().optional(),
    window: windowSchema,
    topN: z.number().int().min(1).max(50).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .superRefine(rangeRefine);

export const sankeyBodySchema = z
  .object({
    dimensions: z
      .array(z.string().refine(isDimensionId, { message: "Unknown dimension." }))
      .min(2, "Sankey chart needs at least two dimensions")
      .max(6)
      .refine((d) => new Set(d).size === d.length, "Dimensions must be distinct."),
    startTimestamp: unixSeconds,
    endTimestamp: unixSeconds,
    filters: filtersSchema,
    ipVersion: ipVersionSchema,
    topN: z.number().int().min(1).max(50).optional(),
    /** Accepted for compatibility with the spec's version 3 body; not applied (see docs/api.md). */
    aggregations: z.unknown().optional(),
    linkFilter: z.unknown().optional(),
    whitelist: z.unknown().optional(),
  })
  .superRefine(rangeRefine);

/** The body's filters as {dimension, values}. */
export function normalizeFilters(filters: z.infer<typeof filtersSchema>): RequestFilter[] {
  return filters.map((f) => {
    if (typeof f !== "string") return f;
    const colon = f.indexOf(":");
    return {
      dimension: f.slice(0, colon),
      values: f
        .slice(colon + 1)
        .split(",")
        .filter((v) => v.trim() !== ""),
    };
  });
}

/** "all" | 4 | 6 from the body's ipVersion. */
export function bodyIpVersion(v: z.infer<typeof ipVersionSchema>): "all" | 4 | 6 {
  return v === undefined || v === "all" ? "all" : (Number(v) as 4 | 6);
}
