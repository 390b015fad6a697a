/**
 * The live routing tables' schema changes upgrade a data directory of the previous release on
 * start with nothing lost: ClickHouse 0006 gives rib_entries and rib_current the RIB view
 * (pre-policy, post-policy, Loc-RIB), the ADD-PATH path id (both in rib_current's sorting key) and
 * extended communities, and replaces the view that copies the history into the current table;
 * PostgreSQL 0010 adds community_labels. The test writes that release's schema and MRT-imported
 * rows (an MRT stream built by the test, decoded by the importer's decoder, the rows the previous
 * importer wrote), closes the stores, starts the services on the same directory as the app does,
 * reads everything back, writes routes of one prefix and peer in other tables and paths, and starts
 * again to show that nothing changes.
 */
import { z } from "zod";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { communityLabels } from "~db/postgres/schema";
import { decodeMrt } from "~/features/routing/mrt/decoder";
import { RIB_COLUMNS, ribRecordRows, updateRows, type CompactRibRow } from "~/features/routing/mrt/rib-rows";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chInsert, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { CLICKHOUSE_MIGRATIONS_DIR, DEFAULT_LAYOUT, migrateClickhouse, renderMigration } from "~/server/clickhouse-migrations.server";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { attributes, bgp4mpUpdate, peerIndexTable, ribRecord } from "../fixtures/mrt";
import { clickhouseMigrationsUpTo, pgMigrationsBefore, pgTablesCreatedFrom } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import { anyRow, type createThrowawayDatabase } from "../helpers/stores";

const T0 = 1_790_000_000;
const NEW_COLUMNS = ["rib_view", "path_id", "ext_communities"] as const;
/** The columns the previous release's importer wrote: every one but the three new ones. */
const OLD_COLUMNS = RIB_COLUMNS.slice(0, RIB_COLUMNS.length - NEW_COLUMNS.length) as unknown as readonly [string, ...string[]];
const CURRENT_OLD_COLUMNS = OLD_COLUMNS.filter((c) => c !== "expire_at");

/** An MRT file as a route collector writes it: a RIB dump of two peers, then updates (an announcement, a withdrawal). */
function mrtStream(): Buffer {
  const session = { peerAsn: 64511, localAsn: 64500, peerIp: "198.51.100.7", localIp: "198.51.100.1" };
  return Buffer.concat([
    peerIndexTable({
      timestamp: T0,
      collectorId: "192.0.2.1",
      peers: [
        { bgpId: "192.0.2.11", ip: "198.51.100.7", asn: 64511 },
        { bgpId: "192.0.2.12", ip: "2001:db8:ffff::2", asn: 64512 },
      ],
    }),
    ribRecord({
      timestamp: T0,
      sequence: 0,
      prefix: "203.0.113.0/24",
      entries: [
        {
          peerIndex: 0,
          originatedTime: T0 - 600,
          attributes: attributes({
            origin: 0,
            asPath: [{ type: "sequence", asns: [64511, 64496] }],
            nextHop: "198.51.100.7",
            localPref: 150,
            communities: [
              [64500, 100],
              [65535, 65281],
            ],
            largeCommunities: [[64500, 1, 64511]],
          }),
        },
        {
          peerIndex: 1,
          originatedTime: T0 - 300,
          attributes: attributes({
            origin: 0,
            asPath: [{ type: "sequence", asns: [64512, 64496] }],
            nextHop: "198.51.100.8",
            med: 20,
          }),
        },
      ],
    }),
    ribRecord({
      timestamp: T0,
      sequence: 1,
      prefix: "2001:db8:100::/40",
      entries: [
        {
          peerIndex: 1,
          originatedTime: T0 - 100,
          attributes: attributes({
            origin: 2,
            asPath: [{ type: "sequence", asns: [64512, 64497] }],
            mpReach: { afi: 2, nextHop: "2001:db8:ffff::2", short: true },
          }),
        },
      ],
    }),
    bgp4mpUpdate({
      timestamp: T0 + 60,
      session,
      attributes: attributes({ origin: 0, asPath: [{ type: "sequence", asns: [64511, 64498] }], nextHop: "198.51.100.7" }),
      nlri: ["198.18.0.0/15"],
    }),
    bgp4mpUpdate({ timestamp: T0 + 120, session, withdrawn: ["198.18.0.0/15"] }),
  ]);
}

