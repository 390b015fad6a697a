/**
 * Enrichment: a decoded flow + the snapshot of the network → one flows_raw row. Pure (no I/O); it
 * runs in the decoding workers at about 100k flows/s per core, so every map is built once in
 * createEnricher and a flow allocates little beyond its row (address texts of the row; lookups go
 * through reused scratch state). The rules, also in docs/architecture.md §8a:
 *
 * - Exporter → router by the router's exporter addresses, compared canonically (an IPv4-mapped
 *   "::ffff:a.b.c.d" is a.b.c.d, IPv6 in RFC 5952 form): the flow's exporter (sFlow: the agent
 *   address), else the UDP source it came from when that differs (an agent behind NAT or a relay,
 *   adopted by the address the collector heard); exporter_address is always the exporter's. An unknown exporter gives exporter_name,
 *   routers and interfaces "", its flows count (nothing else sees them as far as we know), and its
 *   ASes come from the record or are Untracked (-999): no routing table is known for it.
 * - Interfaces by (router, ifIndex). The record's logical interface (IE 10 / 14) is looked up first,
 *   then its physical one (IE 252 / 253) when the inventory does not know the logical one (or the
 *   record names none): the inventory may list either. in_if_index/out_if_index keep the ifIndex
 *   that matched, else the logical one (else the physical); unknown ifIndexes leave the interface "".
 * - VRF (vrf_name): the ingress interface's VRF when the inventory knows the interface (none: ""
 *   the global table, as the inventory says); for an interface it does not know, the record's
 *   ingress VRF id as "vrf-<id>" (0 is the default VRF: ""), else "". Routes are looked up in the
 *   table of the router's vantage points whose route distinguisher is that name; a VRF without a
 *   table of its own there uses the global table ("" route distinguisher), the usual case of an
 *   Internet VRF imported as the router's main table.
 * - Routing table of a router: those of its vantage points (vantage_points.router); with several,
 *   the longest match over them wins. An address family without any prefix there is "no table".
 * - Source and destination AS: the record's when present and not 0, else the origin of the longest
 *   matching prefix (last AS of its path; the operator's AS for an empty path, its own prefixes);
 *   no covering prefix → Not routable (-1); no routing table → Untracked (-999).
 * - Handover AS: the ingress interface's neighbour AS when it is external and names one; the
 *   operator's AS when it is an access interface or the source is the operator's own; else the
 *   first AS of the path towards the source (an exchange port, a core or unknown interface:
 *   symmetric routing is assumed), else -1/-999 as for the source.
 * - Next-hop AS: the egress interface's neighbour AS when it is external and names one; the
 *   operator's AS when it is an access interface or the destination is the operator's own; else the
 *   first AS of the record's AS path (sFlow gateway), else of the path towards the destination,
 *   else -1/-999 as for the destination.
 * - Ingress router and interface: the exporter's router and the in ifIndex's interface. Egress:
 *   the out interface when it is external or access (egress router = this router). When it is a
 *   core interface the flow crosses a link: link_start = this router and interface, link_end = its
 *   remote end, and the egress router is the router whose loopback is the BGP next hop (the
 *   record's, else the routing table's for the destination), out_if "". An unknown out interface
 *   gives the next hop's router too, when the next hop is one.
 * - Counted once: counted = 1 when the ingress interface is external or access (the traffic
 *   enters the network here); 0 when it is core (the router where it entered counted it). An
 *   ingress interface not in the inventory counts unless the record says it was exported on
 *   egress (direction 1). The record's direction does not swap in and out: NetFlow/IPFIX keep
 *   input = where the packet entered the router, output = where it left, for either direction,
 *   so an egress-direction record on an external out interface is attributed like an ingress one
 *   (its next-hop AS is that interface's neighbour) and counts when it entered this router from
 *   outside. A router exporting both directions of the same traffic is counted twice: export one.
 * - Time: time_received = the flow's end (unix seconds) when the record has one and the exporter's
 *   clock is not skewed, else the arrival (sFlow always). A long flow is not split across 5-minute
 *   buckets: all its bytes land in the bucket of its end.
 * - application / infrastructure: as_service_mappings of the source AS.
 * - Addresses in IPv6 columns: IPv4 as "::ffff:a.b.c.d", missing or unreadable as "::";
 *   ip_version 4 or 6, 0 when unknown.
 */
