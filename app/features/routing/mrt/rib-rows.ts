import type { RibView } from "../bmp/types";
import type { AsPathSegment, PathAttributes } from "./attributes";
import type { Prefix } from "./cursor";
import type { RibRecord, UpdateRecord } from "./types";

/** rib_entries columns in the order of the compact rows below. */
export const RIB_COLUMNS = [
  "timestamp",
  "vantage_point",
  "router_ip",
  "peer_ip",
  "peer_asn",
  "route_distinguisher",
  "prefix",
  "prefix_addr",
  "prefix_len",
  "afi",
  "safi",
  "is_withdrawn",
  "as_path",
  "as_path_set",
  "as_confed_seq",
  "local_pref",
  "med",
  "bgp_next_hop",
  "origin",
  "aggregator",
  "originator_id",
  "communities",
  "expire_at",
  "rib_view",
  "path_id",
  "ext_communities",
] as const;

/** One rib_entries row as a JSONCompactEachRow array, in RIB_COLUMNS order. */
export type CompactRibRow = (string | number | string[] | number[])[];

type PathColumns = { asPath: number[]; asPathSet: number[]; asConfedSeq: number[] };

/** AS_SEQUENCE ASes in order, AS_SET members apart, confederation segments (sequence and set) apart. */
export function pathColumns(segments: AsPathSegment[]): PathColumns {
  const out: PathColumns = { asPath: [], asPathSet: [], asConfedSeq: [] };
  for (const segment of segments) {
    if (segment.type === "sequence") out.asPath.push(...segment.asns);
    else if (segment.type === "set") out.asPathSet.push(...segment.asns);
    else out.asConfedSeq.push(...segment.asns);
  }
  return out;
}

/** The prefix_addr text of a prefix: IPv4 is stored IPv4-mapped in the IPv6 column, as everywhere in the RIB tables. */
export function prefixAddress(prefix: Pick<Prefix, "afi" | "address">): string {
  return prefix.afi === 1 ? `::ffff:${prefix.address}` : prefix.address;
}

/** What one rib_entries row holds; the last five default to what an MRT dump gives (global table, unicast, post-policy, path 0, the attributes' extended communities). */
export type RibRowInput = {
  timestamp: number;
  vantagePoint: string;
  routerIp: string;
  peerIp: string;
  peerAsn: number;
  prefix: Prefix;
  /** The prefix's prefix_addr text, computed once for all rows of a prefix. */
  prefixAddr: string;
  withdrawn: boolean;
  attributes: PathAttributes | null;
  nextHop: string | null;
  routeDistinguisher?: string;
  safi?: number;
  ribView?: RibView;
  pathId?: number;
  extCommunities?: string[];
};

/** One rib_entries row in RIB_COLUMNS order; a withdrawal (attributes null) carries no path attributes. */
export function ribRow(options: RibRowInput): CompactRibRow {
  const { prefix, attributes: a } = options;
  const path = a ? pathColumns(a.asPath) : { asPath: [], asPathSet: [], asConfedSeq: [] };
  return [
    options.timestamp,
    options.vantagePoint,
    options.routerIp,
    options.peerIp,
    options.peerAsn,
    options.routeDistinguisher ?? "",
    prefix.prefix,
    options.prefixAddr,
    prefix.length,
    prefix.afi,
    options.safi ?? 1,
    options.withdrawn ? 1 : 0,
    path.asPath,
    path.asPathSet,
    path.asConfedSeq,
    // Absent LOCAL_PREF / MED are written 0, as bgpdump prints them.
    a?.localPref ?? 0,
    a?.med ?? 0,
    options.nextHop ?? "",
    a?.origin ?? "IGP",
    a?.aggregator ?? "",
    a?.originatorId ?? "",
    a ? [...a.communities, ...a.largeCommunities] : [],
    0,
    // An MRT dump holds what a router or route collector accepted: its post-policy tables.
    options.ribView ?? "post-policy",
    options.pathId ?? 0,
    options.extCommunities ?? (a ? a.extendedCommunities : []),
  ];
}

/**
 * Rows of a TABLE_DUMP_V2 RIB record: one per peer's route, timed by the route's originated time
 * (when the collector learned it), not by the dump's time. `routerIp` is the collector's BGP ID.
 */
export function ribRecordRows(record: RibRecord, vantagePoint: string, routerIp: string): CompactRibRow[] {
  const prefixAddr = prefixAddress(record.prefix);
  return record.entries.map((entry) => {
    const a = entry.attributes;
    // IPv6 routes carry their next hop in MP_REACH_NLRI; IPv4 ones in NEXT_HOP (or MP as a fallback).
    const nextHop = record.prefix.afi === 2 ? (a.mpReach?.nextHop ?? a.nextHop) : (a.nextHop ?? a.mpReach?.nextHop ?? null);
    return ribRow({
      timestamp: entry.originatedTime,
      vantagePoint,
      routerIp,
      peerIp: entry.peer.ip,
      peerAsn: entry.peer.asn,
      prefix: record.prefix,
      prefixAddr,
      withdrawn: false,
      attributes: a,
      nextHop,
    });
  });
}

/** Rows of a BGP4MP UPDATE: announcements with their attributes, withdrawals as is_withdrawn = 1. */
export function updateRows(record: UpdateRecord, vantagePoint: string): CompactRibRow[] {
  const common = { timestamp: record.timestamp, vantagePoint, routerIp: record.localIp, peerIp: record.peerIp, peerAsn: record.peerAsn };
  return [
    ...record.withdrawn.map((prefix) =>
      ribRow({ ...common, prefix, prefixAddr: prefixAddress(prefix), withdrawn: true, attributes: null, nextHop: null }),
    ),
    ...record.announced.map((prefix) =>
      ribRow({
        ...common,
        prefix,
        prefixAddr: prefixAddress(prefix),
        withdrawn: false,
        attributes: record.attributes,
        nextHop: prefix.nextHop,
      }),
    ),
  ];
}
