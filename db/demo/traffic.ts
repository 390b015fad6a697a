import { createAllocator, hostInPrefix, parsePrefix } from "./addresses";
import type { DemoAs } from "./catalog";
import type { Random } from "./random";
import { IXES, type DemoInterface, type Topology } from "./topology";

export const SPECIAL_AS = { others: -101, untracked: -999, notRoutable: -1 } as const;

/** A traffic stream through the network over a validity window: one row of the generator table. */
export type DemoPath = {
  id: number;
  validFrom: number;
  validTo: number;
  ipVersion: 4 | 6;
  /** Average rate at the start of the period, before the daily/weekly cycle (bit/s). */
  rateBps: number;
  /** Growth over the whole period (0.1 = +10 %). */
  growth: number;
  /** 0: residential (evening peak, busier weekends); 1: business (office hours, quiet weekends). */
  profile: 0 | 1;
  /** Raw records per 5 minutes in the detailed (raw) day. */
  records: number;
  samplingRate: number;
  exporterName: string;
  exporterAddress: string;
  ingressRouter: string;
  inIf: string;
  egressRouter: string;
  outIf: string;
  linkStartRouter: string;
  linkStartIf: string;
  linkEndRouter: string;
  linkEndIf: string;
  asSrc: number;
  asHnd: number;
  asNxt: number;
  asDst: number;
  application: string;
  infrastructure: string;
  protocol: number;
  srcPorts: number[];
  srcHosts: string[];
  dstHosts: string[];
  srcPrefixLen: number;
  dstPrefixLen: number;
  packetSize: number;
  vrfName: string;
  /** ICMP (protocol 1) or ICMPv6 (58) paths: the type and code every record of the path carries. */
  icmp?: { type: number; code: number };
  /**
   * The path whose noise (and raw records' addresses and ports) this one draws: a part of a path an
   * event moved keeps the traffic it would have carried. Default: the path itself.
   */
  noiseOf?: number;
  /**
   * A path over a full link (the peer-overflow event): `share` of the link's cap is this path's
   * (its rate over the link's), `bps` that cap (set once the port's size is known; 0: no cap yet).
   * The direct path carries its traffic up to the cap; its `overflow` twin, through a transit
   * provider, carries what is beyond it. `surge`: the demand multiplied by `factor` in [from, to).
   */
  cap?: { share: number; bps: number; overflow: boolean; surge: { from: number; to: number; factor: number } };
};

/** `asn`: the AS whose traffic moves (for the outage: the transit provider whose port fails). */
export type DemoEvent = {
  kind: "handover-shift" | "router-shift" | "interface-outage" | "interface-failover" | "peer-overflow";
  at: number;
  until?: number;
  asn: number;
  description: string;
};

/** The peer-overflow event's port: sized once the paths are known so that the peer's capped traffic fills it. */
export type SaturatedPort = { iface: DemoInterface; transitIface: DemoInterface; rateAtEventBps: number };

export type AddressPlan = Map<number, { v4: string[]; v6: string[] }>;

/**
 * Prefixes per AS: the catalogue's real ones where given, otherwise synthetic space from the
 * benchmarking range 198.18.0.0/15 and the documentation range 2001:db8::/32 (never routed).
 */
export function buildAddressPlan(ases: DemoAs[], operatorAsn: number): AddressPlan {
  const next4 = createAllocator("198.18.0.0/15", 24);
  const next6 = createAllocator("2001:db8:1000::/36", 48);
  const plan: AddressPlan = new Map();
  plan.set(operatorAsn, { v4: ["203.0.113.0/24", "198.51.100.128/25"], v6: ["2001:db8::/36"] });
  for (const as of ases) {
    plan.set(as.asn, {
      v4: as.prefixes4.length ? as.prefixes4 : [next4(), next4()],
      v6: as.prefixes6.length ? as.prefixes6 : [next6()],
    });
  }
  return plan;
}

/** Subscriber share per router's access network (population served). */
const ACCESS_SHARE: Record<string, number> = {
  "fra-er1": 0.1,
  "fra-er2": 0.1,
  "ber-er1": 0.18,
  "ham-er1": 0.12,
  "muc-er1": 0.15,
  "ams-er1": 0.08,
  "lon-er1": 0.08,
  "par-er1": 0.07,
  "vie-er1": 0.12,
};

