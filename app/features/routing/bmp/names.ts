/**
 * The words people read for the codes of BMP (RFC 7854, RFC 8671, RFC 9069) and of the BGP messages
 * it carries: message and statistics names, peer-down reasons, NOTIFICATION errors, address families.
 */
import { BMP_MESSAGE_TYPE, type BmpMessageName } from "./types";

const MESSAGE_NAMES: Record<number, BmpMessageName> = {
  [BMP_MESSAGE_TYPE.ROUTE_MONITORING]: "route-monitoring",
  [BMP_MESSAGE_TYPE.STATISTICS_REPORT]: "statistics-report",
  [BMP_MESSAGE_TYPE.PEER_DOWN]: "peer-down",
  [BMP_MESSAGE_TYPE.PEER_UP]: "peer-up",
  [BMP_MESSAGE_TYPE.INITIATION]: "initiation",
  [BMP_MESSAGE_TYPE.TERMINATION]: "termination",
  [BMP_MESSAGE_TYPE.ROUTE_MIRRORING]: "route-mirroring",
};

/** The name of a BMP message type, "unknown" for types RFC 7854 does not define. */
export function bmpMessageName(type: number): BmpMessageName {
  return MESSAGE_NAMES[type] ?? "unknown";
}

const MESSAGE_TITLES: Record<BmpMessageName, string> = {
  "route-monitoring": "Route Monitoring",
  "statistics-report": "Statistics Report",
  "peer-down": "Peer Down",
  "peer-up": "Peer Up",
  initiation: "Initiation",
  termination: "Termination",
  "route-mirroring": "Route Mirroring",
  unknown: "message",
};

/** "Peer Up", "Route Monitoring" …, as messages about a message name it. */
export function bmpMessageTitle(type: number): string {
  const name = bmpMessageName(type);
  return name === "unknown" ? `message of type ${type}` : MESSAGE_TITLES[name];
}

const FAMILY_NAMES: Record<string, string> = {
  "1/1": "IPv4 unicast",
  "2/1": "IPv6 unicast",
  "1/2": "IPv4 multicast",
  "2/2": "IPv6 multicast",
  "1/4": "IPv4 labeled unicast",
  "2/4": "IPv6 labeled unicast",
  "1/5": "IPv4 multicast VPN",
  "2/5": "IPv6 multicast VPN",
  "1/66": "IPv4 MDT",
  "1/73": "IPv4 SR TE policy",
  "2/73": "IPv6 SR TE policy",
  "1/128": "VPNv4",
  "2/128": "VPNv6",
  "1/129": "VPNv4 multicast",
  "2/129": "VPNv6 multicast",
  "1/132": "route target constraint",
  "1/133": "IPv4 flowspec",
  "2/133": "IPv6 flowspec",
  "1/134": "VPNv4 flowspec",
  "2/134": "VPNv6 flowspec",
  "25/65": "VPLS",
  "25/70": "EVPN",
  "16388/71": "BGP-LS",
  "16388/72": "BGP-LS VPN",
};

/** "IPv4 unicast", "EVPN" …, or "AFI n, SAFI m" for a family without a name here. */
export function familyName(afi: number, safi: number): string {
  return FAMILY_NAMES[`${afi}/${safi}`] ?? `AFI ${afi}, SAFI ${safi}`;
}

/** Information TLV types of Initiation and Peer Up messages (RFC 7854 §4.4, RFC 9069 §5.1, RFC 8671). */
const INFORMATION_NAMES: Record<number, string> = { 0: "string", 1: "sysDescr", 2: "sysName", 3: "VRF/table name", 4: "admin label" };

export function informationName(type: number): string {
  return INFORMATION_NAMES[type] ?? `type ${type}`;
}

/** Termination reasons (RFC 7854 §4.5). */
const TERMINATION_REASONS: Record<number, string> = {
  0: "Session administratively closed",
  1: "Unspecified reason",
  2: "Out of resources",
  3: "Redundant connection",
  4: "Session permanently administratively closed",
};

export function terminationReason(code: number): string {
  return TERMINATION_REASONS[code] ?? `Reason code ${code}`;
}

/** Statistics types (RFC 7854 §4.8, RFC 8671 §6): counters are 32-bit, gauges 64-bit. */
const STATISTICS_NAMES: Record<number, string> = {
  0: "Prefixes rejected by inbound policy",
  1: "Duplicate prefix advertisements",
  2: "Duplicate withdrawals",
  3: "Updates invalidated by a CLUSTER_LIST loop",
  4: "Updates invalidated by an AS_PATH loop",
  5: "Updates invalidated by ORIGINATOR_ID",
  6: "Updates invalidated by an AS_CONFED loop",
  7: "Routes in Adj-RIB-In",
  8: "Routes in Loc-RIB",
  9: "Routes in Adj-RIB-In",
  10: "Routes in Loc-RIB",
  11: "Updates treated as withdraw",
  12: "Prefixes treated as withdraw",
  13: "Duplicate update messages",
  14: "Routes in pre-policy Adj-RIB-Out",
  15: "Routes in post-policy Adj-RIB-Out",
  16: "Routes in pre-policy Adj-RIB-Out",
  17: "Routes in post-policy Adj-RIB-Out",
};

