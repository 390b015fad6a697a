/**
 * Request schemas of the link-utilisation calls (RNA API §7: api/linkutil/external/, external/summary/,
 * external/timeseries/, internal/, interfaces/, interfacestatistics/, {x}/dateswithdata/) and the pure
 * rules that turn their dates and filters into what the planners' service takes. Isomorphic: the
 * routes and the OpenAPI description share these schemas.
 *
 * Strict: a bad value is a 400 naming the field. Dates:
 * - `startTime` / `endTime` (api/linkutil/external/): unix seconds.
 * - `startDate` / `endDate` (the other calls): unix seconds, or a calendar day `yyyy-MM-dd` read in the
 *   caller's timezone (user_settings.timezone): a start day from its first moment, an end day up to
 *   its last (the following midnight), so `startDate=2026-11-01&endDate=2026-11-30` is all of November.
 * Every range is snapped to the 5-minute grid of interface_util_5m (start down, end up, so the range
 * asked for is covered), must be non-empty and at most MAX_RANGE_DAYS long (the retention of the
 * interface data; a longer range could only hold what the table no longer keeps).
 */
import { z } from "zod";
import { singleLineText } from "~/lib/input-fields";
import { isIsoCalendarDay, parseInstant, UNIX_MAX } from "~/lib/time-range";
import { STATISTICS_DIMENSIONS } from "./interface-statistics";

/** The 5-minute grid of interface_util_5m. */
export const GRID_SECONDS = 300;
/** interface_util_5m keeps 800 days (DEFAULT_LAYOUT.agg1hTtlDays): the longest range a call may ask for. */
export const MAX_RANGE_DAYS = 800;
const DAY_SECONDS = 86_400;

// ---------------------------------------------------------------------------------------------------------------
// Dates

/** A date as the caller wrote it: unix seconds, or a calendar day resolved later in the caller's timezone. */
export type DateInput = { unix: number } | { day: string };

const UNIX_MESSAGE = `must be unix seconds (a whole number from 0 to ${UNIX_MAX})`;
const DATE_MESSAGE = `must be unix seconds or a date written yyyy-MM-dd`;

const unixSeconds = z.number({ error: UNIX_MESSAGE }).int(UNIX_MESSAGE).min(0, UNIX_MESSAGE).max(UNIX_MAX, UNIX_MESSAGE);

/** startTime / endTime: unix seconds, as a JSON number or its decimal digits. */
export const unixTime = z.union(
  [
    unixSeconds,
    z
      .string()
      .regex(/^\d{1,10}$/, UNIX_MESSAGE)
      .transform(Number)
      .pipe(unixSeconds),
  ],
  {
    error: UNIX_MESSAGE,
  },
);

/** startDate / endDate: unix seconds (number or digits) or yyyy-MM-dd. */
export const dateInput = z.union(
  [
    unixSeconds.transform((unix): DateInput => ({ unix })),
    z
      .string()
      .max(20, DATE_MESSAGE)
      .refine((text) => /^\d{1,10}$/.test(text) || isIsoCalendarDay(text), DATE_MESSAGE)
      .transform((text): DateInput => (isIsoCalendarDay(text) ? { day: text } : { unix: Number(text) }))
      .refine((d) => !("unix" in d) || d.unix <= UNIX_MAX, DATE_MESSAGE),
  ],
  { error: DATE_MESSAGE },
);

export type ResolvedRange = { start: number; end: number };
export type RangeFields = { start: string; end: string };
export type FieldProblem = { field: string; message: string };

/**
 * A date input as unix seconds: a day is its first moment (start) or the following midnight (end) in `tz`, by the
 * one parser of every tool (lib/time-range.ts; the schema let only real days through).
 */
export function dateToUnix(input: DateInput, edge: "start" | "end", tz: string): number {
  return "unix" in input ? input.unix : parseInstant(input.day, tz, edge)!;
}

/**
 * The range of a call, snapped to the 5-minute grid (start down, end up), or the problem naming
 * the field: start not before end, or longer than MAX_RANGE_DAYS.
 */
export function resolveRange(
  input: { start: DateInput; end: DateInput },
  tz: string,
  fields: RangeFields,
): { range: ResolvedRange } | { problem: FieldProblem } {
  const rawStart = dateToUnix(input.start, "start", tz);
  const rawEnd = dateToUnix(input.end, "end", tz);
  if (rawStart >= rawEnd) return { problem: { field: fields.start, message: `must be before ${fields.end}` } };
  const start = Math.floor(rawStart / GRID_SECONDS) * GRID_SECONDS;
  const end = Math.ceil(rawEnd / GRID_SECONDS) * GRID_SECONDS;
  if (end - start > MAX_RANGE_DAYS * DAY_SECONDS) {
    return {
      problem: {
        field: fields.start,
        message: `the range may be at most ${MAX_RANGE_DAYS} days long (the interface data is kept that long)`,
      },
    };
  }
  return { range: { start, end } };
}

