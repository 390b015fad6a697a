/**
 * One flow as a decoder read it from a datagram, before enrichment: the common shape of NetFlow
 * v5, NetFlow v9, IPFIX and sFlow v5 records. Everything a record did not carry is null (never a
 * guessed 0), so enrichment can tell "absent" from "zero" — e.g. a missing source AS is looked up
 * in the RIB, a 0 from the exporter is kept.
 *
 * Addresses are text (IPv4 dotted, IPv6 RFC 5952). Bytes and packets are as sampled: the sampling
 * rate is applied once, by the aggregates (flows_5m_mv), never by a decoder.
 */
import type { HeaderStopReason, SampledHeader } from "./packet-header";

export type FlowProtocol = "netflow5" | "netflow9" | "ipfix" | "sflow5";

export type DecodedFlow = {
  protocol: FlowProtocol;
  /**
   * The exporter: for NetFlow and IPFIX the address the datagram came from (the UDP source), as the
   * collector saw it; for sFlow the agent address the datagram names (the device), which differs
   * from the UDP source behind NAT, a relay or a router sending from another interface.
   */
  exporter: string;
  /** The UDP source when it is not `exporter` (an sFlow agent heard through another address); null otherwise. */
  udpSource: string | null;
  /** NetFlow v9 source id / IPFIX observation domain / sFlow agent sub-id; 0 for v5. */
  sourceId: number;
  /** 1 when unsampled or unknown; the rate the record or its sampler names otherwise. */
  samplingRate: number;
  ipVersion: 4 | 6 | null;
  srcAddr: string | null;
  dstAddr: string | null;
  srcPrefixLen: number | null;
  dstPrefixLen: number | null;
  srcPort: number | null;
  dstPort: number | null;
  /** IP protocol number (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6 …). */
  ipProtocol: number | null;
  tcpFlags: number | null;
  bytes: number;
  packets: number;
  /**
   * The interfaces' SNMP ifIndexes: the logical interface (IE 10 / 14, v5's input/output) when the
   * record has it, else the physical one (ingressPhysicalInterface / egressPhysicalInterface, IE 252 /
   * 253) — the logical one wins, as it is the interface (sub-interface, VLAN, bundle) the traffic is
   * routed on and the one an inventory usually names.
   */
  inIfIndex: number | null;
  outIfIndex: number | null;
  /** The physical interfaces when the record names them (IE 252 / 253), also when a logical one is set. */
  inPhysIfIndex: number | null;
  outPhysIfIndex: number | null;
  srcAs: number | null;
  dstAs: number | null;
  /** AS path towards the destination when the record carries it (sFlow extended gateway). */
  asPath: number[] | null;
  nextHop: string | null;
  bgpNextHop: string | null;
  /** Outer first: [outer, inner] for QinQ. */
  vlans: number[];
  /**
   * MPLS label values (20 bits), top of the stack first: the record's label stack elements (IE 70–79)
   * when it has them, else the sampled header's (`header.mplsLabels`); empty when neither says.
   */
  mplsLabels: readonly number[];
  /**
   * The sampled packet header the flow was read from (IPFIX dataLinkFrameSection / ipHeaderPacketSection,
   * sFlow raw packet header), null for records of address fields: what the fields above came from,
   * and what they have no place for (TTL, fragments, tunnels and their endpoints; its MPLS labels
   * are mplsLabels unless the record named its own).
   */
  header: SampledHeader | null;
  /** VLAN the flow leaves on when the exporter says it (NetFlow/IPFIX postVlanId, postdot1qVlanId; sFlow's extended switch record). */
  egressVlan: number | null;
  /** 0 ingress, 1 egress (NetFlow/IPFIX flowDirection), null when not said. */
  direction: 0 | 1 | null;
  ingressVrfId: number | null;
  egressVrfId: number | null;
  /** Unix milliseconds; from the record (v5/v9 via the exporter's uptime, IPFIX absolute), null for sFlow. */
  flowStartMs: number | null;
  flowEndMs: number | null;
  /** Unix milliseconds of the datagram's export time by the exporter's clock (null for sFlow). */
  exportTimeMs: number | null;
  /** Only for ICMP (protocol 1) and ICMPv6 (58) flows; null for every other protocol and when not said. */
  icmpType: number | null;
  icmpCode: number | null;
  /**
   * forwardingStatus (IE 89, RFC 7270): the top two bits are the status (00 unknown, 01 forwarded,
   * 10 dropped, 11 consumed), the other six the reason code; null when the record does not say.
   */
  forwardingStatus: number | null;
  /** NAT (IE 225 / 226 / 281 / 282 and 227 / 228): the source and destination after translation. */
  postNatSrcAddr: string | null;
  postNatDstAddr: string | null;
  postNatSrcPort: number | null;
  postNatDstPort: number | null;
};

