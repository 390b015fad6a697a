/**
 * Pure SQL builders of the Raw Network Analyzer over flows_raw: named statements with bound
 * parameters, no I/O (docs/decisions/008-pure-sql-builders-with-golden-tests.md). Identifiers and
 * expressions come only from the catalogues below; every value is a `{name:Type}` parameter.
 *
 * Two modes:
 * - **records** (no prefix aggregation): one row per raw record. The keyset order is the sort
 *   column, then the table's own order (time_received, exporter_name, in_if), then a hash of every
 *   other column: the default order, newest first, reads the table in its sorting key's order, so
 *   a page reads a few granules past the cursor however deep it is. Records equal in every column
 *   are indistinguishable; the cursor counts how many of them the pages before already gave.
 * - **groups** (aggregation on): addresses folded to the prefix lengths (IPv4 /1–/32 as /97–/128
 *   of its IPv4-mapped form, IPv6 /1–/128; the family left off keeps whole addresses), rows grouped
 *   by every enabled dimension, bytes and packets summed after scaling each record by its own
 *   sampling rate. The group key is unique, so it is the tie-break.
 *
 * Counted traffic: sums leave out what the router dropped (forwarding status 10xxxxxx), as the
 * aggregates do (db/clickhouse/0007), and report it apart.
 */
import type { Statement } from "~/server/clickhouse/query.server";
import { rnaColumn, type RnaColumnId } from "./columns";
import { isAggregated, type RnaAggregation, type RnaSort } from "./query";

export type Where = { conds: readonly string[]; params: Record<string, unknown> };

/** A key of the order: the expression, the parameter type a cursor value is bound with, and how the value is bound. */
type KeyPart = { expr: string; type: string; bind?: (placeholder: string) => string };

/** The IPv4-mapped addresses, where IPv4 lives in the IPv6 columns: fixed bounds, not user values. */
const MAPPED_RANGE = "toIPv6('::ffff:0.0.0.0') AND toIPv6('::ffff:255.255.255.255')";

/** The physical columns hashed into the records' tie-break (all but the three of the table's order). */
const IDENTITY_COLUMNS = [
  "exporter_address",
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
  "ifNull(icmp_type, 256)",
  "ifNull(icmp_code, 256)",
  "forwarding_status",
  "post_nat_src_addr",
  "post_nat_dst_addr",
  "post_nat_src_port",
  "post_nat_dst_port",
  "src_vlan",
  "src_inner_vlan",
  "dst_vlan",
  "mpls_labels",
] as const;

const ROW_HASH = `cityHash64(${IDENTITY_COLUMNS.join(", ")})`;

const TIME_PART: KeyPart = { expr: "time_received", type: "UInt32", bind: (p) => `toDateTime(${p}, 'UTC')` };
const RECORD_TIE_BREAK: readonly KeyPart[] = [
  TIME_PART,
  { expr: "exporter_name", type: "String" },
  { expr: "in_if", type: "String" },
  { expr: ROW_HASH, type: "UInt64" },
];

export const DROPPED = "bitShiftRight(forwarding_status, 6) = 2";

/**
 * The values a dimension reads, each selected as `<alias>` (records) or grouped by (groups): the
 * column's own value first, then what its label needs (an interface's raw ifIndex, an ICMP code's
 * protocol, the sources of the tags).
 */
