import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { chQuery } from "~/server/clickhouse/query.server";
import { wireApp } from "~/wiring.server";

// Loaders and actions called directly see the app as it runs: features handed to the kernel.
wireApp();

export type TestStores = Services & { dispose: () => Promise<void>; databaseName: string | null; dataDir: string };

/**
 * Fresh stores for one test file: a database of its own on the PostgreSQL server of the run
 * (DATABASE_URL, set by `npm test` in CI) or an in-memory PGlite, and chDB in a temporary folder.
 * Migrations applied, reference rows present, no demo network unless `loadDemo` is set; `env`
 * adds configuration variables.
 */
export async function openTestStores(options: { loadDemo?: boolean; env?: Record<string, string> } = {}): Promise<TestStores> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-test-"));
  const serverUrl = process.env.DATABASE_URL;
  let databaseName: string | null = null;
  let databaseUrl: string | undefined;
  if (serverUrl) {
    databaseName = `flowlens_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
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
      if (serverUrl && databaseName) {
        const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
        await admin.unsafe(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows of a ClickHouse query as plain objects. */
export async function chRows<T>(stores: Pick<Services, "ch">, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return chQuery<T>(stores.ch, { name: "test.rows", sql: query, params });
}
