/**
 * The SNMP poller's schema changes upgrade a data directory of the previous release on start:
 * ClickHouse 0005 gives interface_util_5m a source (the old rows are the demo's) and an
 * interpolated flag, with the source in the sorting key so an SNMP row and a demo or flows row of
 * the same interval are both kept; PostgreSQL 0009 adds snmp_poll_status. The test writes that
 * release's schema and rows, closes the stores, starts the services on the same directory as the
 * app does, reads everything back, and starts again to show that nothing changes.
 */
import { z } from "zod";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routers, snmpPollStatus } from "~db/postgres/schema";
import { interfaceLoadQuery, interfaceLoadRow } from "~/features/flows/analysis-sql";
import { anyRow } from "../helpers/stores";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chInsert, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { CLICKHOUSE_MIGRATIONS_DIR, DEFAULT_LAYOUT, migrateClickhouse, renderMigration } from "~/server/clickhouse-migrations.server";
import { parseConfig, type AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { clickhouseMigrationsUpTo, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf } from "../helpers/previous-postgres";

// Recent and on the 5-minute grid: the table's TTL would remove rows of a fixed past date.
const T0 = demoTestNow() - (demoTestNow() % 300);
const OLD_COLUMNS = ["time", "router", "interface", "kind", "neighbor_asn", "in_bytes", "out_bytes", "capacity_bps"];

const oldRow = (offset: number, iface: string, inBytes: number, outBytes: number) => ({
  time: T0 + offset,
  router: "fra1-r1",
  interface: iface,
  kind: "external",
  neighbor_asn: 3356,
  in_bytes: inBytes,
  out_bytes: outBytes,
  capacity_bps: 40e9,
});
const OLD_UTIL = [oldRow(0, "et-0/0/1", 9, 4), oldRow(300, "et-0/0/1", 11, 5), oldRow(0, "ae0", 1_000, 2_000)];

async function utilRows(ch: ClickhouseHandle, columns: readonly string[]): Promise<Record<string, unknown>[]> {
  const list = columns.map((c) => `\`${c}\``).join(", ");
  return chQuery(ch, { name: "test.util", sql: `SELECT ${list} FROM interface_util_5m FINAL ORDER BY ${list}`, schema: anyRow });
}

async function tableInfo(ch: ClickhouseHandle): Promise<{ sorting_key: string; columns: string[] }> {
  const [row] = await chQuery(ch, {
    name: "test.sortingKey",
    sql: "SELECT sorting_key FROM system.tables WHERE database = currentDatabase() AND name = 'interface_util_5m'",
    schema: z.object({ sorting_key: z.string() }),
  });
  const columns = await chQuery(ch, {
    name: "test.columns",
    sql: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'interface_util_5m' ORDER BY position",
    schema: z.object({ name: z.string() }),
  });
  return { sorting_key: row.sorting_key, columns: columns.map((c) => c.name) };
}

const PREVIOUS_PG_ROWS = `
  INSERT INTO routers (id, name, city, country, loopback, vendor, role, snmp_version, snmp_community_enc) VALUES
    (1, 'fra1-r1', 'Frankfurt', 'Germany', '198.51.100.1', 'juniper', 'edge', '2c', 'v1:abc'),
    (2, 'ber1-r1', 'Berlin', 'Germany', '198.51.100.2', 'cisco', 'edge', NULL, NULL);
  INSERT INTO interfaces (id, router_id, name, snmp_index, description, capacity_bps, kind) VALUES
    (11, 1, 'et-0/0/1', 502, 'Transit AS3356', 40000000000, 'external');
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
    (900, 'noc@example.org', 'Nora', 'Noc', 'scrypt$kept', true);
`;

describe("upgrade of a data directory of the previous release (SNMP poller schema)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-snmp-"));
  const previousPg = pgMigrationsBefore('CREATE TABLE "snmp_poll_status"');
  const previousCh = clickhouseMigrationsUpTo(4);
  let databaseName: string | null = null;
  let config: AppConfig;
  let before: { util: Record<string, unknown>[]; pg: Record<string, string[]>; sortingKey: string };
  let services: Services;

  beforeAll(async () => {
    const serverUrl = process.env.DATABASE_URL;
    let databaseUrl: string | undefined;
    if (serverUrl) {
      databaseName = `flowlens_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${databaseName}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${databaseName}`;
      databaseUrl = url.toString();
    }
    config = parseConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
      DEMO_DATA: "off",
    });
    const pg = await openPreviousPostgres(config, previousPg);
    try {
      await pg.exec(PREVIOUS_PG_ROWS);
      const pgRows = await pgSnapshot(pg);
      expect(Object.keys(pgRows)).not.toContain("snmp_poll_status");
      const ch = openQueryDoor(await openClickhouse(config), queryDoorSettings(config), {
        identify: async () => "test",
        databases: async () => NO_OVERRIDE,
      });
      try {
        expect(await migrateClickhouse(ch, DEFAULT_LAYOUT, previousCh)).toEqual([
          "0001_flows",
          "0002_interface_util",
          "0003_rib",
          "0004_collector_raw",
        ]);
        await chInsert(ch, { name: "test.fixture", table: "interface_util_5m", values: OLD_UTIL });
        const info = await tableInfo(ch);
        expect(info.columns).toEqual([...OLD_COLUMNS, "written_at"]);
        before = { util: await utilRows(ch, OLD_COLUMNS), pg: pgRows, sortingKey: info.sorting_key };
      } finally {
        await ch.close();
      }
    } finally {
      await pg.close();
    }
    expect(before.util).toHaveLength(3);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    if (process.env.DATABASE_URL && databaseName) {
      const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    for (const dir of [dataDir, previousPg, previousCh]) rmSync(dir, { recursive: true, force: true });
  });

  it("records ClickHouse migration 5 once and adds source and interpolated, the source to the sorting key", async () => {
    const applied = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT version, name FROM schema_migrations ORDER BY version",
      schema: z.object({ version: z.number(), name: z.string() }),
    });
    // Later releases' migrations follow (0007: tests/integration/flow-details-migration.test.ts); each is recorded once.
    expect(applied.slice(0, 6).map((r) => [Number(r.version), r.name])).toEqual([
      [1, "0001_flows"],
      [2, "0002_interface_util"],
      [3, "0003_rib"],
      [4, "0004_collector_raw"],
      [5, "0005_interface_util_source"],
      [6, "0006_rib_views"],
    ]);
    expect(new Set(applied.map((r) => Number(r.version))).size).toBe(applied.length);
    expect(before.sortingKey).toBe("router, interface, time");
    expect(await tableInfo(services.ch)).toEqual({
      sorting_key: "router, interface, time, source",
      columns: [...OLD_COLUMNS, "written_at", "source", "interpolated"],
    });
  });

  it("keeps every row of interface_util_5m, as the demo's and measured", async () => {
    expect(await utilRows(services.ch, OLD_COLUMNS)).toEqual(before.util);
    const rows = await chQuery(services.ch, {
      name: "test.sources",
      sql: "SELECT interface, toUInt32(time) AS t, source, interpolated FROM interface_util_5m FINAL ORDER BY interface, t",
      schema: z.object({ interface: z.string(), t: z.number(), source: z.string(), interpolated: z.number() }),
    });
    expect(rows.map((r) => [r.interface, Number(r.t) - T0, r.source, Number(r.interpolated)])).toEqual([
      ["ae0", 0, "demo", 0],
      ["et-0/0/1", 0, "demo", 0],
      ["et-0/0/1", 300, "demo", 0],
    ]);
  });

  it("keeps an SNMP row beside the demo's row of the same interval, and replaces a rewritten SNMP row", async () => {
    const snmpRow = (inBytes: number, interpolated: number) => ({ ...oldRow(0, "et-0/0/1", inBytes, 1), source: "snmp", interpolated });
    await chInsert(services.ch, { name: "test.snmp", table: "interface_util_5m", values: [snmpRow(70, 1)] });
    await chInsert(services.ch, { name: "test.snmp", table: "interface_util_5m", values: [snmpRow(77, 0)] });
    const rows = await chQuery(services.ch, {
      name: "test.both",
      sql: `SELECT source, in_bytes, interpolated FROM interface_util_5m FINAL
            WHERE interface = 'et-0/0/1' AND time = toDateTime({t:UInt32}) ORDER BY source`,
      params: { t: T0 },
      schema: z.object({ source: z.string(), in_bytes: z.number(), interpolated: z.number() }),
    });
    expect(rows.map((r) => [r.source, Number(r.in_bytes), Number(r.interpolated)])).toEqual([
      ["demo", 9, 0],
      ["snmp", 77, 0],
    ]);
    // What a reader does: one row per interval, SNMP first.
    const [picked] = await chQuery(services.ch, {
      name: "test.pick",
      sql: `SELECT argMax(in_bytes, multiIf(source = 'snmp', 3, source = 'flows', 2, 1)) AS in_bytes,
                   argMax(source, multiIf(source = 'snmp', 3, source = 'flows', 2, 1)) AS picked
            FROM interface_util_5m FINAL WHERE interface = 'et-0/0/1' AND time = toDateTime({t:UInt32})`,
      params: { t: T0 },
      schema: z.object({ in_bytes: z.number(), picked: z.string() }),
    });
    expect([Number(picked.in_bytes), picked.picked]).toEqual([77, "snmp"]);
    // The Flow Explorer's interface load reads the same way: SNMP's 77 bytes, not 77 + 9.
    const [load] = await chQuery(services.ch, {
      ...interfaceLoadQuery(["fra1-r1|et-0/0/1"], { start: T0, end: T0 + 300 }),
      schema: interfaceLoadRow,
    });
    expect([load.key, load.in_bps, load.out_bps]).toEqual(["fra1-r1|et-0/0/1", (77 * 8) / 300, (1 * 8) / 300]);
  });

  it("keeps every PostgreSQL row and adds an empty snmp_poll_status that takes rows and goes with its router", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    for (const table of ["routers", "interfaces", "users"]) expect([table, after[table]]).toEqual([table, before.pg[table]]);
    // snmp_poll_status and the tables of later releases start empty.
    const added = pgTablesCreatedFrom('CREATE TABLE "snmp_poll_status"');
    expect(added).toContain("snmp_poll_status");
    expect(Object.keys(after).filter((t) => !(t in before.pg))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);

    const db = services.pg.db;
    await db.insert(snmpPollStatus).values({
      routerId: 1,
      lastPollAt: new Date(T0 * 1000),
      lastErrorAt: new Date(T0 * 1000),
      lastErrorKind: "timeout",
      lastError: "no answer",
      failures: 2,
      failureTold: true,
      interfacesMissing: ["et-0/0/9"],
      capacityChanges: [{ interface: "et-0/0/1", inventory_bps: 40e9, device_bps: 100e9 }],
      accounts: { "11": { last: null, open: [] } },
    });
    const [row] = await db.select().from(snmpPollStatus).where(eq(snmpPollStatus.routerId, 1));
    expect(row).toMatchObject({
      lastSuccessAt: null,
      lastErrorKind: "timeout",
      failures: 2,
      failureTold: true,
      interfacesPolled: 0,
      interfacesMissing: ["et-0/0/9"],
      capacityChanges: [{ interface: "et-0/0/1", inventory_bps: 40e9, device_bps: 100e9 }],
    });
    await db.delete(routers).where(eq(routers.id, 1));
    expect(await db.select().from(snmpPollStatus)).toEqual([]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await utilRows(services.ch, [...OLD_COLUMNS, "source", "interpolated"]);
    const pgSettled = await pgSnapshot(rawPgOf(services));
    expect(await migrateClickhouse(services.ch, DEFAULT_LAYOUT)).toEqual([]);
    await services.close();
    services = await startServices(config);
    expect(await utilRows(services.ch, [...OLD_COLUMNS, "source", "interpolated"])).toEqual(settled);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(pgSettled);
  }, 120_000);
});

