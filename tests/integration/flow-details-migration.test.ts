/**
 * ClickHouse 0007 upgrades a data directory of the previous release on start: flows_raw gains the
 * ICMP type and code, the forwarding status, the NAT columns, the VLANs and the MPLS label stack, and
 * the 5-minute view leaves out
 * packets the router dropped. The test writes that release's schema (migrations up to 0006) and
 * rows, raw and aggregated, closes the store, starts the services on the same directory as the app
 * does, reads everything back, writes new rows the collector's way, and starts again to show that
 * nothing changes.
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
import { chInsert, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { CLICKHOUSE_MIGRATIONS_DIR, DEFAULT_LAYOUT, migrateClickhouse, renderMigration } from "~/server/clickhouse-migrations.server";
import { parseConfig, type AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { clickhouseMigrationsUpTo } from "../helpers/migrations";
import { anyRow } from "../helpers/stores";

const NEW_COLUMNS = [
  "icmp_type",
  "icmp_code",
  "forwarding_status",
  "post_nat_src_addr",
  "post_nat_dst_addr",
  "post_nat_src_port",
  "post_nat_dst_port",
  "src_vlan",
  "src_inner_vlan",
  "dst_vlan",
  "mpls_labels",
];
// Recent and hour-aligned: the retention TTLs would remove rows of a fixed past date.
const T0 = demoTestNow() - (demoTestNow() % 3600);

/** A flows_raw row as the previous release wrote it (the columns up to 0004). */
function oldRow(offset: number, bytes: number, sampling: number, protocol = 6, dstPort = 443) {
  return {
    time_received: T0 + offset,
    exporter_address: "::ffff:192.0.2.1",
    exporter_name: "fra1-r1",
    sampling_rate: sampling,
    ip_version: 4,
    src_addr: "::ffff:198.18.0.1",
    dst_addr: "::ffff:203.0.113.9",
    src_prefix_len: 24,
    dst_prefix_len: 24,
    protocol,
    src_port: 50_000,
    dst_port: dstPort,
    tcp_flags: 0,
    bytes,
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
    flow_protocol: "netflow9",
    next_hop: "::",
    counted: 1,
  };
}
// An ICMP echo request of the previous release: its type and code were in the destination port (8 × 256).
const OLD_ROWS = [oldRow(10, 1_000, 100), oldRow(20, 84, 100, 1, 2048), oldRow(400, 500, 10)];

