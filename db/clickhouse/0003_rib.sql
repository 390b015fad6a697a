-- Routing history per vantage point: every announcement and withdrawal as received
-- (MRT/BMP import or the demo), the Control Plane row of the spec.
CREATE TABLE IF NOT EXISTS rib_entries{{LOCAL}} {{ON_CLUSTER}}
(
    timestamp            DateTime('UTC'),
    vantage_point        LowCardinality(String),
    router_ip            String,
    peer_ip              String,
    peer_asn             UInt32,
    route_distinguisher  LowCardinality(String),
    prefix               String,
    prefix_addr          IPv6,
    prefix_len           UInt8,
    afi                  UInt8,
    safi                 UInt8,
    is_withdrawn         UInt8,
    as_path              Array(UInt32),
    as_path_set          Array(UInt32),
    as_confed_seq        Array(UInt32),
    local_pref           UInt32,
    med                  UInt32,
    bgp_next_hop         String,
    origin               Enum8('IGP' = 0, 'EGP' = 1, 'INCOMPLETE' = 2),
    aggregator           String,
    originator_id        String,
    communities          Array(String),
    expire_at            DateTime('UTC')
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (vantage_point, prefix_addr, prefix_len, timestamp);

-- Current routing table per vantage point: the newest row per route wins; withdrawn routes stay
-- as tombstones (is_withdrawn = 1) and are filtered out by queries.
CREATE TABLE IF NOT EXISTS rib_current{{LOCAL}} {{ON_CLUSTER}}
(
    timestamp            DateTime('UTC'),
    vantage_point        LowCardinality(String),
    router_ip            String,
    peer_ip              String,
    peer_asn             UInt32,
    route_distinguisher  LowCardinality(String),
    prefix               String,
    prefix_addr          IPv6,
    prefix_len           UInt8,
    afi                  UInt8,
    safi                 UInt8,
    is_withdrawn         UInt8,
    as_path              Array(UInt32),
    as_path_set          Array(UInt32),
    as_confed_seq        Array(UInt32),
    local_pref           UInt32,
    med                  UInt32,
    bgp_next_hop         String,
    origin               Enum8('IGP' = 0, 'EGP' = 1, 'INCOMPLETE' = 2),
    aggregator           String,
    originator_id        String,
    communities          Array(String)
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(timestamp)
ORDER BY (vantage_point, route_distinguisher, prefix_addr, prefix_len, peer_ip);

CREATE MATERIALIZED VIEW IF NOT EXISTS rib_current_mv{{LOCAL}} {{ON_CLUSTER}} TO rib_current{{LOCAL}} AS
SELECT timestamp, vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
       afi, safi, is_withdrawn, as_path, as_path_set, as_confed_seq, local_pref, med, bgp_next_hop, origin,
       aggregator, originator_id, communities
FROM rib_entries{{LOCAL}};

-- @distributed rib_entries cityHash64(vantage_point)
-- @distributed rib_current cityHash64(vantage_point)
