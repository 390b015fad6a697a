import { describe, expect, it } from "vitest";
import { leftOutTotals, sankey, scanTotal, timeseries, topTable } from "~/features/flows/sql";

const RANGE = { start: 1_794_913_800, end: 1_795_000_200 };
const OP = 64500;

describe("flows SQL builder (golden)", () => {
  it("topTable of one AS ingress dimension", () => {
    expect(topTable(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OP, limit: 10 })).toEqual({
      name: "flows.topTable",
      sql: [
        "SELECT",
        "  as_src AS AS_SRC_INGRESS,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "GROUP BY AS_SRC_INGRESS",
        "ORDER BY bps DESC, AS_SRC_INGRESS ASC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, operatorAsn: 64500, seconds: 86_400, limit: 10 },
    });
  });

  it("topTable of two undirected dimensions with egress-negated, positive and negated string filters and IPv4", () => {
    const q = topTable(["ROUTER_IN", "INTERFACE_OUT"], {
      range: RANGE,
      operatorAsn: OP,
      ipVersion: 4,
      filters: [
        { dimension: "VRF_NAME", value: "default", isNegation: false },
        { dimension: "AS_SRC_EGRESS", value: "15169", isNegation: true },
        { dimension: "VRF_NAME", value: "x", isNegation: true },
      ],
    });
    expect(q).toEqual({
      name: "flows.topTable",
      sql: [
        "SELECT",
        "  ingress_router AS ROUTER_IN,",
        "  concat(egress_router, '|', out_if) AS INTERFACE_OUT,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND ip_version = {ipVersion:UInt8}",
        "  AND NOT ((as_hnd = {operatorAsn:Int64} AND as_nxt != {operatorAsn:Int64}) AND as_src IN {f0_out:Array(Int64)})",
        "  AND vrf_name IN {f1_in:Array(String)}",
        "  AND vrf_name NOT IN {f1_out:Array(String)}",
        "GROUP BY ROUTER_IN, INTERFACE_OUT",
        "ORDER BY bps DESC, ROUTER_IN ASC, INTERFACE_OUT ASC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
      params: {
        start: 1_794_913_800,
        end: 1_795_000_200,
        ipVersion: 4,
        f0_out: [15169],
        f1_in: ["default"],
        f1_out: ["x"],
        operatorAsn: 64500,
        seconds: 86_400,
        limit: 200,
      },
    });
  });

  it("timeseries of a string dimension folds the rest into 'Others'", () => {
    const q = timeseries("AS_APPLICATION", { range: RANGE, operatorAsn: OP, window: 300, topN: 5 });
    const where = "time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')";
    expect(q).toEqual({
      name: "flows.timeseries",
      sql: [
        "SELECT",
        "  toStartOfInterval(time, toIntervalSecond({window:UInt32})) AS bucket,",
        `  if(application IN (SELECT k FROM (SELECT application AS k, sum(bytes) AS b FROM flows_5m WHERE ${where} GROUP BY k ORDER BY b DESC, k ASC LIMIT {topN:UInt32})), application, {others:String}) AS value,`,
        "  toFloat64(sum(bytes)) * 8 / {window:UInt32} AS bps",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "GROUP BY bucket, value",
        "ORDER BY bucket ASC, bps DESC, value ASC",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, window: 300, topN: 5, others: "Others" },
    });
  });

  it("timeseries with an hourly window reads flows_1h and folds AS dims into -101", () => {
    const q = timeseries("AS_DST_EGRESS", { range: RANGE, operatorAsn: OP, window: 3600, topN: 10 });
    expect(q.sql).toContain("FROM flows_1h");
    expect(q.sql).not.toContain("flows_5m");
    expect(q.sql).toContain("{others:Int64}");
    expect(q.params.others).toBe(-101);
  });

  it("sankey of AS_HND_INGRESS → AS_DST_INGRESS", () => {
    const q = sankey(["AS_HND_INGRESS", "AS_DST_INGRESS"], { range: RANGE, operatorAsn: OP, topN: 3 });
    const where = "time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC') AND as_hnd != {operatorAsn:Int64}";
    const folded = (col: string, others: string) =>
      `toString(if(${col} IN (SELECT k FROM (SELECT ${col} AS k, sum(bytes) AS b FROM flows_5m WHERE ${where} GROUP BY k ORDER BY b DESC, k ASC LIMIT {topN:UInt32})), ${col}, {${others}:Int64}))`;
    expect(q).toEqual({
      name: "flows.sankey",
      sql: [
        "SELECT step, source, target, bps",
        "FROM (",
        `  SELECT toUInt8(0) AS step, ${folded("as_hnd", "others0")} AS source, ${folded("as_dst", "others1")} AS target,`,
        "    toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps",
        "  FROM flows_5m",
        "  WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "  GROUP BY source, target",
        ")",
        "ORDER BY step ASC, bps DESC, source ASC, target ASC",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, operatorAsn: 64500, seconds: 86_400, topN: 3, others0: -101, others1: -101 },
    });
  });

  // IANA_PROTOCOL's views split ICMP and IPv6-ICMP by type (dimensions.ts shownKey); its filters stay on the number.
  const PROTOCOL_ROW = "if(protocol IN (1, 58), concat(toString(protocol), '/', toString(icmp_type)), toString(protocol))";

  it("topTable of IANA_PROTOCOL groups ICMP by type and filters on the protocol number", () => {
    const q = topTable(["IANA_PROTOCOL"], {
      range: RANGE,
      operatorAsn: OP,
      limit: 50,
      filters: [
        { dimension: "IANA_PROTOCOL", value: "1", isNegation: false },
        { dimension: "IANA_PROTOCOL", value: "58", isNegation: false },
        { dimension: "IANA_PROTOCOL", value: "6", isNegation: true },
      ],
    });
    expect(q).toEqual({
      name: "flows.topTable",
      sql: [
        "SELECT",
        `  ${PROTOCOL_ROW} AS IANA_PROTOCOL,`,
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND toInt64(protocol) IN {f0_in:Array(Int64)}",
        "  AND toInt64(protocol) NOT IN {f0_out:Array(Int64)}",
        "GROUP BY IANA_PROTOCOL",
        "ORDER BY bps DESC, IANA_PROTOCOL ASC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, f0_in: [1, 58], f0_out: [6], seconds: 86_400, limit: 50 },
    });
  });

  it("timeseries of IANA_PROTOCOL folds the rest of its ICMP-refined rows into '-101' as text", () => {
    const q = timeseries("IANA_PROTOCOL", { range: RANGE, operatorAsn: OP, window: 300, topN: 5 });
    const where = "time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')";
    expect(q).toEqual({
      name: "flows.timeseries",
      sql: [
        "SELECT",
        "  toStartOfInterval(time, toIntervalSecond({window:UInt32})) AS bucket,",
        `  if(${PROTOCOL_ROW} IN (SELECT k FROM (SELECT ${PROTOCOL_ROW} AS k, sum(bytes) AS b FROM flows_5m WHERE ${where} GROUP BY k ORDER BY b DESC, k ASC LIMIT {topN:UInt32})), ${PROTOCOL_ROW}, {others:String}) AS value,`,
        "  toFloat64(sum(bytes)) * 8 / {window:UInt32} AS bps",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "GROUP BY bucket, value",
        "ORDER BY bucket ASC, bps DESC, value ASC",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, window: 300, topN: 5, others: "-101" },
    });
  });

  it("a sankey with IANA_PROTOCOL folds its refined rows; the other dimension keeps its own key", () => {
    const q = sankey(["ROUTER_IN", "IANA_PROTOCOL"], { range: RANGE, operatorAsn: OP, topN: 4 });
    expect(q.sql).toContain(`toString(if(${PROTOCOL_ROW} IN (SELECT k FROM (SELECT ${PROTOCOL_ROW} AS k,`);
    expect(q.sql).toContain(`, ${PROTOCOL_ROW}, {others1:String})) AS target`);
    expect(q.sql).toContain("toString(if(ingress_router IN (SELECT k FROM (SELECT ingress_router AS k,");
    expect(q.params).toMatchObject({ others0: "Others", others1: "-101", topN: 4 });
  });

  it("sankey with three dimensions has two UNION ALL steps", () => {
    const q = sankey(["ROUTER_IN", "AS_APPLICATION", "ROUTER_OUT"], { range: RANGE, operatorAsn: OP });
    expect(q.sql.match(/UNION ALL/g)).toHaveLength(1);
    expect(q.sql).toContain("toUInt8(1) AS step");
    expect(q.params).not.toHaveProperty("operatorAsn");
    expect(q.params).toMatchObject({ others0: "Others", others1: "Others", others2: "Others", topN: 10 });
  });

  it("binds values as parameters, never into the SQL", () => {
    const evil = "x'); DROP TABLE flows_5m; --";
    const q = topTable(["ROUTER_IN"], {
      range: RANGE,
      operatorAsn: OP,
      filters: [{ dimension: "ROUTER_IN", value: evil, isNegation: false }],
    });
    expect(q.sql).not.toContain("DROP");
    expect(q.params.f0_in).toEqual([evil]);
    expect(q.sql).not.toContain("64500");
    expect(q.sql).not.toContain("1794913800");
  });

  it("uses the range's default table when none is given", () => {
    const week = { start: RANGE.end - 7 * 86_400, end: RANGE.end };
    expect(topTable(["AS_SRC_INGRESS"], { range: week, operatorAsn: OP }).sql).toContain("FROM flows_1h");
    expect(topTable(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OP }).sql).toContain("FROM flows_5m");
  });

  it("scope EGRESS restricts a direction-free dimension to egress traffic", () => {
    const q = topTable(["ROUTER_OUT"], { range: RANGE, operatorAsn: OP, limit: 5, scope: "EGRESS" });
    expect(q.sql).toBe(
      [
        "SELECT",
        "  egress_router AS ROUTER_OUT,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND (as_hnd = {operatorAsn:Int64} AND as_nxt != {operatorAsn:Int64})",
        "GROUP BY ROUTER_OUT",
        "ORDER BY bps DESC, ROUTER_OUT ASC",
        "LIMIT {limit:UInt32}",
      ].join("\n"),
    );
    expect(q.params.operatorAsn).toBe(OP);
    expect(() => topTable(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OP, scope: "EGRESS" })).toThrow(/cannot be combined/);
  });

  it("scanTotal reads the same rows as the grouped query, without grouping", () => {
    const filters = [{ dimension: "ROUTER_IN" as const, value: "fra-er1", isNegation: false }];
    const scan = scanTotal(["AS_DST_INGRESS"], { range: RANGE, operatorAsn: OP, filters });
    const grouped = topTable(["AS_DST_INGRESS"], { range: RANGE, operatorAsn: OP, filters });
    expect(scan.sql).toBe(
      [
        "SELECT sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "  AND ingress_router IN {f0_in:Array(String)}",
      ].join("\n"),
    );
    expect(grouped.sql).toContain(scan.sql.split("\n").slice(2).join("\n"));
    expect(scan.params).toEqual({ start: RANGE.start, end: RANGE.end, operatorAsn: OP, f0_in: ["fra-er1"] });
  });

  it("leftOutTotals reads the view's rows without its direction: all of them minus those the view counts, by where they entered", () => {
    const filters = [
      { dimension: "ROUTER_IN" as const, value: "fra-er1", isNegation: false },
      { dimension: "AS_SRC_INGRESS" as const, value: "15169", isNegation: true },
    ];
    const q = leftOutTotals(["AS_DST_INGRESS"], { range: RANGE, operatorAsn: OP, filters, ipVersion: 6 });
    expect(q.name).toBe("flows.leftOut");
    expect(q.sql).toBe(
      [
        "SELECT",
        "  toString(sum(bytes)) AS all_bytes,",
        "  toString(sumIf(bytes, (as_hnd != {operatorAsn:Int64}))) AS counted_bytes,",
        "  toString(sum(bytes) - sumIf(bytes, (as_hnd != {operatorAsn:Int64}))) AS left_out_bytes,",
        "  toFloat64(sum(bytes) - sumIf(bytes, (as_hnd != {operatorAsn:Int64}))) * 8 / {seconds:UInt32} AS left_out_bps,",
        "  toFloat64(sumIf(bytes, NOT (as_hnd != {operatorAsn:Int64}) AND (as_hnd != {operatorAsn:Int64}))) * 8 / {seconds:UInt32} AS from_neighbours_bps,",
        "  toFloat64(sumIf(bytes, NOT (as_hnd != {operatorAsn:Int64}) AND NOT (as_hnd != {operatorAsn:Int64}))) * 8 / {seconds:UInt32} AS from_access_bps",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND ip_version = {ipVersion:UInt8}",
        // The filters keep their own direction rule; the view's direction is not in the WHERE.
        "  AND NOT (as_hnd != {operatorAsn:Int64} AND as_src IN {f0_out:Array(Int64)})",
        "  AND ingress_router IN {f1_in:Array(String)}",
      ].join("\n"),
    );
    expect(q.params).toEqual({
      start: RANGE.start,
      end: RANGE.end,
      ipVersion: 6,
      operatorAsn: OP,
      seconds: 86_400,
      f0_out: [15169],
      f1_in: ["fra-er1"],
    });
    // The scope of the AS Flows Egress screen is a direction too; an undirected view leaves nothing out.
    const scoped = leftOutTotals(["ROUTER_IN"], { range: RANGE, operatorAsn: OP, scope: "EGRESS" });
    expect(scoped.sql).toContain(
      "toString(sumIf(bytes, ((as_hnd = {operatorAsn:Int64} AND as_nxt != {operatorAsn:Int64})))) AS counted_bytes",
    );
    expect(scoped.sql.split("WHERE")[1]).not.toContain("as_hnd");
    expect(() => leftOutTotals(["ROUTER_IN"], { range: RANGE, operatorAsn: OP })).toThrow(/leaves no traffic out/);
  });

  it("rejects mixed directions, a one-dimension sankey and empty ranges", () => {
    expect(() => topTable(["AS_SRC_INGRESS", "AS_DST_EGRESS"], { range: RANGE, operatorAsn: OP })).toThrow(/ingress and egress/i);
    expect(() => sankey(["AS_SRC_INGRESS"], { range: RANGE, operatorAsn: OP })).toThrow(/two dimensions/);
    expect(() => topTable(["AS_SRC_INGRESS"], { range: { start: 10, end: 10 }, operatorAsn: OP })).toThrow();
    expect(() => topTable([], { range: RANGE, operatorAsn: OP })).toThrow();
  });
});