/**
 * `paths`: the generator rows; `naturalPaths`: the same rows without the interface-failover and
 * peer-overflow events (the ports are sized from them, as before those events existed).
 */
export type TrafficModel = {
  paths: DemoPath[];
  naturalPaths: DemoPath[];
  events: DemoEvent[];
  tracked: number[];
  saturated: SaturatedPort | null;
};

type Endpoint = { router: string; iface: DemoInterface; neighbor: number };

export function buildTraffic(options: {
  ases: DemoAs[];
  operatorAsn: number;
  topology: Topology;
  addresses: AddressPlan;
  random: Random;
  start: number;
  end: number;
  totalInboundBps: number;
}): TrafficModel {
  const { ases, operatorAsn, topology, addresses, random, start, end } = options;
  const day = 86_400;
  const byWeight = [...ases].sort((a, b) => b.weight - a.weight || a.asn - b.asn);
  const totalWeight = byWeight.reduce((s, a) => s + a.weight, 0);
  const transits = byWeight.filter((a) => a.connection === "transit");
  const customers = byWeight.filter((a) => a.connection === "customer");
  const accessRouters = Object.keys(ACCESS_SHARE);
  const paths: DemoPath[] = [];
  const events: DemoEvent[] = [];
  let nextId = 1;

  const hosts = (asn: number, family: 4 | 6, salt: number) => {
    const prefixes = family === 4 ? addresses.get(asn)!.v4 : addresses.get(asn)!.v6;
    const prefix = parsePrefix(prefixes[salt % prefixes.length]);
    return { hosts: Array.from({ length: 12 }, (_, i) => hostInPrefix(prefix, salt * 7919 + i * 104_729)), length: prefix.length };
  };

  /** The interfaces where traffic of `as` enters or leaves: its own links, or a transit's. */
  const endpointsOf = (as: DemoAs): Endpoint[] => {
    const own = topology.attachments.get(as.asn);
    if (own?.length) return own.map((iface) => ({ router: iface.router, iface, neighbor: as.asn }));
    const transit = transits[as.asn % transits.length];
    return topology.attachments.get(transit.asn)!.map((iface) => ({ router: iface.router, iface, neighbor: transit.asn }));
  };

  const pushPath = (
    fields: Omit<
      DemoPath,
      "id" | "exporterName" | "exporterAddress" | "linkStartRouter" | "linkStartIf" | "linkEndRouter" | "linkEndIf" | "samplingRate"
    >,
  ) => {
    const link = topology.coreLink(fields.ingressRouter, fields.egressRouter);
    const exporter = topology.routers.find((r) => r.name === fields.ingressRouter)!;
    const path: DemoPath = {
      id: nextId++,
      exporterName: exporter.name,
      // As the collector would record it: the address the router exports from.
      exporterAddress: exporter.exporter,
      samplingRate: exporter.vendor === "juniper" ? 1000 : 2000,
      linkStartRouter: link?.start.router ?? "",
      linkStartIf: link?.start.name ?? "",
      linkEndRouter: link?.end.router ?? "",
      linkEndIf: link?.end.name ?? "",
      ...fields,
    };
    paths.push(path);
    return path;
  };

  const v6ShareOf = (as: DemoAs) => (as.category === "content" || as.category === "cdn" ? 0.38 : as.category === "eyeball" ? 0.22 : 0.1);
  const profileOf = (as: DemoAs): 0 | 1 =>
    as.category === "enterprise" || as.category === "education" || as.category === "hosting" ? 1 : 0;

  // Streams whose paths change at an event: the events a root-cause analysis should find later.
  const handoverShiftAs =
    byWeight.find((a) => a.connection === "remote" && (a.category === "content" || a.category === "cdn")) ??
    byWeight.find((a) => a.connection === "remote")!;
  const routerShiftAs = byWeight.find((a) => a.connection === "ix" && (topology.attachments.get(a.asn)?.length ?? 0) === 1)!;
  const outageTransit = transits[0];
  const lastMidnight = Math.floor(end / day) * day;
  const handoverShiftAt = lastMidnight - 10 * day + 9 * 3600;
  const routerShiftAt = lastMidnight - 6 * day + 14 * 3600;
  const outageFrom = lastMidnight - 3 * day + 13 * 3600;
  const outageTo = outageFrom + 4 * 3600;
  // Events outside the generated period (a short demo) do not happen at all.
  const inPeriod = (at: number) => at > start && at < end;
  const handoverShiftHappens = inPeriod(handoverShiftAt);
  const routerShiftHappens = inPeriod(routerShiftAt);
  const outageHappens = inPeriod(outageFrom) && outageTo < end;
  const fraPort = topology.interfaces.find((i) => i.connection === "DE-CIX Frankfurt")!;
  const outagePort = topology.attachments.get(outageTransit.asn)![0];

  /**
   * Where traffic of `as` crosses the border over time: the endpoint, changed by the events —
   * the same for traffic arriving from `as` and traffic sent to it, as routing is symmetric here.
   */
  const endpointOverTime = (as: DemoAs, entry: Endpoint): { from: number; to: number; endpoint: Endpoint }[] => {
    if (handoverShiftHappens && as.asn === handoverShiftAs.asn) {
      const other = transits.find((t) => t.asn !== entry.neighbor)!;
      const otherIface =
        topology.attachments.get(other.asn)!.find((i) => i.router === entry.router) ?? topology.attachments.get(other.asn)![0];
      return [
        { from: start, to: handoverShiftAt, endpoint: entry },
        { from: handoverShiftAt, to: end, endpoint: { router: otherIface.router, iface: otherIface, neighbor: other.asn } },
      ];
    }
    if (routerShiftHappens && as.asn === routerShiftAs.asn) {
      return [
        { from: start, to: routerShiftAt, endpoint: entry },
        { from: routerShiftAt, to: end, endpoint: { ...entry, router: fraPort.router, iface: fraPort } },
      ];
    }
    if (outageHappens && entry.iface === outagePort) {
      // The port is down for four hours; its traffic fails over to the transit's next port.
      const backupIface = topology.attachments.get(outageTransit.asn)![1] ?? entry.iface;
      return [
        { from: start, to: outageFrom, endpoint: entry },
        { from: outageFrom, to: outageTo, endpoint: { ...entry, router: backupIface.router, iface: backupIface } },
        { from: outageTo, to: end, endpoint: entry },
      ];
    }
    return [{ from: start, to: end, endpoint: entry }];
  };

  for (const [rank, as] of byWeight.entries()) {
    const share = as.weight / totalWeight;
    const inboundBps = options.totalInboundBps * share;
    const outboundBps = inboundBps * (as.category === "eyeball" ? 0.6 : as.category === "customer" ? 0.9 : 0.06);
    const growth = as.category === "content" || as.category === "cdn" ? 0.08 + random.next() * 0.2 : 0.02 + random.next() * 0.06;
    const application = as.application ?? "";
    const infrastructure = as.infrastructure ?? "";
    const profile = profileOf(as);
    const v6Share = v6ShareOf(as);
    const records = rank < 20 ? 4 : rank < 80 ? 2 : 1;
    const protocol = as.category === "content" && random.chance(0.35) ? 17 : 6;
    const srcPorts = as.category === "content" || as.category === "cdn" ? [443, 443, 443, 80] : [443, 80, 8080, 22, 3478];

    // Inbound: from `as` into subscribers (most) and customers.
    const destinations: { asn: number; router: string; iface: DemoInterface; share: number }[] = [];
    // Big sources reach subscribers behind two routers, the rest behind one (population-weighted).
    const chosenAccess = pickWeighted(accessRouters, (r) => ACCESS_SHARE[r], rank < 40 ? 2 : 1, random);
    const accessTotal = chosenAccess.reduce((s, r) => s + ACCESS_SHARE[r], 0);
    for (const router of chosenAccess)
      destinations.push({
        asn: operatorAsn,
        router,
        iface: topology.accessInterface(router),
        share: (0.86 * ACCESS_SHARE[router]) / accessTotal,
      });
    if (as.connection !== "customer" && customers.length && rank < 120) {
      const customer = customers[as.asn % customers.length];
      const iface = topology.attachments.get(customer.asn)![0];
      destinations.push({ asn: customer.asn, router: iface.router, iface, share: 0.14 });
    } else {
      destinations[0].share += 0.14;
    }

    const entries = endpointsOf(as);
    for (const entry of entries) {
      for (const dest of destinations) {
        for (const family of rank < 120 ? ([4, 6] as const) : ([4] as const)) {
          const familyShare = rank >= 120 ? 1 : family === 6 ? v6Share : 1 - v6Share;
          const src = hosts(as.asn, family, nextId);
          const dst = hosts(dest.asn, family, nextId + 1);
          const base = {
            validFrom: start,
            validTo: end,
            ipVersion: family,
            rateBps: (inboundBps * dest.share * familyShare) / entries.length,
            growth,
            profile,
            records,
            ingressRouter: entry.router,
            inIf: entry.iface.name,
            egressRouter: dest.router,
            outIf: dest.iface.name,
            asSrc: as.asn,
            asHnd: entry.neighbor,
            asNxt: dest.asn,
            asDst: dest.asn,
            application,
            infrastructure,
            protocol,
            srcPorts,
            srcHosts: src.hosts,
            dstHosts: dst.hosts,
            srcPrefixLen: src.length,
            dstPrefixLen: dst.length,
            packetSize: as.category === "content" || as.category === "cdn" ? 1350 : 900,
            vrfName: dest.asn === operatorAsn ? "default" : "INTERNET",
          } satisfies Omit<
            DemoPath,
            "id" | "exporterName" | "exporterAddress" | "linkStartRouter" | "linkStartIf" | "linkEndRouter" | "linkEndIf" | "samplingRate"
          >;

          for (const { from, to, endpoint } of endpointOverTime(as, entry)) {
            pushPath({
              ...base,
              validFrom: from,
              validTo: to,
              ingressRouter: endpoint.router,
              inIf: endpoint.iface.name,
              asHnd: endpoint.neighbor,
            });
          }
        }
      }
    }

    // Outbound: the subscribers' requests and uploads towards `as`, leaving where `as` is reached:
    // over every port of a direct neighbour, as its inbound traffic arrives (so no port of a transit
    // provider or a private interconnect is idle outbound), and for a network behind a transit
    // provider over one of that provider's ports, chosen per network (its best route), so the
    // networks behind a provider spread over its ports without a stream per port.
    if (outboundBps > 0 && as.connection !== "customer") {
      const router = chosenAccess[0];
      const exits = topology.attachments.get(as.asn)?.length ? entries : [entries[rank % entries.length]];
      for (const exitPoint of exits)
        for (const family of rank < 120 ? ([4, 6] as const) : ([4] as const)) {
          const familyShare = rank >= 120 ? 1 : family === 6 ? v6Share : 1 - v6Share;
          const src = hosts(operatorAsn, family, nextId);
          const dst = hosts(as.asn, family, nextId + 3);
          for (const { from, to, endpoint: exit } of endpointOverTime(as, exitPoint))
            pushPath({
              validFrom: from,
              validTo: to,
              ipVersion: family,
              rateBps: (outboundBps * familyShare) / exits.length,
              growth,
              profile,
              records: Math.max(1, records - 1),
              ingressRouter: router,
              inIf: topology.accessInterface(router).name,
              egressRouter: exit.router,
              outIf: exit.iface.name,
              asSrc: operatorAsn,
              asHnd: operatorAsn,
              asNxt: exit.neighbor,
              asDst: as.asn,
              application,
              infrastructure,
              protocol,
              srcPorts: [443],
              srcHosts: src.hosts,
              dstHosts: dst.hosts,
              srcPrefixLen: src.length,
              dstPrefixLen: dst.length,
              packetSize: 700,
              vrfName: "default",
            });
        }
    }
  }

  // Traffic that cannot be attributed: unrouted sources (bogons, leaked CGNAT space) and
  // flows from an exporter interface that enrichment could not classify.
  const anyTransit = topology.attachments.get(transits[1 % transits.length].asn)![0];
  const notRoutableHosts = Array.from({ length: 12 }, (_, i) => `100.${64 + (i % 60)}.${i * 7}.${i * 13 + 1}`);
  const subscriberHosts = hosts(operatorAsn, 4, 999);
  for (const [asSrc, hostsSrc, rate] of [
    [SPECIAL_AS.notRoutable, notRoutableHosts, options.totalInboundBps * 0.002],
    [SPECIAL_AS.untracked, hosts(byWeight[byWeight.length - 1].asn, 4, 5).hosts, options.totalInboundBps * 0.004],
  ] as const) {
    pushPath({
      validFrom: start,
      validTo: end,
      ipVersion: 4,
      rateBps: rate,
      growth: 0,
      profile: 0,
      records: 1,
      ingressRouter: anyTransit.router,
      inIf: anyTransit.name,
      egressRouter: "ber-er1",
      outIf: topology.accessInterface("ber-er1").name,
      asSrc,
      asHnd: asSrc === SPECIAL_AS.untracked ? SPECIAL_AS.untracked : transits[1 % transits.length].asn,
      asNxt: operatorAsn,
      asDst: operatorAsn,
      application: "",
      infrastructure: "",
      protocol: 17,
      srcPorts: [53, 123, 0],
      srcHosts: [...hostsSrc],
      dstHosts: subscriberHosts.hosts,
      srcPrefixLen: asSrc === SPECIAL_AS.notRoutable ? 0 : 24,
      dstPrefixLen: subscriberHosts.length,
      packetSize: 400,
      vrfName: "default",
    });
  }

  addIcmpPaths(paths, pushPath, {
    operatorAsn,
    pinged: byWeight[0].asn,
    transit: transits[0].asn,
    totalInboundBps: options.totalInboundBps,
  });

  // The two later events edit the finished paths, so that every other path keeps its number and with
  // it its noise: a part an event moves is a new path drawing the noise of the one it came from.
  const naturalPaths = paths.map((p) => ({ ...p }));
  const fieldsOf = (p: DemoPath): PathFields => {
    const {
      id: _id,
      exporterName: _exporterName,
      exporterAddress: _exporterAddress,
      linkStartRouter: _linkStartRouter,
      linkStartIf: _linkStartIf,
      linkEndRouter: _linkEndRouter,
      linkEndIf: _linkEndIf,
      samplingRate: _samplingRate,
      ...fields
    } = p;
    return { ...fields, noiseOf: p.noiseOf ?? p.id };
  };
  // Private interconnects of one port on a router that also has an exchange port, by traffic.
  const ixPortOn = (router: string) => topology.interfaces.find((i) => i.router === router && IX_NAMES.has(i.connection ?? ""));
  const singlePortPnis = byWeight.filter((a) => {
    const ports = a.connection === "pni" ? (topology.attachments.get(a.asn) ?? []) : [];
    return ports.length === 1 && ixPortOn(ports[0].router);
  });
  const failoverAs = singlePortPnis.length >= 2 ? singlePortPnis[0] : null;
  const overflowAs = singlePortPnis.length >= 2 ? singlePortPnis[singlePortPnis.length - 1] : null;
  const failoverFrom = lastMidnight - 8 * day + 7 * 3600;
  const failoverTo = failoverFrom + 4 * 3600;
  const overflowFrom = lastMidnight - 5 * day + 18 * 3600;
  const overflowTo = overflowFrom + 4 * 3600;
  const failoverHappens = failoverAs !== null && inPeriod(failoverFrom) && failoverTo < end;
  const overflowHappens = overflowAs !== null && inPeriod(overflowFrom) && overflowTo < end;

  // Interface failover: the peer's private interconnect is down for four hours; its traffic, both
  // ways, takes the exchange port of the same router, where the peer also peers.
  if (failoverHappens) {
    const pni = topology.attachments.get(failoverAs.asn)![0];
    const ixPort = ixPortOn(pni.router)!;
    for (const p of [...paths]) {
      const inbound = p.ingressRouter === pni.router && p.inIf === pni.name;
      const outbound = p.egressRouter === pni.router && p.outIf === pni.name;
      if ((!inbound && !outbound) || p.validTo <= failoverFrom || p.validFrom >= failoverTo) continue;
      const fields = fieldsOf(p);
      const to = p.validTo;
      const from = Math.max(p.validFrom, failoverFrom);
      if (p.validFrom < failoverFrom) p.validTo = failoverFrom;
      else Object.assign(p, { validTo: from, validFrom: from }); // nothing before the failover: empty
      pushPath({
        ...fields,
        validFrom: from,
        validTo: Math.min(to, failoverTo),
        ...(inbound ? { inIf: ixPort.name } : { outIf: ixPort.name }),
      });
      if (to > failoverTo) pushPath({ ...fields, validFrom: failoverTo, validTo: to });
    }
  }

  // Peer overflow: the peer's private interconnect is full every evening (its traffic capped at
  // CAP_FILL of the port, which the loader sizes for it), and beyond it the peer's traffic arrives
  // through a transit provider; on the event's evening the peer's demand rises by OVERFLOW_SURGE and
  // all of the rise comes through the transit.
  let saturated: SaturatedPort | null = null;
  if (overflowHappens) {
    const pni = topology.attachments.get(overflowAs.asn)![0];
    const transitPorts = transits.flatMap((t) => topology.attachments.get(t.asn)!);
    const transitIface =
      transitPorts.find((i) => i.router === pni.router) ?? topology.attachments.get(transits[overflowAs.asn % transits.length].asn)![0];
    const direct = paths.filter((p) => p.ingressRouter === pni.router && p.inIf === pni.name && p.asHnd === overflowAs.asn);
    const total = direct.reduce((s, p) => s + p.rateBps, 0);
    const surge = { from: overflowFrom, to: overflowTo, factor: OVERFLOW_SURGE };
    for (const p of direct) {
      const fields = fieldsOf(p);
      p.cap = { share: p.rateBps / total, bps: 0, overflow: false, surge };
      pushPath({
        ...fields,
        ingressRouter: transitIface.router,
        inIf: transitIface.name,
        asHnd: transitIface.neighborAsn!,
        cap: { share: p.rateBps / total, bps: 0, overflow: true, surge },
      });
    }
    const atEvent = (p: DemoPath) => p.rateBps * (1 + (p.growth * (overflowFrom - start)) / (end - start));
    saturated = { iface: pni, transitIface, rateAtEventBps: direct.reduce((s, p) => s + atEvent(p), 0) };
  }

  if (handoverShiftHappens) {
    events.push({
      kind: "handover-shift",
      at: handoverShiftAt,
      asn: handoverShiftAs.asn,
      description: `AS${handoverShiftAs.asn} ${handoverShiftAs.name} moves from one transit provider to another`,
    });
  }
  if (routerShiftHappens) {
    events.push({
      kind: "router-shift",
      at: routerShiftAt,
      asn: routerShiftAs.asn,
      description: `AS${routerShiftAs.asn} ${routerShiftAs.name} moves its peering to DE-CIX Frankfurt (fra-er2)`,
    });
  }
  if (outageHappens) {
    events.push({
      kind: "interface-outage",
      at: outageFrom,
      until: outageTo,
      asn: outageTransit.asn,
      description: `Transit port to AS${outageTransit.asn} ${outageTransit.name} is down for 4 hours`,
    });
  }

  if (failoverHappens) {
    const pni = topology.attachments.get(failoverAs.asn)![0];
    events.push({
      kind: "interface-failover",
      at: failoverFrom,
      until: failoverTo,
      asn: failoverAs.asn,
      description: `Private interconnect to AS${failoverAs.asn} ${failoverAs.name} (${pni.router}) is down for 4 hours; its traffic takes the ${ixPortOn(pni.router)!.connection} port of the same router`,
    });
  }
  if (overflowHappens && saturated) {
    events.push({
      kind: "peer-overflow",
      at: overflowFrom,
      until: overflowTo,
      asn: overflowAs.asn,
      description: `AS${overflowAs.asn} ${overflowAs.name}'s full private interconnect (${saturated.iface.router}) stays at its capacity while its demand rises by ${Math.round((OVERFLOW_SURGE - 1) * 100)} % for 4 hours; the excess arrives through AS${saturated.transitIface.neighborAsn} ${transits.find((t) => t.asn === saturated!.transitIface.neighborAsn)!.name}`,
    });
  }
  events.sort((a, b) => a.at - b.at);

  // The top 200 ASes by traffic keep their numbers in the aggregates, plus the operator itself.
  const tracked = [operatorAsn, ...byWeight.slice(0, 200).map((a) => a.asn)];
  return { paths, naturalPaths, events, tracked, saturated };
}

