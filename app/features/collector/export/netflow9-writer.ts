/**
 * Builds NetFlow v9 export packets (RFC 3954) as a router's flow exporter does: a 20-byte header
 * (record count, sysUptime, Unix seconds, a packet sequence per source id, the source id), the
 * template flowset with an IPv4 and an IPv6 template, and data flowsets padded to 4 bytes. The
 * templates go out with the first packet and again every N packets or T seconds, because a
 * collector that starts (or restarts) after the exporter learns them only from a refresh.
 *
 * Pure: no sockets and no clock. The caller hands in the time; the writer keeps only the state an
 * exporter keeps per source id (sequence, when the templates were last sent).
 */
import { parseIpAddress } from "~/lib/ip";

/** One flow as the exporter's cache hands it over; times are Unix milliseconds, counters as sampled. */
export type ExportFlow = {
  ipVersion: 4 | 6;
  srcAddr: string;
  dstAddr: string;
  srcPrefixLen: number;
  dstPrefixLen: number;
  srcPort: number;
  dstPort: number;
  /** IP protocol number (6 TCP, 17 UDP …). */
  protocol: number;
  tcpFlags: number;
  bytes: number;
  packets: number;
  inIfIndex: number;
  outIfIndex: number;
  srcAs: number;
  dstAs: number;
  /** Of the flow's IP version; null is sent as the unspecified address, as routers do for local routes. */
  bgpNextHop: string | null;
  firstSwitchedMs: number;
  lastSwitchedMs: number;
  /** 0 ingress, 1 egress. */
  direction: 0 | 1;
  /** 1 in N packets sampled. */
  samplingInterval: number;
};

export type Netflow9WriterOptions = {
  /** The header's source id: one per exporting device (or line card) of an address. */
  sourceId: number;
  /** When the exporting device booted (Unix ms): sysUptime and FIRST/LAST_SWITCHED count from it. */
  bootTimeMs: number;
  /** Template ids of the IPv4 and IPv6 records (≥ 256). */
  templateIds?: { ipv4: number; ipv6: number };
  /** Resend the templates with every Nth packet … */
  templateEveryPackets?: number;
  /** … or when this many seconds have passed since they were last sent, whichever comes first. */
  templateEverySeconds?: number;
  /** Largest UDP payload: packets stay below a 1500-byte path MTU with headers. */
  maxPacketBytes?: number;
};

export const NETFLOW9_DEFAULTS = {
  templateIds: { ipv4: 256, ipv6: 257 },
  templateEveryPackets: 20,
  templateEverySeconds: 30,
  maxPacketBytes: 1400,
} as const;

/** RFC 3954 field type numbers of the records written. */
export const V9_FIELD = {
  IN_BYTES: 1,
  IN_PKTS: 2,
  PROTOCOL: 4,
  TCP_FLAGS: 6,
  L4_SRC_PORT: 7,
  IPV4_SRC_ADDR: 8,
  SRC_MASK: 9,
  INPUT_SNMP: 10,
  L4_DST_PORT: 11,
  IPV4_DST_ADDR: 12,
  DST_MASK: 13,
  OUTPUT_SNMP: 14,
  SRC_AS: 16,
  DST_AS: 17,
  BGP_IPV4_NEXT_HOP: 18,
  LAST_SWITCHED: 21,
  FIRST_SWITCHED: 22,
  IPV6_SRC_ADDR: 27,
  IPV6_DST_ADDR: 28,
  IPV6_SRC_MASK: 29,
  IPV6_DST_MASK: 30,
  SAMPLING_INTERVAL: 34,
  IP_PROTOCOL_VERSION: 60,
  DIRECTION: 61,
  BGP_IPV6_NEXT_HOP: 63,
} as const;

type FieldWriter = (view: DataView, at: number, flow: ExportFlow, times: { first: number; last: number }) => void;
type Field = { type: number; length: number; write: FieldWriter };

