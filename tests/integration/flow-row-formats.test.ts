/**
 * The two bodies the decoding threads can write — TabSeparated (what a ClickHouse server is sent)
 * and RowBinary (what embedded chDB is sent, through a file and FROM INFILE) — store the same
 * flows_raw rows, every column compared: Nullable ICMP type and code (NULL and set), MPLS label
 * arrays (empty and full), IPv4-mapped and IPv6 addresses, LowCardinality names with escapes and
 * non-ASCII text (long ones too), 64-bit counters, negative ASes. Rows decoded from NetFlow v9 and
 * IPFIX datagrams by a DecodeThread in each format are compared too. And the collector's insert
 * picks RowBinary on chDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOW_ROW_COLUMNS, type FlowRow, type FlowRowFormat } from "~/features/collector/enrich/flow-row";
import { flowRowWriter } from "~/features/collector/enrich/flow-row-writer";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { flowRowFormat } from "~/features/collector/runtime/collector.server";
import { chCommand, chInsertRaw } from "~/server/clickhouse/query.server";
import { ipfixDatagram, v9Datagram } from "../../bench/collector-traffic";
import { syntheticNetwork } from "../../bench/synthetic-network";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const NOW = Math.floor(Date.now() / 1000);
const TABLES: Record<FlowRowFormat, string> = { TabSeparated: "flows_raw_as_text", RowBinary: "flows_raw_as_binary" };

beforeAll(async () => {
  stores = await openTestStores();
  // Copies of flows_raw (same columns and types), so both formats can hold the same exporter names.
  for (const table of Object.values(TABLES)) await chCommand(stores.ch, { name: "test.copy", sql: `CREATE TABLE ${table} AS flows_raw` });
});
afterAll(async () => {
  await stores?.dispose();
});

const row = (n: number, extra: Partial<FlowRow> = {}): FlowRow => ({
  time_received: NOW - 3600 + n,
  exporter_address: "::ffff:192.0.2.1",
  exporter_name: "format-test",
  sampling_rate: 1000,
  ip_version: 6,
  src_addr: "2001:db8::1",
  dst_addr: "::ffff:8.8.8.8",
  src_prefix_len: 48,
  dst_prefix_len: 24,
  protocol: 17,
  src_port: 53,
  dst_port: 40_000 + n,
  tcp_flags: 0x1b,
  bytes: 1000 + n,
  packets: 1,
  vrf_name: "",
  ingress_router: "r1",
  in_if: "et-0/0/1",
  egress_router: "r2",
  out_if: "ae1",
  link_start_router: "r1",
  link_start_if: "et-0/0/1",
  link_end_router: "p1",
  link_end_if: "xe-1/0/0",
  as_src: -999,
  as_hnd: -1,
  as_nxt: 64500,
  as_dst: 15169,
  application: "dns",
  infrastructure: "",
  in_if_index: 10,
  out_if_index: 4_000_000_000,
  flow_protocol: "netflow9",
  next_hop: "2001:db8:ffff::fe",
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
});

const ROWS: FlowRow[] = [
  row(1),
  row(2, { in_if: "Gi0/1 — Zürich\t東京", vrf_name: "a\\b\nc\r\0", application: 'It\'s "quoted"', exporter_name: "é".repeat(200) }),
  row(3, { bytes: 2 ** 63, packets: 2 ** 40, as_src: 4_200_000_000, as_dst: -101, sampling_rate: 4_294_967_295 }),
  row(4, {
    protocol: 1,
    ip_version: 4,
    src_addr: "::ffff:10.0.0.1",
    dst_port: 0,
    icmp_type: 3,
    icmp_code: 0,
    forwarding_status: 0x82,
    post_nat_src_addr: "::ffff:198.51.100.7",
    post_nat_dst_addr: "2001:db8::53",
    post_nat_src_port: 61_000,
    post_nat_dst_port: 65_535,
  }),
  row(5, { src_vlan: 100, src_inner_vlan: 2001, dst_vlan: 4094, mpls_labels: [1_048_575, 16, 0] }),
  row(6, { protocol: 58, icmp_type: 128, icmp_code: 255, counted: 0, infrastructure: "x".repeat(127), application: "y".repeat(128) }),
  row(7, { src_addr: "fe80::1:2:3:4", dst_addr: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", exporter_address: "2001:db8::2" }),
];

/** Every column of a table, as text, in a stable order. */
async function stored(table: string): Promise<string[]> {
  const back = await chRows<Record<string, unknown>>(
    stores,
    `SELECT ${FLOW_ROW_COLUMNS.map((c) => `toString(${c}) AS ${c}`).join(", ")} FROM ${table}
     ORDER BY time_received, dst_port, exporter_name, src_addr, src_port`,
  );
  return back.map((r) => JSON.stringify(r));
}

