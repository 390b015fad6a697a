/**
 * The information elements the decoders read, shared by NetFlow v9 (RFC 3954 field types 1–127
 * are IPFIX elements with the same numbers) and IPFIX (RFC 7011, IANA IPFIX registry). A record's
 * fields are collected into `ElementValues` first, because the flow needs several of them at once
 * (which counter, which timestamp, which sampling element wins).
 */
import { readAddress, readNtpMs, readUnsigned } from "./bytes";

export type ElementValues = {
  srcAddr: string | null;
  dstAddr: string | null;
  ipVersion: number | null;
  srcPrefixLen: number | null;
  dstPrefixLen: number | null;
  srcPort: number | null;
  dstPort: number | null;
  ipProtocol: number | null;
  tcpFlags: number | null;
  octetDelta: number | null;
  octetTotal: number | null;
  postOctetDelta: number | null;
  packetDelta: number | null;
  packetTotal: number | null;
  postPacketDelta: number | null;
  /** dataLinkFrameSection (315): the sampled frame from its Ethernet header, as long as the exporter cut it. */
  frameSection: Uint8Array | null;
  /** ipHeaderPacketSection (313): the same from the IP header. */
  ipSection: Uint8Array | null;
  /** dataLinkFrameSize (312): the sampled frame's length on the wire. */
  frameSize: number | null;
  inIfIndex: number | null;
  outIfIndex: number | null;
  /** ingressPhysicalInterface / egressPhysicalInterface (IE 252 / 253). */
  inPhysIfIndex: number | null;
  outPhysIfIndex: number | null;
  srcAs: number | null;
  dstAs: number | null;
  nextHop: string | null;
  bgpNextHop: string | null;
  vlan: number | null;
  outerVlan: number | null;
  innerVlan: number | null;
  egressVlan: number | null;
  direction: number | null;
  ingressVrfId: number | null;
  egressVrfId: number | null;
  /** ICMP of either family, kept apart: a template may carry both, and the protocol says which one applies. */
  icmpTypeCodeV4: number | null;
  icmpTypeCodeV6: number | null;
  icmpTypeV4: number | null;
  icmpCodeV4: number | null;
  icmpTypeV6: number | null;
  icmpCodeV6: number | null;
  /**
   * mplsTopLabelStackSection (70) and mplsLabelStackSection2–10 (71–79) by position (0: IE 70):
   * each a label stack entry without its TTL, 24 bits; null until the record has one.
   */
  mplsEntries: number[] | null;
  /** forwardingStatus (IE 89). */
  forwardingStatus: number | null;
  /** NAT (IE 225–228, 281, 282): the addresses and ports after translation. */
  postNatSrcAddr: string | null;
  postNatDstAddr: string | null;
  postNaptSrcPort: number | null;
  postNaptDstPort: number | null;
  /** Absolute stamps in Unix ms (IPFIX 150–157). */
  startMs: number | null;
  endMs: number | null;
  /** Uptime stamps in ms (v9 FIRST/LAST_SWITCHED, IPFIX flowStart/EndSysUpTime). */
  startUptimeMs: number | null;
  endUptimeMs: number | null;
  /** Microseconds before the export time (IPFIX 158/159). */
  startDeltaUs: number | null;
  endDeltaUs: number | null;
  systemInitMs: number | null;
  samplingInterval: number | null;
  samplerRandomInterval: number | null;
  samplerId: number | null;
  packetInterval: number | null;
  packetSpace: number | null;
  samplingSize: number | null;
  samplingPopulation: number | null;
};

