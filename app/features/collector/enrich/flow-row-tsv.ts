/**
 * FlowRows as ClickHouse TabSeparated text in FLOW_ROW_COLUMNS order, written straight into bytes:
 * what the decoding threads hand the main thread as the body of an insert (one transferred buffer
 * per batch), so the main thread neither clones rows nor encodes them.
 *
 * TabSeparated is what a ClickHouse server is sent (the client's inserts take text formats); on
 * embedded chDB the threads write RowBinary instead (flow-row-rowbinary.ts). Numbers are decimal integers,
 * addresses text (IPv6 columns read "::ffff:a.b.c.d"), DateTime Unix seconds, NULL \N; strings are escaped
 * as ClickHouse reads them (\t \n \r \\ \0 \b \f). Written byte by byte rather than as a JS string
 * encoded at the end: building and encoding one large string per batch cost more than decoding.
 */
import type { FlowRow } from "./flow-row";
import type { FlowRowWriter } from "./flow-row-writer";

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
/** The letter after the backslash of each character that must be escaped, by character code. */
const ESCAPE = new Uint8Array(128);
ESCAPE[0] = 48; // \0
ESCAPE[8] = 98; // \b
ESCAPE[9] = 116; // \t
ESCAPE[10] = 110; // \n
ESCAPE[12] = 102; // \f
ESCAPE[13] = 114; // \r
ESCAPE[92] = 92; // \\

const encoder = new TextEncoder();
/**
 * Room for every number field of a row (27 of at most 21 characters and a tab) and its separators:
 * reserved at the row's start and again after each text or array, whose own reserve may end at the
 * buffer's end — the numbers that follow are written unchecked.
 */
const NUMBERS_ROOM = 1024;

export class TsvWriter implements FlowRowWriter {
  private bytes: Uint8Array;
  private at = 0;
  rows = 0;

  constructor(initialBytes = 64 * 1024) {
    this.bytes = new Uint8Array(initialBytes);
  }

  get length(): number {
    return this.at;
  }