async function columnsOf(ch: ClickhouseHandle): Promise<string[]> {
  const rows = await chQuery(ch, {
    name: "test.columns",
    sql: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'flows_raw' ORDER BY position",
    schema: z.object({ name: z.string() }),
  });
  return rows.map((r) => r.name);
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

const AGGREGATE_COLUMNS = ["time", "as_src", "in_if", "protocol", "bytes", "packets", "flows"];

async function aggregateSums(
  ch: ClickhouseHandle,
  table: string,
  from: number,
): Promise<{ bytes: number; packets: number; flows: number }> {
  const [row] = await chQuery(ch, {
    name: "test.sums",
    sql: `SELECT toUInt64(sum(bytes)) AS bytes, toUInt64(sum(packets)) AS packets, toUInt64(sum(flows)) AS flows
          FROM ${table} WHERE time >= toDateTime({t:UInt32})`,
    params: { t: from },
    schema: z.object({ bytes: z.number(), packets: z.number(), flows: z.number() }),
  });
  return { bytes: Number(row.bytes), packets: Number(row.packets), flows: Number(row.flows) };
}

describe("upgrade of a data directory of the previous release (ICMP, forwarding status, NAT, VLANs and MPLS labels in flows_raw)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-details-"));
  const previousCh = clickhouseMigrationsUpTo(6);
  let config: AppConfig;
  let before: { columns: string[]; raw: string[]; fiveMinutes: string[]; hourly: string[] };
  let services: Services;

  beforeAll(async () => {
    config = parseConfig({ DATA_DIR: dataDir, SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789", DEMO_DATA: "off" });
    const ch = openQueryDoor(await openClickhouse(config), queryDoorSettings(config), {
      identify: async () => "test",
      databases: async () => NO_OVERRIDE,
    });
    try {
      expect(await migrateClickhouse(ch, DEFAULT_LAYOUT, previousCh)).toHaveLength(6);
      const columns = await columnsOf(ch);
      expect(columns).not.toEqual(expect.arrayContaining(["forwarding_status"]));
      await chInsert(ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 2906, rank: 1, updated_at: T0 }] });
      await chInsert(ch, { name: "test.fixture", table: "flows_raw", values: OLD_ROWS });
      before = {
        columns,
        raw: await rowsOf(ch, "flows_raw", columns),
        fiveMinutes: await rowsOf(ch, "flows_5m", AGGREGATE_COLUMNS),
        hourly: await rowsOf(ch, "flows_1h", AGGREGATE_COLUMNS),
      };
    } finally {
      await ch.close();
    }
    // The old view filled the aggregates: the upgrade starts from real aggregates, not empty tables.
    expect(before.fiveMinutes).toHaveLength(3); // two protocols in the first bucket, one row in the second
    expect(before.hourly.length).toBeGreaterThan(0);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    for (const dir of [dataDir, previousCh]) rmSync(dir, { recursive: true, force: true });
  });

  it("records migration 7 once and appends the new columns to flows_raw", async () => {
    const applied = await chQuery(services.ch, {
      name: "test.migrations",
      sql: "SELECT version, name FROM schema_migrations WHERE version >= 6 ORDER BY version",
      schema: z.object({ version: z.number(), name: z.string() }),
    });
    expect(applied.slice(0, 2).map((r) => [Number(r.version), r.name])).toEqual([
      [6, "0006_rib_views"],
      [7, "0007_flow_details"],
    ]);
    expect((await columnsOf(services.ch)).slice(0, before.columns.length + NEW_COLUMNS.length)).toEqual([
      ...before.columns,
      ...NEW_COLUMNS,
    ]);
  });

  it("keeps every raw and aggregated row of the previous release", async () => {
    expect(await rowsOf(services.ch, "flows_raw", before.columns)).toEqual(before.raw);
    expect(await rowsOf(services.ch, "flows_5m", AGGREGATE_COLUMNS)).toEqual(before.fiveMinutes);
    expect(await rowsOf(services.ch, "flows_1h", AGGREGATE_COLUMNS)).toEqual(before.hourly);
  });

  it("gives the old rows no ICMP (not known then), no forwarding status, no NAT, no VLAN and no labels", async () => {
    const rows = await chQuery(services.ch, {
      name: "test.defaults",
      sql: `SELECT toUnixTimestamp(time_received) AS t, dst_port, icmp_type, icmp_code, forwarding_status,
                   toString(post_nat_src_addr) AS nat_src, toString(post_nat_dst_addr) AS nat_dst, post_nat_src_port, post_nat_dst_port,
                   src_vlan, src_inner_vlan, dst_vlan, mpls_labels
            FROM flows_raw ORDER BY t`,
      schema: anyRow,
    });
    expect(rows.map((r) => ({ ...r, t: Number(r.t), dst_port: Number(r.dst_port) }))).toEqual(
      OLD_ROWS.map((r) => ({
        t: r.time_received,
        dst_port: r.dst_port,
        icmp_type: null,
        icmp_code: null,
        forwarding_status: 0,
        nat_src: "::",
        nat_dst: "::",
        post_nat_src_port: 0,
        post_nat_dst_port: 0,
        src_vlan: 0,
        src_inner_vlan: 0,
        dst_vlan: 0,
        mpls_labels: [],
      })),
    );
  });

  it("stores new rows with their status and leaves the dropped ones out of both aggregates", async () => {
    const t = T0 + 7_200; // a bucket of its own, hours after the old rows
    const base = { ...oldRow(7_200, 0, 0), exporter_name: "fra1-r1" };
    const fresh = (status: number, bytes: number, extra: Partial<FlowRow> = {}): FlowRow => ({
      ...base,
      counted: 1,
      sampling_rate: 100,
      bytes,
      packets: 2,
      icmp_type: null,
      icmp_code: null,
      forwarding_status: status,
      post_nat_src_addr: "::",
      post_nat_dst_addr: "::",
      post_nat_src_port: 0,
      post_nat_dst_port: 0,
      src_vlan: 0,
      src_inner_vlan: 0,
      dst_vlan: 0,
      mpls_labels: [],
      ...extra,
    });
    const rows = [
      fresh(0x40, 84, { protocol: 1, dst_port: 0, icmp_type: 8, icmp_code: 0 }), // forwarded echo request
      // The exporter does not say: carried. QinQ in (service VLAN 100, customer 2001), VLAN 300 out, two labels.
      fresh(0, 1_000, { src_vlan: 100, src_inner_vlan: 2001, dst_vlan: 300, mpls_labels: [299_792, 1_048_575] }),
      fresh(0xc0, 60, { src_vlan: 7, mpls_labels: [3] }), // consumed by the router (for it): carried to it
      fresh(0x82, 5_000, { post_nat_src_addr: "::ffff:198.51.100.7", post_nat_src_port: 61_000 }), // dropped, ACL drop
      fresh(0x80, 7_000), // dropped, reason unknown
    ];
    const writer = flowRowWriter(flowRowFormat(services.ch));
    for (const row of rows) writer.row(row);
    await insertFlowRows(services, { chunks: [writer.take()], bytes: 0, rows: rows.length });

    const raw = await chQuery(services.ch, {
      name: "test.freshRaw",
      sql: `SELECT forwarding_status, bytes, icmp_type, icmp_code, toString(post_nat_src_addr) AS nat, post_nat_src_port,
                   src_vlan, src_inner_vlan, dst_vlan, mpls_labels
            FROM flows_raw WHERE time_received >= toDateTime({t:UInt32}) ORDER BY forwarding_status`,
      params: { t },
      schema: anyRow,
    });
    expect(
      raw.map((r) => [
        Number(r.forwarding_status),
        Number(r.bytes),
        r.icmp_type,
        r.icmp_code,
        r.nat,
        Number(r.post_nat_src_port),
        [r.src_vlan, r.src_inner_vlan, r.dst_vlan].map(Number),
        (r.mpls_labels as unknown[]).map(Number),
      ]),
    ).toEqual([
      [0, 1_000, null, null, "::", 0, [100, 2001, 300], [299_792, 1_048_575]],
      [0x40, 84, 8, 0, "::", 0, [0, 0, 0], []],
      [0x80, 7_000, null, null, "::", 0, [0, 0, 0], []],
      [0x82, 5_000, null, null, "::ffff:198.51.100.7", 61_000, [0, 0, 0], []],
      [0xc0, 60, null, null, "::", 0, [7, 0, 0], [3]],
    ]);
    // Recomputed from the rows above: the three not dropped, scaled by their sampling rate.
    const carried = rows.filter((r) => r.forwarding_status >> 6 !== 2);
    const expected = {
      bytes: carried.reduce((s, r) => s + r.bytes * r.sampling_rate, 0),
      packets: carried.reduce((s, r) => s + r.packets * r.sampling_rate, 0),
      flows: carried.length,
    };
    expect(expected).toEqual({ bytes: 114_400, packets: 600, flows: 3 });
    expect(await aggregateSums(services.ch, "flows_5m", t)).toEqual(expected);
    expect(await aggregateSums(services.ch, "flows_1h", t)).toEqual(expected);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const columns = await columnsOf(services.ch);
    const raw = await rowsOf(services.ch, "flows_raw", columns);
    const fiveMinutes = await rowsOf(services.ch, "flows_5m", AGGREGATE_COLUMNS);
    await services.close();
    services = await startServices(config);
    expect(await columnsOf(services.ch)).toEqual(columns);
    expect(await rowsOf(services.ch, "flows_raw", columns)).toEqual(raw);
    expect(await rowsOf(services.ch, "flows_5m", AGGREGATE_COLUMNS)).toEqual(fiveMinutes);
    const [{ n }] = await chQuery(services.ch, {
      name: "test.migrationCount",
      sql: "SELECT count() AS n FROM schema_migrations WHERE version = 7",
      schema: z.object({ n: z.number() }),
    });
    expect(Number(n)).toBe(1);
  }, 120_000);
});

