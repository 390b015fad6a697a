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
import { z } from "zod";
import { chQuery, requestDatabases, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import type { DatabaseOverride } from "~/server/clickhouse/database-override.server";
import { outsideRequest } from "~/server/request-scope.server";
import { dataRangeQuery, latestBucketQuery } from "./lookup-sql";

export type DataRange = { minTimestamp: number | null; maxTimestamp: number | null };

export const DATA_RANGE_TTL_MS = 5_000;
/** A background read starts this long before the range reaches DATA_RANGE_TTL_MS. */
const REFRESH_AHEAD_MS = 1_000;
/** How long after the last request that asked for it the range is kept fresh in the background. */
export const DATA_RANGE_KEEP_FRESH_MS = 10 * 60_000;

type ChStore = { ch: ClickhouseHandle };
type Known = { readAt: number; range: Promise<DataRange>; askedAt: number; refresh: ReturnType<typeof setTimeout> | null };
/** One range per store and flows database: a user with a database override reads that database's range. */
type Source = { ch: ClickhouseHandle; databases: DatabaseOverride; key: string };

const known = new WeakMap<ClickhouseHandle, Map<string, Known>>();

const entryOf = (source: Source) => known.get(source.ch)?.get(source.key);

/** min / max of flows_5m.time (bucket starts, unix seconds); nulls when there is no data. */
export async function dataRange(stores: ChStore): Promise<DataRange> {
  const databases = await requestDatabases(stores.ch);
  const source: Source = { ch: stores.ch, databases, key: databases.flows ?? "" };
  const now = Date.now();
  const entry = entryOf(source);
  if (entry && now >= entry.readAt && now - entry.readAt < DATA_RANGE_TTL_MS) {
    entry.askedAt = now;
    return entry.range;
  }
  if (entry) forget(source, entry);
  const fresh: Known = { readAt: now, range: readDataRange(source), askedAt: now, refresh: null };
  let byDatabase = known.get(source.ch);
  if (!byDatabase) known.set(source.ch, (byDatabase = new Map()));
  byDatabase.set(source.key, fresh);
  fresh.range.then(
    () => keepFresh(source, fresh),
    () => forget(source, fresh), // a failed read is not kept: the next request tries again
  );
  return fresh.range;
}

/** Drops the remembered ranges of a store (after writing flows to it, or when closing it). */
export function forgetDataRange(stores: ChStore): void {
  const byDatabase = known.get(stores.ch);
  if (!byDatabase) return;
  for (const [key, entry] of [...byDatabase]) forget({ ch: stores.ch, databases: { flows: null, rawFlows: null }, key }, entry);
}

function forget(source: Source, entry: Known) {
  if (entry.refresh) clearTimeout(entry.refresh);
  entry.refresh = null;
  if (entryOf(source) === entry) known.get(source.ch)?.delete(source.key);
}

/** Schedules the next background read while the range is in use; the current answer stays until it lands. */
function keepFresh(source: Source, entry: Known) {
  if (entryOf(source) !== entry || Date.now() - entry.askedAt >= DATA_RANGE_KEEP_FRESH_MS) return;
  const delay = Math.max(0, entry.readAt + DATA_RANGE_TTL_MS - REFRESH_AHEAD_MS - Date.now());
  // Background work: not counted against (nor refused for) the request that happened to start it.
  entry.refresh = outsideRequest(() =>
    setTimeout(() => {
      entry.refresh = null;
      if (entryOf(source) !== entry) return;
      const readAt = Date.now();
      readDataRange(source).then(
        (range) => {
          if (entryOf(source) !== entry) return;
          entry.range = Promise.resolve(range);
          entry.readAt = readAt;
          keepFresh(source, entry);
        },
        () => forget(source, entry),
      );
    }, delay),
  );
  // Never what keeps a process (a script, a test run) alive.
  entry.refresh.unref?.();
}

const timestamp = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : Number(v)));
const DataRangeRow = z.object({ minTimestamp: timestamp, maxTimestamp: timestamp });

/** The databases are passed on: the background refresh reads for the user without being their request. */
async function readDataRange(source: Source): Promise<DataRange> {
  const [row] = await chQuery(source.ch, { ...dataRangeQuery(), schema: DataRangeRow, databases: source.databases });
  return { minTimestamp: row?.minTimestamp ?? null, maxTimestamp: row?.maxTimestamp ?? null };
}

/** The newest bucket as of now, read for the request (api/max_timestamp/), not the shared range. */
export async function latestFlowBucket(stores: ChStore): Promise<number | null> {
  const [row] = await chQuery(stores.ch, { ...latestBucketQuery(), schema: z.object({ maxTimestamp: timestamp }) });
  return row?.maxTimestamp ?? null;
}
