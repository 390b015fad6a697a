/**
 * The BMP station's one ordered write pipeline: routing rows (JSONCompactEachRow lines in
 * RIB_COLUMNS order) gathered into batches, and sweeps (a peer's or a router's routes withdrawn by
 * INSERT … SELECT from rib_current), run one at a time in the order they were queued. A sweep runs
 * after every row queued before it is written and before any row queued after it, so it sees
 * exactly the table those rows left, and rows of a peer coming back are never withdrawn by the
 * sweep of its going down.
 *
 * Nothing is dropped: a failed write is retried (1 s, 2 s, … up to 30 s apart) until it succeeds
 * or the station stops. Memory is bounded by back-pressure instead: when the rows waiting exceed
 * the high-water mark the station is told to pause reading its sessions (`onPause`), and once they
 * fall below the low-water mark to resume (`onResume`). The routing tables themselves live in
 * ClickHouse; what waits here is at most the high-water mark plus what the sessions had already
 * read when they were paused.
 */

/** What a sweep withdraws; the station's store turns it into SQL (sweep-sql.ts). */
export type PipelineStore<Sweep> = {
  /** Writes `rows` rows, one JSON array per line. */
  insertRows(lines: readonly string[], rows: number): Promise<void>;
  /** Runs a sweep; resolves false when it found nothing to withdraw and wrote nothing. */
  sweep(sweep: Sweep): Promise<boolean>;
};

