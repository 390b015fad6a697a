/**
 * The query limits of the ClickHouse door (query.server.ts): which calls are analytics queries and
 * how a refused or timed-out one is answered.
 *
 * Reads made while serving a request are analytics queries: they wait for a slot of the
 * AnalyticsQueryLimiter (per user and overall) and run with `max_execution_time`. A refused or
 * timed-out query is thrown as a ready HTTP answer — 429 or 503 with Retry-After and a JSON body —
 * which JSON endpoints return as they are and screens show in their error boundary (BusyNotice).
 *
 * Background work is never refused and has no time limit: anything outside a request scope
 * (migrations, the demo loader, command-line importers, the flows data-range refresh) and every
 * write (inserts and commands: MRT imports run from a request too). It still sets
 * max_execution_time explicitly (0 = none): chDB keeps a SET for its whole session, so a query
 * that said nothing would inherit the last analytics query's limit.
 */
import type { ClickHouseSettings } from "@clickhouse/client";
import { busyText, tooBroadText, type BusyCode } from "~/lib/busy";
import { MESSAGES } from "~/lib/messages";
import { QueryRefusal, type AnalyticsQueryLimiter, type LimiterSettings } from "../analytics-query-limiter.server";
import type { AppConfig } from "../env.server";

export type QueryDoorSettings = LimiterSettings & { maxExecutionSeconds: number };

/**
 * The limits from the configuration. Defaults by engine: chDB runs one query at a time, so more
 * than two in flight would only queue inside it, out of sight of the limiter (and of /healthz);
 * a server runs queries in parallel.
 */
export function queryDoorSettings(config: AppConfig): QueryDoorSettings {
  const embedded = config.embeddedClickhouse;
  return {
    global: config.ANALYTICS_QUERIES ?? (embedded ? 2 : 8),
    perUser: config.ANALYTICS_QUERIES_PER_USER ?? (embedded ? 1 : 4),
    queue: config.ANALYTICS_QUEUE,
    queuePerUser: config.ANALYTICS_QUEUE_PER_USER,
    maxWaitMs: config.ANALYTICS_QUEUE_WAIT_SECONDS * 1000,
    maxExecutionSeconds: config.QUERY_MAX_EXECUTION_SECONDS,
  };
}

/** ClickHouse's error code for a query past max_execution_time. */
const TIMEOUT_EXCEEDED = "159";
/** ClickHouse's error code for a query past max_rows_to_read. */
const TOO_MANY_ROWS = "158";
/** After a time-out the same query would time out again at once: suggest a pause of this much. */
const RETRY_AFTER_TIMEOUT_SECONDS = 30;

/**
 * The call's own settings with a time limit: a limit the caller sets itself wins (a query that knows
 * it may take longer, or must be quicker). No limit of rows to read unless the call sets one (the
 * Raw Network Analyzer's reads): said explicitly for the same reason as the time limit.
 */
export function withTimeLimit(settings: ClickHouseSettings | undefined, seconds: number): ClickHouseSettings {
  return { max_execution_time: seconds, max_rows_to_read: "0", ...settings };
}

/**
 * Runs an analytics query under the limiter for `key`; a refusal or time-out becomes its HTTP answer.
 */
export async function runLimited<R>(
  limiter: AnalyticsQueryLimiter,
  key: string,
  run: () => Promise<R>,
  settings: ClickHouseSettings = {},
): Promise<R> {
  try {
    return await limiter.run(key, run);
  } catch (error) {
    throw answerFor(error, settings);
  }
}

/** The HTTP answer for a refused, timed-out or too broad query; any other error unchanged. */
function answerFor(error: unknown, settings: ClickHouseSettings): unknown {
  if (error instanceof QueryRefusal) {
    const code: BusyCode = error.status === 429 ? "too_many_queries" : "server_busy";
    return busyResponse(error.status, code, busyText(code, error.retryAfterSeconds), error.retryAfterSeconds);
  }
  if (isTimeout(error)) return busyResponse(503, "query_timeout", MESSAGES.serverError, RETRY_AFTER_TIMEOUT_SECONDS);
  if (isTooManyRows(error)) {
    const limit = Number(settings.max_rows_to_read ?? 0);
    return busyResponse(503, "query_too_broad", tooBroadText(limit), RETRY_AFTER_TIMEOUT_SECONDS);
  }
  return error;
}

export function isTooManyRows(error: unknown): boolean {
  const e = error as { code?: unknown; type?: unknown; clickhouseCode?: unknown } | null;
  return !!e && (String(e.code) === TOO_MANY_ROWS || String(e.clickhouseCode) === TOO_MANY_ROWS || e.type === "TOO_MANY_ROWS");
}

export function isTimeout(error: unknown): boolean {
  const e = error as { code?: unknown; type?: unknown } | null;
  return !!e && (String(e.code) === TIMEOUT_EXCEEDED || e.type === "TIMEOUT_EXCEEDED");
}

export function busyResponse(status: 429 | 503, code: BusyCode, detail: string, retryAfterSeconds: number): Response {
  return Response.json(
    { detail, exception_code: code, retry_after_seconds: retryAfterSeconds },
    { status, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}

/**
 * A request's independent reads, run no more at once than the limiter lets one user run (`width`:
 * its perUser). More would only wait in the limiter's queue behind the request's own queries, where
 * a wait past ANALYTICS_QUEUE_WAIT_SECONDS is answered 503: on the embedded engine (one query per
 * user at a time) a page of slow queries would refuse itself. In turn, each starts when a slot of
 * the request's frees. Results in the order of the tasks; the first failure rejects.
 */
export async function inTurn<T extends unknown[]>(width: number, ...tasks: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const results = new Array(tasks.length) as T;
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, tasks.length)) }, lane));
  return results;
}
