/**
 * The range of the flows data (first and last 5-minute bucket of flows_5m), read by every flows
 * view to clamp the requested time (time.ts clampToData).
 *
 * A read answers the requests of the next DATA_RANGE_TTL_MS too: a screen asks for it from several
 * views at once, and operators reload and page through the same screens. The range only moves
 * when a new 5-minute bucket starts (its end) or old partitions expire (its start), so an answer a
 * few seconds old clamps the same way, while re-reading it for every request competes with the
 * request's own query for the CPU (about 2 ms of ClickHouse work, more than the grouping adds to
 * a 30-day scan). Writers in this process (the demo loader) forget it when they insert.
 */
import type { ClickHouseClient } from "@clickhouse/client";

export type DataRange = { minTimestamp: number | null; maxTimestamp: number | null };

export const DATA_RANGE_TTL_MS = 5_000;

type ChStore = { ch: { client: ClickHouseClient } };

const recent = new WeakMap<ClickHouseClient, { readAt: number; range: Promise<DataRange> }>();

/** min / max of flows_5m.time (bucket starts, unix seconds); nulls when there is no data. */
export function dataRange(stores: ChStore, now = Date.now()): Promise<DataRange> {
  const client = stores.ch.client;
  const known = recent.get(client);
  if (known && now - known.readAt < DATA_RANGE_TTL_MS && now >= known.readAt) return known.range;
  const entry = { readAt: now, range: readDataRange(client) };
  recent.set(client, entry);
  // A failed read is not kept: the next request tries again.
  entry.range.catch(() => {
    if (recent.get(client) === entry) recent.delete(client);
  });
  return entry.range;
}

/** Drops the remembered range of a store after writing flows to it. */
export function forgetDataRange(stores: ChStore): void {
  recent.delete(stores.ch.client);
}

async function readDataRange(client: ClickHouseClient): Promise<DataRange> {
  const rs = await client.query({
    query: "SELECT if(count() = 0, NULL, toUInt32(min(time))) AS minTimestamp, if(count() = 0, NULL, toUInt32(max(time))) AS maxTimestamp FROM flows_5m",
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ minTimestamp: number | string | null; maxTimestamp: number | string | null }>();
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { minTimestamp: num(row?.minTimestamp), maxTimestamp: num(row?.maxTimestamp) };
}
