/**
 * What the decoding threads write for the store, without an engine: IPv6 text of decoded
 * addresses (the same as app/lib/ip's RFC 5952 formatter), FlowRows as TabSeparated bytes
 * (escaping, UTF-8, integers of every size), and the raw insert of the query door as a server
 * client receives it (a byte stream, the format and the columns, nothing re-encoded).
 */
import type { ClickHouseClient } from "@clickhouse/client";
import fc from "fast-check";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ipv6At } from "~/features/collector/decode/packet-address";
import { FLOW_ROW_COLUMNS, type FlowRow } from "~/features/collector/enrich/flow-row";
import { TsvWriter } from "~/features/collector/enrich/flow-row-tsv";
import { chInsertRaw, openQueryDoor } from "~/server/clickhouse/query.server";
import { formatIpv6 } from "~/lib/ip";

const baseRow: FlowRow = {
  time_received: 1_764_000_000,
  exporter_address: "::ffff:192.0.2.1",
  exporter_name: "fra-er1",
  sampling_rate: 1000,
  ip_version: 4,
  src_addr: "::ffff:8.8.8.8",
  dst_addr: "2001:db8::1",
  src_prefix_len: 24,
  dst_prefix_len: 48,
  protocol: 6,
  src_port: 443,
  dst_port: 51234,
  tcp_flags: 0x18,
  bytes: 1500,
  packets: 1,
  vrf_name: "",
  ingress_router: "fra-er1",
  in_if: "xe-0/0/1",
  egress_router: "",
  out_if: "",
  link_start_router: "",
  link_start_if: "",
  link_end_router: "",
  link_end_if: "",
  as_src: 15169,
  as_hnd: -999,
  as_nxt: -1,
  as_dst: 64500,
  application: "Google",
  infrastructure: "",
  in_if_index: 10,
  out_if_index: 0,
  flow_protocol: "ipfix",
  next_hop: "::",
  counted: 1,
  icmp_type: 3,
  icmp_code: 13,
  forwarding_status: 0x40,
  post_nat_src_addr: "::ffff:198.51.100.7",
  post_nat_dst_addr: "::",
  post_nat_src_port: 61_000,
  post_nat_dst_port: 0,
  src_vlan: 100,
  src_inner_vlan: 2001,
  dst_vlan: 4094,
  mpls_labels: [299_792, 16, 1_048_575],
};

/** A field as TabSeparated text, written independently of the writer: an array as [a,b,c]. */
const fieldText = (value: FlowRow[keyof FlowRow]) => (Array.isArray(value) ? `[${value.join(",")}]` : String(value));

function tsv(rows: FlowRow[]): string {
  const writer = new TsvWriter(16);
  for (const row of rows) writer.row(row);
  expect(writer.rows).toBe(rows.length);
  return new TextDecoder().decode(writer.take());
}

describe("IPv6 text of decoded addresses", () => {
  it("is app/lib/ip's RFC 5952 form for any 16 bytes, zero runs and IPv4-mapped addresses included", () => {
    const group = fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const bytes = new Uint8Array(18);
        groups.forEach((g, i) => ((bytes[1 + 2 * i] = g >> 8), (bytes[2 + 2 * i] = g & 255)));
        const value = groups.reduce((v, g) => (v << 16n) | BigInt(g), 0n);
        expect(ipv6At(bytes, 1)).toBe(formatIpv6(value));
      }),
      { numRuns: 3000 },
    );
    const mapped = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 0, 0, 1]);
    expect(ipv6At(mapped, 0)).toBe("::ffff:10.0.0.1");
    expect(ipv6At(new Uint8Array(16), 0)).toBe("::");
  });
});

