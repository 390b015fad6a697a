/**
 * PostgreSQL of an earlier release for the upgrade tests: a database migrated with that release's
 * folder (pgMigrationsBefore) on the store the test configuration names (a server's URL or the
 * embedded PGlite of the data directory), raw access to it and to the running app's, and a snapshot
 * of every table's rows to compare before and after the upgrade.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { parseConfig, type AppConfig } from "~/server/env.server";
import type { Services } from "~/server/services.server";
import { createThrowawayDatabase } from "./stores";

export type RawPg = {
  exec: (q: string) => Promise<void>;
  rows: (q: string) => Promise<Record<string, unknown>[]>;
  close: () => Promise<void>;
};

export async function openPreviousPostgres(config: AppConfig, migrationsFolder: string): Promise<RawPg> {
  if (config.DATABASE_URL) {
    const client = postgres(config.DATABASE_URL, { max: 1, onnotice: () => {} });
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(drizzle(client), { migrationsFolder });
    return {
      exec: async (q) => void (await client.unsafe(q)),
      rows: async (q) => [...(await client.unsafe(q))],
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite(path.join(config.dataDir, "pg"));
  await migrate(drizzle(client), { migrationsFolder });
  return {
    exec: async (q) => void (await client.exec(q)),
    rows: async (q) => (await client.query<Record<string, unknown>>(q)).rows,
    close: () => client.close(),
  };
}

export function rawPgOf(services: Services): RawPg {
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  return {
    exec: async (q) => void (await services.pg.db.execute(sql.raw(q))),
    rows: async (q) => rowsOf(await services.pg.db.execute(sql.raw(q))),
    close: async () => {},
  };
}

export async function pgSnapshot(pg: RawPg): Promise<Record<string, string[]>> {
  const tables = await pg.rows(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const snapshot: Record<string, string[]> = {};
  for (const { name } of tables)
    snapshot[String(name)] = (await pg.rows(`SELECT row_to_json(t)::text AS row FROM "${String(name)}" t ORDER BY 1`)).map((r) =>
      String(r.row),
    );
  return snapshot;
}

/**
 * The configuration of an upgrade test: its data directory, the demo off, and — when the run has a PostgreSQL
 * server (DATABASE_URL) — a throwaway database of its own there (null on embedded PGlite; the test drops it).
 */
export async function upgradeTestConfig(
  dataDir: string,
): Promise<{ config: AppConfig; database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null }> {
  const database = process.env.DATABASE_URL ? await createThrowawayDatabase(process.env.DATABASE_URL) : null;
  const config = parseConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url,
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
    DEMO_DATA: "off",
  });
  return { config, database };
}
