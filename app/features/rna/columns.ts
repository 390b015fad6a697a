/**
 * The columns of the Raw Network Analyzer: the raw flow records of `flows_raw`
 * (db/clickhouse/0001_flows.sql, 0004_collector_raw.sql, 0007_flow_details.sql) as people read
 * them. The id is the flows_raw column name as the API names it (`src_addr`, `bytes` …); the few
 * columns that no single stored column holds are named for what they are (`bytes_scaled`, `bps`,
 * `flows`, `share`, `tags`). Pure and isomorphic: the SQL of each column lives in sql.ts, keyed by
 * these ids.
 *
 * Two kinds: a **dimension** describes a record (time, addresses, ports …): prefix aggregation
 * groups by every enabled dimension; a **measure** is summed (bytes, packets, flows) or derived
 * from the sums (bit/s, share). `numeric` says which columns the table's '>' / '<' filters take.
 */
import type { FeatureFlag, Permission } from "~/lib/permissions";

export type RnaColumnKind = "dimension" | "measure";

export type RnaColumnDef = {
  id: string;
  /** The header people read. */
  label: string;
  kind: RnaColumnKind;
  /** Whether the values are numbers (the table's numeric filters, right alignment). */
  numeric: boolean;
  /** A permission the user needs to see the column (besides RAW_NETWORK_ANALYZER). */
  permission?: Permission;
  /** A feature flag the user needs to see the column. */
  flag?: FeatureFlag;
  /** What the column means, where the header alone does not say it. */
  description?: string;
};

const dimension = <const T extends string>(id: T, label: string, rest: Partial<RnaColumnDef> = {}) =>
  ({ id, label, kind: "dimension", numeric: false, ...rest }) as const;
const measure = <const T extends string>(id: T, label: string, description: string) =>
  ({ id, label, kind: "measure", numeric: true, description }) as const;

const RAW = [
  dimension("time_received", "Time", { description: "When the collector received the record, in your timezone." }),
  dimension("exporter_name", "Exporter", { description: "The router that exported the record." }),
  dimension("exporter_address", "Exporter address"),
  dimension("flow_protocol", "Flow protocol", { description: "NetFlow v5, NetFlow v9, IPFIX or sFlow." }),
  dimension("ingress_router", "Ingress router"),
  dimension("in_if", "In-interface", { description: "By its inventory name; the raw SNMP ifIndex where the inventory does not know it." }),
  dimension("egress_router", "Egress router"),
  dimension("out_if", "Out-interface", {
    description: "By its inventory name; the raw SNMP ifIndex where the inventory does not know it.",
  }),
  dimension("src_addr", "Source address", { description: "With prefix aggregation: the source prefix." }),
  dimension("dst_addr", "Destination address", { description: "With prefix aggregation: the destination prefix." }),
  dimension("src_port", "Source port", { numeric: true }),
  dimension("dst_port", "Destination port", { numeric: true }),
  dimension("protocol", "Protocol", { description: "The IANA protocol by name." }),
  dimension("tcp_flags", "TCP flags", { description: "As letters: C E U A P R S F (CWR ECE URG ACK PSH RST SYN FIN)." }),
  dimension("icmp_type", "ICMP type / code", { description: "ICMP and ICMPv6 records only, by name." }),
  dimension("forwarding_status", "Forwarding status", { description: "What the router did with the packets, where the exporter says." }),
  dimension("next_hop", "Next hop"),
  dimension("vrf_name", "VRF"),
  dimension("sampling_rate", "Sampling rate", { numeric: true }),
  dimension("as_src", "Source AS"),
  dimension("as_hnd", "Handover AS"),
  dimension("as_nxt", "Next-hop AS"),
  dimension("as_dst", "Destination AS"),
  dimension("application", "Application", { permission: "RNA_APPLICATIONS_AND_INFRASTRUCTURE" }),
  dimension("infrastructure", "Infrastructure", { permission: "RNA_APPLICATIONS_AND_INFRASTRUCTURE" }),
  dimension("post_nat_src_addr", "Source address after NAT"),
  dimension("post_nat_dst_addr", "Destination address after NAT"),
  dimension("post_nat_src_port", "Source port after NAT", { numeric: true }),
  dimension("post_nat_dst_port", "Destination port after NAT", { numeric: true }),
  dimension("src_vlan", "Source VLAN", { numeric: true }),
  dimension("src_inner_vlan", "Source inner VLAN", { numeric: true }),
  dimension("dst_vlan", "Destination VLAN", { numeric: true }),
  dimension("mpls_labels", "MPLS labels", { description: "Top of the outermost stack first." }),
  dimension("counted", "Counted", {
    description: "Whether the record counts its traffic (seen entering the network) or is a copy exported again by another router.",
  }),
  dimension("tags", "Tags", { flag: "rnaTagColumn", description: "The tags whose values match the record's ASes, routers or interfaces." }),
  measure("bytes", "Bytes (sampled)", "The bytes as the exporter counted them, before scaling by the sampling rate."),
  measure("packets", "Packets (sampled)", "The packets as the exporter counted them, before scaling by the sampling rate."),
  measure("bytes_scaled", "Bytes", "The bytes the record stands for: sampled bytes × sampling rate."),
  measure("packets_scaled", "Packets", "The packets the record stands for: sampled packets × sampling rate."),
  measure("bps", "bit/s", "The scaled bytes × 8 over the seconds of the range."),
  measure("flows", "Flows", "The number of raw records in the row."),
  measure("share", "Share", "The row's part of the scaled bytes of every row of the query."),
] as const satisfies readonly RnaColumnDef[];

export type RnaColumnId = (typeof RAW)[number]["id"];

export const RNA_COLUMNS: readonly (RnaColumnDef & { id: RnaColumnId })[] = RAW;

export const RNA_COLUMN_IDS: readonly RnaColumnId[] = RNA_COLUMNS.map((c) => c.id);

const BY_ID = new Map<string, RnaColumnDef & { id: RnaColumnId }>(RNA_COLUMNS.map((c) => [c.id, c]));

export function isRnaColumnId(value: string): value is RnaColumnId {
  return BY_ID.has(value);
}

export function rnaColumn(id: RnaColumnId): RnaColumnDef & { id: RnaColumnId } {
  const column = BY_ID.get(id);
  if (!column) throw new Error(`Unknown RNA column ${id}`);
  return column;
}

/** The default view's columns (issue: time, exporter, addresses, ports, protocol, bytes and packets among them). */
export const DEFAULT_RNA_COLUMNS: readonly RnaColumnId[] = [
  "time_received",
  "exporter_name",
  "in_if",
  "src_addr",
  "src_port",
  "dst_addr",
  "dst_port",
  "protocol",
  "tcp_flags",
  "sampling_rate",
  "bytes",
  "packets",
  "bytes_scaled",
  "packets_scaled",
];

/** Whose columns: the permissions and feature flags of a user (UserContext has both). */
export type ColumnViewer = { permissions: readonly string[]; featureFlags: readonly string[] };

/** Whether the user may see the column. */
export function mayUseColumn(user: ColumnViewer, id: RnaColumnId): boolean {
  const column = rnaColumn(id);
  if (column.permission && !user.permissions.includes(column.permission)) return false;
  if (column.flag && !user.featureFlags.includes(column.flag)) return false;
  return true;
}

/** The columns the user may pick, in catalogue order. */
export function columnsFor(user: ColumnViewer): (RnaColumnDef & { id: RnaColumnId })[] {
  return RNA_COLUMNS.filter((c) => mayUseColumn(user, c.id));
}

export const isMeasure = (id: RnaColumnId) => rnaColumn(id).kind === "measure";
