/**
 * From the elements of one NetFlow v9 / IPFIX data record to the DecodedFlows it stands for: one,
 * or two for an RFC 5103 biflow.
 */
import { fromUptime } from "./bytes";
import { isZeroAddress, type ElementValues } from "./elements";
import { emptyFlow, type DecodedFlow } from "./flow-record";
import { parseEthernetFrame, parseIpPacket, type SampledHeader } from "./packet-header";

export const ICMP = 1;
export const ICMPV6 = 58;

const familyOf = (text: string | null): 4 | 6 | null => (text === null ? null : text.includes(":") ? 6 : 4);
const setFamily = (text: string | null) => (text !== null && !isZeroAddress(text) ? familyOf(text) : null);

/**
 * The ICMP type and code of an ICMP or ICMPv6 record, and whether they came from the destination
 * port: the elements of the protocol's family (IE 32 / 176 / 177 for ICMP, 139 / 178 / 179 for
 * ICMPv6; the split type and code elements before the combined one), else the NetFlow convention
 * of type × 256 + code in the destination port, which exporters without ICMP elements follow.
 * Null for any other protocol: templates shared by all protocols carry ICMP elements (zero, which
 * would read as an echo reply) in TCP and UDP records too.
 */
export function icmpOf(
  protocol: number | null,
  type: number | null,
  code: number | null,
  typeCode: number | null,
  dstPort: number | null,
): { type: number; code: number; fromPort: boolean } | null {
  if (protocol !== ICMP && protocol !== ICMPV6) return null;
  if (type !== null || code !== null || typeCode !== null) {
    const combined = typeCode ?? 0;
    return { type: (type ?? combined >> 8) & 0xff, code: (code ?? combined) & 0xff, fromPort: false };
  }
  if (dstPort === null) return null;
  return { type: (dstPort >> 8) & 0xff, code: dstPort & 0xff, fromPort: true };
}

export type RecordContext = {
  protocol: "netflow9" | "ipfix";
  exporter: string;
  sourceId: number;
  exportTimeMs: number;
  /** v9: the header's sysUptime; IPFIX: null (uptime stamps count from systemInitTimeMilliseconds). */
  uptimeMs: number | null;
  /** IPFIX systemInitTimeMilliseconds from the domain's options data, when the record lacks it. */
  systemInitMs: number | null;
  samplingRate: number;
};

export function flowFromValues(values: ElementValues, context: RecordContext): DecodedFlow {
  const flow = emptyFlow(context.protocol, context.exporter, context.sourceId);
  flow.samplingRate = context.samplingRate;
  flow.exportTimeMs = context.exportTimeMs;
  // The family of the addresses kept (a zero address of the other family never replaces them), else ipVersion (IE 60).
  const declared = values.ipVersion === 4 || values.ipVersion === 6 ? values.ipVersion : null;
  flow.ipVersion =
    setFamily(values.srcAddr) ?? setFamily(values.dstAddr) ?? familyOf(values.srcAddr) ?? familyOf(values.dstAddr) ?? declared;
  flow.srcAddr = values.srcAddr;
  flow.dstAddr = values.dstAddr;
  flow.srcPrefixLen = values.srcPrefixLen;
  flow.dstPrefixLen = values.dstPrefixLen;
  flow.srcPort = values.srcPort;
  flow.dstPort = values.dstPort;
  flow.ipProtocol = values.ipProtocol;
  flow.tcpFlags = values.tcpFlags;
  const header =
    values.frameSection !== null
      ? parseEthernetFrame(values.frameSection)
      : values.ipSection !== null
        ? parseIpPacket(values.ipSection)
        : null;
  // Egress-only exporters send the post* counters; totals are what long-lived flows may carry instead.
  // A sampled packet without counters is one packet of its frame's size (IE 312), else of the size its IP header states.
  flow.bytes = values.octetDelta ?? values.postOctetDelta ?? values.octetTotal ?? values.frameSize ?? header?.impliedLength ?? 0;
  flow.packets = values.packetDelta ?? values.postPacketDelta ?? values.packetTotal ?? (header !== null ? 1 : 0);
  // The logical interface wins; the physical one fills in where the record names no logical one.
  flow.inIfIndex = values.inIfIndex ?? values.inPhysIfIndex;
  flow.outIfIndex = values.outIfIndex ?? values.outPhysIfIndex;
  flow.inPhysIfIndex = values.inPhysIfIndex;
  flow.outPhysIfIndex = values.outPhysIfIndex;
  flow.srcAs = values.srcAs;
  flow.dstAs = values.dstAs;
  flow.nextHop = values.nextHop;
  flow.bgpNextHop = values.bgpNextHop;
  const outer = values.outerVlan ?? values.vlan;
  if (outer !== null) flow.vlans = values.innerVlan !== null ? [outer, values.innerVlan] : [outer];
  flow.egressVlan = values.egressVlan;
  if (values.mplsEntries !== null) flow.mplsLabels = labelsOf(values.mplsEntries);
  flow.direction = values.direction === 0 || values.direction === 1 ? values.direction : null;
  flow.ingressVrfId = values.ingressVrfId;
  flow.egressVrfId = values.egressVrfId;
  const v6 = values.ipProtocol === ICMPV6;
  const icmp = v6
    ? icmpOf(values.ipProtocol, values.icmpTypeV6, values.icmpCodeV6, values.icmpTypeCodeV6, values.dstPort)
    : icmpOf(values.ipProtocol, values.icmpTypeV4, values.icmpCodeV4, values.icmpTypeCodeV4, values.dstPort);
  if (icmp) {
    flow.icmpType = icmp.type;
    flow.icmpCode = icmp.code;
    // The destination port held the type and code, not a port.
    if (icmp.fromPort) flow.dstPort = 0;
  }
  // RFC 7270 defines the element as one byte; exporters sending it in 4 bytes put the status in the last.
  flow.forwardingStatus = values.forwardingStatus === null ? null : values.forwardingStatus & 0xff;
  flow.postNatSrcAddr = values.postNatSrcAddr;
  flow.postNatDstAddr = values.postNatDstAddr;
  flow.postNatSrcPort = values.postNaptSrcPort;
  flow.postNatDstPort = values.postNaptDstPort;
  flow.flowStartMs = stamp(values.startMs, values.startUptimeMs, values.startDeltaUs, values, context);
  flow.flowEndMs = stamp(values.endMs, values.endUptimeMs, values.endDeltaUs, values, context);
  if (header !== null) fillFromHeader(flow, header);
  return flow;
}

