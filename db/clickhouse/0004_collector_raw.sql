-- What the collector keeps of each record besides the enriched columns, so that nothing an
-- exporter sends is lost before it is in the inventory: the raw SNMP ifIndexes (interfaces not yet
-- known keep only these), the flow protocol, the next hop, and whether the record is the one that
-- counts its traffic (counted = 1: seen entering the network on an external or access interface,
-- or an exporter whose interfaces are unknown) or the same traffic exported again by another
-- router on a core interface (counted = 0: kept in the raw records, left out of the aggregates).
-- Rows written before this migration (demo and earlier imports) count: the default is 1.
ALTER TABLE flows_raw{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS in_if_index UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS out_if_index UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS flow_protocol LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS next_hop IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS counted UInt8 DEFAULT 1;

-- On a cluster the Distributed table that queries read needs the columns too; on a single server
-- this is the same table and the statement changes nothing.
ALTER TABLE flows_raw {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS in_if_index UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS out_if_index UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS flow_protocol LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS next_hop IPv6 DEFAULT toIPv6('::'),
    ADD COLUMN IF NOT EXISTS counted UInt8 DEFAULT 1;

-- The 5-minute aggregates count each flow once: re-exported records stay out. A view is only a
-- trigger on inserts, so replacing it keeps every row of flows_5m and flows_1h. On a cluster the
-- view reads the tracked set through the Distributed table: tracked_as is sharded by asn, so a
-- shard's local part holds only some of the tracked ASes and would fold the others into Others.
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
WHERE counted = 1
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol;