/** The rows the previous release's importer wrote for the stream: the same decoder and row builders, without the new columns. */
async function previousImportRows(vantagePoint: string): Promise<CompactRibRow[]> {
  expect(RIB_COLUMNS.slice(-NEW_COLUMNS.length)).toEqual([...NEW_COLUMNS]);
  const rows: CompactRibRow[] = [];
  let routerIp = "";
  for await (const record of decodeMrt(Readable.from([mrtStream()]))) {
    if (record.kind === "peer-index") routerIp = record.collectorId;
    if (record.kind === "rib") rows.push(...ribRecordRows(record, vantagePoint, routerIp));
    if (record.kind === "update") rows.push(...updateRows(record, vantagePoint));
  }
  return rows.map((row) => row.slice(0, OLD_COLUMNS.length));
}

/** Rows of a routing table in a stable order; rib_current read FINAL (background merges change nothing between reads). */
async function ribRows(ch: ClickhouseHandle, table: "rib_entries" | "rib_current", columns: readonly string[]) {
  const list = columns.map((c) => (c === "rib_view" ? "toString(rib_view) AS rib_view" : `\`${c}\``)).join(", ");
  const order = columns.map((c) => `\`${c}\``).join(", ");
  return chQuery(ch, {
    name: "test.ribRows",
    sql: `SELECT ${list} FROM ${table} ${table === "rib_current" ? "FINAL" : ""} ORDER BY ${order}`,
    schema: anyRow,
  });
}

async function tableInfo(ch: ClickhouseHandle, table: string): Promise<{ sortingKey: string; columns: string[] }> {
  const [row] = await chQuery(ch, {
    name: "test.sortingKey",
    sql: "SELECT sorting_key FROM system.tables WHERE database = currentDatabase() AND name = {table:String}",
    params: { table },
    schema: z.object({ sorting_key: z.string() }),
  });
  const columns = await chQuery(ch, {
    name: "test.columns",
    sql: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {table:String} ORDER BY position",
    params: { table },
    schema: z.object({ name: z.string() }),
  });
  return { sortingKey: row.sorting_key, columns: columns.map((c) => c.name) };
}

