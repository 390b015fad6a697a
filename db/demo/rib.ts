import { formatIpv4, hostInPrefix, parsePrefix } from "./addresses";
import type { DemoAs } from "./catalog";
import type { AddressPlan, DemoEvent } from "./traffic";
import type { DemoInterface, Topology } from "./topology";

/** One row of rib_entries (the Control Plane row). */
export type RibRow = {
  timestamp: number;
  vantage_point: string;
  router_ip: string;
  peer_ip: string;
  peer_asn: number;
  route_distinguisher: string;
  prefix: string;
  prefix_addr: string;
  prefix_len: number;
  afi: number;
  safi: number;
  is_withdrawn: number;
  as_path: number[];
  as_path_set: number[];
  as_confed_seq: number[];
  local_pref: number;
  med: number;
  bgp_next_hop: string;
  origin: "IGP" | "EGP" | "INCOMPLETE";
  aggregator: string;
  originator_id: string;
  communities: string[];
  expire_at: number;
};

const LOCAL_PREF = { Customer: 200, Peering: 150, Transit: 100 } as const;
const TYPE_COMMUNITY = { Customer: 300, Peering: 200, Transit: 100 } as const;
/** How long before the end of the period the blackhole route of an attacked host was announced. */
const BLACKHOLE_AGE = 5 * 3600;

/**
 * The operator's labels for the communities its routers attach (community_labels): the kind of
 * session a route was learned over, the border router that learned it, the neighbour AS, its own
 * prefixes. The well-known ones (BLACKHOLE, NO_EXPORT) are named by the app itself.
 */
export function demoCommunityLabels(operatorAsn: number): { pattern: string; label: string }[] {
  return [
    { pattern: `${operatorAsn}:1`, label: "Own prefix" },
    { pattern: `${operatorAsn}:${TYPE_COMMUNITY.Transit}`, label: "Learned from a transit provider" },
    { pattern: `${operatorAsn}:${TYPE_COMMUNITY.Peering}`, label: "Learned from a peer" },
    { pattern: `${operatorAsn}:${TYPE_COMMUNITY.Customer}`, label: "Learned from a customer" },
    { pattern: `${operatorAsn}:*`, label: "Learned at a border router (1000 + its number)" },
    { pattern: `${operatorAsn}:1:*`, label: "Neighbour AS (last part)" },
  ];
}

/** Everyday churn: one directly connected neighbour's session flaps every CHURN_STEP over the last CHURN_SECONDS. */
const CHURN_STEP = 600;
const CHURN_SECONDS = 2 * 86_400;
/** A flapped session is back after this long (well inside one step). */
const FLAP_SECONDS = 90;

/** IX route-server LANs (from the benchmarking range, beyond what the AS allocator hands out). */
function ixPeerAddress(iface: DemoInterface, asn: number, ixIndex: number): string {
  return `198.19.${250 + (ixIndex % 6)}.${(asn % 250) + 2}`;
}

