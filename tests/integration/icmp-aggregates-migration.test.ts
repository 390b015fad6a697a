/**
 * ClickHouse 0008 upgrades a data directory of the previous release on start: flows_5m and flows_1h
 * gain the ICMP type and code at the end of their sorting key, and both views carry them. The test
 * writes that release's schema (migrations up to 0007) and rows — raw records through the old views
 * and an aggregate written straight into flows_5m as the demo does —, closes the store, starts the
 * services on the same directory as the app does, reads everything back, writes new rows the
 * collector's way, and starts again to show that nothing changes.
 */
import { z } from "zod";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowRow } from "~/features/collector/enrich/flow-row";
import { flowRowWriter } from "~/features/collector/enrich/flow-row-writer";
import { flowRowFormat, insertFlowRows } from "~/features/collector/runtime/collector.server";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chCommand, chInsert, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { CLICKHOUSE_MIGRATIONS_DIR, DEFAULT_LAYOUT, migrateClickhouse, renderMigration } from "~/server/clickhouse-migrations.server";
import { parseConfig, type AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { clickhouseMigrationsUpTo } from "../helpers/migrations";

const NEW_COLUMNS = ["icmp_type", "icmp_code"];
const AGGREGATES = ["flows_5m", "flows_1h"] as const;
// Recent and hour-aligned: the retention TTLs would remove rows of a fixed past date.
const T0 = demoTestNow() - (demoTestNow() % 3600);

/** A flows_raw row as the previous release (0007) wrote it. */
function row(offset: number, extra: Partial<FlowRow> = {}): FlowRow {
  return {
    time_received: T0 + offset,
    exporter_address: "::ffff:192.0.2.1",
    exporter_name: "fra1-r1",
    sampling_rate: 100,
    ip_version: 4,
    src_addr: "::ffff:198.18.0.1",
    dst_addr: "::ffff:203.0.113.9",
    src_prefix_len: 24,
    dst_prefix_len: 24,
    protocol: 6,
    src_port: 50_000,
    dst_port: 443,
    tcp_flags: 0,
    bytes: 1_000,
    packets: 1,
    vrf_name: "",
    ingress_router: "fra1-r1",
    in_if: "et-0/0/1",
    egress_router: "",
    out_if: "",
    link_start_router: "",
    link_start_if: "",
    link_end_router: "",
    link_end_if: "",
    as_src: 2906,
    as_hnd: 3356,
    as_nxt: 64500,
    as_dst: 64500,
    application: "",
    infrastructure: "",
    in_if_index: 502,
    out_if_index: 501,
    flow_protocol: "ipfix",
    next_hop: "::",
    counted: 1,
    icmp_type: null,
    icmp_code: null,
    forwarding_status: 0,
    post_nat_src_addr: "::",
    post_nat_dst_addr: "::",
    post_nat_src_port: 0,
    post_nat_dst_port: 0,
    src_vlan: 0,
    src_inner_vlan: 0,
    dst_vlan: 0,
    mpls_labels: [],
    ...extra,
  };
}
// The previous release kept the ICMP type in flows_raw already, but its aggregates had no place for it.
const OLD_ROWS = [
  row(10),
  row(20, { protocol: 1, dst_port: 0, bytes: 84, icmp_type: 8, icmp_code: 0 }),
  row(30, { protocol: 1, dst_port: 0, bytes: 84, icmp_type: 0, icmp_code: 0 }),
  row(400, { bytes: 500, sampling_rate: 10 }),
];
/** What the demo wrote straight into flows_5m for days without raw records (no ICMP columns then). */
const OLD_DIRECT_AGGREGATE = {
  time: T0 + 3_000,
  ip_version: 6,
  as_src: 2906,
  as_hnd: 3356,
  as_nxt: 64500,
  as_dst: 64500,
  ingress_router: "fra1-r1",
  in_if: "et-0/0/2",
  protocol: 58,
  bytes: 9_000,
  packets: 90,
  flows: 1,
};

async function columnsOf(ch: ClickhouseHandle, table: string): Promise<string[]> {
  const rows = await chQuery(ch, {
    name: "test.columns",
    sql: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {t:String} ORDER BY position",
    params: { t: table },
    schema: z.object({ name: z.string() }),
  });
  return rows.map((r) => r.name);
}

async function sortingKeyOf(ch: ClickhouseHandle, table: string): Promise<string> {
  const [r] = await chQuery(ch, {
    name: "test.sortingKey",
    sql: "SELECT sorting_key FROM system.tables WHERE database = currentDatabase() AND name = {t:String}",
    params: { t: table },
    schema: z.object({ sorting_key: z.string() }),
  });
  return r.sorting_key;
}

/** Every row of a table in a fixed order, as text, so two reads compare exactly. */
async function rowsOf(ch: ClickhouseHandle, table: string, columns: readonly string[]): Promise<string[]> {
  const list = columns.map((c) => `ifNull(toString(\`${c}\`), 'NULL')`).join(", '|', ");
  const rows = await chQuery(ch, {
    name: "test.rows",
    sql: `SELECT concat(${list}) AS line FROM ${table}`,
    schema: z.object({ line: z.string() }),
  });
  return rows.map((r) => r.line).sort();
}

/** Bytes, packets and flows per protocol, ICMP type and code of an aggregate from `from` on: "protocol/type/code" → sums. */
async function byIcmp(ch: ClickhouseHandle, table: string, from: number): Promise<Record<string, [number, number, number]>> {
  const rows = await chQuery(ch, {
    name: "test.byIcmp",
    sql: `SELECT concat(toString(protocol), '/', toString(icmp_type), '/', toString(icmp_code)) AS k,
                 toUInt64(sum(bytes)) AS bytes, toUInt64(sum(packets)) AS packets, toUInt64(sum(flows)) AS flows
          FROM ${table} WHERE time >= toDateTime({t:UInt32}) GROUP BY k`,
    params: { t: from },
    schema: z.object({ k: z.string(), bytes: z.number(), packets: z.number(), flows: z.number() }),
  });
  return Object.fromEntries(rows.map((r) => [r.k, [Number(r.bytes), Number(r.packets), Number(r.flows)]]));
}

/** The same sums recomputed from raw rows as the view is documented to build them. */
function expectedByIcmp(rows: readonly FlowRow[]): Record<string, [number, number, number]> {
  const out: Record<string, [number, number, number]> = {};
  for (const r of rows) {
    if (r.counted !== 1 || r.forwarding_status >> 6 === 2) continue;
    const icmp = r.protocol === 1 || r.protocol === 58;
    const k = `${r.protocol}/${icmp ? (r.icmp_type ?? -1) : -1}/${icmp ? (r.icmp_code ?? -1) : -1}`;
    const sums = (out[k] ??= [0, 0, 0]);
    sums[0] += r.bytes * r.sampling_rate;
    sums[1] += r.packets * r.sampling_rate;
    sums[2] += 1;
  }
  return out;
}

const OLD_AGGREGATE_COLUMNS = ["time", "as_src", "in_if", "ip_version", "protocol", "bytes", "packets", "flows"];

describe("upgrade of a data directory of the previous release (ICMP type and code in the aggregates)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-icmp-"));
  const previousCh = clickhouseMigrationsUpTo(7);
  let config: AppConfig;
  type TableState = { columns: string[]; sortingKey: string; rows: string[] };
  const before: Partial<Record<(typeof AGGREGATES)[number], TableState>> = {};
  let services: Services;

  beforeAll(async () => {
    config = parseConfig({ DATA_DIR: dataDir, SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789", DEMO_DATA: "off" });
    const ch = openQueryDoor(await openClickhouse(config), queryDoorSettings(config), {
      identify: async () => "test",
      databases: async () => NO_OVERRIDE,
    });
    try {
      expect(await migrateClickhouse(ch, DEFAULT_LAYOUT, previousCh)).toHaveLength(7);
      expect(await columnsOf(ch, "flows_5m")).not.toContain("icmp_type");
      await chInsert(ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 2906, rank: 1, updated_at: T0 }] });
      await chInsert(ch, { name: "test.fixture", table: "flows_raw", values: OLD_ROWS });
      await chInsert(ch, { name: "test.fixture", table: "flows_5m", values: [OLD_DIRECT_AGGREGATE] });
      for (const table of AGGREGATES)
        before[table] = {
          columns: await columnsOf(ch, table),
          sortingKey: await sortingKeyOf(ch, table),
          rows: await rowsOf(ch, table, OLD_AGGREGATE_COLUMNS),
        };
    } finally {
      await ch.close();
    }
    // The old views filled the aggregates: the echo request and reply in one ICMP row of the first 5 minutes.
    expect(before.flows_5m!.rows).toHaveLength(4);
    expect(before.flows_5m!.rows.filter((r) => r.split("|")[4] === "1")).toHaveLength(1);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    for (const dir of [dataDir, previousCh]) rmSync(dir, { recursive: true, force: true });
  });

  it("records migration 8 once, appends the columns and ends both sorting keys with them", async () => {
    const applied = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT version, name FROM schema_migrations WHERE version >= 7 ORDER BY version",
      schema: z.object({ version: z.number(), name: z.string() }),
    });
    // Later migrations may follow; 7 and 8 are recorded once each, in order.
    expect(applied.slice(0, 2).map((r) => [Number(r.version), r.name])).toEqual([
      [7, "0007_flow_details"],
      [8, "0008_icmp_aggregates"],
    ]);
    for (const table of AGGREGATES) {
      const old = before[table]!;
      expect((await columnsOf(services.ch, table)).slice(0, old.columns.length + NEW_COLUMNS.length)).toEqual([
        ...old.columns,
        ...NEW_COLUMNS,
      ]);
      expect(old.sortingKey).toMatch(/exporter_name$/);
      expect(await sortingKeyOf(services.ch, table)).toBe(`${old.sortingKey}, icmp_type, icmp_code`);
    }
  });

  it("keeps every aggregated row of the previous release, its ICMP type not known (-1)", async () => {
    for (const table of AGGREGATES) {
      expect(await rowsOf(services.ch, table, OLD_AGGREGATE_COLUMNS)).toEqual(before[table]!.rows);
      const types = await chQuery(services.ch, {
        name: "test.oldTypes",
        sql: `SELECT DISTINCT icmp_type, icmp_code FROM ${table}`,
        schema: z.object({ icmp_type: z.number(), icmp_code: z.number() }),
      });
      expect(types).toEqual([{ icmp_type: -1, icmp_code: -1 }]);
    }
  });

  it("carries the ICMP type and code of new rows through both views, keeps types apart when merged, and leaves other protocols at -1", async () => {
    const t = T0 + 7_200; // an hour of its own, after the old rows
    const fresh = (offset: number, extra: Partial<FlowRow>) => row(7_200 - 10 + offset, { ...extra });
    const rows = [
      fresh(10, { protocol: 1, dst_port: 0, bytes: 84, packets: 1, icmp_type: 8, icmp_code: 0 }), // echo request
      fresh(20, { protocol: 1, dst_port: 0, bytes: 84, packets: 1, icmp_type: 8, icmp_code: 0 }),
      fresh(30, { protocol: 1, dst_port: 0, bytes: 84, packets: 1, icmp_type: 0, icmp_code: 0 }), // echo reply
      fresh(40, { protocol: 1, dst_port: 0, bytes: 70, packets: 1, icmp_type: 3, icmp_code: 3 }), // port unreachable
      fresh(50, { protocol: 1, dst_port: 0, bytes: 70, packets: 1, icmp_type: 3, icmp_code: 1 }), // host unreachable
      fresh(60, { protocol: 1, dst_port: 0, bytes: 60, packets: 1 }), // ICMP whose type the exporter did not send
      fresh(70, { ip_version: 6, protocol: 58, dst_port: 0, bytes: 104, packets: 1, icmp_type: 128, icmp_code: 0 }),
      fresh(80, { protocol: 6, icmp_type: 3, icmp_code: 0 }), // a stray element on TCP is not kept
      fresh(90, { protocol: 1, dst_port: 0, bytes: 84, icmp_type: 8, icmp_code: 0, forwarding_status: 0x81 }), // dropped (ACL deny)
      fresh(400, { protocol: 1, dst_port: 0, bytes: 84, packets: 1, icmp_type: 11, icmp_code: 0 }), // time exceeded, next 5 minutes
    ];
    const writer = flowRowWriter(flowRowFormat(services.ch));
    for (const r of rows) writer.row(r);
    await insertFlowRows(services, { chunks: [writer.take()], bytes: 0, rows: rows.length });

    const expected = expectedByIcmp(rows);
    expect(Object.keys(expected).sort()).toEqual(["1/-1/-1", "1/0/0", "1/11/0", "1/3/1", "1/3/3", "1/8/0", "58/128/0", "6/-1/-1"]);
    expect(expected["1/8/0"]).toEqual([16_800, 200, 2]);
    for (const table of AGGREGATES) expect(await byIcmp(services.ch, table, t), table).toEqual(expected);
    // Merged, the sums stay apart per type and code: the key is what SummingMergeTree sums by.
    for (const table of AGGREGATES) {
      await chCommand(services.ch, { name: "test.optimize", sql: `OPTIMIZE TABLE ${table} FINAL` });
      expect(await byIcmp(services.ch, table, t), `${table} merged`).toEqual(expected);
      // The rows of the previous release, merged too, still read "type not known".
      const old = await chQuery(services.ch, {
        name: "test.oldMerged",
        sql: `SELECT DISTINCT icmp_type, icmp_code FROM ${table} WHERE time < toDateTime({t:UInt32})`,
        params: { t },
        schema: z.object({ icmp_type: z.number(), icmp_code: z.number() }),
      });
      expect(old).toEqual([{ icmp_type: -1, icmp_code: -1 }]);
    }
    const [{ n }] = await chQuery(services.ch, {
      name: "test.mergedRows",
      sql: "SELECT count() AS n FROM flows_1h WHERE time >= toDateTime({t:UInt32})",
      params: { t },
      schema: z.object({ n: z.number() }),
    });
    // One row per protocol, type and code of the hour (both 5-minute buckets fold into it).
    expect(Number(n)).toBe(Object.keys(expected).length);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const all = [...OLD_AGGREGATE_COLUMNS, ...NEW_COLUMNS];
    const state = async () =>
      Promise.all(AGGREGATES.map(async (table) => [await columnsOf(services.ch, table), await rowsOf(services.ch, table, all)]));
    const first = await state();
    await services.close();
    services = await startServices(config);
    expect(await state()).toEqual(first);
    const [{ n }] = await chQuery(services.ch, {
      name: "test.migrationCount",
      sql: "SELECT count() AS n FROM schema_migrations WHERE version = 8",
      schema: z.object({ n: z.number() }),
    });
    expect(Number(n)).toBe(1);
  }, 120_000);
});

