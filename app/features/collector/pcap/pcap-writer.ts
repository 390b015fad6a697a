/**
 * Writes classic libpcap files (link type Ethernet) of UDP datagrams: tests build their captures
 * with it, and a capture of what a collector received can be written the same way. The header and
 * each record are separate pieces so a capture can be appended to as datagrams arrive.
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

/** Ethernet header (VLAN tags included) around the IP packet. */
export function ethernetFrame(datagram: DatagramToWrite): Uint8Array {
  const packet = ipUdpPacket(datagram);
  const vlans = datagram.vlans ?? [];
  const tags = vlans.flatMap((vid, i) => {
    const tpid = i === 0 && vlans.length > 1 ? 0x88a8 : 0x8100;
    return [tpid >> 8, tpid & 0xff, (vid >> 8) & 0x0f, vid & 0xff];
  });
  const ethertype = packet[0] >> 4 === 4 ? 0x0800 : 0x86dd;
  return concat([Uint8Array.from([...DESTINATION_MAC, ...SOURCE_MAC, ...tags, ethertype >> 8, ethertype & 0xff]), packet]);
}

/** The IPv4 or IPv6 packet (by the addresses' version) carrying the UDP datagram, checksums filled in. */
export function ipUdpPacket(datagram: DatagramToWrite): Uint8Array {
  const source = address(datagram.srcAddr);
  const destination = address(datagram.dstAddr);
  if (source.version !== destination.version) throw new Error(`${datagram.srcAddr} and ${datagram.dstAddr} are not of one IP version`);
  const size = source.version === 4 ? 4 : 16;
  const udp = new Uint8Array(8 + datagram.payload.length);
  const udpView = new DataView(udp.buffer);
  udpView.setUint16(0, datagram.srcPort);
  udpView.setUint16(2, datagram.dstPort);
  udpView.setUint16(4, udp.length);
  udp.set(datagram.payload, 8);
  const pseudoHeader = concat([
    bytesOf(source, size),
    bytesOf(destination, size),
    Uint8Array.from([0, 17, udp.length >> 8, udp.length & 0xff]),
  ]);
  udpView.setUint16(6, checksum(concat([pseudoHeader, udp])) || 0xffff);
  if (source.version === 6) {
    const header = new Uint8Array(40);
    const view = new DataView(header.buffer);
    view.setUint32(0, 0x6000_0000);
    view.setUint16(4, udp.length);
    header[6] = 17;
    header[7] = 64;
    header.set(bytesOf(source, 16), 8);
    header.set(bytesOf(destination, 16), 24);
    return concat([header, udp]);
  }
  const header = new Uint8Array(20);
  const view = new DataView(header.buffer);
  header[0] = 0x45;
  view.setUint16(2, 20 + udp.length);
  view.setUint16(6, 0x4000); // don't fragment
  header[8] = 64;
  header[9] = 17;
  header.set(bytesOf(source, 4), 12);
  header.set(bytesOf(destination, 4), 16);
  view.setUint16(10, checksum(header));
  return concat([header, udp]);
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