  /** The text written so far in a buffer of its own (transferable), and a fresh start. */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.at);
    this.at = 0;
    this.rows = 0;
    return out;
  }

  row(r: FlowRow): void {
    // Room for the numbers and separators; texts and arrays reserve their own.
    this.reserve(NUMBERS_ROOM);
    this.int(r.time_received);
    this.ascii(r.exporter_address);
    this.string(r.exporter_name);
    this.int(r.sampling_rate);
    this.int(r.ip_version);
    this.ascii(r.src_addr);
    this.ascii(r.dst_addr);
    this.int(r.src_prefix_len);
    this.int(r.dst_prefix_len);
    this.int(r.protocol);
    this.int(r.src_port);
    this.int(r.dst_port);
    this.int(r.tcp_flags);
    this.int(r.bytes);
    this.int(r.packets);
    this.string(r.vrf_name);
    this.string(r.ingress_router);
    this.string(r.in_if);
    this.string(r.egress_router);
    this.string(r.out_if);
    this.string(r.link_start_router);
    this.string(r.link_start_if);
    this.string(r.link_end_router);
    this.string(r.link_end_if);
    this.int(r.as_src);
    this.int(r.as_hnd);
    this.int(r.as_nxt);
    this.int(r.as_dst);
    this.string(r.application);
    this.string(r.infrastructure);
    this.int(r.in_if_index);
    this.int(r.out_if_index);
    this.ascii(r.flow_protocol);
    this.ascii(r.next_hop);
    this.int(r.counted);
    this.nullableInt(r.icmp_type);
    this.nullableInt(r.icmp_code);
    this.int(r.forwarding_status);
    this.ascii(r.post_nat_src_addr);
    this.ascii(r.post_nat_dst_addr);
    this.int(r.post_nat_src_port);
    this.int(r.post_nat_dst_port);
    this.int(r.src_vlan);
    this.int(r.src_inner_vlan);
    this.int(r.dst_vlan);
    this.intArray(r.mpls_labels);
    // The last field's tab becomes the row's newline.
    this.bytes[this.at - 1] = NEWLINE;
    this.rows++;
  }

  private reserve(extra: number): void {
    if (this.at + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + extra));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  /** An integer and its tab; a value that is none (a fault upstream) is written 0 rather than failing the whole insert. */
  private int(value: number): void {
    let n = Number.isSafeInteger(value) ? value : Number.isFinite(value) && Math.abs(value) < 2 ** 64 ? Math.trunc(value) : 0;
    const b = this.bytes;
    if (n < 0) {
      b[this.at++] = 45; // -
      n = -n;
    }
    if (n > Number.MAX_SAFE_INTEGER) {
      // Only a truncated value beyond 2^53 (a 64-bit counter): the exact decimal value of the double.
      const text = BigInt(n).toString();
      for (let i = 0; i < text.length; i++) b[this.at++] = text.charCodeAt(i);
    } else this.digits(n);
    b[this.at++] = TAB;
  }

  /** A Nullable column: null as ClickHouse's \N. */
  private nullableInt(value: number | null): void {
    if (value !== null) return this.int(value);
    this.bytes[this.at++] = BACKSLASH;
    this.bytes[this.at++] = 78; // N
    this.bytes[this.at++] = TAB;
  }

  /** An Array column as TabSeparated writes it, "[1,2,3]" ("[]" empty), and its tab. */
  private intArray(values: readonly number[]): void {
    // The brackets and up to 21 characters and a comma per element.
    this.reserve(values.length * 22 + 3 + NUMBERS_ROOM);
    this.bytes[this.at++] = 91; // [
    for (let i = 0; i < values.length; i++) {
      // int() ends with a tab; the element separator takes its place.
      this.int(values[i]);
      this.bytes[this.at - 1] = 44; // ,
    }
    if (values.length > 0) this.at--;
    this.bytes[this.at++] = 93; // ]
    this.bytes[this.at++] = TAB;
  }

  private digits(n: number): void {
    const b = this.bytes;
    if (n < 10) {
      b[this.at++] = 48 + n;
      return;
    }
    if (n < 2 ** 31) {
      // Small integers (nearly every field): 32-bit integer arithmetic, much cheaper than Math.floor on doubles.
      let length = 2;
      for (let v = (n / 100) | 0; v > 0; v = (v / 10) | 0) length++;
      let at = this.at + length;
      this.at = at;
      for (let v = n; v > 0; v = (v / 10) | 0) b[--at] = 48 + (v % 10);
      return;
    }
    let length = 1;
    for (let v = n; v >= 10; v = Math.floor(v / 10)) length++;
    let at = this.at + length;
    this.at = at;
    for (let v = n; at > this.at - length; v = Math.floor(v / 10)) b[--at] = 48 + (v % 10);
  }

  /** Text known to be plain ASCII without characters to escape (addresses, protocol names), and its tab. */
  private ascii(text: string): void {
    this.reserve(text.length + 1 + NUMBERS_ROOM);
    const b = this.bytes;
    for (let i = 0; i < text.length; i++) b[this.at++] = text.charCodeAt(i);
    b[this.at++] = TAB;
  }

  /** A string field, escaped, UTF-8, and its tab: names come from the inventory and may hold anything. */
  private string(text: string): void {
    // Worst case: 3 bytes per UTF-16 unit, or 2 per escaped character.
    this.reserve(text.length * 3 + 1 + NUMBERS_ROOM);
    const b = this.bytes;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) {
        this.unicode(text, i);
        return;
      }
      const escape = ESCAPE[c];
      if (escape !== 0 || c === 0) {
        b[this.at++] = BACKSLASH;
        b[this.at++] = escape;
      } else b[this.at++] = c;
    }
    b[this.at++] = TAB;
  }

  /** The rest of a string from its first non-ASCII character: escaped as text, then UTF-8 encoded. */
  private unicode(text: string, from: number): void {
    const rest = text.slice(from).replace(/[\t\n\r\\\0\b\f]/g, (c) => `\\${String.fromCharCode(ESCAPE[c.charCodeAt(0)])}`);
    this.reserve(rest.length * 3 + 1 + NUMBERS_ROOM);
    this.at += encoder.encodeInto(rest, this.bytes.subarray(this.at)).written;
    this.bytes[this.at++] = TAB;
  }
}
