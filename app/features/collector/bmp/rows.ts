/**
 * rib_entries rows of a BMP Route Monitoring message (pure): one row per withdrawn route
 * (is_withdrawn = 1, no attributes) and per announced route, in RIB_COLUMNS order, built with the
 * MRT importer's row function so both sources write the same columns the same way.
 *
 * Timed by arrival at the station, not by the router's per-peer timestamp: an initial table dump
 * carries the times the router learned its routes, which can be hours old, and an old announcement
 * would then lose against a newer withdrawal in rib_current (the newest row of a route wins).
 */
import type { BmpPeer, BmpUpdate, RibView } from "~/features/routing/bmp/types";
import { prefixAddress, ribRow, type CompactRibRow } from "~/features/routing/mrt/rib-rows";

/** Where the routes of one peer go. */
export type PeerTarget = {
  vantagePoint: string;
  /** The router's address (the session's source address). */
  routerIp: string;
  /** The peer's address; for a Loc-RIB instance, the router's address. */
  peerIp: string;
  peerAsn: number;
  view: RibView;
  /** The route distinguisher of routes that carry none: the peer's distinguisher for RD and Loc-RIB instances, else "". */
  defaultDistinguisher: string;
};

/** Peer type 3 of RFC 9069: the router's own Loc-RIB, no real peer. */
export const isLocRibPeer = (peer: Pick<BmpPeer, "peerType" | "view">) => peer.peerType === 3 || peer.view === "loc-rib";

/** The target of a peer's routes on a router's session. */
export function peerTarget(peer: BmpPeer, router: { vantagePoint: string; address: string }): PeerTarget {
  const locRib = isLocRibPeer(peer);
  return {
    vantagePoint: router.vantagePoint,
    routerIp: router.address,
    peerIp: locRib || !peer.address ? router.address : peer.address,
    peerAsn: peer.asn,
    view: locRib ? "loc-rib" : peer.view,
    // An RD instance peer (type 1) and a VRF's Loc-RIB instance (type 3) are the table of that VRF.
    defaultDistinguisher: peer.peerType === 1 || peer.peerType === 3 ? peer.distinguisher : "",
  };
}

/** The rows of one UPDATE for `target`, withdrawals first, at `timestamp` (Unix seconds). */
export function updateRows(update: BmpUpdate, target: PeerTarget, timestamp: number): CompactRibRow[] {
  // Fields written out rather than spread from a common object: this runs for every route of a full table,
  // and a spread per row costs more than the rest of the row together.
  const rows: CompactRibRow[] = [];
  for (const route of update.withdrawn)
    rows.push(
      ribRow({
        timestamp,
        vantagePoint: target.vantagePoint,
        routerIp: target.routerIp,
        peerIp: target.peerIp,
        peerAsn: target.peerAsn,
        ribView: target.view,
        prefix: route,
        prefixAddr: prefixAddress(route),
        withdrawn: true,
        attributes: null,
        nextHop: null,
        routeDistinguisher: route.routeDistinguisher || target.defaultDistinguisher,
        safi: route.safi,
        pathId: route.pathId,
      }),
    );
  const a = update.attributes;
  for (const route of update.announced)
    rows.push(
      ribRow({
        timestamp,
        vantagePoint: target.vantagePoint,
        routerIp: target.routerIp,
        peerIp: target.peerIp,
        peerAsn: target.peerAsn,
        ribView: target.view,
        prefix: route,
        prefixAddr: prefixAddress(route),
        withdrawn: false,
        attributes: a,
        // The decoder gives each route its next hop (NEXT_HOP for the IPv4 body, the MP next hop otherwise).
        nextHop: route.nextHop ?? a.nextHop,
        routeDistinguisher: route.routeDistinguisher || target.defaultDistinguisher,
        safi: route.safi,
        pathId: route.pathId,
        extCommunities: update.extendedCommunities,
      }),
    );
  return rows;
}

/** A row as one line of a JSONCompactEachRow body (without the newline). */
export const encodeRow = (row: CompactRibRow): string => JSON.stringify(row);
