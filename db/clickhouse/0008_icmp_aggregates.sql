-- The ICMP and ICMPv6 type and code in the aggregates, so the protocol views can tell an echo request
-- from an unreachable:
--   icmp_type, icmp_code   flows_raw's icmp_type / icmp_code (0007) for protocols 1 and 58; -1 for every
--                          other protocol, for ICMP whose type the exporter did not send, and for the rows
--                          written before this migration (their ICMP type is not known). Int16 with -1
--                          rather than Nullable: they are part of the sorting key, which takes no Nullable.
-- Both end the sorting key, in the same ALTER that adds them (ClickHouse allows MODIFY ORDER BY only with
-- columns the ALTER adds): a SummingMergeTree sums the rows of equal keys, so without them merges would
-- fold the ICMP types of 5 minutes into one row. The primary index stays the old key.
-- A column added to the sorting key may have no default expression then, and its type's default, 0, is
-- ICMP's Echo Reply; so the default -1 is set by a second ALTER. That changes metadata only: the parts
-- written before have no such column and read it as -1, the same for every row of a part, so their
-- order under the longer key holds. The demo's aggregates written straight into flows_5m name both
-- columns (db/demo/flow-sql.ts); an insert that does not gets -1, "type not known".
ALTER TABLE flows_5m{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Int16,
    ADD COLUMN IF NOT EXISTS icmp_code Int16,
    MODIFY ORDER BY (time, as_src, as_hnd, as_nxt, as_dst, ingress_router, in_if, egress_router, out_if,
                     link_start_router, link_start_if, link_end_router, link_end_if, ip_version, protocol,
                     vrf_name, application, infrastructure, exporter_name, icmp_type, icmp_code);

ALTER TABLE flows_5m{{LOCAL}} {{ON_CLUSTER}}
    MODIFY COLUMN icmp_type Int16 DEFAULT -1,
    MODIFY COLUMN icmp_code Int16 DEFAULT -1;

ALTER TABLE flows_1h{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Int16,
    ADD COLUMN IF NOT EXISTS icmp_code Int16,
    MODIFY ORDER BY (time, as_src, as_hnd, as_nxt, as_dst, ingress_router, in_if, egress_router, out_if,
                     link_start_router, link_start_if, link_end_router, link_end_if, ip_version, protocol,
                     vrf_name, application, infrastructure, exporter_name, icmp_type, icmp_code);

ALTER TABLE flows_1h{{LOCAL}} {{ON_CLUSTER}}
    MODIFY COLUMN icmp_type Int16 DEFAULT -1,
    MODIFY COLUMN icmp_code Int16 DEFAULT -1;

-- On a cluster the Distributed tables that queries read need the columns too; on a single server
-- these are the same tables and the statements change nothing.
ALTER TABLE flows_5m {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Int16 DEFAULT -1,
    ADD COLUMN IF NOT EXISTS icmp_code Int16 DEFAULT -1;

ALTER TABLE flows_1h {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS icmp_type Int16 DEFAULT -1,
    ADD COLUMN IF NOT EXISTS icmp_code Int16 DEFAULT -1;

-- The views carry them. A view is only a trigger on inserts, so replacing it keeps every row of
-- flows_5m and flows_1h. flows_5m_mv is 0007's (the top-200 fold read through the Distributed
-- tracked_as, counted records only, dropped packets left out) with the two columns more; a type or
-- code of another protocol than ICMP or ICMPv6 (an exporter's stray element) is not kept.
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
    if(protocol IN (1, 58) AND icmp_type IS NOT NULL, toInt16(assumeNotNull(icmp_type)), toInt16(-1)) AS icmp_type,
    if(protocol IN (1, 58) AND icmp_code IS NOT NULL, toInt16(assumeNotNull(icmp_code)), toInt16(-1)) AS icmp_code,
    sum(bytes * sampling_rate) AS bytes,
    sum(packets * sampling_rate) AS packets,
    toUInt64(count()) AS flows
FROM flows_raw{{LOCAL}}
WHERE counted = 1 AND bitShiftRight(forwarding_status, 6) != 2
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol, icmp_type, icmp_code;

DROP VIEW IF EXISTS flows_1h_mv{{LOCAL}} {{ON_CLUSTER}};

CREATE MATERIALIZED VIEW IF NOT EXISTS flows_1h_mv{{LOCAL}} {{ON_CLUSTER}} TO flows_1h{{LOCAL}} AS
SELECT
    toStartOfHour(time) AS time,
    ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
    egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
    vrf_name, protocol, icmp_type, icmp_code,
    sum(bytes) AS bytes, sum(packets) AS packets, sum(flows) AS flows
FROM flows_5m{{LOCAL}}
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol, icmp_type, icmp_code;
