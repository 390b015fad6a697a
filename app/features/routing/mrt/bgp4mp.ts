import { readAttributes } from "./attributes";
import { addressText, Cursor, readPrefix, type Prefix } from "./cursor";
import { MrtRecordError } from "./errors";
import { BGP4MP_SUBTYPE as SUB, type SessionHeader, type SkippedRecord, type StateChangeRecord, type UpdateRecord } from "./types";

type Header = Pick<UpdateRecord, "offset" | "timestamp" | "microseconds" | "type" | "subtype">;

const AS4_SUBTYPES = new Set<number>([
  SUB.MESSAGE_AS4,
  SUB.STATE_CHANGE_AS4,
  SUB.MESSAGE_AS4_LOCAL,
  SUB.MESSAGE_AS4_ADDPATH,
  SUB.MESSAGE_AS4_LOCAL_ADDPATH,
]);
const ADDPATH_SUBTYPES = new Set<number>([
  SUB.MESSAGE_ADDPATH,
  SUB.MESSAGE_AS4_ADDPATH,
  SUB.MESSAGE_LOCAL_ADDPATH,
  SUB.MESSAGE_AS4_LOCAL_ADDPATH,
]);
/** Messages the collector itself sent: not routes it learned, so not part of its table. */
const LOCAL_SUBTYPES = new Set<number>([
  SUB.MESSAGE_LOCAL,
  SUB.MESSAGE_AS4_LOCAL,
  SUB.MESSAGE_LOCAL_ADDPATH,
  SUB.MESSAGE_AS4_LOCAL_ADDPATH,
]);
const MESSAGE_SUBTYPES = new Set<number>([SUB.MESSAGE, SUB.MESSAGE_AS4, SUB.MESSAGE_ADDPATH, SUB.MESSAGE_AS4_ADDPATH]);
const BGP_UPDATE = 2;
const BGP_MESSAGE_NAMES: Record<number, string> = { 1: "OPEN", 3: "NOTIFICATION", 4: "KEEPALIVE", 5: "ROUTE-REFRESH" };

function readSessionHeader(body: Cursor, as4: boolean): SessionHeader {
  const peerAsn = as4 ? body.u32("the peer AS") : body.u16("the peer AS");
  const localAsn = as4 ? body.u32("the local AS") : body.u16("the local AS");
  const interfaceIndex = body.u16("the interface index");
  const afi = body.u16("the address family");
  if (afi !== 1 && afi !== 2) throw new MrtRecordError(`BGP4MP address family ${afi} is neither IPv4 (1) nor IPv6 (2)`);
  const size = afi === 1 ? 4 : 16;
  const peerIp = addressText(body.bytes(size, "the peer address"));
  const localIp = addressText(body.bytes(size, "the local address"));
  return { peerAsn, localAsn, interfaceIndex, afi, peerIp, localIp };
}

function readIpv4Nlri(cursor: Cursor, addPath: boolean): Prefix[] {
  const out: Prefix[] = [];
  while (cursor.remaining > 0) {
    if (addPath) cursor.u32("an ADD-PATH identifier");
    out.push(readPrefix(cursor, 1));
  }
  return out;
}

/** Whether this BGP4MP/BGP4MP_ET subtype is decoded (state changes and received messages). */
export function bgp4mpHandles(subtype: number): boolean {
  return subtype === SUB.STATE_CHANGE || subtype === SUB.STATE_CHANGE_AS4 || MESSAGE_SUBTYPES.has(subtype);
}

export function bgp4mpSkipReason(subtype: number): string {
  return LOCAL_SUBTYPES.has(subtype) ? `BGP4MP subtype ${subtype} (a message sent by the collector)` : `BGP4MP subtype ${subtype}`;
}

/** BGP4MP STATE_CHANGE(_AS4) and MESSAGE(_AS4)(_ADDPATH) (RFC 6396 §4.4, RFC 8050). */
export function readBgp4mp(header: Header, body: Cursor): UpdateRecord | StateChangeRecord | SkippedRecord {
  const session = readSessionHeader(body, AS4_SUBTYPES.has(header.subtype));
  if (header.subtype === SUB.STATE_CHANGE || header.subtype === SUB.STATE_CHANGE_AS4) {
    const oldState = body.u16("the old state");
    const newState = body.u16("the new state");
    return { ...header, ...session, kind: "state-change", oldState, newState };
  }
  body.bytes(16, "the BGP marker");
  const length = body.u16("the BGP message length");
  const messageType = body.u8("the BGP message type");
  if (messageType !== BGP_UPDATE) {
    return { ...header, kind: "skipped", reason: `BGP ${BGP_MESSAGE_NAMES[messageType] ?? `message type ${messageType}`}` };
  }
  if (length < 23) throw new MrtRecordError(`BGP UPDATE length ${length} is below the minimum 23`);
  const message = body.slice(Math.min(length - 19, body.remaining), "the BGP UPDATE");
  const addPath = ADDPATH_SUBTYPES.has(header.subtype);
  const withdrawn = readIpv4Nlri(message.slice(message.u16("the withdrawn routes length"), "the withdrawn routes"), addPath);
  const attributes = readAttributes(message.slice(message.u16("the path attribute length"), "the path attributes"), {
    as4: AS4_SUBTYPES.has(header.subtype),
    ribEntry: false,
    addPath,
  });
  const announced = readIpv4Nlri(message, addPath).map((p) => ({ ...p, nextHop: attributes.nextHop }));
  const mpReach = attributes.mpReach;
  if (mpReach) announced.push(...mpReach.nlri.map((p) => ({ ...p, nextHop: mpReach.nextHop })));
  if (attributes.mpUnreach) withdrawn.push(...attributes.mpUnreach.withdrawn);
  return { ...header, ...session, kind: "update", announced, withdrawn, attributes };
}
