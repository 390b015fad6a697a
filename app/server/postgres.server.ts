import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "~db/postgres/schema";
import { StoreUnavailableError } from "./clickhouse.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type PostgresHandle = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void> };

// Resolved from the working directory: after the build this code lives in build/server/index.js.
export const PG_MIGRATIONS_DIR = process.env.PG_MIGRATIONS_DIR ?? path.resolve(process.cwd(), "db/postgres/migrations");

/**
 * PostgreSQL through postgres.js when DATABASE_URL is set, otherwise PGlite persisted under
 * DATA_DIR/pg (or in memory for ":memory:"). The same drizzle migrations run on both.
 * `pgliteImage`: an in-memory PGlite starts from this copy of a data directory (PGlite's
 * `dumpDataDir()`), so tests open a prepared database without building it again.
 */
export async function openPostgres(
  config: { DATABASE_URL?: string; dataDir: string },
  options: { pglitePath?: string; pgliteImage?: Blob; migrate?: boolean } = {},
): Promise<PostgresHandle> {
  const migrate = options.migrate ?? true;
  if (config.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(config.DATABASE_URL, { max: 10, onnotice: () => {}, connect_timeout: 10 });
    try {
      await client`select 1`;
    } catch (error) {
      await client.end({ timeout: 1 }).catch(() => {});
      throw new StoreUnavailableError("PostgreSQL", describeConnectionError(error, config.DATABASE_URL));
    }
    const db = drizzle(client, { schema });
    if (migrate) {
      const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
      await run(db, { migrationsFolder: PG_MIGRATIONS_DIR });
    }
    return { db: db as unknown as Db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = options.pglitePath ?? path.join(config.dataDir, "pg");
  if (dir !== ":memory:") mkdirSync(dir, { recursive: true });
  if (options.pgliteImage && dir !== ":memory:") throw new Error("openPostgres: a PGlite image is only loaded into an in-memory database");
  const client = dir === ":memory:" ? new PGlite({ loadDataDir: options.pgliteImage }) : new PGlite(dir);
  await client.waitReady;
  const db = drizzle(client, { schema });
  if (migrate) {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(db, { migrationsFolder: PG_MIGRATIONS_DIR });
  }
  return { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
}

/** Says what failed without echoing the password of the URL. */
function describeConnectionError(error: unknown, url: string): string {
  const safeUrl = url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  const message = error instanceof Error ? error.message : String(error);
  return `cannot connect to ${safeUrl}: ${message}`;
}

export async function pingPostgres(handle: PostgresHandle): Promise<void> {
  await handle.db.execute(sql`select 1`);
}

/**
 * The rows of a raw SQL statement (`db.execute(sql\`…\`)`) on either driver: PGlite answers
 * `{ rows }`, postgres.js an array of rows. Aggregates drizzle's query builder cannot say go here.
 */
export async function executeRows<Row>(db: Db, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Rows of a raw `db.execute` answer, from either driver (PGlite answers { rows }, postgres.js an array). */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
