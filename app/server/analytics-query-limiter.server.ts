/**
 * The analytics query limiter: every ClickHouse read made while serving a request waits here for a
 * slot (see clickhouse/query.server.ts, the door every query passes).
 *
 * Two bounds on queries running at once — per user and overall — and a bounded first-in-first-out
 * queue behind them. Why: ClickHouse work is the expensive part of a request, and on the embedded
 * chDB queries run one after the other anyway, so without a bound one user opening eight heavy
 * screens keeps everybody else (and the health check) waiting for the whole backlog. With it:
 *   - a user with `perUser` queries running waits in the queue; once `perUser + queuePerUser` of
 *     their queries are running or waiting, more are refused at once: 429 (their own limit);
 *   - when `queue` queries wait in total, more are refused at once: 503 (the server is busy);
 *   - a query that waited `maxWaitMs` leaves the queue with a 503 rather than hang.
 * Every refusal says when to try again (Retry-After), estimated from recent query durations.
 * The queue is served in arrival order, skipping only entries whose user is at their limit.
 *
 * The lowest priority (`runAtLowestPriority`, background work such as the alert rules' evaluation):
 * never refused and never timed out, it takes a slot only when no query waits and one is free, at
 * most one such task at a time, so it never delays an interactive user by more than one query.
 */

export type LimiterSettings = {
  /** Analytics queries running at once, all users together. */
  global: number;
  /** Analytics queries running at once for one user (or one anonymous client). */
  perUser: number;
  /** Queries that may wait, all users together; beyond it 503. */
  queue: number;
  /** Queries of one user that may wait; beyond it 429. */
  queuePerUser: number;
  /** Longest wait in the queue; then 503. */
  maxWaitMs: number;
};

export type RefusalReason = "user_limit" | "queue_full" | "queue_timeout";

/** A query that was not run: the status to answer (429 or 503) and when to try again. */
export class QueryRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly status: 429 | 503,
    readonly retryAfterSeconds: number,
  ) {
    super(`analytics query refused (${reason}), retry after ${retryAfterSeconds} s`);
    this.name = "QueryRefusal";
  }
}

export type LimiterSnapshot = {
  running: number;
  waiting: number;
  /** When the oldest running query started (epoch ms), null when none runs. */
  oldestRunningSince: number | null;
  /** When a query last finished without an error (epoch ms). */
  lastSuccessAt: number | null;
};

type Slot = { at: number };
type Waiter = { key: string; start: () => void; timer: ReturnType<typeof setTimeout> };

/** Until real durations are known, a query is assumed to take this long (for Retry-After only). */
const INITIAL_QUERY_MS = 1_000;
const MAX_RETRY_AFTER_SECONDS = 60;

export class AnalyticsQueryLimiter {
  private readonly runningByKey = new Map<string, number>();
  private readonly waitingByKey = new Map<string, number>();
  private readonly startedAt = new Set<Slot>();
  private readonly waiting: Waiter[] = [];
  private running = 0;
  private averageMs = INITIAL_QUERY_MS;
  private lastSuccessAt: number | null = null;
  private readonly idle: (() => void)[] = [];
  private idleRunning = 0;

  constructor(
    readonly settings: LimiterSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `task` once a slot is free for `key`; throws QueryRefusal when the bounds are reached. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const started = await this.acquire(key);
    let ok = false;
    try {
      const result = await task();
      ok = true;
      return result;
    } finally {
      this.startedAt.delete(started);
      this.release(key, this.now() - started.at, ok);
    }
  }

  /**
   * Runs `task` at the lowest priority: once no query waits and a slot is free, one such task at a
   * time (see the module's comment). Never refused.
   */
  async runAtLowestPriority<T>(key: string, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      if (this.canStartIdle()) {
        this.idleRunning++;
        resolve();
      } else
        this.idle.push(() => {
          this.idleRunning++;
          resolve();
        });
    });
    const started = this.take(key);
    let ok = false;
    try {
      const result = await task();
      ok = true;
      return result;
    } finally {
      this.startedAt.delete(started);
      this.idleRunning--;
      this.release(key, this.now() - started.at, ok);
    }
  }

  private canStartIdle(): boolean {
    return this.waiting.length === 0 && this.running < this.settings.global && this.idleRunning === 0;
  }

  snapshot(): LimiterSnapshot {
    let oldest: number | null = null;
    for (const s of this.startedAt) oldest = oldest === null ? s.at : Math.min(oldest, s.at);
    return { running: this.running, waiting: this.waiting.length, oldestRunningSince: oldest, lastSuccessAt: this.lastSuccessAt };
  }

  private acquire(key: string): Promise<Slot> {
    const mine = (this.runningByKey.get(key) ?? 0) + (this.waitingByKey.get(key) ?? 0);
    if (this.canStart(key)) return Promise.resolve(this.take(key));
    if (mine >= this.settings.perUser + this.settings.queuePerUser) return Promise.reject(this.refusal("user_limit", 429));
    if (this.waiting.length >= this.settings.queue) return Promise.reject(this.refusal("queue_full", 503));
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        key,
        start: () => {
          clearTimeout(waiter.timer);
          resolve(this.take(key));
        },
        timer: setTimeout(() => {
          this.leaveQueue(waiter);
          reject(this.refusal("queue_timeout", 503));
        }, this.settings.maxWaitMs),
      };
      this.waiting.push(waiter);
      this.waitingByKey.set(key, (this.waitingByKey.get(key) ?? 0) + 1);
    });
  }

  private canStart(key: string): boolean {
    return this.running < this.settings.global && (this.runningByKey.get(key) ?? 0) < this.settings.perUser;
  }

  private take(key: string): Slot {
    this.running++;
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
    const slot = { at: this.now() };
    this.startedAt.add(slot);
    return slot;
  }

  private release(key: string, durationMs: number, ok: boolean) {
    this.running--;
    const left = (this.runningByKey.get(key) ?? 1) - 1;
    if (left > 0) this.runningByKey.set(key, left);
    else this.runningByKey.delete(key);
    // A moving average is enough for a Retry-After estimate and forgets a start-up outlier quickly.
    this.averageMs = this.averageMs * 0.8 + durationMs * 0.2;
    if (ok) this.lastSuccessAt = this.now();
    this.dispatch();
  }

  /** Starts waiting queries in arrival order, skipping those whose user is at their limit. */
  private dispatch() {
    for (let i = 0; i < this.waiting.length && this.running < this.settings.global;) {
      const waiter = this.waiting[i];
      if (!this.canStart(waiter.key)) {
        i++;
        continue;
      }
      this.leaveQueue(waiter);
      waiter.start();
    }
    if (this.idle.length && this.canStartIdle()) this.idle.shift()!();
  }

  private leaveQueue(waiter: Waiter) {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    const left = (this.waitingByKey.get(waiter.key) ?? 1) - 1;
    if (left > 0) this.waitingByKey.set(waiter.key, left);
    else this.waitingByKey.delete(waiter.key);
  }

  /** Retry-After: the time the current backlog needs at the recent pace, at least 1 s. */
  private refusal(reason: RefusalReason, status: 429 | 503): QueryRefusal {
    const backlog = this.running + this.waiting.length;
    const seconds = Math.ceil(((backlog / Math.max(1, this.settings.global)) * this.averageMs) / 1000);
    return new QueryRefusal(reason, status, Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds)));
  }
}