// ---------------------------------------------------------------------------------------------------------------
// Filters: the spec's SearchFilter objects (RNA API §3), limited to the dimensions a link has

/** The filter dimensions a link has: its neighbour AS, its router, its interface. */
export const LINK_FILTER_DIMENSIONS = ["AS_NUMBER", "ROUTER", "INTERFACE"] as const;
export type LinkFilterDimension = (typeof LINK_FILTER_DIMENSIONS)[number];

/** Spec §5: optional !, optional "AS" (any case), then an integer of 1 to 10 digits, which may be negative. */
const AS_VALUE = /^!?(?:AS)?-?\d{1,10}$/i;

/**
 * One SearchFilter (id, value, dimension, isNegation, color, name, type, complete, domain): only
 * dimension, value and isNegation (or a value written "!…") matter here; the display fields are
 * accepted and ignored. Tags and tag groups are not link filters (400).
 */
const searchFilter = z
  .object({
    dimension: z.enum(LINK_FILTER_DIMENSIONS, { error: `must be one of ${LINK_FILTER_DIMENSIONS.join(", ")}` }),
    value: z.union([z.number().int().transform(String), singleLineText(300).min(1, "must not be empty")]),
    isNegation: z.boolean().optional(),
    type: z
      .string()
      .max(20)
      .refine(
        (t) => ["primitive", "filter"].includes(t.toLowerCase()),
        "only plain values (type primitive) filter links; tags are not supported here",
      )
      .optional(),
    id: z.union([z.string().max(300), z.number()]).optional(),
    name: z.string().max(300).optional(),
    color: z.string().max(100).nullable().optional(),
    complete: z.boolean().optional(),
    domain: z.string().max(300).nullable().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.dimension === "AS_NUMBER" && !AS_VALUE.test(f.value)) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "must be an AS number (optional !, optional AS, then digits)" });
    }
  });

export const linkFiltersSchema = z.array(searchFilter).max(200, "at most 200 filters").default([]);
export type LinkFilterInput = z.input<typeof searchFilter>;

/** A filter reduced to what it decides: positive values of a dimension are alternatives, negated ones are removed. */
export type LinkFilter = { dimension: LinkFilterDimension; value: string; negated: boolean };

export function normalizeLinkFilters(filters: z.infer<typeof linkFiltersSchema>): LinkFilter[] {
  return filters.map((f) => {
    const bang = f.value.startsWith("!");
    let value = bang ? f.value.slice(1) : f.value;
    if (f.dimension === "AS_NUMBER") value = String(Number(value.replace(/^AS/i, "")));
    return { dimension: f.dimension, value, negated: bang || f.isNegation === true };
  });
}

/** What of a link the filters look at; interface is matched as "router|interface" or by its name alone. */
export type FilterableLink = { neighbourAs: number | null; router: string; interface: string };

/**
 * Whether a link passes the filters: for each dimension with positive values one of them matches
 * (different dimensions must all match), and no negated value matches.
 */
