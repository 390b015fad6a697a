import type { LimiterSnapshot } from "./analytics-query-limiter.server";
import { pingClickhouse } from "./clickhouse/query.server";
import type { ComponentHealth } from "./components/contract.server";
import { componentHealth } from "./components/supervisor.server";
import { pingPostgres } from "./postgres.server";
import { outsideRequest } from "./request-scope.server";
import type { Services } from "./services.server";

export type StoreHealth = { ok: boolean; engine: string; latencyMs: number; error?: string; checkedBy?: "ping" | "recent queries" };
export type Health = {
  status: "ok" | "degraded";
  postgres: StoreHealth;
  clickhouse: StoreHealth;
  /** The ingest components running in this process, when any does. */
  components?: Record<string, ComponentHealth>;
};

const TIMEOUT_MS = 5_000;

async function probe(engine: string, check: () => Promise<void>): Promise<StoreHealth> {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref()),
    ]);
    return { ok: true, engine, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      ok: false,
      engine,
      latencyMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** A query answered this recently proves ClickHouse alive as well as a ping would. */
const RECENT_ANSWER_MS = 10_000;

/**
 * Whether ClickHouse is visibly at work: a query finished lately, or queries are running and the
 * oldest is still within its time limit. Then the health check does not ping it: chDB runs one
 * query at a time, so a ping would wait behind the analytics queries and the check would report
 * their backlog, not the store's health (and a load balancer would take a busy replica out).
 */
export function answeringQueries(snapshot: LimiterSnapshot | undefined, maxExecutionMs: number, now = Date.now()): boolean {
  if (!snapshot) return false;
  if (snapshot.lastSuccessAt !== null && now - snapshot.lastSuccessAt < RECENT_ANSWER_MS) return true;
  return snapshot.oldestRunningSince !== null && now - snapshot.oldestRunningSince < maxExecutionMs + RECENT_ANSWER_MS;
}

/**
 * Both stores answer a trivial query; either failing makes the service unhealthy. The ingest
 * components running here are reported beside them but leave the status alone: the web answers do
 * not depend on them, and a 503 would make a load balancer take the app away for a collector's fault. The ping runs
 * outside the query limits (never queued behind users' queries), and is skipped while
 * ClickHouse is visibly answering them.
 */
export async function checkHealth(services: Services): Promise<Health> {
  const busy = answeringQueries(services.ch.limiter.snapshot(), services.config.QUERY_MAX_EXECUTION_SECONDS * 1000);
  const [postgres, clickhouse] = await Promise.all([
    probe(services.pg.kind, () => pingPostgres(services.pg)),
    busy
      ? Promise.resolve<StoreHealth>({ ok: true, engine: services.ch.kind, latencyMs: 0, checkedBy: "recent queries" })
      : probe(services.ch.kind, () => outsideRequest(() => pingClickhouse(services.ch))).then((h) => ({
          ...h,
          checkedBy: "ping" as const,
        })),
  ]);
  const components = componentHealth();
  return {
    status: postgres.ok && clickhouse.ok ? "ok" : "degraded",
    postgres,
    clickhouse,
    ...(Object.keys(components).length ? { components } : {}),
  };
}
