import { describe, expect, it } from "vitest";
import {
  endpointDimension,
  indirectAsQuery,
  ingressRouterQuery,
  interfaceLoadQuery,
  linkPathQuery,
  NO_CUT,
  untrackedQuery,
} from "~/features/flows/analysis-sql";

const RANGE = { start: 1_794_913_800, end: 1_795_000_200 };
const OP = 64500;

describe("flow analysis SQL builders (golden)", () => {
  it("indirect AS traffic: per source and handover AS, the list as an outer WHERE (a user's negated filter stays inside)", () => {
    expect(
      indirectAsQuery([2906, 15169], {
        range: RANGE,
        operatorAsn: OP,
        filters: [{ dimension: "AS_DST_INGRESS", value: "3320", isNegation: true }],
      }),
    ).toEqual({
      name: "flows.indirectAs",
      sql: [
        "SELECT AS_SRC_INGRESS AS asn, AS_HND_INGRESS AS handover, bps",
        "FROM (",
        "SELECT",
        "  as_src AS AS_SRC_INGRESS,",
        "  as_hnd AS AS_HND_INGRESS,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "  AND NOT (as_hnd != {operatorAsn:Int64} AND as_dst IN {f0_out:Array(Int64)})",
        "GROUP BY AS_SRC_INGRESS, AS_HND_INGRESS",
        "ORDER BY bps DESC, AS_SRC_INGRESS ASC, AS_HND_INGRESS ASC",
        "LIMIT {limit:UInt32}",
        ")",
        "WHERE AS_SRC_INGRESS IN {asns:Array(Int64)}",
        "ORDER BY asn ASC, bps DESC, handover ASC",
      ].join("\n"),
      params: { start: RANGE.start, end: RANGE.end, f0_out: [3320], operatorAsn: OP, seconds: 86_400, limit: NO_CUT, asns: [2906, 15169] },
    });
    expect(() => indirectAsQuery([], { range: RANGE, operatorAsn: OP })).toThrow(/At least one AS/);
  });

  it("ingress router statistics of a directed dimension, IPv6", () => {
    expect(ingressRouterQuery("AS_DST_INGRESS", "fra-er1", { range: RANGE, operatorAsn: OP, ipVersion: 6 })).toEqual({
      name: "flows.ingressRouter",
      sql: [
        "SELECT toString(AS_DST_INGRESS) AS value, sumIf(bps, ROUTER_IN = {ingressRouter:String}) AS router_bps, sum(bps) AS network_bps",
        "FROM (",
        "SELECT",
        "  as_dst AS AS_DST_INGRESS,",
        "  ingress_router AS ROUTER_IN,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND ip_version = {ipVersion:UInt8}",
        "  AND as_hnd != {operatorAsn:Int64}",
        "GROUP BY AS_DST_INGRESS, ROUTER_IN",
        "ORDER BY bps DESC, AS_DST_INGRESS ASC, ROUTER_IN ASC",
        "LIMIT {limit:UInt32}",
        ")",
        "GROUP BY value",
        "ORDER BY router_bps DESC, network_bps DESC, value ASC",
      ].join("\n"),
      params: {
        start: RANGE.start,
        end: RANGE.end,
        ipVersion: 6,
        operatorAsn: OP,
        seconds: 86_400,
        limit: NO_CUT,
        ingressRouter: "fra-er1",
      },
    });
  });

  it("ingress router statistics by router, without a router: no router parameter, no direction", () => {
    const q = ingressRouterQuery("ROUTER_IN", null, { range: RANGE, operatorAsn: OP });
    expect(q.sql.split("\n")[0]).toBe("SELECT toString(ROUTER_IN) AS value, sum(bps) AS router_bps, sum(bps) AS network_bps");
    expect(q.sql).toContain("GROUP BY ROUTER_IN\n");
    expect(q.sql).not.toContain("operatorAsn");
    expect(q.params).toEqual({ start: RANGE.start, end: RANGE.end, seconds: 86_400, limit: NO_CUT });
  });

  it("link path from a source AS to an egress router on the hourly table", () => {
    expect(endpointDimension("origin", { kind: "ROUTER", router: "x" })).toBe("ROUTER_IN");
    expect(endpointDimension("destination", { kind: "AS", asn: 1 })).toBe("AS_DST_INGRESS");
    expect(
      linkPathQuery({ kind: "AS", asn: 2906 }, { kind: "ROUTER", router: "ber-er1" }, { range: RANGE, operatorAsn: OP, table: "flows_1h" }),
    ).toEqual({
      name: "flows.linkPath",
      sql: [
        "SELECT INTERFACE_IN AS in_if, INTERNAL_LINK_START AS link_start, INTERNAL_LINK_END AS link_end, INTERFACE_OUT AS out_if, sum(bps) AS path_bps",
        "FROM (",
        "SELECT",
        "  as_src AS AS_SRC_INGRESS,",
        "  egress_router AS ROUTER_OUT,",
        "  concat(ingress_router, '|', in_if) AS INTERFACE_IN,",
        "  concat(link_start_router, '|', link_start_if) AS INTERNAL_LINK_START,",
        "  concat(link_end_router, '|', link_end_if) AS INTERNAL_LINK_END,",
        "  concat(egress_router, '|', out_if) AS INTERFACE_OUT,",
        "  toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps,",
        "  sum(bytes) AS total_bytes",
        "FROM flows_1h",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "GROUP BY AS_SRC_INGRESS, ROUTER_OUT, INTERFACE_IN, INTERNAL_LINK_START, INTERNAL_LINK_END, INTERFACE_OUT",
        "ORDER BY bps DESC, AS_SRC_INGRESS ASC, ROUTER_OUT ASC, INTERFACE_IN ASC, INTERNAL_LINK_START ASC, INTERNAL_LINK_END ASC, INTERFACE_OUT ASC",
        "LIMIT {limit:UInt32}",
        ")",
        "WHERE AS_SRC_INGRESS = {origin:Int64} AND ROUTER_OUT = {destination:String}",
        "GROUP BY in_if, link_start, link_end, out_if",
        "ORDER BY path_bps DESC, in_if ASC, link_start ASC, link_end ASC, out_if ASC",
      ].join("\n"),
      params: { start: RANGE.start, end: RANGE.end, operatorAsn: OP, seconds: 86_400, limit: NO_CUT, origin: 2906, destination: "ber-er1" },
    });
  });

  it("interface load over the range", () => {
    expect(interfaceLoadQuery(["fra-er1|et-0/0/1"], RANGE)).toEqual({
      name: "flows.interfaceLoad",
      sql: [
        "SELECT key,",
        "  toFloat64(sum(interval_in)) * 8 / {seconds:UInt32} AS in_bps,",
        "  toFloat64(sum(interval_out)) * 8 / {seconds:UInt32} AS out_bps,",
        "  toFloat64(max(interval_capacity)) AS capacity_bps",
        "FROM (",
        "  SELECT concat(router, '|', interface) AS key, time,",
        "    argMax(in_bytes, multiIf(source = 'snmp', 3, source = 'flows', 2, 1)) AS interval_in,",
        "    argMax(out_bytes, multiIf(source = 'snmp', 3, source = 'flows', 2, 1)) AS interval_out,",
        "    argMax(capacity_bps, multiIf(source = 'snmp', 3, source = 'flows', 2, 1)) AS interval_capacity",
        "  FROM interface_util_5m FINAL",
        "  WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "    AND time < toDateTime({end:UInt32}, 'UTC')",
        "    AND concat(router, '|', interface) IN {keys:Array(String)}",
        "  GROUP BY key, time",
        ")",
        "GROUP BY key",
        "ORDER BY key ASC",
      ].join("\n"),
      params: { start: RANGE.start, end: RANGE.end, seconds: 86_400, keys: ["fra-er1|et-0/0/1"] },
    });
    expect(() => interfaceLoadQuery([], { start: 10, end: 10 })).toThrow(/non-empty/);
  });

  it("untracked shares per bucket over the unfolded timeseries", () => {
    expect(untrackedQuery("AS_SRC_INGRESS", { range: RANGE, operatorAsn: OP, window: 900 })).toEqual({
      name: "flows.untracked",
      sql: [
        "SELECT toUInt32(bucket) AS bucket, sum(bps) AS total_bps,",
        "  sumIf(bps, value = {untrackedAs:Int64}) AS untracked_bps,",
        "  sumIf(bps, value = {othersAs:Int64}) AS others_bps,",
        "  sumIf(bps, value = {notRoutableAs:Int64}) AS not_routable_bps",
        "FROM (",
        "SELECT",
        "  toStartOfInterval(time, toIntervalSecond({window:UInt32})) AS bucket,",
        "  if(as_src IN (SELECT k FROM (SELECT as_src AS k, sum(bytes) AS b FROM flows_5m WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC') AND as_hnd != {operatorAsn:Int64} GROUP BY k ORDER BY b DESC, k ASC LIMIT {topN:UInt32})), as_src, {others:Int64}) AS value,",
        "  toFloat64(sum(bytes)) * 8 / {window:UInt32} AS bps",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC')",
        "  AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND as_hnd != {operatorAsn:Int64}",
        "GROUP BY bucket, value",
        "ORDER BY bucket ASC, bps DESC, value ASC",
        ")",
        "GROUP BY bucket",
        "ORDER BY bucket ASC",
      ].join("\n"),
      params: {
        start: RANGE.start,
        end: RANGE.end,
        operatorAsn: OP,
        window: 900,
        topN: NO_CUT,
        others: -101,
        untrackedAs: -999,
        othersAs: -101,
        notRoutableAs: -1,
      },
    });
    expect(() => untrackedQuery("ROUTER_IN", { range: RANGE, operatorAsn: OP, window: 900 })).toThrow(/not an AS dimension/);
  });
});
