/**
 * PostgreSQL migration "contracts" (found by its tag suffix, not its number) upgrades a data
 * directory of the previous release: the test writes that release's schema and rows (an account, a
 * router and its external interfaces), closes the store, starts the services on the same directory
 * as the app does, reads every row back, bills the old interfaces under a new contract, has an
 * interface's removal leave the billing group, and starts again to show that nothing changes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces } from "~db/postgres/schema";
import { createContract, getContract } from "~/features/revenues/contracts.server";
import type { AppConfig } from "~/server/env.server";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom, expectRowsKept } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const TAG_SUFFIX = "_contracts";
const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
const tag = journal.entries.find((e) => e.tag.endsWith(TAG_SUFFIX))?.tag;
const MARKER = 'CREATE TABLE "contracts"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
    (911, 'finance@example.org', 'Fin', 'Ance', 'scrypt$kept', true);
  INSERT INTO routers (id, name, city, country, loopback) VALUES (71, 'fra1', 'Frankfurt', 'Germany', '192.0.2.1');
  INSERT INTO interfaces (id, router_id, name, snmp_index, capacity_bps, kind, peering_type, neighbor_asn) VALUES
    (701, 71, 'et-1', 1, 10000000000, 'external', 'Transit', 3356),
    (702, 71, 'et-2', 2, 10000000000, 'external', 'Transit', 3356);
`;

describe("upgrade of a data directory of the previous release (contracts)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-contracts-"));
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
    expect(Object.keys(before)).not.toContain("contracts");
    expect(before.interfaces).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("is the migration tagged contracts", () => {
    expect(tag).toBeDefined();
    expect(readFileSync(path.join(PG_MIGRATIONS_DIR, `${tag}.sql`), "utf8")).toContain(MARKER);
  });

  it("keeps every row and adds the contract tables (and later releases' tables), empty; MANAGE_CONTRACTS is a permission", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toEqual(expect.arrayContaining(["contract_interfaces", "contracts"]));
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
    expect(await rawPgOf(services).rows("SELECT code FROM permissions WHERE code = 'MANAGE_CONTRACTS'")).toEqual([
      { code: "MANAGE_CONTRACTS" },
    ]);
  });

  it("bills the old release's interfaces under a new contract; removing an interface leaves the billing group", async () => {
    const user = {
      id: 911,
      email: "finance@example.org",
      permissions: ["MANAGE_CONTRACTS"],
      isDelegated: false,
      isStaff: true,
      isSuperuser: false,
    };
    const c = await createContract(
      services.pg.db,
      {
        name: "Transit",
        direction: "cost",
        method: "Max 95th",
        commitMbps: 1000,
        commitPriceEur: 0.4,
        validFrom: "2026-01-01",
        interfaceIds: [701, 702],
      },
      { user },
    );
    expect(c.ports.map((p) => [p.router, p.interface, p.capacityBps, p.neighborAsn])).toEqual([
      ["fra1", "et-1", 10e9, 3356],
      ["fra1", "et-2", 10e9, 3356],
    ]);
    await services.pg.db.delete(interfaces).where(eq(interfaces.id, 702));
    expect((await getContract(services.pg.db, c.id))!.ports.map((p) => p.interface)).toEqual(["et-1"]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
