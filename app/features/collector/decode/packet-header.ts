/**
 * The flow a sampled packet stands for, read from its first bytes: one parser for IPFIX
 * dataLinkFrameSection (IE 315) and ipHeaderPacketSection (IE 313) and sFlow's raw packet header
 * record (flow record format 1). Layers: Ethernet, 802.1Q/802.1ad/QinQ tags (0x8100, 0x88a8,
 * 0x9100), MPLS label stacks (0x8847, 0x8848), IPv4, IPv6 with extension headers (hop-by-hop,
 * routing — SRv6's segment routing header, type 4 —, fragment, destination options, AH), TCP, UDP,
 * SCTP, ICMP/ICMPv6, and the tunnels GRE (RFC 2784/2890: checksum, key and sequence; ERSPAN types
 * II and III; transparent Ethernet; MPLS over GRE), VXLAN (UDP 4789), IP-in-IP (protocols 4 and
 * 41), SRv6 (an SRH, then IPv4 4, IPv6 41 or Ethernet 143) and Ethernet over MPLS (after the
 * bottom of stack MPLS does not say what follows: first nibble 4 IPv4, 6 IPv6, 0 the pseudowire
 * control word and then an Ethernet frame — RFC 4385 — as Akvorado and the routers' own decoders
 * guess too).
 *
 * Which header counts: the innermost IP packet whose addresses the bytes hold. A tunnel's outer
 * header names only its two endpoints, the same pair for all traffic inside — attributing it to
 * them loses who talks to whom, the operator's question, and their ASes are the operator's own.
 * (Akvorado keeps the outer header unless told to decapsulate one kind; flowlens has no such
 * setting, and the encapsulation kinds and the outer endpoints stay in the result for whoever
 * needs them.) What stays the outer frame's: the VLANs and MPLS labels (the wire the exporter
 * sampled, which agree with its interfaces and the extended switch record) and the bytes (the
 * frame on that wire, what the link carried). An inner packet cut before its addresses leaves the
 * outer packet's fields.
 *
 * Bounded and total: every read is checked against the bytes, tags, labels, extension headers and
 * tunnels have caps, so any input ends in a few dozen steps; what stops the parse before the
 * counted packet's transport header is a reason of HEADER_STOP_REASONS (counted by the decoders as
 * a decode problem), never an exception. A header cut after the ports is what exporters send
 * (usually 128 bytes): not a stop.
 */
import { ipv4At, ipv6At } from "./packet-address";

/** Why a sampled header could not be followed to the counted packet's transport header. */
export const HEADER_STOP_REASONS = [
  /** The captured bytes end first (before an IP header, or before the ports of the packet found). */
  "header_truncated",
  /** A field contradicts its format: an IPv4 header length under 20, a version that is not the layer's, GRE routing … */
  "header_malformed",
  /** A layer flowlens does not follow: GRE version 1 or an unknown GRE protocol, an MPLS payload that is no IP and no control word, an unknown sFlow header protocol. */
  "header_unsupported",
  /** An Ethernet frame that carries no IP (ARP, LLDP, …): bytes only. */
  "header_not_ip",
  /** More VLAN tags, MPLS labels, extension headers or nested tunnels than the caps below. */
  "header_too_deep",
] as const;
export type HeaderStopReason = (typeof HEADER_STOP_REASONS)[number];

export type EncapsulationKind = "vxlan" | "gre" | "erspan" | "ip-in-ip" | "srv6" | "eompls" | "ethernet-over-ip";

