/**
 * Answers of a request whose analytics queries were not run or ran too long (see
 * app/server/clickhouse/limits.server.ts): their codes, and the texts screens and JSON
 * bodies show. The wording is not in the spec, except the time-out's server-error text.
 */
import { MESSAGES } from "./messages";

export const BUSY_CODES = ["too_many_queries", "server_busy", "query_timeout", "query_too_broad"] as const;
export type BusyCode = (typeof BUSY_CODES)[number];

export type BusyAnswer = { status: number; code: BusyCode; detail: string; retryAfterSeconds: number };

const seconds = (n: number) => (n === 1 ? "1 second" : `${n} seconds`);

/** The sentence telling when to try again. */
export const retryIn = (retryAfterSeconds: number) => `Please try again in ${seconds(retryAfterSeconds)}.`;

/**
 * A query stopped at its limit of rows to read (`max_rows_to_read`, the Raw Network Analyzer's
 * RNA_MAX_ROWS_TO_READ): asking again does not help, a narrower query does.
 */
export const tooBroadText = (maxRows: number) =>
  `The query would read more than ${maxRows.toLocaleString("en-US")} rows, the most one query may read. Narrow the time range or add a filter.`;

/** The text of a refusal (429/503) in a JSON body; a time-out says the spec's server-error text. */
export function busyText(code: BusyCode, retryAfterSeconds: number): string {
  if (code === "too_many_queries") return `Too many of your queries are running at once. ${retryIn(retryAfterSeconds)}`;
  if (code === "server_busy") return `The server is busy. ${retryIn(retryAfterSeconds)}`;
  return MESSAGES.serverError;
}

/** The busy answer inside a route error (a thrown 429/503 response), or null for any other error. */
export function busyAnswerOf(error: unknown): BusyAnswer | null {
  const e = error as { status?: unknown; data?: unknown } | null;
  if (!e || (e.status !== 429 && e.status !== 503) || !e.data || typeof e.data !== "object") return null;
  const data = e.data as { exception_code?: unknown; detail?: unknown; retry_after_seconds?: unknown };
  if (!BUSY_CODES.includes(data.exception_code as BusyCode)) return null;
  const retryAfterSeconds = Number(data.retry_after_seconds);
  return {
    status: e.status,
    code: data.exception_code as BusyCode,
    detail: typeof data.detail === "string" ? data.detail : MESSAGES.serverError,
    retryAfterSeconds: Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds) : 1,
  };
}
