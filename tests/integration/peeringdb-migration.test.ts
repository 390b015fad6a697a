/**
 * The PostgreSQL migration that adds the PeeringDB tables (tag peeringdb) upgrades a data
 * directory of the previous release: the test writes that release's schema and rows (accounts,
 * an audit entry, VRPs), closes the store, starts the services on the same directory as the app
 * does, reads every row back, imports PeeringDB data into the new tables, and starts again to show
 * that nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import { peeringDbNetwork } from "~/features/routing/peeringdb/lookup.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom, expectRowsKept } from "../helpers/migrations";
import { chunksOf, fixtureDump } from "../helpers/peeringdb-fixture";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "peeringdb_import"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES
    (901, 'coordinator@example.org', 'Pea', 'Ring', 'scrypt$kept');
  INSERT INTO audit_log (actor_email, action, target_type, target_id, target_label)
    VALUES ('coordinator@example.org', 'rpki_file.import', 'rpki_source', 'file', 'ROA file');
  INSERT INTO rpki_sources (source, generation, vrp_count, file_name, imported_by) VALUES ('file', 3, 1, 'vrps.json', 'command line');
  INSERT INTO rpki_vrps (source, prefix, max_length, asn, trust_anchor) VALUES ('file', '192.0.2.0/24', 24, 64500, 'ripe');
`;

describe("upgrade of a data directory of the previous release (PeeringDB)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-peeringdb-"));
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
    expect(Object.keys(before)).not.toContain("peeringdb_objects");
    expect(before.rpki_vrps).toHaveLength(1);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the PeeringDB tables (and later releases' tables), empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toEqual(expect.arrayContaining(["peeringdb_import", "peeringdb_objects"]));
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
  });

  it("imports PeeringDB data into the upgraded store", async () => {
    await importPeeringDb(services, { sources: [{ name: "peeringdb.json", chunks: chunksOf(fixtureDump(), 4096) }], actor: null });
    expect((await peeringDbNetwork(services, 64500))?.name).toBe("Example Transit");
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