describe("ClickHouse migration 0008 on a cluster", () => {
  it("alters the local tables and the Distributed ones, and replaces both views per node on the local tables", () => {
    const text = readFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, "0008_icmp_aggregates.sql"), "utf8");
    const statements = renderMigration(text, { ...DEFAULT_LAYOUT, cluster: "flows" });
    expect(statements.map((s) => s.split("\n")[0].replace(/\s+/g, " "))).toEqual([
      "ALTER TABLE flows_5m_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_5m_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_1h_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_1h_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_5m ON CLUSTER 'flows'",
      "ALTER TABLE flows_1h ON CLUSTER 'flows'",
      "DROP VIEW IF EXISTS flows_5m_mv_local ON CLUSTER 'flows'",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv_local ON CLUSTER 'flows' TO flows_5m_local AS",
      "DROP VIEW IF EXISTS flows_1h_mv_local ON CLUSTER 'flows'",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS flows_1h_mv_local ON CLUSTER 'flows' TO flows_1h_local AS",
    ]);
    // The local (replicated) tables: the columns with the sorting key, then their default; a Distributed table has no key.
    for (const [add, setDefault] of [statements.slice(0, 2), statements.slice(2, 4)]) {
      for (const column of NEW_COLUMNS) {
        expect(add).toContain(`ADD COLUMN IF NOT EXISTS ${column} Int16,`);
        expect(setDefault).toContain(`MODIFY COLUMN ${column} Int16 DEFAULT -1`);
      }
      expect(add).toMatch(/MODIFY ORDER BY \([^)]*exporter_name, icmp_type, icmp_code\)$/);
    }
    for (const alter of statements.slice(4, 6)) {
      for (const column of NEW_COLUMNS) expect(alter).toContain(`ADD COLUMN IF NOT EXISTS ${column} Int16 DEFAULT -1`);
      expect(alter).not.toContain("MODIFY");
    }
    const fiveMinutes = statements[7];
    // 0007's rules stay: counted records only, dropped packets left out, the top-200 fold over the Distributed tracked_as.
    expect(fiveMinutes).toContain("FROM flows_raw_local\nWHERE counted = 1 AND bitShiftRight(forwarding_status, 6) != 2\n");
    expect(fiveMinutes.match(/SELECT asn FROM tracked_as\)/g)).toHaveLength(4);
    expect(fiveMinutes).toMatch(/vrf_name, protocol, icmp_type, icmp_code;?$/);
    const hourly = statements[9];
    expect(hourly).toContain("FROM flows_5m_local\n");
    expect(hourly).toMatch(/vrf_name, protocol, icmp_type, icmp_code$/);
    for (const view of [fiveMinutes, hourly]) expect(view).not.toMatch(/\b(flows_raw|flows_5m|flows_1h)\b(?!_local)/);
    expect(statements.some((s) => /Distributed|CREATE TABLE/.test(s))).toBe(false);
  });
});
