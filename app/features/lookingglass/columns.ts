/**
 * The Looking Glass table (spec §3 "Looking Glass row columns"): its columns per variant, the rows
 * of a response flattened for display and export, and the link the 'Show in RNA' action opens.
 * Pure and isomorphic: the screens, the export endpoint and the tests share it.
 */
import type { Sheet, SheetColumn } from "~/lib/sheet";
import type { LookingGlassRow, ROW_NAME_FIELDS } from "~/features/routing/route-columns";
import { RIB_VIEW_LABELS } from "~/features/routing/rib-views";
import { communityWithName } from "~/lib/bgp-communities";
import { formatDateLongBare } from "~/lib/date-format";
import { rpkiStateLabel } from "~/features/routing/rpki/state";

/** The row's fields that are columns; the AS and community names only name their values. */
export type DataColumn = Exclude<keyof LookingGlassRow, (typeof ROW_NAME_FIELDS)[number]>;
export const PRIVATE_ONLY_COLUMNS: readonly DataColumn[] = ["BGP community", "BGP originator_id"];
export const DATA_COLUMNS: readonly DataColumn[] = [
  "VantagePoint",
  "Prefix",
  "RouteDistinguisher",
  "BGP as_path",
  "RPKI",
  "BGP local_pref",
  "BGP med",
  "BGP next_hop",
  "BGP community",
  "BGP originator_id",
  "RibView",
  "LastUpdate",
];
/** The action column's name (row details, Show in RNA). */
export const ACTION_COLUMN = "Action";

export function dataColumns(variant: "public" | "private"): DataColumn[] {
  return DATA_COLUMNS.filter((c) => variant === "private" || !PRIVATE_ONLY_COLUMNS.includes(c));
}

/** Labels people read; the JSON API keeps the spec's names (BGP as_path, …). */
export const COLUMN_LABELS: Record<DataColumn, string> = {
  VantagePoint: "Vantage point",
  Prefix: "Prefix",
  RouteDistinguisher: "Route distinguisher",
  "BGP as_path": "AS path",
  RPKI: "RPKI",
  "BGP local_pref": "Local preference",
  "BGP med": "MED",
  "BGP next_hop": "Next hop",
  "BGP community": "Communities",
  "BGP originator_id": "Originator ID",
  RibView: "RIB view",
  LastUpdate: "Last update",
};

/** What fits a laptop screen beside the action; the rest is in each row's details (and the column picker). */
export const DEFAULT_COLUMNS: readonly DataColumn[] = ["VantagePoint", "Prefix", "BGP as_path", "RPKI", "BGP next_hop", "LastUpdate"];

/** Headers as the table shows them: the time column says its timezone. */
export function columnHeader(column: DataColumn, tz = "UTC"): string {
  return column === "LastUpdate" ? `${COLUMN_LABELS[column]} (${tz})` : COLUMN_LABELS[column];
}

export const PAGE_SIZE = 25;
/** The table keeps the height of 20 rows even with fewer results, so the page does not jump. */
export const MIN_ROWS = 20;

/** "2026-05-01T12:00:00Z" → "01.05.2026 14:00" in `tz` (the header names it); other text unchanged. */
export function formatLastUpdate(iso: string, tz = "UTC"): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/.test(iso) ? formatDateLongBare(iso, tz) : iso;
}

/** Between the ASes of a path as the screens show it: "64496 Example-Net › 64511". */
export const AS_PATH_SEPARATOR = " › ";

/** The ASes of a row's path, each with its name as the viewer reads it (effective mapping, else as_info; null when it has none). */
export function asPathHops(row: Pick<LookingGlassRow, "BGP as_path" | "asNames">): { asn: string; name: string | null }[] {
  return row["BGP as_path"]
    .split(" ")
    .filter(Boolean)
    .map((asn) => ({ asn, name: row.asNames?.[asn] ?? null }));
}

/** The communities of a row (standard, large, extended), each with its well-known name or operator's label (null when none). */
export function communityEntries(
  row: Pick<LookingGlassRow, "BGP community" | "communityNames">,
): { community: string; name: string | null }[] {
  return (row["BGP community"] ?? "")
    .split(" ")
    .filter(Boolean)
    .map((community) => ({ community, name: row.communityNames?.[community] ?? null }));
}

/** A cell as people read it (the table, its filters and the files): AS paths with names, communities with theirs. */
export function cellText(row: LookingGlassRow, column: DataColumn, tz = "UTC"): string {
  // The origin validation state as people read it: Valid, Invalid, Not found, or No ROA data (none loaded).
  if (column === "RPKI") return rpkiStateLabel(row.RPKI);
  const value = row[column];
  if (value === undefined) return "";
  switch (column) {
    case "LastUpdate":
      return formatLastUpdate(String(value), tz);
    case "BGP as_path":
      return asPathHops(row)
        .map((h) => (h.name ? `${h.asn} ${h.name}` : h.asn))
        .join(AS_PATH_SEPARATOR);
    case "BGP community":
      return communityEntries(row)
        .map((c) => communityWithName(c.community, c.name))
        .join(", ");
    case "RibView":
      return RIB_VIEW_LABELS[row.RibView] ?? String(value);
    default:
      return String(value);
  }
}

export type ResultsByVantagePoint = Record<string, LookingGlassRow[] | string>;

/** The rows of a response in vantage point order, and the vantage points that had none. */
export function flattenResults(results: ResultsByVantagePoint): { rows: LookingGlassRow[]; noData: string[] } {
  const rows: LookingGlassRow[] = [];
  const noData: string[] = [];
  for (const [key, value] of Object.entries(results)) {
    if (Array.isArray(value) && value.length) rows.push(...value);
    else noData.push(key);
  }
  return { rows, noData };
}

