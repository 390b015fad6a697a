/**
 * Golden SQL of the flow 95th per AS (app/features/planners/interface-statistics-p95.ts): the text,
 * the bound parameters and k = floor(n / 20).
 */
import { describe, expect, it } from "vitest";
import { flowIntervalsQuery, flowP95Query, type FlowP95Input } from "~/features/planners/interface-statistics-p95";

const INPUT: FlowP95Input = {
  table: "flows_5m",
  router: "fra-er1",
  interfaces: ["et-0/0/1", "et-0/0/2"],
  direction: "in",
  column: "as_src",
  range: { start: 1_794_913_800, end: 1_795_000_200 },
};

describe("flow 95th per AS", () => {
  it("counts the intervals with any flow on the links", () => {
    expect(flowIntervalsQuery(INPUT)).toEqual({
      name: "planners.flowIntervals",
      sql: [
        "SELECT toUInt64(uniqExact(time)) AS n",
        "FROM flows_5m",
        "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
        "  AND ingress_router = {router:String} AND in_if IN {interfaces:Array(String)}",
      ].join("\n"),
      params: { start: 1_794_913_800, end: 1_795_000_200, router: "fra-er1", interfaces: ["et-0/0/1", "et-0/0/2"] },
    });
  });

  it("takes each AS's sample at p − k of its sorted non-zero samples, out of the egress columns for out", () => {
    const q = flowP95Query({ ...INPUT, direction: "out", column: "as_nxt", table: "flows_1h" }, 8_639);
    expect(q.sql).toBe(
      [
        "SELECT asn, toUInt64(count()) AS present,",
        "  if(toInt64(count()) > {k:Int64}, arrayElement(arraySort(groupArray(b)), toInt64(count()) - {k:Int64}), toUInt64(0)) AS p95_bytes",
        "FROM (",
        "  SELECT as_nxt AS asn, time, sum(bytes) AS b",
        "  FROM flows_1h",
        "  WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
        "    AND egress_router = {router:String} AND out_if IN {interfaces:Array(String)}",
        "  GROUP BY asn, time",
        "  HAVING b > 0",
        ")",
        "GROUP BY asn",
      ].join("\n"),
    );
    expect(q.params.k).toBe(431);
    expect(flowP95Query(INPUT, 19).params.k).toBe(0);
    expect(flowP95Query(INPUT, 20).params.k).toBe(1);
  });
});
