/**
 * The Raw Network Analyzer's pure parts: the SQL builders (golden text and parameters), the
 * aggregation prefixes' four messages, the raw-record filter kinds of 'Show in RNA', the keyset
 * cursor and the request schema's field names.
 */
import { describe, expect, it } from "vitest";
import { parseRawFilterValue, rawFilterConditions, type RawFilter, type RawFilterKind } from "~/features/filter/raw-filters";
import { columnsFor, DEFAULT_RNA_COLUMNS, RNA_COLUMN_IDS } from "~/features/rna/columns";
import { decodeCursor, encodeCursor, fitsType, querySignature } from "~/features/rna/cursor";
import { AGGREGATION_MESSAGES, validateAggregation } from "~/features/rna/query";
import { rnaBodySchema } from "~/features/rna/request-schema";
import { keyTypes, rnaGroupCount, rnaPage, rnaRecordTies, rnaSums, rnaTimeseries } from "~/features/rna/sql";

const RANGE = { start: 1_794_913_800, end: 1_794_917_400 };
const COUNTED = { conds: ["counted = 1"], params: {} };
const HASH =
  "cityHash64(exporter_address, sampling_rate, ip_version, src_addr, dst_addr, src_prefix_len, dst_prefix_len, protocol, src_port, dst_port, tcp_flags, bytes, packets, vrf_name, ingress_router, egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, as_src, as_hnd, as_nxt, as_dst, application, infrastructure, in_if_index, out_if_index, flow_protocol, next_hop, counted, ifNull(icmp_type, 256), ifNull(icmp_code, 256), forwarding_status, post_nat_src_addr, post_nat_dst_addr, post_nat_src_port, post_nat_dst_port, src_vlan, src_inner_vlan, dst_vlan, mpls_labels)";
const FOLD = (c: string) =>
  `IPv6CIDRToRange(${c}, if(${c} BETWEEN toIPv6('::ffff:0.0.0.0') AND toIPv6('::ffff:255.255.255.255'), {aggV4Bits:UInt8}, {aggV6Bits:UInt8})).1`;
const RANGE_WHERE = [
  "WHERE time_received >= toDateTime({start:UInt32}, 'UTC')",
  "  AND time_received < toDateTime({end:UInt32}, 'UTC')",
  "  AND counted = 1",
];

