/**
 * zod schemas of the Raw Network Analyzer's calls (spec §7): POST api/rna/ and POST
 * api/rna/timeseries/, shared by the routes and their OpenAPI operations. Isomorphic. Strict, as an
 * endpoint is: a bad value is a 400 naming its field (the screen's params.ts is the lenient reader).
 *
 * Filters are `{dimension, values}` objects or the URL form `"DST_PREFIX:10.1.2.0/24"`, where
 * `dimension` is a flow dimension (features/filter/dimensions.ts) or a raw-record kind
 * (features/filter/raw-filters.ts); values are checked by the filter resolver on the server, which
 * names `filters.i.values.j`.
 */
import { z } from "zod";
import { isDimensionId } from "~/features/filter/dimensions";
import { isRawFilterKind } from "~/features/filter/raw-filters";
import type { RequestFilter } from "~/features/filter/request-filter";
import { isRnaColumnId, type RnaColumnId } from "./columns";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, validateAggregation, type RnaAggregation, type RnaQuery, type RnaSort } from "./query";

/** Unix seconds, as a JSON number or a string of digits. */
const unixSeconds = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v),
  z.number({ error: "Enter unix seconds." }).int("Enter whole unix seconds.").min(0, "Enter unix seconds.").max(4_294_967_295),
);

const knownFilter = (d: string) => isDimensionId(d) || isRawFilterKind(d);

const filterObject = z.object({
  dimension: z.string().refine(knownFilter, { message: "Unknown dimension or filter kind." }),
  values: z.array(z.string().min(1).max(300)).min(1, "At least one value is needed.").max(100),
});
const filterString = z
  .string()
  .max(2000)
  .regex(/^[A-Z_]+:.+$/, "Expected KIND:value,!value")
  .refine((s) => knownFilter(s.slice(0, s.indexOf(":"))), { message: "Unknown dimension or filter kind." });

export const rnaFiltersSchema = z
  .array(z.union([filterObject, filterString]))
  .max(50)
  .default([]);

/** The body's filters as {dimension, values}. */
export function normalizeRnaFilters(filters: z.infer<typeof rnaFiltersSchema>): RequestFilter[] {
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

const columnId = z.string().refine(isRnaColumnId, { message: "Unknown column." });

/** {"v4": 24, "v6": null}: the four messages of the spec for a bad length (query.ts). */
export const aggregationSchema = z
  .object({ v4: z.unknown().optional(), v6: z.unknown().optional() })
  .nullish()
  .transform((value, ctx): RnaAggregation => {
    const checked = validateAggregation(value ?? {});
    if (checked.ok) return checked.aggregation;
    for (const e of checked.errors) ctx.addIssue({ code: "custom", path: [e.field], message: e.message });
    return z.NEVER;
  });

const sortSchema = z
  .object({ column: columnId, direction: z.enum(["asc", "desc"], { error: "Expected asc or desc." }) })
  .nullish()
  .transform((s) => (s ? ({ column: s.column as RnaColumnId, direction: s.direction } satisfies RnaSort) : null));

const rangeRefine = (b: { startTimestamp: number; endTimestamp: number }, ctx: z.core.$RefinementCtx) => {
  if (b.startTimestamp >= b.endTimestamp)
    ctx.addIssue({ code: "custom", path: ["startTimestamp"], message: "startTimestamp must be before endTimestamp." });
};

/** POST api/rna/: the spec's body, plus the optional filter expression, the copies switch, sorting and paging. */
export const rnaBodySchema = z
  .object({
    startTimestamp: unixSeconds,
    endTimestamp: unixSeconds,
    enabledColumns: z
      .array(columnId)
      .min(1, "Select at least one column.")
      .max(60)
      .refine((c) => new Set(c).size === c.length, "Columns must be distinct."),
    aggregationPrefixes: aggregationSchema,
    filters: rnaFiltersSchema,
    /** A filter in nfdump's language (docs/rna.md). */
    filterExpression: z.string().max(10_000).optional().default(""),
    /** Also the records other routers exported again (counted = 0). */
    includeCopies: z.boolean().optional().default(false),
    sort: sortSchema,
    /** The `next` of the previous page. */
    after: z.string().min(1).max(20_000).nullish(),
    pageSize: z.number().int("Expected a whole number.").min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
  })
  .superRefine(rangeRefine)
  .superRefine((b, ctx) => {
    if (b.sort && !b.enabledColumns.includes(b.sort.column))
      ctx.addIssue({ code: "custom", path: ["sort", "column"], message: "Sort by one of the enabled columns." });
  });

export type RnaBody = z.output<typeof rnaBodySchema>;

/** The body as the engine's query. */
export function queryOfBody(body: RnaBody): RnaQuery {
  return {
    start: body.startTimestamp,
    end: body.endTimestamp,
    columns: body.enabledColumns as RnaColumnId[],
    filters: normalizeRnaFilters(body.filters),
    expression: body.filterExpression,
    aggregation: body.aggregationPrefixes,
    includeCopies: body.includeCopies,
    sort: body.sort,
    after: body.after ?? null,
    pageSize: body.pageSize,
  };
}

/** The most page rows one timeseries call draws. */
export const MAX_TIMESERIES_KEYS = 1000;

/** A row of the page as the screen holds it: its key (RnaRow.key), alone or with the row's other fields, which are ignored. */
const pageRow = z.union([z.string().min(1).max(20_000), z.object({ key: z.string().min(1).max(20_000) }).loose()]);

/** POST api/rna/timeseries/: the spec's body, plus the filter expression and the copies switch of the page. */
export const rnaTimeseriesBodySchema = z
  .object({
    epochStart: unixSeconds,
    epochEnd: unixSeconds,
    aggregationPrefixes: aggregationSchema,
    filters: rnaFiltersSchema,
    filterExpression: z.string().max(10_000).optional().default(""),
    includeCopies: z.boolean().optional().default(false),
    groupedColumn: columnId,
    /** The rows of the current page, as keys only: the server reads their values of groupedColumn and nothing else. */
    currentPageData: z.array(pageRow).max(MAX_TIMESERIES_KEYS),
  })
  .superRefine((b, ctx) => {
    if (b.epochStart >= b.epochEnd) ctx.addIssue({ code: "custom", path: ["epochStart"], message: "epochStart must be before epochEnd." });
  });

export type RnaTimeseriesBody = z.output<typeof rnaTimeseriesBodySchema>;

/** The keys of currentPageData. */
export const pageKeys = (rows: RnaTimeseriesBody["currentPageData"]) => rows.map((r) => (typeof r === "string" ? r : r.key));
