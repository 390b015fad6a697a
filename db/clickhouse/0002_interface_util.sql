-- Per interface and 5 minutes: bytes in and out over the interval, and the capacity at that time.
-- One row per key per poll; ReplacingMergeTree keeps the newest if a poll is written twice.
CREATE TABLE IF NOT EXISTS interface_util_5m{{LOCAL}} {{ON_CLUSTER}}
(
    time           DateTime('UTC') CODEC(DoubleDelta, ZSTD(1)),
    router         LowCardinality(String),
    interface      LowCardinality(String),
    kind           LowCardinality(String),
    neighbor_asn   Int64,
    in_bytes       UInt64,
    out_bytes      UInt64,
    capacity_bps   UInt64,
    written_at     DateTime('UTC') DEFAULT now()
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(written_at)
PARTITION BY toYYYYMM(time)
ORDER BY (router, interface, time)
TTL time + INTERVAL {{AGG_1H_TTL_DAYS}} DAY DELETE;

-- @distributed interface_util_5m cityHash64(router, interface)
