/**
 * PostgreSQL migration tour_status upgrades a data directory of the previous release: the test writes that release's
 * schema and rows (accounts and their settings), closes the store, starts the services on the same
 * directory as the app does, reads every row back, records tour statuses of an account the old release created, has
 * the account's deletion take them along, and starts again to show that nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tourStatus, users } from "~db/postgres/schema";
import { recordTourStatus, tourStates } from "~/features/help/tour-status.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { expectRowsKept, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "tour_status"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES
    (911, 'operator@example.org', 'Op', 'Erator', 'scrypt$kept'),
    (912, 'leaver@example.org', 'Lea', 'Ver', 'scrypt$kept');
  INSERT INTO user_settings (user_id, timezone) VALUES (911, 'Europe/Vienna');
`;

describe("upgrade of a data directory of the previous release (tour status)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-tour-status-"));
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
    expect(Object.keys(before)).not.toContain("tour_status");
    expect(before.users).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the tour status table (and later releases' tables), empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toContain("tour_status");
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
  });

  it("records the tours of the old release's accounts; deleting an account takes its statuses along", async () => {
    const viewer = (id: number, permissions: string[]) => ({ id, permissions, isStaff: false, isSuperuser: false, isDelegated: false });
    const operator = viewer(911, ["API_FLOWS_4D", "CONTROL_PLANE"]);
    await recordTourStatus(services, operator, "control-plane", { status: "Started" });
    await recordTourStatus(services, operator, "control-plane", { status: "Started", step: 3 });
    await recordTourStatus(services, operator, "control-plane", { status: "Finished" });
    await recordTourStatus(services, operator, "analytics-chapter-1", { status: "Started", step: 2 });
    await recordTourStatus(services, viewer(912, ["API_FLOWS_4D"]), "analytics-chapter-1", { status: "Started" });
    expect((await tourStates(services, 911)).map((s) => [s.tourId, s.status, s.step])).toEqual([
      ["analytics-chapter-1", "Started", 2],
      ["control-plane", "Finished", 3],
    ]);
    await services.pg.db.delete(users).where(eq(users.id, 912));
    expect(await services.pg.db.select().from(tourStatus).where(eq(tourStatus.userId, 912))).toEqual([]);
    expect(await tourStates(services, 911)).toHaveLength(2);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
