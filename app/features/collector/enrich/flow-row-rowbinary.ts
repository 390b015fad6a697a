/**
 * FlowRows as ClickHouse RowBinary in FLOW_ROW_COLUMNS order, written straight into bytes: the
 * insert body of the decoding threads on embedded chDB. Parsing the TabSeparated text was most of
 * an insert's CPU there (bench/chdb-insert.ts); RowBinary is read by copying fixed-width values,
 * with nothing to split, unescape or convert.
 *
 * Each value as the column's type stores it (flows_raw, db/clickhouse/): DateTime a UInt32, IPv6 16
 * bytes in network order, integers little-endian at the column's width, (LowCardinality) String a
 * LEB128 length and UTF-8 bytes, Nullable a flag byte (1: NULL) before the value, Array a LEB128
 * count and its elements. The widths below must follow the table: the round-trip test
 * (tests/integration/flow-row-formats.test.ts) inserts the same rows as TabSeparated and as
 * RowBinary and compares every column.
 */
import { parseIpv6, V6_WORDS } from "./address";
import type { FlowRow } from "./flow-row";
import type { FlowRowWriter } from "./flow-row-writer";

const encoder = new TextEncoder();
/** Room for every fixed-width field of a row (about 170 bytes) with margin; texts and arrays reserve their own. */
const FIXED_ROOM = 512;
const TWO_32 = 2 ** 32;

export class RowBinaryWriter implements FlowRowWriter {
  private bytes: Uint8Array;
  private at = 0;
  rows = 0;

  constructor(initialBytes = 64 * 1024) {
    this.bytes = new Uint8Array(initialBytes);
  }

  get length(): number {
    return this.at;
  }

  /** The rows written so far in a buffer of their own (transferable), and a fresh start. */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.at);
    this.at = 0;
    this.rows = 0;
    return out;
  }

  row(r: FlowRow): void {
    this.reserve(FIXED_ROOM);
    this.u32(r.time_received);
    this.ipv6(r.exporter_address);
    this.string(r.exporter_name);
    this.u32(r.sampling_rate);
    this.u8(r.ip_version);
    this.ipv6(r.src_addr);
    this.ipv6(r.dst_addr);
    this.u8(r.src_prefix_len);
    this.u8(r.dst_prefix_len);
    this.u8(r.protocol);
    this.u16(r.src_port);
    this.u16(r.dst_port);
    this.u8(r.tcp_flags);
    this.u64(r.bytes);
    this.u64(r.packets);
    this.string(r.vrf_name);
    this.string(r.ingress_router);
    this.string(r.in_if);
    this.string(r.egress_router);
    this.string(r.out_if);
    this.string(r.link_start_router);
    this.string(r.link_start_if);
    this.string(r.link_end_router);
    this.string(r.link_end_if);
    this.u64(r.as_src);
    this.u64(r.as_hnd);
    this.u64(r.as_nxt);
    this.u64(r.as_dst);
    this.string(r.application);
    this.string(r.infrastructure);
    this.u32(r.in_if_index);
    this.u32(r.out_if_index);
    this.string(r.flow_protocol);
    this.ipv6(r.next_hop);
    this.u8(r.counted);
    this.nullableU8(r.icmp_type);
    this.nullableU8(r.icmp_code);
    this.u8(r.forwarding_status);
    this.ipv6(r.post_nat_src_addr);
    this.ipv6(r.post_nat_dst_addr);
    this.u16(r.post_nat_src_port);
    this.u16(r.post_nat_dst_port);
    this.u16(r.src_vlan);
    this.u16(r.src_inner_vlan);
    this.u16(r.dst_vlan);
    this.u32Array(r.mpls_labels);
    this.rows++;
  }

  private reserve(extra: number): void {
    if (this.at + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + extra));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  /** The low bits of an integer at the column's width (the writers are handed values in range; NaN is written 0). */
  private u8(value: number): void {
    this.bytes[this.at++] = value;
  }

  private u16(value: number): void {
    const b = this.bytes;
    b[this.at++] = value;
    b[this.at++] = value >>> 8;
  }

  private u32(value: number): void {
    const b = this.bytes;
    b[this.at++] = value;
    b[this.at++] = value >>> 8;
    b[this.at++] = value >>> 16;
    b[this.at++] = value >>> 24;
  }

  /** UInt64 and Int64 alike: two's complement in 64 bits, from a double (exact up to 2^53, as the text writer's). */
  private u64(value: number): void {
    const n = Number.isFinite(value) && Math.abs(value) < 2 ** 64 ? Math.trunc(value) : 0;
    // Halves of the magnitude, then negated in 32-bit halves (2^64 + n as a double would round).
    const m = Math.abs(n);
    let high = Math.floor(m / TWO_32);
    let low = m - high * TWO_32;
    if (n < 0) {
      low = -low >>> 0;
      high = (~high + (low === 0 ? 1 : 0)) >>> 0;
    }
    this.u32(low);
    this.u32(high);
  }

  private nullableU8(value: number | null): void {
    if (value === null) {
      this.bytes[this.at++] = 1;
      return;
    }
    this.bytes[this.at++] = 0;
    this.bytes[this.at++] = value;
  }

  /** IPv6 text (IPv4 as ::ffff:a.b.c.d) → its 16 bytes, network order; text that is no address is written "::". */
  private ipv6(text: string): void {
    const b = this.bytes;
    if (!parseIpv6(text)) {
      b.fill(0, this.at, this.at + 16);
      this.at += 16;
      return;
    }
    for (let w = 0; w < 4; w++) {
      const word = V6_WORDS[w];
      b[this.at++] = word >>> 24;
      b[this.at++] = word >>> 16;
      b[this.at++] = word >>> 8;
      b[this.at++] = word;
    }
  }

  private varint(value: number): void {
    const b = this.bytes;
    while (value >= 0x80) {
      b[this.at++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    b[this.at++] = value;
  }

  /** A String: its UTF-8 length and bytes, nothing escaped. */
  private string(text: string): void {
    // Worst case: 3 bytes per UTF-16 unit and a 5-byte length.
    this.reserve(text.length * 3 + 5 + FIXED_ROOM);
    const b = this.bytes;
    if (text.length < 0x80) {
      // Short text (nearly all): ASCII copied after a one-byte length, else encoded below.
      const start = this.at;
      b[this.at++] = text.length;
      let i = 0;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        b[this.at++] = c;
      }
      if (i === text.length) return;
      this.at = start;
    }
    const encoded = encoder.encode(text);
    this.varint(encoded.length);
    this.bytes.set(encoded, this.at);
    this.at += encoded.length;
  }

  private u32Array(values: readonly number[]): void {
    this.reserve(values.length * 4 + 5 + FIXED_ROOM);
    this.varint(values.length);
    for (let i = 0; i < values.length; i++) this.u32(values[i]);
  }
}
