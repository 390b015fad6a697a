import { addressText, Cursor } from "./cursor";
import { MrtRecordError } from "./errors";
import { extendedCommunityText, ipv6ExtendedCommunityText } from "./extended-communities";
import { readAnnouncements, readNlri, routedFamily, SAFI, type AddPathUse, type NlriAnnouncement, type NlriRoute } from "./nlri";

export type Origin = "IGP" | "EGP" | "INCOMPLETE";

export type AsPathSegment = { type: "set" | "sequence" | "confed-sequence" | "confed-set"; asns: number[] };

/** Path attributes of one route (RFC 4271 §5, RFC 1997, RFC 4360, RFC 8092, RFC 4760, RFC 6793). */
export type PathAttributes = {
  origin: Origin | null;
  asPath: AsPathSegment[];
  nextHop: string | null;
  med: number | null;
  localPref: number | null;
  atomicAggregate: boolean;
  /** "ASN address", as bgpdump writes it. */
  aggregator: string | null;
  originatorId: string | null;
  /** Standard communities "a:b". */
  communities: string[];
  /** Large communities "a:b:c". */
  largeCommunities: string[];
  /** Extended communities (types 16 and 25) as text, see extended-communities.ts. */
  extendedCommunities: string[];
  /**
   * MP_REACH_NLRI: the routes of the families the context decodes (see AttributeContext.labeledAndVpn),
   * [] for others; `nlriBytes` is the size of its NLRI field, decoded or not.
   */
  mpReach: { afi: number; safi: number; nextHop: string | null; nlri: NlriAnnouncement[]; nlriBytes: number } | null;
  mpUnreach: { afi: number; safi: number; withdrawn: NlriRoute[]; nlriBytes: number } | null;
  /** Attribute type codes present but not decoded. */
  otherTypes: number[];
};

export type AttributeContext = {
  /** AS numbers in AS_PATH and AGGREGATOR are 4 bytes (TABLE_DUMP_V2, BGP4MP *_AS4) or 2. */
  as4: boolean;
  /** TABLE_DUMP_V2 entries may carry MP_REACH_NLRI in the short RFC 6396 §4.3.4 form. */
  ribEntry: boolean;
  /** NLRI in MP_REACH/MP_UNREACH carry ADD-PATH identifiers (RFC 7911): for every family, or per AFI/SAFI. */
  addPath: AddPathUse | ((afi: number, safi: number) => AddPathUse);
  /**
   * Decode labelled unicast (SAFI 4) and L3VPN (SAFI 128) NLRI too, with labels and route
   * distinguishers (BMP). Without it only unicast is, as the MRT import stores it.
   */
  labeledAndVpn?: boolean;
};

const ORIGINS: Origin[] = ["IGP", "EGP", "INCOMPLETE"];
const SEGMENT_TYPES: Record<number, AsPathSegment["type"]> = { 1: "set", 2: "sequence", 3: "confed-sequence", 4: "confed-set" };
const AS_TRANS = 23456;

export const ATTR = {
  ORIGIN: 1,
  AS_PATH: 2,
  NEXT_HOP: 3,
  MED: 4,
  LOCAL_PREF: 5,
  ATOMIC_AGGREGATE: 6,
  AGGREGATOR: 7,
  COMMUNITIES: 8,
  ORIGINATOR_ID: 9,
  MP_REACH_NLRI: 14,
  MP_UNREACH_NLRI: 15,
  EXTENDED_COMMUNITIES: 16,
  AS4_PATH: 17,
  AS4_AGGREGATOR: 18,
  IPV6_EXTENDED_COMMUNITIES: 25,
  LARGE_COMMUNITIES: 32,
} as const;

function readAsPath(cursor: Cursor, asnBytes: 2 | 4): AsPathSegment[] {
  const segments: AsPathSegment[] = [];
  while (cursor.remaining > 0) {
    const typeCode = cursor.u8("an AS_PATH segment type");
    const type = SEGMENT_TYPES[typeCode];
    if (!type) throw new MrtRecordError(`unknown AS_PATH segment type ${typeCode}`);
    const count = cursor.u8("an AS_PATH segment length");
    const asns: number[] = [];
    for (let i = 0; i < count; i++) asns.push(asnBytes === 4 ? cursor.u32("an AS number") : cursor.u16("an AS number"));
    segments.push({ type, asns });
  }
  return segments;
}

