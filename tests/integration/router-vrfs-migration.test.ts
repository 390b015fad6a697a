/**
 * PostgreSQL migration router_vrfs upgrades a data directory of the previous release: the test
 * writes that release's schema and an inventory (routers, exporters, interfaces with VRF names),
 * closes the store, starts the services on the same directory as the app does, reads every row
 * back, gives an old router its VRFs, has a router's deletion take its VRFs along, and starts again
 * to show that nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routerVrfs } from "~db/postgres/schema";
import { routerDocument } from "~/features/inventory/document";
import { deleteRouter, getRouter, inventoryVersion, updateRouter, vrfRouteDistinguisher } from "~/features/inventory/inventory.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom, expectRowsKept } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "router_vrfs"';

const PREVIOUS_ROWS = `
  INSERT INTO routers (id, name, city, country, loopback) VALUES
    (801, 'old-pe1', 'Paris', 'France', '198.51.100.81'),
    (802, 'old-pe2', 'Lyon', 'France', '198.51.100.82');
  INSERT INTO router_exporters (address, router_id) VALUES ('192.0.2.81', 801), ('192.0.2.82', 802);
  INSERT INTO interfaces (id, router_id, name, snmp_index, capacity_bps, kind, vrf) VALUES
    (8011, 801, 'ge-0/0/1', 1, 1000000000, 'access', 'CUST_A'),
    (8021, 802, 'ge-0/0/1', 1, 1000000000, 'access', 'CUST_B');
`;

describe("upgrade of a data directory of the previous release (router VRFs)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-router-vrfs-"));
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
    expect(Object.keys(before)).not.toContain("router_vrfs");
    expect(before.routers).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and adds the VRF table (and later releases' tables), empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toContain("router_vrfs");
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
    expect((await getRouter(services, "old-pe1"))!.vrfs).toEqual([]);
  });

  it("gives an old router its VRFs; deleting a router takes them along", async () => {
    const version = await inventoryVersion(services);
    for (const [name, vrf, rd] of [
      ["old-pe1", "CUST_A", "64500:81"],
      ["old-pe2", "CUST_B", "192.0.2.82:2"],
    ]) {
      const router = (await getRouter(services, name))!;
      await updateRouter(services, name, { ...routerDocument(router), vrfs: [{ name: vrf, rd }] });
    }
    expect(await inventoryVersion(services)).not.toBe(version);
    expect(await vrfRouteDistinguisher(services, "old-pe1", "CUST_A")).toBe("64500:81");
    expect((await getRouter(services, "old-pe1"))!.interfaces.map((i) => i.vrf)).toEqual(["CUST_A"]);
    expect(await deleteRouter(services, "old-pe2")).toBe(true);
    expect((await services.pg.db.select().from(routerVrfs)).map((v) => [v.routerId, v.name, v.routeDistinguisher])).toEqual([
      [801, "CUST_A", "64500:81"],
    ]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
