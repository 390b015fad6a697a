/**
 * What the BMP decoder (RFC 7854, Loc-RIB of RFC 9069) hands to its users: the station that keeps
 * the routing tables live and the support scripts that decode or replay captures. Pure types.
 */
import type { PathAttributes } from "../mrt/attributes";
import type { Prefix } from "../mrt/cursor";

/** BMP message types of RFC 7854 §4.1. */
export const BMP_MESSAGE_TYPE = {
  ROUTE_MONITORING: 0,
  STATISTICS_REPORT: 1,
  PEER_DOWN: 2,
  PEER_UP: 3,
  INITIATION: 4,
  TERMINATION: 5,
  ROUTE_MIRRORING: 6,
} as const;

/** Names used in logs, on the Data sources page and as the `type` label of flowlens_bmp_messages_total. */
export type BmpMessageName =
  "route-monitoring" | "statistics-report" | "peer-down" | "peer-up" | "initiation" | "termination" | "route-mirroring" | "unknown";

/**
 * The routing table a route belongs to, as the routing tables store it (rib_view):
 * Adj-RIB-In before or after the router's import policy (RFC 7854 L flag), or the router's own
 * Loc-RIB (RFC 9069 peer type 3). MRT imports are stored as post-policy.
 */
export type RibView = "pre-policy" | "post-policy" | "loc-rib";
export const RIB_VIEWS: readonly RibView[] = ["pre-policy", "post-policy", "loc-rib"];

/** Per-peer header (RFC 7854 §4.2; RFC 9069 §4.1 for peer type 3). */
export type BmpPeer = {
  /** 0 global instance, 1 RD instance, 2 local instance, 3 Loc-RIB instance; others are decoded as is. */
  peerType: number;
  view: RibView;
  /** The peer distinguisher as a route distinguisher text ("" when zero): the VRF of an RD instance peer. */
  distinguisher: string;
  /** The peer's address; for a Loc-RIB instance peer (no real peer) "" — the station shows the router itself. */
  address: string;
  asn: number;
  bgpId: string;
  /** Seconds since the epoch as the router stamped the message (0 when the router does not say). */
  timestamp: number;
  /** The router sent 2-byte AS numbers in AS_PATH (legacy A flag). */
  legacyAsPath: boolean;
  /** RFC 8671 O flag: Adj-RIB-Out (not stored: the station counts and skips these). */
  adjRibOut: boolean;
  /** RFC 9069 F flag: the Loc-RIB is filtered (only some of its routes are sent). */
  filtered: boolean;
};

/** One route of a BGP UPDATE, with what makes it distinct in a routing table. */
export type BmpRoute = Prefix & {
  afi: 1 | 2;
  /** 1 unicast, 4 labeled unicast, 128 L3VPN. */
  safi: number;
  /** "" outside L3VPN; otherwise "ASN:number" or "IP:number" (RFC 4364 §4.2 types 0, 1, 2). */
  routeDistinguisher: string;
  /** ADD-PATH path identifier (RFC 7911), 0 when the session does not use ADD-PATH. */
  pathId: number;
  /** MPLS labels of labeled unicast and L3VPN NLRI (20-bit values). */
  labels: number[];
};

export type BmpAnnouncement = BmpRoute & { nextHop: string | null };

/** A BGP UPDATE carried by a Route Monitoring message, decoded for the session it came from. */
export type BmpUpdate = {
  announced: BmpAnnouncement[];
  withdrawn: BmpRoute[];
  /** Path attributes shared by the announcements (extended communities as text, see extendedCommunities). */
  attributes: PathAttributes;
  /** Extended communities as text ("RT:64497:42", "SoO:64497:12", or "0x…" for types without a name). */
  extendedCommunities: string[];
  /** Set when the UPDATE is an End-of-RIB marker (RFC 4724 §2) for this address family. */
  endOfRib: { afi: number; safi: number } | null;
  /** NLRI of address families the station does not store (EVPN, flowspec, …), counted, not decoded. */
  skipped: { afi: number; safi: number; reason: string } | null;
};

/** An information TLV (RFC 7854 §4.4): `name` says what it is ("sysName", "reason" …), `value` is its text. */
export type BmpInformation = { type: number; name: string; value: string };

/** One statistic of a Statistics Report (RFC 7854 §4.8): a 32-bit counter or a 64-bit gauge, per family for types 9, 10, 16, 17. */
export type BmpStatistic = { type: number; name: string; value: number; afi?: number; safi?: number };

export type BmpMessage =
  | { kind: "initiation"; information: BmpInformation[] }
  | { kind: "termination"; information: BmpInformation[] }
  | {
      kind: "peer-up";
      peer: BmpPeer;
      localAddress: string;
      localPort: number;
      remotePort: number;
      /**
       * AFI/SAFI pairs ("1/1", "2/128", …) whose NLRI carry ADD-PATH identifiers in the UPDATEs the
       * peer sends (Adj-RIB-In), from the two OPENs (RFC 7911: the peer can send, the router receive).
       */
      addPath: string[];
      /** The same for the UPDATEs the router sends to the peer (Adj-RIB-Out, RFC 8671). */
      addPathSent: string[];
      /** The router's AS and BGP identifier on this session (its sent OPEN). */
      localAsn: number;
      localBgpId: string;
      /** Both OPENs carry the 4-byte AS capability (RFC 6793). */
      fourByteAsn: boolean;
      information: BmpInformation[];
    }
  | { kind: "peer-down"; peer: BmpPeer; reason: number; detail: string }
  | { kind: "route-monitoring"; peer: BmpPeer; update: BmpUpdate }
  | { kind: "statistics-report"; peer: BmpPeer; statistics: BmpStatistic[] }
  | { kind: "route-mirroring"; peer: BmpPeer }
  | { kind: "unknown"; type: number }
  /** A message whose framing is intact but whose content could not be decoded: counted, the session goes on. */
  | { kind: "bad"; type: number; message: string; peer?: BmpPeer };
