/**
 * Pure SQL builders of AS Relations' observed traffic: per neighbour AS the hourly traffic on its
 * external links (flows_1h), in each direction — handed over to us (ingress on its links: the
 * neighbour's outbound) and handed over to it (egress on its links: its inbound) — and the 95th
 * of each over the month. Links are named "router|interface" and given with their AS as two array
 * parameters.
 *
 * Samples are the hours of the range in which any flow was recorded (n, flowHoursSql): in such an
 * hour a neighbour without traffic one way counts 0, while an hour without any flow (a collector
 * outage) is no sample. Billing rule as for links: sort the n samples, drop the top k = floor(n / 20),
 * the highest remaining; with p samples above zero, the p-sample sorted array at position p − k, or 0 when p ≤ k.
 */
import type { Statement } from "~/server/clickhouse/query.server";

type Built = Statement & { params: Record<string, unknown> };
export type LinkKeys = { keys: string[]; asns: number[] };
export type MonthRange = { start: number; end: number };

const range = "time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')";

/** n: the hours of the range with any flow. */
export function flowHoursSql(r: MonthRange): Built {
  return { name: "asrelations.flowHours", sql: `SELECT toUInt64(uniqExact(time)) AS n FROM flows_1h WHERE ${range}`, params: { ...r } };
}

/** Per neighbour AS and direction: samples above zero and the 95th in bytes per hour, given n's k. */
export function neighborP95Sql(r: MonthRange, links: LinkKeys, n: number): Built {
  const asnOf = (router: string, iface: string) =>
    `transform(concat(${router}, '|', ${iface}), {keys:Array(String)}, {asns:Array(Int64)}, toInt64(0))`;
  return {
    name: "asrelations.neighborP95",
    sql: `
SELECT asn, direction, toUInt64(count()) AS present,
       if(toInt64(count()) > {k:Int64}, arrayElement(arraySort(groupArray(b)), toInt64(count()) - {k:Int64}), toUInt64(0)) AS p95_bytes
FROM (
    SELECT ${asnOf("ingress_router", "in_if")} AS asn, 'outbound' AS direction, time, sum(bytes) AS b
    FROM flows_1h WHERE ${range}
    GROUP BY asn, time
    HAVING asn != 0 AND b > 0
    UNION ALL
    SELECT ${asnOf("egress_router", "out_if")} AS asn, 'inbound' AS direction, time, sum(bytes) AS b
    FROM flows_1h WHERE ${range}
    GROUP BY asn, time
    HAVING asn != 0 AND b > 0
)
GROUP BY asn, direction
ORDER BY asn, direction`.trim(),
    params: { ...r, keys: links.keys, asns: links.asns, k: Math.floor(n / 20) },
  };
}

/**
 * Per source AS and transit handover AS: the bytes the AS sent us through that transit over the range
 * (flows_1h, ingress: the handover is a transit neighbour, the source is neither the handover nor the
 * operator). ASes outside the tracked set arrive as Others (-101) and are kept, to be shown as such.
 */
export function transitSourcesSql(r: MonthRange, transits: readonly number[], operatorAsn: number): Built {
  return {
    name: "asrelations.transitSources",
    sql: `
SELECT as_src AS asn, as_hnd AS handover, sum(bytes) AS b
FROM flows_1h
WHERE ${range} AND as_hnd IN {transits:Array(Int64)} AND as_src != as_hnd AND as_src != {operatorAsn:Int64}
GROUP BY asn, handover
HAVING b > 0
ORDER BY b DESC, asn ASC, handover ASC`.trim(),
    params: { ...r, transits: [...transits], operatorAsn },
  };
}