const u8 =
  (pick: (f: ExportFlow) => number): FieldWriter =>
  (view, at, flow) =>
    view.setUint8(at, pick(flow) & 0xff);
const u16 =
  (pick: (f: ExportFlow) => number): FieldWriter =>
  (view, at, flow) =>
    view.setUint16(at, pick(flow) & 0xffff);
// Counters, ifIndexes and AS numbers saturate rather than wrap: a wrapped counter would be a small, wrong figure.
const u32 =
  (pick: (f: ExportFlow) => number): FieldWriter =>
  (view, at, flow) =>
    view.setUint32(at, clamp32(pick(flow)));
const address =
  (version: 4 | 6, pick: (f: ExportFlow) => string | null): FieldWriter =>
  (view, at, flow) =>
    writeAddress(view, at, version, pick(flow));

function clamp32(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), 0xffffffff);
}

function writeAddress(view: DataView, at: number, version: 4 | 6, text: string | null): void {
  const parsed = text === null ? null : parseIpAddress(text);
  // An address of the other family (or none) is written as the unspecified address of this one.
  let value = parsed && parsed.version === version ? parsed.value : 0n;
  const bytes = version === 4 ? 4 : 16;
  for (let i = bytes - 1; i >= 0; i--) {
    view.setUint8(at + i, Number(value & 0xffn));
    value >>= 8n;
  }
}

/** Fields both templates share, in the order a record carries them; the addresses differ per family. */
function templateFields(version: 4 | 6): Field[] {
  const v4 = version === 4;
  const addressLength = v4 ? 4 : 16;
  return [
    { type: V9_FIELD.IN_BYTES, length: 4, write: u32((f) => f.bytes) },
    { type: V9_FIELD.IN_PKTS, length: 4, write: u32((f) => f.packets) },
    { type: V9_FIELD.PROTOCOL, length: 1, write: u8((f) => f.protocol) },
    { type: V9_FIELD.TCP_FLAGS, length: 1, write: u8((f) => f.tcpFlags) },
    { type: V9_FIELD.L4_SRC_PORT, length: 2, write: u16((f) => f.srcPort) },
    { type: v4 ? V9_FIELD.IPV4_SRC_ADDR : V9_FIELD.IPV6_SRC_ADDR, length: addressLength, write: address(version, (f) => f.srcAddr) },
    { type: v4 ? V9_FIELD.SRC_MASK : V9_FIELD.IPV6_SRC_MASK, length: 1, write: u8((f) => f.srcPrefixLen) },
    { type: V9_FIELD.INPUT_SNMP, length: 4, write: u32((f) => f.inIfIndex) },
    { type: V9_FIELD.L4_DST_PORT, length: 2, write: u16((f) => f.dstPort) },
    { type: v4 ? V9_FIELD.IPV4_DST_ADDR : V9_FIELD.IPV6_DST_ADDR, length: addressLength, write: address(version, (f) => f.dstAddr) },
    { type: v4 ? V9_FIELD.DST_MASK : V9_FIELD.IPV6_DST_MASK, length: 1, write: u8((f) => f.dstPrefixLen) },
    { type: V9_FIELD.OUTPUT_SNMP, length: 4, write: u32((f) => f.outIfIndex) },
    { type: V9_FIELD.SRC_AS, length: 4, write: u32((f) => f.srcAs) },
    { type: V9_FIELD.DST_AS, length: 4, write: u32((f) => f.dstAs) },
    {
      type: v4 ? V9_FIELD.BGP_IPV4_NEXT_HOP : V9_FIELD.BGP_IPV6_NEXT_HOP,
      length: addressLength,
      write: address(version, (f) => f.bgpNextHop),
    },
    { type: V9_FIELD.LAST_SWITCHED, length: 4, write: (view, at, _flow, times) => view.setUint32(at, times.last) },
    { type: V9_FIELD.FIRST_SWITCHED, length: 4, write: (view, at, _flow, times) => view.setUint32(at, times.first) },
    { type: V9_FIELD.SAMPLING_INTERVAL, length: 4, write: u32((f) => f.samplingInterval) },
    { type: V9_FIELD.IP_PROTOCOL_VERSION, length: 1, write: u8((f) => f.ipVersion) },
    { type: V9_FIELD.DIRECTION, length: 1, write: u8((f) => f.direction) },
  ];
}

