/**
 * PostgreSQL migration "bill_snapshots" (found by its tag suffix, not its number) upgrades a data
 * directory of the previous release: that release's schema and rows (an account, a router, its
 * interfaces and a contract billing them) written here, the store closed, the services started on the
 * same directory as the app does; every row is kept, the closed-month tables come empty, the old
 * contract's bill of a month is frozen and read back, and a second start changes nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readClosedMonth, writeClosedMonth } from "~/features/revenues/closing.server";
import { listContracts } from "~/features/revenues/contracts.server";
import { billsOfMonth } from "~/features/revenues/revenue-cost.server";
import type { AppConfig } from "~/server/env.server";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { startServices, type Services } from "~/server/services.server";
import { expectRowsKept, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const TAG_SUFFIX = "_bill_snapshots";
const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
const tag = journal.entries.find((e) => e.tag.endsWith(TAG_SUFFIX))?.tag;
const MARKER = 'CREATE TABLE "bill_months"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
    (912, 'finance@example.org', 'Fin', 'Ance', 'scrypt$kept', true);
  INSERT INTO routers (id, name, city, country, loopback) VALUES (72, 'ams1', 'Amsterdam', 'Netherlands', '192.0.2.2');
  INSERT INTO interfaces (id, router_id, name, snmp_index, capacity_bps, kind, peering_type, neighbor_asn) VALUES
    (711, 72, 'et-1', 1, 10000000000, 'external', 'Transit', 174);
  INSERT INTO contracts (id, name, direction, partner_asn, method, commit_mbps, commit_price_eur, cross_connect_fee_eur, valid_from) VALUES
    (31, 'Cogent', 'cost', 174, 'Max 95th', 1000, 0.25, 200, '2024-01-01');
  INSERT INTO contract_interfaces (contract_id, interface_id) VALUES (31, 711);
`;

describe("upgrade of a data directory of the previous release (bill snapshots)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-bills-"));
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
    expect(Object.keys(before)).not.toContain("bill_snapshots");
    expect(before.contracts).toHaveLength(1);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("is the migration tagged bill_snapshots", () => {
    expect(tag).toBeDefined();
    expect(readFileSync(path.join(PG_MIGRATIONS_DIR, `${tag}.sql`), "utf8")).toContain(MARKER);
  });

  it("keeps every row and adds the closed-month tables (and later releases' tables), empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toEqual(expect.arrayContaining(["bill_months", "bill_snapshots"]));
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
  });

  it("freezes the old contract's bill of a month and reads it back", async () => {
    const contracts = await listContracts(services.pg.db);
    const bills = await billsOfMonth(services, contracts, 2025, 3);
    // No samples: the commit and the cross-connect, 1000 × 0.25 + 200.
    expect(bills.map((b) => [b.contract.name, b.charges.totalEur, b.traffic.samples])).toEqual([["Cogent", 450, 0]]);
    expect(await writeClosedMonth(services.pg.db, 2025, 3, bills, new Map(contracts.map((c) => [c.id, c])))).toBe(true);
    const closed = (await readClosedMonth(services.pg.db, 2025, 3))!;
    expect(closed.bills).toEqual(bills);
    expect(closed.terms.get(31)).toMatchObject({ name: "Cogent", commitPriceEur: 0.25, ports: [{ router: "ams1", interface: "et-1" }] });
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
