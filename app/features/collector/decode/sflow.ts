/**
 * sFlow version 5 datagrams (sflow.org, sflow_version_5.txt) → one DecodedFlow per flow sample.
 *
 * A flow sample is one sampled packet: bytes are its frame length (or IP length for the IPv4/IPv6
 * data records), packets 1, and the sample's sampling rate says how many packets it stands for
 * (applied later, once, by the aggregates). Flow times stay null: sFlow carries none, the collector
 * times these flows by arrival. Counter samples are counted, not turned into flows.
 *
 * The exporter is the agent the header names (with its sub-agent id), not the UDP source, which
 * differs behind NAT, a relay or a router sending from another interface: flows carry both.
 *
 * Robustness: every structure is read inside the length its parent declared, so an unknown sample
 * or record format is stepped over by its length. The samples must fit in the datagram, as many as
 * the header announces, or the datagram is refused whole (a cut copy must not add its traffic a
 * second time); within a whole datagram a malformed sample costs only itself: the problem is
 * reported (reason and where), the samples around it still decode. Nothing throws out of
 * decodeSflow and every loop consumes bytes, so it ends on any input.
 */
import { emptyFlow, emptyResult, type DecodedFlow, type DecodeErrorReason, type DecodeProblem, type DecodeResult } from "./flow-record";
import { parseEthernetFrame, parseIpPacket, unsupportedHeader, type SampledHeader } from "./packet-header";
import { XdrReader } from "./sflow-xdr";

const SFLOW_VERSION = 5;

/** Sample formats of enterprise 0 (the tag is enterprise << 12 | format). */
const FLOW_SAMPLE = 1;
const COUNTER_SAMPLE = 2;
const EXPANDED_FLOW_SAMPLE = 3;
const EXPANDED_COUNTER_SAMPLE = 4;

/** Flow record formats of enterprise 0. */
const RAW_PACKET_HEADER = 1;
const SAMPLED_ETHERNET = 2;
const SAMPLED_IPV4 = 3;
const SAMPLED_IPV6 = 4;
const EXTENDED_SWITCH = 1001;
const EXTENDED_ROUTER = 1002;
const EXTENDED_GATEWAY = 1003;

/** header_protocol values of the raw packet header record. */
const HEADER_ETHERNET = 1;
const HEADER_IPV4 = 11;
const HEADER_IPV6 = 12;

/** Interface value meaning "no such interface" (0 means "not known"): both are null to enrichment. */
const NO_INTERFACE = 0x3fffffff;

const NO_PACKET: DecodeProblem = {
  reason: "unsupported",
  detail: "flow sample describes no packet (no packet header or sampled packet record)",
};

/** A structure whose content contradicts the format (not merely cut short). */
class SflowFormatError extends Error {}

/** What a datagram's flows carry from its header: the exporter (the agent, else the UDP source), the UDP source beside it. */
type Datagram = { exporter: string; udpSource: string | null; subAgentId: number };

/** A sample's format tag and its bytes, read before any sample is decoded. */
type Sample = { tag: number; body: XdrReader };

export function decodeSflow(udpSource: string, payload: Uint8Array, _receivedAtMs: number): DecodeResult {
  const result = emptyResult(null);
  const reader = new XdrReader(payload);
  let datagram: Datagram;
  let samples: Sample[];
  try {
    const version = reader.u32("datagram version");
    if (version !== SFLOW_VERSION) {
      result.problems.push({ reason: "unknown-version", detail: `sFlow version ${version}, expected ${SFLOW_VERSION}` });
      return result;
    }
    result.protocol = "sflow5";
    const agent = agentAddress(readAddress(reader, "agent address"));
    const subAgentId = reader.u32("sub-agent id");
    // The device is the agent it names; without a usable address, the UDP source is all there is.
    if (agent !== null) result.agent = { address: agent, subAgentId };
    datagram = { exporter: agent ?? udpSource, udpSource: agent !== null && agent !== udpSource ? udpSource : null, subAgentId };
    reader.skip(8, "sequence number and uptime");
    samples = readSamples(reader);
  } catch (error) {
    const where = error instanceof SampleWindowError ? error.where : "datagram header";
    result.problems.push(problemOf(error, where, error instanceof SflowFormatError ? "bad-header" : "truncated"));
    return result;
  }

  samples.forEach(({ tag, body }, index) => {
    try {
      decodeSample(tag, body, datagram, result);
    } catch (error) {
      result.problems.push(problemOf(error, `sample ${index + 1} of ${samples.length}`, "bad-record"));
    }
  });
  return result;
}

