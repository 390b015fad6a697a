/**
 * From a captured frame to its UDP datagram or TCP segment: the link layer (Ethernet with
 * 802.1Q/802.1ad tags, raw IP, Linux cooked SLL and SLL2, BSD loopback), then IPv4 or IPv6
 * (extension headers walked), then UDP or TCP. Fragments are not reassembled: flow exports are sent
 * below the path MTU and TCP segments are sized to it, so a fragmented packet is rare and is skipped
 * (counted) rather than half-read.
 */
import { ipv4At, ipv6At } from "../decode/packet-address";

export type UdpDatagram = {
  /** Unix milliseconds of the capture; null when the record carried none (pcapng simple packet block). */
  timestampMs: number | null;
  srcAddr: string;
  srcPort: number;
  dstAddr: string;
  dstPort: number;
  /** A view into the capture's bytes, not a copy. */
  payload: Uint8Array;
};

/** Why a frame gave no datagram. */
export type SkipReason = "link-type" | "not-ip" | "not-udp" | "fragment" | "short";

export type FrameOutcome = { datagram: Omit<UdpDatagram, "timestampMs"> } | { skipped: SkipReason };

export type TcpSegment = {
  srcAddr: string;
  srcPort: number;
  dstAddr: string;
  dstPort: number;
  /** Sequence number of the first payload byte (of the SYN itself when the flag is set), unsigned 32 bits. */
  seq: number;
  syn: boolean;
  fin: boolean;
  rst: boolean;
  /** A view into the capture's bytes, not a copy. */
  payload: Uint8Array;
};

/** Why a frame gave no TCP segment. */
export type TcpSkipReason = "link-type" | "not-ip" | "not-tcp" | "fragment" | "short";

export type TcpFrameOutcome = { segment: TcpSegment } | { skipped: TcpSkipReason };

export const LINK_TYPE = { null: 0, ethernet: 1, raw: 101, sll: 113, ipv4: 228, ipv6: 229, sll2: 276 } as const;

const ETHERTYPE = { ipv4: 0x0800, ipv6: 0x86dd } as const;
/** 802.1Q, 802.1ad (QinQ outer) and the older 0x9100 used for QinQ before 802.1ad. */
const VLAN_ETHERTYPES = new Set([0x8100, 0x88a8, 0x9100]);
/** BSD loopback address families that mean IPv6 (NetBSD/OpenBSD, FreeBSD, macOS). */
const NULL_IPV6_FAMILIES = new Set([24, 28, 30]);
const PROTOCOL = { tcp: 6, udp: 17 } as const;

/** The IP packet of a frame: addresses, the upper-layer protocol and its bytes (bounded by the IP length). */
type IpPacket = {
  srcAddr: string;
  dstAddr: string;
  protocol: number;
  /** A fragment of a larger packet: its payload is not a whole upper-layer packet. */
  fragment: boolean;
  payload: Uint8Array;
};

type IpOutcome = { packet: IpPacket } | { skipped: "link-type" | "not-ip" | "short" };

const skip = <R extends string>(skipped: R) => ({ skipped });

export function udpOfFrame(linkType: number, frame: Uint8Array): FrameOutcome {
  const ip = ipOfFrame(linkType, frame);
  if ("skipped" in ip) return ip;
  const { packet } = ip;
  if (packet.protocol !== PROTOCOL.udp) return skip("not-udp");
  if (packet.fragment) return skip("fragment");
  const segment = packet.payload;
  if (segment.length < 8) return skip("short");
  const length = readU16(segment, 4);
  // A datagram cut by the capture's snapshot length would be replayed and decoded as garbage.
  if (length < 8 || length > segment.length) return skip("short");
  return {
    datagram: {
      srcAddr: packet.srcAddr,
      srcPort: readU16(segment, 0),
      dstAddr: packet.dstAddr,
      dstPort: readU16(segment, 2),
      payload: segment.subarray(8, length),
    },
  };
}

const TCP_FLAG = { fin: 0x01, syn: 0x02, rst: 0x04 } as const;

export function tcpOfFrame(linkType: number, frame: Uint8Array): TcpFrameOutcome {
  const ip = ipOfFrame(linkType, frame);
  if ("skipped" in ip) return ip;
  const { packet } = ip;
  if (packet.protocol !== PROTOCOL.tcp) return skip("not-tcp");
  if (packet.fragment) return skip("fragment");
  const segment = packet.payload;
  if (segment.length < 20) return skip("short");
  const headerLength = (segment[12] >> 4) * 4;
  if (headerLength < 20 || headerLength > segment.length) return skip("short");
  const flags = segment[13];
  return {
    segment: {
      srcAddr: packet.srcAddr,
      srcPort: readU16(segment, 0),
      dstAddr: packet.dstAddr,
      dstPort: readU16(segment, 2),
      seq: new DataView(segment.buffer, segment.byteOffset + 4, 4).getUint32(0),
      syn: (flags & TCP_FLAG.syn) !== 0,
      fin: (flags & TCP_FLAG.fin) !== 0,
      rst: (flags & TCP_FLAG.rst) !== 0,
      payload: segment.subarray(headerLength),
    },
  };
}

