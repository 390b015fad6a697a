/**
 * chInsertRaw on embedded chDB: TabSeparated rows written by the decoding threads' writer (in
 * several chunks, as batches join thread results) land in flows_raw column for column, escaped and
 * non-ASCII names, 64-bit counters, negative ASes, VLANs and MPLS label arrays (empty ones too) included. And the collector's own insert
 * (insertFlowRows, with the settings it inserts with) leaves in flows_5m and flows_1h exactly the
 * sums an independent computation over the rows gives: untracked ASes folded into Others, special
 * values kept, re-exported (counted = 0) rows and packets the router dropped (forwarding status
 * 10xxxxxx) left out, keys repeated within and across batches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOW_ROW_COLUMNS, type FlowRow } from "~/features/collector/enrich/flow-row";
import { TsvWriter } from "~/features/collector/enrich/flow-row-tsv";
import { flowRowWriter } from "~/features/collector/enrich/flow-row-writer";
import { flowRowFormat, insertFlowRows } from "~/features/collector/runtime/collector.server";
import { chInsert, chInsertRaw } from "~/server/clickhouse/query.server";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const NOW = Math.floor(Date.now() / 1000);
beforeAll(async () => {
  stores = await openTestStores();
});
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

describe("chInsertRaw on chDB", () => {
  it("stores TabSeparated rows sent in several chunks, exactly", async () => {
    const rows = [
      row(1),
      row(2, { in_if: "Gi0/1 — Zürich\t東京", vrf_name: "a\\b\nc", application: 'It\'s "quoted"' }),
      row(3, { bytes: 2 ** 63, packets: 2 ** 40, as_src: 4_200_000_000 }),
      row(4, {
        protocol: 1,
        dst_port: 0,
        icmp_type: 3,
        icmp_code: 3,
        forwarding_status: 0x82,
        post_nat_src_addr: "::ffff:198.51.100.7",
        post_nat_dst_addr: "2001:db8::53",
        post_nat_src_port: 61_000,
        post_nat_dst_port: 53,
      }),
      // QinQ in, another VLAN out, a two-label stack with the largest label value.
      row(5, { src_vlan: 100, src_inner_vlan: 2001, dst_vlan: 4094, mpls_labels: [1_048_575, 16] }),
      row(6, { src_vlan: 7, mpls_labels: [3] }),
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
      rows: rows.length,
    });
    const back = await chRows<Record<string, unknown>>(
      stores,
      `SELECT toUnixTimestamp(time_received) AS time_received, toString(src_addr) AS src_addr, toString(dst_addr) AS dst_addr,
              toString(bytes) AS bytes, packets, in_if, vrf_name, application, as_src, as_hnd, dst_port,
              icmp_type, icmp_code, forwarding_status, toString(post_nat_src_addr) AS post_nat_src_addr,
              toString(post_nat_dst_addr) AS post_nat_dst_addr, post_nat_src_port, post_nat_dst_port,
              src_vlan, src_inner_vlan, dst_vlan, mpls_labels
       FROM flows_raw WHERE exporter_name = 'raw-test' ORDER BY time_received`,
    );
    expect(
      back.map((r) => ({
        ...r,
        packets: Number(r.packets),
        as_src: Number(r.as_src),
        as_hnd: Number(r.as_hnd),
        mpls_labels: (r.mpls_labels as unknown[]).map(Number),
      })),
    ).toEqual(
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
        icmp_type: r.icmp_type,
        icmp_code: r.icmp_code,
        forwarding_status: r.forwarding_status,
        post_nat_src_addr: r.post_nat_src_addr,
        post_nat_dst_addr: r.post_nat_dst_addr,
        post_nat_src_port: r.post_nat_src_port,
        post_nat_dst_port: r.post_nat_dst_port,
        src_vlan: r.src_vlan,
        src_inner_vlan: r.src_inner_vlan,
        dst_vlan: r.dst_vlan,
        mpls_labels: r.mpls_labels,
      })),
    );
  });
});

describe("the collector's inserts into the aggregates", () => {
  it("sum to what the rows say, Others fold, counted = 0 and dropped packets left out", async () => {
    const tracked = [64500, 3356];
    await chInsert(stores.ch, {
      name: "test.trackedAs",
      table: "tracked_as",
      values: tracked.map((asn, rank) => ({ asn, rank, updated_at: NOW })),
    });
    // Two hours, so both the 5-minute and the hourly buckets are several; a small pool of values
    // per column, so keys repeat within a batch and across batches.
    const base = NOW - (NOW % 3600) - 7200;
    const ases = [64500, 3356, 15169, 2906, 0, -1, -999];
    const rows: FlowRow[] = [];
    for (let i = 0; i < 3000; i++) {
      rows.push(
        row(i, {
          time_received: base + ((i * 7919) % 7200),
          exporter_name: "agg-test",
          sampling_rate: [1, 100, 1000][i % 3],
          bytes: 40 + ((i * 31) % 1500),
          packets: 1 + (i % 5),
          in_if: `et-0/0/${i % 4}`,
          as_src: ases[i % 7],
          as_hnd: ases[(i >> 1) % 7],
          as_nxt: ases[(i >> 2) % 7],
          as_dst: ases[(i * 3) % 7],
          protocol: i % 2 ? 6 : 17,
          counted: i % 5 === 0 ? 0 : 1,
          // Not said, forwarded, dropped (with a reason code: 0x80–0x8f), consumed by the router.
          forwarding_status: [0, 0x40, 0x80 | ((i >> 2) % 16), 0xc2][(i >> 3) % 4],
        }),
      );
    }
    for (let from = 0; from < rows.length; from += 1000) {
      // In the format the collector's threads write for this store (RowBinary on chDB).
      const writer = flowRowWriter(flowRowFormat(stores.ch));
      for (const r of rows.slice(from, from + 1000)) writer.row(r);
      await insertFlowRows(stores, { chunks: [writer.take()], bytes: 0, rows: 1000 });
    }

    const fold = (asn: number) => (asn < 0 || tracked.includes(asn) ? asn : -101);
    const expected = (bucket: number) => {
      const sums = new Map<string, { bytes: number; packets: number; flows: number }>();
      for (const r of rows) {
        if (r.counted !== 1) continue;
        if (r.forwarding_status >= 0x80 && r.forwarding_status < 0xc0) continue;
        const time = r.time_received - (r.time_received % bucket);
        const key = [time, fold(r.as_src), fold(r.as_hnd), fold(r.as_nxt), fold(r.as_dst), r.in_if, r.protocol].join("|");
        const sum = sums.get(key) ?? { bytes: 0, packets: 0, flows: 0 };
        sum.bytes += r.bytes * r.sampling_rate;
        sum.packets += r.packets * r.sampling_rate;
        sum.flows += 1;
        sums.set(key, sum);
      }
      return [...sums.entries()].map(([key, sum]) => `${key}|${sum.bytes}|${sum.packets}|${sum.flows}`).sort();
    };
    const stored = async (table: string) => {
      // Grouped: parts not merged yet hold a key more than once; the readers sum as this does.
      const back = await chRows<{ line: string }>(
        stores,
        `SELECT concat(toString(toUnixTimestamp(time)), '|', toString(as_src), '|', toString(as_hnd), '|', toString(as_nxt), '|',
                       toString(as_dst), '|', in_if, '|', toString(protocol), '|', toString(sum(bytes)), '|',
                       toString(sum(packets)), '|', toString(sum(flows))) AS line
         FROM ${table} WHERE exporter_name = 'agg-test'
         GROUP BY time, as_src, as_hnd, as_nxt, as_dst, in_if, protocol`,
      );
      return back.map((r) => r.line).sort();
    };
    const fiveMinutes = expected(300);
    expect(fiveMinutes.length).toBeGreaterThan(100);
    const dropped = rows.filter((r) => r.counted === 1 && r.forwarding_status >> 6 === 2);
    expect(dropped.length).toBeGreaterThan(300);
    // The dropped rows are in the raw records, each with its status.
    const [raw] = await chRows<{ n: number }>(
      stores,
      "SELECT count() AS n FROM flows_raw WHERE exporter_name = 'agg-test' AND counted = 1 AND forwarding_status BETWEEN 128 AND 191",
    );
    expect(Number(raw.n)).toBe(dropped.length);
    expect(await stored("flows_5m")).toEqual(fiveMinutes);
    expect(await stored("flows_1h")).toEqual(expected(3600));
  });
});