/** What a sampled header says, plain data; null where the bytes did not say it. */
export type SampledHeader = {
  /** The outer frame's VLAN ids, outer first (an inner frame's own tags are not the wire's). */
  vlans: number[];
  /** MPLS labels in wire order (top of the outer stack first). */
  mplsLabels: number[];
  /** The tunnels walked through, outer first; empty for a plain packet. */
  encapsulations: EncapsulationKind[];
  /** Which IP header the fields below are from: the packet's only or outer one, an inner one, none. */
  counted: "outer" | "inner" | null;
  ipVersion: 4 | 6 | null;
  srcAddr: string | null;
  dstAddr: string | null;
  /** The transport protocol after any IPv6 extension headers (6 TCP, 17 UDP, 1/58 ICMP, 50 ESP …). */
  ipProtocol: number | null;
  srcPort: number | null;
  dstPort: number | null;
  tcpFlags: number | null;
  icmpType: number | null;
  icmpCode: number | null;
  /** IPv4 TTL or IPv6 hop limit. */
  ttl: number | null;
  /** IPv4: the header's 3 flag bits (2 don't fragment, 1 more fragments); IPv6: 1 when the fragment header says more follow, else 0 with a fragment header. */
  fragmentFlags: number | null;
  /** In 8-octet units, as in the headers (and IPFIX fragmentOffset, IE 88); non-zero: a later fragment, no transport header. */
  fragmentOffset: number | null;
  /** IPv4 identification, or the IPv6 fragment header's. */
  fragmentId: number | null;
  /** The outermost IP header's addresses when an inner packet counted (the tunnel's endpoints). */
  outerSrcAddr: string | null;
  outerDstAddr: string | null;
  /** SRv6: the segment list of the (first) SRH as sent, the last segment first (RFC 8754), at most MAX_SRV6_SEGMENTS. */
  srv6Segments: string[] | null;
  /**
   * The length of the frame from its start to the end of its first IP packet, by that header's own
   * length field: the packet's size when the record gives none (no IE 312, no counters).
   */
  impliedLength: number | null;
  /** Why the parse stopped early, and where; null when it reached what it looked for. */
  stop: HeaderStopReason | null;
  stopDetail: string | null;
};

/** 802.1Q and QinQ tags on one frame (each frame of a tunnel its own): real networks use two, rarely three. */
export const MAX_VLAN_TAGS = 4;
/** Label stacks of SR-MPLS with a service and entropy labels stay under ten. */
export const MAX_MPLS_LABELS = 16;
/** RFC 8200 allows each kind once (destination options twice); more is an attack or a mistake. */
export const MAX_EXTENSION_HEADERS = 8;
/** Tunnels within tunnels (e.g. VXLAN over SRv6 over MPLS). */
export const MAX_ENCAPSULATIONS = 4;
export const MAX_SRV6_SEGMENTS = 16;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_VLAN = 0x8100;
const ETHERTYPE_QINQ = 0x88a8;
const ETHERTYPE_QINQ_OLD = 0x9100;
const ETHERTYPE_MPLS = 0x8847;
const ETHERTYPE_MPLS_MULTICAST = 0x8848;
/** GRE protocol types beyond the ethertypes above. */
const GRE_TRANSPARENT_ETHERNET = 0x6558;
const GRE_ERSPAN_II = 0x88be;
const GRE_ERSPAN_III = 0x22eb;

const PROTO_ICMP = 1;
const PROTO_IPV4 = 4;
const PROTO_TCP = 6;
const PROTO_UDP = 17;
const PROTO_IPV6 = 41;
const PROTO_GRE = 47;
const PROTO_AH = 51;
const PROTO_ICMPV6 = 58;
const PROTO_SCTP = 132;
const PROTO_ETHERNET = 143;
const VXLAN_PORT = 4789;

const EXT_HOP_BY_HOP = 0;
const EXT_ROUTING = 43;
const EXT_FRAGMENT = 44;
const EXT_DESTINATION = 60;
const ROUTING_SRH = 4;

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** What the walk goes to next: a layer at an offset, or done. */
const ETHERNET = 0;
const IPV4 = 1;
const IPV6 = 2;
const MPLS = 3;
const DONE = 4;

/** Mutable walk state; the result is its `h`. */
type Walk = {
  b: Uint8Array;
  h: SampledHeader;
  /** Tunnels entered so far: 0 while in the outer packet. */
  depth: number;
  /** Set once the first IP header's addresses are read. */
  sawIp: boolean;
  at: number;
  /** MPLS labels read so far, all stacks together (the cap is on them all). */
  labels: number;
};

