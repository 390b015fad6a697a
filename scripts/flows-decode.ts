/**
 * npm run -s flows:decode -- FILE.pcap [FILE.pcap …]
 * Prints the flow records of libpcap/pcapng captures as a collector would decode them: the UDP
 * payloads in file order (files in the order given, sharing one template state, so a template file
 * can precede its data file), one JSON object per flow on stdout. Nothing is stored and no store is
 * opened. `exporter` is the UDP source for NetFlow and IPFIX and the agent address the datagram
 * names for sFlow (`source_id` its sub-agent id); `udp_source` is where the datagram came from.
 * `in_if`/`out_if` are the ifIndexes the flow is attributed to (logical, else physical),
 * `in_phys_if`/`out_phys_if` the physical ones the record named; `icmp` and `forwarding` name the
 * ICMP type/code and the forwarding status (IE 89) as the screens do; `vlans` are the ingress tags,
 * outer first, `egress_vlan` the VLAN the flow left on, `mpls_labels` the label stack, top first. Per file a summary line (with
 * each sFlow agent and the UDP sources it was heard from, and the elements skipped by reason with
 * the ids of those not decoded), and every decode problem, go to stderr; exit code 2 for bad
 * arguments, 1 for an unreadable file.
 */
import path from "node:path";
import { decodeDatagram, TemplateState, type DecodedFlow } from "~/features/collector/decode";
import { MAX_UNKNOWN_ELEMENT_IDS, SKIP_REASONS } from "~/features/collector/decode/flow-record";
import { CaptureFileError, readCaptureFile } from "~/features/collector/pcap/capture-file-reader.server";
import { forwardingStatusLabel, icmpLabel } from "~/features/filter/value-labels";

const USAGE = "usage: npm run -s flows:decode -- FILE.pcap [FILE.pcap …]";

const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/** The printed record: the field names a support engineer greps for; flow times only when the record has them. */
function printable(flow: DecodedFlow, udpSource: string) {
  return {
    exporter: flow.exporter,
    udp_source: udpSource,
    version: flow.protocol,
    source_id: flow.sourceId,
    sampling_rate: flow.samplingRate,
    ip_version: flow.ipVersion,
    src_addr: flow.srcAddr,
    src_port: flow.srcPort,
    dst_addr: flow.dstAddr,
    dst_port: flow.dstPort,
    protocol: flow.ipProtocol,
    bytes: flow.bytes,
    packets: flow.packets,
    in_if: flow.inIfIndex,
    out_if: flow.outIfIndex,
    in_phys_if: flow.inPhysIfIndex,
    out_phys_if: flow.outPhysIfIndex,
    src_as: flow.srcAs,
    dst_as: flow.dstAs,
    as_path: flow.asPath,
    src_prefix_len: flow.srcPrefixLen,
    dst_prefix_len: flow.dstPrefixLen,
    next_hop: flow.nextHop,
    bgp_next_hop: flow.bgpNextHop,
    // Ingress tags outer first (flows_raw's src_vlan, src_inner_vlan) and the egress VLAN (dst_vlan).
    vlans: flow.vlans,
    egress_vlan: flow.egressVlan,
    // The record's label stack elements (IE 70–79), else the sampled header's; top first.
    mpls_labels: flow.mplsLabels,
    tcp_flags: flow.tcpFlags,
    icmp_type: flow.icmpType,
    icmp_code: flow.icmpCode,
    icmp: flow.ipProtocol === null ? null : icmpLabel(flow.ipProtocol, flow.icmpType, flow.icmpCode),
    forwarding_status: flow.forwardingStatus,
    forwarding: flow.forwardingStatus === null ? null : forwardingStatusLabel(flow.forwardingStatus),
    post_nat_src_addr: flow.postNatSrcAddr,
    post_nat_src_port: flow.postNatSrcPort,
    post_nat_dst_addr: flow.postNatDstAddr,
    post_nat_dst_port: flow.postNatDstPort,
    direction: flow.direction === null ? null : flow.direction === 0 ? "ingress" : "egress",
    ingress_vrf: flow.ingressVrfId,
    egress_vrf: flow.egressVrfId,
    flow_start: iso(flow.flowStartMs),
    flow_end: iso(flow.flowEndMs),
    // Only for flows read from a sampled packet header (IPFIX IE 315/313, sFlow raw header).
    ...(flow.header && {
      header_counted: flow.header.counted,
      encapsulations: flow.header.encapsulations,
      outer_src_addr: flow.header.outerSrcAddr,
      outer_dst_addr: flow.header.outerDstAddr,
      ttl: flow.header.ttl,
      fragment_flags: flow.header.fragmentFlags,
      fragment_offset: flow.header.fragmentOffset,
      fragment_id: flow.header.fragmentId,
      srv6_segments: flow.header.srv6Segments,
      header_stop: flow.header.stop,
    }),
  };
}

function main(argv: string[]): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.error(USAGE);
    return 2;
  }
  const unknown = argv.find((arg) => arg.startsWith("-"));
  if (unknown || !argv.length) {
    console.error(unknown ? `unknown option ${unknown}; ${USAGE}` : `no capture file given; ${USAGE}`);
    return 2;
  }
  const state = new TemplateState();
  for (const file of argv) {
    const capture = readCaptureFile(file);
    let flows = 0;
    let problems = 0;
    let templateMisses = 0;
    const skipped: Record<string, number> = {};
    const unknownElements = new Set<string>();
    /** "agent A sub-agent N" → the UDP sources its datagrams came from. */
    const agents = new Map<string, Set<string>>();
    capture.datagrams.forEach((datagram, index) => {
      const result = decodeDatagram(state, datagram.srcAddr, datagram.payload, datagram.timestampMs ?? Date.now());
      if (result.agent) {
        const agent = `sFlow agent ${result.agent.address} sub-agent ${result.agent.subAgentId}`;
        agents.set(agent, (agents.get(agent) ?? new Set()).add(datagram.srcAddr));
      }
      for (const flow of result.flows) process.stdout.write(`${JSON.stringify(printable(flow, datagram.srcAddr))}\n`);
      for (const problem of result.problems)
        console.error(`${path.basename(file)}: datagram ${index + 1} from ${datagram.srcAddr}: ${problem.reason}: ${problem.detail}`);
      flows += result.flows.length;
      problems += result.problems.length;
      templateMisses += result.templateMisses;
      for (const reason of SKIP_REASONS) if (result.skipped[reason]) skipped[reason] = (skipped[reason] ?? 0) + result.skipped[reason];
      for (const element of result.unknownElements) if (unknownElements.size < MAX_UNKNOWN_ELEMENT_IDS) unknownElements.add(element);
    });
    console.error(
      `${path.basename(file)}: ${capture.datagrams.length} datagrams, ${flows} flows` +
        (problems ? `, ${problems} decode problems` : "") +
        (templateMisses ? `, ${templateMisses} data sets waiting for their template` : "") +
        Object.entries(skipped)
          .map(([reason, n]) => `, ${n} fields skipped as ${reason}`)
          .join("") +
        (unknownElements.size ? ` (elements not decoded: ${[...unknownElements].join(", ")})` : "") +
        [...agents].map(([agent, sources]) => `, ${agent} from UDP source ${[...sources].join(", ")}`).join(""),
    );
  }
  return 0;
}

// Piped into `head`: the reader going away ends the listing, it is no failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof CaptureFileError ? error.message : error);
  process.exitCode = 1;
}