import type { DecodedFlow } from "../decode/flow-record";
import { canonicalIp, mappedIpv4, parseIpv4, parseIpv6, V6_WORDS } from "./address";
import type { EnrichOptions, Enricher } from "./enricher";
import type { FlowRow } from "./flow-row";
import { lookupIpv4, lookupIpv6 } from "./prefix-table";
import type { EnrichmentSnapshot, InterfaceKind, RibPrefixes, RibTable } from "./snapshot";

export const UNTRACKED_AS = -999;
export const NOT_ROUTABLE_AS = -1;

const KIND: Record<InterfaceKind, number> = { core: 0, external: 1, access: 2 };
const CORE = 0;
const EXTERNAL = 1;
const ACCESS = 2;

type Iface = {
  name: string;
  kind: number;
  /** -1 when the inventory names none. */
  neighborAsn: number;
  vrf: string | null;
  remoteRouter: string;
  remoteInterface: string;
};

type Table = { rib: RibTable; nextHopRouter: Int32Array };

type Router = {
  name: string;
  interfaces: Map<number, Iface>;
  /** Tables by route distinguisher over the router's vantage points. */
  tables: Map<string, Table[]>;
};

type Exporter = { router: number; column: string };

/** The outcome of one address lookup, reused for every flow. */
type Lookup = {
  /** 0 no address, 1 no table for its family, 2 no covering prefix, 3 found */
  status: number;
  family: 4 | 6 | 0;
  table: Table | null;
  prefixes: RibPrefixes | null;
  entry: number;
  column: string;
};

const NO_ADDRESS = 0;
const NO_TABLE = 1;
const NO_ROUTE = 2;
const FOUND = 3;

/** Caches keyed by text from the network are bounded: spoofed exporters must not grow them without end. */
const CACHE_LIMIT = 10_000;
const NO_TABLES: Table[] = [];
const NO_INDEXES: number[] = [];
const UINT32_MAX = 4_294_967_295;

const u16 = (value: number | null) => (value !== null && Number.isFinite(value) && value > 0 ? Math.min(Math.trunc(value), 0xffff) : 0);
/** A VLAN id's 12 bits (the decoders mask them already; a UInt16 column must not see more); absent: 0. */
const vlanColumn = (value: number | null) => (value === null ? 0 : value & 0x0fff);

/** An address as an IPv6 column's text: IPv4 as "::ffff:a.b.c.d"; absent, zero (not said) or unreadable as "::". */
function addressColumn(text: string | null): string {
  if (text === null || text === "0.0.0.0") return "::";
  if (parseIpv4(text) >= 0) return `::ffff:${text}`;
  return parseIpv6(text) ? text : "::";
}

/**
 * The ifIndex a record's interface is looked up by: the logical one when the router's inventory
 * knows it, else the physical one when it knows that, else the logical one (or the physical one
 * when there is no logical one), null when the record names neither.
 */
function matchedIndex(router: { interfaces: Map<number, unknown> } | null, logical: number | null, physical: number | null): number | null {
  if (physical === null || physical === logical) return logical;
  if (logical === null) return physical;
  if (router && !router.interfaces.has(logical) && router.interfaces.has(physical)) return physical;
  return logical;
}

const u32 = (value: number | null) => (value !== null && Number.isFinite(value) && value > 0 ? Math.min(Math.trunc(value), UINT32_MAX) : 0);