describe("ClickHouse migration 0007 on a cluster", () => {
  it("alters the local tables and the Distributed one, and replaces the view per node on the local tables", () => {
    const text = readFileSync(path.join(CLICKHOUSE_MIGRATIONS_DIR, "0007_flow_details.sql"), "utf8");
    const statements = renderMigration(text, { ...DEFAULT_LAYOUT, cluster: "flows" });
    expect(statements.map((s) => s.split("\n")[0].replace(/\s+/g, " "))).toEqual([
      "ALTER TABLE flows_raw_local ON CLUSTER 'flows'",
      "ALTER TABLE flows_raw ON CLUSTER 'flows'",
      "DROP VIEW IF EXISTS flows_5m_mv_local ON CLUSTER 'flows'",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv_local ON CLUSTER 'flows' TO flows_5m_local AS",
    ]);
    for (const alter of statements.slice(0, 2))
      for (const column of NEW_COLUMNS) expect(alter).toContain(`ADD COLUMN IF NOT EXISTS ${column} `);
    const view = statements[3];
    expect(view).toContain("FROM flows_raw_local\nWHERE counted = 1 AND bitShiftRight(forwarding_status, 6) != 2\n");
    expect(view.match(/SELECT asn FROM tracked_as\)/g)).toHaveLength(4);
    expect(view).not.toMatch(/\b(flows_raw|flows_5m)\b(?!_local)/);
    expect(statements.some((s) => /Distributed|CREATE TABLE/.test(s))).toBe(false);
  });
});