/**
 * The sampled header fills what the record's own elements left out: the exporter wrote those on
 * purpose (e.g. addresses after NAT). A record with addresses whose header counted an inner packet
 * describes another packet (the tunnel): then only the wire's VLANs and labels are taken from the header.
 */
function fillFromHeader(flow: DecodedFlow, header: SampledHeader): void {
  flow.header = header;
  if (flow.vlans.length === 0 && header.vlans.length > 0) flow.vlans = header.vlans;
  if (flow.mplsLabels.length === 0 && header.mplsLabels.length > 0) flow.mplsLabels = header.mplsLabels;
  const ownAddresses = flow.srcAddr !== null || flow.dstAddr !== null;
  if (ownAddresses && header.counted !== "outer") return;
  if (!ownAddresses && header.counted !== null) {
    flow.ipVersion = header.ipVersion;
    flow.srcAddr = header.srcAddr;
    flow.dstAddr = header.dstAddr;
  }
  flow.ipProtocol ??= header.ipProtocol;
  flow.srcPort ??= header.srcPort;
  flow.dstPort ??= header.dstPort;
  flow.tcpFlags ??= header.tcpFlags;
  flow.icmpType ??= header.icmpType;
  flow.icmpCode ??= header.icmpCode;
}

/**
 * The label values of IE 70–79's entries, top first. A template has room for more labels than most
 * packets carry and exporters fill the slots below the stack with zeros: an all-zero entry (not even
 * the bottom-of-stack bit, which the IPv4 explicit null label 0 at the bottom has) is an unused slot;
 * the stack ends at its bottom-of-stack entry.
 */
function labelsOf(entries: number[]): number[] {
  const labels: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    // A slot the template does not have (sparse), or an unused one.
    if (entry === undefined || entry === 0) continue;
    labels.push(entry >>> 4);
    if ((entry & 1) === 1) break;
  }
  return labels;
}

function stamp(
  absoluteMs: number | null,
  uptimeMs: number | null,
  deltaUs: number | null,
  values: ElementValues,
  context: RecordContext,
): number | null {
  if (absoluteMs !== null) return absoluteMs;
  if (uptimeMs !== null) {
    if (context.uptimeMs !== null) return fromUptime(context.exportTimeMs, context.uptimeMs, uptimeMs);
    const initMs = values.systemInitMs ?? context.systemInitMs;
    if (initMs !== null) return initMs + uptimeMs;
  }
  if (deltaUs !== null) return context.exportTimeMs - Math.floor(deltaUs / 1000);
  return null;
}

/**
 * The reverse half of an RFC 5103 biflow: the forward flow seen from the other end (addresses,
 * ports, prefixes, interfaces, ASes, VRFs and VLANs swapped) with the reverse elements' counters;
 * what only the forward direction said (next hops, TCP flags, ICMP, forwarding status, NAT) is not
 * carried over: the reverse direction's own elements say it, or it is not known. Null when
 * the reverse direction saw no traffic.
 */
export function reverseFlow(forward: DecodedFlow, reverse: ElementValues, context: RecordContext): DecodedFlow | null {
  const own = flowFromValues(reverse, context);
  if (own.bytes === 0 && own.packets === 0) return null;
  return {
    ...forward,
    srcAddr: forward.dstAddr,
    dstAddr: forward.srcAddr,
    srcPrefixLen: forward.dstPrefixLen,
    dstPrefixLen: forward.srcPrefixLen,
    srcPort: forward.dstPort,
    dstPort: forward.srcPort,
    inIfIndex: forward.outIfIndex,
    outIfIndex: forward.inIfIndex,
    inPhysIfIndex: forward.outPhysIfIndex,
    outPhysIfIndex: forward.inPhysIfIndex,
    srcAs: forward.dstAs,
    dstAs: forward.srcAs,
    ingressVrfId: forward.egressVrfId,
    egressVrfId: forward.ingressVrfId,
    vlans: forward.egressVlan !== null ? [forward.egressVlan] : [],
    // A sampled header is one packet of the forward direction; the reverse elements name their own labels.
    header: null,
    mplsLabels: own.mplsLabels,
    egressVlan: forward.vlans.length > 0 ? forward.vlans[0] : null,
    bytes: own.bytes,
    packets: own.packets,
    tcpFlags: own.tcpFlags,
    nextHop: own.nextHop,
    bgpNextHop: own.bgpNextHop,
    icmpType: own.icmpType,
    icmpCode: own.icmpCode,
    forwardingStatus: own.forwardingStatus,
    postNatSrcAddr: own.postNatSrcAddr,
    postNatDstAddr: own.postNatDstAddr,
    postNatSrcPort: own.postNatSrcPort,
    postNatDstPort: own.postNatDstPort,
    flowStartMs: own.flowStartMs ?? forward.flowStartMs,
    flowEndMs: own.flowEndMs ?? forward.flowEndMs,
  };
}