/** The peer-overflow event: the peer's demand on its evening, as a multiple of its usual. */
export const OVERFLOW_SURGE = 1.6;
/** A full link carries this share of its capacity (the rest: framing, and the bursts a shaper smooths). */
export const CAP_FILL = 0.97;
const IX_NAMES = new Set<string>(IXES.map((ix) => ix.name));

type PathFields = Omit<
  DemoPath,
  "id" | "exporterName" | "exporterAddress" | "linkStartRouter" | "linkStartIf" | "linkEndRouter" | "linkEndIf" | "samplingRate"
>;

/**
 * ICMP kinds of the demo, each a share of the inbound traffic: subscribers ping the biggest content
 * network (requests out, replies in), and the routers of the first transit provider answer
 * traceroutes and unreachable destinations (time exceeded, destination unreachable, for IPv6 also
 * packet too big). Echo packets are 84 bytes (IPv4) and 104 (IPv6), errors 70 and 110.
 */
const ICMP_KINDS: readonly {
  from: "pinged" | "transit" | "operator";
  family: 4 | 6;
  type: number;
  code: number;
  share: number;
  packetSize: number;
}[] = [
  { from: "operator", family: 4, type: 8, code: 0, share: 0.0003, packetSize: 84 },
  { from: "pinged", family: 4, type: 0, code: 0, share: 0.0003, packetSize: 84 },
  { from: "transit", family: 4, type: 11, code: 0, share: 0.0001, packetSize: 70 },
  { from: "transit", family: 4, type: 3, code: 3, share: 0.00008, packetSize: 70 },
  { from: "transit", family: 4, type: 3, code: 1, share: 0.00004, packetSize: 70 },
  { from: "operator", family: 6, type: 128, code: 0, share: 0.0001, packetSize: 104 },
  { from: "pinged", family: 6, type: 129, code: 0, share: 0.0001, packetSize: 104 },
  { from: "transit", family: 6, type: 3, code: 0, share: 0.00003, packetSize: 110 },
  { from: "transit", family: 6, type: 1, code: 4, share: 0.00002, packetSize: 110 },
  { from: "transit", family: 6, type: 2, code: 0, share: 0.00002, packetSize: 110 },
];