const DIMENSION_PARTS: Record<string, readonly { alias: string; expr: string; type: string }[]> = {
  time_received: [{ alias: "time_received", expr: "toUInt32(time_received)", type: "UInt32" }],
  exporter_name: [{ alias: "exporter_name", expr: "exporter_name", type: "String" }],
  exporter_address: [{ alias: "exporter_address", expr: "exporter_address", type: "IPv6" }],
  flow_protocol: [{ alias: "flow_protocol", expr: "flow_protocol", type: "String" }],
  ingress_router: [{ alias: "ingress_router", expr: "ingress_router", type: "String" }],
  in_if: [
    { alias: "in_if", expr: "in_if", type: "String" },
    { alias: "in_if_index", expr: "in_if_index", type: "UInt32" },
  ],
  egress_router: [{ alias: "egress_router", expr: "egress_router", type: "String" }],
  out_if: [
    { alias: "out_if", expr: "out_if", type: "String" },
    { alias: "out_if_index", expr: "out_if_index", type: "UInt32" },
  ],
  src_addr: [{ alias: "src_addr", expr: "src_addr", type: "IPv6" }],
  dst_addr: [{ alias: "dst_addr", expr: "dst_addr", type: "IPv6" }],
  src_port: [{ alias: "src_port", expr: "src_port", type: "UInt16" }],
  dst_port: [{ alias: "dst_port", expr: "dst_port", type: "UInt16" }],
  protocol: [{ alias: "protocol", expr: "protocol", type: "UInt8" }],
  tcp_flags: [
    { alias: "tcp_flags", expr: "tcp_flags", type: "UInt8" },
    { alias: "tcp_flags_protocol", expr: "protocol", type: "UInt8" },
  ],
  icmp_type: [
    { alias: "icmp_type", expr: "ifNull(toInt16(icmp_type), -1)", type: "Int16" },
    { alias: "icmp_code", expr: "ifNull(toInt16(icmp_code), -1)", type: "Int16" },
    { alias: "icmp_protocol", expr: "protocol", type: "UInt8" },
  ],
  forwarding_status: [{ alias: "forwarding_status", expr: "forwarding_status", type: "UInt8" }],
  next_hop: [{ alias: "next_hop", expr: "next_hop", type: "IPv6" }],
  vrf_name: [{ alias: "vrf_name", expr: "vrf_name", type: "String" }],
  sampling_rate: [{ alias: "sampling_rate", expr: "sampling_rate", type: "UInt32" }],
  as_src: [{ alias: "as_src", expr: "as_src", type: "Int64" }],
  as_hnd: [{ alias: "as_hnd", expr: "as_hnd", type: "Int64" }],
  as_nxt: [{ alias: "as_nxt", expr: "as_nxt", type: "Int64" }],
  as_dst: [{ alias: "as_dst", expr: "as_dst", type: "Int64" }],
  application: [{ alias: "application", expr: "application", type: "String" }],
  infrastructure: [{ alias: "infrastructure", expr: "infrastructure", type: "String" }],
  post_nat_src_addr: [{ alias: "post_nat_src_addr", expr: "post_nat_src_addr", type: "IPv6" }],
  post_nat_dst_addr: [{ alias: "post_nat_dst_addr", expr: "post_nat_dst_addr", type: "IPv6" }],
  post_nat_src_port: [{ alias: "post_nat_src_port", expr: "post_nat_src_port", type: "UInt16" }],
  post_nat_dst_port: [{ alias: "post_nat_dst_port", expr: "post_nat_dst_port", type: "UInt16" }],
  src_vlan: [{ alias: "src_vlan", expr: "src_vlan", type: "UInt16" }],
  src_inner_vlan: [{ alias: "src_inner_vlan", expr: "src_inner_vlan", type: "UInt16" }],
  dst_vlan: [{ alias: "dst_vlan", expr: "dst_vlan", type: "UInt16" }],
  mpls_labels: [{ alias: "mpls_labels", expr: "mpls_labels", type: "Array(UInt32)" }],
  counted: [{ alias: "counted", expr: "counted", type: "UInt8" }],
  tags: [
    { alias: "tags_as_src", expr: "as_src", type: "Int64" },
    { alias: "tags_as_hnd", expr: "as_hnd", type: "Int64" },
    { alias: "tags_as_nxt", expr: "as_nxt", type: "Int64" },
    { alias: "tags_as_dst", expr: "as_dst", type: "Int64" },
    { alias: "tags_ingress_router", expr: "ingress_router", type: "String" },
    { alias: "tags_in_if", expr: "in_if", type: "String" },
    { alias: "tags_egress_router", expr: "egress_router", type: "String" },
    { alias: "tags_out_if", expr: "out_if", type: "String" },
  ],
};

