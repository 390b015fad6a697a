import { Cursor, ipv4Text, readPrefixAddress, type Prefix } from "./cursor";
import { MrtRecordError } from "./errors";

/** SAFIs whose routes the routing tables hold (RFC 4760, RFC 8277, RFC 4364). */
export const SAFI = { UNICAST: 1, MULTICAST: 2, LABELED_UNICAST: 4, MPLS_VPN: 128 } as const;

/** A route of an NLRI field: its prefix and what tells the routes of one prefix apart. */
export type NlriRoute = Prefix & {
  safi: number;
  /** ADD-PATH path identifier (RFC 7911); 0 when the NLRI carry none. */
  pathId: number;
  /** MPLS labels (20-bit values) of labelled unicast and L3VPN announcements; [] otherwise and in withdrawals. */
  labels: number[];
  /** "" outside L3VPN, else the route distinguisher as routers print it (see routeDistinguisherText). */
  routeDistinguisher: string;
};

/** An announced route with the next hop of its UPDATE (NEXT_HOP, or the MP_REACH_NLRI next hop). */
export type NlriAnnouncement = NlriRoute & { nextHop: string | null };

/**
 * Whether NLRI carry ADD-PATH identifiers: known (true / false), or a guess to check against the
 * bytes when nothing says (a BMP peer whose Peer Up was not seen, a Loc-RIB instance).
 */
export type AddPathUse = boolean | { guess: boolean };

/** IPv4 and IPv6 unicast, labelled unicast and L3VPN: the families whose NLRI are decoded into routes. */
export function routedFamily(afi: number, safi: number): afi is 1 | 2 {
  return (afi === 1 || afi === 2) && (safi === SAFI.UNICAST || safi === SAFI.LABELED_UNICAST || safi === SAFI.MPLS_VPN);
}

/**
 * A route distinguisher (RFC 4364 §4.2) as routers print it: type 0 "ASN2:n", type 1 "a.b.c.d:n",
 * type 2 "ASN4:n"; "" when all zero (no distinguisher); another type as "0x" and its 16 hex digits.
 */
export function routeDistinguisherText(bytes: Buffer): string {
  if (bytes.length !== 8) throw new MrtRecordError(`a route distinguisher has 8 bytes, not ${bytes.length}`);
  if (bytes.every((b) => b === 0)) return "";
  switch (bytes.readUInt16BE(0)) {
    case 0:
      return `${bytes.readUInt16BE(2)}:${bytes.readUInt32BE(4)}`;
    case 1:
      return `${ipv4Text(bytes.subarray(2, 6))}:${bytes.readUInt16BE(6)}`;
    case 2:
      return `${bytes.readUInt32BE(2)}:${bytes.readUInt16BE(6)}`;
    default:
      return `0x${bytes.toString("hex")}`;
  }
}

/** Label values a withdrawal carries in place of a stack (RFC 3107 0x800000, RFC 8277 §2.4 0x000000). */
function isWithdrawalLabel(b: Buffer): boolean {
  return (b[0] === 0x80 || b[0] === 0) && b[1] === 0 && b[2] === 0;
}

type Reading = { afi: 1 | 2; safi: number; addPath: boolean; withdrawal: boolean; nextHop: string | null | undefined };

function readRoute(cursor: Cursor, { afi, safi, addPath, withdrawal, nextHop }: Reading): NlriRoute | NlriAnnouncement {
  const pathId = addPath ? cursor.u32("an ADD-PATH identifier") : 0;
  let bits = cursor.u8("a prefix length");
  const labels: number[] = [];
  let routeDistinguisher = "";
  if (safi === SAFI.LABELED_UNICAST || safi === SAFI.MPLS_VPN) {
    // A label stack ends with the bottom-of-stack bit; a withdrawal has one label field only.
    for (;;) {
      if (bits < 24) throw new MrtRecordError(`a labelled prefix of ${bits} bits has no room for its MPLS label`);
      const label = cursor.bytes(3, "an MPLS label");
      bits -= 24;
      if (withdrawal && isWithdrawalLabel(label)) break;
      if (!withdrawal) labels.push((label[0] << 12) | (label[1] << 4) | (label[2] >> 4));
      if (label[2] & 1) break;
    }
    if (safi === SAFI.MPLS_VPN) {
      if (bits < 64) throw new MrtRecordError(`a VPN prefix of ${bits} bits after its labels has no room for its route distinguisher`);
      routeDistinguisher = routeDistinguisherText(cursor.bytes(8, "a route distinguisher"));
      bits -= 64;
    }
  }
  const address = readPrefixAddress(cursor, bits, afi);
  const prefix = `${address}/${bits}`;
  // One object literal per route, in one shape per kind: the hot path of a full table.
  return nextHop === undefined
    ? { prefix, address, length: bits, afi, safi, pathId, labels, routeDistinguisher }
    : { prefix, address, length: bits, afi, safi, pathId, labels, routeDistinguisher, nextHop };
}

function readAll(cursor: Cursor, reading: Reading): NlriRoute[] {
  const routes: NlriRoute[] = [];
  while (cursor.remaining > 0) routes.push(readRoute(cursor, reading));
  return routes;
}

/**
 * A reading that is well formed but not what a router sends: the same route twice in one field.
 * Reading ADD-PATH NLRI without their identifiers yields exactly that, as the identifiers' leading
 * zero bytes read as /0 prefixes — two of them for any path id below 65,536. (A default route among
 * other prefixes is real, and stays plausible.)
 */
function implausible(routes: NlriRoute[]): boolean {
  if (routes.length < 2) return false;
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.routeDistinguisher}|${r.prefix}|${r.pathId}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

type NlriOptions = { afi: 1 | 2; safi: number; addPath: AddPathUse; withdrawal: boolean };

/**
 * The routes of an NLRI field (the rest of `cursor`) of one address family. With a guess for
 * ADD-PATH, both readings are tried: the one that decodes and looks like real routes wins, the guess
 * when both do (what pmacct and Akvorado do for peers whose capabilities they do not know).
 */
export function readNlri(cursor: Cursor, options: NlriOptions): NlriRoute[] {
  return readField(cursor, options, undefined);
}

/** The announced routes of an NLRI field, each with the UPDATE's next hop for its family. */
export function readAnnouncements(cursor: Cursor, options: Omit<NlriOptions, "withdrawal">, nextHop: string | null): NlriAnnouncement[] {
  return readField(cursor, { ...options, withdrawal: false }, nextHop) as NlriAnnouncement[];
}

function readField(cursor: Cursor, options: NlriOptions, nextHop: string | null | undefined): NlriRoute[] {
  const { afi, safi, addPath, withdrawal } = options;
  if (typeof addPath === "boolean") return readAll(cursor, { afi, safi, addPath, withdrawal, nextHop });
  const start = cursor.position;
  const attempt = (withIds: boolean): NlriRoute[] | MrtRecordError => {
    cursor.position = start;
    try {
      return readAll(cursor, { afi, safi, addPath: withIds, withdrawal, nextHop });
    } catch (error) {
      if (error instanceof MrtRecordError) return error;
      throw error;
    }
  };
  const guessed = attempt(addPath.guess);
  const guessedEnd = cursor.position;
  if (!(guessed instanceof MrtRecordError) && !implausible(guessed)) return guessed;
  const other = attempt(!addPath.guess);
  if (!(other instanceof MrtRecordError) && (guessed instanceof MrtRecordError || !implausible(other))) return other;
  cursor.position = guessedEnd;
  if (guessed instanceof MrtRecordError) throw guessed;
  return guessed;
}