function emptyHeader(): SampledHeader {
  return {
    vlans: [],
    mplsLabels: [],
    encapsulations: [],
    counted: null,
    ipVersion: null,
    srcAddr: null,
    dstAddr: null,
    ipProtocol: null,
    srcPort: null,
    dstPort: null,
    tcpFlags: null,
    icmpType: null,
    icmpCode: null,
    ttl: null,
    fragmentFlags: null,
    fragmentOffset: null,
    fragmentId: null,
    outerSrcAddr: null,
    outerDstAddr: null,
    srv6Segments: null,
    impliedLength: null,
    stop: null,
    stopDetail: null,
  };
}

/** An Ethernet frame from its destination MAC on (IE 315, sFlow header protocol 1). */
export function parseEthernetFrame(bytes: Uint8Array): SampledHeader {
  return walk(bytes, ETHERNET);
}

/** A bare IPv4 or IPv6 packet (IE 313, sFlow header protocols 11 and 12), told apart by its version nibble. */
export function parseIpPacket(bytes: Uint8Array): SampledHeader {
  if (bytes.length === 0) {
    const h = emptyHeader();
    stop(h, "header_truncated", "no bytes");
    return h;
  }
  const version = bytes[0] >> 4;
  if (version !== 4 && version !== 6) {
    const h = emptyHeader();
    stop(h, "header_malformed", `IP version ${version}`);
    return h;
  }
  return walk(bytes, version === 4 ? IPV4 : IPV6);
}

/** A header the decoder was given no parser for (e.g. an sFlow header protocol other than Ethernet, IPv4, IPv6). */
export function unsupportedHeader(detail: string): SampledHeader {
  const h = emptyHeader();
  stop(h, "header_unsupported", detail);
  return h;
}

function stop(h: SampledHeader, reason: HeaderStopReason, detail: string): number {
  h.stop = reason;
  h.stopDetail = detail;
  return DONE;
}

function walk(b: Uint8Array, first: number): SampledHeader {
  const w: Walk = { b, h: emptyHeader(), depth: 0, sawIp: false, at: 0, labels: 0 };
  let layer = first;
  // Every layer moves `at` forward or ends the walk, and the caps bound how many layers there are;
  // the step limit is a second fence should a future layer forget either.
  for (let steps = 0; layer !== DONE; steps++) {
    if (steps > 64) return (stop(w.h, "header_too_deep", "more than 64 layers"), w.h);
    if (layer === ETHERNET) layer = ethernet(w);
    else if (layer === IPV4) layer = ipv4(w);
    else if (layer === IPV6) layer = ipv6(w);
    else layer = mpls(w);
  }
  return w.h;
}

function cut(w: Walk, what: string): number {
  return stop(w.h, "header_truncated", `cut at ${w.b.length} bytes in ${what}`);
}

/** Starts an inner layer of a tunnel: counts it against the cap and names it. */
function enter(w: Walk, kind: EncapsulationKind): boolean {
  if (w.depth >= MAX_ENCAPSULATIONS) {
    stop(w.h, "header_too_deep", `more than ${MAX_ENCAPSULATIONS} nested tunnels`);
    return false;
  }
  w.depth++;
  w.h.encapsulations.push(kind);
  return true;
}

function ethernet(w: Walk): number {
  const { b, h } = w;
  let at = w.at + 12;
  if (at + 2 > b.length) return cut(w, "the Ethernet header");
  let etherType = u16(b, at);
  at += 2;
  // An inner frame's tags (VXLAN, EoMPLS, …) are stepped over: the wire's are the outer frame's.
  for (let tags = 1; etherType === ETHERTYPE_VLAN || etherType === ETHERTYPE_QINQ || etherType === ETHERTYPE_QINQ_OLD; tags++) {
    if (tags > MAX_VLAN_TAGS) return stop(h, "header_too_deep", `more than ${MAX_VLAN_TAGS} VLAN tags`);
    if (at + 2 > b.length) return cut(w, "a VLAN tag");
    if (w.depth === 0) h.vlans.push(u16(b, at) & 0x0fff);
    if (at + 4 > b.length) return cut(w, "a VLAN tag");
    etherType = u16(b, at + 2);
    at += 4;
  }
  w.at = at;
  return afterEtherType(w, etherType, "Ethernet");
}

