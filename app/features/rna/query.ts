/**
 * The normalised query of the Raw Network Analyzer: what the screen's URL (params.ts) and the API's
 * body (request-schema.ts) both become before the engine (query.server.ts) runs it. Pure and
 * isomorphic.
 */
import type { RequestFilter } from "~/features/filter/request-filter";
import type { RnaColumnId } from "./columns";

export type RnaSort = { column: RnaColumnId; direction: "asc" | "desc" };

/** Prefix lengths to fold addresses to; null: that family is not aggregated. */
export type RnaAggregation = { v4: number | null; v6: number | null };

export type RnaQuery = {
  /** Unix seconds, end exclusive. */
  start: number;
  end: number;
  /** The enabled columns, in the order shown; at least one. */
  columns: RnaColumnId[];
  /** The Flow Explorer's dimension filters and the raw-record kinds (DST_PREFIX, AS_DST …; features/filter/raw-filters.ts). */
  filters: RequestFilter[];
  /** A filter expression in nfdump's language (features/filter/nfdump); "" for none. */
  expression: string;
  aggregation: RnaAggregation;
  /** Also the records another router exported again (counted = 0), shown as copies. */
  includeCopies: boolean;
  /** null: the default order, newest first (by sums when aggregated). */
  sort: RnaSort | null;
  /** The keyset cursor of the row after which the page starts (RnaPage.next); opaque. */
  after: string | null;
  pageSize: number;
};

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** shell §5, verbatim. */
export const AGGREGATION_MESSAGES = {
  v4Range: "Please type a prefix between /1 and /32 to aggregate the data",
  v6Range: "Please type a prefix between /1 and /128 to aggregate the data",
  v4Format: "Wrong IPv4 prefix format",
  v6Format: "Wrong IPv6 prefix format",
} as const;

export const AGGREGATION_BITS = { v4: 32, v6: 128 } as const;

export type AggregationError = { field: "v4" | "v6"; message: string };

const PREFIX_TEXT = /^\/?\s*(\d{1,4})$/;

/** One family's prefix: null (off) for null, undefined and "", a length for 24 / "24" / "/24", else the message. */
function prefixLength(family: "v4" | "v6", input: unknown): { value: number | null } | { error: string } {
  if (input === null || input === undefined || input === "") return { value: null };
  const format = family === "v4" ? AGGREGATION_MESSAGES.v4Format : AGGREGATION_MESSAGES.v6Format;
  const range = family === "v4" ? AGGREGATION_MESSAGES.v4Range : AGGREGATION_MESSAGES.v6Range;
  let n: number;
  if (typeof input === "number") {
    if (!Number.isInteger(input)) return { error: format };
    n = input;
  } else if (typeof input === "string") {
    const m = PREFIX_TEXT.exec(input.trim());
    if (!m) return { error: /^\/?\s*-\d+$/.test(input.trim()) ? range : format };
    n = Number(m[1]);
  } else {
    return { error: format };
  }
  if (n < 1 || n > AGGREGATION_BITS[family]) return { error: range };
  return { value: n };
}

/**
 * The aggregation prefixes checked with the spec's four messages: IPv4 /1–/32, IPv6 /1–/128; a
 * length out of range says the range, anything that is no length says the format.
 */
export function validateAggregation(
  input: { v4?: unknown; v6?: unknown } | null | undefined,
): { ok: true; aggregation: RnaAggregation } | { ok: false; errors: AggregationError[] } {
  const v4 = prefixLength("v4", input?.v4);
  const v6 = prefixLength("v6", input?.v6);
  const errors: AggregationError[] = [];
  if ("error" in v4) errors.push({ field: "v4", message: v4.error });
  if ("error" in v6) errors.push({ field: "v6", message: v6.error });
  if (errors.length || "error" in v4 || "error" in v6) return { ok: false, errors };
  return { ok: true, aggregation: { v4: v4.value, v6: v6.value } };
}

/** Whether the query groups rows (either family aggregated). */
export const isAggregated = (aggregation: RnaAggregation) => aggregation.v4 !== null || aggregation.v6 !== null;

/** A value as the API gives it: numbers (64-bit counters as JSON numbers), texts, a label list, or null. */
export type RnaValue = number | string | number[] | null;

export type RnaRow = {
  /** Stable identity of the row (its dimension values): what the timeseries' currentPageData sends back. */
  key: string;
  /** Raw values by column id (only the enabled columns). */
  values: Partial<Record<RnaColumnId, RnaValue>>;
  /** The text people read, by column id. */
  labels: Partial<Record<RnaColumnId, string>>;
  /** The row that sums the groups beyond the top N of an aggregated query. */
  isOthers: boolean;
  /** The router dropped the record's packets (every record's, for a group): "dropped by the router", left out of the sums. */
  dropped: boolean;
};

export type RnaSums = { bytes: number; packets: number; flows: number };

export type RnaPage = {
  rows: RnaRow[];
  columns: RnaColumnId[];
  /** Rows (or groups) of the whole query; exact: false means "more than count". */
  total: { count: number; exact: boolean };
  /** Scaled bytes and packets and the record count of every row the query selects that the router carried. */
  sums: RnaSums;
  /** The same for the records the router dropped (forwarding status 10xxxxxx), left out of sums as the aggregates leave them out. */
  dropped: RnaSums;
  /** The cursor of the next page; null on the last. */
  next: string | null;
  notices: string[];
  /** The range read, after clamping to what flows_raw keeps. */
  range: { start: number; end: number };
  durationMs: number;
};
