/**
 * The data's range as requests share it: one read answers for DATA_RANGE_TTL_MS, it is read again
 * in the background while requests keep asking and not once they stop, a writer in the process
 * forgets it, a failed read is not kept.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DATA_RANGE_KEEP_FRESH_MS,
  DATA_RANGE_TTL_MS,
  dataRange,
  forgetDataRange,
  type DataRange,
} from "~/features/flows/data-range.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { openQueryDoor } from "~/server/clickhouse/query.server";

/** A client answering the range query with the next of `answers` (an Error is thrown), the last one repeated. */
function fakeStore(answers: (DataRange | Error)[]) {
  let reads = 0;
  const client = {
    query: async ({ query }: { query: string }) => {
      expect(query).toContain("FROM flows_5m");
      const answer = answers[Math.min(reads++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return { json: async () => [answer] };
    },
  } as unknown as ClickHouseClient;
  const connection = { client, kind: "chdb" as const, database: "flowlens", close: async () => {} };
  const limits = { global: 1, perUser: 1, queue: 1, queuePerUser: 1, maxWaitMs: 1000, maxExecutionSeconds: 1 };
  const ch = openQueryDoor(connection, limits, { identify: async () => "test", databases: async () => NO_OVERRIDE });
  return { store: { ch }, reads: () => reads };
}

const range = (maxTimestamp: number): DataRange => ({ minTimestamp: 100, maxTimestamp });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("dataRange", () => {
  it("one read answers the requests within the TTL", async () => {
    const { store, reads } = fakeStore([range(400), range(700)]);
    expect(await dataRange(store)).toEqual(range(400));
    vi.setSystemTime(Date.now() + 100);
    expect(await Promise.all([dataRange(store), dataRange(store)])).toEqual([range(400), range(400)]);
    expect(reads()).toBe(1);
    forgetDataRange(store);
  });

  it("is read again in the background while asked for, and the new answer replaces the old one", async () => {
    const { store, reads } = fakeStore([range(400), range(700), range(1000)]);
    expect(await dataRange(store)).toEqual(range(400));
    await vi.advanceTimersByTimeAsync(DATA_RANGE_TTL_MS - 1);
    expect(reads()).toBe(2);
    expect(await dataRange(store)).toEqual(range(700));
    await vi.advanceTimersByTimeAsync(DATA_RANGE_TTL_MS);
    expect(await dataRange(store)).toEqual(range(1000));
    expect(reads()).toBe(3);
    forgetDataRange(store);
  });

  it("stops reading once requests stop asking, and reads on the next request", async () => {
    const { store, reads } = fakeStore([range(400)]);
    await dataRange(store);
    await vi.advanceTimersByTimeAsync(DATA_RANGE_KEEP_FRESH_MS + 60_000);
    const afterIdle = reads();
    expect(afterIdle).toBeGreaterThan(1);
    expect(afterIdle).toBeLessThanOrEqual(Math.ceil(DATA_RANGE_KEEP_FRESH_MS / (DATA_RANGE_TTL_MS - 1_000)) + 2);
    await vi.advanceTimersByTimeAsync(DATA_RANGE_KEEP_FRESH_MS);
    expect(reads()).toBe(afterIdle);
    await dataRange(store);
    expect(reads()).toBe(afterIdle + 1);
    forgetDataRange(store);
  });

  it("reads again once a writer forgets it, and no background read follows", async () => {
    const { store, reads } = fakeStore([{ minTimestamp: null, maxTimestamp: null }, range(400)]);
    expect(await dataRange(store)).toEqual({ minTimestamp: null, maxTimestamp: null });
    forgetDataRange(store);
    await vi.advanceTimersByTimeAsync(DATA_RANGE_TTL_MS * 3);
    expect(reads()).toBe(1);
    expect(await dataRange(store)).toEqual(range(400));
    expect(reads()).toBe(2);
    forgetDataRange(store);
  });

  it("does not keep a failed read, nor read it in the background", async () => {
    const { store, reads } = fakeStore([new Error("ClickHouse is not available"), range(2)]);
    await expect(dataRange(store)).rejects.toThrow("ClickHouse is not available");
    await vi.advanceTimersByTimeAsync(DATA_RANGE_TTL_MS * 3);
    expect(reads()).toBe(1);
    expect(await dataRange(store)).toEqual(range(2));
    expect(reads()).toBe(2);
    forgetDataRange(store);
  });

  it("keeps one range per store", async () => {
    const a = fakeStore([range(2)]);
    const b = fakeStore([range(4)]);
    expect(await dataRange(a.store)).toEqual(range(2));
    expect(await dataRange(b.store)).toEqual(range(4));
    forgetDataRange(a.store);
    forgetDataRange(b.store);
  });
});
