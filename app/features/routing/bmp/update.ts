import { readAttributes, type PathAttributes } from "../mrt/attributes";
import { Cursor } from "../mrt/cursor";
import { MrtRecordError } from "../mrt/errors";
import { readAnnouncements, readNlri, routedFamily, type AddPathUse } from "../mrt/nlri";
import { BGP_MESSAGE_TYPE, bgpMessageName, readBgpMessage } from "./bgp-message";
import { BmpMessageError } from "./errors";
import { familyName } from "./names";
import type { BmpAnnouncement, BmpRoute, BmpUpdate } from "./types";

/** How the UPDATEs of one peer are encoded, from its per-peer header and its Peer Up. */
export type UpdateContext = {
  /** AS numbers in AS_PATH and AGGREGATOR are 4 bytes (the per-peer header's A flag clear). */
  as4: boolean;
  /** Whether the NLRI of a family carry ADD-PATH identifiers: known, or a guess to check. */
  addPath: (afi: number, safi: number) => AddPathUse;
};

/**
 * Path attributes with the AS number width the context says; when they do not decode that way, the
 * other width is tried (routers that set the A flag wrongly), and the first error stands if neither does.
 */
function attributesOf(cursor: Cursor, context: UpdateContext): PathAttributes {
  const start = cursor.position;
  const read = (as4: boolean) => {
    cursor.position = start;
    return readAttributes(cursor, { as4, ribEntry: false, addPath: context.addPath, labeledAndVpn: true });
  };
  try {
    return read(context.as4);
  } catch (error) {
    if (!(error instanceof MrtRecordError)) throw error;
    try {
      return read(!context.as4);
    } catch {
      throw error;
    }
  }
}

/** A BGP UPDATE of a Route Monitoring message, from its BGP header on (RFC 7854 §4.6). */
export function readRouteMonitoringUpdate(cursor: Cursor, context: UpdateContext): BmpUpdate {
  const { type, body } = readBgpMessage(cursor, "the BGP message");
  if (type !== BGP_MESSAGE_TYPE.UPDATE) throw new BmpMessageError(`it carries a BGP ${bgpMessageName(type)}, not an UPDATE`);
  const withdrawnLength = body.u16("the withdrawn routes length");
  const withdrawnCursor = body.slice(withdrawnLength, "the withdrawn routes");
  const attributesLength = body.u16("the path attributes length");
  const attributes = attributesOf(body.slice(attributesLength, "the path attributes"), context);
  const nlriBytes = body.remaining;

  // The body's NLRI are IPv4 unicast (RFC 4271 §4.3).
  const withdrawn: BmpRoute[] = readNlri(withdrawnCursor, { afi: 1, safi: 1, addPath: context.addPath(1, 1), withdrawal: true });
  const announced: BmpAnnouncement[] = readAnnouncements(body, { afi: 1, safi: 1, addPath: context.addPath(1, 1) }, attributes.nextHop);
  const { mpReach, mpUnreach } = attributes;
  let skipped: BmpUpdate["skipped"] = null;
  if (mpReach) {
    if (routedFamily(mpReach.afi, mpReach.safi)) for (const route of mpReach.nlri) announced.push(route);
    else if (mpReach.nlriBytes > 0) skipped = { afi: mpReach.afi, safi: mpReach.safi, reason: notStored(mpReach.afi, mpReach.safi) };
  }
  if (mpUnreach) {
    if (routedFamily(mpUnreach.afi, mpUnreach.safi)) for (const route of mpUnreach.withdrawn) withdrawn.push(route);
    else if (mpUnreach.nlriBytes > 0 && !skipped)
      skipped = { afi: mpUnreach.afi, safi: mpUnreach.safi, reason: notStored(mpUnreach.afi, mpUnreach.safi) };
  }

  // End-of-RIB (RFC 4724 §2): an empty UPDATE for IPv4 unicast, an MP_UNREACH_NLRI without NLRI for the others.
  let endOfRib: BmpUpdate["endOfRib"] = null;
  if (withdrawnLength === 0 && nlriBytes === 0) {
    if (attributesLength === 0) endOfRib = { afi: 1, safi: 1 };
    else if (mpUnreach && mpUnreach.nlriBytes === 0 && !mpReach) endOfRib = { afi: mpUnreach.afi, safi: mpUnreach.safi };
  }
  return { announced, withdrawn, attributes, extendedCommunities: attributes.extendedCommunities, endOfRib, skipped };
}

function notStored(afi: number, safi: number): string {
  return `${familyName(afi, safi)} routes (AFI ${afi}, SAFI ${safi}) are not stored`;
}
