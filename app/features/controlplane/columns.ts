/**
 * The Control Plane table's columns as people read them. The JSON API keeps the spec's field
 * names (ASPathSeq, communityIndex, …); the screen shows labels, a few columns by default (the
 * rest in each row's details, or added with the column picker), and values in words and the
 * spec's date formats. Isomorphic and pure.
 */
import type { ControlPlaneRow } from "~/features/routing/controlplane.server";
import { CONTROL_PLANE_COLUMNS, PATH_ATTRIBUTES, type ControlPlaneColumn } from "~/features/routing/route-columns";
import { RIB_VIEW_LABELS } from "~/features/routing/rib-views";
import { formatDateLongBare, formatDateShort, formatTimeSeconds } from "~/lib/date-format";

export const COLUMN_LABELS: Record<ControlPlaneColumn, string> = {
  timestamp: "Time",
  vantagePoint: "Vantage point",
  withdrawn: "Event",
  prefix: "Prefix",
  ASPathSeq: "AS path",
  BGPNextHop: "Next hop",
  localPref: "Local preference",
  Origin: "Origin",
  communityIndex: "Communities",
  IP: "Router address",
  AFI: "Address family",
  SAFI: "Subsequent address family",
  ASConfedSeq: "AS confederation path",
  ASPathSet: "AS set",
  Aggregator: "Aggregator",
  Originator: "Originator ID",
  expireMgmt: "Expires",
  ribView: "RIB view",
};

/** What fits a laptop screen beside the details toggle; the column picker adds the others. */
export const DEFAULT_COLUMNS: readonly ControlPlaneColumn[] = [
  "timestamp",
  "vantagePoint",
  "withdrawn",
  "prefix",
  "ASPathSeq",
  "BGPNextHop",
];

/** The search parameter of the column picker (repeated, or comma-separated). */
export const COLUMNS_PARAM = "columns";

/** The columns a URL picks, in the table's order; the defaults when it picks none it knows. */
export function parseColumns(search: URLSearchParams): ControlPlaneColumn[] {
  const asked = new Set(
    search
      .getAll(COLUMNS_PARAM)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim()),
  );
  const picked = CONTROL_PLANE_COLUMNS.filter((c) => asked.has(c));
  return picked.length ? picked : [...DEFAULT_COLUMNS];
}

export const isDefaultColumns = (columns: readonly ControlPlaneColumn[]) =>
  columns.length === DEFAULT_COLUMNS.length && columns.every((c, i) => c === DEFAULT_COLUMNS[i]);

/** Headers: times say their timezone. */
export function columnLabel(column: ControlPlaneColumn, tz: string): string {
  return column === "timestamp" || column === "expireMgmt" ? `${COLUMN_LABELS[column]} (${tz})` : COLUMN_LABELS[column];
}

const AFI_NAMES: Record<number, string> = { 1: "IPv4", 2: "IPv6" };
const SAFI_NAMES: Record<number, string> = { 1: "Unicast", 2: "Multicast", 4: "Labeled unicast", 128: "MPLS VPN" };
const ORIGIN_NAMES: Record<string, string> = { IGP: "IGP", EGP: "EGP", INCOMPLETE: "Incomplete" };
export function cellText(row: ControlPlaneRow, column: ControlPlaneColumn, tz: string, vantagePointNames: Record<string, string>): string {
  if (row.withdrawn && PATH_ATTRIBUTES.includes(column)) return "";
  switch (column) {
    case "timestamp":
      return `${formatDateShort(row.timestamp * 1000, tz)} ${formatTimeSeconds(row.timestamp * 1000, tz)}`;
    case "expireMgmt":
      return row.expireMgmt === null ? "" : formatDateLongBare(row.expireMgmt * 1000, tz);
    case "vantagePoint":
      return vantagePointNames[row.vantagePoint] ?? row.vantagePoint;
    case "withdrawn":
      return row.withdrawn ? "Withdrawn" : "Announced";
    case "AFI":
      return AFI_NAMES[row.AFI] ?? String(row.AFI);
    case "SAFI":
      return SAFI_NAMES[row.SAFI] ?? String(row.SAFI);
    case "Origin":
      return ORIGIN_NAMES[row.Origin] ?? row.Origin;
    case "ribView":
      return RIB_VIEW_LABELS[row.ribView] ?? row.ribView;
    default:
      return String(row[column] ?? "");
  }
}
