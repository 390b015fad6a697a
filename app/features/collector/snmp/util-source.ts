/**
 * Where the bytes of an interface_util_5m row come from (ClickHouse migration 0005), and the one
 * rule readers use to pick a row per (router, interface, time) when several sources wrote it:
 * SNMP (measured on the device) first, then flows, then the demo's generated counters.
 */
export const UTIL_SOURCES = ["snmp", "flows", "demo"] as const;
export type UtilSource = (typeof UTIL_SOURCES)[number];

/** Higher wins: `argMax(column, UTIL_SOURCE_RANK_SQL)` over the rows of one interval. */
export const UTIL_SOURCE_RANK_SQL = "multiIf(source = 'snmp', 3, source = 'flows', 2, 1)";
