import { Cursor, ipv4Text, ipv6Text } from "../mrt/cursor";
import { BGP_MESSAGE_TYPE, bgpMessageName, readBgpMessage, readOpen, addPathFamilies } from "./bgp-message";
import { BmpMessageError } from "./errors";
import { fsmEventText, informationName, notificationText, PER_FAMILY_STATISTICS, statisticName, terminationReason } from "./names";
import { PEER_TYPE, readPeerHeader } from "./peer-header";
import { readRouteMonitoringUpdate, type UpdateContext } from "./update";
import { BMP_MESSAGE_TYPE, type BmpInformation, type BmpMessage, type BmpPeer, type BmpStatistic } from "./types";

/** What a Peer Up tells about the UPDATEs of its peer, kept by the session for its Route Monitoring messages. */
export type PeerCapabilities = { addPath: Set<string>; addPathSent: Set<string>; fourByteAsn: boolean };

/** The state a session keeps between messages: the capabilities of the peers whose Peer Up it saw. */
export interface PeerTable {
  get(peer: BmpPeer): PeerCapabilities | undefined;
  up(peer: BmpPeer, capabilities: PeerCapabilities): void;
  down(peer: BmpPeer): void;
  clear(): void;
}

/** Information TLVs (RFC 7854 §4.4) to the end of the message; Termination's reason (type 1) as text. */
function readInformation(cursor: Cursor, termination: boolean): BmpInformation[] {
  const out: BmpInformation[] = [];
  while (cursor.remaining > 0) {
    const type = cursor.u16("an information type");
    const value = cursor.bytes(cursor.u16("an information length"), `information TLV ${type}`);
    if (termination && type === 1) {
      if (value.length !== 2) throw new BmpMessageError(`the termination reason has ${value.length} bytes, not 2`);
      out.push({ type, name: "reason", value: terminationReason(value.readUInt16BE(0)) });
    } else {
      out.push({ type, name: termination && type === 0 ? "string" : informationName(type), value: value.toString("utf8") });
    }
  }
  return out;
}

/** An address field of 16 bytes: IPv6, or IPv4 in its last 4 bytes; "" when all zero (a Loc-RIB instance has none). */
function addressField(bytes: Buffer, ipv6: boolean | null): string {
  if (bytes.every((b) => b === 0)) return "";
  const v6 = ipv6 ?? bytes.subarray(0, 12).some((b) => b !== 0);
  return v6 ? ipv6Text(bytes) : ipv4Text(bytes.subarray(12));
}

function readPeerUp(cursor: Cursor, peer: BmpPeer, peers: PeerTable): BmpMessage {
  const local = cursor.bytes(16, "the local address");
  const localPort = cursor.u16("the local port");
  const remotePort = cursor.u16("the remote port");
  const sentMessage = readBgpMessage(cursor, "the sent OPEN");
  const receivedMessage = readBgpMessage(cursor, "the received OPEN");
  for (const [what, m] of [
    ["sent", sentMessage],
    ["received", receivedMessage],
  ] as const) {
    if (m.type !== BGP_MESSAGE_TYPE.OPEN) throw new BmpMessageError(`the ${what} OPEN is a BGP ${bgpMessageName(m.type)}`);
  }
  const sent = readOpen(sentMessage.body);
  const received = readOpen(receivedMessage.body);
  const information = readInformation(cursor, false);
  const addPath = addPathFamilies(received, sent);
  const addPathSent = addPathFamilies(sent, received);
  const fourByteAsn = sent.as4 !== null && received.as4 !== null;
  peers.up(peer, { addPath: new Set(addPath), addPathSent: new Set(addPathSent), fourByteAsn });
  // The V flag says the local address's family; a Loc-RIB instance has no V flag (its bit is F).
  const ipv6 = peer.peerType === PEER_TYPE.LOC_RIB ? null : peer.address.includes(":");
  return {
    kind: "peer-up",
    peer,
    localAddress: addressField(local, ipv6),
    localPort,
    remotePort,
    addPath,
    addPathSent,
    fourByteAsn,
    localAsn: sent.as4 ?? sent.asn,
    localBgpId: sent.bgpId,
    information,
  };
}

/** The text of a NOTIFICATION carried by a Peer Down, with the shutdown communication of RFC 9003 when there is one. */
function notificationOf(cursor: Cursor): string {
  const { type, body } = readBgpMessage(cursor, "the NOTIFICATION");
  if (type !== BGP_MESSAGE_TYPE.NOTIFICATION)
    throw new BmpMessageError(`the peer down carries a BGP ${bgpMessageName(type)}, not a NOTIFICATION`);
  const code = body.u8("the error code");
  const subcode = body.u8("the error subcode");
  let text = notificationText(code, subcode);
  // Cease, Administrative Shutdown or Reset: a length byte and a UTF-8 message may follow.
  if (code === 6 && (subcode === 2 || subcode === 4) && body.remaining > 0) {
    const length = body.u8();
    if (length > 0 && length <= body.remaining) text += `: “${body.bytes(length).toString("utf8")}”`;
  }
  return text;
}

