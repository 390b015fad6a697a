/**
 * Route origin validation (RFC 6811) against a set of validated ROA payloads (VRPs). Pure.
 *
 * A route is *covered* by a VRP whose prefix contains the route's prefix (same address family,
 * VRP length ≤ route length, same leading bits). It is *valid* when one covering VRP names the
 * route's origin AS and allows its length (maxLength ≥ route length), *invalid* when it is covered
 * but no covering VRP matches, and *not-found* when nothing covers it. VRPs of AS0 (RFC 6483 §4,
 * RFC 7607) cover but never match, and a route without an origin (its AS path ends in an AS_SET)
 * matches nothing.
 *
 * The index keeps one map per address family and prefix length, keyed by the prefix's network bits,
 * and remembers which lengths hold any VRP: a lookup asks at most those lengths up to the route's
 * own (for a full RPKI set about 20 for IPv4 and 30 for IPv6), each a single map probe, so 500,000
 * VRPs answer a route in microseconds. A VRP is packed into one number, asn × 256 + maxLength.
 */
import type { AsPathSegment } from "../mrt/attributes";
import { ADDRESS_BITS, parseIpAddress, parseNetwork } from "~/lib/ip";
import type { RpkiState } from "./state";

export type { RpkiState } from "./state";

/** A prefix as the index reads it: the network (host bits clear; IPv4 as a number or a bigint) and its length. */
export type RoutePrefix = { version: 4; value: number | bigint; length: number } | { version: 6; value: bigint; length: number };

/** One VRP: the network, its length, the longest length it allows, and the AS. */
export type Vrp = RoutePrefix & { maxLength: number; asn: number };

const IPV4_PREFIX = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * A prefix in its usual text ("192.0.2.0/24", "2001:db8::/32"), or null: not a prefix, or host bits
 * set. IPv4 is read without big integers (most VRPs and routes are IPv4), IPv6 by ~/lib/ip.
 */
export function parsePrefix(text: string): RoutePrefix | null {
  const m = IPV4_PREFIX.exec(text);
  if (m) {
    let value = 0;
    for (let i = 1; i <= 4; i++) {
      const part = m[i];
      const octet = Number(part);
      if (octet > 255 || (part.length > 1 && part[0] === "0")) return null;
      value = value * 256 + octet;
    }
    const length = Number(m[5]);
    if (length > 32 || (m[5].length > 1 && m[5][0] === "0")) return null;
    const hostSize = 2 ** (32 - length);
    if (value % hostSize !== 0) return null;
    return { version: 4, value, length };
  }
  if (!text.includes(":") || !text.includes("/")) return null;
  const network = parseNetwork(text);
  if (!network || network.version !== 6) return null;
  // parseNetwork clears host bits; a prefix that had any is not the same text's network.
  const address = parseIpAddress(text.slice(0, text.indexOf("/")));
  if (!address || address.value !== network.value) return null;
  return { version: 6, value: network.value, length: network.length };
}

type Packed = number | number[];

const pack = (asn: number, maxLength: number) => asn * 256 + maxLength;

function add<K>(map: Map<K, Packed>, key: K, value: number): void {
  const present = map.get(key);
  if (present === undefined) map.set(key, value);
  else if (typeof present === "number") {
    if (present !== value) map.set(key, [present, value]);
  } else if (!present.includes(value)) present.push(value);
}

const v4Key = (value: number, length: number) => (length === 0 ? 0 : value >>> (32 - length));
const v6Key = (value: bigint, length: number) => value >> BigInt(128 - length);

export class RoaIndex {
  private readonly v4: Map<number, Packed>[] = [];
  private readonly v6: Map<bigint, Packed>[] = [];
  private v4Lengths: number[] = [];
  private v6Lengths: number[] = [];
  /** VRPs added (duplicates included). */
  size = 0;

  static build(vrps: Iterable<Vrp>): RoaIndex {
    const index = new RoaIndex();
    for (const vrp of vrps) index.add(vrp);
    return index;
  }

  add(vrp: Vrp): void {
    const bits = ADDRESS_BITS[vrp.version];
    if (vrp.length < 0 || vrp.length > bits || vrp.maxLength < vrp.length || vrp.maxLength > bits)
      throw new RangeError(`VRP length ${vrp.length}, maxLength ${vrp.maxLength}: out of range`);
    const value = pack(vrp.asn, vrp.maxLength);
    if (vrp.version === 4) {
      let map = this.v4[vrp.length];
      if (!map) {
        map = this.v4[vrp.length] = new Map();
        this.v4Lengths = lengthsOf(this.v4);
      }
      add(map, v4Key(Number(vrp.value), vrp.length), value);
    } else {
      let map = this.v6[vrp.length];
      if (!map) {
        map = this.v6[vrp.length] = new Map();
        this.v6Lengths = lengthsOf(this.v6);
      }
      add(map, v6Key(vrp.value, vrp.length), value);
    }
    this.size += 1;
  }

