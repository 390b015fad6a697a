/**
 * The tracked ASes (tracked_as): the ASes that keep their number in the aggregates. flows_5m_mv
 * folds every other AS into Others (-101) as rows are inserted. The collector's runtime recomputes
 * the set hourly:
 *
 * - the top TRACKED_TOP ASes by traffic: bytes × sampling_rate of the counted flows_raw rows (packets
 *   the router dropped left out, as in the aggregates) of the
 *   7 days before `now`, an AS counted once per row whichever of its four AS columns (source,
 *   handover, next hop, destination) it is in; special values (< 0) and the operator left out;
 * - plus the operator's AS (rank 0) and every neighbour AS of the inventory's interfaces, so the
 *   network's own edges never fold into Others, however small their traffic.
 *
 * Replacing the set: the new members are written first (updated_at = now; ReplacingMergeTree keeps
 * one row per AS, the newest), then the ASes that left are deleted. Between the two steps the set is
 * the union of old and new, never a gap in which every AS would fold. The fold happens when rows
 * are inserted, so history keeps what it was folded into: aggregates written before a change keep
 * an AS that has since left under its number, and keep an AS that has since joined under Others.
 */
import { z } from "zod";
import { eq, isNotNull } from "drizzle-orm";
import { asInfo, interfaces } from "~db/postgres/schema";
import { chCommand, chInsert, chQuery, type Statement } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";

export const TRACKED_TOP = 200;
const WINDOW_SECONDS = 7 * 86_400;

/** The top ASes by traffic in [from, to] (unix seconds), as described above. */
export function topTrafficAsSql(options: { from: number; to: number; exclude: number[]; limit: number }): Statement {
  return {
    name: "collector.topTrafficAs",
    sql: `
SELECT asn, sum(volume) AS traffic
FROM (
    SELECT arrayJoin(arrayDistinct([as_src, as_hnd, as_nxt, as_dst])) AS asn, toFloat64(bytes) * sampling_rate AS volume
    FROM flows_raw
    WHERE counted = 1 AND bitShiftRight(forwarding_status, 6) != 2
      AND time_received >= toDateTime({from:UInt32}, 'UTC') AND time_received <= toDateTime({to:UInt32}, 'UTC')
)
WHERE asn > 0 AND asn NOT IN {exclude:Array(Int64)}
GROUP BY asn
ORDER BY traffic DESC, asn
LIMIT {limit:UInt32}`.trim(),
    params: { from: options.from, to: options.to, exclude: options.exclude, limit: options.limit },
  };
}

/** Recomputes tracked_as for `now`; returns how many ASes are tracked. */
export async function recomputeTrackedAs(services: Services, now: Date): Promise<number> {
  const to = Math.floor(now.getTime() / 1000);
  const [operatorRows, neighbourRows] = await Promise.all([
    services.pg.db.select({ asn: asInfo.asn }).from(asInfo).where(eq(asInfo.category, "operator")).orderBy(asInfo.asn).limit(1),
    services.pg.db.selectDistinct({ asn: interfaces.neighborAsn }).from(interfaces).where(isNotNull(interfaces.neighborAsn)),
  ]);
  const operator = operatorRows.length ? Number(operatorRows[0].asn) : null;
  const top = await chQuery(services.ch, {
    ...topTrafficAsSql({ from: to - WINDOW_SECONDS, to, exclude: operator === null ? [] : [operator], limit: TRACKED_TOP }),
    schema: z.object({ asn: z.number(), traffic: z.number() }),
  });

  const members: number[] = [];
  const add = (asn: number) => {
    if (Number.isSafeInteger(asn) && asn > 0 && !members.includes(asn)) members.push(asn);
  };
  if (operator !== null) add(operator);
  for (const row of top) add(Number(row.asn));
  for (const asn of neighbourRows.map((r) => Number(r.asn)).sort((a, b) => a - b)) add(asn);

  // Rank: the operator first (0), then by traffic, then the remaining neighbours by number.
  const rankBase = operator === null ? 1 : 0;
  if (members.length)
    await chInsert(services.ch, {
      name: "collector.trackedAs",
      table: "tracked_as",
      values: members.map((asn, i) => ({ asn, rank: i + rankBase, updated_at: to })),
    });
  const cluster = services.config.CLICKHOUSE_CLUSTER;
  await chCommand(services.ch, {
    name: "collector.trackedAsLeft",
    sql: cluster
      ? `DELETE FROM tracked_as_local ON CLUSTER '${cluster}' WHERE asn NOT IN {members:Array(Int64)}`
      : "DELETE FROM tracked_as WHERE asn NOT IN {members:Array(Int64)}",
    params: { members },
  });
  return members.length;
}