function readPeerDown(cursor: Cursor, peer: BmpPeer, peers: PeerTable): BmpMessage {
  const reason = cursor.u8("the peer down reason");
  let detail: string;
  switch (reason) {
    case 1:
      detail = `The router closed the session with a NOTIFICATION: ${notificationOf(cursor)}`;
      break;
    case 2:
      detail = `The router closed the session without a NOTIFICATION (${fsmEventText(cursor.u16("the FSM event"))})`;
      break;
    case 3:
      detail = `The peer closed the session with a NOTIFICATION: ${notificationOf(cursor)}`;
      break;
    case 4:
      detail = "The peer closed the session without a NOTIFICATION";
      break;
    case 5:
      detail = "The router no longer monitors this peer (configuration change)";
      break;
    case 6: {
      // RFC 9069 §5.4: a Loc-RIB instance went down; information TLVs (its VRF/table name) may follow.
      const information = readInformation(cursor, false);
      const table = information.find((i) => i.type === 3)?.value;
      detail = `The router closed the Loc-RIB instance${table ? ` ${table}` : ""}`;
      break;
    }
    default:
      detail = `The session went down (reason code ${reason}, not defined by RFC 7854 or RFC 9069)`;
  }
  peers.down(peer);
  return { kind: "peer-down", peer, reason, detail };
}

function readStatistics(cursor: Cursor, peer: BmpPeer): BmpMessage {
  const count = cursor.u32("the statistics count");
  const statistics: BmpStatistic[] = [];
  for (let i = 0; i < count; i++) {
    const type = cursor.u16("a statistic type");
    const value = cursor.slice(cursor.u16("a statistic length"), `statistic ${type}`);
    if (PER_FAMILY_STATISTICS.has(type) && value.remaining === 11) {
      const afi = value.u16();
      const safi = value.u8();
      statistics.push({ type, name: statisticName(type, { afi, safi }), value: Number(value.bytes(8).readBigUInt64BE(0)), afi, safi });
    } else if (value.remaining === 4) {
      statistics.push({ type, name: statisticName(type), value: value.u32() });
    } else if (value.remaining === 8) {
      statistics.push({ type, name: statisticName(type), value: Number(value.bytes(8).readBigUInt64BE(0)) });
    } else {
      throw new BmpMessageError(`statistic ${type} (${statisticName(type)}) has ${value.remaining} bytes, neither a counter nor a gauge`);
    }
  }
  return { kind: "statistics-report", peer, statistics };
}

/** The context a Route Monitoring's UPDATE is read with: the A flag, and ADD-PATH as the Peer Up negotiated it or as the bytes show. */
function updateContext(peer: BmpPeer, peers: PeerTable): UpdateContext {
  const capabilities = peers.get(peer);
  const families = capabilities ? (peer.adjRibOut ? capabilities.addPathSent : capabilities.addPath) : null;
  // A Loc-RIB instance's OPENs are made up (RFC 9069 §5.2) and a peer without Peer Up has none: detect.
  const detect = !families || peer.peerType === PEER_TYPE.LOC_RIB;
  return {
    as4: !peer.legacyAsPath,
    addPath: (afi, safi) => {
      const negotiated = families?.has(`${afi}/${safi}`) ?? false;
      return detect ? { guess: negotiated } : negotiated;
    },
  };
}

/** The body of a well-framed BMP message (after the 6-byte common header). Throws on content that does not decode. */
export function readMessageBody(type: number, cursor: Cursor, peers: PeerTable, onPeer: (peer: BmpPeer) => void): BmpMessage {
  switch (type) {
    case BMP_MESSAGE_TYPE.INITIATION:
      return { kind: "initiation", information: readInformation(cursor, false) };
    case BMP_MESSAGE_TYPE.TERMINATION:
      peers.clear();
      return { kind: "termination", information: readInformation(cursor, true) };
    case BMP_MESSAGE_TYPE.ROUTE_MONITORING:
    case BMP_MESSAGE_TYPE.STATISTICS_REPORT:
    case BMP_MESSAGE_TYPE.PEER_DOWN:
    case BMP_MESSAGE_TYPE.PEER_UP:
    case BMP_MESSAGE_TYPE.ROUTE_MIRRORING:
      break;
    default:
      return { kind: "unknown", type };
  }
  const peer = readPeerHeader(cursor);
  onPeer(peer);
  switch (type) {
    case BMP_MESSAGE_TYPE.ROUTE_MONITORING:
      return { kind: "route-monitoring", peer, update: readRouteMonitoringUpdate(cursor, updateContext(peer, peers)) };
    case BMP_MESSAGE_TYPE.STATISTICS_REPORT:
      return readStatistics(cursor, peer);
    case BMP_MESSAGE_TYPE.PEER_DOWN:
      return readPeerDown(cursor, peer, peers);
    case BMP_MESSAGE_TYPE.PEER_UP:
      return readPeerUp(cursor, peer, peers);
    default:
      // Route Mirroring: counted, its BGP messages (possibly malformed ones) are not decoded.
      return { kind: "route-mirroring", peer };
  }
}
