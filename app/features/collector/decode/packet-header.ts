/**
 * The fields of a flow read from the first bytes of a sampled packet (sFlow's raw packet header
 * record): Ethernet → 802.1Q/QinQ → MPLS → IPv4/IPv6 (with extension headers) → TCP/UDP/ICMP, and
 * VXLAN on UDP 4789. Exporters cut the header at a fixed length (often 128 bytes), so every step
 * reads only what is present and stops there: a truncated header gives the fields up to the cut,
 * never an error.
 *
 * VXLAN: the flow is the inner packet (addresses, ports, protocol of the tenant's traffic, which is
 * what the operator asks about); the VLANs stay the outer frame's, the ones on the wire the exporter
 * sampled, so they agree with the interface and the extended switch record. When the inner packet
 * is cut before its IP header, the outer packet's fields are kept.
 */
import { ipv4At, ipv6At } from "./packet-address";

export type PacketFields = {
  vlans: number[];
  ipVersion: 4 | 6 | null;
  srcAddr: string | null;
  dstAddr: string | null;
  ipProtocol: number | null;
  srcPort: number | null;
  dstPort: number | null;
  tcpFlags: number | null;
  icmpType: number | null;
  icmpCode: number | null;
};

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const VLAN_TAGS = new Set([0x8100, 0x88a8, 0x9100]);
const MPLS_UNICAST = 0x8847;
const MPLS_MULTICAST = 0x8848;

const PROTO_ICMP = 1;
const PROTO_TCP = 6;
const PROTO_UDP = 17;
const PROTO_ICMPV6 = 58;
const VXLAN_PORT = 4789;
/** An exporter's header is at most a few hundred bytes; one level of encapsulation is what VXLAN is. */
const MAX_ENCAPSULATION_DEPTH = 1;

/** IPv6 extension headers walked to reach the transport header (RFC 8200 §4, AH RFC 4302). */
const EXT_HOP_BY_HOP = 0;
const EXT_ROUTING = 43;
const EXT_FRAGMENT = 44;
const EXT_AH = 51;
const EXT_DESTINATION = 60;

export function emptyPacketFields(): PacketFields {
  return {
    vlans: [],
    ipVersion: null,
    srcAddr: null,
    dstAddr: null,
    ipProtocol: null,
    srcPort: null,
    dstPort: null,
    tcpFlags: null,
    icmpType: null,
    icmpCode: null,
  };
}

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** An Ethernet frame from its destination MAC on (sFlow header protocol 1). */
export function parseEthernetHeader(bytes: Uint8Array): PacketFields {
  const fields = emptyPacketFields();
  readEthernet(bytes, 0, fields, 0);
  return fields;
}

/** A bare IPv4 or IPv6 packet (sFlow header protocols 11 and 12). */
export function parseIpHeader(bytes: Uint8Array): PacketFields {
  const fields = emptyPacketFields();
  readIpByNibble(bytes, 0, fields, 0);
  return fields;
}

function readEthernet(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  let offset = at + 12;
  if (offset + 2 > b.length) return;
  let etherType = u16(b, offset);
  offset += 2;
  while (VLAN_TAGS.has(etherType)) {
    if (offset + 2 > b.length) return;
    fields.vlans.push(u16(b, offset) & 0x0fff);
    if (offset + 4 > b.length) return;
    etherType = u16(b, offset + 2);
    offset += 4;
  }
  if (etherType === MPLS_UNICAST || etherType === MPLS_MULTICAST) {
    readMpls(b, offset, fields, depth);
  } else if (etherType === ETHERTYPE_IPV4) {
    readIpv4(b, offset, fields, depth);
  } else if (etherType === ETHERTYPE_IPV6) {
    readIpv6(b, offset, fields, depth);
  }
}

