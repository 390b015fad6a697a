/**
 * Between the decoding threads and ClickHouse: batches of rows wait here, one insert at a time. A
 * batch is the insert's body as the threads wrote it (RowBinary or TabSeparated, in chunks, one per thread
 * result) with its row count: the main thread only moves bytes. The
 * network does not wait for the store, so the queue is bounded in rows: when the store is slower
 * than the exporters, the OLDEST waiting batches are dropped (their flows counted as "queue_full")
 * — newer traffic is worth more than a backlog. A failed insert is retried a few times, then its
 * batch is dropped ("store_failed"). Every row pushed is, at any moment, exactly one of: stored,
 * dropped (counted per exporter and reason), or pending here.
 */
import type { FlowDropReason } from "../drop-reasons";

/** Rows of one exporter (address and protocol key) in a batch. */
export type RowCounts = Map<string, number>;

/** `chunks` hold `rows` whole rows (each chunk ends where a row does); `counts` says whose they are. */
export type RowBatch = { chunks: Uint8Array[]; bytes: number; rows: number; counts: RowCounts };

/** The body of one insert. */
export type InsertBody = { chunks: readonly Uint8Array[]; bytes: number; rows: number };

/** The reasons the queue itself drops for (the catalogue: ../drop-reasons.ts). */
export type DropReason = Extract<FlowDropReason, "queue_full" | "store_failed" | "shutdown">;

export type StoreQueueOptions = {
  maxRows: number;
  insert: (body: InsertBody) => Promise<void>;
  /** Attempts per batch, the first included. */
  maxAttempts?: number;
  /** Wait before the n-th retry: n × this. */
  retryDelayMs?: number;
  onStored: (counts: RowCounts, rows: number) => void;
  onDropped: (counts: RowCounts, rows: number, reason: DropReason, error?: unknown) => void;
};

export class StoreQueue {
  private readonly waiting: RowBatch[] = [];
  private waitingRows = 0;
  private inFlight: RowBatch | null = null;
  private running: Promise<void> | null = null;
  private retryTimer: { timer: NodeJS.Timeout; wake: () => void } | null = null;
  /** The deadline of a drain under way: retries shorten, the writer stops taking batches past it. */
  private draining: number | null = null;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;

  constructor(private readonly options: StoreQueueOptions) {
    this.maxAttempts = options.maxAttempts ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
  }

  /** Rows waiting or being written. */
  get pendingRows(): number {
    return this.waitingRows + (this.inFlight?.rows ?? 0);
  }

  push(batch: RowBatch): void {
    if (!batch.rows) return;
    this.waiting.push(batch);
    this.waitingRows += batch.rows;
    // The newest batch always stays: it alone is within bounds (at most BATCH_ROWS ≤ QUEUE_ROWS).
    while (this.waitingRows > this.options.maxRows && this.waiting.length > 1) {
      const oldest = this.waiting.shift() as RowBatch;
      this.waitingRows -= oldest.rows;
      this.options.onDropped(oldest.counts, oldest.rows, "queue_full");
    }
    this.running ??= this.run().finally(() => (this.running = null));
  }

  /**
   * Writes what waits, for at most `timeoutMs` (retries shortened to fit); what is left after it is
   * dropped as "shutdown". Resolves when nothing is pending.
   */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    this.draining = deadline;
    this.retryTimer?.wake();
    while (this.running && Date.now() < deadline) {
      await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, Math.max(1, deadline - Date.now())).unref())]);
    }
    for (const batch of this.waiting.splice(0)) this.options.onDropped(batch.counts, batch.rows, "shutdown");
    this.waitingRows = 0;
    // An insert still running past the deadline is accounted when it ends (stored or failed).
    if (this.running) await this.running;
  }

  private async run(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.shift() as RowBatch;
      this.waitingRows -= batch.rows;
      this.inFlight = batch;
      try {
        await this.write(batch);
      } finally {
        this.inFlight = null;
      }
      if (this.draining !== null && Date.now() >= this.draining) return;
    }
  }

  private async write(batch: RowBatch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.insert(batch);
        this.options.onStored(batch.counts, batch.rows);
        return;
      } catch (error) {
        const pastDeadline = this.draining !== null && Date.now() >= this.draining;
        if (attempt >= this.maxAttempts || pastDeadline) {
          this.options.onDropped(batch.counts, batch.rows, "store_failed", error);
          return;
        }
        await this.pause(attempt * this.retryDelayMs);
      }
    }
  }

  /** A retry's wait; a drain ends it early (the remaining attempts then fit the drain's deadline). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.retryTimer = null;
        resolve();
      };
      const timer = setTimeout(wake, this.draining !== null ? Math.min(ms, 200) : ms);
      this.retryTimer = { timer, wake };
    });
  }
}
