/**
 * From a captured frame to its UDP datagram: the link layer (Ethernet with 802.1Q/802.1ad tags,
 * raw IP, Linux cooked SLL and SLL2, BSD loopback), then IPv4 or IPv6 (extension headers walked),
 * then UDP. Fragments are not reassembled: flow exports are sent below the path MTU, so a
 * fragmented datagram is rare and is skipped (counted) rather than half-read.
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

export const LINK_TYPE = { null: 0, ethernet: 1, raw: 101, sll: 113, ipv4: 228, ipv6: 229, sll2: 276 } as const;

const ETHERTYPE = { ipv4: 0x0800, ipv6: 0x86dd } as const;
/** 802.1Q, 802.1ad (QinQ outer) and the older 0x9100 used for QinQ before 802.1ad. */
const VLAN_ETHERTYPES = new Set([0x8100, 0x88a8, 0x9100]);
/** BSD loopback address families that mean IPv6 (NetBSD/OpenBSD, FreeBSD, macOS). */
const NULL_IPV6_FAMILIES = new Set([24, 28, 30]);

const skip = (skipped: SkipReason): FrameOutcome => ({ skipped });

export function udpOfFrame(linkType: number, frame: Uint8Array): FrameOutcome {
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
function byEthertype(frame: Uint8Array, at: number, payloadAt = at + 2): FrameOutcome {
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

function byVersionNibble(packet: Uint8Array): FrameOutcome {
  if (packet.length < 1) return skip("short");
  const version = packet[0] >> 4;
  return version === 4 ? ipv4(packet) : version === 6 ? ipv6(packet) : skip("not-ip");
}

/** The family is written in the capturing host's byte order, which the file does not say: both are tried. */
function nullLoopback(frame: Uint8Array): FrameOutcome {
  if (frame.length < 4) return skip("short");
  const view = new DataView(frame.buffer, frame.byteOffset, 4);
  const families = [view.getUint32(0, true), view.getUint32(0, false)];
  if (families.includes(2)) return ipv4(frame.subarray(4));
  if (families.some((f) => NULL_IPV6_FAMILIES.has(f))) return ipv6(frame.subarray(4));
  return skip("not-ip");
}

function ipv4(packet: Uint8Array): FrameOutcome {
  if (packet.length < 20 || packet[0] >> 4 !== 4) return skip(packet.length < 20 ? "short" : "not-ip");
  const headerLength = (packet[0] & 0x0f) * 4;
  const totalLength = readU16(packet, 2);
  const flagsAndOffset = readU16(packet, 6);
  const moreFragments = (flagsAndOffset & 0x2000) !== 0;
  if (moreFragments || (flagsAndOffset & 0x1fff) !== 0) return skip("fragment");
  if (packet[9] !== 17) return skip("not-udp");
  if (headerLength < 20 || totalLength < headerLength || totalLength > packet.length) return skip("short");
  // The IP length, not the frame, bounds the datagram: Ethernet pads short frames.
  return udp(packet.subarray(headerLength, totalLength), ipv4At(packet, 12), ipv4At(packet, 16));
}

const IPV6_EXTENSIONS = { hopByHop: 0, routing: 43, fragment: 44, authentication: 51, destination: 60 } as const;

function ipv6(packet: Uint8Array): FrameOutcome {
  if (packet.length < 40 || packet[0] >> 4 !== 6) return skip(packet.length < 40 ? "short" : "not-ip");
  const end = 40 + readU16(packet, 4);
  if (end > packet.length) return skip("short");
  let next = packet[6];
  let at = 40;
  while (next !== 17) {
    if (at + 8 > end) return skip("short");
    if (next === IPV6_EXTENSIONS.fragment) {
      const offsetAndMore = readU16(packet, at + 2);
      if (offsetAndMore & 0xfff9) return skip("fragment");
      // An atomic fragment (offset 0, no more fragments) holds the whole datagram.
      next = packet[at];
      at += 8;
    } else if (next === IPV6_EXTENSIONS.hopByHop || next === IPV6_EXTENSIONS.routing || next === IPV6_EXTENSIONS.destination) {
      next = packet[at];
      at += (packet[at + 1] + 1) * 8;
    } else if (next === IPV6_EXTENSIONS.authentication) {
      next = packet[at];
      at += (packet[at + 1] + 2) * 4;
    } else {
      return skip("not-udp");
    }
  }
  if (at > end) return skip("short");
  return udp(packet.subarray(at, end), ipv6At(packet, 8), ipv6At(packet, 24));
}

function udp(segment: Uint8Array, srcAddr: string, dstAddr: string): FrameOutcome {
  if (segment.length < 8) return skip("short");
  const length = readU16(segment, 4);
  // A datagram cut by the capture's snapshot length would be replayed and decoded as garbage.
  if (length < 8 || length > segment.length) return skip("short");
  return {
    datagram: { srcAddr, srcPort: readU16(segment, 0), dstAddr, dstPort: readU16(segment, 2), payload: segment.subarray(8, length) },
  };
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}
