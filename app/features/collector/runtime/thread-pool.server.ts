/**
 * The decoding threads of one collector. Datagrams are handed over in batches: those read in one
 * turn of the event loop (at most MAX_BATCH_DATAGRAMS) leave together, their payloads packed into
 * one transferred ArrayBuffer, so the message cost is paid per batch, not per datagram. An exporter
 * always goes to the same thread (threadFor), where its templates are.
 *
 * The threads are bounded like the store: beyond MAX_IN_FLIGHT_DATAGRAMS handed to a thread and not
 * yet answered, further datagrams for it are dropped and counted (the thread is slower than the
 * network; the socket's buffer would overflow next). A thread that dies is started again (its
 * templates are lost, as after a restart) and its unanswered datagrams are counted as lost.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ComponentLog } from "~/server/components/contract.server";
import type { EnrichmentSnapshot } from "../enrich/snapshot";
import type { DecodeWorkerData } from "./decode-worker";
import { threadFor } from "./exporter-address";
import type { ExporterDelta, FromThread, ToThread } from "./messages";

export const MAX_BATCH_DATAGRAMS = 256;
export const MAX_IN_FLIGHT_DATAGRAMS = 20_000;
/** The bundled thread entry, next to the server bundle (vite.config.ts writes it). */
export const BUNDLED_WORKER_FILE = "collector-worker.js";

export type PoolEvents = {
  /** `body`: `rows` rows in the threads' format (messages.ts). */
  onResult(body: Uint8Array, rows: number, exporters: ExporterDelta[]): void;
  onMisses(exporters: ExporterDelta[]): void;
  /** Datagrams that never reached a decoder: the thread was busy, or died holding them. */
  onLost(datagrams: number, reason: "threads_busy" | "thread_failed"): void;
};

type Pending = { payloads: Buffer[]; exporters: string[]; arrivalsMs: number[]; bytes: number };

type Thread = {
  index: number;
  startedAtMs: number;
  dead: boolean;
  worker: Worker;
  pending: Pending;
  /** Batch id → datagrams sent and not answered. */
  inFlight: Map<number, number>;
  inFlightDatagrams: number;
  finished: Promise<void>;
  markFinished: () => void;
};

/**
 * How a thread is started: from the TypeScript source under tsx and vitest (this module is a .ts
 * file there), else from the bundle's own file beside build/server/index.js.
 */
function threadEntry(): { file: string | URL; eval: boolean } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts")) {
    const source = pathToFileURL(path.join(path.dirname(here), "decode-worker.ts")).href;
    const tsx = pathToFileURL(tsxEsmApi()).href;
    // A thread starts without the parent's loaders: it registers tsx itself, then loads the source.
    const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
    return { file: code, eval: true };
  }
  const candidates = [path.join(path.dirname(here), BUNDLED_WORKER_FILE), path.resolve("build/server", BUNDLED_WORKER_FILE)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`the collector's thread entry ${BUNDLED_WORKER_FILE} is missing beside the server bundle: run npm run build`);
  return { file: found, eval: false };
}