describe("upgrade of a data directory of the previous release (RIB views, ADD-PATH, extended communities; community labels)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-rib-views-"));
  const previousPg = pgMigrationsBefore('CREATE TABLE "community_labels"');
  const previousCh = clickhouseMigrationsUpTo(5);
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  let config: AppConfig;
  let before: {
    entries: Record<string, unknown>[];
    current: Record<string, unknown>[];
    entriesInfo: { sortingKey: string; columns: string[] };
    currentInfo: { sortingKey: string; columns: string[] };
    pg: Record<string, string[]>;
  };
  let services: Services;

  beforeAll(async () => {
    ({ config, database } = await upgradeTestConfig(dataDir));
    const pg = await openPreviousPostgres(config, previousPg);
    try {
      await pg.exec(`
        INSERT INTO users (id, email, first_name, last_name, password_hash, is_staff) VALUES
          (900, 'noc@example.org', 'Nora', 'Noc', 'scrypt$kept', true);
        INSERT INTO as_info (asn, name, country, category) VALUES (64496, 'Example-Net', 'DE', 'content');
        INSERT INTO vantage_points (key, city, country, router, ip) VALUES ('fra1', 'Frankfurt', 'Germany', 'fra-er1', '192.0.2.1');
      `);
      const pgRows = await pgSnapshot(pg);
      expect(Object.keys(pgRows)).not.toContain("community_labels");
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
          "0005_interface_util_source",
        ]);
        const rows = [...(await previousImportRows("fra1")), ...(await previousImportRows("ber1"))];
        await chInsert(ch, {
          name: "test.previousImport",
          table: "rib_entries",
          values: rows,
          format: "JSONCompactEachRow",
          columns: OLD_COLUMNS,
        });
        before = {
          entries: await ribRows(ch, "rib_entries", OLD_COLUMNS),
          current: await ribRows(ch, "rib_current", CURRENT_OLD_COLUMNS),
          entriesInfo: await tableInfo(ch, "rib_entries"),
          currentInfo: await tableInfo(ch, "rib_current"),
          pg: pgRows,
        };
      } finally {
        await ch.close();
      }
    } finally {
      await pg.close();
    }
    // Per vantage point: 3 RIB entries, an announcement and its withdrawal; the current table keeps the withdrawal as a tombstone.
    expect(before.entries).toHaveLength(10);
    expect(before.current).toHaveLength(8);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg, previousCh]) rmSync(dir, { recursive: true, force: true });
  });

  it("records ClickHouse migration 6 once; rib_current's sorting key ends with the RIB view and the path id", async () => {
    const applied = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT version, name FROM schema_migrations ORDER BY version",
      schema: z.object({ version: z.number(), name: z.string() }),
    });
    // Later migrations may follow; 5 and 6 are recorded once each, in order.
    expect(applied.map((r) => [Number(r.version), r.name]).filter(([v]) => v === 5 || v === 6)).toEqual([
      [5, "0005_interface_util_source"],
      [6, "0006_rib_views"],
    ]);
    expect(before.currentInfo.sortingKey).toBe("vantage_point, route_distinguisher, prefix_addr, prefix_len, peer_ip");
    const current = await tableInfo(services.ch, "rib_current");
    expect(current.sortingKey).toBe("vantage_point, route_distinguisher, prefix_addr, prefix_len, peer_ip, rib_view, path_id");
    expect(current.columns).toEqual([...before.currentInfo.columns, ...NEW_COLUMNS]);
    const entries = await tableInfo(services.ch, "rib_entries");
    // The history keeps its key: it is read by time and prefix, and never replaces rows.
    expect(entries).toEqual({ sortingKey: before.entriesInfo.sortingKey, columns: [...before.entriesInfo.columns, ...NEW_COLUMNS] });
  });

  it("keeps every MRT-imported row, read as post-policy, path 0, no extended communities", async () => {
    expect(await ribRows(services.ch, "rib_entries", OLD_COLUMNS)).toEqual(before.entries);
    expect(await ribRows(services.ch, "rib_current", CURRENT_OLD_COLUMNS)).toEqual(before.current);
    for (const table of ["rib_entries", "rib_current"] as const) {
      const added = await ribRows(services.ch, table, NEW_COLUMNS);
      expect(added.length, table).toBe(table === "rib_entries" ? 10 : 8);
      for (const row of added) expect(row).toEqual({ rib_view: "post-policy", path_id: 0, ext_communities: [] });
    }
    // What the MRT file said is still there: the standard and large communities of the first peer's route.
    const [route] = await chQuery(services.ch, {
      name: "test.communities",
      sql: "SELECT communities FROM rib_current FINAL WHERE vantage_point = 'fra1' AND prefix = '203.0.113.0/24' AND peer_ip = '198.51.100.7'",
      schema: z.object({ communities: z.array(z.string()) }),
    });
    expect(route.communities).toEqual(["64500:100", "65535:65281", "64500:1:64511"]);
  });

  it("routes of one prefix and peer in other tables or ADD-PATH paths no longer replace each other; a newer row of the same route does", async () => {
    const [template] = await chQuery(services.ch, {
      name: "test.template",
      sql: `SELECT * EXCEPT (rib_view) , toString(rib_view) AS rib_view FROM rib_entries
            WHERE vantage_point = 'fra1' AND prefix = '203.0.113.0/24' AND peer_ip = '198.51.100.7'`,
      schema: anyRow,
    });
    const variant = (seconds: number, ribView: string, pathId: number, asPath: number[], ext: string[] = []) => ({
      ...template,
      timestamp: T0 + seconds,
      rib_view: ribView,
      path_id: pathId,
      as_path: asPath,
      ext_communities: ext,
    });
    await chInsert(services.ch, {
      name: "test.views",
      table: "rib_entries",
      values: [
        variant(10, "pre-policy", 0, [64511, 64511, 64496]),
        variant(10, "loc-rib", 0, [64511, 64496]),
        variant(10, "post-policy", 1, [64511, 65001, 64496], ["RT:64497:42"]),
        variant(10, "post-policy", 2, [64511, 65002, 64496], ["SoO:64497:12", "RT:64497:43"]),
      ],
    });
    // A newer announcement of the imported route (post-policy, path 0) replaces it.
    await chInsert(services.ch, {
      name: "test.newer",
      table: "rib_entries",
      values: [variant(20, "post-policy", 0, [64511, 64499, 64496])],
    });
    const routes = await chQuery(services.ch, {
      name: "test.route",
      sql: `SELECT toString(rib_view) AS view, path_id, as_path, ext_communities, toUnixTimestamp(timestamp) - ${T0} AS t
            FROM rib_current FINAL WHERE vantage_point = 'fra1' AND prefix = '203.0.113.0/24' AND peer_ip = '198.51.100.7'
            ORDER BY rib_view, path_id`,
      schema: z.object({
        view: z.string(),
        path_id: z.number(),
        as_path: z.array(z.number()),
        ext_communities: z.array(z.string()),
        t: z.number(),
      }),
    });
    expect(routes.map((r) => [r.view, Number(r.path_id), r.as_path.map(Number), r.ext_communities, Number(r.t)])).toEqual([
      ["pre-policy", 0, [64511, 64511, 64496], [], 10],
      ["post-policy", 0, [64511, 64499, 64496], [], 20],
      ["post-policy", 1, [64511, 65001, 64496], ["RT:64497:42"], 10],
      ["post-policy", 2, [64511, 65002, 64496], ["SoO:64497:12", "RT:64497:43"], 10],
      ["loc-rib", 0, [64511, 64496], [], 10],
    ]);
    // The history keeps every row it was given.
    const [{ n }] = await chQuery(services.ch, {
      name: "test.history",
      sql: "SELECT count() AS n FROM rib_entries WHERE vantage_point = 'fra1' AND prefix = '203.0.113.0/24' AND peer_ip = '198.51.100.7'",
      schema: z.object({ n: z.number() }),
    });
    expect(Number(n)).toBe(6);
    // The other vantage point's copy of the route is untouched.
    const ber = await ribRows(services.ch, "rib_current", ["vantage_point", "prefix", "peer_ip", ...NEW_COLUMNS]);
    expect(ber.filter((r) => r.vantage_point === "ber1" && r.prefix === "203.0.113.0/24")).toHaveLength(2);
  });

  it("the materialized view copies the new columns into the current table", async () => {
    const [view] = await chQuery(services.ch, {
      name: "test.view",
      sql: "SELECT as_select FROM system.tables WHERE database = currentDatabase() AND name = 'rib_current_mv'",
      schema: z.object({ as_select: z.string() }),
    });
    for (const column of NEW_COLUMNS) expect(view.as_select).toContain(column);
  });

  it("keeps every PostgreSQL row and adds an empty community_labels that takes a label", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    for (const table of ["users", "as_info", "vantage_points"]) expect([table, after[table]]).toEqual([table, before.pg[table]]);
    // community_labels and the tables of later releases start empty.
    const added = pgTablesCreatedFrom('CREATE TABLE "community_labels"');
    expect(added).toContain("community_labels");
    expect(Object.keys(after).filter((t) => !(t in before.pg))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
    await services.pg.db.insert(communityLabels).values({ pattern: "64500:100", label: "Customer routes" });
    await expect(services.pg.db.insert(communityLabels).values({ pattern: "64500:100", label: "Twice" })).rejects.toThrow();
    expect((await services.pg.db.select().from(communityLabels)).map((l) => [l.pattern, l.label])).toEqual([
      ["64500:100", "Customer routes"],
    ]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const columns = [...CURRENT_OLD_COLUMNS, ...NEW_COLUMNS];
    const settled = {
      entries: await ribRows(services.ch, "rib_entries", [...OLD_COLUMNS, ...NEW_COLUMNS]),
      current: await ribRows(services.ch, "rib_current", columns),
    };
    const pgSettled = await pgSnapshot(rawPgOf(services));
    expect(await migrateClickhouse(services.ch, DEFAULT_LAYOUT)).toEqual([]);
    await services.close();
    services = await startServices(config);
    expect(await ribRows(services.ch, "rib_entries", [...OLD_COLUMNS, ...NEW_COLUMNS])).toEqual(settled.entries);
    expect(await ribRows(services.ch, "rib_current", columns)).toEqual(settled.current);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(pgSettled);
  }, 120_000);
});