/** The layer an ethertype (or a GRE protocol type, the same numbers) names. */
function afterEtherType(w: Walk, etherType: number, after: string): number {
  if (etherType === ETHERTYPE_IPV4) return IPV4;
  if (etherType === ETHERTYPE_IPV6) return IPV6;
  if (etherType === ETHERTYPE_MPLS || etherType === ETHERTYPE_MPLS_MULTICAST) return MPLS;
  return stop(w.h, "header_not_ip", `${after} carries ethertype 0x${etherType.toString(16).padStart(4, "0")}`);
}

/** Labels until bottom-of-stack; then the first nibble guesses what the stack carries. */
function mpls(w: Walk): number {
  const { b, h } = w;
  let at = w.at;
  for (;;) {
    if (++w.labels > MAX_MPLS_LABELS) return stop(h, "header_too_deep", `more than ${MAX_MPLS_LABELS} MPLS labels`);
    if (at + 4 > b.length) return cut(w, "the MPLS label stack");
    h.mplsLabels.push((b[at] << 12) | (b[at + 1] << 4) | (b[at + 2] >> 4));
    const bottom = (b[at + 2] & 0x01) === 1;
    at += 4;
    if (bottom) break;
  }
  w.at = at;
  if (at >= b.length) return cut(w, "the MPLS payload");
  const nibble = b[at] >> 4;
  if (nibble === 4) return IPV4;
  if (nibble === 6) return IPV6;
  if (nibble === 0) {
    // RFC 4385 control word (4 bytes, first nibble 0), then the pseudowire's Ethernet frame.
    if (!enter(w, "eompls")) return DONE;
    w.at = at + 4;
    return ETHERNET;
  }
  return stop(h, "header_unsupported", `MPLS payload starts with nibble ${nibble} (neither IPv4, IPv6 nor a control word)`);
}

/**
 * An IP header's addresses become the flow's: the first one's as they are, an inner one's
 * replacing them, the outermost kept as the tunnel's endpoints. The transport fields are the
 * counted packet's, so they start over.
 */
function countAddresses(w: Walk, version: 4 | 6, src: string, dst: string): void {
  const h = w.h;
  if (w.sawIp) {
    if (h.outerSrcAddr === null) {
      h.outerSrcAddr = h.srcAddr;
      h.outerDstAddr = h.dstAddr;
    }
    h.counted = "inner";
    h.srcPort = h.dstPort = h.tcpFlags = h.icmpType = h.icmpCode = null;
    h.fragmentFlags = h.fragmentOffset = h.fragmentId = null;
  } else h.counted = "outer";
  w.sawIp = true;
  h.ipVersion = version;
  h.srcAddr = src;
  h.dstAddr = dst;
  h.ipProtocol = null;
}

function ipv4(w: Walk): number {
  const { b, h } = w;
  const at = w.at;
  if (at + 20 > b.length) return cut(w, "an IPv4 header");
  if (b[at] >> 4 !== 4) return stop(h, "header_malformed", `IPv4 header with version ${b[at] >> 4}`);
  const headerLength = (b[at] & 0x0f) * 4;
  if (headerLength < 20) return stop(h, "header_malformed", `IPv4 header length ${headerLength}`);
  if (!w.sawIp) h.impliedLength = at + u16(b, at + 2);
  countAddresses(w, 4, ipv4At(b, at + 12), ipv4At(b, at + 16));
  h.ttl = b[at + 8];
  const flagsOffset = u16(b, at + 6);
  h.fragmentFlags = flagsOffset >> 13;
  h.fragmentOffset = flagsOffset & 0x1fff;
  h.fragmentId = u16(b, at + 4);
  const protocol = b[at + 9];
  h.ipProtocol = protocol;
  // A later fragment starts with payload, not a transport header: nothing more to read.
  if (h.fragmentOffset !== 0) return DONE;
  if (at + headerLength > b.length) return cut(w, "the IPv4 options");
  w.at = at + headerLength;
  return protocol === PROTO_AH ? authentication(w) : transport(w, protocol, false);
}

