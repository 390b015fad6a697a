/**
 * The range of the flows data (first and last 5-minute bucket of flows_5m), read by every flows
 * view to clamp the requested time (~/lib/time-range clampToData).
 *
 * A read answers the requests of the next DATA_RANGE_TTL_MS, and while requests keep asking for it
 * (within DATA_RANGE_KEEP_FRESH_MS of the last one) it is read again in the background before it
 * gets that old, so the flows screens find it ready. Why: reading it per request competes with the
 * request's own query for the CPU (about 2 ms of ClickHouse work, more than the grouping adds to a
 * 30-day scan), while the range only moves when a new 5-minute bucket starts (its end) or old
 * partitions expire (its start) — an answer a few seconds old clamps the same way. Writers in this
 * process (the demo loader) and closing the stores forget it.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { outsideRequest } from "~/server/request-scope.server";

export type DataRange = { minTimestamp: number | null; maxTimestamp: number | null };

export const DATA_RANGE_TTL_MS = 5_000;
/** A background read starts this long before the range reaches DATA_RANGE_TTL_MS. */
const REFRESH_AHEAD_MS = 1_000;
/** How long after the last request that asked for it the range is kept fresh in the background. */
export const DATA_RANGE_KEEP_FRESH_MS = 10 * 60_000;

type ChStore = { ch: { client: ClickHouseClient } };
type Known = { readAt: number; range: Promise<DataRange>; askedAt: number; refresh: ReturnType<typeof setTimeout> | null };

const known = new WeakMap<ClickHouseClient, Known>();

/** min / max of flows_5m.time (bucket starts, unix seconds); nulls when there is no data. */
export function dataRange(stores: ChStore): Promise<DataRange> {
  const client = stores.ch.client;
  const now = Date.now();
  const entry = known.get(client);
  if (entry && now >= entry.readAt && now - entry.readAt < DATA_RANGE_TTL_MS) {
    entry.askedAt = now;
    return entry.range;
  }
  if (entry) forget(client, entry);
  const fresh: Known = { readAt: now, range: readDataRange(client), askedAt: now, refresh: null };
  known.set(client, fresh);
  fresh.range.then(
    () => keepFresh(client, fresh),
    () => forget(client, fresh), // a failed read is not kept: the next request tries again
  );
  return fresh.range;
}

/** Drops the remembered range of a store (after writing flows to it, or when closing it). */
export function forgetDataRange(stores: ChStore): void {
  const entry = known.get(stores.ch.client);
  if (entry) forget(stores.ch.client, entry);
}

function forget(client: ClickHouseClient, entry: Known) {
  if (entry.refresh) clearTimeout(entry.refresh);
  entry.refresh = null;
  if (known.get(client) === entry) known.delete(client);
}

/** Schedules the next background read while the range is in use; the current answer stays until it lands. */
function keepFresh(client: ClickHouseClient, entry: Known) {
  if (known.get(client) !== entry || Date.now() - entry.askedAt >= DATA_RANGE_KEEP_FRESH_MS) return;
  const delay = Math.max(0, entry.readAt + DATA_RANGE_TTL_MS - REFRESH_AHEAD_MS - Date.now());
  // Background work: not counted against (nor refused for) the request that happened to start it.
  entry.refresh = outsideRequest(() =>
    setTimeout(() => {
      entry.refresh = null;
      if (known.get(client) !== entry) return;
      const readAt = Date.now();
      readDataRange(client).then(
        (range) => {
          if (known.get(client) !== entry) return;
          entry.range = Promise.resolve(range);
          entry.readAt = readAt;
          keepFresh(client, entry);
        },
        () => forget(client, entry),
      );
    }, delay),
  );
  // Never what keeps a process (a script, a test run) alive.
  entry.refresh.unref?.();
}

/** The range as it is now, never remembered (api/max_timestamp/ answers with the newest bucket as written). */
export function currentDataRange(stores: ChStore): Promise<DataRange> {
  return readDataRange(stores.ch.client);
}

async function readDataRange(client: ClickHouseClient): Promise<DataRange> {
  const rs = await client.query({
    query:
      "SELECT if(count() = 0, NULL, toUInt32(min(time))) AS minTimestamp, if(count() = 0, NULL, toUInt32(max(time))) AS maxTimestamp FROM flows_5m",
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ minTimestamp: number | string | null; maxTimestamp: number | string | null }>();
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { minTimestamp: num(row?.minTimestamp), maxTimestamp: num(row?.maxTimestamp) };
}