const FIELDS = { 4: templateFields(4), 6: templateFields(6) } as const;
const RECORD_LENGTH = {
  4: FIELDS[4].reduce((sum, f) => sum + f.length, 0),
  6: FIELDS[6].reduce((sum, f) => sum + f.length, 0),
} as const;

const HEADER_LENGTH = 20;
const SET_HEADER_LENGTH = 4;
const TEMPLATE_FLOWSET_ID = 0;
const VERSION = 9;

const padded = (length: number) => (length + 3) & ~3;
/** The template flowset: its header, then per template its id, field count and (type, length) pairs. */
const TEMPLATE_SET_LENGTH = SET_HEADER_LENGTH + (4 + FIELDS[4].length * 4) + (4 + FIELDS[6].length * 4);

/** Record length of each template: what a caller needs to size packets (tests, capacity estimates). */
export const NETFLOW9_RECORD_LENGTH = RECORD_LENGTH;

export class Netflow9Writer {
  readonly sourceId: number;
  private readonly bootTimeMs: number;
  private readonly ids: { ipv4: number; ipv6: number };
  private readonly everyPackets: number;
  private readonly everyMs: number;
  private readonly maxBytes: number;
  private sequence = 0;
  private packetsSinceTemplates = Infinity;
  private templatesSentAtMs = -Infinity;

  constructor(options: Netflow9WriterOptions) {
    this.sourceId = options.sourceId >>> 0;
    this.bootTimeMs = options.bootTimeMs;
    this.ids = options.templateIds ?? NETFLOW9_DEFAULTS.templateIds;
    if (this.ids.ipv4 < 256 || this.ids.ipv6 < 256 || this.ids.ipv4 === this.ids.ipv6 || this.ids.ipv4 > 0xffff || this.ids.ipv6 > 0xffff)
      throw new RangeError("NetFlow v9 template ids must be two different numbers from 256 to 65535");
    this.everyPackets = Math.max(1, options.templateEveryPackets ?? NETFLOW9_DEFAULTS.templateEveryPackets);
    this.everyMs = Math.max(0, options.templateEverySeconds ?? NETFLOW9_DEFAULTS.templateEverySeconds) * 1000;
    this.maxBytes = options.maxPacketBytes ?? NETFLOW9_DEFAULTS.maxPacketBytes;
    if (this.maxBytes < HEADER_LENGTH + TEMPLATE_SET_LENGTH + SET_HEADER_LENGTH + RECORD_LENGTH[6])
      throw new RangeError(`a NetFlow v9 packet of ${this.maxBytes} bytes cannot hold the templates and one record`);
  }

  /** The sequence number the next packet will carry. */
  get nextSequence(): number {
    return this.sequence;
  }

  /** The next packet carries the templates whatever the refresh counters say (e.g. after the collector restarted). */
  resendTemplates(): void {
    this.packetsSinceTemplates = Infinity;
  }

  private templatesDue(nowMs: number): boolean {
    return this.packetsSinceTemplates >= this.everyPackets || nowMs - this.templatesSentAtMs >= this.everyMs;
  }

