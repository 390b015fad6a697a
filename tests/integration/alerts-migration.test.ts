/**
 * PostgreSQL migration "alerts" (found by its tag suffix, not its number) upgrades a data directory
 * of the previous release: the test writes that release's schema and rows (an account), starts the
 * services on the same directory as the app does, reads every row back, finds the alert tables
 * empty and the two alert permissions in the catalogue, gives the old account a rule (its state and
 * events go with it when the account is deleted), and starts again to show that nothing changes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertEvents, alertRules, alertState, users } from "~db/postgres/schema";
import type { AppConfig } from "~/server/env.server";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { startServices, type Services } from "~/server/services.server";
import { expectRowsKept, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const TAG_SUFFIX = "_alerts";
const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
const tag = journal.entries.find((e) => e.tag.endsWith(TAG_SUFFIX))?.tag;
const MARKER = 'CREATE TABLE "alert_rules"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES
    (912, 'noc@example.org', 'Noc', 'Engineer', 'scrypt$kept');
`;

describe("upgrade of a data directory of the previous release (alerts)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-alerts-"));
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
    expect(Object.keys(before)).not.toContain("alert_rules");
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("is the migration tagged alerts", () => {
    expect(tag).toBeDefined();
    expect(readFileSync(path.join(PG_MIGRATIONS_DIR, `${tag}.sql`), "utf8")).toContain(MARKER);
  });

  it("keeps every row and adds the alert tables (and later releases' tables), empty; the alert permissions exist", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toEqual(expect.arrayContaining(["alert_events", "alert_rules", "alert_state"]));
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
    expect(
      await rawPgOf(services).rows("SELECT code FROM permissions WHERE code IN ('VIEW_ALERTS', 'MANAGE_ALERTS') ORDER BY code"),
    ).toEqual([{ code: "MANAGE_ALERTS" }, { code: "VIEW_ALERTS" }]);
  });

  it("gives the old release's account a rule with a state and an event; deleting the account removes all three", async () => {
    const db = services.pg.db;
    const [rule] = await db
      .insert(alertRules)
      .values({
        ownerId: 912,
        name: "Transit above 1 Gbit/s",
        view: { dimension: "AS_SRC_INGRESS", filter: [], ipVersion: "all", value: null },
        metric: "bps",
        conditionKind: "above",
        threshold: 1e9,
        recipients: { userIds: [912], groupIds: [], emails: [], webhook: null },
      })
      .returning();
    await db.insert(alertState).values({ ruleId: rule.id, status: "Triggered", lastBucket: 1_700_000_000, crossingValue: 2e9 });
    await db.insert(alertEvents).values({
      ruleId: rule.id,
      fromStatus: "OK",
      toStatus: "Triggered",
      bucketStart: 1_700_000_000,
      at: 1_700_000_300,
      value: 2e9,
      limit: 1e9,
      notified: true,
    });
    // The once-per-crossing index: the same transition of the same bucket is one row.
    await expect(
      db.insert(alertEvents).values({
        ruleId: rule.id,
        fromStatus: "OK",
        toStatus: "Triggered",
        bucketStart: 1_700_000_000,
        at: 1_700_000_300,
        value: 2e9,
        limit: 1e9,
        notified: true,
      }),
    ).rejects.toThrow();
    expect(
      (await db.select().from(alertRules).where(eq(alertRules.ownerId, 912))).map((r) => [r.severity, r.enabled, r.hysteresis]),
    ).toEqual([["warning", true, 0]]);
    await db.delete(users).where(eq(users.id, 912));
    expect(await db.select().from(alertState)).toEqual([]);
    expect(await db.select().from(alertEvents)).toEqual([]);
    expect(await db.select().from(alertRules)).toEqual([]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
