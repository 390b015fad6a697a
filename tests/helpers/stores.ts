import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { z } from "zod";
import { chQueryUnchecked } from "~/server/clickhouse/query.server";
import { wireApp } from "~/wiring.server";

// Loaders and actions called directly see the app as it runs: features handed to the kernel.
wireApp();

export type TestStores = Services & { dispose: () => Promise<void>; databaseName: string | null; dataDir: string };

/**
 * A database of its own on the PostgreSQL server at `serverUrl` (the run's DATABASE_URL): its name,
 * its URL, and `drop()` to remove it. For stores opened here and for commands a test runs.
 */
export async function createThrowawayDatabase(serverUrl: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `flowlens_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Fresh stores for one test file: a database of its own on the PostgreSQL server of the run
 * (DATABASE_URL, set by `npm test` in CI) or an in-memory PGlite, and chDB in a temporary folder.
 * Migrations applied, reference rows present, no demo network unless `loadDemo` is set; `env`
 * adds configuration variables.
 */
export async function openTestStores(options: { loadDemo?: boolean; env?: Record<string, string> } = {}): Promise<TestStores> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-test-"));
  const serverUrl = process.env.DATABASE_URL;
  const database = serverUrl ? await createThrowawayDatabase(serverUrl) : null;
  const databaseName = database?.name ?? null;
  const databaseUrl = database?.url;
  const config = parseConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
    DEMO_DATA: "off",
    ...options.env,
  });
  const services = await startServices(config, { pglitePath: serverUrl ? undefined : ":memory:", loadDemo: options.loadDemo ?? false });
  return {
    ...services,
    databaseName,
    dataDir,
    dispose: async () => {
      await services.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The schema of a row a test compares whole (its `toEqual` is the check): any object. */
export const anyRow = z.record(z.string(), z.unknown());

/**
 * Rows of a ClickHouse query as plain objects cast to `T`: the tests' reader, unchecked because
 * each test asserts the values it reads. The one unchecked read outside measured hot paths
 * (tests/unit/clickhouse-door.test.ts lists where `chQueryUnchecked` may be called).
 */
export async function chRows<T>(stores: Pick<Services, "ch">, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return chQueryUnchecked<T>(stores.ch, { name: "test.rows", sql: query, params });
}