/** tsx's ES module API (require.resolve would give its CommonJS build, which a thread cannot use to register). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const exports = JSON.parse(readFileSync(manifest, "utf8")).exports as Record<string, { import: { default: string } }>;
  return path.join(path.dirname(manifest), exports["./esm/api"].import.default);
}

export class DecodePool {
  private readonly threads: Thread[] = [];
  private snapshot: EnrichmentSnapshot | null = null;
  private nextBatchId = 1;
  private scheduled = false;
  private stopping = false;
  private readonly entry = threadEntry();

  constructor(
    private readonly size: number,
    private readonly data: DecodeWorkerData,
    private readonly events: PoolEvents,
    private readonly log: ComponentLog,
  ) {}

  start(snapshot: EnrichmentSnapshot): void {
    this.snapshot = snapshot;
    for (let i = 0; i < this.size; i++) this.threads.push(this.spawn(i));
  }

  useSnapshot(snapshot: EnrichmentSnapshot): void {
    this.snapshot = snapshot;
    for (const thread of this.threads) this.post(thread, { type: "snapshot", snapshot });
  }

  /** Datagrams handed over and not answered yet, over all threads. */
  get inFlightDatagrams(): number {
    return this.threads.reduce((sum, t) => sum + t.inFlightDatagrams + t.pending.exporters.length, 0);
  }

  get alive(): number {
    return this.threads.filter((t) => !t.dead).length;
  }

  submit(exporter: string, arrivalMs: number, payload: Buffer): void {
    if (this.stopping) return;
    const thread = this.threads[threadFor(exporter, this.threads.length)];
    if (thread.dead) {
      this.events.onLost(1, "thread_failed");
      return;
    }
    if (thread.inFlightDatagrams + thread.pending.exporters.length >= MAX_IN_FLIGHT_DATAGRAMS) {
      this.events.onLost(1, "threads_busy");
      return;
    }
    thread.pending.payloads.push(payload);
    thread.pending.exporters.push(exporter);
    thread.pending.arrivalsMs.push(arrivalMs);
    thread.pending.bytes += payload.length;
    if (thread.pending.exporters.length >= MAX_BATCH_DATAGRAMS) this.send(thread);
    else if (!this.scheduled) {
      // After the datagrams of this turn of the event loop have been read: one batch per thread.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        for (const t of this.threads) this.send(t);
      });
    }
  }

  /** Sends what waits and resolves when every thread has answered all it was given (or after timeoutMs). */
  async drain(timeoutMs: number): Promise<void> {
    for (const thread of this.threads) this.send(thread);
    const deadline = Date.now() + timeoutMs;
    while (this.inFlightDatagrams > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Asks each thread for the template sets still waiting (counted as misses), then ends the threads. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const thread of this.threads) this.post(thread, { type: "finish" });
    const timeout = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.all(this.threads.map((t) => t.finished)), timeout]);
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
  }

  private spawn(index: number): Thread {
    const worker = new Worker(this.entry.file, { eval: this.entry.eval, workerData: this.data, name: `flow decoder ${index}` });
    let markFinished = () => {};
    const finished = new Promise<void>((resolve) => (markFinished = resolve));
    const thread: Thread = {
      index,
      startedAtMs: Date.now(),
      dead: false,
      worker,
      pending: { payloads: [], exporters: [], arrivalsMs: [], bytes: 0 },
      inFlight: new Map(),
      inFlightDatagrams: 0,
      finished,
      markFinished,
    };
    worker.on("message", (message: FromThread) => this.receive(thread, message));
    worker.on("error", (error) =>
      this.log.error(`decoding thread ${index} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    worker.on("exit", (code) => {
      thread.markFinished();
      thread.dead = true;
      if (this.stopping || this.threads[index] !== thread) return;
      const lost = thread.inFlightDatagrams + thread.pending.exporters.length;
      if (lost) this.events.onLost(lost, "thread_failed");
      // A thread that fails at once would fail again at once: the next try waits a second.
      const delayMs = Date.now() - thread.startedAtMs < 10_000 ? 1_000 : 0;
      this.log.error(`decoding thread ${index} ended (exit code ${code}); starting it again${delayMs ? " in a second" : ""}`);
      setTimeout(() => {
        if (!this.stopping && this.threads[index] === thread) this.threads[index] = this.spawn(index);
      }, delayMs).unref();
    });
    if (this.snapshot) this.post(thread, { type: "snapshot", snapshot: this.snapshot });
    return thread;
  }

  private receive(thread: Thread, message: FromThread): void {
    switch (message.type) {
      case "result": {
        const sent = thread.inFlight.get(message.id) ?? 0;
        thread.inFlight.delete(message.id);
        thread.inFlightDatagrams -= sent;
        this.events.onResult(new Uint8Array(message.body), message.rows, message.exporters);
        break;
      }
      case "misses":
        if (message.exporters.length) this.events.onMisses(message.exporters);
        if (message.final) thread.markFinished();
        break;
      case "log":
        this.log[message.level](message.message);
        break;
    }
  }

  private send(thread: Thread): void {
    const pending = thread.pending;
    if (!pending.exporters.length) return;
    thread.pending = { payloads: [], exporters: [], arrivalsMs: [], bytes: 0 };
    const buffer = new ArrayBuffer(pending.bytes);
    const bytes = new Uint8Array(buffer);
    const offsets = [0];
    for (const payload of pending.payloads) {
      const at = offsets[offsets.length - 1];
      bytes.set(payload, at);
      offsets.push(at + payload.length);
    }
    const id = this.nextBatchId++;
    thread.inFlight.set(id, pending.exporters.length);
    thread.inFlightDatagrams += pending.exporters.length;
    this.post(thread, { type: "batch", id, buffer, offsets, exporters: pending.exporters, arrivalsMs: pending.arrivalsMs }, [buffer]);
  }

  private post(thread: Thread, message: ToThread, transfer: ArrayBuffer[] = []): void {
    thread.worker.postMessage(message, transfer);
  }
}
