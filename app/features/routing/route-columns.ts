/**
 * The fields of the rows the routing queries answer, in the spec's names (§3): a Looking Glass
 * route, and the Control Plane's columns (its row fields in display order) with the path attributes
 * a withdrawal leaves empty. Pure and isomorphic: the SQL builders, the services and the tool
 * screens share them; labels and cell texts are the screens' own.
 */
import type { ControlPlaneRow } from "./controlplane.server";
import type { RibView } from "./rib-views";
import type { RpkiState } from "./rpki/state";

/** A row as api/lookingglass/ returns it (the private-only fields absent for the public variant). */
export type LookingGlassRow = {
  VantagePoint: string;
  Prefix: string;
  RouteDistinguisher: string;
  "BGP as_path": string;
  "BGP local_pref": number;
  "BGP med": number;
  "BGP next_hop": string;
  /** Standard, large and extended communities, space-separated (private only). */
  "BGP community"?: string;
  "BGP originator_id"?: string;
  /** The routing table the route is from: Adj-RIB-In before ("pre-policy") or after ("post-policy") import policy, or the Loc-RIB. */
  RibView: RibView;
  /** ISO 8601 UTC. */
  LastUpdate: string;
  /** The names of the ASes of the path as the viewer reads them (effective mapping, else as_info): AS number → name (ASes without a name are left out). */
  asNames: Record<string, string>;
  /** Private only: each community of "BGP community" that has a well-known name or an operator's label → that name. */
  communityNames?: Record<string, string>;
  /** Route origin validation (RFC 6811) of prefix and origin AS against the VRPs loaded; null when none is. */
  RPKI: RpkiState | null;
};

/** Fields of a row that are not columns of the table: what the screens name the values with. */
export const ROW_NAME_FIELDS = ["asNames", "communityNames"] as const;

export const CONTROL_PLANE_COLUMNS = [
  "timestamp",
  "vantagePoint",
  "withdrawn",
  "prefix",
  "ASPathSeq",
  "BGPNextHop",
  "localPref",
  "Origin",
  "communityIndex",
  "IP",
  "AFI",
  "SAFI",
  "ASConfedSeq",
  "ASPathSet",
  "Aggregator",
  "Originator",
  "expireMgmt",
  "ribView",
] as const satisfies readonly (keyof ControlPlaneRow)[];
export type ControlPlaneColumn = (typeof CONTROL_PLANE_COLUMNS)[number];

/** A withdrawal has no path attributes: its cells stay empty rather than show 0 or a default. */
export const PATH_ATTRIBUTES: readonly ControlPlaneColumn[] = [
  "ASPathSeq",
  "BGPNextHop",
  "localPref",
  "Origin",
  "communityIndex",
  "ASConfedSeq",
  "ASPathSet",
  "Aggregator",
  "Originator",
];
