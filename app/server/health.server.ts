import { pingClickhouse } from "./clickhouse.server";
import { pingPostgres } from "./postgres.server";
import type { Services } from "./services.server";

export type StoreHealth = { ok: boolean; engine: string; latencyMs: number; error?: string };
export type Health = { status: "ok" | "degraded"; postgres: StoreHealth; clickhouse: StoreHealth };

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
    return { ok: false, engine, latencyMs: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
  }
}

/** Both stores answer a trivial query; either failing makes the service unhealthy. */
export async function checkHealth(services: Services): Promise<Health> {
  const [postgres, clickhouse] = await Promise.all([
    probe(services.pg.kind, () => pingPostgres(services.pg)),
    probe(services.ch.kind, () => pingClickhouse(services.ch)),
  ]);
  return { status: postgres.ok && clickhouse.ok ? "ok" : "degraded", postgres, clickhouse };
}