/** AH (RFC 4302) in IPv4: its length is in 4-octet units minus 2; the protocol it protects follows. */
function authentication(w: Walk): number {
  const { b, h } = w;
  if (w.at + 2 > b.length) return cut(w, "an AH header");
  const next = b[w.at];
  w.at += (b[w.at + 1] + 2) * 4;
  h.ipProtocol = next;
  return transport(w, next, false);
}

function ipv6(w: Walk): number {
  const { b, h } = w;
  const at = w.at;
  if (at + 40 > b.length) return cut(w, "an IPv6 header");
  if (b[at] >> 4 !== 6) return stop(h, "header_malformed", `IPv6 header with version ${b[at] >> 4}`);
  if (!w.sawIp) h.impliedLength = at + 40 + u16(b, at + 4);
  countAddresses(w, 6, ipv6At(b, at + 8), ipv6At(b, at + 24));
  h.ttl = b[at + 7];
  w.at = at + 40;
  return extensionChain(w, b[at + 6]);
}

/** IPv6 extension headers up to the transport protocol (RFC 8200 §4); an SRH marks the tunnel SRv6. */
function extensionChain(w: Walk, first: number): number {
  const { b, h } = w;
  let next = first;
  let srh = false;
  // The protocol is known once the chain ends: a chain cut short leaves it null.
  for (let n = 0; ; n++) {
    if (next !== EXT_HOP_BY_HOP && next !== EXT_ROUTING && next !== EXT_DESTINATION && next !== EXT_FRAGMENT && next !== PROTO_AH) {
      h.ipProtocol = next;
      return transport(w, next, srh);
    }
    if (n >= MAX_EXTENSION_HEADERS) return stop(h, "header_too_deep", `more than ${MAX_EXTENSION_HEADERS} IPv6 extension headers`);
    const at = w.at;
    if (next === PROTO_AH) {
      if (at + 2 > b.length) return cut(w, "an AH header");
      next = b[at];
      w.at = at + (b[at + 1] + 2) * 4;
      continue;
    }
    if (next === EXT_FRAGMENT) {
      if (at + 8 > b.length) return cut(w, "an IPv6 fragment header");
      const offsetFlags = u16(b, at + 2);
      h.fragmentOffset = offsetFlags >> 3;
      h.fragmentFlags = offsetFlags & 1;
      h.fragmentId = ((b[at + 4] << 24) | (b[at + 5] << 16) | (b[at + 6] << 8) | b[at + 7]) >>> 0;
      next = b[at];
      w.at = at + 8;
      if (h.fragmentOffset !== 0) {
        h.ipProtocol = next;
        return DONE;
      }
      continue;
    }
    if (at + 2 > b.length) return cut(w, "an IPv6 extension header");
    const length = (b[at + 1] + 1) * 8;
    if (next === EXT_ROUTING && at + 4 <= b.length && b[at + 2] === ROUTING_SRH) {
      // The first SRH of the packet (the outermost) is the one kept: the path the exporter saw it take.
      if (h.srv6Segments === null) segments(w, at, length);
      srh = true;
    }
    next = b[at];
    w.at = at + length;
  }
}

/** The SRH's segment list (16 bytes each after its 8-byte fixed part), as far as the bytes and the cap go. */
function segments(w: Walk, at: number, length: number): void {
  const list: string[] = [];
  for (let s = at + 8; s + 16 <= at + length && s + 16 <= w.b.length && list.length < MAX_SRV6_SEGMENTS; s += 16) list.push(ipv6At(w.b, s));
  w.h.srv6Segments = list;
}

