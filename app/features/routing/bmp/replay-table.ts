/**
 * The routes a BMP session leaves, applied message by message in memory with the station's semantics:
 * what `bmp:decode` prints for captures, and what the station's tests compare the routing tables
 * with. Pure; one table may hold the routes of several routers.
 *
 * - A route is keyed by (router, view, peer, route distinguisher, prefix, path id), as rib_current is:
 *   an announcement replaces the route with the same key, a withdrawal removes it.
 * - The router is the address the session comes from; a Loc-RIB route (RFC 9069, no real peer) has the
 *   router itself as its peer, with the AS of the per-peer header.
 * - The route distinguisher is the route's own (L3VPN NLRI), else the peer distinguisher of an RD
 *   instance peer or a Loc-RIB instance (RFC 7854 §4.2, RFC 9069 §4.1: the VRF's), else "".
 * - A Peer Down removes every route of that peer: same router, peer address and peer distinguisher,
 *   every view and route distinguisher (a global instance peer's L3VPN routes go with it).
 * - Adj-RIB-Out (RFC 8671 O flag) is counted and not applied, as the station stores Adj-RIB-In and
 *   Loc-RIB only; address families the decoder skips (EVPN, flowspec, …) are counted.
 * - End-of-RIB, Peer Up, statistics, Initiation and Termination change nothing: a session that ends,
 *   cleanly or not, leaves its routes as they are.
 */
import type { AsPathSegment, Origin } from "../mrt/attributes";
import type { BmpMessage, BmpPeer, BmpRoute, RibView } from "./types";

export type ReplayRoute = {
  router: string;
  view: RibView;
  /** The peer's address; for a Loc-RIB route the router's. */
  peerAddress: string;
  peerAsn: number;
  /** The per-peer header's distinguisher ("" for a global instance peer): what a Peer Down matches with the address. */
  peerDistinguisher: string;
  prefix: string;
  afi: 1 | 2;
  safi: number;
  routeDistinguisher: string;
  pathId: number;
  labels: number[];
  asPath: AsPathSegment[];
  nextHop: string | null;
  origin: Origin | null;
  localPref: number | null;
  med: number | null;
  communities: string[];
  largeCommunities: string[];
  extendedCommunities: string[];
};

export type ReplayTableCounts = {
  announcements: number;
  withdrawals: number;
  /** Withdrawals of a route the table did not hold (a capture that starts after the announcement). */
  withdrawalsNotHeld: number;
  /** Routes removed by Peer Down messages. */
  removedByPeerDown: number;
  /** Route Monitoring messages of Adj-RIB-Out, not applied. */
  adjRibOutMessages: number;
  /** Route Monitoring messages whose NLRI are of an address family not stored ("afi/safi: reason" → count). */
  skippedFamilies: Record<string, number>;
};

/** The route distinguisher a route is stored under (see the module's comment). */
export function routeDistinguisherOf(peer: BmpPeer, route: BmpRoute): string {
  if (route.routeDistinguisher) return route.routeDistinguisher;
  return peer.peerType === 1 || peer.peerType === 3 ? peer.distinguisher : "";
}

/** The peer address a route is stored under: the router itself for a Loc-RIB instance peer. */
export function peerAddressOf(router: string, peer: BmpPeer): string {
  return peer.view === "loc-rib" || peer.address === "" ? router : peer.address;
}

export class ReplayTable {
  private readonly held = new Map<string, ReplayRoute>();
  readonly counts: ReplayTableCounts = {
    announcements: 0,
    withdrawals: 0,
    withdrawalsNotHeld: 0,
    removedByPeerDown: 0,
    adjRibOutMessages: 0,
    skippedFamilies: {},
  };

  /** Applies one decoded message of the session from `router`. */
  apply(router: string, message: BmpMessage): void {
    if (message.kind === "peer-down") this.peerDown(router, message.peer);
    else if (message.kind === "route-monitoring") this.routeMonitoring(router, message.peer, message.update);
  }

  /** The routes held, in the order of their last announcement. */
  routes(): ReplayRoute[] {
    return [...this.held.values()];
  }

  get size(): number {
    return this.held.size;
  }

  private routeMonitoring(router: string, peer: BmpPeer, update: Extract<BmpMessage, { kind: "route-monitoring" }>["update"]): void {
    if (peer.adjRibOut) {
      this.counts.adjRibOutMessages += 1;
      return;
    }
    if (update.skipped) {
      const family = `${update.skipped.afi}/${update.skipped.safi}: ${update.skipped.reason}`;
      this.counts.skippedFamilies[family] = (this.counts.skippedFamilies[family] ?? 0) + 1;
    }
    const peerAddress = peerAddressOf(router, peer);
    for (const route of update.withdrawn) {
      this.counts.withdrawals += 1;
      if (!this.held.delete(routeKey(router, peer.view, peerAddress, routeDistinguisherOf(peer, route), route))) {
        this.counts.withdrawalsNotHeld += 1;
      }
    }
    const a = update.attributes;
    for (const route of update.announced) {
      this.counts.announcements += 1;
      const routeDistinguisher = routeDistinguisherOf(peer, route);
      const key = routeKey(router, peer.view, peerAddress, routeDistinguisher, route);
      // Deleted first, so that a replaced route moves to the end: the order is that of the last announcements.
      this.held.delete(key);
      this.held.set(key, {
        router,
        view: peer.view,
        peerAddress,
        peerAsn: peer.asn,
        peerDistinguisher: peer.distinguisher,
        prefix: route.prefix,
        afi: route.afi,
        safi: route.safi,
        routeDistinguisher,
        pathId: route.pathId,
        labels: route.labels,
        asPath: a.asPath,
        nextHop: route.nextHop,
        origin: a.origin,
        localPref: a.localPref,
        med: a.med,
        communities: a.communities,
        largeCommunities: a.largeCommunities,
        extendedCommunities: update.extendedCommunities,
      });
    }
  }

  private peerDown(router: string, peer: BmpPeer): void {
    const peerAddress = peerAddressOf(router, peer);
    for (const [key, route] of this.held) {
      if (route.router === router && route.peerAddress === peerAddress && route.peerDistinguisher === peer.distinguisher) {
        this.held.delete(key);
        this.counts.removedByPeerDown += 1;
      }
    }
  }
}

function routeKey(router: string, view: RibView, peerAddress: string, routeDistinguisher: string, route: BmpRoute): string {
  return `${router}|${view}|${peerAddress}|${routeDistinguisher}|${route.prefix}|${route.pathId}`;
}