/**
 * The ICMP traffic: each kind follows the TCP / UDP paths of its networks (the same routers,
 * interfaces, validity windows and addresses, so the routing checks hold for it too), at its own rate.
 */
function addIcmpPaths(
  paths: DemoPath[],
  pushPath: (fields: PathFields) => DemoPath,
  o: { operatorAsn: number; pinged: number; transit: number; totalInboundBps: number },
) {
  const existing = [...paths];
  const source = { operator: o.operatorAsn, pinged: o.pinged, transit: o.transit };
  for (const kind of ICMP_KINDS) {
    // Requests go from the subscribers to the pinged network; replies and errors come to the subscribers.
    const [src, dst] = kind.from === "operator" ? [o.operatorAsn, o.pinged] : [source[kind.from], o.operatorAsn];
    const along = existing.filter((p) => p.ipVersion === kind.family && p.asSrc === src && p.asDst === dst);
    const rate = (o.totalInboundBps * kind.share) / Math.max(1, along.length);
    for (const path of along) {
      // What pushPath derives (id, exporter, core link, sampling) it derives again, the same way.
      const {
        id: _id,
        exporterName: _exporterName,
        exporterAddress: _exporterAddress,
        linkStartRouter: _linkStartRouter,
        linkStartIf: _linkStartIf,
        linkEndRouter: _linkEndRouter,
        linkEndIf: _linkEndIf,
        samplingRate: _samplingRate,
        ...fields
      } = path;
      pushPath({
        ...fields,
        rateBps: rate,
        records: 1,
        protocol: kind.family === 4 ? 1 : 58,
        srcPorts: [0],
        packetSize: kind.packetSize,
        icmp: { type: kind.type, code: kind.code },
      });
    }
  }
}

/** `count` distinct items, drawn with probability proportional to their weight. */
function pickWeighted<T>(items: T[], weight: (item: T) => number, count: number, random: Random): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length) {
    const total = pool.reduce((sum, item) => sum + weight(item), 0);
    let point = random.next() * total;
    const index = pool.findIndex((item) => (point -= weight(item)) < 0);
    chosen.push(...pool.splice(index < 0 ? pool.length - 1 : index, 1));
  }
  return chosen;
}
