import { Cursor, ipv4Text, ipv6Text } from "../mrt/cursor";
import { routeDistinguisherText } from "../mrt/nlri";
import type { BmpPeer } from "./types";

export const PEER_HEADER_BYTES = 42;
export const PEER_TYPE = { GLOBAL: 0, RD: 1, LOCAL: 2, LOC_RIB: 3 } as const;

const FLAG = { V: 0x80, L: 0x40, A: 0x20, O: 0x10, F: 0x80 } as const;

/** The per-peer header (RFC 7854 §4.2; flags of RFC 8671 and, for Loc-RIB instance peers, RFC 9069 §4.1). */
export function readPeerHeader(cursor: Cursor): BmpPeer {
  const peerType = cursor.u8("the peer type");
  const flags = cursor.u8("the peer flags");
  const distinguisher = routeDistinguisherText(cursor.bytes(8, "the peer distinguisher"));
  const address = cursor.bytes(16, "the peer address");
  const asn = cursor.u32("the peer AS");
  const bgpId = cursor.ipv4("the peer BGP identifier");
  const timestamp = cursor.u32("the timestamp");
  cursor.u32("the timestamp's microseconds");
  if (peerType === PEER_TYPE.LOC_RIB) {
    return {
      peerType,
      view: "loc-rib",
      distinguisher,
      address: "",
      asn,
      bgpId,
      timestamp,
      legacyAsPath: false,
      adjRibOut: false,
      filtered: (flags & FLAG.F) !== 0,
    };
  }
  return {
    peerType,
    view: flags & FLAG.L ? "post-policy" : "pre-policy",
    distinguisher,
    address: flags & FLAG.V ? ipv6Text(address) : ipv4Text(address.subarray(12)),
    asn,
    bgpId,
    timestamp,
    legacyAsPath: (flags & FLAG.A) !== 0,
    adjRibOut: (flags & FLAG.O) !== 0,
    filtered: false,
  };
}

/** What identifies a peer within one BMP session (its Peer Up, its routes, its Peer Down): type, distinguisher, address. */
export function peerKey(peer: BmpPeer): string {
  return `${peer.peerType}|${peer.distinguisher}|${peer.address}`;
}
