-- Raw enriched flow records (RNA, enrichment output). Short TTL: the aggregates keep the history.
-- Bytes and packets are as sampled; multiply by sampling_rate for the real volume.
CREATE TABLE IF NOT EXISTS flows_raw{{LOCAL}} {{ON_CLUSTER}}
(
    time_received      DateTime('UTC') CODEC(DoubleDelta, ZSTD(1)),
    exporter_address   IPv6,
    exporter_name      LowCardinality(String),
    sampling_rate      UInt32,
    ip_version         UInt8,
    src_addr           IPv6,
    dst_addr           IPv6,
    src_prefix_len     UInt8,
    dst_prefix_len     UInt8,
    protocol           UInt8,
    src_port           UInt16,
    dst_port           UInt16,
    tcp_flags          UInt8,
    bytes              UInt64,
    packets            UInt64,
    vrf_name           LowCardinality(String),
    ingress_router     LowCardinality(String),
    in_if              LowCardinality(String),
    egress_router      LowCardinality(String),
    out_if             LowCardinality(String),
    link_start_router  LowCardinality(String),
    link_start_if      LowCardinality(String),
    link_end_router    LowCardinality(String),
    link_end_if        LowCardinality(String),
    as_src             Int64,
    as_hnd             Int64,
    as_nxt             Int64,
    as_dst             Int64,
    application        LowCardinality(String),
    infrastructure     LowCardinality(String)
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY toDate(time_received)
ORDER BY (time_received, exporter_name, in_if)
TTL time_received + INTERVAL {{RAW_TTL_DAYS}} DAY DELETE;

-- The ASes that keep their number in the aggregates (the top 200 by traffic, plus the operator's
-- own). Everything else folds into Others (-101) when the aggregates are written.
CREATE TABLE IF NOT EXISTS tracked_as{{LOCAL}} {{ON_CLUSTER}}
(
    asn         Int64,
    rank        UInt16,
    updated_at  DateTime('UTC')
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(updated_at)
ORDER BY asn;

-- 5-minute aggregates. Bytes and packets are scaled by the sampling rate.
CREATE TABLE IF NOT EXISTS flows_5m{{LOCAL}} {{ON_CLUSTER}}
(
    time               DateTime('UTC') CODEC(DoubleDelta, ZSTD(1)),
    ip_version         UInt8,
    as_src             Int64,
    as_hnd             Int64,
    as_nxt             Int64,
    as_dst             Int64,
    application        LowCardinality(String),
    infrastructure     LowCardinality(String),
    ingress_router     LowCardinality(String),
    in_if              LowCardinality(String),
    egress_router      LowCardinality(String),
    out_if             LowCardinality(String),
    link_start_router  LowCardinality(String),
    link_start_if      LowCardinality(String),
    link_end_router    LowCardinality(String),
    link_end_if        LowCardinality(String),
    exporter_name      LowCardinality(String),
    vrf_name           LowCardinality(String),
    protocol           UInt8,
    bytes              UInt64,
    packets            UInt64,
    flows              UInt64
)
ENGINE = {{REPLICATED}}SummingMergeTree((bytes, packets, flows))
PARTITION BY toYYYYMM(time)
ORDER BY (time, as_src, as_hnd, as_nxt, as_dst, ingress_router, in_if, egress_router, out_if,
          link_start_router, link_start_if, link_end_router, link_end_if, ip_version, protocol,
          vrf_name, application, infrastructure, exporter_name)
TTL time + INTERVAL {{AGG_5M_TTL_DAYS}} DAY DELETE;

CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv{{LOCAL}} {{ON_CLUSTER}} TO flows_5m{{LOCAL}} AS
SELECT
    toStartOfFiveMinutes(time_received) AS time,
    ip_version,
    if(as_src < 0 OR as_src IN (SELECT asn FROM tracked_as{{LOCAL}}), as_src, -101) AS as_src,
    if(as_hnd < 0 OR as_hnd IN (SELECT asn FROM tracked_as{{LOCAL}}), as_hnd, -101) AS as_hnd,
    if(as_nxt < 0 OR as_nxt IN (SELECT asn FROM tracked_as{{LOCAL}}), as_nxt, -101) AS as_nxt,
    if(as_dst < 0 OR as_dst IN (SELECT asn FROM tracked_as{{LOCAL}}), as_dst, -101) AS as_dst,
    application, infrastructure, ingress_router, in_if, egress_router, out_if,
    link_start_router, link_start_if, link_end_router, link_end_if, exporter_name, vrf_name, protocol,
    sum(bytes * sampling_rate) AS bytes,
    sum(packets * sampling_rate) AS packets,
    toUInt64(count()) AS flows
FROM flows_raw{{LOCAL}}
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol;

-- 1-hour aggregates, fed from the 5-minute ones (a cascade: inserts into flows_5m trigger it).
CREATE TABLE IF NOT EXISTS flows_1h{{LOCAL}} {{ON_CLUSTER}} AS flows_5m{{LOCAL}}
ENGINE = {{REPLICATED}}SummingMergeTree((bytes, packets, flows))
PARTITION BY toYYYYMM(time)
ORDER BY (time, as_src, as_hnd, as_nxt, as_dst, ingress_router, in_if, egress_router, out_if,
          link_start_router, link_start_if, link_end_router, link_end_if, ip_version, protocol,
          vrf_name, application, infrastructure, exporter_name)
TTL time + INTERVAL {{AGG_1H_TTL_DAYS}} DAY DELETE;

CREATE MATERIALIZED VIEW IF NOT EXISTS flows_1h_mv{{LOCAL}} {{ON_CLUSTER}} TO flows_1h{{LOCAL}} AS
SELECT
    toStartOfHour(time) AS time,
    ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
    egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
    vrf_name, protocol,
    sum(bytes) AS bytes, sum(packets) AS packets, sum(flows) AS flows
FROM flows_5m{{LOCAL}}
GROUP BY time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
         egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
         vrf_name, protocol;

-- @distributed flows_raw rand()
-- @distributed tracked_as asn
-- @distributed flows_5m rand()
-- @distributed flows_1h rand()