/** The labels of a flow without any: one shared, frozen empty array rather than one per flow. */
const NO_LABELS: readonly number[] = Object.freeze([]);

/** A flow with every optional field absent: decoders start from it and fill what the record says. */
export function emptyFlow(protocol: FlowProtocol, exporter: string, sourceId: number): DecodedFlow {
  return {
    protocol,
    exporter,
    udpSource: null,
    sourceId,
    samplingRate: 1,
    ipVersion: null,
    srcAddr: null,
    dstAddr: null,
    srcPrefixLen: null,
    dstPrefixLen: null,
    srcPort: null,
    dstPort: null,
    ipProtocol: null,
    tcpFlags: null,
    bytes: 0,
    packets: 0,
    inIfIndex: null,
    outIfIndex: null,
    inPhysIfIndex: null,
    outPhysIfIndex: null,
    srcAs: null,
    dstAs: null,
    asPath: null,
    nextHop: null,
    bgpNextHop: null,
    vlans: [],
    mplsLabels: NO_LABELS,
    header: null,
    egressVlan: null,
    direction: null,
    ingressVrfId: null,
    egressVrfId: null,
    flowStartMs: null,
    flowEndMs: null,
    exportTimeMs: null,
    icmpType: null,
    icmpCode: null,
    forwardingStatus: null,
    postNatSrcAddr: null,
    postNatDstAddr: null,
    postNatSrcPort: null,
    postNatDstPort: null,
  };
}

/** Why a datagram, or part of it, could not be decoded: counted per exporter and reason, never thrown out of a listener. */
export type DecodeErrorReason =
  | "truncated"
  | "unknown-version"
  | "bad-header"
  | "bad-set"
  | "bad-template"
  | "bad-record"
  | "unsupported"
  /** A sampled packet header not followed to its end (packet-header.ts): one per flow, beside the flow. */
  | HeaderStopReason
  | "unknown-element"
  | "bad-element";

/**
 * Fields of data records the decoder read past without using them, counted per field of each
 * record (so a busy exporter's count grows with its records): `unknown-element`, an element the
 * collector has no reader for (another vendor's enterprise element, an IANA element it does not
 * use); `bad-element`, an element it knows sent at a length it cannot be read at.
 */
export type ElementSkips = { "unknown-element": number; "bad-element": number };
export const SKIP_REASONS = ["unknown-element", "bad-element"] as const satisfies readonly (keyof ElementSkips)[];

export type DecodeProblem = { reason: DecodeErrorReason; detail: string };

/** An sFlow exporter: the agent address its datagrams name (canonical text) and its sub-agent id. */
export type SflowAgent = { address: string; subAgentId: number };

/** What one datagram gave. */
export type DecodeResult = {
  protocol: FlowProtocol | null;
  /**
   * sFlow: the agent the datagram's header names, once that header was read — the exporter its
   * figures belong to, whatever its records gave; null for NetFlow and IPFIX, whose exporter is the
   * UDP source, and for an sFlow header naming no usable agent address (the UDP source stands in).
   */
  agent: SflowAgent | null;
  flows: DecodedFlow[];
  problems: DecodeProblem[];
  /** Data records whose template has not arrived (yet): buffered by the caller's state, counted here. */
  templateMisses: number;
  /** sFlow counter samples seen (counted, not stored as flows). */
  counterSamples: number;
  skipped: ElementSkips;
  /**
   * The elements of the templates this datagram announced that the decoder does not read, as
   * "id" or "enterprise/id" (at most MAX_UNKNOWN_ELEMENT_IDS): for the operator's diagnosis.
   */
  unknownElements: string[];
};

export const MAX_UNKNOWN_ELEMENT_IDS = 64;

/** A result with nothing in it yet: decoders start from it. */
export function emptyResult(protocol: FlowProtocol | null): DecodeResult {
  return {
    protocol,
    agent: null,
    flows: [],
    problems: [],
    templateMisses: 0,
    counterSamples: 0,
    skipped: { "unknown-element": 0, "bad-element": 0 },
    unknownElements: [],
  };
}
