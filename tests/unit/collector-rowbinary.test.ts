/**
 * The RowBinary body without an engine: 64-bit values (negative ASes, counters past 2^32 and 2^53)
 * as little-endian two's complement, IPv6 as 16 bytes in network order, strings with their LEB128
 * UTF-8 length; and the statement the chDB writer session runs for it (names checked, the file quoted).
 */
import { describe, expect, it } from "vitest";
import type { FlowRow } from "~/features/collector/enrich/flow-row";
import { RowBinaryWriter } from "~/features/collector/enrich/flow-row-rowbinary";
import { binaryInsertStatement } from "~/server/clickhouse.server";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const int64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(n);
  return b.toString("hex");
};

const row: FlowRow = {
  time_received: 1_764_000_000,
  exporter_address: "::ffff:192.0.2.1",
  exporter_name: "é",
  sampling_rate: 1,
  ip_version: 4,
  src_addr: "2001:db8::1",
  dst_addr: "::",
  src_prefix_len: 0,
  dst_prefix_len: 0,
  protocol: 6,
  src_port: 443,
  dst_port: 1,
  tcp_flags: 0,
  bytes: 2 ** 53 + 2,
  packets: 2 ** 32 + 1,
  vrf_name: "",
  ingress_router: "",
  in_if: "",
  egress_router: "",
  out_if: "",
  link_start_router: "",
  link_start_if: "",
  link_end_router: "",
  link_end_if: "",
  as_src: -1,
  as_hnd: -101,
  as_nxt: -(2 ** 32),
  as_dst: 4_200_000_000,
  application: "a".repeat(200),
  infrastructure: "",
  in_if_index: 0,
  out_if_index: 0,
  flow_protocol: "netflow9",
  next_hop: "::",
  counted: 1,
  icmp_type: null,
  icmp_code: 3,
  forwarding_status: 0,
  post_nat_src_addr: "::",
  post_nat_dst_addr: "::",
  post_nat_src_port: 0,
  post_nat_dst_port: 0,
  src_vlan: 0,
  src_inner_vlan: 0,
  dst_vlan: 0,
  mpls_labels: [1_048_575],
};

describe("RowBinaryWriter", () => {
  it("writes each column at its width, in FLOW_ROW_COLUMNS order", () => {
    const writer = new RowBinaryWriter(8);
    writer.row(row);
    const body = hex(writer.take());
    const at = (from: string) => body.indexOf(from);
    // time, then the exporter as IPv4-mapped IPv6, then "é" (2 UTF-8 bytes).
    expect(body.startsWith("00812469" + "00000000000000000000ffffc0000201" + "02c3a9")).toBe(true);
    expect(at("20010db8000000000000000000000001")).toBeGreaterThan(0);
    // bytes and packets (UInt64), then the four ASes (Int64) after the nine empty names.
    const counters = int64(2n ** 53n + 2n) + int64(2n ** 32n + 1n) + "00".repeat(9);
    const ases = int64(-1n) + int64(-101n) + int64(-(2n ** 32n)) + int64(4_200_000_000n);
    expect(at(counters + ases)).toBeGreaterThan(0);
    // A 200-byte name: a two-byte LEB128 length (200 = 0xc8 0x01).
    expect(at("c801" + "61".repeat(200))).toBeGreaterThan(0);
    // counted, icmp_type NULL, icmp_code 3, …, then one MPLS label.
    expect(at("01" + "01" + "0003" + "00")).toBeGreaterThan(0);
    expect(body.endsWith("01" + "ffff0f00")).toBe(true);
  });
});

describe("binaryInsertStatement", () => {
  const insert = {
    table: "flows_raw",
    columns: ["a", "b"],
    format: "RowBinary" as const,
    values: new Uint8Array(),
    settings: { optimize_on_insert: 0 },
  };
  it("inserts FROM INFILE with the columns and settings", () => {
    expect(binaryInsertStatement(insert, "/tmp/x/1.bin")).toBe(
      "INSERT INTO flows_raw (a, b) FROM INFILE '/tmp/x/1.bin' SETTINGS optimize_on_insert = 0 FORMAT RowBinary",
    );
    expect(binaryInsertStatement(insert, "/tmp/it's\\x")).toContain("FROM INFILE '/tmp/it\\'s\\\\x'");
  });
  it("refuses names that are not identifiers", () => {
    expect(() => binaryInsertStatement({ ...insert, table: "flows_raw; DROP TABLE x" }, "/f")).toThrow(/not an identifier/);
    expect(() => binaryInsertStatement({ ...insert, columns: ["a b"] }, "/f")).toThrow(/not an identifier/);
  });
});
