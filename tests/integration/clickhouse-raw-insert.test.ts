/**
 * chInsertRaw on embedded chDB: TabSeparated rows written by the decoding threads' writer (in
 * several chunks, as batches join thread results) land in flows_raw column for column, escaped and
 * non-ASCII names, 64-bit counters and negative ASes included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOW_ROW_COLUMNS, type FlowRow } from "~/features/collector/enrich/flow-row";
import { TsvWriter } from "~/features/collector/enrich/flow-row-tsv";
import { chInsertRaw } from "~/server/clickhouse/query.server";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const NOW = Math.floor(Date.now() / 1000);
beforeAll(async () => {
  stores = await openTestStores();
}, 120_000);
afterAll(async () => {
  await stores?.dispose();
});

const row = (n: number, extra: Partial<FlowRow> = {}): FlowRow => ({
  // Recent: the table's retention TTL would remove rows of a fixed past date.
  time_received: NOW - 3600 + n,
  exporter_address: "::ffff:192.0.2.1",
  exporter_name: "raw-test",
  sampling_rate: 1000,
  ip_version: 6,
  src_addr: "2001:db8::1",
  dst_addr: "::ffff:8.8.8.8",
  src_prefix_len: 48,
  dst_prefix_len: 24,
  protocol: 17,
  src_port: 53,
  dst_port: 40_000 + n,
  tcp_flags: 0,
  bytes: 1000 + n,
  packets: 1,
  vrf_name: "",
  ingress_router: "raw-test",
  in_if: "",
  egress_router: "",
  out_if: "",
  link_start_router: "",
  link_start_if: "",
  link_end_router: "",
  link_end_if: "",
  as_src: -999,
  as_hnd: -1,
  as_nxt: 64500,
  as_dst: 15169,
  application: "",
  infrastructure: "",
  in_if_index: 10,
  out_if_index: 20,
  flow_protocol: "ipfix",
  next_hop: "::",
  counted: 1,
  ...extra,
});

describe("chInsertRaw on chDB", () => {
  it("stores TabSeparated rows sent in several chunks, exactly", async () => {
    const rows = [
      row(1),
      row(2, { in_if: "Gi0/1 — Zürich\t東京", vrf_name: "a\\b\nc", application: 'It\'s "quoted"' }),
      row(3, { bytes: 2 ** 63, packets: 2 ** 40, as_src: 4_200_000_000 }),
    ];
    const writer = new TsvWriter();
    const chunks: Uint8Array[] = [];
    for (const r of rows) {
      writer.row(r);
      chunks.push(writer.take());
    }
    await chInsertRaw(stores.ch, {
      name: "test.raw",
      table: "flows_raw",
      columns: FLOW_ROW_COLUMNS,
      format: "TabSeparated",
      body: chunks,
      rows: 3,
    });
    const back = await chRows<Record<string, unknown>>(
      stores,
      `SELECT toUnixTimestamp(time_received) AS time_received, toString(src_addr) AS src_addr, toString(dst_addr) AS dst_addr,
              toString(bytes) AS bytes, packets, in_if, vrf_name, application, as_src, as_hnd, dst_port
       FROM flows_raw WHERE exporter_name = 'raw-test' ORDER BY time_received`,
    );
    expect(back.map((r) => ({ ...r, packets: Number(r.packets), as_src: Number(r.as_src), as_hnd: Number(r.as_hnd) }))).toEqual(
      rows.map((r) => ({
        time_received: r.time_received,
        src_addr: "2001:db8::1",
        dst_addr: "::ffff:8.8.8.8",
        bytes: r.bytes === 2 ** 63 ? "9223372036854775808" : String(r.bytes),
        packets: r.packets,
        in_if: r.in_if,
        vrf_name: r.vrf_name,
        application: r.application,
        as_src: r.as_src,
        as_hnd: r.as_hnd,
        dst_port: r.dst_port,
      })),
    );
  });
});
