/**
 * A flow collector as an ingest component (app/server/components): one UDP socket, decoding and
 * enrichment in worker threads (thread-pool.server.ts), rows batched into flows_raw through the
 * query door (store-queue.server.ts), counts per exporter in Prometheus and PostgreSQL
 * (exporter-stats.server.ts). Two are registered: flows-netflow (NetFlow v5/v9 and IPFIX on one
 * port) and flows-sflow; the decoder picks the format from each datagram's version either way.
 *
 * The web app's event loop only reads datagrams and hands them on; the bytes are looked at in the
 * threads. Nothing here waits for the store on the network's behalf: inserts are asynchronous and
 * the queue in front of them is bounded.
 */
import type { FlowDropReason } from "../drop-reasons";
import dgram from "node:dgram";
import { hostname } from "node:os";
import { binaryRowsAccepted, chInsertRaw, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import type { ComponentContext, ComponentHealth, IngestComponent } from "~/server/components/contract.server";
import type { Services } from "~/server/services.server";
import { FLOW_ROW_COLUMNS, type FlowRowFormat } from "../enrich/flow-row";
import { onRoutingRefresh } from "../enrich/routing-refresh.server";
import type { EnrichmentSnapshot } from "../enrich/snapshot";
import { enrichmentInputsVersion, loadEnrichmentSnapshot, reloadRoutingTables } from "../enrich/snapshot.server";
import { describeCollectorMetrics, ExporterStats, heartbeatListener, removeListener } from "./exporter-stats.server";
import { normaliseExporter } from "./exporter-address";
import { exporterKey, type ExporterDelta } from "./messages";
import { collectorSettings, type CollectorSettings } from "./settings.server";
import { StoreQueue, type InsertBody, type RowBatch } from "./store-queue.server";
import { DecodePool } from "./thread-pool.server";
import { joinTrackedAsSchedule } from "./tracked-as-schedule.server";

export type CollectorOptions = {
  /** Writes one batch (rows in FLOW_ROW_COLUMNS order, in flowRowFormat's format). Default: into flows_raw; tests hand in slow or failing stores. */
  insert?: (services: Services, body: InsertBody) => Promise<void>;
  /** How often the per-exporter figures are added to PostgreSQL and the listener's heartbeat written. */
  statsIntervalMs?: number;
  /** How often the enrichment snapshot is reloaded (the routing tables change all the time). */
  snapshotIntervalMs?: number;
  /** How often the inventory and AS mappings are checked for a change, which reloads the snapshot at once. */
  inventoryCheckMs?: number;
  /** Attempts per batch and the wait before the n-th retry (n × this). */
  insertAttempts?: number;
  insertRetryDelayMs?: number;
  /** How often a decoding thread expires data sets that wait for a template. */
  sweepIntervalMs?: number;
};

/** Every flow decoded is, at any moment, exactly one of stored, dropped (by reason) or pending. */
export type CollectorTotals = {
  datagrams: number;
  flows: number;
  stored: number;
  dropped: Record<string, number>;
  pending: number;
  /** Datagrams that never reached a decoder (threads busy or failed). */
  datagramsLost: number;
};

export type FlowCollector = IngestComponent<CollectorSettings> & {
  totals(): CollectorTotals;
  /** The UDP port it listens on (the system's pick for port 0); 0 when not listening. */
  port(): number;
};

/**
 * The format the decoding threads write for this store: RowBinary where the store takes it
 * (embedded chDB: parsing TabSeparated was most of an insert's CPU, bench/chdb-insert.ts), else text.
 */
export function flowRowFormat(ch: ClickhouseHandle): FlowRowFormat {
  return binaryRowsAccepted(ch) ? "RowBinary" : "TabSeparated";
}

export async function insertFlowRows(services: Services, body: InsertBody): Promise<void> {
  await chInsertRaw(services.ch, {
    name: "collector.flowsRaw",
    table: "flows_raw",
    columns: FLOW_ROW_COLUMNS,
    format: flowRowFormat(services.ch),
    body: body.chunks,
    rows: body.rows,
    // The 5-minute view already sums each batch by key; summing flows_5m and flows_1h again while
    // the part is written (optimize_on_insert) changes nothing they hold and cost a quarter of the
    // insert (bench/chdb-insert.ts). Background merges and the readers' sum() do the rest, as ever.
    settings: { optimize_on_insert: 0 },
  });
}

const emptyBatch = (): RowBatch => ({ chunks: [], bytes: 0, rows: 0, counts: new Map() });

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;

function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

class RunningCollector {
  private socket: dgram.Socket | null = null;
  private pool: DecodePool;
  private queue: StoreQueue;
  /** Null until the socket is bound: a start that failed before has nothing to write at stop. */
  private stats: ExporterStats | null = null;
  private open: RowBatch = emptyBatch();
  private readonly timers: NodeJS.Timeout[] = [];
  private releaseTrackedAs: () => void = () => {};
  private releaseRoutingRefresh: () => void = () => {};
  /** The snapshot the threads use, and the vantage points whose tables a live feed changed since it was read. */
  private snapshot: EnrichmentSnapshot | null = null;
  private readonly changedTables = new Set<string>();
  private listenText = "";
  private receiveBuffer = 0;
  private readonly startedAt = new Date();
  private rate = { flows: 0, atMs: Date.now(), perSecond: 0 };
  private stopping = false;
  private lastDropLogMs = 0;
  /** enrichmentInputsVersion as of the snapshot in use; a reload is running while `reloading` is set. */
  private inputsVersion = "";
  private reloading: Promise<void> | null = null;
  readonly totals: CollectorTotals = { datagrams: 0, flows: 0, stored: 0, dropped: {}, pending: 0, datagramsLost: 0 };

  constructor(
    private readonly name: string,
    private readonly services: Services,
    private readonly context: ComponentContext<CollectorSettings>,
    private readonly options: CollectorOptions,
  ) {
    const { settings, log } = context;
    this.pool = new DecodePool(
      settings.workers,
      { maxClockSkewMs: settings.maxClockSkewMs, sweepIntervalMs: options.sweepIntervalMs ?? 10_000, format: flowRowFormat(services.ch) },
      {
        onResult: (body, rows, exporters) => this.received(body, rows, exporters),
        onMisses: (exporters) => exporters.forEach((delta) => this.stats?.record(delta)),
        onLost: (datagrams, reason) => {
          this.totals.datagramsLost += datagrams;
          context.metrics.increment(`datagrams_lost_${reason}`, datagrams);
        },
      },
      log,
    );
    const insert = options.insert ?? insertFlowRows;
    this.queue = new StoreQueue({
      maxRows: settings.queueRows,
      insert: (body) => insert(services, body),
      maxAttempts: options.insertAttempts,
      retryDelayMs: options.insertRetryDelayMs,
      onStored: (counts, rows) => {
        this.totals.stored += rows;
        this.stats?.stored(counts);
      },
      onDropped: (counts, rows, reason, error) => this.dropped(counts, rows, reason, error),
    });
  }

  async start(): Promise<void> {
    const { settings, log } = this.context;
    describeCollectorMetrics();
    // Without the inventory's view the flows could not be enriched: a failed first load fails the start.
    // The version is read first: a change while the snapshot loads is then seen by the next check.
    this.inputsVersion = await enrichmentInputsVersion(this.services);
    const snapshot = await loadEnrichmentSnapshot(this.services);
    this.snapshot = snapshot;
    const socket = dgram.createSocket({
      type: settings.listen.host.includes(":") ? "udp6" : "udp4",
      recvBufferSize: settings.receiveBufferBytes,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(settings.listen.port, settings.listen.host, () => {
        socket.off("error", reject);
        resolve();
      });
    });
    this.socket = socket;
    this.pool.start(snapshot);
    const bound = socket.address();
    this.listenText = hostPort(bound.address, bound.port);
    this.stats = new ExporterStats(`${this.name} ${this.listenText}`);
    // Linux reports twice what it grants; it grants at most net.core.rmem_max unless the process may exceed it.
    this.receiveBuffer = socket.getRecvBufferSize();
    if (this.receiveBuffer < settings.receiveBufferBytes) {
      log.warn(
        `receive buffer ${mib(this.receiveBuffer)} instead of the ${mib(settings.receiveBufferBytes)} asked for: ` +
          `raise net.core.rmem_max (sysctl) to keep bursts from overflowing the socket`,
      );
    }
    socket.on("message", (payload, remote) => {
      this.totals.datagrams++;
      this.pool.submit(normaliseExporter(remote.address), Date.now(), payload);
    });
    socket.on("error", (error) => log.error(`socket error: ${error.message}`));

    await heartbeatListener(this.services.pg.db, this.listenerRow());
    this.every(settings.flushMs, () => this.seal());
    this.every(this.options.statsIntervalMs ?? 5_000, () => void this.writeStats());
    this.every(this.options.snapshotIntervalMs ?? 60_000, () => void this.reloadSnapshot());
    // An exporter adopted or an interface named on the inventory screen is used within seconds, not at the next minute.
    this.every(this.options.inventoryCheckMs ?? 5_000, () => void this.reloadIfInputsChanged());
    this.releaseTrackedAs = joinTrackedAsSchedule(this.services);
    // The BMP station of this process tells which routing tables it changed: those are read again within seconds.
    this.releaseRoutingRefresh = onRoutingRefresh((vantagePoints) => this.routingChanged(vantagePoints));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.releaseTrackedAs();
    this.releaseRoutingRefresh();
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
    // What the threads hold is decoded and stored before they end; data sets still waiting for a template are misses.
    await this.pool.drain(3_000);
    await this.pool.stop(1_000);
    this.seal();
    await this.queue.drain(4_000);
    try {
      await this.writeStats();
      await removeListener(this.services.pg.db, this.listenerRow());
    } catch (error) {
      this.context.log.warn(`collector figures not written at stop: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  health(): ComponentHealth {
    if (!this.socket) return { ok: false, detail: this.stopping ? "stopped" : "not listening" };
    const { settings } = this.context;
    const dropped = Object.values(this.totals.dropped).reduce((a, b) => a + b, 0);
    const parts = [
      `listening on ${this.listenText} (UDP, receive buffer ${mib(this.receiveBuffer)})`,
      `${this.pool.alive} of ${settings.workers} decoding threads`,
      `${Math.round(this.rate.perSecond).toLocaleString("en-US")} flows/s`,
      `${this.pendingRows().toLocaleString("en-US")} rows waiting for the store`,
    ];
    if (dropped) parts.push(`${dropped.toLocaleString("en-US")} flows dropped since start`);
    return { ok: this.pool.alive === settings.workers, detail: parts.join(", ") };
  }

  port(): number {
    return this.socket ? this.socket.address().port : 0;
  }

  pendingRows(): number {
    return this.open.rows + this.queue.pendingRows;
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private listenerRow() {
    return { component: this.name, address: this.listenText, host: hostname(), pid: process.pid, startedAt: this.startedAt };
  }

  private received(body: Uint8Array, rows: number, exporters: ExporterDelta[]): void {
    for (const delta of exporters) {
      this.stats?.record(delta);
      this.totals.flows += delta.flows;
      const key = exporterKey(delta.address, delta.protocol, delta.subAgentId);
      const stored = delta.flows - delta.enrichFailed;
      if (stored > 0) this.open.counts.set(key, (this.open.counts.get(key) ?? 0) + stored);
      if (delta.enrichFailed) this.dropped(new Map([[key, delta.enrichFailed]]), delta.enrichFailed, "enrich_failed");
    }
    if (rows > 0) {
      this.open.chunks.push(body);
      this.open.bytes += body.length;
      this.open.rows += rows;
    }
    if (this.open.rows >= this.context.settings.batchRows) this.seal();
  }

  private seal(): void {
    if (!this.open.rows) return;
    const batch = this.open;
    this.open = emptyBatch();
    this.queue.push(batch);
  }

  private dropped(counts: Map<string, number>, rows: number, reason: FlowDropReason, error?: unknown): void {
    this.totals.dropped[reason] = (this.totals.dropped[reason] ?? 0) + rows;
    this.stats?.dropped(counts, reason);
    // One line per minute at most: under overload every batch would otherwise log.
    if (Date.now() - this.lastDropLogMs > 60_000) {
      this.lastDropLogMs = Date.now();
      const why = error instanceof Error ? `: ${error.message}` : "";
      this.context.log.warn(`${rows} flows dropped (${reason})${why}; the counters by exporter are in /metrics`);
    }
  }

  private async writeStats(): Promise<void> {
    const now = Date.now();
    const seconds = (now - this.rate.atMs) / 1000;
    if (seconds > 0) this.rate = { flows: this.totals.flows, atMs: now, perSecond: (this.totals.flows - this.rate.flows) / seconds };
    if (!this.stats) return;
    try {
      await this.stats.flush(this.services.pg.db);
      if (!this.stopping) await heartbeatListener(this.services.pg.db, this.listenerRow());
    } catch (error) {
      this.context.log.warn(
        `collector figures not written to PostgreSQL (kept for the next try): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private reloadSnapshot(): Promise<void> {
    // One load at a time: the timers may fire while a big routing table is still loading.
    this.reloading ??= this.loadSnapshot().finally(() => this.reloaded());
    return this.reloading;
  }

  /** After any load: tables a live feed changed meanwhile are read again. */
  private reloaded(): void {
    this.reloading = null;
    if (this.changedTables.size && !this.stopping) this.routingChanged([]);
  }

  private async loadSnapshot(): Promise<void> {
    try {
      const version = await enrichmentInputsVersion(this.services);
      this.useSnapshot(await loadEnrichmentSnapshot(this.services));
      this.inputsVersion = version;
    } catch (error) {
      this.context.log.error(`enrichment data not reloaded, the previous stays: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private useSnapshot(snapshot: EnrichmentSnapshot): void {
    this.snapshot = snapshot;
    this.pool.useSnapshot(snapshot);
  }

  /** A live routing feed changed the tables of these vantage points: only they are read again (one load at a time). */
  private routingChanged(vantagePoints: readonly string[]): void {
    if (this.stopping) return;
    for (const vantagePoint of vantagePoints) this.changedTables.add(vantagePoint);
    if (this.reloading || !this.changedTables.size || !this.snapshot) return;
    const reload = [...this.changedTables];
    this.changedTables.clear();
    const base = this.snapshot;
    this.reloading = reloadRoutingTables(this.services, base, reload)
      .then((next) => {
        if (next !== base && this.snapshot === base) this.useSnapshot(next);
      })
      .catch((error) =>
        this.context.log.warn(`routing tables not reloaded, the previous stay: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => this.reloaded());
  }

  private async reloadIfInputsChanged(): Promise<void> {
    if (this.reloading || this.stopping) return;
    try {
      if ((await enrichmentInputsVersion(this.services)) === this.inputsVersion) return;
    } catch {
      return; // PostgreSQL unavailable for a moment: the next check, or the regular reload, tells
    }
    this.context.log.info("inventory or AS mappings changed: reloading the enrichment data");
    await this.reloadSnapshot();
  }
}

/** A collector component named `name` (its variables are `<NAME>_…`). */
export function flowCollector(name: string, options: CollectorOptions = {}): FlowCollector {
  let running: RunningCollector | null = null;
  let last: RunningCollector | null = null;
  return {
    name,
    configure: (env) => collectorSettings(env),
    async start(services, context) {
      const collector = new RunningCollector(name, services, context, options);
      try {
        await collector.start();
      } catch (error) {
        await collector.stop().catch(() => {});
        throw error;
      }
      running = last = collector;
    },
    async stop() {
      const collector = running;
      running = null;
      await collector?.stop();
    },
    health: () => running?.health() ?? { ok: false, detail: "not running" },
    totals: () => (last ? { ...last.totals, dropped: { ...last.totals.dropped }, pending: last.pendingRows() } : emptyTotals()),
    port: () => running?.port() ?? 0,
  };
}

const emptyTotals = (): CollectorTotals => ({ datagrams: 0, flows: 0, stored: 0, dropped: {}, pending: 0, datagramsLost: 0 });

/** NetFlow v5, v9 and IPFIX: FLOWS_NETFLOW_LISTEN. */
export const flowsNetflow = flowCollector("flows-netflow");
/** sFlow v5: FLOWS_SFLOW_LISTEN. */
export const flowsSflow = flowCollector("flows-sflow");
