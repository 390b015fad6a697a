/**
 * One row of flows_raw as the collector writes it (db/clickhouse/0001_flows.sql, 0004_collector_raw.sql
 * and 0007_flow_details.sql): a decoded flow after enrichment. Column names are the table's.
 * Bytes and packets stay as sampled; flows_5m_mv multiplies by sampling_rate once.
 */
export type FlowRow = {
  /** Unix seconds: the flow's end (its bucket), or its arrival for sFlow and skewed exporters. */
  time_received: number;
  /** The exporter's address as ClickHouse IPv6 text (IPv4 as ::ffff:a.b.c.d). */
  exporter_address: string;
  /** The router of the inventory that exports from this address; "" when it is not in the inventory yet. */
  exporter_name: string;
  sampling_rate: number;
  ip_version: number;
  src_addr: string;
  dst_addr: string;
  src_prefix_len: number;
  dst_prefix_len: number;
  protocol: number;
  src_port: number;
  dst_port: number;
  tcp_flags: number;
  bytes: number;
  packets: number;
  vrf_name: string;
  ingress_router: string;
  in_if: string;
  egress_router: string;
  out_if: string;
  link_start_router: string;
  link_start_if: string;
  link_end_router: string;
  link_end_if: string;
  as_src: number;
  as_hnd: number;
  as_nxt: number;
  as_dst: number;
  application: string;
  infrastructure: string;
  /** The record's SNMP ifIndexes, kept whether or not the inventory knows them (0: absent). */
  in_if_index: number;
  out_if_index: number;
  /** netflow5 | netflow9 | ipfix | sflow5 */
  flow_protocol: string;
  /** The record's next hop (BGP next hop when given, else the IP next hop), IPv6 text; "::" when absent. */
  next_hop: string;
  /** 1: the observation that counts this traffic; 0: the same traffic exported again on a core interface. */
  counted: 0 | 1;
  /** ICMP / ICMPv6 type and code; null (\N) for other protocols and ICMP records that do not say. */
  icmp_type: number | null;
  icmp_code: number | null;
  /** IE 89 as sent (status in the top two bits, reason below); 0: not said. 0b10xxxxxx: dropped, left out of the aggregates. */
  forwarding_status: number;
  /** NAT: source and destination after translation, IPv6 text ("::" when not said); ports 0 when not said. */
  post_nat_src_addr: string;
  post_nat_dst_addr: string;
  post_nat_src_port: number;
  post_nat_dst_port: number;
  /**
   * The VLAN the flow arrived on (for QinQ the outer tag), the inner tag under it (QinQ only) and
   * the VLAN it left on; 0: untagged or not said. Plain columns, not an array: see 0007_flow_details.sql.
   */
  src_vlan: number;
  src_inner_vlan: number;
  dst_vlan: number;
  /** MPLS label values (20 bits) of IE 70–79, else of the sampled header, top of the outermost stack first; [] without. */
  mpls_labels: readonly number[];
};

/**
 * How the decoding threads write an insert's body: RowBinary for embedded chDB (no text to parse),
 * TabSeparated for a ClickHouse server (the client's inserts take text formats).
 */
export type FlowRowFormat = "RowBinary" | "TabSeparated";

/** The columns of a FlowRow, in the order inserts name them. */
export const FLOW_ROW_COLUMNS = [
  "time_received",
  "exporter_address",
  "exporter_name",
  "sampling_rate",
  "ip_version",
  "src_addr",
  "dst_addr",
  "src_prefix_len",
  "dst_prefix_len",
  "protocol",
  "src_port",
  "dst_port",
  "tcp_flags",
  "bytes",
  "packets",
  "vrf_name",
  "ingress_router",
  "in_if",
  "egress_router",
  "out_if",
  "link_start_router",
  "link_start_if",
  "link_end_router",
  "link_end_if",
  "as_src",
  "as_hnd",
  "as_nxt",
  "as_dst",
  "application",
  "infrastructure",
  "in_if_index",
  "out_if_index",
  "flow_protocol",
  "next_hop",
  "counted",
  "icmp_type",
  "icmp_code",
  "forwarding_status",
  "post_nat_src_addr",
  "post_nat_dst_addr",
  "post_nat_src_port",
  "post_nat_dst_port",
  "src_vlan",
  "src_inner_vlan",
  "dst_vlan",
  "mpls_labels",
] as const satisfies readonly (keyof FlowRow)[];
