import type { PathAttributes } from "./attributes";
import type { Prefix } from "./cursor";

/** MRT types of RFC 6396 §4 (and the historic ones of §5); anything else is not an MRT stream. */
export const MRT_TYPE = { TABLE_DUMP: 12, TABLE_DUMP_V2: 13, BGP4MP: 16, BGP4MP_ET: 17 } as const;
export const KNOWN_MRT_TYPES = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 32, 33, 48, 49]);

export const TABLE_DUMP_V2_SUBTYPE = {
  PEER_INDEX_TABLE: 1,
  RIB_IPV4_UNICAST: 2,
  RIB_IPV4_MULTICAST: 3,
  RIB_IPV6_UNICAST: 4,
  RIB_IPV6_MULTICAST: 5,
  RIB_GENERIC: 6,
  GEO_PEER_TABLE: 7,
  RIB_IPV4_UNICAST_ADDPATH: 8,
  RIB_IPV4_MULTICAST_ADDPATH: 9,
  RIB_IPV6_UNICAST_ADDPATH: 10,
  RIB_IPV6_MULTICAST_ADDPATH: 11,
  RIB_GENERIC_ADDPATH: 12,
} as const;

export const BGP4MP_SUBTYPE = {
  STATE_CHANGE: 0,
  MESSAGE: 1,
  MESSAGE_AS4: 4,
  STATE_CHANGE_AS4: 5,
  MESSAGE_LOCAL: 6,
  MESSAGE_AS4_LOCAL: 7,
  MESSAGE_ADDPATH: 8,
  MESSAGE_AS4_ADDPATH: 9,
  MESSAGE_LOCAL_ADDPATH: 10,
  MESSAGE_AS4_LOCAL_ADDPATH: 11,
} as const;

export type Peer = { bgpId: string; ip: string; asn: number };

/** Common to every decoded record: where it starts in the decompressed stream and its header. */
type RecordBase = { offset: number; timestamp: number; microseconds: number; type: number; subtype: number };

export type PeerIndexRecord = RecordBase & { kind: "peer-index"; collectorId: string; viewName: string; peers: Peer[] };

export type RibEntry = { peer: Peer; originatedTime: number; attributes: PathAttributes };

export type RibRecord = RecordBase & { kind: "rib"; sequence: number; prefix: Prefix; safi: number; entries: RibEntry[] };

export type Announcement = Prefix & { nextHop: string | null };

export type SessionHeader = { peerAsn: number; localAsn: number; interfaceIndex: number; afi: number; peerIp: string; localIp: string };

/** A BGP UPDATE received from a peer: its announced and withdrawn prefixes (IPv4 body and MP). */
export type UpdateRecord = RecordBase &
  SessionHeader & {
    kind: "update";
    /** Each with its next hop: NEXT_HOP for the IPv4 NLRI of the body, the MP next hop for MP_REACH_NLRI. */
    announced: Announcement[];
    withdrawn: Prefix[];
    attributes: PathAttributes;
  };

export type StateChangeRecord = RecordBase & SessionHeader & { kind: "state-change"; oldState: number; newState: number };

/** A record counted but not turned into routes (another MRT type, subtype, or BGP message type). */
export type SkippedRecord = RecordBase & { kind: "skipped"; reason: string };

/** A record whose framing is intact but whose content could not be decoded: the stream goes on. */
export type BadRecord = RecordBase & { kind: "bad"; message: string };

export type MrtRecord = PeerIndexRecord | RibRecord | UpdateRecord | StateChangeRecord | SkippedRecord | BadRecord;

export const BGP_STATES = ["", "Idle", "Connect", "Active", "OpenSent", "OpenConfirm", "Established"] as const;
