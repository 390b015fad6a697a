/**
 * The one door every ClickHouse call of the app passes: `services.ch.client` is the client
 * wrapped here, so no route or feature can reach ClickHouse around it.
 *
 * Reads made while serving a request (`query`, `exec` inside a request scope) are analytics
 * queries: they wait for a slot of the AnalyticsQueryLimiter (per user and overall) and run with
 * `max_execution_time`. A refused or timed-out query is thrown as a ready HTTP answer — 429 or 503
 * with Retry-After and a JSON body — which JSON endpoints return as they are and screens show in
 * their error boundary (BusyNotice).
 *
 * Background work is never refused and has no time limit: anything outside a request scope
 * (migrations, the demo loader, command-line importers, the flows data-range refresh) and every
 * write (`insert`, `command`: MRT imports run from a request too). It still sets
 * max_execution_time explicitly (0 = none): chDB keeps a SET for its whole session, so a query
 * that said nothing would inherit the last analytics query's limit.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { busyText, type BusyCode } from "~/lib/busy";
import { MESSAGES } from "~/lib/messages";
import { AnalyticsQueryLimiter, QueryRefusal, type LimiterSettings } from "./analytics-query-limiter.server";
import type { AppConfig } from "./env.server";
import { currentRequestScope, type RequestScope } from "./request-scope.server";

export type QueryDoorSettings = LimiterSettings & { maxExecutionSeconds: number };

export type QueryDoor = { client: ClickHouseClient; limiter: AnalyticsQueryLimiter; settings: QueryDoorSettings };

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
/** After a time-out the same query would time out again at once: suggest a pause of this much. */
const RETRY_AFTER_TIMEOUT_SECONDS = 30;

type Settings = Record<string, unknown> | undefined;
type Call = { clickhouse_settings?: Settings };

export function openQueryDoor(
  client: ClickHouseClient,
  settings: QueryDoorSettings,
  identify: (scope: RequestScope) => Promise<string>,
): QueryDoor {
  const limiter = new AnalyticsQueryLimiter(settings);
  // A limit the caller sets itself wins (a query that knows it may take longer, or must be quicker).
  const withLimit = <P extends Call>(params: P, seconds: number): P => ({
    ...params,
    clickhouse_settings: { max_execution_time: seconds, ...params.clickhouse_settings },
  });
  const background = <P extends Call>(params: P): P => withLimit(params, 0);
  const analytics = <P extends Call>(params: P): P => withLimit(params, settings.maxExecutionSeconds);

  const limited =
    <P extends Call, R>(run: (params: P) => Promise<R>) =>
    async (params: P): Promise<R> => {
      const scope = currentRequestScope();
      if (!scope) return run(background(params));
      const key = await identify(scope);
      try {
        return await limiter.run(key, () => run(analytics(params)));
      } catch (error) {
        throw answerFor(error);
      }
    };
  const unlimited =
    <P extends Call, R>(run: (params: P) => Promise<R>) =>
    (params: P): Promise<R> =>
      run(background(params));

  const wrapped = {
    query: limited(client.query.bind(client) as (p: Call) => Promise<unknown>),
    exec: limited(client.exec.bind(client) as (p: Call) => Promise<unknown>),
    insert: unlimited(client.insert.bind(client) as (p: Call) => Promise<unknown>),
    command: unlimited(client.command.bind(client) as (p: Call) => Promise<unknown>),
  };
  const door = new Proxy(client, {
    get(target, property, receiver) {
      if (typeof property === "string" && property in wrapped) return wrapped[property as keyof typeof wrapped];
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { client: door, limiter, settings };
}

/** The HTTP answer for a refused or timed-out query; any other error unchanged. */
function answerFor(error: unknown): unknown {
  if (error instanceof QueryRefusal) {
    const code: BusyCode = error.status === 429 ? "too_many_queries" : "server_busy";
    return busyResponse(error.status, code, busyText(code, error.retryAfterSeconds), error.retryAfterSeconds);
  }
  if (isTimeout(error)) return busyResponse(503, "query_timeout", MESSAGES.serverError, RETRY_AFTER_TIMEOUT_SECONDS);
  return error;
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
