/**
 * Writes classic libpcap files (link type Ethernet) of UDP datagrams or TCP segments: tests build
 * their captures with it, and a capture of what a collector received can be written the same way.
 * The header and each record are separate pieces so a capture can be appended to as packets arrive.
 */
import { parseIpAddress, type IpAddress } from "~/lib/ip";

export type DatagramToWrite = {
  /** Unix milliseconds; 0 when not given. */
  timestampMs?: number;
  srcAddr: string;
  srcPort: number;
  dstAddr: string;
  dstPort: number;
  payload: Uint8Array;
  /** 802.1Q tags, outer first (802.1ad for the outer one of two). */
  vlans?: number[];
};

/** One TCP segment; tests write streams with lost, repeated and reordered segments by choosing seq. */
export type SegmentToWrite = {
  /** Unix milliseconds; 0 when not given. */
  timestampMs?: number;
  srcAddr: string;
  srcPort: number;
  dstAddr: string;
  dstPort: number;
  /** Sequence number of the first payload byte (of the SYN when `syn`), taken modulo 2^32. */
  seq: number;
  ack?: number;
  syn?: boolean;
  fin?: boolean;
  rst?: boolean;
  payload?: Uint8Array;
  vlans?: number[];
};

export type PcapWriteOptions = {
  /** The file's byte order; the reader must accept both. Default little-endian, as tcpdump writes on x86. */
  byteOrder?: "little" | "big";
  /** Nanosecond timestamps (magic a1b23c4d) instead of microseconds. */
  nanoseconds?: boolean;
  /** Of the file header; records of datagrams are Ethernet frames, other link types need `pcapFrameRecord`. */
  linkType?: number;
};

const ETHERNET_LINK_TYPE = 1;
const SNAP_LENGTH = 262_144;
const SOURCE_MAC = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01];
const DESTINATION_MAC = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02];

export function pcapFileHeader(options: PcapWriteOptions = {}): Uint8Array {
  const header = new Uint8Array(24);
  const view = new DataView(header.buffer);
  const little = options.byteOrder !== "big";
  view.setUint32(0, options.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, little);
  view.setUint16(4, 2, little);
  view.setUint16(6, 4, little);
  view.setUint32(16, SNAP_LENGTH, little);
  view.setUint32(20, options.linkType ?? ETHERNET_LINK_TYPE, little);
  return header;
}

export function pcapRecord(datagram: DatagramToWrite, options: PcapWriteOptions = {}): Uint8Array {
  return pcapFrameRecord(ethernetFrame(datagram), datagram.timestampMs ?? 0, options);
}

export function tcpPcapRecord(segment: SegmentToWrite, options: PcapWriteOptions = {}): Uint8Array {
  return pcapFrameRecord(ethernetAround(ipTcpPacket(segment), segment.vlans), segment.timestampMs ?? 0, options);
}

/** A record holding any frame, for files of another link type. */
export function pcapFrameRecord(frame: Uint8Array, timestampMs: number, options: PcapWriteOptions = {}): Uint8Array {
  const record = new Uint8Array(16 + frame.length);
  const view = new DataView(record.buffer);
  const little = options.byteOrder !== "big";
  const seconds = Math.floor(timestampMs / 1000);
  const unitsPerMs = options.nanoseconds ? 1e6 : 1e3;
  view.setUint32(0, seconds, little);
  view.setUint32(4, Math.min(Math.round((timestampMs - seconds * 1000) * unitsPerMs), 1000 * unitsPerMs - 1), little);
  view.setUint32(8, frame.length, little);
  view.setUint32(12, frame.length, little);
  record.set(frame, 16);
  return record;
}

export function writePcap(datagrams: DatagramToWrite[], options: PcapWriteOptions = {}): Uint8Array {
  return concat([pcapFileHeader(options), ...datagrams.map((d) => pcapRecord(d, options))]);
}

export function writeTcpPcap(segments: SegmentToWrite[], options: PcapWriteOptions = {}): Uint8Array {
  return concat([pcapFileHeader(options), ...segments.map((s) => tcpPcapRecord(s, options))]);
}

/** Ethernet header (VLAN tags included) around the IP packet. */
export function ethernetFrame(datagram: DatagramToWrite): Uint8Array {
  return ethernetAround(ipUdpPacket(datagram), datagram.vlans);
}