  /**
   * An IPv4 VRP as the store hands it over: its length, its network bits shifted down (the address
   * >>> (32 − length)), and asn × 256 + maxLength.
   */
  addPacked4(length: number, networkBits: number, packed: number): void {
    if (!(length >= 0 && length <= 32) || !(packed % 256 >= length && packed % 256 <= 32))
      throw new RangeError(`VRP length ${length}, maxLength ${packed % 256}: out of range`);
    let map = this.v4[length];
    if (!map) {
      map = this.v4[length] = new Map();
      this.v4Lengths = lengthsOf(this.v4);
    }
    add(map, networkBits, packed);
    this.size += 1;
  }

  /** The route's state for its origin AS (null: the route has none, see routeOriginAsn). */
  validate(route: RoutePrefix, originAsn: number | null): RpkiState {
    let covered = false;
    const check = (packed: Packed | undefined): boolean => {
      if (packed === undefined) return false;
      covered = true;
      if (originAsn === null || originAsn === 0) return false;
      const matches = (value: number) => value % 256 >= route.length && Math.floor(value / 256) === originAsn;
      return typeof packed === "number" ? matches(packed) : packed.some(matches);
    };
    if (route.version === 4) {
      const value = Number(route.value);
      for (const length of this.v4Lengths) {
        if (length > route.length) break;
        if (check(this.v4[length].get(v4Key(value, length)))) return "valid";
      }
    } else {
      for (const length of this.v6Lengths) {
        if (length > route.length) break;
        if (check(this.v6[length].get(v6Key(route.value, length)))) return "valid";
      }
    }
    return covered ? "invalid" : "not-found";
  }

  /** The state of a prefix given as text ("192.0.2.0/24", "2001:db8::/32"); null when it is not a prefix. */
  validatePrefix(prefix: string, originAsn: number | null): RpkiState | null {
    const route = parsePrefix(prefix);
    return route ? this.validate(route, originAsn) : null;
  }
}

function lengthsOf(maps: readonly (Map<unknown, Packed> | undefined)[]): number[] {
  const lengths: number[] = [];
  maps.forEach((map, length) => map && lengths.push(length));
  return lengths;
}

/**
 * The origin AS of a route from its AS path segments (RFC 6811 §2): the last AS of the final
 * segment when that is an AS_SEQUENCE; the speaker's own AS when the path is empty or ends in a
 * confederation segment (the route was originated inside the network or its confederation); none
 * (null) when the path ends in an AS_SET.
 */
export function originOfSegments(segments: readonly AsPathSegment[], speakerAsn: number): number | null {
  const last = [...segments].reverse().find((s) => s.asns.length > 0);
  if (!last || last.type === "confed-sequence" || last.type === "confed-set") return speakerAsn;
  if (last.type === "set") return null;
  return last.asns[last.asns.length - 1];
}

/**
 * The origin AS of a route as the routing tables store it: `as_path` holds the AS_SEQUENCE members
 * in order, `as_path_set` the AS_SET members (an aggregate's set closes the path: BGP speakers
 * prepend, so a set stays at the end), the confederation segments are apart. So: a path with AS_SET
 * members has no origin; otherwise the last AS of the sequence; an empty path (a route originated
 * inside the network, or only confederation segments) takes the AS of the peer the route was
 * learned from — for iBGP and Loc-RIB routes the network's own AS.
 */
export function routeOriginAsn(route: { asPath: readonly number[]; asPathSet: readonly number[]; peerAsn: number }): number | null {
  if (route.asPathSet.length > 0) return null;
  if (route.asPath.length > 0) return route.asPath[route.asPath.length - 1];
  return route.peerAsn;
}

/**
 * A routing table row's state (`prefix`, `as_path`, `as_path_set`, `peer_asn` as rib_current holds
 * them): null when no VRP is loaded, so nothing can be judged.
 */
export function routeRpkiState(
  index: RoaIndex | null,
  route: { prefix: string; as_path: readonly number[]; as_path_set: readonly number[]; peer_asn: number },
): RpkiState | null {
  if (!index) return null;
  const origin = routeOriginAsn({ asPath: route.as_path.map(Number), asPathSet: route.as_path_set, peerAsn: Number(route.peer_asn) });
  return index.validatePrefix(route.prefix, origin) ?? "not-found";
}
