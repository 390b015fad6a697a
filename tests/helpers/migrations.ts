/**
 * The migration folders of an earlier release, for the tests that upgrade a store holding that
 * release's schema and data: copies of the project's folders cut before a given migration.
 */
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { CLICKHOUSE_MIGRATIONS_DIR } from "~/server/clickhouse-migrations.server";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";

/** A copy of the PostgreSQL migrations folder (SQL files and drizzle's journal) holding those before the first that contains `marker`. */
export function pgMigrationsBefore(marker: string): string {
  const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const adding = journal.entries.findIndex((e) => readFileSync(path.join(PG_MIGRATIONS_DIR, `${e.tag}.sql`), "utf8").includes(marker));
  // Not found, or the very first migration: there would be no earlier release to start from.
  if (adding < 1) throw new Error(`no PostgreSQL migration after the first contains ${JSON.stringify(marker)}`);
  const previous = mkdtempSync(path.join(tmpdir(), "flowlens-migrations-"));
  cpSync(PG_MIGRATIONS_DIR, previous, { recursive: true });
  const kept = new Set(journal.entries.slice(0, adding).map((e) => `${e.tag}.sql`));
  for (const file of readdirSync(previous)) if (file.endsWith(".sql") && !kept.has(file)) rmSync(path.join(previous, file));
  writeFileSync(path.join(previous, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, adding) }));
  return previous;
}

/** A folder with the ClickHouse migrations numbered up to `version`, as `migrateClickhouse(ch, layout, dir)` reads them. */
export function clickhouseMigrationsUpTo(version: number): string {
  const files = readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter(
    (file) => /^\d{4}_.+\.sql$/.test(file) && Number(file.slice(0, 4)) <= version,
  );
  if (!files.some((file) => Number(file.slice(0, 4)) === version)) throw new Error(`no ClickHouse migration numbered ${version}`);
  const previous = mkdtempSync(path.join(tmpdir(), "flowlens-ch-migrations-"));
  for (const file of files) copyFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, file), path.join(previous, file));
  return previous;
}

/**
 * The tables that the PostgreSQL migrations from the first containing `marker` onward create, sorted:
 * what an upgrade from the release before that migration adds, later releases' tables included, so an
 * upgrade test need not be edited each time a release adds a table.
 */
export function pgTablesCreatedFrom(marker: string): string[] {
  const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const texts = journal.entries.map((e) => readFileSync(path.join(PG_MIGRATIONS_DIR, `${e.tag}.sql`), "utf8"));
  const from = texts.findIndex((text) => text.includes(marker));
  if (from < 0) throw new Error(`no PostgreSQL migration contains ${JSON.stringify(marker)}`);
  return texts
    .slice(from)
    .flatMap((text) => [...text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"(\w+)"/g)].map((m) => m[1]))
    .sort();
}

/**
 * Every row each table held before the upgrade is still there after it (rows may be added), as
 * pgSnapshot gives them; `except`: tables the upgrade changes on purpose, checked by the test itself.
 */
export function expectRowsKept(before: Record<string, string[]>, after: Record<string, string[]>, except: readonly string[] = []): void {
  for (const table of Object.keys(before)) {
    if (except.includes(table)) continue;
    for (const row of before[table]) expect([table, after[table]]).toEqual([table, expect.arrayContaining([row])]);
  }
}