/** Address columns that prefix aggregation folds. */
const FOLDED = new Set(["src_addr", "dst_addr"]);

/** Measures: per record, and summed per group. Bytes and packets as UInt64, shown as JSON numbers. */
const MEASURES: Record<string, { record: string; group: string }> = {
  bytes: { record: "bytes", group: "sum(bytes)" },
  packets: { record: "packets", group: "sum(packets)" },
  bytes_scaled: { record: "bytes * sampling_rate", group: "sum(bytes * sampling_rate)" },
  packets_scaled: { record: "packets * sampling_rate", group: "sum(packets * sampling_rate)" },
  flows: { record: "toUInt64(1)", group: "count()" },
};
/** bit/s and share are derived from the scaled bytes (query.server.ts): their order is that of bytes_scaled. */
const DERIVED_FROM: Record<string, string> = { bps: "bytes_scaled", share: "bytes_scaled", flows: "flows" };

export type RnaSqlQuery = {
  range: { start: number; end: number };
  columns: readonly RnaColumnId[];
  aggregation: RnaAggregation;
  sort: RnaSort | null;
};

/** The cursor's content: the last row's key values (as text) and how many rows with exactly those keys the pages gave. */
export type Keyset = { values: readonly string[]; skip: number };

/** The WHERE of every statement: the range, then the caller's conditions (scope, filters, restriction). */
export function rnaWhere(range: { start: number; end: number }, extra: Where): Where {
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || range.end <= range.start)
    throw new Error("The time range must be non-empty whole seconds");
  return {
    conds: ["time_received >= toDateTime({start:UInt32}, 'UTC')", "time_received < toDateTime({end:UInt32}, 'UTC')", ...extra.conds],
    params: { ...extra.params, start: range.start, end: range.end },
  };
}

/** The folded address of an aggregated query: the first address of its prefix. */
function foldedAddress(column: string): string {
  return `IPv6CIDRToRange(${column}, if(${column} BETWEEN ${MAPPED_RANGE}, {aggV4Bits:UInt8}, {aggV6Bits:UInt8})).1`;
}

function aggregationParams(aggregation: RnaAggregation): Record<string, unknown> {
  return { aggV4Bits: 96 + (aggregation.v4 ?? 32), aggV6Bits: aggregation.v6 ?? 128 };
}

type Shape = {
  grouped: boolean;
  /** SELECT list entries (`expr AS alias`). */
  select: string[];
  /** GROUP BY aliases (groups only). */
  groupBy: string[];
  /** The order's keys, compared with the cursor. */
  keys: KeyPart[];
  direction: "ASC" | "DESC";
  params: Record<string, unknown>;
};

/** The dimensions of the columns (measures left out), in column order, with what they read. */
function dimensionsOf(columns: readonly RnaColumnId[]): RnaColumnId[] {
  return columns.filter((c) => rnaColumn(c).kind === "dimension");
}