export function createEnricher(snapshot: EnrichmentSnapshot): Enricher {
  const operatorKnown = snapshot.operatorAsn !== null;
  const operator = snapshot.operatorAsn ?? UNTRACKED_AS;

  const routerIndex = new Map<string, number>();
  snapshot.routers.forEach((r, i) => routerIndex.set(r.name, i));
  const exporterRouter = new Map<string, number>();
  const loopbackRouter = new Map<string, number>();
  snapshot.routers.forEach((r, i) => {
    for (const address of r.exporters) {
      const key = canonicalIp(address);
      if (key) exporterRouter.set(key, i);
    }
    const loopback = canonicalIp(r.loopback);
    if (loopback) loopbackRouter.set(loopback, i);
  });

  const tablesByPoint = new Map<string, Table[]>();
  for (const rib of snapshot.ribs) {
    const nextHopRouter = Int32Array.from(rib.nextHops, (hop) => (hop ? (loopbackRouter.get(hop) ?? -1) : -1));
    const list = tablesByPoint.get(rib.vantagePoint) ?? [];
    list.push({ rib, nextHopRouter });
    tablesByPoint.set(rib.vantagePoint, list);
  }

  const routers: Router[] = snapshot.routers.map((r) => {
    const interfaces = new Map<number, Iface>();
    for (const i of r.interfaces)
      interfaces.set(i.ifIndex, {
        name: i.name,
        kind: KIND[i.kind] ?? CORE,
        neighborAsn: i.neighborAsn ?? -1,
        vrf: i.vrf || null,
        remoteRouter: i.remoteRouter ?? "",
        remoteInterface: i.remoteInterface ?? "",
      });
    const tables = new Map<string, Table[]>();
    for (const point of [...r.vantagePoints].sort())
      for (const table of tablesByPoint.get(point) ?? []) {
        const list = tables.get(table.rib.routeDistinguisher) ?? [];
        list.push(table);
        tables.set(table.rib.routeDistinguisher, list);
      }
    return { name: r.name, interfaces, tables };
  });

  const services = new Map(snapshot.asServices.map((s) => [s.asn, s]));

  const exporters = new Map<string, Exporter>();
  const exporterOf = (text: string): Exporter => {
    let found = exporters.get(text);
    if (!found) {
      const canonical = canonicalIp(text);
      const v4 = canonical ? parseIpv4(canonical) : -1;
      found = {
        router: canonical ? (exporterRouter.get(canonical) ?? -1) : -1,
        column: canonical ? (v4 >= 0 ? `::ffff:${canonical}` : canonical) : "::",
      };
      if (exporters.size >= CACHE_LIMIT) exporters.clear();
      exporters.set(text, found);
    }
    return found;
  };

  /** The flow's exporter; an sFlow agent the inventory does not name is its UDP source's router's, if any. */
  const relayed = new Map<string, Exporter>();
  const exporterOfFlow = (flow: DecodedFlow): Exporter => {
    const exporter = exporterOf(flow.exporter);
    if (exporter.router >= 0 || flow.udpSource === null) return exporter;
    const key = `${flow.exporter} ${flow.udpSource}`;
    let found = relayed.get(key);
    if (!found) {
      found = { router: exporterOf(flow.udpSource).router, column: exporter.column };
      if (relayed.size >= CACHE_LIMIT) relayed.clear();
      relayed.set(key, found);
    }
    return found;
  };

  const nextHops = new Map<string, number>();
  /** The router whose loopback is `text`, -1 for none; "" is none. */
  const loopbackOf = (text: string): number => {
    let found = nextHops.get(text);
    if (found === undefined) {
      const canonical = canonicalIp(text);
      found = canonical ? (loopbackRouter.get(canonical) ?? -1) : -1;
      if (nextHops.size >= CACHE_LIMIT) nextHops.clear();
      nextHops.set(text, found);
    }
    return found;
  };

  const vrfNames = new Map<number, string>();
  const vrfName = (id: number): string => {
    let name = vrfNames.get(id);
    if (name === undefined) {
      name = `vrf-${id}`;
      if (vrfNames.size < CACHE_LIMIT) vrfNames.set(id, name);
    }
    return name;
  };

  const newLookup = (): Lookup => ({ status: NO_ADDRESS, family: 0, table: null, prefixes: null, entry: -1, column: "::" });
  const src = newLookup();
  const dst = newLookup();

  /** Reads `text` and finds its longest match over `tables`, into `out`. */
  const lookup = (out: Lookup, text: string | null, tables: Table[]) => {
    out.table = null;
    out.prefixes = null;
    out.entry = -1;
    let v4 = text === null ? -1 : parseIpv4(text);
    if (v4 >= 0) {
      out.family = 4;
      out.column = `::ffff:${text}`;
    } else if (text !== null && parseIpv6(text)) {
      v4 = mappedIpv4();
      out.family = v4 >= 0 ? 4 : 6;
      out.column = text;
    } else {
      out.family = 0;
      out.column = "::";
      out.status = NO_ADDRESS;
      return;
    }
    out.status = NO_TABLE;
    let bestLength = -1;
    for (let t = 0; t < tables.length; t++) {
      const prefixes = out.family === 4 ? tables[t].rib.ipv4 : tables[t].rib.ipv6;
      if (prefixes.count === 0) continue;
      if (out.status === NO_TABLE) out.status = NO_ROUTE;
      const entry =
        out.family === 4
          ? lookupIpv4(prefixes.ranges, v4)
          : lookupIpv6(prefixes.ranges, V6_WORDS[0], V6_WORDS[1], V6_WORDS[2], V6_WORDS[3]);
      if (entry >= 0 && prefixes.prefixLength[entry] > bestLength) {
        bestLength = prefixes.prefixLength[entry];
        out.status = FOUND;
        out.table = tables[t];
        out.prefixes = prefixes;
        out.entry = entry;
      }
    }
  };

  /** The AS a lookup gives when the record has none: its origin, or the special value. */
  const originOf = (l: Lookup): number => {
    if (l.status === FOUND) {
      const origin = l.prefixes!.originAs[l.entry];
      return origin === 0 ? operator : origin;
    }
    return l.status === NO_ROUTE ? NOT_ROUTABLE_AS : UNTRACKED_AS;
  };
  /** The first AS of the path a lookup found, or the special value when there is no path to take it from. */
  const firstOf = (l: Lookup): number => {
    if (l.status === FOUND) {
      const first = l.prefixes!.firstAs[l.entry];
      return first === 0 ? operator : first;
    }
    return l.status === NO_ROUTE ? NOT_ROUTABLE_AS : UNTRACKED_AS;
  };
  // Without an operator AS, own prefixes are Untracked like the rest: firstOf gives the same value.
  const isOwn = (asn: number) => operatorKnown && asn === operator;
  const recordAs = (value: number | null) => (value !== null && value !== 0 && Number.isFinite(value) ? value : null);
  const usableHop = (text: string | null) => (text && text !== "0.0.0.0" && text !== "::" ? text : null);

  const routerOfFlow = (flow: DecodedFlow): Router | null => {
    const index = exporterOfFlow(flow).router;
    return index >= 0 ? routers[index] : null;
  };

  return {
    routerOf(exporter: string): string | null {
      const index = exporterOf(exporter).router;
      return index >= 0 ? routers[index].name : null;
    },

    unknownIfIndexes(flow: DecodedFlow): number[] {
      const router = routerOfFlow(flow);
      // Inline rather than a closure made per flow: this runs for every flow.
      const inIndex = matchedIndex(router, flow.inIfIndex, flow.inPhysIfIndex);
      const outIndex = matchedIndex(router, flow.outIfIndex, flow.outPhysIfIndex);
      const inUnknown = inIndex !== null && inIndex !== 0 && !router?.interfaces.has(inIndex);
      const outUnknown = outIndex !== null && outIndex !== 0 && !router?.interfaces.has(outIndex) && outIndex !== inIndex;
      if (!inUnknown && !outUnknown) return NO_INDEXES;
      return inUnknown && outUnknown ? [inIndex!, outIndex!] : [inUnknown ? inIndex! : outIndex!];
    },

    enrich(flow: DecodedFlow, options: EnrichOptions): FlowRow {
      const exporter = exporterOfFlow(flow);
      const router = exporter.router >= 0 ? routers[exporter.router] : null;
      const inIndex = matchedIndex(router, flow.inIfIndex, flow.inPhysIfIndex);
      const outIndex = matchedIndex(router, flow.outIfIndex, flow.outPhysIfIndex);
      const inIf = router && inIndex ? router.interfaces.get(inIndex) : undefined;
      const outIf = router && outIndex ? router.interfaces.get(outIndex) : undefined;

      const vrf = inIf ? (inIf.vrf ?? "") : flow.ingressVrfId ? vrfName(flow.ingressVrfId) : "";
      const tables = router ? (router.tables.get(vrf) ?? router.tables.get("") ?? NO_TABLES) : NO_TABLES;
      lookup(src, flow.srcAddr, tables);
      lookup(dst, flow.dstAddr, tables);

      const asSrc = recordAs(flow.srcAs) ?? originOf(src);
      const asDst = recordAs(flow.dstAs) ?? originOf(dst);

      let asHnd: number;
      if (inIf && inIf.kind === EXTERNAL && inIf.neighborAsn > 0) asHnd = inIf.neighborAsn;
      else if ((inIf && inIf.kind === ACCESS) || isOwn(asSrc)) asHnd = operator;
      else asHnd = firstOf(src);

      let asNxt: number;
      if (outIf && outIf.kind === EXTERNAL && outIf.neighborAsn > 0) asNxt = outIf.neighborAsn;
      else if ((outIf && outIf.kind === ACCESS) || isOwn(asDst)) asNxt = operator;
      else if (flow.asPath && flow.asPath.length > 0 && flow.asPath[0] > 0) asNxt = flow.asPath[0];
      else asNxt = firstOf(dst);

      let egressRouter = "";
      let outName = "";
      let linkStartRouter = "";
      let linkStartIf = "";
      let linkEndRouter = "";
      let linkEndIf = "";
      if (router && outIf && outIf.kind !== CORE) {
        egressRouter = router.name;
        outName = outIf.name;
      } else if (router) {
        if (outIf) {
          linkStartRouter = router.name;
          linkStartIf = outIf.name;
          linkEndRouter = outIf.remoteRouter;
          linkEndIf = outIf.remoteInterface;
        }
        const recordHop = usableHop(flow.bgpNextHop);
        const hopRouter = recordHop
          ? loopbackOf(recordHop)
          : dst.status === FOUND
            ? dst.table!.nextHopRouter[dst.prefixes!.nextHop[dst.entry]]
            : -1;
        if (hopRouter >= 0) egressRouter = routers[hopRouter].name;
      }

      let counted: 0 | 1 = 1;
      if (router) counted = inIf ? (inIf.kind === CORE ? 0 : 1) : flow.direction === 1 ? 0 : 1;

      const endMs = flow.flowEndMs;
      const timeMs =
        flow.protocol !== "sflow5" && !options.clockSkewed && endMs !== null && Number.isFinite(endMs) && endMs > 0
          ? endMs
          : options.arrivalMs;

      const service = services.get(asSrc);
      const hop = usableHop(flow.bgpNextHop) ?? usableHop(flow.nextHop);
      const nextHopColumn = addressColumn(hop);
      const version = flow.ipVersion ?? (src.family || dst.family);

      return {
        time_received: Math.floor(timeMs / 1000),
        exporter_address: exporter.column,
        exporter_name: router ? router.name : "",
        sampling_rate: Math.max(1, u32(flow.samplingRate)),
        ip_version: version,
        src_addr: src.column,
        dst_addr: dst.column,
        src_prefix_len: flow.srcPrefixLen ? flow.srcPrefixLen : src.status === FOUND ? src.prefixes!.prefixLength[src.entry] : 0,
        dst_prefix_len: flow.dstPrefixLen ? flow.dstPrefixLen : dst.status === FOUND ? dst.prefixes!.prefixLength[dst.entry] : 0,
        protocol: flow.ipProtocol ?? 0,
        src_port: flow.srcPort ?? 0,
        dst_port: flow.dstPort ?? 0,
        tcp_flags: flow.tcpFlags ?? 0,
        bytes: flow.bytes,
        packets: flow.packets,
        vrf_name: vrf,
        ingress_router: router ? router.name : "",
        in_if: inIf ? inIf.name : "",
        egress_router: egressRouter,
        out_if: outName,
        link_start_router: linkStartRouter,
        link_start_if: linkStartIf,
        link_end_router: linkEndRouter,
        link_end_if: linkEndIf,
        as_src: asSrc,
        as_hnd: asHnd,
        as_nxt: asNxt,
        as_dst: asDst,
        application: service ? service.application : "",
        infrastructure: service ? service.infrastructure : "",
        in_if_index: u32(inIndex),
        out_if_index: u32(outIndex),
        flow_protocol: flow.protocol,
        next_hop: nextHopColumn,
        counted,
        icmp_type: flow.icmpType === null ? null : flow.icmpType & 0xff,
        icmp_code: flow.icmpCode === null ? null : flow.icmpCode & 0xff,
        forwarding_status: flow.forwardingStatus === null ? 0 : flow.forwardingStatus & 0xff,
        post_nat_src_addr: addressColumn(flow.postNatSrcAddr),
        post_nat_dst_addr: addressColumn(flow.postNatDstAddr),
        post_nat_src_port: u16(flow.postNatSrcPort),
        post_nat_dst_port: u16(flow.postNatDstPort),
        // Outer tag first (flow-record.ts); a third QinQ tag has no column.
        src_vlan: vlanColumn(flow.vlans.length > 0 ? flow.vlans[0] : null),
        src_inner_vlan: vlanColumn(flow.vlans.length > 1 ? flow.vlans[1] : null),
        dst_vlan: vlanColumn(flow.egressVlan),
        // The decoder's array, read-only (the shared empty one for most flows): no copy.
        mpls_labels: flow.mplsLabels,
      };
    },
  };
}
