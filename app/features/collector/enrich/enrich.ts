/**
 * The enricher of a snapshot: one FlowRow per decoded flow. Pure (no I/O), so it runs in the
 * collector's decoding threads.
 */
import { parseIpAddress, toIpv6Column } from "~/lib/ip";
import type { DecodedFlow } from "../decode/flow-record";
import type { Enricher, EnrichOptions } from "./enricher";
import type { FlowRow } from "./flow-row";
import type { EnrichmentSnapshot } from "./snapshot";

/** AS numbers the record does not give are Untracked until routing data says more. */
const UNTRACKED_AS = -999;

function column(text: string | null): string {
  const address = text === null ? null : parseIpAddress(text);
  return address ? toIpv6Column(address) : "::";
}

export function createEnricher(snapshot: EnrichmentSnapshot): Enricher {
  const routers = new Map<string, string>();
  for (const router of snapshot.routers) for (const exporter of router.exporters) routers.set(exporter, router.name);
  const routerOf = (exporter: string) => routers.get(exporter) ?? null;
  return {
    routerOf,
    unknownIfIndexes: (flow) => [flow.inIfIndex, flow.outIfIndex].filter((i): i is number => i !== null && i !== 0),
    enrich(flow: DecodedFlow, options: EnrichOptions): FlowRow {
      const timeMs = options.clockSkewed || flow.flowEndMs === null ? options.arrivalMs : flow.flowEndMs;
      const exporterName = routerOf(flow.exporter) ?? "";
      return {
        time_received: Math.floor(timeMs / 1000),
        exporter_address: column(flow.exporter),
        exporter_name: exporterName,
        sampling_rate: flow.samplingRate,
        ip_version: flow.ipVersion ?? 0,
        src_addr: column(flow.srcAddr),
        dst_addr: column(flow.dstAddr),
        src_prefix_len: flow.srcPrefixLen ?? 0,
        dst_prefix_len: flow.dstPrefixLen ?? 0,
        protocol: flow.ipProtocol ?? 0,
        src_port: flow.srcPort ?? 0,
        dst_port: flow.dstPort ?? 0,
        tcp_flags: flow.tcpFlags ?? 0,
        bytes: flow.bytes,
        packets: flow.packets,
        vrf_name: "",
        ingress_router: exporterName,
        in_if: "",
        egress_router: exporterName,
        out_if: "",
        link_start_router: "",
        link_start_if: "",
        link_end_router: "",
        link_end_if: "",
        as_src: flow.srcAs ?? UNTRACKED_AS,
        as_hnd: UNTRACKED_AS,
        as_nxt: UNTRACKED_AS,
        as_dst: flow.dstAs ?? UNTRACKED_AS,
        application: "",
        infrastructure: "",
        in_if_index: flow.inIfIndex ?? 0,
        out_if_index: flow.outIfIndex ?? 0,
        flow_protocol: flow.protocol,
        next_hop: column(flow.bgpNextHop ?? flow.nextHop),
        counted: 1,
      };
    },
  };
}
