/**
 * The collector's schema changes (ClickHouse 0004: flows_raw keeps raw ifIndexes, flow protocol,
 * next hop and a counted flag, and the 5-minute view counts only counted records; PostgreSQL 0007:
 * collector_exporters and collector_listeners) upgrade a data directory of the previous release on
 * start with nothing lost. The test writes that release's schema and rows, closes the stores,
 * starts the services on the same directory as the app does, and reads everything back; a second
 * start changes nothing.
 */
import { z } from "zod";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectorExporters, collectorListeners } from "~db/postgres/schema";
import { ribSampleRow, ribSampleStatement } from "~/features/collector/export/rib-sample-sql";
import { anyRow } from "../helpers/stores";
import { listRouters } from "~/features/inventory/inventory.server";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chInsert, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { CLICKHOUSE_MIGRATIONS_DIR, DEFAULT_LAYOUT, migrateClickhouse, renderMigration } from "~/server/clickhouse-migrations.server";
import { parseConfig, type AppConfig } from "~/server/env.server";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { startServices, type Services } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { clickhouseMigrationsUpTo, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";

const NEW_RAW_COLUMNS = ["in_if_index", "out_if_index", "flow_protocol", "next_hop", "counted"];
const CH_TABLES = ["flows_raw", "tracked_as", "flows_5m", "flows_1h", "interface_util_5m", "rib_entries", "rib_current"];

// Recent (yesterday 11:10 UTC, hour-aligned below): the retention TTLs would remove rows of a fixed past date.
const T0 = demoTestNow() - (demoTestNow() % 3600);

/** A flows_raw row as the previous release wrote it (no collector columns). */
function oldFlow(offset: number, exporter: string, asSrc: number, bytes: number, sampling: number) {
  return {
    time_received: T0 + offset,
    exporter_address: "::ffff:127.0.1.1",
    exporter_name: exporter,
    sampling_rate: sampling,
    ip_version: 4,
    src_addr: "::ffff:198.18.0.1",
    dst_addr: "::ffff:203.0.113.9",
    src_prefix_len: 24,
    dst_prefix_len: 24,
    protocol: 6,
    src_port: 443,
    dst_port: 50_000 + offset,
    tcp_flags: 24,
    bytes,
    packets: 2,
    vrf_name: "default",
    ingress_router: exporter,
    in_if: "et-0/0/1",
    egress_router: "ber1-r1",
    out_if: "et-0/0/0",
    link_start_router: "",
    link_start_if: "",
    link_end_router: "",
    link_end_if: "",
    as_src: asSrc,
    as_hnd: 3356,
    as_nxt: 64500,
    as_dst: 64500,
    application: "https",
    infrastructure: "",
  };
}

const OLD_FLOWS = [
  oldFlow(10, "fra1-r1", 2906, 1_000, 1_000),
  oldFlow(290, "fra1-r1", 15169, 500, 2_000), // untracked: folded into Others by the view
  oldFlow(300, "ber1-r1", 2906, 70, 1_000),
  oldFlow(1_900, "ber1-r1", -1, 30, 100),
];

function ribRow(seconds: number, vantagePoint: string, peer: string, prefix: string, path: number[], pref: number, withdrawn = 0) {
  const [addr, len] = prefix.split("/");
  return {
    timestamp: T0 + seconds,
    vantage_point: vantagePoint,
    router_ip: "198.51.100.1",
    peer_ip: peer,
    peer_asn: path[0] ?? 0,
    route_distinguisher: "",
    prefix,
    prefix_addr: `::ffff:${addr}`,
    prefix_len: Number(len),
    afi: 1,
    safi: 1,
    is_withdrawn: withdrawn,
    as_path: path,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: pref,
    med: 0,
    bgp_next_hop: peer,
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: ["3356:100"],
    expire_at: 0,
  };
}

const OLD_RIB = [
  ribRow(0, "fra1", "192.0.2.1", "203.0.113.0/24", [3356, 64501], 100),
  ribRow(5, "fra1", "192.0.2.2", "203.0.113.0/24", [2906, 64501], 200),
  ribRow(0, "fra1", "192.0.2.1", "198.18.0.0/15", [3356, 15169], 100),
  ribRow(60, "fra1", "192.0.2.1", "198.18.0.0/15", [3356, 15169], 100, 1),
  ribRow(0, "ber1", "192.0.2.9", "203.0.113.0/24", [1299, 64501], 100),
];

/** The rows of a table: with FINAL on the summing and replacing engines, so background merges between two reads change nothing. */
async function tableRows(ch: ClickhouseHandle, table: string, columns: readonly string[]): Promise<unknown[]> {
  const [{ engine }] = await chQuery(ch, {
    name: "test.engine",
    sql: "SELECT engine FROM system.tables WHERE database = currentDatabase() AND name = {table:String}",
    params: { table },
    schema: z.object({ engine: z.string() }),
  });
  const final = engine === "MergeTree" ? "" : "FINAL";
  const list = columns.map((c) => `\`${c}\``).join(", ");
  return chQuery(ch, { name: "test.rows", sql: `SELECT ${list} FROM ${table} ${final} ORDER BY ${list}`, schema: anyRow });
}

async function columnsOf(ch: ClickhouseHandle, table: string): Promise<string[]> {
  const rows = await chQuery(ch, {
    name: "test.columns",
    sql: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {table:String} ORDER BY position",
    params: { table },
    schema: z.object({ name: z.string() }),
  });
  return rows.map((r) => r.name);
}

type ChSnapshot = Record<string, { columns: string[]; rows: unknown[] }>;

async function clickhouseSnapshot(ch: ClickhouseHandle, columns?: Record<string, string[]>): Promise<ChSnapshot> {
  const snapshot: ChSnapshot = {};
  for (const table of CH_TABLES) {
    const cols = columns?.[table] ?? (await columnsOf(ch, table));
    snapshot[table] = { columns: cols, rows: await tableRows(ch, table, cols) };
  }
  return snapshot;
}

/** Every row of every PostgreSQL table, as JSON text, table by table. */
type PgSnapshot = Record<string, string[]>;
type RawPg = {
  exec: (sqlText: string) => Promise<void>;
  rows: (sqlText: string) => Promise<Record<string, unknown>[]>;
  close: () => Promise<void>;
};

async function postgresSnapshot(pg: RawPg): Promise<PgSnapshot> {
  const tables = await pg.rows(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const snapshot: PgSnapshot = {};
  for (const { name } of tables) {
    const rows = await pg.rows(`SELECT row_to_json(t)::text AS row FROM "${String(name)}" t ORDER BY 1`);
    snapshot[String(name)] = rows.map((r) => String(r.row));
  }
  return snapshot;
}

/** The services' PostgreSQL as raw SQL, on either driver. */
function rawPgOf(services: Services): RawPg {
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  return {
    exec: async (sqlText) => void (await services.pg.db.execute(sql.raw(sqlText))),
    rows: async (sqlText) => rowsOf(await services.pg.db.execute(sql.raw(sqlText))),
    close: async () => {},
  };
}

/**
 * PostgreSQL of the previous release: the migrations before 0007 on the store the app opens —
 * PGlite in DATA_DIR/pg, or a throwaway database on the server of the run (DATABASE_URL, CI).
 */
async function openPreviousPostgres(config: AppConfig, migrationsFolder: string): Promise<RawPg> {
  if (config.DATABASE_URL) {
    const client = postgres(config.DATABASE_URL, { max: 1, onnotice: () => {} });
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(drizzle(client), { migrationsFolder });
    return {
      exec: async (sqlText) => void (await client.unsafe(sqlText)),
      rows: async (sqlText) => [...(await client.unsafe(sqlText))],
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite(path.join(config.dataDir, "pg"));
  await migrate(drizzle(client), { migrationsFolder });
  return {
    exec: async (sqlText) => void (await client.exec(sqlText)),
    rows: async (sqlText) => (await client.query<Record<string, unknown>>(sqlText)).rows,
    close: () => client.close(),
  };
}

/** Rows as the previous release's demo loader and administrators wrote them: inventory and accounts. */
const PREVIOUS_PG_ROWS = `
  INSERT INTO routers (id, name, city, country, loopback, vendor, role, snmp_version, snmp_community_enc, ssh_host, ssh_user) VALUES
    (1, 'fra1-r1', 'Frankfurt', 'Germany', '198.51.100.1', 'juniper', 'edge', '2c', 'v1:abc', '198.51.100.1', 'flowlens'),
    (2, 'ber1-r1', 'Berlin', 'Germany', '198.51.100.2', 'cisco', 'edge', NULL, NULL, NULL, NULL);
  INSERT INTO router_exporters (address, router_id) VALUES ('127.0.1.1', 1), ('192.0.2.101', 1), ('127.0.1.2', 2);
  INSERT INTO interfaces (id, router_id, name, snmp_index, description, capacity_bps, kind, peering_type, connection, neighbor_asn, vrf) VALUES
    (10, 1, 'et-0/0/0', 501, 'to ber1-r1', 100000000000, 'core', NULL, NULL, NULL, NULL),
    (11, 1, 'et-0/0/1', 502, 'Transit AS3356', 40000000000, 'external', 'Transit', 'Transit', 3356, 'internet'),
    (20, 2, 'HundredGigE0/0/0/0', 501, 'to fra1-r1', 100000000000, 'core', NULL, NULL, NULL, NULL);
  UPDATE interfaces SET remote_interface_id = 20 WHERE id = 10;
  UPDATE interfaces SET remote_interface_id = 10 WHERE id = 20;
  INSERT INTO vantage_points (key, city, country, router, legacy_description, description, ip, is_public) VALUES
    ('fra1', 'Frankfurt', 'Germany', 'fra1-r1', 'FRA1-R1 Frankfurt', 'Frankfurt, Germany', '198.51.100.1', true);
  INSERT INTO groups (id, name) VALUES (900, 'noc-upgrade');
  INSERT INTO users (id, email, first_name, last_name, password_hash, is_superuser, override_clickhouse_db) VALUES
    (900, 'admin@example.org', 'Ada', 'Admin', 'scrypt$kept', true, NULL),
    (901, 'analyst@example.org', 'Ana', 'Lyst', 'scrypt$kept-too', false, 'flows_archive');
  INSERT INTO user_groups (user_id, group_id) VALUES (901, 900);
`;

describe("upgrade of a data directory of the previous release (collector schema)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-"));
  const previousPg = pgMigrationsBefore('CREATE TABLE "collector_exporters"');
  const previousCh = clickhouseMigrationsUpTo(3);
  let databaseName: string | null = null;
  let config: AppConfig;
  let before: { ch: ChSnapshot; pg: PgSnapshot };
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
      const pgSnapshot = await postgresSnapshot(pg);
      const ch = openQueryDoor(await openClickhouse(config), queryDoorSettings(config), {
        identify: async () => "test",
        databases: async () => NO_OVERRIDE,
      });
      try {
        expect(await migrateClickhouse(ch, DEFAULT_LAYOUT, previousCh)).toEqual(["0001_flows", "0002_interface_util", "0003_rib"]);
        const rawColumns = await columnsOf(ch, "flows_raw");
        expect(rawColumns).not.toEqual(expect.arrayContaining(["counted"]));
        await chInsert(ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 2906, rank: 1, updated_at: T0 }] });
        await chInsert(ch, { name: "test.fixture", table: "flows_raw", values: OLD_FLOWS });
        await chInsert(ch, {
          name: "test.fixture",
          table: "interface_util_5m",
          values: [
            {
              time: T0,
              router: "fra1-r1",
              interface: "et-0/0/1",
              kind: "external",
              neighbor_asn: 3356,
              in_bytes: 9,
              out_bytes: 4,
              capacity_bps: 40e9,
            },
          ],
        });
        await chInsert(ch, { name: "test.fixture", table: "rib_entries", values: OLD_RIB });
        before = { ch: await clickhouseSnapshot(ch), pg: pgSnapshot };
      } finally {
        await ch.close();
      }
    } finally {
      await pg.close();
    }
    // The old view filled the aggregates: the test starts from real aggregates, not empty tables.
    expect(before.ch.flows_5m.rows.length).toBeGreaterThan(0);
    expect(before.ch.flows_1h.rows.length).toBeGreaterThan(0);
    expect(before.ch.rib_current.rows.length).toBeGreaterThan(0);

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

  it("records ClickHouse migration 4 once, after the three of the previous release", async () => {
    const applied = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT version, name FROM schema_migrations ORDER BY version",
      schema: z.object({ version: z.number(), name: z.string() }),
    });
    // Later releases' migrations follow (tests/integration/snmp-migration.test.ts checks 0005).
    expect(applied.slice(0, 4).map((r) => [Number(r.version), r.name])).toEqual([
      [1, "0001_flows"],
      [2, "0002_interface_util"],
      [3, "0003_rib"],
      [4, "0004_collector_raw"],
    ]);
    expect(applied).toHaveLength(clickhouseMigrationCount());
    // Later migrations add further columns after these (0007: tests/integration/flow-details-migration.test.ts).
    const expected = [...before.ch.flows_raw.columns, ...NEW_RAW_COLUMNS];
    expect((await columnsOf(services.ch, "flows_raw")).slice(0, expected.length)).toEqual(expected);
  });

  it("keeps every ClickHouse row: raw flows, aggregates, tracked ASes, interface load and routing tables", async () => {
    const columns = Object.fromEntries(Object.entries(before.ch).map(([table, s]) => [table, s.columns]));
    expect(await clickhouseSnapshot(services.ch, columns)).toEqual(before.ch);
  });

  it("gives the old raw flows the defaults of the new columns: counted, no ifIndexes, protocol or next hop", async () => {
    const rows = await chQuery(services.ch, {
      name: "test.newColumns",
      sql: `SELECT toUnixTimestamp(time_received) AS t, in_if_index, out_if_index, flow_protocol, toString(next_hop) AS next_hop, counted
            FROM flows_raw ORDER BY t`,
      schema: anyRow,
    });
    expect(rows).toEqual(
      OLD_FLOWS.map((f) => ({ t: f.time_received, in_if_index: 0, out_if_index: 0, flow_protocol: "", next_hop: "::", counted: 1 })),
    );
  });

  it("counts new flows with counted = 1 in both aggregates and keeps those with counted = 0 in the raw records only", async () => {
    // Two hours on, in a bucket of its own so the old rows do not mix in.
    const t = T0 + 7_200;
    const fresh = (counted: number, bytes: number) => ({
      ...oldFlow(7_200 + counted, "fra1-r1", 2906, bytes, 10),
      in_if_index: 502,
      out_if_index: 501,
      flow_protocol: "netflow9",
      next_hop: "::ffff:192.0.2.2",
      counted,
    });
    await chInsert(services.ch, { name: "test.fixture", table: "flows_raw", values: [fresh(1, 40), fresh(0, 7)] });

    const raw = await chQuery(services.ch, {
      name: "test.fresh",
      sql: `SELECT counted, bytes, in_if_index, flow_protocol, toString(next_hop) AS next_hop
            FROM flows_raw WHERE time_received >= toDateTime({t:UInt32}) ORDER BY counted`,
      params: { t },
      schema: z.object({
        counted: z.number(),
        bytes: z.number(),
        in_if_index: z.number(),
        flow_protocol: z.string(),
        next_hop: z.string(),
      }),
    });
    expect(raw.map((r) => [Number(r.counted), Number(r.bytes), Number(r.in_if_index), r.flow_protocol, r.next_hop])).toEqual([
      [0, 7, 502, "netflow9", "::ffff:192.0.2.2"],
      [1, 40, 502, "netflow9", "::ffff:192.0.2.2"],
    ]);
    for (const table of ["flows_5m", "flows_1h"]) {
      const [sums] = await chQuery(services.ch, {
        name: "test.freshAggregate",
        sql: `SELECT toUInt64(sum(bytes)) AS bytes, toUInt64(sum(flows)) AS flows FROM ${table} WHERE time >= toDateTime({t:UInt32})`,
        params: { t },
        schema: z.object({ bytes: z.number(), flows: z.number() }),
      });
      expect([table, Number(sums.bytes), Number(sums.flows)]).toEqual([table, 40 * 10, 1]);
    }
  });

  it("reads the routing table of the previous release for the flow generator", async () => {
    const routes = await chQuery(services.ch, { ...ribSampleStatement(), schema: ribSampleRow });
    expect(routes.map((r) => [r.vantage_point, r.prefix, r.as_path, r.bgp_next_hop])).toEqual([
      ["ber1", "203.0.113.0/24", [1299, 64501], "192.0.2.9"],
      ["fra1", "203.0.113.0/24", [2906, 64501], "192.0.2.2"],
    ]);
  });

  it("keeps every PostgreSQL row, inventory and accounts included, and the new collector tables start empty", async () => {
    const after = await postgresSnapshot(rawPgOf(services));
    for (const [table, rows] of Object.entries(before.pg)) expect([table, after[table]]).toEqual([table, expect.arrayContaining(rows)]);
    // Only the reference rows the start adds are new; the tables the data lives in are unchanged.
    for (const table of ["routers", "router_exporters", "interfaces", "vantage_points", "users", "user_groups"])
      expect([table, after[table]]).toEqual([table, before.pg[table]]);
    // The collector's tables and those of later releases (audit_log, snmp_poll_status, …) start empty.
    const added = pgTablesCreatedFrom('CREATE TABLE "collector_exporters"');
    expect(added).toEqual(expect.arrayContaining(["audit_log", "collector_exporters", "collector_listeners", "snmp_poll_status"]));
    expect(Object.keys(after).filter((t) => !(t in before.pg))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);

    const routers = await listRouters(services);
    expect(
      routers.map((r) => [r.name, r.exporters, r.interfaces.map((i) => [i.name, i.ifindex, i.vrf, i.remote?.interface ?? null])]),
    ).toEqual([
      ["ber1-r1", ["127.0.1.2"], [["HundredGigE0/0/0/0", 501, null, "et-0/0/0"]]],
      [
        "fra1-r1",
        ["127.0.1.1", "192.0.2.101"],
        [
          ["et-0/0/0", 501, null, "HundredGigE0/0/0/0"],
          ["et-0/0/1", 502, "internet", null],
        ],
      ],
    ]);
  });

  it("takes rows in the new collector tables", async () => {
    const db = services.pg.db;
    await db.insert(collectorExporters).values({
      address: "192.0.2.101",
      protocol: "netflow9",
      listener: "flows-netflow 0.0.0.0:2055",
      datagrams: 3,
      flows: 90,
      flowsStored: 88,
      decodeErrors: { "short record": 1 },
      drops: { "queue full": 2 },
      samplingRates: [1000],
      unknownIfIndexes: [7],
    });
    await db.insert(collectorListeners).values({ component: "flows-netflow", address: "0.0.0.0:2055", host: "upgrade-host", pid: 4242 });
    const [exporter] = await db.select().from(collectorExporters).where(eq(collectorExporters.address, "192.0.2.101"));
    expect(exporter).toMatchObject({
      protocol: "netflow9",
      datagrams: 3,
      flowsStored: 88,
      templateMisses: 0,
      decodeErrors: { "short record": 1 },
      samplingRates: [1000],
      unknownIfIndexes: [7],
      clockSkewMs: null,
      clockSkewed: false,
    });
    expect(await db.select({ pid: collectorListeners.pid }).from(collectorListeners)).toEqual([{ pid: 4242 }]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await clickhouseSnapshot(services.ch);
    const pgSettled = await postgresSnapshot(rawPgOf(services));
    expect(await migrateClickhouse(services.ch, DEFAULT_LAYOUT)).toEqual([]);
    await services.close();

    services = await startServices(config);
    expect(await clickhouseSnapshot(services.ch)).toEqual(settled);
    expect(await postgresSnapshot(rawPgOf(services))).toEqual(pgSettled);
    const [{ n }] = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT toUInt64(count()) AS n FROM schema_migrations",
      schema: z.object({ n: z.number() }),
    });
    expect(Number(n)).toBe(clickhouseMigrationCount());
    const journal = await rawPgOf(services).rows("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    expect(Number(journal[0].n)).toBe(journalLength(PG_MIGRATIONS_DIR));
  }, 120_000);
});

