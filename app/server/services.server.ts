import { z } from "zod";
import { count } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import { openClickhouse } from "./clickhouse.server";
import { requestDatabaseOverride } from "./clickhouse/database-override.server";
import { queryDoorSettings } from "./clickhouse/limits.server";
import { chQuery, openQueryDoor, type ClickhouseHandle } from "./clickhouse/query.server";
import { requestIdentity } from "./request-scope.server";
import { DEFAULT_LAYOUT, migrateClickhouse } from "./clickhouse-migrations.server";
import { getConfig, type AppConfig } from "./env.server";
import { demoNetwork, forgetStores } from "./lifecycle.server";
import { log } from "./log.server";
import { trustProxy } from "./auth/session.server";
import { lockDataDir } from "./data-dir-lock.server";
import { openPostgres, type PostgresHandle } from "./postgres.server";
import { ensureReferenceData } from "./reference-data.server";

export type Services = {
  config: AppConfig;
  pg: PostgresHandle;
  ch: ClickhouseHandle;
  close: () => Promise<void>;
};

export type StartOptions = {
  /** Override the store locations (tests use ":memory:"). */
  pglitePath?: string;
  /** With pglitePath ":memory:": start from this PGlite data-directory image (tests' prepared demo stores). */
  pgliteImage?: Blob;
  chdbPath?: string;
  /** Load the demo network (lifecycle.server provideDemoNetwork) when the stores are empty (decided by DEMO_DATA otherwise). */
  loadDemo?: boolean;
};

/** Opens both stores, applies their migrations and makes sure the reference rows exist. */
export async function startServices(config: AppConfig, options: StartOptions = {}): Promise<Services> {
  trustProxy(config.TRUST_PROXY);
  const usesDataDir =
    (config.embeddedPostgres && options.pglitePath !== ":memory:") || (config.embeddedClickhouse && options.chdbPath !== ":memory:");
  const unlock = usesDataDir ? lockDataDir(config.dataDir) : () => {};
  let pg: PostgresHandle;
  let ch: ClickhouseHandle;
  try {
    pg = await openPostgres(config, { pglitePath: options.pglitePath, pgliteImage: options.pgliteImage });
  } catch (error) {
    unlock();
    throw error;
  }
  try {
    const who = { db: pg.db, sessionSecret: config.sessionSecret };
    ch = openQueryDoor(await openClickhouse(config, { chdbPath: options.chdbPath }), queryDoorSettings(config), {
      identify: (scope) => requestIdentity(scope, who),
      databases: (scope) => requestDatabaseOverride(scope, who),
    });
  } catch (error) {
    await pg.close();
    unlock();
    throw error;
  }
  const appliedCh = await migrateClickhouse(ch, { ...DEFAULT_LAYOUT, cluster: config.CLICKHOUSE_CLUSTER });
  if (appliedCh.length) log.info(`ClickHouse migrations applied: ${appliedCh.join(", ")}`);
  await ensureReferenceData(pg.db);
  const services: Services = {
    config,
    pg,
    ch,
    close: async () => {
      forgetStores({ pg, ch });
      await Promise.allSettled([pg.close(), ch.close()]);
      unlock();
    },
  };
  const demo = demoNetwork();
  if (demo && shouldLoadDemo(config, options) && (await storesAreEmpty(services))) await demo.load(services);
  return services;
}

function shouldLoadDemo(config: AppConfig, options: StartOptions): boolean {
  if (options.loadDemo !== undefined) return options.loadDemo;
  if (config.DEMO_DATA === "off") return false;
  if (config.DEMO_DATA === "on") return true;
  // auto: only on the embedded default, where a fresh machine should show a working network.
  return config.embeddedPostgres && config.embeddedClickhouse;
}

/** Empty = nobody can log in and there is no traffic: a fresh installation. */
export async function storesAreEmpty(services: Pick<Services, "pg" | "ch">): Promise<boolean> {
  const [{ n }] = await services.pg.db.select({ n: count() }).from(users);
  if (Number(n) > 0) return false;
  const [row] = await chQuery(services.ch, {
    name: "flows.count",
    sql: "SELECT toUInt64(count()) AS n FROM flows_5m",
    schema: z.object({ n: z.number() }),
  });
  return Number(row.n) === 0;
}

const holder = globalThis as unknown as { __flowlensServices?: Promise<Services> };

/** The process-wide services, started once (survives Vite's module reloads in development). */
export function getServices(): Promise<Services> {
  holder.__flowlensServices ??= startServices(getConfig());
  return holder.__flowlensServices;
}

/** Tests that call loaders and actions directly point them at their own stores. */
export function useServicesForTests(services: Services): void {
  holder.__flowlensServices = Promise.resolve(services);
}