describe("ClickHouse migration 0005 on a cluster", () => {
  it("alters the local tables (sorting key, then the default) and the Distributed one with the columns only", () => {
    const text = readFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, "0005_interface_util_source.sql"), "utf8");
    const statements = renderMigration(text, { ...DEFAULT_LAYOUT, cluster: "flows" });
    expect(statements.map((s) => s.split("\n")[0].replace(/\s+/g, " ").trim())).toEqual([
      "ALTER TABLE interface_util_5m_local ON CLUSTER 'flows'",
      "ALTER TABLE interface_util_5m_local ON CLUSTER 'flows'",
      "ALTER TABLE interface_util_5m ON CLUSTER 'flows'",
    ]);
    expect(statements[0]).toContain("ADD COLUMN IF NOT EXISTS source LowCardinality(String),");
    expect(statements[0]).toContain("MODIFY ORDER BY (router, interface, time, source)");
    expect(statements[1]).toContain("MODIFY COLUMN source LowCardinality(String) DEFAULT 'demo'");
    // A Distributed table has no sorting key.
    expect(statements[2]).toContain("ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT 'demo'");
    expect(statements[2]).not.toContain("ORDER BY");
    for (const alter of [statements[0], statements[2]]) expect(alter).toContain("ADD COLUMN IF NOT EXISTS interpolated UInt8 DEFAULT 0");
  });
});