async function insert(format: FlowRowFormat, bodies: Uint8Array[], rows: number) {
  await chInsertRaw(stores.ch, { name: "test.format", table: TABLES[format], columns: FLOW_ROW_COLUMNS, format, body: bodies, rows });
}

describe("TabSeparated and RowBinary bodies", () => {
  it("store the same rows, every column", async () => {
    for (const format of ["TabSeparated", "RowBinary"] as const) {
      const writer = flowRowWriter(format);
      const chunks: Uint8Array[] = [];
      // Several chunks, as batches join thread results.
      for (const r of ROWS) {
        writer.row(r);
        if (r.dst_port % 2) chunks.push(writer.take());
      }
      chunks.push(writer.take());
      await insert(format, chunks, ROWS.length);
    }
    const text = await stored(TABLES.TabSeparated);
    expect(text).toHaveLength(ROWS.length);
    expect(await stored(TABLES.RowBinary)).toEqual(text);
    // Not both wrong the same way: a few values as the rows hold them.
    const [binary] = await chRows<{ n: number; labels: number[]; icmp: number | null; name: string; addr: string }>(
      stores,
      `SELECT count() AS n, groupArrayIf(mpls_labels, dst_port = 40005)[1] AS labels, anyIf(icmp_type, dst_port = 40006) AS icmp,
              anyIf(exporter_name, dst_port = 40002) AS name, toString(anyIf(dst_addr, dst_port = 40007)) AS addr
       FROM ${TABLES.RowBinary}`,
    );
    expect({ ...binary, n: Number(binary.n), labels: binary.labels.map(Number) }).toEqual({
      n: ROWS.length,
      labels: [1_048_575, 16, 0],
      icmp: 128,
      name: "é".repeat(200),
      addr: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    });
    const [nulls] = await chRows<{ n: number }>(stores, `SELECT countIf(icmp_type IS NULL) AS n FROM ${TABLES.RowBinary}`);
    expect(Number(nulls.n)).toBe(5);
  });

  it("of flows decoded from NetFlow v9 and IPFIX datagrams store the same rows", async () => {
    for (const table of Object.values(TABLES)) await chCommand(stores.ch, { name: "test.truncate", sql: `TRUNCATE TABLE ${table}` });
    const network = syntheticNetwork({ prefixes: 2000 });
    const { rib } = network.buildRib();
    const snapshot = network.snapshot(["192.0.2.1"], rib);
    const datagrams = Array.from({ length: 40 }, (_, i) => (i % 2 ? ipfixDatagram : v9Datagram)(network, i));
    const offsets = [0];
    for (const d of datagrams) offsets.push(offsets[offsets.length - 1] + d.length);
    const buffer = new Uint8Array(offsets[offsets.length - 1]);
    datagrams.forEach((d, i) => buffer.set(d, offsets[i]));
    const batch = {
      buffer: buffer.buffer,
      offsets,
      exporters: datagrams.map(() => "192.0.2.1"),
      arrivalsMs: datagrams.map(() => NOW * 1000),
    };
    let rows = 0;
    for (const format of ["TabSeparated", "RowBinary"] as const) {
      const thread = new DecodeThread(120_000, format);
      thread.useSnapshot(snapshot);
      const result = thread.decodeBatch(batch);
      rows = result.rows;
      await insert(format, [result.body], result.rows);
    }
    expect(rows).toBeGreaterThan(500);
    const text = await stored(TABLES.TabSeparated);
    expect(text).toHaveLength(rows);
    expect(await stored(TABLES.RowBinary)).toEqual(text);
  });

  it("RowBinary is what the collector writes on chDB", () => {
    expect(stores.ch.kind).toBe("chdb");
    expect(flowRowFormat(stores.ch)).toBe("RowBinary");
  });
});
