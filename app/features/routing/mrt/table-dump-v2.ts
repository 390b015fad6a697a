import { readAttributes } from "./attributes";
import { addressText, Cursor, readPrefix } from "./cursor";
import { MrtRecordError } from "./errors";
import { TABLE_DUMP_V2_SUBTYPE as SUB, type Peer, type PeerIndexRecord, type RibRecord } from "./types";

type Header = Pick<RibRecord, "offset" | "timestamp" | "microseconds" | "type" | "subtype">;

/** PEER_INDEX_TABLE (RFC 6396 §4.3.1): the collector and the peers that RIB entries refer to by index. */
export function readPeerIndexTable(header: Header, body: Cursor): PeerIndexRecord {
  const collectorId = body.ipv4("the collector BGP ID");
  const viewName = body.bytes(body.u16("the view name length"), "the view name").toString("utf8");
  const count = body.u16("the peer count");
  const peers: Peer[] = [];
  for (let i = 0; i < count; i++) {
    const peerType = body.u8("a peer type");
    const bgpId = body.ipv4("a peer BGP ID");
    const ip = addressText(body.bytes(peerType & 0x01 ? 16 : 4, "a peer address"));
    const asn = peerType & 0x02 ? body.u32("a peer AS") : body.u16("a peer AS");
    peers.push({ bgpId, ip, asn });
  }
  return { ...header, kind: "peer-index", collectorId, viewName, peers };
}

/** The subtypes decoded into routes; the others (multicast, ADD-PATH, generic) are counted as skipped. */
export const RIB_UNICAST: Record<number, { afi: 1 | 2; safi: number }> = {
  [SUB.RIB_IPV4_UNICAST]: { afi: 1, safi: 1 },
  [SUB.RIB_IPV6_UNICAST]: { afi: 2, safi: 1 },
};

/** RIB_IPV4_UNICAST / RIB_IPV6_UNICAST (RFC 6396 §4.3.2): one prefix and its route per peer. */
export function readRibRecord(header: Header, body: Cursor, peers: Peer[] | null): RibRecord {
  const family = RIB_UNICAST[header.subtype];
  if (!peers) throw new MrtRecordError("a RIB record before any PEER_INDEX_TABLE");
  const sequence = body.u32("the sequence number");
  const prefix = readPrefix(body, family.afi);
  const count = body.u16("the entry count");
  const entries: RibRecord["entries"] = [];
  for (let i = 0; i < count; i++) {
    const peerIndex = body.u16("a peer index");
    const peer = peers[peerIndex];
    if (!peer) throw new MrtRecordError(`peer index ${peerIndex} is not in the PEER_INDEX_TABLE (${peers.length} peers)`);
    const originatedTime = body.u32("an originated time");
    const attributes = readAttributes(body.slice(body.u16("an attribute length"), "the attributes"), {
      as4: true,
      ribEntry: true,
      addPath: false,
    });
    entries.push({ peer, originatedTime, attributes });
  }
  return { ...header, kind: "rib", sequence, prefix, safi: family.safi, entries };
}