export type PipelineOptions<Sweep> = {
  store: PipelineStore<Sweep>;
  /** A batch is written when it holds this many rows, */
  batchRows: number;
  /** or this long after its first row. */
  flushMs: number;
  /** Above this many rows waiting, onPause; below lowWaterRows again, onResume. */
  highWaterRows: number;
  lowWaterRows: number;
  onPause: () => void;
  onResume: () => void;
  /** After each write: the vantage points whose tables it changed, the rows it wrote, the sweep it ran (and whether it wrote). */
  onWritten?: (written: { vantagePoints: string[]; rows: number; sweep: Sweep | null; swept: boolean }) => void;
  /** A failed attempt (it is retried). */
  onError?: (error: unknown, attempt: number, what: string) => void;
  /** The wait before the n-th retry: min(maxRetryDelayMs, n × this). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
};

type RowsOp = { kind: "rows"; lines: string[]; rows: number; vantagePoints: Set<string> };
type SweepOp<Sweep> = { kind: "sweep"; sweep: Sweep; vantagePoint: string; label: string };
type Op<Sweep> = RowsOp | SweepOp<Sweep>;

const emptyBatch = (): RowsOp => ({ kind: "rows", lines: [], rows: 0, vantagePoints: new Set() });

export class WritePipeline<Sweep> {
  private open: RowsOp = emptyBatch();
  private openedAt = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly queue: Op<Sweep>[] = [];
  private queuedRows = 0;
  private inFlight: Op<Sweep> | null = null;
  private running: Promise<void> | null = null;
  private retryWait: { timer: NodeJS.Timeout; wake: () => void } | null = null;
  private paused = false;
  /** Set while stopping: past this time a failed write is not retried. */
  private deadline: number | null = null;
  readonly totals = { rowsWritten: 0, sweeps: 0, sweepsSkipped: 0, failures: 0, pauses: 0, rowsLost: 0 };

  constructor(private readonly options: PipelineOptions<Sweep>) {}

  /** Rows queued, in the open batch or being written. */
  get pendingRows(): number {
    return this.open.rows + this.queuedRows + (this.inFlight?.kind === "rows" ? this.inFlight.rows : 0);
  }

  /** Sweeps queued or running. */
  get pendingSweeps(): number {
    return this.queue.filter((op) => op.kind === "sweep").length + (this.inFlight?.kind === "sweep" ? 1 : 0);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Adds encoded rows of one vantage point to the open batch. */
  addRows(lines: readonly string[], vantagePoint: string): void {
    if (!lines.length) return;
    if (!this.open.rows) this.openedAt = Date.now();
    for (const line of lines) this.open.lines.push(line);
    this.open.rows += lines.length;
    this.open.vantagePoints.add(vantagePoint);
    if (this.open.rows >= this.options.batchRows) this.seal();
    else this.armFlush();
    this.checkPressure();
  }

  /** Queues a sweep after everything added so far. */
  addSweep(sweep: Sweep, vantagePoint: string, label: string): void {
    this.seal();
    this.queue.push({ kind: "sweep", sweep, vantagePoint, label });
    this.kick();
  }

  /** Seals the open batch and writes what is queued; resolves when nothing is left or `timeoutMs` passed. Returns the rows left unwritten. */
  async drain(timeoutMs: number): Promise<number> {
    this.deadline = Date.now() + timeoutMs;
    this.seal();
    this.retryWait?.wake();
    const until = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    while (this.running || this.queue.length) {
      const run = this.running ?? Promise.resolve();
      await Promise.race([run, until]);
      if (Date.now() >= this.deadline) break;
      if (!this.running && this.queue.length) this.kick();
    }
    const left = this.pendingRows;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    return left;
  }

  private armFlush(): void {
    if (this.flushTimer) return;
    const wait = Math.max(0, this.openedAt + this.options.flushMs - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.seal();
    }, wait);
    this.flushTimer.unref();
  }

  private seal(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.open.rows) return;
    const batch = this.open;
    this.open = emptyBatch();
    this.queue.push(batch);
    this.queuedRows += batch.rows;
    this.kick();
  }

  private checkPressure(): void {
    const pending = this.pendingRows;
    if (!this.paused && pending > this.options.highWaterRows) {
      this.paused = true;
      this.totals.pauses++;
      this.options.onPause();
    } else if (this.paused && pending < this.options.lowWaterRows) {
      this.paused = false;
      this.options.onResume();
    }
  }

  private kick(): void {
    if (this.running || !this.queue.length) return;
    this.running = this.work().finally(() => {
      this.running = null;
      // A write may have finished while nothing else was queued: the open batch waits for its timer.
      if (this.queue.length && !this.stoppedByDeadline()) this.kick();
    });
  }

  private stoppedByDeadline(): boolean {
    return this.deadline !== null && Date.now() >= this.deadline;
  }

  private async work(): Promise<void> {
    while (this.queue.length) {
      const op = this.queue.shift()!;
      if (op.kind === "rows") this.queuedRows -= op.rows;
      this.inFlight = op;
      const written = await this.write(op);
      this.inFlight = null;
      if (!written) {
        // Given up at the deadline of a stop: what is left is counted, not written.
        this.totals.rowsLost += (op.kind === "rows" ? op.rows : 0) + this.queuedRows;
        this.queue.length = 0;
        this.queuedRows = 0;
        return;
      }
      this.checkPressure();
    }
    this.checkPressure();
  }

  /** One op, retried until it succeeds; false when the stop's deadline passed first. */
  private async write(op: Op<Sweep>): Promise<boolean> {
    const base = this.options.retryDelayMs ?? 1000;
    const max = this.options.maxRetryDelayMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      try {
        if (op.kind === "rows") {
          await this.options.store.insertRows(op.lines, op.rows);
          this.totals.rowsWritten += op.rows;
          this.options.onWritten?.({ vantagePoints: [...op.vantagePoints], rows: op.rows, sweep: null, swept: false });
        } else {
          const swept = await this.options.store.sweep(op.sweep);
          if (swept) this.totals.sweeps++;
          else this.totals.sweepsSkipped++;
          this.options.onWritten?.({ vantagePoints: [op.vantagePoint], rows: 0, sweep: op.sweep, swept });
        }
        return true;
      } catch (error) {
        this.totals.failures++;
        this.options.onError?.(error, attempt, op.kind === "rows" ? `${op.rows} rows` : op.label);
        if (this.stoppedByDeadline()) return false;
        await this.sleep(Math.min(max, attempt * base));
        if (this.stoppedByDeadline()) return false;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.retryWait = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.retryWait = { timer, wake };
    });
  }
}