function transport(w: Walk, protocol: number, srh: boolean): number {
  const { b, h } = w;
  const at = w.at;
  if (protocol === PROTO_TCP || protocol === PROTO_UDP || protocol === PROTO_SCTP) {
    if (at + 4 > b.length) return cut(w, "the transport header's ports");
    h.srcPort = u16(b, at);
    h.dstPort = u16(b, at + 2);
    if (protocol === PROTO_TCP) {
      if (at + 14 <= b.length) h.tcpFlags = b[at + 13];
    } else if (protocol === PROTO_UDP && h.dstPort === VXLAN_PORT) {
      return vxlan(w, at + 8);
    }
    return DONE;
  }
  if (protocol === PROTO_ICMP || protocol === PROTO_ICMPV6) {
    if (at + 2 > b.length) return cut(w, "the ICMP header");
    h.icmpType = b[at];
    h.icmpCode = b[at + 1];
    return DONE;
  }
  if (protocol === PROTO_IPV4 || protocol === PROTO_IPV6) {
    if (!enter(w, srh ? "srv6" : "ip-in-ip")) return DONE;
    return protocol === PROTO_IPV4 ? IPV4 : IPV6;
  }
  if (protocol === PROTO_ETHERNET) {
    if (!enter(w, srh ? "srv6" : "ethernet-over-ip")) return DONE;
    return ETHERNET;
  }
  if (protocol === PROTO_GRE) return gre(w);
  // ESP, OSPF, PIM, …: the protocol is all there is to read.
  return DONE;
}

/** RFC 7348: flags (the I bit says a VNI follows), 3 reserved, VNI, 1 reserved; then the inner Ethernet frame. */
function vxlan(w: Walk, at: number): number {
  const { b, h } = w;
  if (at + 8 > b.length) return cut(w, "the VXLAN header");
  if ((b[at] & 0x08) === 0) return stop(h, "header_malformed", "UDP port 4789 without the VXLAN I flag");
  if (!enter(w, "vxlan")) return DONE;
  w.at = at + 8;
  return ETHERNET;
}

/**
 * GRE (RFC 2784, keys and sequence numbers RFC 2890): flags C 0x8000 (checksum and reserved, 4
 * bytes), K 0x2000 (key, 4), S 0x1000 (sequence, 4); version 0 only (1 is PPTP's). ERSPAN type II
 * (0x88be) has an 8-byte header, type III (0x22eb) 12, plus 8 when its O flag says a platform
 * subheader follows; both then carry the mirrored Ethernet frame.
 */
function gre(w: Walk): number {
  const { b, h } = w;
  let at = w.at;
  if (at + 4 > b.length) return cut(w, "the GRE header");
  const flags = u16(b, at);
  const version = flags & 0x7;
  if (version !== 0) return stop(h, "header_unsupported", `GRE version ${version}`);
  if (flags & 0x4000) return stop(h, "header_malformed", "GRE with the routing bit (RFC 1701 source routing)");
  const protocol = u16(b, at + 2);
  at += 4 + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) + (flags & 0x1000 ? 4 : 0);
  if (protocol === GRE_ERSPAN_II || protocol === GRE_ERSPAN_III) {
    if (!enter(w, "erspan")) return DONE;
    if (protocol === GRE_ERSPAN_II) at += 8;
    else {
      if (at + 12 > b.length) return cut(w, "the ERSPAN type III header");
      at += b[at + 11] & 0x01 ? 20 : 12;
    }
    w.at = at;
    return ETHERNET;
  }
  if (protocol === GRE_TRANSPARENT_ETHERNET) {
    if (!enter(w, "gre")) return DONE;
    w.at = at;
    return ETHERNET;
  }
  if (protocol === ETHERTYPE_IPV4 || protocol === ETHERTYPE_IPV6 || protocol === ETHERTYPE_MPLS || protocol === ETHERTYPE_MPLS_MULTICAST) {
    if (!enter(w, "gre")) return DONE;
    w.at = at;
    return afterEtherType(w, protocol, "GRE");
  }
  return stop(h, "header_unsupported", `GRE protocol type 0x${protocol.toString(16).padStart(4, "0")}`);
}
