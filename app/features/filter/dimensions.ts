/**
 * The flow dimensions (shell §3, looking glass §3 "Filter dimensions") as a typed catalogue.
 * Pure and isomorphic: no server imports.
 *
 * ## Ingress vs egress: how a variant maps to rows of flows_5m / flows_1h
 *
 * A row of the aggregates carries four AS columns: as_src (origin), as_hnd (the neighbour that
 * handed the traffic over to the operator, or the operator itself for traffic that originates
 * inside), as_nxt (the AS the traffic is handed to next: the operator itself when it is
 * delivered to subscribers, a customer, or the neighbour where it leaves) and as_dst.
 * With `operatorAsn` the operator's own AS number (64500 in the demo; always a parameter of the
 * SQL builder, never a constant):
 *
 * - INGRESS rows: traffic entering the network from outside: `as_hnd != operatorAsn`.
 *   (Untracked/Not-routable handovers, which are negative, count as ingress.)
 * - EGRESS rows: traffic originating inside and leaving to the outside:
 *   `as_hnd = operatorAsn AND as_nxt != operatorAsn`.
 * - Dimensions without a direction (routers, interfaces, links, application, infrastructure,
 *   VRF, protocol) apply to all rows.
 *
 * A dimension shown (table, timeseries, sankey) restricts the rows to its direction. A filter
 * on a directed dimension matches only rows of its direction: a positive filter keeps
 * `direction AND key IN (...)`, a negated one removes exactly those rows
 * (`NOT (direction AND key IN (...))`).
 *
 * AS_NEIGHBOR_EGRESS and AS_NXT_EGRESS both read as_nxt on egress rows: the aggregates have no
 * AS column beyond the neighbour the traffic is handed to, so in this schema they coincide.
 *
 * Interface and internal-link dimensions key on router + interface: their value is
 * `router|interface` (see INTERFACE_SEPARATOR).
 *
 * SNMP groups: LEFT for source / handover / ingress-side (including application and
 * infrastructure, which describe the sending side), CORE for internal links and for
 * side-independent VRF and protocol, RIGHT for next-hop / destination / egress-side.
 *
 * IANA_PROTOCOL requires no extra permission (the spec names none for it).
 *
 * IANA_PROTOCOL's views (table, timeseries, sankey) refine ICMP (1) and IPv6-ICMP (58) by ICMP type:
 * they group by `shownKey`, "1/8" for an echo request, "58/1" for an ICMPv6 destination unreachable,
 * "1/-1" for ICMP whose type is not known (rows written before the aggregates kept it, exporters
 * that do not send it), and the protocol number for every other protocol. The rows of one protocol
 * add up to that protocol's traffic, and the shares to the same total. Filters stay on the protocol
 * number (`key`): IANA_PROTOCOL:1 selects all ICMP, whatever its type.
 */
import type { Permission } from "~/lib/permissions";

export const FILTER_KINDS = [
  "AS_NUMBER",
  "ROUTER",
  "INTERFACE",
  "INTERNAL_LINK",
  "APPLICATION",
  "INFRASTRUCTURE",
  "IANA_PROTOCOL",
  "VRF_NAME",
] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];

/**
 * What a filter value of each kind may be, for the hint of the input that takes it (the Flow
 * Explorer's filter bar): each kind names its own values; every kind also takes a leading ! to
 * negate. The autocomplete offers the names; a tag (#12) works everywhere.
 */
export const FILTER_VALUE_HINTS: Record<FilterKind, string> = {
  AS_NUMBER: "AS number, name or !value",
  ROUTER: "Router name or !value",
  INTERFACE: "Router|interface, name or !value",
  INTERNAL_LINK: "Router|interface of the link or !value",
  APPLICATION: "Application name or !value",
  INFRASTRUCTURE: "Infrastructure name or !value",
  IANA_PROTOCOL: "Protocol number, name or !value",
  VRF_NAME: "VRF name or !value",
};

export type SnmpGroup = "LEFT" | "CORE" | "RIGHT";
export type Direction = "INGRESS" | "EGRESS";
/** ClickHouse type of a dimension's key expression (and of its bound filter values). */
export type ValueType = "Int64" | "String";

export const MIN_API_VERSION = 13;
export const MAX_API_VERSION = 17;
/** The separator of router and interface in the value of interface / internal-link dimensions. */
export const INTERFACE_SEPARATOR = "|";
/** The AS value that the top-N folding uses for the rest (shell §3 special AS values). */
export const OTHERS_AS = -101;
export const OTHERS_LABEL = "Others";