/** The table as a sheet for the csv/xls/xlsx writers of the exports. */
export function resultsSheet(title: string, rows: readonly LookingGlassRow[], variant: "public" | "private", tz = "UTC"): Sheet {
  const columns = dataColumns(variant);
  const sheetColumns: SheetColumn[] = columns.map((c) => ({
    header: columnHeader(c, tz),
    kind: c === "BGP local_pref" || c === "BGP med" ? "number" : "text",
  }));
  return {
    title,
    columns: sheetColumns,
    rows: rows.map((row) => columns.map((c) => (c === "BGP local_pref" || c === "BGP med" ? Number(row[c] ?? 0) : cellText(row, c, tz)))),
  };
}

/**
 * 'Show in RNA' (spec §2): the columns a user may pick, and the RNA filter each becomes. The RNA
 * screen reads filters as `filter=<dimension>:<value>` search params like the Flow Explorer:
 * the prefix as the destination prefix, the origin AS (last AS of the path) as the destination AS,
 * the next hop as the next-hop address, the vantage point's router as the exporting router.
 *
 * A route of a VRF's table (the row has a route distinguisher) that the inventory maps to a VRF of
 * the vantage point's router (`vrfOf`, from router_vrfs) scopes the prefix, AS and next-hop filters
 * to that VRF's flows (`DST_PREFIX:10.1.2.0/24@CUST_A`, the flows' vrf_name): the same prefix in
 * the global table or another VRF is other traffic. A distinguisher the inventory does not map
 * leaves the filters unscoped. The exporting router is the router whatever the table.
 */
export const RNA_COLUMNS = ["VantagePoint", "Prefix", "BGP as_path", "BGP next_hop"] as const;
export type RnaColumn = (typeof RNA_COLUMNS)[number];

export type RouterOf = (vantagePoint: string) => string | undefined;
/** The name of the VRF whose route distinguisher is `routeDistinguisher` on the vantage point's router. */
export type VrfOf = (vantagePoint: string, routeDistinguisher: string) => string | undefined;

/** The VRF a row's route belongs to, when its distinguisher names one of the router's VRFs. */
export function rnaVrf(row: LookingGlassRow, vrfOf?: VrfOf): string | null {
  const rd = (row.RouteDistinguisher ?? "").trim();
  return (rd && vrfOf?.(row.VantagePoint, rd)) || null;
}

export function rnaFilter(row: LookingGlassRow, column: RnaColumn, routerOf: RouterOf, vrfOf?: VrfOf): string | null {
  const vrf = rnaVrf(row, vrfOf);
  const scoped = (filter: string) => (vrf ? `${filter}@${vrf}` : filter);
  switch (column) {
    case "Prefix":
      return row.Prefix ? scoped(`DST_PREFIX:${row.Prefix}`) : null;
    case "BGP as_path": {
      const origin = row["BGP as_path"].trim().split(/\s+/).filter(Boolean).at(-1);
      return origin ? scoped(`AS_DST:${origin}`) : null;
    }
    case "BGP next_hop":
      return row["BGP next_hop"] ? scoped(`NEXT_HOP:${row["BGP next_hop"]}`) : null;
    case "VantagePoint": {
      const router = routerOf(row.VantagePoint);
      return router ? `EXPORTER:${router}` : null;
    }
  }
}

/** The RNA link for a row and the picked columns (null while none is picked, or none gives a filter). */
export function rnaLink(row: LookingGlassRow, columns: readonly RnaColumn[], routerOf: RouterOf, vrfOf?: VrfOf): string | null {
  const params = new URLSearchParams();
  for (const column of columns) {
    const filter = rnaFilter(row, column, routerOf, vrfOf);
    if (filter) params.append("filter", filter);
  }
  return params.size ? `/rna?${params.toString()}` : null;
}

/** What each picked column filters in the RNA, as the server-rendered table's links say it. */
export const RNA_FILTER_LABELS: Record<RnaColumn, string> = {
  Prefix: "Destination prefix",
  "BGP as_path": "Destination (origin) AS",
  "BGP next_hop": "Next hop",
  VantagePoint: "Exporting router",
};

/** A filter as people read it: "Destination prefix 10.1.2.0/24 in VRF CUST_A". */
function rnaFilterLabel(column: RnaColumn, filter: string): string {
  const value = filter.slice(filter.indexOf(":") + 1);
  const at = column === "VantagePoint" ? -1 : value.lastIndexOf("@");
  return at < 0
    ? `${RNA_FILTER_LABELS[column]} ${value}`
    : `${RNA_FILTER_LABELS[column]} ${value.slice(0, at)} in VRF ${value.slice(at + 1)}`;
}

/**
 * 'Show in RNA' without JavaScript (the server-rendered table has no dialog): one link per column
 * that gives a filter, then — when there are several — one with all of them, each the same
 * address the dialog opens for that choice.
 */
export function rnaRowLinks(
  row: LookingGlassRow,
  routerOf: RouterOf,
  vrfOf?: VrfOf,
): { label: string; href: string; columns: RnaColumn[] }[] {
  const links = RNA_COLUMNS.flatMap((column) => {
    const filter = rnaFilter(row, column, routerOf, vrfOf);
    return filter ? [{ label: rnaFilterLabel(column, filter), columns: [column] }] : [];
  });
  const all = links.length > 1 ? [{ label: "All of these", columns: links.flatMap((l) => l.columns) }] : [];
  return [...links, ...all].map((l) => ({ ...l, href: rnaLink(row, l.columns, routerOf, vrfOf)! }));
}
