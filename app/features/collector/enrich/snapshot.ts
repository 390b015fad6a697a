/**
 * What enrichment knows of the network, as plain data: the main thread loads it from the stores
 * (snapshot.server.ts) and posts it to each decoding worker, where createEnricher (enrich.ts) turns
 * it into lookup maps. It must survive structured cloning, so it holds only plain objects, arrays,
 * strings, numbers and typed arrays — no class instances, no functions, no Map.
 *
 * The routing tables are compact: per (vantage point, route distinguisher) and address family,
 * the prefixes' length, origin AS, first AS of the path and BGP next hop in typed arrays, plus the
 * ranges of the longest-prefix match (prefix-table.ts). RibTableBuilder allocates them in
 * SharedArrayBuffers when it can, so posting a snapshot to several workers shares the tables instead
 * of copying them.
 */
import { canonicalIp, mappedIpv4, parseIpv4, parseIpv6, V6_WORDS } from "./address";
import { buildPrefixRanges, type PrefixRanges, type PrefixVersion } from "./prefix-table";

export type InterfaceKind = "core" | "external" | "access";

export type SnapshotInterface = {
  ifIndex: number;
  name: string;
  kind: InterfaceKind;
  /** The neighbour's AS of an external interface (null for an exchange port, where it is per peer). */
  neighborAsn: number | null;
  /** The VRF the interface belongs to; null: the global table. */
  vrf: string | null;
  /** The other end of a core link, when the inventory names it. */
  remoteRouter: string | null;
  remoteInterface: string | null;
};

export type SnapshotRouter = {
  name: string;
  /** Canonical text (canonicalIp). */
  loopback: string;
  /** Addresses the router exports flows from, canonical. */
  exporters: string[];
  /** Keys of the vantage points whose routing tables this router's flows are looked up in (vantage_points.router). */
  vantagePoints: string[];
  interfaces: SnapshotInterface[];
};

/** One address family of a routing table; index i is one prefix with its best path. */
export type RibPrefixes = {
  count: number;
  ranges: PrefixRanges;
  prefixLength: Uint8Array;
  /** Last AS of the path; 0: empty path, a prefix the operator originates itself. */
  originAs: Uint32Array;
  /** First AS of the path (the neighbour the route was learned from); 0: empty path. */
  firstAs: Uint32Array;
  /** Index into RibTable.nextHops; 0: none. */
  nextHop: Uint32Array;
};

export type RibTable = {
  vantagePoint: string;
  /** "" for the global table; a VRF's table otherwise (see enrich.ts for how a VRF finds it). */
  routeDistinguisher: string;
  /** BGP next hops, canonical text; index 0 is "" (none). */
  nextHops: string[];
  ipv4: RibPrefixes;
  ipv6: RibPrefixes;
};

/** as_service_mappings of one AS. */
export type AsService = { asn: number; application: string; infrastructure: string };

export type EnrichmentSnapshot = {
  /** Unix milliseconds when it was read. */
  loadedAtMs: number;
  /** as_info's AS with category 'operator'; null when none is configured. */
  operatorAsn: number | null;
  routers: SnapshotRouter[];
  ribs: RibTable[];
  asServices: AsService[];
};

type TypedArray = Uint8Array | Uint32Array | Int32Array;

/**
 * The same array in a SharedArrayBuffer (when the platform has one): structured cloning then shares
 * the memory with every worker instead of copying it.
 */
function shared<T extends TypedArray>(array: T): T {
  if (typeof SharedArrayBuffer === "undefined") return array;
  const Ctor = array.constructor as new (buffer: SharedArrayBuffer) => T;
  const copy = new Ctor(new SharedArrayBuffer(array.byteLength));
  copy.set(array as never);
  return copy;
}

function grow<T extends TypedArray>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const Ctor = array.constructor as new (length: number) => T;
  const bigger = new Ctor(Math.max(needed, array.length * 2));
  bigger.set(array as never);
  return bigger;
}

class FamilyBuilder {
  count = 0;
  private addresses: Uint32Array;
  private lengths = new Uint8Array(1024);
  private origin = new Uint32Array(1024);
  private first = new Uint32Array(1024);
  private nextHop = new Uint32Array(1024);

  constructor(private readonly version: PrefixVersion) {
    this.addresses = new Uint32Array(1024 * (version === 4 ? 1 : 4));
  }

