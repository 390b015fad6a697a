/**
 * PostgreSQL migration 0014 (rna_query_history) upgrades a data directory of the previous release:
 * the test writes that release's schema and rows (accounts and their settings, the
 * site settings with a default query), closes the store, starts the services on the same
 * directory as the app does, reads every row back, records and reads queries of an account the
 * old release created, has the account's deletion take its history along, and starts again to
 * show that nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rnaQueryHistory, users } from "~db/postgres/schema";
import { recordRnaQuery, rnaHistoryPage } from "~/features/rna/history.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "rna_query_history"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES
    (901, 'analyst@example.org', 'Ana', 'Lyst', 'scrypt$kept'),
    (902, 'leaver@example.org', 'Lea', 'Ver', 'scrypt$kept');
  INSERT INTO user_settings (user_id, timezone) VALUES (901, 'Europe/Berlin');
  INSERT INTO site_settings (id, rna_default_query) VALUES (1, '{"range": "LAST_6_HOURS", "aggregationPrefixes": {"v4": 24}}')
    ON CONFLICT (id) DO UPDATE SET rna_default_query = EXCLUDED.rna_default_query;
`;

describe("upgrade of a data directory of the previous release (RNA query history)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-rna-history-"));
  const previousPg = pgMigrationsBefore(MARKER);
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  let config: AppConfig;
  let before: Record<string, string[]>;
  let services: Services;

  beforeAll(async () => {
    ({ config, database } = await upgradeTestConfig(dataDir));
    const pg = await openPreviousPostgres(config, previousPg);
    try {
      await pg.exec(PREVIOUS_ROWS);
      before = await pgSnapshot(pg);
    } finally {
      await pg.close();
    }
    expect(Object.keys(before)).not.toContain("rna_query_history");
    expect(before.users).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the history table (and later releases' tables), empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    for (const table of Object.keys(before)) {
      // The reference rows written at every start may add rows (a new permission or flag); none goes away.
      for (const row of before[table]) expect([table, after[table]]).toEqual([table, expect.arrayContaining([row])]);
    }
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toContain("rna_query_history");
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
    const [settings] = await rawPgOf(services).rows("SELECT rna_default_query FROM site_settings WHERE id = 1");
    expect(settings.rna_default_query).toEqual({ range: "LAST_6_HOURS", aggregationPrefixes: { v4: 24 } });
  });

  it("records and pages the queries of the old release's accounts; deleting an account takes its history along", async () => {
    const now = Math.floor(Date.now() / 1000);
    const query = (n: number) => ({
      start: now - 3600,
      end: now - n,
      columns: ["time_received", "bytes"],
      filters: [{ dimension: "EXPORTER", values: ["fra1-r1"] }],
      expression: "proto udp",
      aggregation: { v4: 24, v6: null },
      includeCopies: false,
      sort: null,
    });
    for (const [userId, n] of [
      [901, 1],
      [901, 2],
      [902, 3],
    ])
      await recordRnaQuery(services, { id: userId }, { query: query(n), total: { count: n * 10, exact: true }, durationMs: n });
    const page = await rnaHistoryPage(services, { id: 901 }, 1);
    expect(page.entries.map((e) => [e.query?.end, e.rowCount, e.durationMs])).toEqual([
      [now - 2, 20, 2],
      [now - 1, 10, 1],
    ]);
    expect(page.entries[0].rerunUrl).toContain("filter=EXPORTER%3Afra1-r1");

    await services.pg.db.delete(users).where(eq(users.id, 902));
    expect(await services.pg.db.select().from(rnaQueryHistory).where(eq(rnaQueryHistory.userId, 902))).toEqual([]);
    expect((await rnaHistoryPage(services, { id: 901 }, 1)).count).toBe(2);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