function shapeOf(query: RnaSqlQuery): Shape {
  const grouped = isAggregated(query.aggregation);
  const direction = query.sort?.direction === "asc" ? "ASC" : "DESC";
  const select: string[] = [];
  const groupBy: string[] = [];
  const groupKeys: KeyPart[] = [];
  const params: Record<string, unknown> = grouped ? aggregationParams(query.aggregation) : {};
  const dims = dimensionsOf(query.columns);
  const seen = new Set<string>();
  for (const id of dims) {
    for (const part of DIMENSION_PARTS[id]) {
      if (seen.has(part.alias)) continue;
      seen.add(part.alias);
      const expr = grouped && FOLDED.has(id) ? foldedAddress(part.expr) : part.expr;
      const out = part.type === "IPv6" ? `toString(${grouped ? `g_${part.alias}` : part.expr})` : grouped ? `g_${part.alias}` : expr;
      if (grouped) {
        select.push(`${expr} AS g_${part.alias}`);
        groupBy.push(`g_${part.alias}`);
        groupKeys.push({ expr: `g_${part.alias}`, type: part.type });
      }
      select.push(`${out} AS c_${part.alias}`);
    }
  }
  // Every measure is read: the sums of a row and its share need them whichever are shown.
  for (const [id, m] of Object.entries(MEASURES)) select.push(`${grouped ? m.group : m.record} AS m_${id}`);
  if (!grouped) select.push(`${DROPPED} AS dropped`);
  else select.push(`countIf(${DROPPED}) AS m_dropped_flows`);

  const keys: KeyPart[] = [];
  const sortId = query.sort?.column ?? (grouped ? "bytes_scaled" : "time_received");
  const measure = rnaColumn(sortId).kind === "measure" ? (DERIVED_FROM[sortId] ?? sortId) : null;
  if (grouped) {
    if (measure) keys.push({ expr: `m_${measure}`, type: "UInt64" });
    else if (!query.columns.includes(sortId)) throw new Error(`The sort column ${sortId} is not enabled`);
    else {
      // A grouped dimension sorts first by its own keys, then by the rest of the group.
      const own = DIMENSION_PARTS[sortId].map((p) => `g_${p.alias}`);
      keys.push(...groupKeys.filter((k) => own.includes(k.expr)));
    }
    for (const k of groupKeys) if (!keys.some((x) => x.expr === k.expr)) keys.push(k);
  } else {
    if (measure) keys.push({ expr: MEASURES[measure].record, type: "UInt64" });
    else if (sortId !== "time_received") {
      for (const part of DIMENSION_PARTS[sortId]) keys.push({ expr: part.expr, type: part.type });
    }
    keys.push(...RECORD_TIE_BREAK);
  }
  return { grouped, select, groupBy, keys, direction, params };
}

/** How a key's value is selected for the cursor: as text, so 64-bit values (the row hash) keep every digit. */
function keyOutput(part: KeyPart): string {
  return part === TIME_PART ? "toString(toUInt32(time_received))" : `toString(${part.expr})`;
}

/** `(k0, k1 …) <= (c0, c1 …)` (descending; >= ascending), and the first key alone, which the primary index can use. */
function keysetCondition(shape: Shape, keyset: Keyset, params: Record<string, unknown>): string[] {
  if (keyset.values.length !== shape.keys.length) throw new Error("The cursor does not fit this query");
  const op = shape.direction === "DESC" ? "<=" : ">=";
  const bound = shape.keys.map((part, i) => {
    const name = `k${i}`;
    params[name] = keyset.values[i];
    const placeholder = `{${name}:${part.type}}`;
    return part.bind ? part.bind(placeholder) : placeholder;
  });
  const tuple = (items: readonly string[]) => (items.length === 1 ? items[0] : `tuple(${items.join(", ")})`);
  return [`${shape.keys[0].expr} ${op} ${bound[0]}`, `${tuple(shape.keys.map((k) => k.expr))} ${op} ${tuple(bound)}`];
}

/** The ClickHouse types of the key values a cursor of this query carries, in order. */
export function keyTypes(query: Omit<RnaSqlQuery, "range">): string[] {
  return shapeOf({ ...query, range: { start: 0, end: 1 } }).keys.map((k) => k.type);
}

/**
 * One page: the rows after the cursor in the query's order, `limit` of them (the caller asks for a
 * page and one more, plus the cursor's skip). Columns: c_<value> of the dimensions, m_<measure>,
 * `dropped` (records) or m_dropped_flows (groups), and key_0 … key_n, the order's values for the next cursor.
 */
