import { cpSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
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
 * `template`: a copy of that database (CREATE DATABASE … TEMPLATE), which nobody may be connected to.
 */
export async function createThrowawayDatabase(
  serverUrl: string,
  options: { template?: string } = {},
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `flowlens_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.unsafe(options.template ? `CREATE DATABASE ${name} TEMPLATE ${options.template}` : `CREATE DATABASE ${name}`);
        break;
      } catch (error) {
        // 55006 object_in_use: another file's copy of the same template is being made at this moment; it takes seconds.
        const inUse = (error as { code?: string }).code === "55006";
        if (!inUse || attempt >= 30) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await admin.end();
  }
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

/** Where prepared stores lie (tests/helpers/demo-template.ts): a chDB data folder and a PostgreSQL database or PGlite image. */
export type StoresTemplate = { chDir: string; pgDatabase?: string; pgliteImage?: string };

const TEST_SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";

/** The configuration of test stores in `dataDir` on `databaseUrl` (or PGlite), with `env` added. */
export function testConfig(dataDir: string, databaseUrl: string | undefined, env: Record<string, string> = {}) {
  return parseConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SESSION_SECRET: TEST_SESSION_SECRET, DEMO_DATA: "off", ...env });
}

/**
 * Fresh stores for one test file: a database of its own on the PostgreSQL server of the run
 * (DATABASE_URL, set by `npm test` in CI) or an in-memory PGlite, and chDB in a temporary folder.
 * Migrations applied, reference rows present, no demo network unless `loadDemo` is set; `env`
 * adds configuration variables. `from`: the stores start as copies of a template's (the demo
 * network built once per run, tests/helpers/demo-template.ts); what the file writes stays its own.
 */
export async function openTestStores(
  options: { loadDemo?: boolean; env?: Record<string, string>; from?: StoresTemplate } = {},
): Promise<TestStores> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-test-"));
  const from = options.from;
  const serverUrl = process.env.DATABASE_URL;
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  try {
    if (from) copyDataFolder(from.chDir, path.join(dataDir, "ch"));
    if (serverUrl) {
      if (from && !from.pgDatabase) throw new Error("openTestStores: the template has no PostgreSQL database, but DATABASE_URL is set");
      database = await createThrowawayDatabase(serverUrl, { template: from?.pgDatabase });
    } else if (from && !from.pgliteImage) {
      throw new Error("openTestStores: the template has no PGlite image, but DATABASE_URL is not set");
    }
    const pgliteImage = !serverUrl && from?.pgliteImage ? new Blob([readFileSync(from.pgliteImage)]) : undefined;
    const config = testConfig(dataDir, database?.url, options.env);
    const services = await startServices(config, {
      pglitePath: serverUrl ? undefined : ":memory:",
      pgliteImage,
      loadDemo: options.loadDemo ?? false,
    });
    const owned = database;
    return {
      ...services,
      databaseName: owned?.name ?? null,
      dataDir,
      dispose: async () => {
        await services.close();
        await owned?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Copies a closed chDB data folder. Its links (metadata/<db> → ../store/…, data/<db>/<table> →
 * ../../store/…) are relative and are copied as written, so the copy's tables are the copy's own;
 * a link leading out of the folder would share the template's files, and is refused.
 */
export function copyDataFolder(source: string, target: string): void {
  cpSync(source, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  const root = path.resolve(target);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue;
    const link = path.join(entry.parentPath, entry.name);
    const resolved = path.resolve(path.dirname(link), readlinkSync(link));
    if (resolved !== root && !resolved.startsWith(root + path.sep)) {
      throw new Error(`copyDataFolder: ${link} leads out of the copy (${resolved})`);
    }
  }
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