  add(words: ArrayLike<number>, length: number, originAs: number, firstAs: number, nextHop: number) {
    const W = this.version === 4 ? 1 : 4;
    const i = this.count++;
    this.addresses = grow(this.addresses, (i + 1) * W);
    this.lengths = grow(this.lengths, i + 1);
    this.origin = grow(this.origin, i + 1);
    this.first = grow(this.first, i + 1);
    this.nextHop = grow(this.nextHop, i + 1);
    for (let w = 0; w < W; w++) this.addresses[i * W + w] = words[w];
    this.lengths[i] = length;
    this.origin[i] = originAs;
    this.first[i] = firstAs;
    this.nextHop[i] = nextHop;
  }

  build(): RibPrefixes {
    const n = this.count;
    const ranges = buildPrefixRanges(this.version, this.addresses, this.lengths, n);
    return {
      count: n,
      ranges: { ...ranges, starts: shared(ranges.starts), entries: shared(ranges.entries) },
      prefixLength: shared(this.lengths.slice(0, n)),
      originAs: shared(this.origin.slice(0, n)),
      firstAs: shared(this.first.slice(0, n)),
      nextHop: shared(this.nextHop.slice(0, n)),
    };
  }
}

const MAX_ASN = 4_294_967_295;
const asNumber = (value: number) => (Number.isInteger(value) && value > 0 && value <= MAX_ASN ? value : 0);

/**
 * Collects one routing table's best paths, then builds its compact form. Feed prefixes in
 * (address, length) order for a one-pass build; other orders are sorted. A prefix whose address or
 * length does not parse is skipped and counted in `skipped`.
 */
export class RibTableBuilder {
  skipped = 0;
  private readonly v4 = new FamilyBuilder(4);
  private readonly v6 = new FamilyBuilder(6);
  private readonly nextHops: string[] = [""];
  private readonly nextHopIndex = new Map<string, number>([["", 0]]);
  private readonly word = new Uint32Array(1);

  constructor(
    private readonly vantagePoint: string,
    private readonly routeDistinguisher: string,
  ) {}

  /**
   * One prefix: `address` as text (IPv4, IPv6, or IPv4-mapped IPv6 as rib_current stores IPv4),
   * `length` in the family's bits (0–32 for IPv4), the AS path's sequence, and the BGP next hop.
   */
  add(address: string, length: number, asPath: readonly number[], bgpNextHop: string) {
    const originAs = asPath.length ? asNumber(asPath[asPath.length - 1]) : 0;
    const firstAs = asPath.length ? asNumber(asPath[0]) : 0;
    this.addParsed(address, length, originAs, firstAs, bgpNextHop);
  }

  /** As add, with origin and first AS already taken from the path (0: empty path). */
  addParsed(address: string, length: number, originAs: number, firstAs: number, bgpNextHop: string) {
    if (!Number.isInteger(length) || length < 0) {
      this.skipped++;
      return;
    }
    const nextHop = this.nextHopOf(bgpNextHop);
    const v4 = parseIpv4(address);
    if (v4 >= 0 || (parseIpv6(address) && mappedIpv4() >= 0)) {
      if (length > 32) {
        this.skipped++;
        return;
      }
      this.word[0] = v4 >= 0 ? v4 : mappedIpv4();
      this.v4.add(this.word, length, asNumber(originAs), asNumber(firstAs), nextHop);
    } else if (parseIpv6(address) && length <= 128) this.v6.add(V6_WORDS, length, asNumber(originAs), asNumber(firstAs), nextHop);
    else this.skipped++;
  }

  private nextHopOf(text: string): number {
    let index = this.nextHopIndex.get(text);
    if (index === undefined) {
      const canonical = canonicalIp(text);
      // 0.0.0.0 and :: are what a router writes for its own, locally originated routes: no next hop.
      const usable = canonical && canonical !== "0.0.0.0" && canonical !== "::" ? canonical : "";
      index = this.nextHopIndex.get(usable);
      if (index === undefined) {
        index = this.nextHops.length;
        this.nextHops.push(usable);
        this.nextHopIndex.set(usable, index);
      }
      this.nextHopIndex.set(text, index);
    }
    return index;
  }

  get size(): number {
    return this.v4.count + this.v6.count;
  }

  build(): RibTable {
    return {
      vantagePoint: this.vantagePoint,
      routeDistinguisher: this.routeDistinguisher,
      nextHops: this.nextHops,
      ipv4: this.v4.build(),
      ipv6: this.v6.build(),
    };
  }
}

/** Bytes a routing table takes in memory (typed arrays only): for logs and the memory estimate. */
export function ribTableBytes(table: RibTable): number {
  const family = (p: RibPrefixes) =>
    p.ranges.starts.byteLength +
    p.ranges.entries.byteLength +
    p.prefixLength.byteLength +
    p.originAs.byteLength +
    p.firstAs.byteLength +
    p.nextHop.byteLength;
  return family(table.ipv4) + family(table.ipv6);
}