export function rnaPage(
  query: RnaSqlQuery,
  where: Where,
  options: { keyset: Keyset | null; limit: number; countGroups?: boolean },
): Statement {
  const shape = shapeOf(query);
  const w = rnaWhere(query.range, where);
  const params: Record<string, unknown> = { ...w.params, ...shape.params, limit: options.limit };
  const keysetConds = options.keyset ? keysetCondition(shape, options.keyset, params) : [];
  const keyColumns = shape.keys.map((k, i) => `${keyOutput(k)} AS key_${i}`);
  const order = shape.keys.map((k) => `${k.expr} ${shape.direction}`).join(", ");
  // Groups: how many follow the cursor, counted over the groups HAVING kept (a window runs after
  // it, before ORDER BY and LIMIT) — the same read as the page's instead of a second aggregation.
  const counted = shape.grouped && options.countGroups ? ["count() OVER () AS groups_after"] : [];
  const sql = shape.grouped
    ? [
        "SELECT",
        `  ${[...shape.select, ...keyColumns, ...counted].join(",\n  ")}`,
        "FROM flows_raw",
        `WHERE ${w.conds.join("\n  AND ")}`,
        // Only measures enabled: one group of every record, and none without records.
        ...(shape.groupBy.length ? [`GROUP BY ${shape.groupBy.join(", ")}`] : []),
        ...(keysetConds.length || !shape.groupBy.length
          ? [`HAVING ${[...(shape.groupBy.length ? [] : ["count() > 0"]), ...keysetConds].join(" AND ")}`]
          : []),
        `ORDER BY ${order}`,
        "LIMIT {limit:UInt32}",
      ]
    : recordsPage(shape, w.conds, keysetConds, keyColumns);
  return { name: shape.grouped ? "rna.groups" : "rna.records", sql: sql.join("\n"), params };
}

/**
 * Records: the order without the row hash picks the rows, and only those are ordered by the hash.
 * Ordering every record of the range by a hash of its columns made ClickHouse compute it for all
 * of them, and `LIMIT … WITH TIES` stops reading in the sorting key's order from ending early (a
 * page cost 5–20× the scan of the range on 2 million records); ordered by the table's sorting key
 * alone, the default order reads a few granules from the cursor on. The records tied with the last
 * one in that order may be cut arbitrarily: the engine reads them all with rnaRecordTies.
 */
function recordsPage(shape: Shape, conds: readonly string[], keysetConds: readonly string[], keyColumns: readonly string[]): string[] {
  const hash = shape.keys.at(-1);
  if (hash?.expr !== ROW_HASH) throw new Error("A records order ends with the row hash");
  const picking = shape.keys.slice(0, -1).map((k) => `${k.expr} ${shape.direction}`);
  const ordered = [...shape.keys.slice(0, -1).map((_, i) => `o_${i} ${shape.direction}`), `o_hash ${shape.direction}`];
  return [
    "SELECT *",
    "FROM (",
    "  SELECT",
    `    ${[...shape.select, ...keyColumns, ...shape.keys.slice(0, -1).map((k, i) => `${k.expr} AS o_${i}`), `${ROW_HASH} AS o_hash`].join(",\n    ")}`,
    "  FROM flows_raw",
    `  WHERE ${[...conds, ...keysetConds].join("\n    AND ")}`,
    `  ORDER BY ${picking.join(", ")}`,
    "  LIMIT {limit:UInt32}",
    ")",
    `ORDER BY ${ordered.join(", ")}`,
    "LIMIT {limit:UInt32}",
  ];
}

/**
 * Records only: every record after the cursor whose order values but the hash equal `prefix` (the
 * last row of a page), ordered by the hash — what completes a page that rnaPage cut inside them.
 * A point on the sorting key for the default order. Columns as rnaPage.
 */