/** Path length as RFC 6793 §4.2.3 counts it: each AS of a sequence 1, a set 1, confederation segments 0. */
function pathCount(segments: AsPathSegment[]): number {
  return segments.reduce((n, s) => n + (s.type === "sequence" ? s.asns.length : s.type === "set" ? 1 : 0), 0);
}

/**
 * AS_PATH of a 2-byte session merged with AS4_PATH (RFC 6793 §4.2.3): the leading ASes of AS_PATH
 * that AS4_PATH does not cover, then AS4_PATH. An AS4_PATH longer than AS_PATH is ignored.
 */
export function mergeAs4Path(asPath: AsPathSegment[], as4Path: AsPathSegment[]): AsPathSegment[] {
  const keep = pathCount(asPath) - pathCount(as4Path);
  if (keep < 0) return asPath;
  const head: AsPathSegment[] = [];
  let left = keep;
  for (const segment of asPath) {
    if (left <= 0) break;
    if (segment.type === "sequence") {
      const taken = segment.asns.slice(0, left);
      head.push({ type: "sequence", asns: taken });
      left -= taken.length;
    } else if (segment.type === "set") {
      head.push(segment);
      left -= 1;
    } else {
      head.push(segment);
    }
  }
  return [...head, ...as4Path];
}

function readMpNextHop(cursor: Cursor, length: number): string | null {
  if (length === 0) return null;
  const bytes = cursor.bytes(length, "an MP next hop");
  // 32 bytes = IPv6 global + link-local (RFC 2545): the global address is the next hop.
  if (length === 32) return addressText(bytes.subarray(0, 16));
  if (length === 4 || length === 16) return addressText(bytes);
  // VPN forms (RFC 4364 §4.3.2, RFC 4659 §3.2.1: a zero route distinguisher before the address;
  // 8 + 16 + 8 + 16 with a link-local address): the address after the distinguisher.
  if (length === 12 || length === 24 || length === 48) return addressText(bytes.subarray(8, length === 12 ? 12 : 24));
  return null;
}

/**
 * Whether the routes of an AFI/SAFI are decoded: IPv4 and IPv6 unicast, the routing table the rows
 * describe, and with `labeledAndVpn` labelled unicast and L3VPN. Multicast, EVPN, flowspec … are
 * left out, as in TABLE_DUMP_V2.
 */
function decodedFamily(afi: number, safi: number, context: AttributeContext): afi is 1 | 2 {
  return context.labeledAndVpn ? routedFamily(afi, safi) : (afi === 1 || afi === 2) && safi === SAFI.UNICAST;
}

function addPathOf(context: AttributeContext, afi: number, safi: number): AddPathUse {
  return typeof context.addPath === "function" ? context.addPath(afi, safi) : context.addPath;
}

function readMpReach(cursor: Cursor, context: AttributeContext): PathAttributes["mpReach"] {
  // RFC 6396 §4.3.4 short form (next-hop length first) vs the full BGP form (AFI, SAFI first).
  // A next-hop length is never 0 and an AFI's high byte always is, so the first byte tells.
  if (context.ribEntry && cursor.remaining > 0 && peekByte(cursor) !== 0) {
    const nextHop = readMpNextHop(cursor, cursor.u8("an MP next-hop length"));
    return { afi: 0, safi: 0, nextHop, nlri: [], nlriBytes: 0 };
  }
  const afi = cursor.u16("an MP_REACH AFI");
  const safi = cursor.u8("an MP_REACH SAFI");
  const nextHop = readMpNextHop(cursor, cursor.u8("an MP next-hop length"));
  cursor.u8("the MP_REACH reserved byte");
  const nlriBytes = cursor.remaining;
  const nlri = decodedFamily(afi, safi, context)
    ? readAnnouncements(cursor, { afi, safi, addPath: addPathOf(context, afi, safi) }, nextHop)
    : [];
  return { afi, safi, nextHop, nlri, nlriBytes };
}

function peekByte(cursor: Cursor): number {
  const at = cursor.position;
  const value = cursor.u8();
  cursor.position = at;
  return value;
}

function readMpUnreach(cursor: Cursor, context: AttributeContext): PathAttributes["mpUnreach"] {
  const afi = cursor.u16("an MP_UNREACH AFI");
  const safi = cursor.u8("an MP_UNREACH SAFI");
  const nlriBytes = cursor.remaining;
  const withdrawn = decodedFamily(afi, safi, context)
    ? readNlri(cursor, { afi, safi, addPath: addPathOf(context, afi, safi), withdrawal: true })
    : [];
  return { afi, safi, withdrawn, nlriBytes };
}

