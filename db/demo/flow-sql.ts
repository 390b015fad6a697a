/**
 * The SQL that turns the generator table (demo_paths) into raw flow records for one time window.
 * The traffic rate of a path follows a daily cycle (residential evening peak or business hours,
 * in Central European time), a weekly cycle, a linear growth over the period and a small
 * deterministic noise; records of one path and bucket split its bytes. A path with a cap (the
 * peer-overflow event's full link) carries its demand up to the cap, its overflow twin the rest
 * (both draw the same noise: `noise_id`), and no record when there is no rest.
 */
/** Path x 5-minute bucket x record rows with the bytes each record carries (before sampling). */
const PATH_RECORDS = `
    SELECT
        b.bucket AS bucket, p.*, rec,
        cityHash64(p.noise_id, b.bucket, rec) AS h,
        (toHour(b.bucket) + toMinute(b.bucket) / 60 + 1) % 24 AS local_hour,
        toDayOfWeek(b.bucket) >= 6 AS weekend,
        if(p.profile = 0,
           (0.56 + 0.33 * cos(2 * pi() * (local_hour - 21) / 24) + 0.11 * cos(4 * pi() * (local_hour - 21) / 24))
               * if(weekend, 1.08, 1.0),
           (0.22 + 0.78 * pow(greatest(0, sin(pi() * (local_hour - 7) / 12)), 1.5)) * if(weekend, 0.35, 1.0)
        ) AS cycle,
        1 + p.growth * (toUInt32(b.bucket) - {periodStart:UInt32}) / {periodLength:UInt32} AS trend,
        1 + 0.06 * ((cityHash64(p.noise_id, b.bucket) % 2001) / 1000 - 1) AS noise,
        least(p.records, {maxRecords:UInt8}) AS records_used,
        p.rate_bps * 300 / 8 * cycle * trend * noise / records_used / p.sampling_rate
            * (1 + 0.3 * (bitShiftRight(h, 32) % 2001 / 1000 - 1)) AS demand_bytes,
        demand_bytes * p.sampling_rate * if(b.bucket >= p.surge_from AND b.bucket < p.surge_to, p.surge, 1) AS wanted_bytes,
        p.cap_bps * 300 / 8 / records_used AS cap_bytes,
        if(p.cap_bps = 0, demand_bytes,
           if(p.overflow = 1, greatest(0, wanted_bytes - cap_bytes), least(wanted_bytes, cap_bytes)) / p.sampling_rate) AS record_bytes,
        toUInt64(greatest(1, round(record_bytes))) AS sampled_bytes,
        toUInt64(greatest(1, round(record_bytes / p.packet_size))) AS sampled_packets
    FROM (SELECT toDateTime({windowStart:UInt32}, 'UTC') + number * 300 AS bucket FROM numbers({buckets:UInt32})) AS b
    CROSS JOIN demo_paths AS p
    ARRAY JOIN range(least(p.records, {maxRecords:UInt8})) AS rec
    WHERE b.bucket >= p.valid_from AND b.bucket < p.valid_to AND (p.overflow = 0 OR record_bytes > 0)`;

/**
 * The traffic of the generator table (demo_paths) for one time window as raw flow records.
 * A path's rate follows a daily cycle (residential evening peak or business hours, Central
 * European time), a weekly cycle, a linear growth over the period and a small deterministic
 * noise; the records of one path and bucket split its bytes. The materialized views aggregate them.
 * ICMP has no ports: its type and code (the path's, -1 on other paths) go in their own columns.
 */
export const RAW_FLOWS_FROM_PATHS = `
INSERT INTO flows_raw
    (time_received, exporter_address, exporter_name, sampling_rate, ip_version, src_addr, dst_addr,
     src_prefix_len, dst_prefix_len, protocol, src_port, dst_port, tcp_flags, bytes, packets, vrf_name,
     ingress_router, in_if, egress_router, out_if, link_start_router, link_start_if, link_end_router,
     link_end_if, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, icmp_type, icmp_code)
SELECT
    bucket + toUInt32(h % 300) AS time_received,
    toIPv6(exporter_address), exporter_name, sampling_rate, ip_version,
    toIPv6(src_hosts[1 + (h % length(src_hosts))]),
    toIPv6(dst_hosts[1 + (bitShiftRight(h, 8) % length(dst_hosts))]),
    src_prefix_len, dst_prefix_len, protocol,
    src_ports[1 + (bitShiftRight(h, 16) % length(src_ports))],
    if(icmp_type >= 0, toUInt16(0), toUInt16(32768 + (bitShiftRight(h, 24) % 28232))),
    if(protocol = 6, 24, 0),
    sampled_bytes, sampled_packets,
    vrf_name, ingress_router, in_if, egress_router, out_if, link_start_router, link_start_if, link_end_router,
    link_end_if, as_src, as_hnd, as_nxt, as_dst, application, infrastructure,
    if(icmp_type >= 0, toUInt8(icmp_type), NULL), if(icmp_code >= 0, toUInt8(icmp_code), NULL)
FROM (${PATH_RECORDS})`;

