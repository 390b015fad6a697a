/**
 * The data's range as requests share it: one read answers for DATA_RANGE_TTL_MS, a writer in the
 * process forgets it, a failed read is not kept.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { describe, expect, it } from "vitest";
import { DATA_RANGE_TTL_MS, dataRange, forgetDataRange } from "~/features/flows/data-range.server";

/** A client answering the range query with the next of `answers` (an Error is thrown). */
function fakeStore(answers: ({ minTimestamp: number | null; maxTimestamp: number | null } | Error)[]) {
  let reads = 0;
  const client = {
    query: async ({ query }: { query: string }) => {
      expect(query).toContain("FROM flows_5m");
      const answer = answers[Math.min(reads++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return { json: async () => [answer] };
    },
  } as unknown as ClickHouseClient;
  return { store: { ch: { client } }, reads: () => reads };
}

const T = 1_800_000_000_000;

describe("dataRange", () => {
  it("reads once for requests within the TTL, again after it", async () => {
    const { store, reads } = fakeStore([
      { minTimestamp: 100, maxTimestamp: 400 },
      { minTimestamp: 100, maxTimestamp: 700 },
    ]);
    expect(await dataRange(store, T)).toEqual({ minTimestamp: 100, maxTimestamp: 400 });
    expect(await Promise.all([dataRange(store, T + 1), dataRange(store, T + DATA_RANGE_TTL_MS - 1)])).toEqual([
      { minTimestamp: 100, maxTimestamp: 400 },
      { minTimestamp: 100, maxTimestamp: 400 },
    ]);
    expect(reads()).toBe(1);
    expect(await dataRange(store, T + DATA_RANGE_TTL_MS)).toEqual({ minTimestamp: 100, maxTimestamp: 700 });
    expect(reads()).toBe(2);
  });

  it("reads again once a writer forgets it, and when the clock went back", async () => {
    const { store, reads } = fakeStore([
      { minTimestamp: null, maxTimestamp: null },
      { minTimestamp: 100, maxTimestamp: 400 },
      { minTimestamp: 100, maxTimestamp: 500 },
    ]);
    expect(await dataRange(store, T)).toEqual({ minTimestamp: null, maxTimestamp: null });
    forgetDataRange(store);
    expect(await dataRange(store, T + 1)).toEqual({ minTimestamp: 100, maxTimestamp: 400 });
    expect(await dataRange(store, T - 1)).toEqual({ minTimestamp: 100, maxTimestamp: 500 });
    expect(reads()).toBe(3);
  });

  it("does not keep a failed read", async () => {
    const { store, reads } = fakeStore([new Error("ClickHouse is not available"), { minTimestamp: 1, maxTimestamp: 2 }]);
    await expect(dataRange(store, T)).rejects.toThrow("ClickHouse is not available");
    expect(await dataRange(store, T + 1)).toEqual({ minTimestamp: 1, maxTimestamp: 2 });
    expect(reads()).toBe(2);
  });

  it("keeps one range per store", async () => {
    const a = fakeStore([{ minTimestamp: 1, maxTimestamp: 2 }]);
    const b = fakeStore([{ minTimestamp: 3, maxTimestamp: 4 }]);
    expect(await dataRange(a.store, T)).toEqual({ minTimestamp: 1, maxTimestamp: 2 });
    expect(await dataRange(b.store, T)).toEqual({ minTimestamp: 3, maxTimestamp: 4 });
  });
});