  /**
   * The packets that carry `flows`, in order, as many as their size needs. With no flow, a packet
   * with only the templates when their refresh is due, else none.
   */
  write(flows: readonly ExportFlow[], nowMs: number): Uint8Array[] {
    const packets: Uint8Array[] = [];
    let next = 0;
    do {
      const withTemplates = this.templatesDue(nowMs);
      if (next >= flows.length && !withTemplates) break;
      let room = this.maxBytes - HEADER_LENGTH - (withTemplates ? TEMPLATE_SET_LENGTH : 0);
      // Greedy: as many records as fit, each family in its own data flowset (opened when its first record comes).
      const taken: ExportFlow[] = [];
      const open = { 4: false, 6: false };
      while (next < flows.length) {
        const version = flows[next].ipVersion === 6 ? 6 : 4;
        // Padding is at most 3 bytes per set; reserving it keeps the estimate an upper bound.
        const cost = RECORD_LENGTH[version] + (open[version] ? 0 : SET_HEADER_LENGTH + 3);
        if (cost > room) break;
        room -= cost;
        open[version] = true;
        taken.push(flows[next++]);
      }
      packets.push(this.packet(taken, nowMs, withTemplates));
    } while (next < flows.length);
    return packets;
  }

  private packet(flows: readonly ExportFlow[], nowMs: number, withTemplates: boolean): Uint8Array {
    const byVersion = { 4: flows.filter((f) => f.ipVersion !== 6), 6: flows.filter((f) => f.ipVersion === 6) };
    const dataSetLength = (version: 4 | 6) =>
      byVersion[version].length ? padded(SET_HEADER_LENGTH + byVersion[version].length * RECORD_LENGTH[version]) : 0;
    const length = HEADER_LENGTH + (withTemplates ? TEMPLATE_SET_LENGTH : 0) + dataSetLength(4) + dataSetLength(6);
    const bytes = new Uint8Array(length);
    const view = new DataView(bytes.buffer);
    // sysUptime and the Unix seconds name the same instant, so a collector computes flow times exactly.
    const exportMs = Math.floor(nowMs / 1000) * 1000;
    view.setUint16(0, VERSION);
    view.setUint16(2, (withTemplates ? 2 : 0) + flows.length);
    view.setUint32(4, this.uptime(exportMs));
    view.setUint32(8, exportMs / 1000);
    view.setUint32(12, this.sequence);
    view.setUint32(16, this.sourceId);
    let at = HEADER_LENGTH;
    if (withTemplates) at = this.writeTemplates(view, at);
    for (const version of [4, 6] as const) {
      if (!byVersion[version].length) continue;
      const start = at;
      view.setUint16(at, version === 4 ? this.ids.ipv4 : this.ids.ipv6);
      view.setUint16(at + 2, dataSetLength(version));
      at += SET_HEADER_LENGTH;
      for (const flow of byVersion[version]) {
        const times = { first: this.uptime(flow.firstSwitchedMs), last: this.uptime(flow.lastSwitchedMs) };
        for (const field of FIELDS[version]) {
          field.write(view, at, flow, times);
          at += field.length;
        }
      }
      at = start + dataSetLength(version); // the padding bytes are already zero
    }
    this.sequence = (this.sequence + 1) >>> 0;
    if (withTemplates) {
      this.packetsSinceTemplates = 1;
      this.templatesSentAtMs = nowMs;
    } else this.packetsSinceTemplates += 1;
    return bytes;
  }

  private writeTemplates(view: DataView, start: number): number {
    view.setUint16(start, TEMPLATE_FLOWSET_ID);
    view.setUint16(start + 2, TEMPLATE_SET_LENGTH);
    let at = start + SET_HEADER_LENGTH;
    for (const [id, fields] of [
      [this.ids.ipv4, FIELDS[4]],
      [this.ids.ipv6, FIELDS[6]],
    ] as const) {
      view.setUint16(at, id);
      view.setUint16(at + 2, fields.length);
      at += 4;
      for (const field of fields) {
        view.setUint16(at, field.type);
        view.setUint16(at + 2, field.length);
        at += 4;
      }
    }
    return at;
  }

  /** Milliseconds since boot on the exporter's 32-bit uptime counter (it wraps after 49.7 days, as on a router). */
  private uptime(ms: number): number {
    return Math.floor(ms - this.bootTimeMs) >>> 0;
  }
}