/**
 * The top-200 rule as flows_5m_mv applies it (db/clickhouse/0001_flows.sql): ASes outside
 * tracked_as become Others (-101); special values (< 0) stay.
 */
export const foldUntrackedAs = (column: string) => `if(${column} < 0 OR ${column} IN (SELECT asn FROM tracked_as), ${column}, -101)`;

/**
 * The same traffic written straight into the 5-minute aggregates, as flows_5m_mv would from one
 * record per path and bucket: used for the days that keep no raw records (4x faster on chDB). The
 * paths' ICMP type and code are -1 except on ICMP paths, as the view writes them.
 */
export const AGGREGATES_FROM_PATHS = `
INSERT INTO flows_5m
    (time, ip_version, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, ingress_router, in_if,
     egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, exporter_name,
     vrf_name, protocol, icmp_type, icmp_code, bytes, packets, flows)
SELECT
    bucket, ip_version, ${foldUntrackedAs("as_src")}, ${foldUntrackedAs("as_hnd")}, ${foldUntrackedAs("as_nxt")},
    ${foldUntrackedAs("as_dst")}, application, infrastructure, ingress_router, in_if, egress_router, out_if,
    link_start_router, link_start_if, link_end_router, link_end_if, exporter_name, vrf_name, protocol,
    icmp_type, icmp_code, sampled_bytes * sampling_rate, sampled_packets * sampling_rate, toUInt64(1)
FROM (${PATH_RECORDS})`;

/**
 * Bytes in and out per router interface and 5 minutes, as the flows cross it. `source` is a table
 * or subquery with flows_5m's time, router, interface and bytes columns; `where` filters it.
 */
function interfaceTraffic(where: string, source = "flows_5m"): string {
  const and = (extra: string) => [where, extra].filter(Boolean).join(" AND ");
  const clause = (extra = "") => (and(extra) ? `WHERE ${and(extra)}` : "");
  return `
    SELECT time, router, interface, sum(in_b) AS in_bytes, sum(out_b) AS out_bytes
    FROM
    (
        SELECT time, ingress_router AS router, in_if AS interface, bytes AS in_b, 0 AS out_b FROM ${source} ${clause()}
        UNION ALL SELECT time, egress_router, out_if, 0, bytes FROM ${source} ${clause()}
        UNION ALL SELECT time, link_start_router, link_start_if, 0, bytes FROM ${source} ${clause("link_start_if != ''")}
        UNION ALL SELECT time, link_end_router, link_end_if, bytes, 0 FROM ${source} ${clause("link_end_if != ''")}
    )
    GROUP BY time, router, interface`;
}

/** Interface utilisation consistent with the flows: every interface, every 5 minutes. */
export const INTERFACE_UTIL_FROM_FLOWS = `
INSERT INTO interface_util_5m (time, router, interface, kind, neighbor_asn, in_bytes, out_bytes, capacity_bps, source)
SELECT g.time, g.router, g.interface, g.kind, g.neighbor_asn,
       toUInt64(ifNull(t.in_bytes, 0)), toUInt64(ifNull(t.out_bytes, 0)), g.capacity_bps, 'demo'
FROM
(
    SELECT toDateTime({start:UInt32}, 'UTC') + number * 300 AS time, i.router, i.interface, i.kind, i.neighbor_asn, i.capacity_bps
    FROM numbers({buckets:UInt32}) AS n CROSS JOIN demo_interfaces AS i
) AS g
LEFT JOIN (${interfaceTraffic("")}) AS t
ON g.time = t.time AND g.router = t.router AND g.interface = t.interface
SETTINGS join_use_nulls = 1`;

/**
 * Peak 5-minute rate per interface (either direction, bit/s) of one time window of the generator
 * table, computed before any flow is written: the bytes are those the flow tables will hold for
 * the window (sampled bytes x sampling rate, with the window's records per path), so the port
 * sizes, and with them the interface names, are known before the flows that name them.
 */
export const WINDOW_INTERFACE_PEAKS = `
SELECT router, interface, toFloat64(max(greatest(in_bytes, out_bytes))) * 8 / 300 AS peak_bps
FROM (${interfaceTraffic(
  "",
  `(SELECT bucket AS time, ingress_router, in_if, egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if,
           sampled_bytes * sampling_rate AS bytes FROM (${PATH_RECORDS}))`,
)})
GROUP BY router, interface`;
