/**
 * The PostgreSQL migration api_v2_results (the second client's results) upgrades a data directory
 * of the previous release: every row kept, the table added empty, its unique key and user cascade
 * in force, and a second start changes nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiV2Results, users } from "~db/postgres/schema";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { expectRowsKept, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "api_v2_results"';
const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
    (900, 'noc@example.org', 'Nora', 'Noc', 'scrypt$kept', true);
  INSERT INTO system_state (key, value) VALUES ('demo', '{"loaded": false}');
`;

describe("upgrade of a data directory of the previous release (api_v2_results)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-apiv2-"));
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
    expect(Object.keys(before)).not.toContain("api_v2_results");
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the table, empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toContain("api_v2_results");
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    expect(after.api_v2_results).toEqual([]);
  });

  it("one row per key, removed with its user", async () => {
    const row = { key: "k", call: "flows/", userId: 900, owner: "p", expiresAt: new Date(Date.now() + 60_000) };
    await services.pg.db.insert(apiV2Results).values({ ...row, id: "a" });
    await expect(services.pg.db.insert(apiV2Results).values({ ...row, id: "b" })).rejects.toThrow();
    expect(
      await services.pg.db
        .insert(apiV2Results)
        .values({ ...row, id: "b" })
        .onConflictDoNothing()
        .returning(),
    ).toEqual([]);
    const [stored] = await services.pg.db.select().from(apiV2Results);
    expect(stored).toMatchObject({ id: "a", state: "Started", sizeBytes: 0, result: null });
    await services.pg.db.delete(users).where(eq(users.id, 900));
    expect(await services.pg.db.select().from(apiV2Results)).toEqual([]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