export function emptyValues(): ElementValues {
  return {
    srcAddr: null,
    dstAddr: null,
    ipVersion: null,
    srcPrefixLen: null,
    dstPrefixLen: null,
    srcPort: null,
    dstPort: null,
    ipProtocol: null,
    tcpFlags: null,
    octetDelta: null,
    octetTotal: null,
    postOctetDelta: null,
    packetDelta: null,
    packetTotal: null,
    postPacketDelta: null,
    frameSection: null,
    ipSection: null,
    frameSize: null,
    inIfIndex: null,
    outIfIndex: null,
    inPhysIfIndex: null,
    outPhysIfIndex: null,
    srcAs: null,
    dstAs: null,
    nextHop: null,
    bgpNextHop: null,
    vlan: null,
    outerVlan: null,
    innerVlan: null,
    egressVlan: null,
    direction: null,
    ingressVrfId: null,
    egressVrfId: null,
    icmpTypeCodeV4: null,
    icmpTypeCodeV6: null,
    icmpTypeV4: null,
    icmpCodeV4: null,
    icmpTypeV6: null,
    icmpCodeV6: null,
    mplsEntries: null,
    forwardingStatus: null,
    postNatSrcAddr: null,
    postNatDstAddr: null,
    postNaptSrcPort: null,
    postNaptDstPort: null,
    startMs: null,
    endMs: null,
    startUptimeMs: null,
    endUptimeMs: null,
    startDeltaUs: null,
    endDeltaUs: null,
    systemInitMs: null,
    samplingInterval: null,
    samplerRandomInterval: null,
    samplerId: null,
    packetInterval: null,
    packetSpace: null,
    samplingSize: null,
    samplingPopulation: null,
  };
}

type NumberKey = { [K in keyof ElementValues]: ElementValues[K] extends number | null ? K : never }[keyof ElementValues];
type AddressKey = { [K in keyof ElementValues]: ElementValues[K] extends string | null ? K : never }[keyof ElementValues];
/**
 * Reads one field into `values`; false when the field's length is not one the element can be read
 * at (a 6-byte address, a 9-byte counter): the field is skipped and counted as a malformed element.
 */
export type ElementReader = (values: ElementValues, view: DataView, offset: number, length: number) => boolean;

const unsigned =
  (key: NumberKey): ElementReader =>
  (values, view, offset, length) => {
    const value = readUnsigned(view, offset, length);
    if (value === null) return false;
    values[key] = value;
    return true;
  };

/** An all-zero address: what exporters put in the elements of the family a record is not of. */
export const isZeroAddress = (text: string) => text === "0.0.0.0" || text === "::";

/**
 * An address element. A zero address never replaces a set one: a template with both IPv4 and IPv6
 * elements carries zeros in the family the record is not of, in whichever order the template lists
 * them; a set address replaces a zero one.
 */
const address =
  (key: AddressKey): ElementReader =>
  (values, view, offset, length) => {
    const text = readAddress(view, offset, length);
    if (text === null) return false;
    if (values[key] === null || !isZeroAddress(text)) values[key] = text;
    return true;
  };
const vlan =
  (key: NumberKey): ElementReader =>
  (values, view, offset, length) => {
    const value = readUnsigned(view, offset, length);
    if (value === null) return false;
    values[key] = value & 0x0fff;
    return true;
  };
const ntp =
  (key: "startMs" | "endMs"): ElementReader =>
  (values, view, offset, length) => {
    if (length !== 8) return false;
    values[key] = readNtpMs(view, offset);
    return true;
  };
const seconds =
  (key: "startMs" | "endMs"): ElementReader =>
  (values, view, offset, length) => {
    const value = readUnsigned(view, offset, length);
    if (value === null) return false;
    values[key] = value * 1000;
    return true;
  };

/** The field's bytes as they are, a view into the datagram (read by packet-header.ts before the datagram goes). */
const section =
  (key: "frameSection" | "ipSection"): ElementReader =>
  (values, view, offset, length) => {
    values[key] = new Uint8Array(view.buffer, view.byteOffset + offset, length);
    return true; // any length is a section: the parser says what it cannot follow
  };

/**
 * One entry of the label stack elements (IE 70–79: RFC 3032's entry without the TTL — label 20
 * bits, traffic class 3, bottom of stack 1 — in 3 bytes; a 4-byte field is the whole entry, TTL last).
 */
const mplsEntry =
  (position: number): ElementReader =>
  (values, view, offset, length) => {
    if (length !== 3 && length !== 4) return false;
    const entry = (view.getUint8(offset) << 16) | (view.getUint8(offset + 1) << 8) | view.getUint8(offset + 2);
    (values.mplsEntries ??= [])[position] = entry;
    return true;
  };

/** The number of label stack elements: mplsTopLabelStackSection (70) and mplsLabelStackSection2–10 (71–79). */
export const MPLS_LABEL_ELEMENTS = 10;