function clickhouseMigrationCount(): number {
  return readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter((file) => /^\d{4}_.+\.sql$/.test(file)).length;
}

function journalLength(dir: string): number {
  return (JSON.parse(readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
}

describe("ClickHouse migration 0004 on a cluster", () => {
  it("alters the local tables and the Distributed one, and replaces the view per node on the local tables", () => {
    const text = readFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, "0004_collector_raw.sql"), "utf8");
    const statements = renderMigration(text, { ...DEFAULT_LAYOUT, cluster: "flows" });
    const heads = statements.map((s) => s.split("\n")[0].replace(/\s+/g, " "));
    expect(heads).toEqual([
      "ALTER TABLE flows_raw_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_raw ON CLUSTER 'flows'",
      "DROP VIEW IF EXISTS flows_5m_mv_local ON CLUSTER 'flows'",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv_local ON CLUSTER 'flows' TO flows_5m_local AS",
    ]);
    for (const alter of statements.slice(0, 2))
      for (const column of NEW_RAW_COLUMNS) expect(alter).toContain(`ADD COLUMN IF NOT EXISTS ${column} `);
    const view = statements[3];
    expect(view).toContain("FROM flows_raw_local\nWHERE counted = 1\n");
    // The tracked set is read whole through its Distributed table: each shard holds only part of it.
    expect(view.match(/SELECT asn FROM tracked_as\)/g)).toHaveLength(4);
    // The flows tables stay local: a Distributed name would read every shard from each node.
    expect(view).not.toMatch(/\b(flows_raw|flows_5m)\b(?!_local)/);
    // No table is created, so no Distributed table either.
    expect(statements.some((s) => /Distributed|CREATE TABLE/.test(s))).toBe(false);

    const single = renderMigration(text, DEFAULT_LAYOUT);
    expect(single.map((s) => s.split("\n")[0].replace(/\s+/g, " ").trim())).toEqual([
      "ALTER TABLE flows_raw",
      "ALTER TABLE flows_raw",
      "DROP VIEW IF EXISTS flows_5m_mv",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv TO flows_5m AS",
    ]);
  });
});
