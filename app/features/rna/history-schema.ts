/**
 * The shapes of the Raw Network Analyzer's query history (RNA API §7, usertracking/rna_history/):
 * the query as it is stored — the normalised query of the analyzer without its paging (range,
 * columns, filters, filter expression, prefix aggregation, copies, sort) — and the call's `page`.
 * Isomorphic: the history service, its route and its OpenAPI description share them.
 */
import { z } from "zod";
import type { RequestFilter } from "~/features/filter/request-filter";
import { MAX_EXPRESSION_LENGTH } from "~/features/filter/nfdump";

/** How many queries are kept per user, and shown per page of the history. */
export const RNA_HISTORY_KEPT = 100;
export const RNA_HISTORY_PAGE_SIZE = 20;
export const RNA_HISTORY_PAGES = Math.ceil(RNA_HISTORY_KEPT / RNA_HISTORY_PAGE_SIZE);

/**
 * A stored query. An analyzer query (with its keyset cursor and page size) is accepted as it is:
 * the fields beyond these are not part of what the history re-runs, and are dropped.
 */
export type RnaHistoryQuery = {
  /** Unix seconds. */
  start: number;
  end: number;
  /** Column ids as the API names them: flows_raw's column names (`src_addr`, `bytes` …). */
  columns: readonly string[];
  filters: readonly RequestFilter[];
  /** The filter expression in nfdump's language ("" for none). */
  expression: string;
  /** Prefix lengths the addresses are folded to, null for off. */
  aggregation: { v4: number | null; v6: number | null };
  /** Whether re-exported copies (counted = 0) were shown as well. */
  includeCopies: boolean;
  sort: { column: string; direction: "asc" | "desc" } | null;
};

const columnId = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "a column id as the API names it, e.g. src_addr")
  .max(64);

export const rnaHistoryQuerySchema = z
  .object({
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    columns: z.array(columnId).min(1, "at least one column").max(100),
    filters: z
      .array(
        z.object({
          dimension: z
            .string()
            .regex(/^[A-Z][A-Z0-9_]*$/, "a filter dimension, e.g. DST_PREFIX")
            .max(64),
          values: z.array(z.string().min(1).max(1000)).min(1).max(1000),
        }),
      )
      .max(100),
    expression: z.string().max(MAX_EXPRESSION_LENGTH),
    aggregation: z.object({
      v4: z.number().int().min(1).max(32).nullable(),
      v6: z.number().int().min(1).max(128).nullable(),
    }),
    includeCopies: z.boolean(),
    sort: z.object({ column: columnId, direction: z.enum(["asc", "desc"]) }).nullable(),
  })
  .refine((q) => q.start <= q.end, { message: "the start is after the end", path: ["end"] });

/** What is recorded after a query ran: the query, how many rows it matched (a lower bound when not exact), how long it took. */
export type RnaHistoryRecord = {
  query: RnaHistoryQuery;
  total: { count: number; exact: boolean };
  durationMs: number;
};

export const PAGE_MESSAGE = `a whole number from 1 to ${RNA_HISTORY_PAGES} (${RNA_HISTORY_PAGE_SIZE} entries a page, the last ${RNA_HISTORY_KEPT} queries kept)`;

/** GET usertracking/rna_history/?page=n: page 1 (the newest) when absent. */
export const rnaHistoryQueryParams = z.object({
  page: z
    .string()
    .regex(/^[0-9]{1,3}$/, PAGE_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= RNA_HISTORY_PAGES, PAGE_MESSAGE)
    .optional(),
});
