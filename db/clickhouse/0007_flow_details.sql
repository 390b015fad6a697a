-- What real exporters send beside addresses and counters, kept in the raw records:
--   icmp_type, icmp_code      ICMP / ICMPv6 type and code (IPFIX 32, 139, 176–179, or NetFlow's type × 256 + code
--                             in the destination port); NULL for other protocols, and for rows written before
--                             this migration, whose ICMP is not known;
--   forwarding_status         IPFIX forwardingStatus (89, RFC 7270) as sent: status in the top two bits (01 forwarded,
--                             10 dropped, 11 consumed), reason code in the six below; 0 when the exporter does not say;
--   post_nat_*                the source and destination after NAT (IPFIX 225–228, 281, 282); "::" and 0 when not said;
--   src_vlan, src_inner_vlan  the 802.1Q VLAN the flow arrived on and, for QinQ, the inner (customer) tag under it:
--                             the record's elements (IPFIX 58 or 243, and 245), else the sampled header's tags,
--                             outer first (a third tag, rare, is not kept), else sFlow's extended switch record;
--                             0: untagged or not said;
--   dst_vlan                  the VLAN it left on (IPFIX 59 / 254, sFlow's extended switch record); 0: not said;
--                             the three are plain columns rather than one array: an operator asks "what came in on VLAN 100"
--                             or "what left on VLAN 200" (nfdump's `src vlan` / `dst vlan`), and in QinQ the
--                             inner id means something only under its outer one, so `has(vlans, 100)` over
--                             both would mix different VLANs; ingress and egress differ where a router
--                             rewrites tags;
--   mpls_labels               the MPLS label values (20 bits, no TC / TTL) of the record's label stack elements
--                             (IPFIX 70–79), else of the sampled header, in wire order: top of the outermost
--                             stack first; [] when neither has labels.
ALTER TABLE flows_raw{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Nullable(UInt8) DEFAULT NULL,
    ADD COLUMN IF NOT EXISTS icmp_code Nullable(UInt8) DEFAULT NULL,
    ADD COLUMN IF NOT EXISTS forwarding_status UInt8 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS post_nat_src_addr IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS post_nat_dst_addr IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS post_nat_src_port UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS post_nat_dst_port UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS src_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS src_inner_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS dst_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS mpls_labels Array(UInt32) DEFAULT [];

-- On a cluster the Distributed table that queries read needs the columns too; on a single server
-- this is the same table and the statement changes nothing.
ALTER TABLE flows_raw {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Nullable(UInt8) DEFAULT NULL,
    ADD COLUMN IF NOT EXISTS icmp_code Nullable(UInt8) DEFAULT NULL,
    ADD COLUMN IF NOT EXISTS forwarding_status UInt8 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS post_nat_src_addr IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS post_nat_dst_addr IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS post_nat_src_port UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS post_nat_dst_port UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS src_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS src_inner_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS dst_vlan UInt16 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS mpls_labels Array(UInt32) DEFAULT [];

-- Packets the router dropped (forwarding status 10xxxxxx) were not carried: they stay in the raw
-- records and out of the aggregates, as the re-exported records (counted = 0) do. A view is only a
-- trigger on inserts, so replacing it keeps every row of flows_5m and flows_1h; it is the view of
-- 0004 with the one condition more.
DROP VIEW IF EXISTS flows_5m_mv{{LOCAL}} {{ON_CLUSTER}};

CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv{{LOCAL}} {{ON_CLUSTER}} TO flows_5m{{LOCAL}} AS
SELECT
    toStartOfFiveMinutes(time_received) AS time,
    ip_version,
    if(as_src < 0 OR as_src IN (SELECT asn FROM tracked_as), as_src, -101) AS as_src,
    if(as_hnd < 0 OR as_hnd IN (SELECT asn FROM tracked_as), as_hnd, -101) AS as_hnd,
    if(as_nxt < 0 OR as_nxt IN (SELECT asn FROM tracked_as), as_nxt, -101) AS as_nxt,
    if(as_dst < 0 OR as_dst IN (SELECT asn FROM tracked_as), as_dst, -101) AS as_dst,
    application, infrastructure, ingress_router, in_if, egress_router, out_if,
    link_start_router, link_start_if, link_end_router, link_end_if, exporter_name, vrf_name, protocol,
    sum(bytes * sampling_rate) AS bytes,
    sum(packets * sampling_rate) AS packets,
    toUInt64(count()) AS flows
FROM flows_raw{{LOCAL}}
WHERE counted = 1 AND bitShiftRight(forwarding_status, 6) != 2
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol;
