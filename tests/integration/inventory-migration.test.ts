/**
 * The migration that added the inventory's settings (exporters, SNMP, SSH, VRF, the unique ifIndex
 * per router) keeps the routers, interfaces and vantage points of an existing installation, and
 * what it keeps exports to a file the import takes back unchanged.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import * as schema from "~db/postgres/schema";
import { exportInventory, importInventory } from "~/features/inventory/file.server";
import { listInventoryVantagePoints, listRouters } from "~/features/inventory/inventory.server";
import { parseConfig } from "~/server/env.server";
import { PG_MIGRATIONS_DIR, type Db } from "~/server/postgres.server";
import { pgMigrationsBefore } from "../helpers/migrations";

describe("migration of the inventory", () => {
  it("keeps routers, interfaces with their core links, and vantage points", async () => {
    const previous = pgMigrationsBefore('CREATE TABLE "router_exporters"');
    const client = new PGlite();
    try {
      await migrate(drizzle(client), { migrationsFolder: previous });
      // Rows as the demo loader of the previous release wrote them.
      await client.exec(`
        INSERT INTO routers (id, name, city, country, loopback, vendor, role) VALUES
          (1, 'fra1-r1', 'Frankfurt', 'Germany', '198.51.100.1', 'juniper', 'edge'),
          (2, 'ber1-r1', 'Berlin', 'Germany', '198.51.100.2', 'cisco', 'edge');
        INSERT INTO interfaces (id, router_id, name, snmp_index, description, capacity_bps, kind, peering_type, connection, neighbor_asn) VALUES
          (10, 1, 'et-0/0/0', 501, 'to ber1-r1', 100000000000, 'core', NULL, NULL, NULL),
          (11, 1, 'et-0/0/1', 502, 'Transit AS3356', 40000000000, 'external', 'Transit', 'Transit', 3356),
          (20, 2, 'HundredGigE0/0/0/0', 501, 'to fra1-r1', 100000000000, 'core', NULL, NULL, NULL),
          (21, 2, 'Bundle-Ether1', 502, 'subscribers', 20000000000, 'access', NULL, NULL, NULL);
        UPDATE interfaces SET remote_interface_id = 20 WHERE id = 10;
        UPDATE interfaces SET remote_interface_id = 10 WHERE id = 20;
        INSERT INTO vantage_points (key, city, country, router, legacy_description, description, ip, is_public) VALUES
          ('fra1', 'Frankfurt', 'Germany', 'fra1-r1', 'FRA1-R1 Frankfurt', 'Frankfurt, Germany', '198.51.100.1', true),
          ('rrc00', 'Amsterdam', 'Netherlands', 'rrc00', '', '', '193.0.0.56', false);
      `);

      const db = drizzle(client, { schema });
      await migrate(db, { migrationsFolder: PG_MIGRATIONS_DIR });
      const stores = {
        pg: { db: db as unknown as Db, kind: "pglite" as const, close: () => client.close() },
        config: parseConfig({ DATA_DIR: tmpdir() }),
      };
      const routers = await listRouters(stores);
      expect(routers.map((r) => [r.name, r.city, r.vendor, r.loopback, r.exporters, r.snmp, r.ssh])).toEqual([
        ["ber1-r1", "Berlin", "cisco", "198.51.100.2", [], null, null],
        ["fra1-r1", "Frankfurt", "juniper", "198.51.100.1", [], null, null],
      ]);
      expect(routers[1].interfaces).toEqual([
        {
          id: 10,
          name: "et-0/0/0",
          ifindex: 501,
          description: "to ber1-r1",
          capacity: 100_000_000_000,
          kind: "core",
          peering: null,
          connection: null,
          neighbour_as: null,
          vrf: null,
          remote: { router: "ber1-r1", interface: "HundredGigE0/0/0/0" },
        },
        {
          id: 11,
          name: "et-0/0/1",
          ifindex: 502,
          description: "Transit AS3356",
          capacity: 40_000_000_000,
          kind: "external",
          peering: "Transit",
          connection: "Transit",
          neighbour_as: 3356,
          vrf: null,
          remote: null,
        },
      ]);
      expect((await listInventoryVantagePoints(stores)).map((v) => [v.key, v.router, v.ip, v.public, v.legacy_description])).toEqual([
        ["fra1", "fra1-r1", "198.51.100.1", true, "FRA1-R1 Frankfurt"],
        ["rrc00", "rrc00", "193.0.0.56", false, ""],
      ]);

      const exported = await exportInventory(stores);
      const report = await importInventory(stores, exported);
      expect([report.routers.unchanged, report.interfaces.unchanged, report.vantagePoints.unchanged]).toEqual([2, 4, 2]);
      expect(await exportInventory(stores)).toBe(exported);
    } finally {
      await client.close();
      rmSync(previous, { recursive: true, force: true });
    }
  }, 120_000);
});