describe("RNA SQL (golden)", () => {
  it("a page of records after a cursor: newest first, the table's order and the row hash as tie-break", () => {
    const q = rnaPage(
      { range: RANGE, columns: ["time_received", "src_addr", "bytes"], aggregation: { v4: null, v6: null }, sort: null },
      COUNTED,
      {
        keyset: { values: ["1794914000", "r1", "et-0/0/1", "123"], skip: 1 },
        limit: 11,
      },
    );
    expect(q).toEqual({
      name: "rna.records",
      sql: [
        "SELECT *",
        "FROM (",
        "  SELECT",
        "    toUInt32(time_received) AS c_time_received,",
        "    toString(src_addr) AS c_src_addr,",
        "    bytes AS m_bytes,",
        "    packets AS m_packets,",
        "    bytes * sampling_rate AS m_bytes_scaled,",
        "    packets * sampling_rate AS m_packets_scaled,",
        "    toUInt64(1) AS m_flows,",
        "    bitShiftRight(forwarding_status, 6) = 2 AS dropped,",
        "    toString(toUInt32(time_received)) AS key_0,",
        "    toString(exporter_name) AS key_1,",
        "    toString(in_if) AS key_2,",
        `    toString(${HASH}) AS key_3,`,
        "    time_received AS o_0,",
        "    exporter_name AS o_1,",
        "    in_if AS o_2,",
        `    ${HASH} AS o_hash`,
        "  FROM flows_raw",
        "  WHERE time_received >= toDateTime({start:UInt32}, 'UTC')",
        "    AND time_received < toDateTime({end:UInt32}, 'UTC')",
        "    AND counted = 1",
        "    AND time_received <= toDateTime({k0:UInt32}, 'UTC')",
        `    AND tuple(time_received, exporter_name, in_if, ${HASH}) <= tuple(toDateTime({k0:UInt32}, 'UTC'), {k1:String}, {k2:String}, {k3:UInt64})`,
        // The sorting key alone picks the rows (read in its order, stopping early); the hash orders only those.
        "  ORDER BY time_received DESC, exporter_name DESC, in_if DESC",
        "  LIMIT {limit:UInt32}",
        ")",
        "ORDER BY o_0 DESC, o_1 DESC, o_2 DESC, o_hash DESC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
      params: { start: RANGE.start, end: RANGE.end, limit: 11, k0: "1794914000", k1: "r1", k2: "et-0/0/1", k3: "123" },
    });
  });

  it("a first page of groups: folded addresses, sums scaled per record, sorted by a dimension then the group", () => {
    const q = rnaPage(
      {
        range: RANGE,
        columns: ["src_addr", "protocol", "bytes_scaled"],
        aggregation: { v4: 24, v6: null },
        sort: { column: "protocol", direction: "asc" },
      },
      COUNTED,
      { keyset: null, limit: 101 },
    );
    expect(q).toEqual({
      name: "rna.groups",
      sql: [
        "SELECT",
        `  ${FOLD("src_addr")} AS g_src_addr,`,
        "  toString(g_src_addr) AS c_src_addr,",
        "  protocol AS g_protocol,",
        "  g_protocol AS c_protocol,",
        "  sum(bytes) AS m_bytes,",
        "  sum(packets) AS m_packets,",
        "  sum(bytes * sampling_rate) AS m_bytes_scaled,",
        "  sum(packets * sampling_rate) AS m_packets_scaled,",
        "  count() AS m_flows,",
        "  countIf(bitShiftRight(forwarding_status, 6) = 2) AS m_dropped_flows,",
        "  toString(g_protocol) AS key_0,",
        "  toString(g_src_addr) AS key_1",
        "FROM flows_raw",
        ...RANGE_WHERE,
        "GROUP BY g_src_addr, g_protocol",
        "ORDER BY g_protocol ASC, g_src_addr ASC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
      // IPv4 /24 is /120 of its IPv4-mapped form; IPv6 not aggregated keeps /128.
      params: { start: RANGE.start, end: RANGE.end, aggV4Bits: 120, aggV6Bits: 128, limit: 101 },
    });
  });

  it("groups sorted by a measure compare the cursor in HAVING", () => {
    const q = rnaPage({ range: RANGE, columns: ["dst_addr", "bps"], aggregation: { v4: 16, v6: 32 }, sort: null }, COUNTED, {
      keyset: { values: ["1000", "::ffff:10.0.0.0"], skip: 0 },
      limit: 5,
    });
    expect(q.sql).toContain("HAVING m_bytes_scaled <= {k0:UInt64} AND tuple(m_bytes_scaled, g_dst_addr) <= tuple({k0:UInt64}, {k1:IPv6})");
    expect(q.sql).toContain("ORDER BY m_bytes_scaled DESC, g_dst_addr DESC");
    expect(q.params).toMatchObject({ aggV4Bits: 112, aggV6Bits: 32, k0: "1000", k1: "::ffff:10.0.0.0" });
  });

  it("the records tied with a page's last one: a point on the sorting key, ordered by the hash", () => {
    const q = rnaRecordTies({ range: RANGE, columns: ["time_received"], aggregation: { v4: null, v6: null }, sort: null }, COUNTED, {
      keyset: null,
      prefix: ["1794914000", "r1", "et-0/0/1"],
      limit: 11,
    });
    expect(q.name).toBe("rna.recordTies");
    expect(q.sql).toContain(
      "  AND time_received = toDateTime({t0:UInt32}, 'UTC')\n  AND exporter_name = {t1:String}\n  AND in_if = {t2:String}\n" +
        `ORDER BY ${HASH} DESC\nLIMIT {limit:UInt32}`,
    );
    expect(q.params).toMatchObject({ t0: "1794914000", t1: "r1", t2: "et-0/0/1", limit: 11 });
  });

  it("sums of carried and dropped traffic, scaled", () => {
    expect(rnaSums({ range: RANGE }, COUNTED)).toEqual({
      name: "rna.sums",
      sql: [
        "SELECT",
        "  sumIf(bytes * sampling_rate, NOT bitShiftRight(forwarding_status, 6) = 2) AS total_bytes,",
        "  sumIf(packets * sampling_rate, NOT bitShiftRight(forwarding_status, 6) = 2) AS total_packets,",
        "  countIf(NOT bitShiftRight(forwarding_status, 6) = 2) AS total_flows,",
        "  sumIf(bytes * sampling_rate, bitShiftRight(forwarding_status, 6) = 2) AS dropped_bytes,",
        "  sumIf(packets * sampling_rate, bitShiftRight(forwarding_status, 6) = 2) AS dropped_packets,",
        "  countIf(bitShiftRight(forwarding_status, 6) = 2) AS dropped_flows",
        "FROM flows_raw",
        ...RANGE_WHERE,
      ].join("\n"),
      params: { start: RANGE.start, end: RANGE.end },
    });
  });

  it("the timeseries of folded destination prefixes, and the group count up to a cap", () => {
    const q = rnaTimeseries({ range: RANGE, aggregation: { v4: 24, v6: 48 } }, COUNTED, {
      column: "dst_addr",
      values: ["::ffff:10.0.0.0"],
      window: 300,
    });
    expect(q.sql).toBe(
      [
        "SELECT",
        "  toUInt32(toStartOfInterval(time_received, toIntervalSecond({window:UInt32}))) AS bucket,",
        `  toString(${FOLD("dst_addr")}) AS value,`,
        "  toFloat64(sum(bytes * sampling_rate)) * 8 / {window:UInt32} AS bps",
        "FROM flows_raw",
        ...RANGE_WHERE,
        "  AND NOT bitShiftRight(forwarding_status, 6) = 2",
        `  AND ${FOLD("dst_addr")} IN {values:Array(IPv6)}`,
        "GROUP BY bucket, value",
        "ORDER BY bucket ASC, value ASC",
      ].join("\n"),
    );
    expect(q.params).toEqual({
      start: RANGE.start,
      end: RANGE.end,
      window: 300,
      values: ["::ffff:10.0.0.0"],
      aggV4Bits: 120,
      aggV6Bits: 48,
    });
    const count = rnaGroupCount(
      { range: RANGE, columns: ["protocol", "flows"], aggregation: { v4: 24, v6: null }, sort: null },
      COUNTED,
      10_001,
    );
    expect(count.sql).toContain("SELECT count() AS groups FROM (\n  SELECT protocol AS g_protocol");
    expect(count.params).toMatchObject({ cap: 10_001 });
    expect(() =>
      rnaTimeseries({ range: RANGE, aggregation: { v4: null, v6: null } }, COUNTED, { column: "bytes", values: [], window: 300 }),
    ).toThrow();
  });

  it("refuses an empty range", () => {
    expect(() => rnaSums({ range: { start: 10, end: 10 } }, COUNTED)).toThrow();
  });
});

describe("the aggregation prefixes", () => {
  it("take IPv4 /1–/32 and IPv6 /1–/128, as numbers or text, null for off", () => {
    expect(validateAggregation({ v4: 1, v6: 128 })).toEqual({ ok: true, aggregation: { v4: 1, v6: 128 } });
    expect(validateAggregation({ v4: "/24", v6: " 48 " })).toEqual({ ok: true, aggregation: { v4: 24, v6: 48 } });
    expect(validateAggregation({ v4: null, v6: "" })).toEqual({ ok: true, aggregation: { v4: null, v6: null } });
    expect(validateAggregation(undefined)).toEqual({ ok: true, aggregation: { v4: null, v6: null } });
  });

  it("refuse /0, /33, /129 and what is no length with the spec's four messages", () => {
    expect(AGGREGATION_MESSAGES).toEqual({
      v4Range: "Please type a prefix between /1 and /32 to aggregate the data",
      v6Range: "Please type a prefix between /1 and /128 to aggregate the data",
      v4Format: "Wrong IPv4 prefix format",
      v6Format: "Wrong IPv6 prefix format",
    });
    const errors = (input: object) => {
      const r = validateAggregation(input);
      return r.ok ? [] : r.errors;
    };
    expect(errors({ v4: 0 })).toEqual([{ field: "v4", message: AGGREGATION_MESSAGES.v4Range }]);
    expect(errors({ v4: 33 })).toEqual([{ field: "v4", message: AGGREGATION_MESSAGES.v4Range }]);
    expect(errors({ v4: "/-3" })).toEqual([{ field: "v4", message: AGGREGATION_MESSAGES.v4Range }]);
    expect(errors({ v6: 0, v4: "x" })).toEqual([
      { field: "v4", message: AGGREGATION_MESSAGES.v4Format },
      { field: "v6", message: AGGREGATION_MESSAGES.v6Range },
    ]);
    expect(errors({ v6: 129 })).toEqual([{ field: "v6", message: AGGREGATION_MESSAGES.v6Range }]);
    expect(errors({ v6: 1.5 })).toEqual([{ field: "v6", message: AGGREGATION_MESSAGES.v6Format }]);
    expect(errors({ v6: true })).toEqual([{ field: "v6", message: AGGREGATION_MESSAGES.v6Format }]);
  });
});

describe("the raw-record filter kinds", () => {
  const parse = (kind: RawFilterKind, value: string) => parseRawFilterValue(kind, value);
  it("read prefixes, AS numbers, exporters, negation and a VRF scope", () => {
    expect(parse("DST_PREFIX", "10.1.2.3/24")).toEqual({
      filter: { kind: "DST_PREFIX", value: "10.1.2.0/24", isNegation: false, vrf: null },
    });
    expect(parse("NEXT_HOP", "2001:DB8::1")).toEqual({
      filter: { kind: "NEXT_HOP", value: "2001:db8::1/128", isNegation: false, vrf: null },
    });
    expect(parse("AS_DST", "!AS64501@CUST_A")).toEqual({ filter: { kind: "AS_DST", value: "64501", isNegation: true, vrf: "CUST_A" } });
    expect(parse("EXPORTER", "fra-er1")).toEqual({ filter: { kind: "EXPORTER", value: "fra-er1", isNegation: false, vrf: null } });
    expect(parse("DST_PREFIX", "300.1.2.0/24")).toEqual({ error: "300.1.2.0/24 is not a valid Destination prefix input" });
    expect(parse("AS_SRC", "x")).toEqual({ error: "x is not a valid Source AS input" });
    expect(parse("PREFIX", "10.0.0.0/8@")).toHaveProperty("error");
  });

  it("become conditions: alternatives within a kind, every negation excluded, kinds ANDed", () => {
    const filters = ["10.0.0.0/8", "2001:db8::/32", "!10.9.0.0/16"].map((v) => (parse("SRC_PREFIX", v) as { filter: RawFilter }).filter);
    filters.push((parse("AS_NXT", "3356") as { filter: RawFilter }).filter);
    expect(rawFilterConditions(filters)).toEqual({
      conds: [
        "((src_addr BETWEEN {rfn0_0:IPv6} AND {rfn0_1:IPv6}) OR (src_addr BETWEEN {rfn1_0:IPv6} AND {rfn1_1:IPv6}))",
        "NOT (src_addr BETWEEN {rfn2_0:IPv6} AND {rfn2_1:IPv6})",
        "(as_nxt IN {rfn3_0:Array(Int64)})",
      ],
      params: {
        rfn0_0: "::ffff:10.0.0.0",
        rfn0_1: "::ffff:10.255.255.255",
        rfn1_0: "2001:db8::",
        rfn1_1: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
        rfn2_0: "::ffff:10.9.0.0",
        rfn2_1: "::ffff:10.9.255.255",
        rfn3_0: [3356],
      },
    });
  });
});

describe("the VRF scope of the raw-record filters ('Show in RNA' for a route of a VRF's table)", () => {
  const parse = (kind: RawFilterKind, value: string) => (parseRawFilterValue(kind, value) as { filter: RawFilter }).filter;
  it("ANDs the VRF (a bound parameter) with the value; a negation excludes only that VRF's matches; the exporter is not scoped", () => {
    const filters = [parse("DST_PREFIX", "10.1.2.0/24@CUST_A"), parse("AS_DST", "!64511@CUST_A"), parse("EXPORTER", "fra-er1")];
    expect(rawFilterConditions(filters)).toEqual({
      conds: [
        "((dst_addr BETWEEN {rfn0_0:IPv6} AND {rfn0_1:IPv6}) AND vrf_name = {rfv1:String})",
        "NOT ((as_dst IN {rfn2_0:Array(Int64)}) AND vrf_name = {rfv3:String})",
        "(exporter_name = {rfv4:String})",
      ],
      params: {
        rfn0_0: "::ffff:10.1.2.0",
        rfn0_1: "::ffff:10.1.2.255",
        rfv1: "CUST_A",
        rfn2_0: [64511],
        rfv3: "CUST_A",
        rfv4: "fra-er1",
      },
    });
  });

  it("reads a VRF name without spaces or '@' only", () => {
    expect(parse("NEXT_HOP", "192.0.2.1@VRF-2.blue")).toEqual({
      kind: "NEXT_HOP",
      value: "192.0.2.1/32",
      isNegation: false,
      vrf: "VRF-2.blue",
    });
    expect(parseRawFilterValue("NEXT_HOP", "192.0.2.1@a b")).toHaveProperty("error");
    expect(parseRawFilterValue("NEXT_HOP", `192.0.2.1@${"x".repeat(101)}`)).toHaveProperty("error");
  });
});

describe("the keyset cursor", () => {
  const query = { columns: DEFAULT_RNA_COLUMNS, aggregation: { v4: null, v6: null }, sort: null } as const;
  const types = keyTypes({ ...query, columns: [...query.columns] });
  const signature = querySignature({ ...query, columns: [...query.columns] });
  it("comes back as it was written, and only for its own query", () => {
    const cursor = { signature, values: ["1794914000", "r1", "", "18446744073709551615"], skip: 2, position: 100 };
    expect(types).toEqual(["UInt32", "String", "String", "UInt64"]);
    expect(decodeCursor(encodeCursor(cursor), signature, types)).toEqual(cursor);
    expect(decodeCursor(encodeCursor(cursor), querySignature({ ...query, columns: ["src_addr"] }), types)).toBe("invalid");
    expect(decodeCursor(encodeCursor({ ...cursor, values: ["x", "r1", "", "1"] }), signature, types)).toBe("invalid");
    expect(decodeCursor(encodeCursor({ ...cursor, values: ["1", "r1", "", "18446744073709551616"] }), signature, types)).toBe("invalid");
    expect(decodeCursor("%%%", signature, types)).toBe("invalid");
    expect(decodeCursor(Buffer.from("[1,2]").toString("base64url"), signature, types)).toBe("invalid");
  });
  it("checks each value against its type", () => {
    expect(fitsType("-32768", "Int16")).toBe(true);
    expect(fitsType("256", "UInt8")).toBe(false);
    expect(fitsType("::ffff:10.0.0.1", "IPv6")).toBe(true);
    expect(fitsType("10.0.0", "IPv6")).toBe(false);
    expect(fitsType("[1,2]", "Array(UInt32)")).toBe(true);
    expect(fitsType("[1,-2]", "Array(UInt32)")).toBe(false);
  });
});

describe("the columns and the request", () => {
  it("keep application, infrastructure and tags for those allowed", () => {
    const ids = (permissions: string[], featureFlags: string[]) => columnsFor({ permissions, featureFlags }).map((c) => c.id);
    expect(ids([], [])).not.toContain("application");
    expect(ids([], [])).not.toContain("tags");
    expect(ids(["RNA_APPLICATIONS_AND_INFRASTRUCTURE"], ["rnaTagColumn"])).toEqual([...RNA_COLUMN_IDS]);
  });
  it("names the field of a bad body", () => {
    const fields = (body: object) => {
      const r = rnaBodySchema.safeParse(body);
      return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    };
    const ok = { startTimestamp: 1, endTimestamp: 2, enabledColumns: ["src_addr"] };
    expect(fields(ok)).toEqual([]);
    expect(fields({ ...ok, enabledColumns: [] })).toEqual(["enabledColumns"]);
    expect(fields({ ...ok, aggregationPrefixes: { v4: 33 } })).toEqual(["aggregationPrefixes.v4"]);
    expect(fields({ ...ok, filters: ["NOPE:1"] })).toEqual(["filters.0"]);
    expect(fields({ ...ok, pageSize: 1001 })).toEqual(["pageSize"]);
  });
});
