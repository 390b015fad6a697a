/**
 * PostgreSQL migration 0012 (rpki_vrps, rpki_sources) upgrades a data directory of the previous
 * release: the test writes that release's schema and rows, closes the store, starts the services on
 * the same directory as the app does, reads every row back, uses the new tables (and their checks),
 * and starts again to show that nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpkiSources, rpkiVrps } from "~db/postgres/schema";
import { importRoaFile } from "~/features/routing/rpki/roa-import.server";
import { currentRoaIndex } from "~/features/routing/rpki/vrp-store.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const PREVIOUS_ROWS = `
  INSERT INTO routers (id, name, city, country, loopback, vendor, role) VALUES
    (1, 'fra1-r1', 'Frankfurt', 'Germany', '198.51.100.1', 'juniper', 'edge');
  INSERT INTO vantage_points (key, city, country, router, ip, is_public) VALUES
    ('fra1', 'Frankfurt', 'Germany', 'fra1-r1', '198.51.100.1', true);
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
    (900, 'noc@example.org', 'Nora', 'Noc', 'scrypt$kept', true);
  INSERT INTO system_state (key, value) VALUES ('demo', '{"loaded": false}');
`;

describe("upgrade of a data directory of the previous release (RPKI tables)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-rpki-"));
  const previousPg = pgMigrationsBefore('CREATE TABLE "rpki_sources"');
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
    expect(Object.keys(before)).not.toContain("rpki_vrps");
    expect(before.vantage_points).toHaveLength(1);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the two tables, empty: the Looking Glass has no ROA data", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    for (const table of Object.keys(before)) {
      // The reference rows written at every start may add rows (a new permission or flag); none goes away.
      for (const row of before[table]) expect([table, after[table]]).toEqual([table, expect.arrayContaining([row])]);
    }
    // This release's two tables, and those of later releases (created empty by their own migrations).
    const added = pgTablesCreatedFrom('CREATE TABLE "rpki_sources"');
    expect(added).toEqual(expect.arrayContaining(["rpki_sources", "rpki_vrps"]));
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    expect([after.rpki_sources, after.rpki_vrps]).toEqual([[], []]);
    expect(await currentRoaIndex(services)).toBeNull();
  });

  it("takes VRPs, and its checks refuse what no VRP can be", async () => {
    const summary = await importRoaFile(services, {
      bytes: new TextEncoder().encode('{"roas":[{"asn":64500,"prefix":"192.0.2.0/24","maxLength":24,"ta":"ripe"}]}'),
      fileName: "one.json",
      actor: null,
    });
    expect(summary.vrps).toBe(1);
    expect((await currentRoaIndex(services))?.validatePrefix("192.0.2.0/24", 64500)).toBe("valid");
    const refused = async (values: Partial<typeof rpkiVrps.$inferInsert>) => {
      try {
        await services.pg.db.insert(rpkiVrps).values({ source: "file", prefix: "198.51.100.0/24", maxLength: 24, asn: 1, ...values });
        return false;
      } catch {
        return true;
      }
    };
    expect(await refused({ maxLength: 23 })).toBe(true);
    expect(await refused({ maxLength: 33 })).toBe(true);
    expect(await refused({ prefix: "2001:db8::/32", maxLength: 129 })).toBe(true);
    expect(await refused({ asn: 4294967296 })).toBe(true);
    expect(await refused({ prefix: "198.51.100.1/24" })).toBe(true);
    expect(await refused({ source: "bgp" as "file" })).toBe(true);
    expect(await refused({ prefix: "192.0.2.0/24", asn: 64500, trustAnchor: "ripe" })).toBe(true); // the same VRP twice
    expect(await refused({})).toBe(false);
    expect(await services.pg.db.select({ source: rpkiSources.source, vrpCount: rpkiSources.vrpCount }).from(rpkiSources)).toEqual([
      { source: "file", vrpCount: 1 },
    ]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