/** Labels until bottom-of-stack; MPLS does not say what it carries, so the first nibble guesses IPv4/IPv6. */
function readMpls(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  let offset = at;
  for (;;) {
    if (offset + 4 > b.length) return;
    const bottomOfStack = (b[offset + 2] & 0x01) === 1;
    offset += 4;
    if (bottomOfStack) break;
  }
  readIpByNibble(b, offset, fields, depth);
}

function readIpByNibble(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  if (at >= b.length) return;
  const version = b[at] >> 4;
  if (version === 4) readIpv4(b, at, fields, depth);
  else if (version === 6) readIpv6(b, at, fields, depth);
}

function readIpv4(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  if (at + 20 > b.length || b[at] >> 4 !== 4) return;
  const headerLength = (b[at] & 0x0f) * 4;
  fields.ipVersion = 4;
  fields.ipProtocol = b[at + 9];
  fields.srcAddr = ipv4At(b, at + 12);
  fields.dstAddr = ipv4At(b, at + 16);
  // A later fragment starts with payload, not a transport header.
  const fragmentOffset = u16(b, at + 6) & 0x1fff;
  if (headerLength < 20 || fragmentOffset !== 0) return;
  readTransport(b, at + headerLength, b[at + 9], fields, depth);
}

function readIpv6(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  if (at + 40 > b.length || b[at] >> 4 !== 6) return;
  fields.ipVersion = 6;
  fields.srcAddr = ipv6At(b, at + 8);
  fields.dstAddr = ipv6At(b, at + 24);
  let nextHeader = b[at + 6];
  let offset = at + 40;
  // Each extension header is at least 8 bytes long, so the walk ends with the bytes.
  for (;;) {
    if (nextHeader === EXT_HOP_BY_HOP || nextHeader === EXT_ROUTING || nextHeader === EXT_DESTINATION) {
      if (offset + 2 > b.length) break;
      nextHeader = b[offset];
      offset += (b[offset + 1] + 1) * 8;
    } else if (nextHeader === EXT_AH) {
      if (offset + 2 > b.length) break;
      nextHeader = b[offset];
      offset += (b[offset + 1] + 2) * 4;
    } else if (nextHeader === EXT_FRAGMENT) {
      if (offset + 4 > b.length) break;
      const fragmentOffset = u16(b, offset + 2) >> 3;
      nextHeader = b[offset];
      offset += 8;
      if (fragmentOffset !== 0) {
        fields.ipProtocol = nextHeader;
        return;
      }
    } else {
      fields.ipProtocol = nextHeader;
      readTransport(b, offset, nextHeader, fields, depth);
      return;
    }
  }
  // Cut inside the extension headers: the transport protocol is not known.
}

function readTransport(b: Uint8Array, at: number, protocol: number, fields: PacketFields, depth: number): void {
  if (protocol === PROTO_TCP) {
    if (at + 4 <= b.length) {
      fields.srcPort = u16(b, at);
      fields.dstPort = u16(b, at + 2);
    }
    if (at + 14 <= b.length) fields.tcpFlags = b[at + 13];
  } else if (protocol === PROTO_UDP) {
    if (at + 4 > b.length) return;
    fields.srcPort = u16(b, at);
    fields.dstPort = u16(b, at + 2);
    if (fields.dstPort === VXLAN_PORT && depth < MAX_ENCAPSULATION_DEPTH) readVxlan(b, at + 8, fields, depth + 1);
  } else if (protocol === PROTO_ICMP || protocol === PROTO_ICMPV6) {
    if (at + 2 > b.length) return;
    fields.icmpType = b[at];
    fields.icmpCode = b[at + 1];
  }
}

/** RFC 7348: 8 bytes (flags with the I bit, VNI), then the inner Ethernet frame. */
function readVxlan(b: Uint8Array, at: number, fields: PacketFields, depth: number): void {
  if (at + 8 > b.length || (b[at] & 0x08) === 0) return;
  const inner = emptyPacketFields();
  readEthernet(b, at + 8, inner, depth);
  if (inner.ipVersion === null) return;
  Object.assign(fields, inner, { vlans: fields.vlans });
}
