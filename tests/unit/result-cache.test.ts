/**
 * The result cache (app/server/result-cache.server.ts): one entry per canonical key and restriction
 * scope, fresh until the 5-minute bucket it was computed in ends, bounded by entries and cells, one
 * computation for concurrent misses, failures never kept.
 */
import { describe, expect, it } from "vitest";
import {
  cachedResult,
  canonicalJson,
  cellsOf,
  freshUntil,
  MemoryResultStore,
  restrictionScope,
  resultKey,
} from "~/server/result-cache.server";

const BUCKET = 300_000;
/** A counting computation: returns `value` and counts its calls. */
function counted<T>(value: T) {
  const f = async () => {
    f.calls += 1;
    return value;
  };
  f.calls = 0;
  return f;
}

describe("result cache", () => {
  it("keeps a result for its key and scope, and never answers one scope with another's result", async () => {
    const store = new MemoryResultStore();
    const read = { name: "q", parts: { sql: "SELECT 1", params: { a: 1, b: [2, 3] } } };
    const operator = counted(["operator's rows"]);
    const delegated = counted(["delegated's rows"]);
    const now = () => 10 * BUCKET + 1;
    const unrestricted = restrictionScope({ userId: 1, isDelegated: false });
    const d7 = restrictionScope({ userId: 7, isDelegated: true });
    const d8 = restrictionScope({ userId: 8, isDelegated: true });
    expect(new Set([unrestricted, d7, d8]).size).toBe(3);
    // Accounts without restrictions share one scope: another one of them is served the kept result.
    expect(restrictionScope({ userId: 2, isDelegated: false })).toBe(unrestricted);

    expect(await cachedResult(store, { ...read, scope: unrestricted }, operator, now)).toEqual(["operator's rows"]);
    expect(await cachedResult(store, { ...read, scope: unrestricted }, operator, now)).toEqual(["operator's rows"]);
    expect(operator.calls).toBe(1);
    // Same SQL and parameters, a delegated viewer: computed for them, their own result from then on.
    expect(await cachedResult(store, { ...read, scope: d7 }, delegated, now)).toEqual(["delegated's rows"]);
    expect(delegated.calls).toBe(1);
    expect(await cachedResult(store, { ...read, scope: d7 }, counted(["x"]), now)).toEqual(["delegated's rows"]);
    // Another delegated account, even with the same query, is never served the first one's result.
    const other = counted(["d8's rows"]);
    expect(await cachedResult(store, { ...read, scope: d8 }, other, now)).toEqual(["d8's rows"]);
    expect(other.calls).toBe(1);
    expect(await cachedResult(store, { ...read, scope: unrestricted }, counted(["y"]), now)).toEqual(["operator's rows"]);
  });

  it("keys by content: object keys in any order give one key, other parameters another", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}');
    expect(resultKey("q", { x: 1, y: 2 }, "s")).toBe(resultKey("q", { y: 2, x: 1 }, "s"));
    expect(resultKey("q", { x: 1, y: 2 }, "s")).not.toBe(resultKey("q", { x: 1, y: 3 }, "s"));
    expect(resultKey("q", { x: 1 }, "s")).not.toBe(resultKey("r", { x: 1 }, "s"));
    expect(resultKey("q", { x: 1 }, "s")).not.toBe(resultKey("q", { x: 1 }, "t"));
  });

  it("is fresh until the 5-minute bucket it was computed in ends", async () => {
    expect(freshUntil(10 * BUCKET)).toBe(11 * BUCKET);
    expect(freshUntil(11 * BUCKET - 1)).toBe(11 * BUCKET);
    const store = new MemoryResultStore();
    let clock = 10 * BUCKET + 5_000;
    const compute = counted("rows");
    const read = { name: "q", parts: {}, scope: "unrestricted" };
    await cachedResult(store, read, compute, () => clock);
    clock = 11 * BUCKET - 1;
    await cachedResult(store, read, compute, () => clock);
    expect(compute.calls).toBe(1);
    clock = 11 * BUCKET;
    await cachedResult(store, read, compute, () => clock);
    expect(compute.calls).toBe(2);
  });

  it("computes once for concurrent misses and keeps no failure", async () => {
    const store = new MemoryResultStore();
    let release!: () => void;
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await new Promise<void>((r) => (release = r));
      return [1, 2, 3];
    };
    const read = { name: "q", parts: { p: 1 }, scope: "unrestricted" };
    const both = Promise.all([cachedResult(store, read, slow), cachedResult(store, read, slow)]);
    await new Promise((r) => setImmediate(r));
    release();
    expect(await both).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(calls).toBe(1);

    const failing = { name: "q", parts: { p: 2 }, scope: "unrestricted" };
    let attempts = 0;
    const fails = async () => {
      attempts += 1;
      throw new Error("busy");
    };
    await expect(cachedResult(store, failing, fails)).rejects.toThrow("busy");
    await expect(cachedResult(store, failing, fails)).rejects.toThrow("busy");
    expect(attempts).toBe(2);
  });

  it("stays within its bounds, the least recently used out first", () => {
    const store = new MemoryResultStore(3, 100);
    const later = Number.MAX_SAFE_INTEGER;
    store.set("a", [1], later, 10);
    store.set("b", [2], later, 10);
    store.set("c", [3], later, 10);
    expect(store.get("a", 0)).toEqual([1]); // a is now the most recently used
    store.set("d", [4], later, 10);
    expect(store.get("b", 0)).toBeUndefined();
    expect(store.get("a", 0)).toEqual([1]);
    expect(store.size()).toEqual({ entries: 3, cells: 30 });
    // By cells: a large entry pushes out as many older ones as needed.
    store.set("e", [5], later, 85);
    expect(store.size().cells).toBeLessThanOrEqual(100);
    expect(store.get("e", 0)).toEqual([5]);
    // An entry larger than the whole bound is not kept at all.
    store.set("huge", [6], later, 101);
    expect(store.get("huge", 0)).toBeUndefined();
    expect(store.get("e", 0)).toEqual([5]);
  });

  it("estimates a result's size by its values", () => {
    expect(cellsOf([])).toBe(1);
    expect(
      cellsOf([
        { a: 1, b: [1, 2, 3] },
        { a: 2, b: [] },
      ]),
    ).toBe(1 + (1 + 1 + 4) + (1 + 1 + 1));
  });
});