/** Statistics types whose value is an AFI, a SAFI and a 64-bit gauge. */
export const PER_FAMILY_STATISTICS = new Set([9, 10, 16, 17]);

/** "Routes in Adj-RIB-In", "Routes in Loc-RIB (IPv6 unicast)" …, "Statistic type n" for other types. */
export function statisticName(type: number, family?: { afi: number; safi: number }): string {
  const name = STATISTICS_NAMES[type] ?? `Statistic type ${type}`;
  return family ? `${name} (${familyName(family.afi, family.safi)})` : name;
}

/** BGP NOTIFICATION error codes and subcodes (RFC 4271 §4.5 and the IANA registry). */
const NOTIFICATION_ERRORS: Record<number, { name: string; subcodes: Record<number, string> }> = {
  1: { name: "Message Header Error", subcodes: { 1: "Connection Not Synchronized", 2: "Bad Message Length", 3: "Bad Message Type" } },
  2: {
    name: "OPEN Message Error",
    subcodes: {
      1: "Unsupported Version Number",
      2: "Bad Peer AS",
      3: "Bad BGP Identifier",
      4: "Unsupported Optional Parameter",
      6: "Unacceptable Hold Time",
      7: "Unsupported Capability",
      11: "Role Mismatch",
    },
  },
  3: {
    name: "UPDATE Message Error",
    subcodes: {
      1: "Malformed Attribute List",
      2: "Unrecognized Well-known Attribute",
      3: "Missing Well-known Attribute",
      4: "Attribute Flags Error",
      5: "Attribute Length Error",
      6: "Invalid ORIGIN Attribute",
      8: "Invalid NEXT_HOP Attribute",
      9: "Optional Attribute Error",
      10: "Invalid Network Field",
      11: "Malformed AS_PATH",
    },
  },
  4: { name: "Hold Timer Expired", subcodes: {} },
  5: {
    name: "Finite State Machine Error",
    subcodes: {
      1: "Unexpected Message in OpenSent State",
      2: "Unexpected Message in OpenConfirm State",
      3: "Unexpected Message in Established State",
    },
  },
  6: {
    name: "Cease",
    subcodes: {
      1: "Maximum Number of Prefixes Reached",
      2: "Administrative Shutdown",
      3: "Peer De-configured",
      4: "Administrative Reset",
      5: "Connection Rejected",
      6: "Other Configuration Change",
      7: "Connection Collision Resolution",
      8: "Out of Resources",
      9: "Hard Reset",
      10: "BFD Down",
    },
  },
  7: { name: "ROUTE-REFRESH Message Error", subcodes: { 1: "Invalid Message Length" } },
  8: { name: "Send Hold Timer Expired", subcodes: {} },
};

/** "Cease, Administrative Shutdown (6/2)" …: a NOTIFICATION's error as people read it, its codes after. */
export function notificationText(code: number, subcode: number): string {
  const error = NOTIFICATION_ERRORS[code];
  if (!error) return `error code ${code}, subcode ${subcode}`;
  const sub = subcode === 0 ? null : (error.subcodes[subcode] ?? `subcode ${subcode}`);
  return `${error.name}${sub ? `, ${sub}` : ""} (${code}/${subcode})`;
}

/** BGP FSM events (RFC 4271 §8.1), which a Peer Down of reason 2 names. */
const FSM_EVENTS = [
  "",
  "ManualStart",
  "ManualStop",
  "AutomaticStart",
  "ManualStart_with_PassiveTcpEstablishment",
  "AutomaticStart_with_PassiveTcpEstablishment",
  "AutomaticStart_with_DampPeerOscillations",
  "AutomaticStart_with_DampPeerOscillations_and_PassiveTcpEstablishment",
  "AutomaticStop",
  "ConnectRetryTimer_Expires",
  "HoldTimer_Expires",
  "KeepaliveTimer_Expires",
  "DelayOpenTimer_Expires",
  "IdleHoldTimer_Expires",
  "TcpConnection_Valid",
  "Tcp_CR_Invalid",
  "Tcp_CR_Acked",
  "TcpConnectionConfirmed",
  "TcpConnectionFails",
  "BGPOpen",
  "BGPOpen with DelayOpenTimer running",
  "BGPHeaderErr",
  "BGPOpenMsgErr",
  "OpenCollisionDump",
  "NotifMsgVerErr",
  "NotifMsg",
  "KeepAliveMsg",
  "UpdateMsg",
  "UpdateMsgErr",
];

export function fsmEventText(event: number): string {
  const name = FSM_EVENTS[event];
  return name ? `FSM event ${event}, ${name}` : event === 0 ? "no FSM event given" : `FSM event ${event}`;
}