export type DimensionDef = {
  id: string;
  label: string;
  /** ClickHouse columns the dimension keys on (router + interface for interface dimensions). */
  columns: readonly string[];
  /** The key expression over `columns` (identifiers only from this catalogue): what filters match. */
  key: string;
  /**
   * What the dimension's views group by when it refines `key` (a String expression over `columns`);
   * absent: `key`. See IANA_PROTOCOL above.
   */
  shownKey?: string;
  valueType: ValueType;
  filterKind: FilterKind;
  /** Required permission; null: none beyond access to flows. */
  permission: Permission | null;
  snmpGroup: SnmpGroup;
  direction: Direction | null;
  order: number;
  /** First API version in which the dimension exists. */
  minApiVersion: number;
};

/** The protocols whose rows the protocol views split by ICMP type: ICMP and IPv6-ICMP. */
export const ICMP_PROTOCOLS = [1, 58] as const;
/** The separator of protocol and ICMP type in IANA_PROTOCOL's shown key ("1/8"). */
export const ICMP_TYPE_SEPARATOR = "/";
/** The ICMP type of the aggregates' rows whose type is not known (db/clickhouse/0008_icmp_aggregates.sql). */
export const ICMP_TYPE_NOT_KNOWN = -1;

const ifaceKey = (router: string, iface: string) => `concat(${router}, '${INTERFACE_SEPARATOR}', ${iface})`;

const def = <const T extends string>(
  id: T,
  rest: Omit<DimensionDef, "id" | "order" | "minApiVersion" | "key" | "valueType"> &
    Partial<Pick<DimensionDef, "minApiVersion" | "key" | "valueType" | "shownKey">>,
) => ({ id, ...rest });

const RAW = [
  def("AS_SRC_INGRESS", {
    label: "Source AS (ingress)",
    columns: ["as_src"],
    filterKind: "AS_NUMBER",
    permission: "API_FLOWS_4D",
    snmpGroup: "LEFT",
    direction: "INGRESS",
  }),
  def("AS_HND_INGRESS", {
    label: "Handover AS (ingress)",
    columns: ["as_hnd"],
    filterKind: "AS_NUMBER",
    permission: "API_FLOWS_4D",
    snmpGroup: "LEFT",
    direction: "INGRESS",
  }),
  def("AS_NXT_INGRESS", {
    label: "Next-hop AS (ingress)",
    columns: ["as_nxt"],
    filterKind: "AS_NUMBER",
    permission: "API_FLOWS_4D",
    snmpGroup: "RIGHT",
    direction: "INGRESS",
  }),
  def("AS_DST_INGRESS", {
    label: "Destination AS (ingress)",
    columns: ["as_dst"],
    filterKind: "AS_NUMBER",
    permission: "API_FLOWS_4D",
    snmpGroup: "RIGHT",
    direction: "INGRESS",
  }),
  def("AS_SRC_EGRESS", {
    label: "Source AS (egress)",
    columns: ["as_src"],
    filterKind: "AS_NUMBER",
    permission: "FLOWS_EGRESS",
    snmpGroup: "LEFT",
    direction: "EGRESS",
  }),
  def("AS_NXT_EGRESS", {
    label: "Next-hop AS (egress)",
    columns: ["as_nxt"],
    filterKind: "AS_NUMBER",
    permission: "FLOWS_EGRESS",
    snmpGroup: "RIGHT",
    direction: "EGRESS",
  }),
  def("AS_DST_EGRESS", {
    label: "Destination AS (egress)",
    columns: ["as_dst"],
    filterKind: "AS_NUMBER",
    permission: "FLOWS_EGRESS",
    snmpGroup: "RIGHT",
    direction: "EGRESS",
  }),
  def("AS_NEIGHBOR_EGRESS", {
    label: "Neighbor AS (egress)",
    columns: ["as_nxt"],
    filterKind: "AS_NUMBER",
    permission: "FLOWS_EGRESS",
    snmpGroup: "RIGHT",
    direction: "EGRESS",
  }),
  def("AS_APPLICATION", {
    label: "Application",
    columns: ["application"],
    filterKind: "APPLICATION",
    permission: "API_FLOWS_DNS",
    snmpGroup: "LEFT",
    direction: null,
  }),
  def("AS_INFRASTRUCTURE", {
    label: "Infrastructure",
    columns: ["infrastructure"],
    filterKind: "INFRASTRUCTURE",
    permission: "API_FLOWS_DNS",
    snmpGroup: "LEFT",
    direction: null,
  }),
  def("ROUTER_IN", {
    label: "Ingress router",
    columns: ["ingress_router"],
    filterKind: "ROUTER",
    permission: "API_FLOWS_INTERFACES",
    snmpGroup: "LEFT",
    direction: null,
  }),
  def("INTERFACE_IN", {
    label: "In-interface",
    columns: ["ingress_router", "in_if"],
    key: ifaceKey("ingress_router", "in_if"),
    filterKind: "INTERFACE",
    permission: "API_FLOWS_INTERFACES",
    snmpGroup: "LEFT",
    direction: null,
  }),
  def("ROUTER_LINK_START", {
    label: "Link start router",
    columns: ["link_start_router"],
    filterKind: "ROUTER",
    permission: "FLOWS_BY_LINK_FILTER",
    snmpGroup: "CORE",
    direction: null,
  }),
  def("INTERNAL_LINK_START", {
    label: "Internal link start",
    columns: ["link_start_router", "link_start_if"],
    key: ifaceKey("link_start_router", "link_start_if"),
    filterKind: "INTERNAL_LINK",
    permission: "FLOWS_BY_LINK_FILTER",
    snmpGroup: "CORE",
    direction: null,
  }),
  def("ROUTER_LINK_END", {
    label: "Link end router",
    columns: ["link_end_router"],
    filterKind: "ROUTER",
    permission: "FLOWS_BY_LINK_FILTER",
    snmpGroup: "CORE",
    direction: null,
  }),
  def("INTERNAL_LINK_END", {
    label: "Internal link end",
    columns: ["link_end_router", "link_end_if"],
    key: ifaceKey("link_end_router", "link_end_if"),
    filterKind: "INTERNAL_LINK",
    permission: "FLOWS_BY_LINK_FILTER",
    snmpGroup: "CORE",
    direction: null,
  }),
  def("ROUTER_OUT", {
    label: "Egress router",
    columns: ["egress_router"],
    filterKind: "ROUTER",
    permission: "API_FLOWS_INTERFACES",
    snmpGroup: "RIGHT",
    direction: null,
  }),
  def("INTERFACE_OUT", {
    label: "Out-interface",
    columns: ["egress_router", "out_if"],
    key: ifaceKey("egress_router", "out_if"),
    filterKind: "INTERFACE",
    permission: "API_FLOWS_INTERFACES",
    snmpGroup: "RIGHT",
    direction: null,
  }),
  def("VRF_NAME", {
    label: "VRF name",
    columns: ["vrf_name"],
    filterKind: "VRF_NAME",
    permission: "VRF_DIMENSION",
    snmpGroup: "CORE",
    direction: null,
    minApiVersion: 16,
  }),
  def("IANA_PROTOCOL", {
    label: "IANA protocol",
    columns: ["protocol", "icmp_type"],
    key: "toInt64(protocol)",
    shownKey: `if(protocol IN (${ICMP_PROTOCOLS.join(", ")}), concat(toString(protocol), '${ICMP_TYPE_SEPARATOR}', toString(icmp_type)), toString(protocol))`,
    valueType: "Int64",
    filterKind: "IANA_PROTOCOL",
    permission: null,
    snmpGroup: "CORE",
    direction: null,
  }),
] as const;