export function matchesLinkFilters(link: FilterableLink, filters: readonly LinkFilter[]): boolean {
  const matches = (f: LinkFilter) => {
    if (f.dimension === "AS_NUMBER") return link.neighbourAs !== null && String(link.neighbourAs) === f.value;
    if (f.dimension === "ROUTER") return link.router === f.value;
    return f.value.includes("|") ? `${link.router}|${link.interface}` === f.value : link.interface === f.value;
  };
  if (filters.some((f) => f.negated && matches(f))) return false;
  return LINK_FILTER_DIMENSIONS.every((dimension) => {
    const positive = filters.filter((f) => f.dimension === dimension && !f.negated);
    return positive.length === 0 || positive.some(matches);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The calls

/** How the Border Planner groups external links: by neighbour AS (default), router or interface. */
export const GROUPINGS = ["AS_NUMBER", "ROUTER", "INTERFACE"] as const;
export type Grouping = (typeof GROUPINGS)[number];

const flag = z.boolean({ error: "must be true or false" });

/** POST api/linkutil/external/ */
export const externalBodySchema = z
  .object({
    startTime: unixTime,
    endTime: unixTime,
    filters: linkFiltersSchema,
    /** The grouping; groupByRouter / groupByInterface are the spec's flags for the same choice. */
    dimension: z.enum(GROUPINGS, { error: `must be one of ${GROUPINGS.join(", ")}` }).optional(),
    groupByRouter: flag.optional(),
    groupByInterface: flag.optional(),
    /** Only these groups (AS numbers, router names or "router|interface", per the grouping) when given. */
    currentlyDisplayedValues: z
      .array(z.union([z.number().int().transform(String), singleLineText(300)]))
      .max(5000)
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.groupByRouter && b.groupByInterface) {
      ctx.addIssue({ code: "custom", path: ["groupByInterface"], message: "groupByRouter and groupByInterface exclude each other" });
    }
    const byFlag: Grouping | null = b.groupByInterface ? "INTERFACE" : b.groupByRouter ? "ROUTER" : null;
    if (byFlag && b.dimension && b.dimension !== byFlag) {
      ctx.addIssue({
        code: "custom",
        path: ["dimension"],
        message: `contradicts ${byFlag === "ROUTER" ? "groupByRouter" : "groupByInterface"}`,
      });
    }
  });

/** The grouping a body asks for. */
export function groupingOf(body: z.infer<typeof externalBodySchema>): Grouping {
  if (body.groupByInterface) return "INTERFACE";
  if (body.groupByRouter) return "ROUTER";
  return body.dimension ?? "AS_NUMBER";
}

/** POST api/linkutil/external/summary/ */
export const summaryBodySchema = z.object({ startDate: dateInput, endDate: dateInput, filters: linkFiltersSchema });

/** The body as JSON text (the spec's client sends the timeseries body as a JSON string); other values unchanged. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** POST api/linkutil/external/timeseries/: the summary's body, as an object or as a JSON string of one. */
export const timeseriesBodySchema = z.preprocess(parseJsonText, summaryBodySchema);

const routerName = singleLineText(200).min(1, "must not be empty");
const interfaceName = singleLineText(200).min(1, "must not be empty");

/** GET api/linkutil/internal/ */
export const internalQuerySchema = z
  .object({
    dataType: z.enum(["all_links", "single_interface_pair"], { error: "must be all_links or single_interface_pair" }).default("all_links"),
    startDate: dateInput,
    endDate: dateInput,
    inRouter: routerName.optional(),
    outRouter: routerName.optional(),
    startInterface: interfaceName.optional(),
    endInterface: interfaceName.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.dataType !== "single_interface_pair") return;
    for (const field of ["inRouter", "startInterface", "outRouter", "endInterface"] as const) {
      if (!q[field]) ctx.addIssue({ code: "custom", path: [field], message: "is needed for dataType single_interface_pair" });
    }
  });

/** GET api/linkutil/interfaces/: the internal links between inRouter and outRouter (any router when outRouter is absent). */
export const interfacesQuerySchema = z.object({
  startDate: dateInput,
  endDate: dateInput,
  inRouter: routerName,
  outRouter: routerName.optional(),
});

const asNumberText = /^(?:AS)?\d{1,10}$/i;

/**
 * GET api/linkutil/interfacestatistics/: the traffic on external links of `router` by AS. The links
 * are those to the neighbour ASes of `ASNumberList` (a Border Planner row), narrowed to `interface`
 * when given; with `interface` alone (an Internet exchange port has no single neighbour AS) that link.
 */
export const interfaceStatisticsQuerySchema = z
  .object({
    startDate: dateInput,
    endDate: dateInput,
    router: routerName,
    interface: interfaceName.optional(),
    /** The neighbour ASes of the links, comma-separated. */
    ASNumberList: z
      .string()
      .max(2000)
      .transform((text) =>
        text
          .split(",")
          .map((v) => v.trim())
          .filter((v) => v !== ""),
      )
      .pipe(
        z
          .array(z.string())
          .max(200, "at most 200 AS numbers")
          .refine((list) => list.every((v) => asNumberText.test(v)), "must list AS numbers separated by commas"),
      )
      .transform((list) => [...new Set(list.map((v) => Number(v.replace(/^AS/i, ""))))])
      .optional(),
    /** neighbour: the AS that handed the traffic over (in) or takes it (out); source / destination: where it comes from / goes to. */
    dimension: z.enum(STATISTICS_DIMENSIONS, { error: `must be one of ${STATISTICS_DIMENSIONS.join(", ")}` }),
    /** true: the traffic entering the network on the links; false: leaving on them. */
    isDirectedIn: z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1"),
  })
  .superRefine((q, ctx) => {
    if (!q.interface && !q.ASNumberList?.length) {
      ctx.addIssue({ code: "custom", path: ["ASNumberList"], message: "must name at least one AS number (or give interface)" });
    }
  });

/** {x} of api/linkutil/{x}/dateswithdata/ */
export const datesParamsSchema = z.object({ x: z.enum(["external", "internal"], { error: "must be external or internal" }) });