/** A sample that does not fit in the datagram: its XDR error, and which sample it was. */
class SampleWindowError extends Error {
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * Every sample the header announces, each within the datagram. UDP delivers whole datagrams: a
 * sample that runs past the end, or fewer samples than announced, is a cut copy or noise after a
 * valid header, and none of the datagram's samples is used.
 */
function readSamples(reader: XdrReader): Sample[] {
  const count = reader.u32("sample count");
  const samples: Sample[] = [];
  for (let index = 0; index < count; index++) {
    try {
      const tag = reader.u32("sample tag");
      samples.push({ tag, body: reader.window(reader.u32("sample length"), "sample") });
    } catch (error) {
      throw new SampleWindowError(`sample ${index + 1} of ${count}`, error);
    }
  }
  return samples;
}

/**
 * The agent address as the exporter's key: IPv4-mapped IPv6 written dotted. Unknown, unspecified and
 * loopback name no device — agents left unconfigured report 127.0.0.1, several devices alike
 * (real captures do) — so the UDP source stands in for them.
 */
function agentAddress(address: string | null): string | null {
  const mapped = address === null ? null : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const text = mapped ? mapped[1] : address;
  if (text === null || text === "0.0.0.0" || text === "::" || text === "::1" || text.startsWith("127.")) return null;
  return text;
}

/** Short and contradictory structures, and a decoder bug too: none of them may stop the listener. */
function problemOf(error: unknown, where: string, reason: DecodeErrorReason): DecodeProblem {
  return { reason, detail: `${where}: ${error instanceof Error ? error.message : String(error)}` };
}

function decodeSample(tag: number, body: XdrReader, datagram: Datagram, result: DecodeResult): void {
  if (tag >>> 12 !== 0) return;
  switch (tag & 0xfff) {
    case FLOW_SAMPLE:
    case EXPANDED_FLOW_SAMPLE: {
      const flow = decodeFlowSample(body, (tag & 0xfff) === EXPANDED_FLOW_SAMPLE, datagram);
      if (flow) {
        result.flows.push(flow);
        // The flow is kept with what its header gave; the stop is counted beside it.
        if (flow.header?.stop) result.problems.push({ reason: flow.header.stop, detail: `sampled header: ${flow.header.stopDetail}` });
      } else result.problems.push({ ...NO_PACKET });
      return;
    }
    case COUNTER_SAMPLE:
    case EXPANDED_COUNTER_SAMPLE:
      result.counterSamples++;
      return;
  }
}

/** The compact form packs the format in the top 2 bits and the value in the other 30. */
function compactInterface(word: number): number | null {
  return interfaceIndex(word >>> 30, word & NO_INTERFACE);
}

/** Only format 0 names one interface; 1 (discarded) and 2 (several outputs) name none. */
function interfaceIndex(format: number, value: number): number | null {
  return format === 0 && value !== 0 && value !== NO_INTERFACE ? value : null;
}

function decodeFlowSample(body: XdrReader, expanded: boolean, datagram: Datagram): DecodedFlow | null {
  body.skip(expanded ? 12 : 8, "sequence number and source id");
  const flow = emptyFlow("sflow5", datagram.exporter, datagram.subAgentId);
  flow.udpSource = datagram.udpSource;
  flow.samplingRate = Math.max(1, body.u32("sampling rate"));
  body.skip(8, "sample pool and drops");
  if (expanded) {
    flow.inIfIndex = interfaceIndex(body.u32("input format"), body.u32("input value"));
    flow.outIfIndex = interfaceIndex(body.u32("output format"), body.u32("output value"));
  } else {
    flow.inIfIndex = compactInterface(body.u32("input interface"));
    flow.outIfIndex = compactInterface(body.u32("output interface"));
  }
  const recordCount = body.u32("flow record count");
  let sawPacket = false;
  let switchVlan: number | null = null;
  let switchDstVlan: number | null = null;
  for (let index = 0; index < recordCount; index++) {
    const tag = body.u32("flow record tag");
    const record = body.window(body.u32("flow record length"), `flow record ${index + 1} of ${recordCount}`);
    if (tag >>> 12 !== 0) continue;
    const format = tag & 0xfff;
    if (format === RAW_PACKET_HEADER || format === SAMPLED_ETHERNET || format === SAMPLED_IPV4 || format === SAMPLED_IPV6) {
      // One sampled packet per sample; should an agent describe it twice, the first description stands.
      if (!sawPacket) readPacketRecord(format, record, flow);
      sawPacket = true;
    } else if (format === EXTENDED_SWITCH) {
      switchVlan = record.u32("source VLAN");
      // A record cut after the source VLAN (16 bytes by the spec) still gives that one.
      if (record.remaining >= 8) {
        record.skip(4, "source priority");
        switchDstVlan = record.u32("destination VLAN");
      }
    } else if (format === EXTENDED_ROUTER) {
      flow.nextHop = readAddress(record, "next hop");
      flow.srcPrefixLen = record.u32("source mask length");
      flow.dstPrefixLen = record.u32("destination mask length");
    } else if (format === EXTENDED_GATEWAY) {
      readGateway(record, flow);
    }
  }
  // The tags in the sampled header are what was on the wire; the switch's VLAN fills in when the header had none.
  // Agents write 0 or 0xFFFFFFFF for "no VLAN known": only an 802.1Q id (1–4094) counts.
  if (flow.vlans.length === 0 && switchVlan !== null && isVlanId(switchVlan)) flow.vlans = [switchVlan];
  // The header shows the frame as it came in; only the switch says which VLAN it left on.
  if (switchDstVlan !== null && isVlanId(switchDstVlan)) flow.egressVlan = switchDstVlan;
  return sawPacket ? flow : null;
}

function readPacketRecord(format: number, record: XdrReader, flow: DecodedFlow): void {
  flow.packets = 1;
  if (format === RAW_PACKET_HEADER) {
    const headerProtocol = record.u32("header protocol");
    flow.bytes = record.u32("frame length");
    record.skip(4, "stripped octets");
    const header = record.opaque("packet header");
    if (headerProtocol === HEADER_ETHERNET) applyPacket(flow, parseEthernetFrame(header));
    else if (headerProtocol === HEADER_IPV4 || headerProtocol === HEADER_IPV6) applyPacket(flow, parseIpPacket(header));
    else flow.header = unsupportedHeader(`sFlow header protocol ${headerProtocol}`);
  } else if (format === SAMPLED_ETHERNET) {
    flow.bytes = record.u32("frame length");
  } else {
    const v6 = format === SAMPLED_IPV6;
    flow.bytes = record.u32("IP packet length");
    flow.ipProtocol = record.u32("IP protocol");
    flow.ipVersion = v6 ? 6 : 4;
    flow.srcAddr = v6 ? record.ipv6("source address") : record.ipv4("source address");
    flow.dstAddr = v6 ? record.ipv6("destination address") : record.ipv4("destination address");
    flow.srcPort = record.u32("source port");
    flow.dstPort = record.u32("destination port");
    flow.tcpFlags = record.u32("TCP flags");
  }
}

function applyPacket(flow: DecodedFlow, packet: SampledHeader): void {
  flow.header = packet;
  flow.vlans = packet.vlans;
  flow.mplsLabels = packet.mplsLabels;
  flow.ipVersion = packet.ipVersion;
  flow.srcAddr = packet.srcAddr;
  flow.dstAddr = packet.dstAddr;
  flow.ipProtocol = packet.ipProtocol;
  flow.srcPort = packet.srcPort;
  flow.dstPort = packet.dstPort;
  flow.tcpFlags = packet.tcpFlags;
  flow.icmpType = packet.icmpType;
  flow.icmpCode = packet.icmpCode;
}

/**
 * Extended gateway: BGP next hop, the router's AS, source AS, source peer AS, then the path to the
 * destination as segments (1 AS_SET, 2 AS_SEQUENCE). The destination AS is the path's last AS; an
 * empty path means the destination is in the router's own AS. Communities and local preference
 * follow and are not used.
 */
function readGateway(record: XdrReader, flow: DecodedFlow): void {
  flow.bgpNextHop = readAddress(record, "BGP next hop");
  const routerAs = record.u32("router AS");
  flow.srcAs = record.u32("source AS");
  record.skip(4, "source peer AS");
  const segmentCount = record.u32("AS path segment count");
  const path: number[] = [];
  for (let segment = 0; segment < segmentCount; segment++) {
    record.skip(4, "AS path segment type");
    const length = record.u32("AS path segment length");
    for (let i = 0; i < length; i++) path.push(record.u32("AS number"));
  }
  flow.asPath = path;
  flow.dstAs = path.length > 0 ? path[path.length - 1] : routerAs;
}

/** sFlow's address: a type word (1 IPv4, 2 IPv6, 0 unknown and no bytes), then the address. */
function readAddress(reader: XdrReader, what: string): string | null {
  const type = reader.u32(`${what} type`);
  if (type === 1) return reader.ipv4(what);
  if (type === 2) return reader.ipv6(what);
  if (type === 0) return null;
  throw new SflowFormatError(`${what} has type ${type} (1 IPv4, 2 IPv6 or 0 unknown expected)`);
}

/** An 802.1Q VLAN id: agents write 0 or 0xFFFFFFFF for "no VLAN known". */
function isVlanId(value: number): boolean {
  return value >= 1 && value <= 4094;
}