function ethernetAround(packet: Uint8Array, vlans: number[] = []): Uint8Array {
  const tags = vlans.flatMap((vid, i) => {
    const tpid = i === 0 && vlans.length > 1 ? 0x88a8 : 0x8100;
    return [tpid >> 8, tpid & 0xff, (vid >> 8) & 0x0f, vid & 0xff];
  });
  const ethertype = packet[0] >> 4 === 4 ? 0x0800 : 0x86dd;
  return concat([Uint8Array.from([...DESTINATION_MAC, ...SOURCE_MAC, ...tags, ethertype >> 8, ethertype & 0xff]), packet]);
}

/** The IPv4 or IPv6 packet (by the addresses' version) carrying the UDP datagram, checksums filled in. */
export function ipUdpPacket(datagram: DatagramToWrite): Uint8Array {
  const udp = new Uint8Array(8 + datagram.payload.length);
  const view = new DataView(udp.buffer);
  view.setUint16(0, datagram.srcPort);
  view.setUint16(2, datagram.dstPort);
  view.setUint16(4, udp.length);
  udp.set(datagram.payload, 8);
  return ipPacket(datagram.srcAddr, datagram.dstAddr, PROTOCOL_UDP, udp, (sum) => view.setUint16(6, sum || 0xffff));
}

/** The IPv4 or IPv6 packet carrying the TCP segment (a 20-byte header, ACK set when `ack` is given), checksums filled in. */
export function ipTcpPacket(segment: SegmentToWrite): Uint8Array {
  const payload = segment.payload ?? new Uint8Array(0);
  const tcp = new Uint8Array(20 + payload.length);
  const view = new DataView(tcp.buffer);
  view.setUint16(0, segment.srcPort);
  view.setUint16(2, segment.dstPort);
  view.setUint32(4, ((segment.seq % 2 ** 32) + 2 ** 32) % 2 ** 32);
  view.setUint32(8, segment.ack ?? 0);
  tcp[12] = 5 << 4;
  tcp[13] = (segment.fin ? 0x01 : 0) | (segment.syn ? 0x02 : 0) | (segment.rst ? 0x04 : 0) | (segment.ack !== undefined ? 0x10 : 0);
  view.setUint16(14, 65535);
  tcp.set(payload, 20);
  return ipPacket(segment.srcAddr, segment.dstAddr, PROTOCOL_TCP, tcp, (sum) => view.setUint16(16, sum));
}

const PROTOCOL_TCP = 6;
const PROTOCOL_UDP = 17;

/** The IP header for a transport segment; `setChecksum` writes the transport checksum over the pseudo-header. */
function ipPacket(
  srcAddr: string,
  dstAddr: string,
  protocol: number,
  transport: Uint8Array,
  setChecksum: (sum: number) => void,
): Uint8Array {
  const source = address(srcAddr);
  const destination = address(dstAddr);
  if (source.version !== destination.version) throw new Error(`${srcAddr} and ${dstAddr} are not of one IP version`);
  const size = source.version === 4 ? 4 : 16;
  const pseudoHeader = concat([
    bytesOf(source, size),
    bytesOf(destination, size),
    Uint8Array.from([0, protocol, transport.length >> 8, transport.length & 0xff]),
  ]);
  setChecksum(checksum(concat([pseudoHeader, transport])));
  if (source.version === 6) {
    const header = new Uint8Array(40);
    const view = new DataView(header.buffer);
    view.setUint32(0, 0x6000_0000);
    view.setUint16(4, transport.length);
    header[6] = protocol;
    header[7] = 64;
    header.set(bytesOf(source, 16), 8);
    header.set(bytesOf(destination, 16), 24);
    return concat([header, transport]);
  }
  const header = new Uint8Array(20);
  const view = new DataView(header.buffer);
  header[0] = 0x45;
  view.setUint16(2, 20 + transport.length);
  view.setUint16(6, 0x4000); // don't fragment
  header[8] = 64;
  header[9] = protocol;
  header.set(bytesOf(source, 4), 12);
  header.set(bytesOf(destination, 4), 16);
  view.setUint16(10, checksum(header));
  return concat([header, transport]);
}

function address(text: string): IpAddress {
  const parsed = parseIpAddress(text);
  if (!parsed) throw new Error(`${text} is not an IP address`);
  return parsed;
}

function bytesOf(addr: IpAddress, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let value = addr.value;
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
}

/** The Internet checksum (RFC 1071). */
function checksum(bytes: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i] << 8) | (bytes[i + 1] ?? 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