describe("FlowRows as TabSeparated", () => {
  it("writes one line per row, the columns in FLOW_ROW_COLUMNS order", () => {
    const [line, end] = tsv([baseRow]).split("\n");
    expect(end).toBe("");
    expect(line.split("\t")).toEqual(FLOW_ROW_COLUMNS.map((c) => fieldText(baseRow[c])));
    expect(line.endsWith("\t100\t2001\t4094\t[299792,16,1048575]")).toBe(true);
  });

  it("writes the MPLS labels as an array, [] when empty, one label without a comma, the deepest stack whole", () => {
    const labels = (mpls_labels: number[]) =>
      tsv([{ ...baseRow, mpls_labels }])
        .split("\n")[0]
        .split("\t")[FLOW_ROW_COLUMNS.indexOf("mpls_labels")];
    expect(labels([])).toBe("[]");
    expect(labels([0])).toBe("[0]");
    expect(labels([3, 0])).toBe("[3,0]");
    const deep = Array.from({ length: 16 }, (_, i) => 1_048_575 - i);
    expect(labels(deep)).toBe(`[${deep.join(",")}]`);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 20 - 1 }), { maxLength: 16 }), (stack) => {
        expect(labels(stack)).toBe(`[${stack.join(",")}]`);
      }),
    );
  });

  it("keeps every field after a text longer than its buffer, also one that is all three-byte characters", () => {
    // The text's own reserve ends at the buffer's end; the numbers and the array after it need room too.
    for (const text of ["東".repeat(5_000), "x".repeat(20_000), "é\t".repeat(3_000)]) {
      const row = { ...baseRow, infrastructure: text };
      const writer = new TsvWriter(16);
      writer.row(row);
      writer.row(baseRow);
      const [first, second, end] = new TextDecoder().decode(writer.take()).split("\n");
      expect(end).toBe("");
      const fields = first.split("\t");
      expect(fields).toHaveLength(FLOW_ROW_COLUMNS.length);
      expect(fields.slice(FLOW_ROW_COLUMNS.indexOf("infrastructure") + 1)).toEqual(
        FLOW_ROW_COLUMNS.slice(FLOW_ROW_COLUMNS.indexOf("infrastructure") + 1).map((c) => fieldText(row[c])),
      );
      expect(second.split("\t")).toEqual(FLOW_ROW_COLUMNS.map((c) => fieldText(baseRow[c])));
    }
  });

  it("writes an absent ICMP type and code as \\N, ClickHouse's NULL", () => {
    const [line] = tsv([{ ...baseRow, icmp_type: null, icmp_code: null }]).split("\n");
    const fields = line.split("\t");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("icmp_type")]).toBe("\\N");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("icmp_code")]).toBe("\\N");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("forwarding_status")]).toBe("64");
    expect(fields).toHaveLength(FLOW_ROW_COLUMNS.length);
  });

  it("escapes what TabSeparated must escape and writes other text as UTF-8", () => {
    const row = { ...baseRow, exporter_name: "a\tb\nc\\d\re\0f", in_if: "Gi0/1 — Zürich 東京", application: "x\ty—z\n" };
    const [line] = tsv([row]).split("\n");
    const fields = line.split("\t");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("exporter_name")]).toBe("a\\tb\\nc\\\\d\\re\\0f");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("in_if")]).toBe("Gi0/1 — Zürich 東京");
    expect(fields[FLOW_ROW_COLUMNS.indexOf("application")]).toBe("x\\ty—z\\n");
    expect(fields).toHaveLength(FLOW_ROW_COLUMNS.length);
  });

  it("writes integers of every size exactly, negative ones too; a non-integer is cut, a non-number is 0", () => {
    const cases: [number, string][] = [
      [0, "0"],
      [9, "9"],
      [10, "10"],
      [4_294_967_295, "4294967295"],
      [4_294_967_296, "4294967296"],
      [12_345_678_901_234, "12345678901234"],
      [Number.MAX_SAFE_INTEGER, "9007199254740991"],
      [2 ** 63, "9223372036854775808"],
      [-999, "-999"],
      [1.9, "1"],
      [NaN, "0"],
      [Infinity, "0"],
    ];
    const text = tsv(cases.map(([bytes]) => ({ ...baseRow, bytes })));
    const column = FLOW_ROW_COLUMNS.indexOf("bytes");
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => l.split("\t")[column]),
    ).toEqual(cases.map(([, s]) => s));
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), (n) => {
        expect(tsv([{ ...baseRow, as_src: n }]).split("\t")[FLOW_ROW_COLUMNS.indexOf("as_src")]).toBe(String(n));
      }),
    );
  });

  it("grows past its first buffer and starts afresh after take()", () => {
    const writer = new TsvWriter(8);
    const long = { ...baseRow, in_if: "x".repeat(10_000) };
    for (let i = 0; i < 50; i++) writer.row(i % 2 ? long : baseRow);
    const first = new TextDecoder().decode(writer.take());
    expect(first.split("\n")).toHaveLength(51);
    expect(writer.rows).toBe(0);
    writer.row(baseRow);
    expect(new TextDecoder().decode(writer.take())).toBe(tsv([baseRow]));
  });
});

describe("chInsertRaw", () => {
  it("hands a ClickHouse server client the bytes as a byte stream with the format and columns, and times the call", async () => {
    const calls: { table: string; format: string; columns: string[]; settings: unknown; body: Buffer; objectMode: boolean }[] = [];
    const client = {
      insert: async (p: { table: string; format: string; columns: string[]; values: Readable; clickhouse_settings: unknown }) => {
        const chunks: Buffer[] = [];
        for await (const chunk of p.values) chunks.push(Buffer.from(chunk as Uint8Array));
        calls.push({
          table: p.table,
          format: p.format,
          columns: p.columns,
          settings: p.clickhouse_settings,
          body: Buffer.concat(chunks),
          objectMode: p.values.readableObjectMode,
        });
      },
    } as unknown as ClickHouseClient;
    const limits = { global: 2, perUser: 1, queue: 4, queuePerUser: 2, maxWaitMs: 1000, maxExecutionSeconds: 7 };
    const ch = openQueryDoor({ client, kind: "clickhouse", database: "flowlens", close: async () => {} }, limits, {
      identify: async () => "user:1",
      databases: async () => ({}) as never,
    });
    const encoder = new TextEncoder();
    await chInsertRaw(ch, {
      name: "test.raw",
      table: "t",
      columns: ["a", "b"],
      format: "TabSeparated",
      body: [encoder.encode("1\tx\n"), encoder.encode("2\ty\\tz\n")],
      rows: 2,
    });
    expect(calls).toEqual([
      {
        table: "t",
        format: "TabSeparated",
        columns: ["a", "b"],
        settings: expect.objectContaining({ max_execution_time: 0 }),
        body: Buffer.from("1\tx\n2\ty\\tz\n"),
        objectMode: false,
      },
    ]);
  });
});