export function rnaRecordTies(
  query: RnaSqlQuery,
  where: Where,
  options: { keyset: Keyset | null; prefix: readonly string[]; limit: number },
): Statement {
  const shape = shapeOf(query);
  if (shape.grouped) throw new Error("Groups have no ties");
  const w = rnaWhere(query.range, where);
  const params: Record<string, unknown> = { ...w.params, ...shape.params, limit: options.limit };
  const keysetConds = options.keyset ? keysetCondition(shape, options.keyset, params) : [];
  const prefixKeys = shape.keys.slice(0, -1);
  if (options.prefix.length !== prefixKeys.length) throw new Error("The prefix does not fit this query");
  const equal = prefixKeys.map((k, i) => {
    const name = `t${i}`;
    params[name] = options.prefix[i];
    const placeholder = `{${name}:${k.type}}`;
    return `${k.expr} = ${k.bind ? k.bind(placeholder) : placeholder}`;
  });
  const keyColumns = shape.keys.map((k, i) => `${keyOutput(k)} AS key_${i}`);
  const sql = [
    "SELECT",
    `  ${[...shape.select, ...keyColumns].join(",\n  ")}`,
    "FROM flows_raw",
    `WHERE ${[...w.conds, ...keysetConds, ...equal].join("\n  AND ")}`,
    `ORDER BY ${ROW_HASH} ${shape.direction}`,
    "LIMIT {limit:UInt32}",
  ].join("\n");
  return { name: "rna.recordTies", sql, params };
}

/**
 * The sums of every row the query selects: scaled bytes and packets and the record count, of the
 * traffic the router carried and, apart, of what it dropped (the names differ from the columns':
 * an alias named like a column would replace it in the sums). Columns: total_bytes, total_packets,
 * total_flows, dropped_bytes, dropped_packets, dropped_flows.
 */
export function rnaSums(query: Pick<RnaSqlQuery, "range">, where: Where, options: { withDataRange?: boolean } = {}): Statement {
  const w = rnaWhere(query.range, where);
  const sql = [
    "SELECT",
    `  sumIf(bytes * sampling_rate, NOT ${DROPPED}) AS total_bytes,`,
    `  sumIf(packets * sampling_rate, NOT ${DROPPED}) AS total_packets,`,
    `  countIf(NOT ${DROPPED}) AS total_flows,`,
    `  sumIf(bytes * sampling_rate, ${DROPPED}) AS dropped_bytes,`,
    `  sumIf(packets * sampling_rate, ${DROPPED}) AS dropped_packets,`,
    `  countIf(${DROPPED}) AS dropped_flows`,
    // The data range in the same statement (scalar subqueries the table's min-max index answers
    // without reading rows): one query fewer per page, whose fixed cost is most of a small page's.
    ...(options.withDataRange ? [`  , (${DATA_RANGE_MIN}) AS minTimestamp`, `  , (${DATA_RANGE_MAX}) AS maxTimestamp`] : []),
    "FROM flows_raw",
    `WHERE ${w.conds.join("\n  AND ")}`,
  ].join("\n");
  return { name: options.withDataRange ? "rna.sumsAndDataRange" : "rna.sums", sql, params: w.params };
}

/** The number of groups, counted up to `cap` (a grouped query only). Column: groups. */
export function rnaGroupCount(query: RnaSqlQuery, where: Where, cap: number): Statement {
  const shape = shapeOf(query);
  if (!shape.grouped) throw new Error("Only an aggregated query has groups");
  const w = rnaWhere(query.range, where);
  const groups = shape.select.filter((s) => / AS g_/.test(s));
  if (!groups.length)
    return {
      name: "rna.groupCount",
      sql: ["SELECT toUInt64(count() > 0) AS groups", "FROM flows_raw", `WHERE ${w.conds.join("\n  AND ")}`].join("\n"),
      params: w.params,
    };
  const sql = [
    "SELECT count() AS groups FROM (",
    `  SELECT ${groups.join(", ")}`,
    "  FROM flows_raw",
    `  WHERE ${w.conds.join("\n    AND ")}`,
    `  GROUP BY ${shape.groupBy.join(", ")}`,
    "  LIMIT {cap:UInt32}",
    ")",
  ].join("\n");
  return { name: "rna.groupCount", sql, params: { ...w.params, ...shape.params, cap } };
}