function ipOfFrame(linkType: number, frame: Uint8Array): IpOutcome {
  switch (linkType) {
    case LINK_TYPE.ethernet:
      return frame.length < 14 ? skip("short") : byEthertype(frame, 12);
    case LINK_TYPE.raw:
      return byVersionNibble(frame);
    case LINK_TYPE.ipv4:
      return ipv4(frame);
    case LINK_TYPE.ipv6:
      return ipv6(frame);
    case LINK_TYPE.sll:
      return frame.length < 16 ? skip("short") : byEthertype(frame, 14);
    case LINK_TYPE.sll2:
      return frame.length < 20 ? skip("short") : byEthertype(frame, 0, 20);
    case LINK_TYPE.null:
      return nullLoopback(frame);
    default:
      return skip("link-type");
  }
}

/**
 * The ethertype at `at`, VLAN tags followed; the payload starts right after the last ethertype
 * unless the header is longer than that (SLL2 keeps its protocol field first).
 */
function byEthertype(frame: Uint8Array, at: number, payloadAt = at + 2): IpOutcome {
  let type = readU16(frame, at);
  let start = payloadAt;
  while (VLAN_ETHERTYPES.has(type)) {
    if (start + 4 > frame.length) return skip("short");
    type = readU16(frame, start + 2);
    start += 4;
  }
  if (type === ETHERTYPE.ipv4) return ipv4(frame.subarray(start));
  if (type === ETHERTYPE.ipv6) return ipv6(frame.subarray(start));
  return skip("not-ip");
}

function byVersionNibble(packet: Uint8Array): IpOutcome {
  if (packet.length < 1) return skip("short");
  const version = packet[0] >> 4;
  return version === 4 ? ipv4(packet) : version === 6 ? ipv6(packet) : skip("not-ip");
}

/** The family is written in the capturing host's byte order, which the file does not say: both are tried. */
function nullLoopback(frame: Uint8Array): IpOutcome {
  if (frame.length < 4) return skip("short");
  const view = new DataView(frame.buffer, frame.byteOffset, 4);
  const families = [view.getUint32(0, true), view.getUint32(0, false)];
  if (families.includes(2)) return ipv4(frame.subarray(4));
  if (families.some((f) => NULL_IPV6_FAMILIES.has(f))) return ipv6(frame.subarray(4));
  return skip("not-ip");
}

function ipv4(packet: Uint8Array): IpOutcome {
  if (packet.length < 20 || packet[0] >> 4 !== 4) return skip(packet.length < 20 ? "short" : "not-ip");
  const headerLength = (packet[0] & 0x0f) * 4;
  const totalLength = readU16(packet, 2);
  const flagsAndOffset = readU16(packet, 6);
  const moreFragments = (flagsAndOffset & 0x2000) !== 0;
  const srcAddr = ipv4At(packet, 12);
  const dstAddr = ipv4At(packet, 16);
  if (moreFragments || (flagsAndOffset & 0x1fff) !== 0) {
    return { packet: { srcAddr, dstAddr, protocol: packet[9], fragment: true, payload: new Uint8Array(0) } };
  }
  if (headerLength < 20 || totalLength < headerLength || totalLength > packet.length) return skip("short");
  // The IP length, not the frame, bounds the payload: Ethernet pads short frames.
  return { packet: { srcAddr, dstAddr, protocol: packet[9], fragment: false, payload: packet.subarray(headerLength, totalLength) } };
}

const IPV6_EXTENSIONS = { hopByHop: 0, routing: 43, fragment: 44, authentication: 51, destination: 60 } as const;

function ipv6(packet: Uint8Array): IpOutcome {
  if (packet.length < 40 || packet[0] >> 4 !== 6) return skip(packet.length < 40 ? "short" : "not-ip");
  const end = 40 + readU16(packet, 4);
  if (end > packet.length) return skip("short");
  const srcAddr = ipv6At(packet, 8);
  const dstAddr = ipv6At(packet, 24);
  let next = packet[6];
  let at = 40;
  for (;;) {
    if (next === IPV6_EXTENSIONS.fragment) {
      if (at + 8 > end) return skip("short");
      const offsetAndMore = readU16(packet, at + 2);
      if (offsetAndMore & 0xfff9) return { packet: { srcAddr, dstAddr, protocol: packet[at], fragment: true, payload: new Uint8Array(0) } };
      // An atomic fragment (offset 0, no more fragments) holds the whole packet.
      next = packet[at];
      at += 8;
    } else if (next === IPV6_EXTENSIONS.hopByHop || next === IPV6_EXTENSIONS.routing || next === IPV6_EXTENSIONS.destination) {
      if (at + 8 > end) return skip("short");
      next = packet[at];
      at += (packet[at + 1] + 1) * 8;
    } else if (next === IPV6_EXTENSIONS.authentication) {
      if (at + 8 > end) return skip("short");
      next = packet[at];
      at += (packet[at + 1] + 2) * 4;
    } else {
      break;
    }
  }
  if (at > end) return skip("short");
  return { packet: { srcAddr, dstAddr, protocol: next, fragment: false, payload: packet.subarray(at, end) } };
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}