export type DimensionId = (typeof RAW)[number]["id"];

export const DIMENSIONS: readonly (DimensionDef & { id: DimensionId })[] = RAW.map((d, i) => {
  const r = d as typeof d & Partial<Pick<DimensionDef, "minApiVersion" | "key" | "valueType">>;
  return {
    ...d,
    columns: [...d.columns],
    key: r.key ?? d.columns[0],
    valueType: r.valueType ?? (d.filterKind === "AS_NUMBER" ? "Int64" : "String"),
    order: i + 1,
    minApiVersion: r.minApiVersion ?? MIN_API_VERSION,
  };
});

export const DIMENSION_IDS: readonly DimensionId[] = DIMENSIONS.map((d) => d.id);

const BY_ID = new Map<string, DimensionDef & { id: DimensionId }>(DIMENSIONS.map((d) => [d.id, d]));

export function isDimensionId(value: string): value is DimensionId {
  return BY_ID.has(value);
}

/** The hint of a filter value input for `id`: what that dimension's filters accept. */
export function filterValueHint(id: DimensionId): string {
  return FILTER_VALUE_HINTS[getDimension(id).filterKind];
}

export function getDimension(id: DimensionId): DimensionDef & { id: DimensionId } {
  const d = BY_ID.get(id);
  if (!d) throw new Error(`Unknown flow dimension ${id}`);
  return d;
}

/** Dimensions the user may use, in catalogue order. */
export function availableDimensions(
  permissions: readonly string[],
  apiVersion: number = MAX_API_VERSION,
): (DimensionDef & { id: DimensionId })[] {
  const granted = new Set(permissions);
  return DIMENSIONS.filter((d) => apiVersion >= d.minApiVersion && (d.permission === null || granted.has(d.permission)));
}

/** The value used for the folded rest of a top-N, typed by the dimension. */
export function othersValue(id: DimensionId): number | string {
  return getDimension(id).valueType === "Int64" ? OTHERS_AS : OTHERS_LABEL;
}
