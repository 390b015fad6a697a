import { z } from "zod";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chCommand, chInsert, chQuery, type ClickhouseHandle } from "./clickhouse/query.server";

/** Retention in days; the same numbers for every deployment unless overridden. */
export type ClickhouseLayout = {
  /** Cluster name: DDL runs ON CLUSTER, tables become Replicated*, reads go through Distributed tables. */
  cluster?: string;
  rawTtlDays: number;
  agg5mTtlDays: number;
  agg1hTtlDays: number;
};

export const DEFAULT_LAYOUT: ClickhouseLayout = { rawTtlDays: 7, agg5mTtlDays: 100, agg1hTtlDays: 800 };

export type ClickhouseMigration = { version: number; name: string; statements: string[]; checksum: string };

// Resolved from the working directory, not import.meta.url: the server code is bundled into build/.
export const CLICKHOUSE_MIGRATIONS_DIR = process.env.CLICKHOUSE_MIGRATIONS_DIR ?? path.resolve(process.cwd(), "db/clickhouse");

/** Splits a migration file into statements on ';' at line ends; comments are dropped. */
export function splitStatements(sqlText: string): string[] {
  const withoutComments = sqlText
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n");
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Renders a migration for a single server or a cluster. Placeholders: {{LOCAL}} (table suffix
 * "_local" on a cluster), {{ON_CLUSTER}}, {{REPLICATED}} (engine prefix), TTLs. Lines
 * "-- @distributed <table> <sharding key>" add, on a cluster only, the Distributed table that
 * queries read under the plain name.
 */
export function renderMigration(sqlText: string, layout: ClickhouseLayout): string[] {
  const onCluster = layout.cluster ? `ON CLUSTER '${layout.cluster}'` : "";
  const rendered = sqlText
    .replaceAll("{{LOCAL}}", layout.cluster ? "_local" : "")
    .replaceAll("{{ON_CLUSTER}}", onCluster)
    .replaceAll("{{REPLICATED}}", layout.cluster ? "Replicated" : "")
    .replaceAll("{{RAW_TTL_DAYS}}", String(layout.rawTtlDays))
    .replaceAll("{{AGG_5M_TTL_DAYS}}", String(layout.agg5mTtlDays))
    .replaceAll("{{AGG_1H_TTL_DAYS}}", String(layout.agg1hTtlDays));
  const statements = splitStatements(rendered);
  if (layout.cluster) {
    for (const match of sqlText.matchAll(/^--\s*@distributed\s+(\w+)\s+(.+)$/gm)) {
      const [, table, shardingKey] = match;
      statements.push(
        `CREATE TABLE IF NOT EXISTS ${table} ${onCluster} AS ${table}_local ` +
          `ENGINE = Distributed('${layout.cluster}', currentDatabase(), ${table}_local, ${shardingKey.trim()})`,
      );
    }
  }
  return statements;
}

export function loadMigrations(layout: ClickhouseLayout, dir = CLICKHOUSE_MIGRATIONS_DIR): ClickhouseMigration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), "utf8");
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ""),
        statements: renderMigration(text, layout),
        checksum: createHash("sha256").update(text).digest("hex"),
      };
    });
}

/** Applies the migrations not yet recorded in schema_migrations, in order. Returns the names applied. */
export async function migrateClickhouse(
  ch: ClickhouseHandle,
  layout: ClickhouseLayout,
  dir = CLICKHOUSE_MIGRATIONS_DIR,
): Promise<string[]> {
  const onCluster = layout.cluster ? `ON CLUSTER '${layout.cluster}'` : "";
  const engine = layout.cluster ? "ReplicatedMergeTree" : "MergeTree";
  await chCommand(ch, {
    name: "migrations.createTable",
    sql: `CREATE TABLE IF NOT EXISTS schema_migrations ${onCluster}
            (version UInt32, name String, checksum String, applied_at DateTime('UTC') DEFAULT now())
            ENGINE = ${engine} ORDER BY version`,
  });
  const applied = await chQuery(ch, {
    name: "migrations.applied",
    sql: "SELECT version FROM schema_migrations",
    schema: z.object({ version: z.number() }),
  });
  const done = new Set(applied.map((row) => Number(row.version)));
  const newlyApplied: string[] = [];
  for (const migration of loadMigrations(layout, dir)) {
    if (done.has(migration.version)) continue;
    for (const statement of migration.statements) await chCommand(ch, { name: "migrations.apply", sql: statement });
    await chInsert(ch, {
      name: "migrations.record",
      table: "schema_migrations",
      values: [{ version: migration.version, name: migration.name, checksum: migration.checksum }],
      format: "JSONEachRow",
    });
    newlyApplied.push(migration.name);
  }
  return newlyApplied;
}