function ipv6NextHop(ipv4: string): string {
  const [a, b, c, d] = ipv4.split(".").map(Number);
  return `2001:db8:ffff::${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * The attribute columns of a withdrawn route, as the MRT import writes them: none (0 and empty, the
 * ORIGIN column's first value because the column cannot be empty).
 */
const WITHDRAWN = {
  is_withdrawn: 1,
  as_path: [],
  as_path_set: [],
  as_confed_seq: [],
  local_pref: 0,
  med: 0,
  bgp_next_hop: "",
  origin: "IGP",
  aggregator: "",
  originator_id: "",
  communities: [],
  expire_at: 0,
} satisfies Partial<RibRow>;

/**
 * ORIGIN as real tables show it: IGP for almost every network; INCOMPLETE (routes redistributed
 * from static or connected routes) for a few small customers and enterprises.
 */
export function originOf(as: DemoAs): RibRow["origin"] {
  return (as.category === "customer" || as.category === "enterprise") && as.asn % 4 === 1 ? "INCOMPLETE" : "IGP";
}

type Session = { iface: DemoInterface; neighbor: number; peerIp: string; type: keyof typeof LOCAL_PREF };

/**
 * Routing tables of every vantage point (one per router): the operator's own prefixes, and each
 * neighbour's prefixes learned over eBGP where the router has the session and over iBGP (next hop
 * = the border router's loopback) elsewhere. The AS paths match the handover/next-hop ASes of the
 * traffic model, and the model's events appear as withdrawals and re-announcements. Over the last
 * two days, sessions of directly connected neighbours that no event touches flap every 10 minutes
 * (withdrawn, back 90 s later with the same routes), as real tables churn: the history runs up to
 * the end of the period and the table at the end is the one the events leave.
 */
export function buildRib(options: {
  ases: DemoAs[];
  operatorAsn: number;
  topology: Topology;
  addresses: AddressPlan;
  events: DemoEvent[];
  start: number;
  end: number;
}): RibRow[] {
  const { ases, operatorAsn, topology, addresses, start, end } = options;
  const rows: RibRow[] = [];
  const transits = ases.filter((a) => a.connection === "transit").sort((a, b) => b.weight - a.weight || a.asn - b.asn);
  const remoteTransits = ases.filter((a) => a.connection === "remote" && a.category === "transit");
  const ixNames = topology.interfaces.filter((i) => i.kind === "external" && i.neighborAsn === null).map((i) => i.connection);
  const routerIndex = new Map(topology.routers.map((r, i) => [r.name, i]));
  const loopbackOf = (router: string) => topology.routers.find((r) => r.name === router)!.loopback;

  const sessionsOf = (asn: number): Session[] =>
    (topology.attachments.get(asn) ?? []).map((iface) => ({
      iface,
      neighbor: asn,
      peerIp: iface.neighborIp ?? ixPeerAddress(iface, asn, ixNames.indexOf(iface.connection)),
      type: (iface.peeringType ?? "Peering") as Session["type"],
    }));

  const pathTo = (as: DemoAs, via: number): number[] => {
    if (via === as.asn) return [as.asn];
    const middle = remoteTransits.length && as.asn % 3 === 0 ? remoteTransits[as.asn % remoteTransits.length].asn : null;
    return middle && middle !== via && middle !== as.asn ? [via, middle, as.asn] : [via, as.asn];
  };

  /**
   * Rows for the prefixes of `as` learned over `sessions`. Routers with one of the AS's sessions
   * (`allSessions`) use their own; the others learn it from the first border router over iBGP.
   */
  const routeRows = (timestamp: number, as: DemoAs, sessions: Session[], withdrawn: boolean, allSessions = sessions, onlyIbgp = false) => {
    const plan = addresses.get(as.asn)!;
    for (const router of topology.routers) {
      const local = sessions.filter((s) => s.iface.router === router.name);
      const hasOwnSession = allSessions.some((s) => s.iface.router === router.name);
      if (onlyIbgp && hasOwnSession) continue;
      const learned = local.length ? local : hasOwnSession ? [] : sessions.slice(0, 1);
      for (const session of learned) {
        const isLocal = session.iface.router === router.name;
        for (const prefix of [...plan.v4, ...plan.v6]) {
          const parsed = parsePrefix(prefix);
          const nextHop4 = isLocal ? session.peerIp : loopbackOf(session.iface.router);
          const key = {
            timestamp,
            vantage_point: router.vantagePointKey,
            router_ip: router.loopback,
            peer_ip: isLocal ? session.peerIp : loopbackOf(session.iface.router),
            peer_asn: isLocal ? session.neighbor : operatorAsn,
            route_distinguisher: "",
            prefix,
            prefix_addr: prefix.split("/")[0],
            prefix_len: parsed.length,
            afi: parsed.family === 4 ? 1 : 2,
            safi: 1,
          };
          // A withdrawal carries no path attributes (as an MRT update's withdrawn routes, imported the same way).
          rows.push(
            withdrawn
              ? { ...key, ...WITHDRAWN }
              : {
                  ...key,
                  is_withdrawn: 0,
                  as_path: pathTo(as, session.neighbor),
                  as_path_set: [],
                  as_confed_seq: [],
                  local_pref: LOCAL_PREF[session.type],
                  med: session.type === "Transit" ? 0 : 10 * (routerIndex.get(session.iface.router) ?? 0),
                  bgp_next_hop: parsed.family === 4 ? nextHop4 : ipv6NextHop(nextHop4),
                  origin: originOf(as),
                  aggregator: "",
                  originator_id: isLocal ? "" : loopbackOf(session.iface.router),
                  communities: [
                    `${operatorAsn}:${TYPE_COMMUNITY[session.type]}`,
                    `${operatorAsn}:${1000 + (routerIndex.get(session.iface.router) ?? 0)}`,
                    `${operatorAsn}:1:${session.neighbor}`,
                  ],
                  expire_at: 0,
                },
          );
        }
      }
    }
  };

  // The operator's own space: originated locally (empty AS path), present on every router; and one
  // host of it under attack, blackholed by a /32 that carries BLACKHOLE and NO_EXPORT (RFC 7999).
  const own = addresses.get(operatorAsn)!;
  const blackholed = `${hostInPrefix(parsePrefix(own.v4[0]), 65)}/32`;
  for (const router of topology.routers) {
    rows.push({
      timestamp: Math.max(start, end - BLACKHOLE_AGE),
      vantage_point: router.vantagePointKey,
      router_ip: router.loopback,
      peer_ip: "",
      peer_asn: 0,
      route_distinguisher: "",
      prefix: blackholed,
      prefix_addr: blackholed.split("/")[0],
      prefix_len: 32,
      afi: 1,
      safi: 1,
      is_withdrawn: 0,
      as_path: [],
      as_path_set: [],
      as_confed_seq: [],
      local_pref: 100,
      med: 0,
      // The discard address routers send blackholed traffic to.
      bgp_next_hop: "192.0.2.1",
      origin: "IGP",
      aggregator: "",
      originator_id: "",
      communities: [`${operatorAsn}:1`, "65535:666", "65535:65281"],
      expire_at: 0,
    });
    for (const prefix of [...own.v4, ...own.v6]) {
      const parsed = parsePrefix(prefix);
      rows.push({
        timestamp: start,
        vantage_point: router.vantagePointKey,
        router_ip: router.loopback,
        peer_ip: "",
        peer_asn: 0,
        route_distinguisher: "",
        prefix,
        prefix_addr: prefix.split("/")[0],
        prefix_len: parsed.length,
        afi: parsed.family === 4 ? 1 : 2,
        safi: 1,
        is_withdrawn: 0,
        as_path: [],
        as_path_set: [],
        as_confed_seq: [],
        local_pref: 100,
        med: 0,
        bgp_next_hop: parsed.family === 4 ? "0.0.0.0" : "::",
        origin: "IGP",
        aggregator: "",
        originator_id: "",
        communities: [`${operatorAsn}:1`],
        expire_at: 0,
      });
    }
  }

  const byAsn = new Map(ases.map((a) => [a.asn, a]));
  for (const as of ases) {
    const direct = sessionsOf(as.asn);
    const transit = transits[as.asn % transits.length];
    const sessions = direct.length ? direct : sessionsOf(transit.asn);
    routeRows(start, as, sessions, false);
  }

  const event = (kind: DemoEvent["kind"]) => options.events.find((e) => e.kind === kind);
  const handoverShift = event("handover-shift");
  const routerShift = event("router-shift");
  const outage = event("interface-outage");
  // Handover shift: the AS's routes now come from another transit provider.
  if (handoverShift) {
    const as = byAsn.get(handoverShift.asn)!;
    const before = transits[as.asn % transits.length];
    const after = transits.find((t) => t.asn !== before.asn)!;
    const at = handoverShift.at;
    routeRows(at, as, sessionsOf(before.asn), true);
    routeRows(at, as, sessionsOf(after.asn), false);
  }
  // Router shift: the peer's session moves to the Frankfurt exchange.
  if (routerShift) {
    const as = byAsn.get(routerShift.asn)!;
    const at = routerShift.at;
    const fraPort = topology.interfaces.find((i) => i.connection === "DE-CIX Frankfurt")!;
    routeRows(at, as, sessionsOf(as.asn), true);
    routeRows(at, as, [{ iface: fraPort, neighbor: as.asn, peerIp: ixPeerAddress(fraPort, as.asn, 0), type: "Peering" }], false);
  }
  // Interface outage: routes over the first port to the transit are withdrawn, then come back.
  if (outage) {
    const transit = byAsn.get(outage.asn)!;
    const all = sessionsOf(transit.asn);
    const [firstPort, ...otherPorts] = all;
    for (const as of ases) {
      const viaThisTransit = !sessionsOf(as.asn).length && transits[as.asn % transits.length].asn === transit.asn;
      if (!(viaThisTransit || as.asn === transit.asn) || as.asn === handoverShift?.asn) continue;
      routeRows(outage.at, as, [firstPort], true, all);
      routeRows(outage.until!, as, [firstPort], false, all);
      // Routers that used the failed port over iBGP fail over to the next border router meanwhile.
      if (otherPorts.length) {
        routeRows(outage.at, as, otherPorts, false, all, true);
        routeRows(outage.until!, as, otherPorts, true, all, true);
      }
    }
  }

  // Interface failover: the session over the private interconnect goes down, the peer's routes come
  // over the exchange port of the same router meanwhile, and the interconnect's come back after.
  const failover = event("interface-failover");
  if (failover) {
    const as = byAsn.get(failover.asn)!;
    const [pni] = sessionsOf(as.asn);
    const ixPort = topology.interfaces.find((i) => i.router === pni.iface.router && ixNames.includes(i.connection ?? ""))!;
    const ix = [
      {
        iface: ixPort,
        neighbor: as.asn,
        peerIp: ixPeerAddress(ixPort, as.asn, ixNames.indexOf(ixPort.connection!)),
        type: "Peering" as const,
      },
    ];
    routeRows(failover.at, as, [pni], true);
    routeRows(failover.at, as, ix, false);
    routeRows(failover.until!, as, ix, true);
    routeRows(failover.until!, as, [pni], false);
  }
  // The peer-overflow event changes no route of the operator's: the peer sends its excess over a
  // transit provider by its own routing.

  // The later events (failover, overflow) leave the background churn as it was.
  const touchedByEvents = new Set(
    options.events
      .filter((e) => e.kind === "handover-shift" || e.kind === "router-shift" || e.kind === "interface-outage")
      .map((e) => e.asn),
  );
  const flappers = ases.filter((a) => a.asn !== operatorAsn && !touchedByEvents.has(a.asn) && sessionsOf(a.asn).length > 0);
  if (flappers.length) {
    const first = Math.ceil(Math.max(start, end - CHURN_SECONDS) / CHURN_STEP) * CHURN_STEP + CHURN_STEP;
    for (let at = first, i = 0; at + FLAP_SECONDS < end; at += CHURN_STEP, i++) {
      // A stride coprime with most list lengths spreads the flaps over the neighbours.
      const as = flappers[(i * 7) % flappers.length];
      routeRows(at, as, sessionsOf(as.asn), true);
      routeRows(at + FLAP_SECONDS, as, sessionsOf(as.asn), false);
    }
  }
  return rows;
}

export { formatIpv4 };