/** Element id (enterprise 0) → reader. Elements not listed are skipped by their length. */
export const ELEMENT_READERS: ReadonlyMap<number, ElementReader> = new Map<number, ElementReader>([
  [1, unsigned("octetDelta")],
  [2, unsigned("packetDelta")],
  [4, unsigned("ipProtocol")],
  [6, unsigned("tcpFlags")],
  [7, unsigned("srcPort")],
  [8, address("srcAddr")],
  [9, unsigned("srcPrefixLen")],
  [10, unsigned("inIfIndex")],
  [11, unsigned("dstPort")],
  [12, address("dstAddr")],
  [13, unsigned("dstPrefixLen")],
  [14, unsigned("outIfIndex")],
  [15, address("nextHop")],
  [16, unsigned("srcAs")],
  [17, unsigned("dstAs")],
  [18, address("bgpNextHop")],
  [21, unsigned("endUptimeMs")],
  [22, unsigned("startUptimeMs")],
  [23, unsigned("postOctetDelta")],
  [24, unsigned("postPacketDelta")],
  [27, address("srcAddr")],
  [28, address("dstAddr")],
  [29, unsigned("srcPrefixLen")],
  [30, unsigned("dstPrefixLen")],
  [32, unsigned("icmpTypeCodeV4")],
  [34, unsigned("samplingInterval")],
  [48, unsigned("samplerId")],
  [50, unsigned("samplerRandomInterval")],
  [58, vlan("vlan")],
  [59, vlan("egressVlan")],
  [60, unsigned("ipVersion")],
  [61, unsigned("direction")],
  [62, address("nextHop")],
  [63, address("bgpNextHop")],
  ...Array.from({ length: MPLS_LABEL_ELEMENTS }, (_, i): [number, ElementReader] => [70 + i, mplsEntry(i)]),
  [85, unsigned("octetTotal")],
  [86, unsigned("packetTotal")],
  [89, unsigned("forwardingStatus")],
  [139, unsigned("icmpTypeCodeV6")],
  [150, seconds("startMs")],
  [151, seconds("endMs")],
  [152, unsigned("startMs")],
  [153, unsigned("endMs")],
  [154, ntp("startMs")],
  [155, ntp("endMs")],
  [156, ntp("startMs")],
  [157, ntp("endMs")],
  [158, unsigned("startDeltaUs")],
  [159, unsigned("endDeltaUs")],
  [160, unsigned("systemInitMs")],
  [176, unsigned("icmpTypeV4")],
  [177, unsigned("icmpCodeV4")],
  [178, unsigned("icmpTypeV6")],
  [179, unsigned("icmpCodeV6")],
  [180, unsigned("srcPort")],
  [181, unsigned("dstPort")],
  [182, unsigned("srcPort")],
  [183, unsigned("dstPort")],
  [225, address("postNatSrcAddr")],
  [226, address("postNatDstAddr")],
  [227, unsigned("postNaptSrcPort")],
  [228, unsigned("postNaptDstPort")],
  [234, unsigned("ingressVrfId")],
  [235, unsigned("egressVrfId")],
  [243, vlan("outerVlan")],
  [245, vlan("innerVlan")],
  [252, unsigned("inPhysIfIndex")],
  [253, unsigned("outPhysIfIndex")],
  [254, vlan("egressVlan")],
  [281, address("postNatSrcAddr")],
  [282, address("postNatDstAddr")],
  [302, unsigned("samplerId")],
  [305, unsigned("packetInterval")],
  [306, unsigned("packetSpace")],
  [309, unsigned("samplingSize")],
  [310, unsigned("samplingPopulation")],
  [312, unsigned("frameSize")],
  [313, section("ipSection")],
  [315, section("frameSection")],
]);

/** RFC 5103: the reverse direction of a biflow reuses the forward element ids under this enterprise number. */
export const REVERSE_PEN = 29305;

/**
 * The rate a record's own sampling elements name, or null when they name none: SAMPLING_INTERVAL
 * (34), the sampler's random interval (50), count-based selection (RFC 5477: 305 packets taken
 * every 305 + 306) and random n-out-of-N (309 of 310).
 */
export function samplingRateOf(values: ElementValues): number | null {
  if (values.samplingInterval) return values.samplingInterval;
  if (values.samplerRandomInterval) return values.samplerRandomInterval;
  if (values.packetInterval && values.packetSpace !== null) return (values.packetInterval + values.packetSpace) / values.packetInterval;
  if (values.samplingSize && values.samplingPopulation) return values.samplingPopulation / values.samplingSize;
  return null;
}