/** The attributes of a route that carries none (the start of every decoded block). */
export function emptyAttributes(): PathAttributes {
  return {
    origin: null,
    asPath: [],
    nextHop: null,
    med: null,
    localPref: null,
    atomicAggregate: false,
    aggregator: null,
    originatorId: null,
    communities: [],
    largeCommunities: [],
    extendedCommunities: [],
    mpReach: null,
    mpUnreach: null,
    otherTypes: [],
  };
}

/** Decodes a path attribute block; unknown attributes are listed by type code, not an error. */
export function readAttributes(cursor: Cursor, context: AttributeContext): PathAttributes {
  const attrs = emptyAttributes();
  let as4Path: AsPathSegment[] | null = null;
  let as4Aggregator: string | null = null;
  let aggregatorAsn: number | null = null;
  while (cursor.remaining > 0) {
    const flags = cursor.u8("attribute flags");
    const type = cursor.u8("an attribute type");
    const length = flags & 0x10 ? cursor.u16("an attribute length") : cursor.u8("an attribute length");
    const value = cursor.slice(length, `attribute ${type}`);
    switch (type) {
      case ATTR.ORIGIN: {
        const code = value.u8("ORIGIN");
        attrs.origin = ORIGINS[code] ?? "INCOMPLETE";
        break;
      }
      case ATTR.AS_PATH:
        attrs.asPath = readAsPath(value, context.as4 ? 4 : 2);
        break;
      case ATTR.NEXT_HOP:
        attrs.nextHop = value.ipv4("NEXT_HOP");
        break;
      case ATTR.MED:
        attrs.med = value.u32("MULTI_EXIT_DISC");
        break;
      case ATTR.LOCAL_PREF:
        attrs.localPref = value.u32("LOCAL_PREF");
        break;
      case ATTR.ATOMIC_AGGREGATE:
        attrs.atomicAggregate = true;
        break;
      case ATTR.AGGREGATOR: {
        // The length tells the AS width: 6 bytes (2-byte AS) or 8 (4-byte AS), whatever the session.
        aggregatorAsn = length === 8 ? value.u32("AGGREGATOR") : value.u16("AGGREGATOR");
        attrs.aggregator = `${aggregatorAsn} ${value.ipv4("AGGREGATOR")}`;
        break;
      }
      case ATTR.COMMUNITIES:
        while (value.remaining >= 4) attrs.communities.push(`${value.u16()}:${value.u16()}`);
        break;
      case ATTR.ORIGINATOR_ID:
        attrs.originatorId = value.ipv4("ORIGINATOR_ID");
        break;
      case ATTR.MP_REACH_NLRI:
        attrs.mpReach = readMpReach(value, context);
        break;
      case ATTR.MP_UNREACH_NLRI:
        attrs.mpUnreach = readMpUnreach(value, context);
        break;
      case ATTR.AS4_PATH:
        as4Path = readAsPath(value, 4);
        break;
      case ATTR.AS4_AGGREGATOR:
        as4Aggregator = `${value.u32("AS4_AGGREGATOR")} ${value.ipv4("AS4_AGGREGATOR")}`;
        break;
      case ATTR.EXTENDED_COMMUNITIES:
        while (value.remaining >= 8) attrs.extendedCommunities.push(extendedCommunityText(value.bytes(8)));
        break;
      case ATTR.IPV6_EXTENDED_COMMUNITIES:
        while (value.remaining >= 20) attrs.extendedCommunities.push(ipv6ExtendedCommunityText(value.bytes(20)));
        break;
      case ATTR.LARGE_COMMUNITIES:
        while (value.remaining >= 12) attrs.largeCommunities.push(`${value.u32()}:${value.u32()}:${value.u32()}`);
        break;
      default:
        attrs.otherTypes.push(type);
    }
  }
  // AS4_* attributes only mean something on 2-byte sessions (RFC 6793 §4.2.3).
  if (!context.as4) {
    if (as4Aggregator && aggregatorAsn === AS_TRANS) attrs.aggregator = as4Aggregator;
    if (as4Path && (aggregatorAsn === null || aggregatorAsn === AS_TRANS || !as4Aggregator))
      attrs.asPath = mergeAs4Path(attrs.asPath, as4Path);
  }
  return attrs;
}