describe("ClickHouse migration 0006 on a cluster", () => {
  it("alters the local tables (the current table's key, then the defaults), replaces the view per node, then the Distributed tables' columns", () => {
    const text = readFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, "0006_rib_views.sql"), "utf8");
    const statements = renderMigration(text, { ...DEFAULT_LAYOUT, cluster: "flows" });
    expect(statements.map((s) => s.split("\n")[0].replace(/\s+/g, " ").trim())).toEqual([
      "ALTER TABLE rib_entries_local ON CLUSTER 'flows'",
      "ALTER TABLE rib_current_local ON CLUSTER 'flows'",
      "ALTER TABLE rib_current_local ON CLUSTER 'flows'",
      "DROP VIEW IF EXISTS rib_current_mv_local ON CLUSTER 'flows'",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS rib_current_mv_local ON CLUSTER 'flows' TO rib_current_local AS",
      "ALTER TABLE rib_entries ON CLUSTER 'flows'",
      "ALTER TABLE rib_current ON CLUSTER 'flows'",
    ]);
    // The key grows by columns added in the same statement, without a default; the default follows.
    expect(statements[1]).toContain(
      "MODIFY ORDER BY (vantage_point, route_distinguisher, prefix_addr, prefix_len, peer_ip, rib_view, path_id)",
    );
    expect(statements[1]).not.toContain("DEFAULT");
    expect(statements[2]).toContain(
      "MODIFY COLUMN rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3) DEFAULT 'post-policy'",
    );
    expect(statements[4]).toContain("rib_view, path_id, ext_communities\nFROM rib_entries_local");
    // A Distributed table has no sorting key: only columns, with the defaults.
    for (const distributed of statements.slice(5)) {
      expect(distributed).not.toContain("ORDER BY");
      expect(distributed).toContain("ADD COLUMN IF NOT EXISTS ext_communities Array(String) DEFAULT []");
    }
    expect(statements.some((s) => /CREATE TABLE|Distributed\(/.test(s))).toBe(false);
  });
});
