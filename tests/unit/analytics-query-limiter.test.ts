import { afterEach, describe, expect, it, vi } from "vitest";
import { AnalyticsQueryLimiter, QueryRefusal, type LimiterSettings } from "~/server/analytics-query-limiter.server";

const SETTINGS: LimiterSettings = { global: 2, perUser: 1, queue: 4, queuePerUser: 2, maxWaitMs: 1_000 };

/** A query the test finishes (or fails) by hand. */
function pendingQuery() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { task: () => promise, finish, fail };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function refusalOf(promise: Promise<unknown>): Promise<QueryRefusal> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QueryRefusal);
  return error as QueryRefusal;
}

afterEach(() => vi.useRealTimers());

describe("AnalyticsQueryLimiter", () => {
  it("runs up to the per-user limit at once and queues the rest of that user's queries", async () => {
    const limiter = new AnalyticsQueryLimiter(SETTINGS);
    const a = pendingQuery();
    const b = pendingQuery();
    const started: string[] = [];
    const first = limiter.run("alice", () => (started.push("a"), a.task()));
    const second = limiter.run("alice", () => (started.push("b"), b.task()));
    await tick();
    expect(started).toEqual(["a"]);
    expect(limiter.snapshot()).toMatchObject({ running: 1, waiting: 1 });
    a.finish("A");
    await expect(first).resolves.toBe("A");
    await tick();
    expect(started).toEqual(["a", "b"]);
    b.finish("B");
    await expect(second).resolves.toBe("B");
    expect(limiter.snapshot()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("lets another user run while one user waits for their own slot (per user vs global)", async () => {
    const limiter = new AnalyticsQueryLimiter(SETTINGS);
    const a1 = pendingQuery();
    const started: string[] = [];
    void limiter.run("alice", () => (started.push("alice-1"), a1.task()));
    void limiter.run("alice", () => (started.push("alice-2"), Promise.resolve("x")));
    void limiter.run("bob", () => (started.push("bob-1"), new Promise(() => {})));
    await tick();
    expect(started).toEqual(["alice-1", "bob-1"]);
    a1.finish("done");
    await tick();
    expect(started).toEqual(["alice-1", "bob-1", "alice-2"]);
  });

  it("serves the queue in arrival order once the global limit frees a slot", async () => {
    const limiter = new AnalyticsQueryLimiter({ ...SETTINGS, perUser: 2, global: 1 });
    const first = pendingQuery();
    const started: string[] = [];
    void limiter.run("u0", () => (started.push("u0"), first.task()));
    for (const user of ["u1", "u2", "u3"]) void limiter.run(user, () => (started.push(user), Promise.resolve("ok")));
    await tick();
    expect(started).toEqual(["u0"]);
    first.finish("ok");
    for (let i = 0; i < 10; i++) await tick();
    expect(started).toEqual(["u0", "u1", "u2", "u3"]);
  });

  it("refuses a user's query beyond their running + waiting allowance with 429 and a Retry-After", async () => {
    const limiter = new AnalyticsQueryLimiter(SETTINGS);
    for (let i = 0; i < SETTINGS.perUser + SETTINGS.queuePerUser; i++) void limiter.run("alice", () => new Promise(() => {}));
    const refusal = await refusalOf(limiter.run("alice", async () => "never"));
    expect(refusal.status).toBe(429);
    expect(refusal.reason).toBe("user_limit");
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Someone else is not affected by alice's limit.
    void limiter.run("bob", () => new Promise(() => {}));
    expect(limiter.snapshot().running).toBe(2);
  });

  it("refuses with 503 when the global queue is full", async () => {
    const limiter = new AnalyticsQueryLimiter({ ...SETTINGS, global: 1, queue: 2 });
    void limiter.run("u0", () => new Promise(() => {}));
    void limiter.run("u1", () => new Promise(() => {}));
    void limiter.run("u2", () => new Promise(() => {}));
    const refusal = await refusalOf(limiter.run("u3", async () => "never"));
    expect(refusal.status).toBe(503);
    expect(refusal.reason).toBe("queue_full");
  });

  it("gives up waiting after maxWaitMs with 503 and frees the queue place", async () => {
    vi.useFakeTimers();
    const limiter = new AnalyticsQueryLimiter({ ...SETTINGS, global: 1 });
    void limiter.run("u0", () => new Promise(() => {}));
    const waiting = refusalOf(limiter.run("u1", async () => "never"));
    expect(limiter.snapshot().waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(SETTINGS.maxWaitMs);
    const refusal = await waiting;
    expect(refusal).toMatchObject({ status: 503, reason: "queue_timeout" });
    expect(limiter.snapshot().waiting).toBe(0);
  });

  it("releases the slot when a query fails, and the error reaches the caller", async () => {
    const limiter = new AnalyticsQueryLimiter(SETTINGS);
    const a = pendingQuery();
    const failing = limiter.run("alice", a.task);
    const next = limiter.run("alice", async () => "next ran");
    a.fail(new Error("TIMEOUT_EXCEEDED"));
    await expect(failing).rejects.toThrow("TIMEOUT_EXCEEDED");
    await expect(next).resolves.toBe("next ran");
    expect(limiter.snapshot()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("estimates Retry-After from recent query durations and the backlog", async () => {
    let now = 0;
    const limiter = new AnalyticsQueryLimiter({ ...SETTINGS, global: 1, perUser: 1, queuePerUser: 0 }, () => now);
    // Queries of 10 s each: the estimate grows towards them.
    for (let i = 0; i < 10; i++) {
      await limiter.run("u", async () => {
        now += 10_000;
      });
    }
    void limiter.run("u", () => new Promise(() => {}));
    const refusal = await refusalOf(limiter.run("u", async () => "never"));
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(8);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(10);
  });

  it("reports the last success and the oldest running query for the health check", async () => {
    let now = 1_000;
    const limiter = new AnalyticsQueryLimiter(SETTINGS, () => now);
    expect(limiter.snapshot()).toEqual({ running: 0, waiting: 0, oldestRunningSince: null, lastSuccessAt: null });
    await limiter.run("u", async () => "ok");
    now = 2_000;
    void limiter.run("u", () => new Promise(() => {}));
    expect(limiter.snapshot()).toMatchObject({ running: 1, oldestRunningSince: 2_000, lastSuccessAt: 1_000 });
  });

  it("the lowest priority waits while users' queries wait, takes a free slot only then, one task at a time", async () => {
    const limiter = new AnalyticsQueryLimiter(SETTINGS);
    const a = pendingQuery();
    const b = pendingQuery();
    const c = pendingQuery();
    const bg1 = pendingQuery();
    const bg2 = pendingQuery();
    const started: string[] = [];
    const runs = [
      limiter.run("alice", () => (started.push("a"), a.task())),
      limiter.run("bob", () => (started.push("b"), b.task())),
      limiter.run("carol", () => (started.push("c"), c.task())),
      limiter.runAtLowestPriority("background:alerts", () => (started.push("bg1"), bg1.task())),
      limiter.runAtLowestPriority("background:alerts", () => (started.push("bg2"), bg2.task())),
    ];
    await tick();
    expect(started).toEqual(["a", "b"]);
    // A slot frees: carol, who waits, goes first; the background waits for the queue to be empty.
    a.finish("a");
    await tick();
    expect(started).toEqual(["a", "b", "c"]);
    b.finish("b");
    await tick();
    expect(started).toEqual(["a", "b", "c", "bg1"]);
    // One background task at a time, although a slot is free.
    c.finish("c");
    await tick();
    expect(started).toEqual(["a", "b", "c", "bg1"]);
    bg1.finish("bg1");
    await tick();
    expect(started).toEqual(["a", "b", "c", "bg1", "bg2"]);
    bg2.finish("bg2");
    expect(await Promise.all(runs)).toEqual(["a", "b", "c", "bg1", "bg2"]);
    expect(limiter.snapshot()).toMatchObject({ running: 0, waiting: 0 });
  });
});