/**
 * The sums of the first `top` groups in the query's order: what the Others row leaves out of the
 * totals. Columns: total_bytes, total_packets, total_flows (scaled, all records of those groups).
 */
export function rnaTopGroupSums(query: RnaSqlQuery, where: Where, top: number): Statement {
  const page = rnaPage(query, where, { keyset: null, limit: top });
  return {
    name: "rna.topGroupSums",
    sql: `SELECT sum(m_bytes_scaled) AS total_bytes, sum(m_packets_scaled) AS total_packets, sum(m_flows) AS total_flows FROM (\n${page.sql}\n)`,
    params: page.params,
  };
}

/**
 * bit/s per bucket of `window` seconds for each value of one dimension among `values`: the rows of
 * the query (its WHERE) whose dimension equals one of them — a folded address matches its prefix.
 * Carried traffic only, as the sums. `values` are bound as the dimension's type (addresses in their
 * IPv6 column form). Columns: bucket (unix seconds), value (the dimension's first value as text), bps.
 */
export function rnaTimeseries(
  query: Pick<RnaSqlQuery, "range" | "aggregation">,
  where: Where,
  options: { column: RnaColumnId; values: readonly (string | number)[]; window: number },
): Statement {
  const part = DIMENSION_PARTS[options.column]?.[0];
  if (!part || rnaColumn(options.column).kind !== "dimension" || options.column === "tags" || options.column === "time_received")
    throw new Error(`The timeseries cannot be grouped by ${options.column}`);
  const w = rnaWhere(query.range, where);
  const grouped = isAggregated(query.aggregation) && FOLDED.has(options.column);
  const key = grouped ? foldedAddress(part.expr) : part.expr;
  const params: Record<string, unknown> = { ...w.params, window: options.window, values: options.values };
  if (grouped) Object.assign(params, aggregationParams(query.aggregation));
  const sql = [
    "SELECT",
    "  toUInt32(toStartOfInterval(time_received, toIntervalSecond({window:UInt32}))) AS bucket,",
    `  toString(${key}) AS value,`,
    "  toFloat64(sum(bytes * sampling_rate)) * 8 / {window:UInt32} AS bps",
    "FROM flows_raw",
    `WHERE ${[...w.conds, `NOT ${DROPPED}`, `${key} IN {values:Array(${part.type})}`].join("\n  AND ")}`,
    "GROUP BY bucket, value",
    "ORDER BY bucket ASC, value ASC",
  ].join("\n");
  return { name: "rna.timeseries", sql, params };
}

/** The ClickHouse type of the value a timeseries compares for a dimension (its first stored value). */
export function timeseriesValueType(column: RnaColumnId): string {
  const part = DIMENSION_PARTS[column]?.[0];
  if (!part) throw new Error(`${column} is no dimension`);
  return part.type;
}

// The first and last record time of flows_raw (unix seconds; null when empty): the min-max index answers both.
const DATA_RANGE_MIN = "SELECT if(count() = 0, NULL, toUInt32(min(time_received))) FROM flows_raw";
const DATA_RANGE_MAX = "SELECT if(count() = 0, NULL, toUInt32(max(time_received))) FROM flows_raw";

/** The first and last record time of flows_raw (unix seconds; nulls when empty). Columns: minTimestamp, maxTimestamp. */
export function rnaDataRange(): Statement {
  return { name: "rna.dataRange", sql: `SELECT (${DATA_RANGE_MIN}) AS minTimestamp, (${DATA_RANGE_MAX}) AS maxTimestamp` };
}
