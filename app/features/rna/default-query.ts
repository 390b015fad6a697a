/**
 * `rna_default_query`, the site setting (shell §3) that says what the Raw Network Analyzer shows
 * before anyone chose anything: columns, prefix aggregation, filters, a filter expression in
 * nfdump's language, a range preset and the sort. Every field may be left out (the built-in value
 * then applies); `{}` is the built-in default. Staff edit it as JSON on /site-settings, checked on
 * save with this schema; a stored value that no longer fits (written by an older version, or
 * straight into the store) is never an error of the screen: the built-in default applies, with a
 * notice saying why. Isomorphic.
 */
import { z } from "zod";
import { compileNfdumpFilter, MAX_EXPRESSION_LENGTH } from "~/features/filter/nfdump";
import type { RequestFilter } from "~/features/filter/request-filter";
import { prefixAggregationRange } from "~/lib/messages";
import { TIME_PRESETS } from "~/lib/time-range";

/** The range presets a default may name: those within the 7 days flows_raw keeps (DEFAULT_LAYOUT.rawTtlDays). */
export const RNA_DEFAULT_RANGES = [...TIME_PRESETS, "LAST_2_DAYS", "LAST_7_DAYS"] as const;
export type RnaDefaultRange = (typeof RNA_DEFAULT_RANGES)[number];

export type RnaDefaultQuery = {
  /** Column ids as the API names them (flows_raw's column names); null: the analyzer's own default columns. */
  columns: string[] | null;
  /** Prefix lengths the addresses are folded to, null for off. */
  aggregationPrefixes: { v4: number | null; v6: number | null };
  filters: RequestFilter[];
  /** nfdump's language; "" for none. */
  filterExpression: string;
  range: RnaDefaultRange;
  sort: { column: string; direction: "asc" | "desc" } | null;
};

export const BUILT_IN_RNA_DEFAULT_QUERY: RnaDefaultQuery = {
  columns: null,
  aggregationPrefixes: { v4: null, v6: null },
  filters: [],
  filterExpression: "",
  range: "LAST_1_HOUR",
  sort: null,
};

/** What the documentation and the settings form show as an example. */
export const RNA_DEFAULT_QUERY_EXAMPLE = {
  columns: ["time_received", "exporter_name", "src_addr", "dst_addr", "dst_port", "protocol", "bytes", "packets"],
  aggregationPrefixes: { v4: 24, v6: 48 },
  filters: [{ dimension: "AS_DST", values: ["64500"] }],
  filterExpression: "proto tcp and dst port in [80 443]",
  range: "LAST_6_HOURS",
  sort: { column: "bytes", direction: "desc" },
};

export type DefaultQueryOptions = {
  /** The analyzer's column ids: when given, a column outside them does not fit. */
  columnIds?: readonly string[];
};

function schemaFor({ columnIds }: DefaultQueryOptions) {
  const columnId = z
    .string({ error: "a column id as the API names it, e.g. src_addr" })
    .regex(/^[a-z][a-z0-9_]*$/, "a column id as the API names it, e.g. src_addr")
    .max(64)
    .refine((id) => !columnIds || columnIds.includes(id), { message: "not a column of the Raw Network Analyzer" });
  const prefix = (version: 4 | 6) =>
    z
      .number({ error: prefixAggregationRange(version) })
      .int(prefixAggregationRange(version))
      .min(1, prefixAggregationRange(version))
      .max(version === 4 ? 32 : 128, prefixAggregationRange(version))
      .nullable()
      // Left out: that family is not aggregated.
      .optional()
      .transform((n) => n ?? null);
  return z
    .object({
      columns: z.array(columnId).min(1, "pick at least one column").max(100).optional(),
      aggregationPrefixes: z
        .object({ v4: prefix(4), v6: prefix(6) })
        .strict()
        .optional(),
      filters: z
        .array(
          z
            .object({
              dimension: z
                .string()
                .regex(/^[A-Z][A-Z0-9_]*$/, "a filter dimension, e.g. AS_DST or DST_PREFIX")
                .max(64),
              values: z.array(z.string().trim().min(1, "a value may not be empty").max(1000)).min(1, "give at least one value").max(1000),
            })
            .strict(),
        )
        .max(100)
        .optional(),
      filterExpression: z.string().max(MAX_EXPRESSION_LENGTH).superRefine(checkExpression).optional(),
      range: z.enum(RNA_DEFAULT_RANGES, { error: `choose one of ${RNA_DEFAULT_RANGES.join(", ")} (raw flows are kept 7 days)` }).optional(),
      sort: z
        .object({ column: columnId, direction: z.enum(["asc", "desc"], { error: "asc or desc" }) })
        .strict()
        .nullable()
        .optional(),
    })
    .strict();
}

/** The expression must compile as the analyzer would run it: its error names the column and what was expected. */
function checkExpression(text: string, ctx: z.RefinementCtx) {
  if (text.trim() === "") return;
  const compiled = compileNfdumpFilter(text);
  if (!compiled.ok) ctx.addIssue({ code: "custom", message: compiled.error.message });
}

/** The fields an object of the value may have, by where it is (top level, aggregationPrefixes, a filter, sort). */
function fieldsAt(path: readonly PropertyKey[]): string[] {
  const FIELDS: Record<string, string[]> = {
    aggregationPrefixes: ["v4", "v6"],
    filters: ["dimension", "values"],
    sort: ["column", "direction"],
  };
  return FIELDS[String(path[0] ?? "")] ?? Object.keys(BUILT_IN_RNA_DEFAULT_QUERY);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.join(".");
      const message =
        issue.code === "unrecognized_keys"
          ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} (the fields${where ? " here" : ""} are ${fieldsAt(issue.path).join(", ")})`
          : issue.message;
      return where ? `${where}: ${message}` : message;
    })
    .join("; ");
}

/** What is wrong with a value for rna_default_query (the settings form's message), or null when it fits. */
export function rnaDefaultQueryProblem(stored: unknown, options: DefaultQueryOptions = {}): string | null {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return "Enter a JSON object, e.g. {}.";
  const parsed = schemaFor(options).safeParse(stored);
  if (parsed.success) return null;
  return `${describeIssues(parsed.error)}.`;
}

/**
 * The stored rna_default_query as the analyzer applies it: the fields it gives over the built-in
 * default; a value that does not fit gives the built-in default and a notice naming what is wrong.
 */
export function readRnaDefaultQuery(stored: unknown, options: DefaultQueryOptions = {}): { value: RnaDefaultQuery; notice: string | null } {
  const problem = rnaDefaultQueryProblem(stored, options);
  if (problem !== null)
    return {
      value: BUILT_IN_RNA_DEFAULT_QUERY,
      notice: `The site's default query (rna_default_query) does not fit, so the built-in default is shown: ${problem}`,
    };
  const given = schemaFor(options).parse(stored);
  return {
    value: {
      columns: given.columns ?? BUILT_IN_RNA_DEFAULT_QUERY.columns,
      aggregationPrefixes: given.aggregationPrefixes ?? BUILT_IN_RNA_DEFAULT_QUERY.aggregationPrefixes,
      filters: given.filters ?? BUILT_IN_RNA_DEFAULT_QUERY.filters,
      filterExpression: given.filterExpression ?? BUILT_IN_RNA_DEFAULT_QUERY.filterExpression,
      range: given.range ?? BUILT_IN_RNA_DEFAULT_QUERY.range,
      sort: given.sort === undefined ? BUILT_IN_RNA_DEFAULT_QUERY.sort : given.sort,
    },
    notice: null,
  };
}
