/**
 * The `bmp` ingest component: a BMP station (RFC 7854, Loc-RIB of RFC 9069). Off unless BMP_LISTEN
 * is set; a TCP listener that takes sessions from the inventory's routers and keeps their routing
 * tables live in rib_entries / rib_current under each router's vantage point.
 *
 *   TCP session (one per router) ──bytes──▶ BmpStreamDecoder ──messages──▶ BmpSession (session.server.ts)
 *                                                                              │ rows, sweeps
 *   sockets paused above BMP_QUEUE_ROWS ◀── WritePipeline (one per station, in order) ──▶ chInsertRaw rib_entries
 *                                                                                       chCommand INSERT … SELECT (sweeps)
 *   every 5 s: bmp_router_status, the listener's heartbeat; every minute: the routes per router and view
 *
 * Sessions: a connection from an address that is no inventory router's loopback or exporter
 * address is closed at once and recorded for adoption. A framing error (not BMP, a length out of
 * bounds) or a stream ending inside a message closes that session with one log line naming the
 * router and the reason; the other sessions go on.
 *
 * A router whose session closes keeps its routes (answers go on). Its new session replaces them:
 * each peer's tables at their End-of-RIB (or BMP_STALE_AFTER after its Peer Up), and the routes of
 * peers the new session does not bring up at all BMP_STALE_AFTER after the session began. A router
 * that does not come back within BMP_KEEP_AFTER_CLOSE has all its routes withdrawn; a restart of the
 * station remembers that wait (bmp_router_status).
 */
import { z } from "zod";
import net from "node:net";
import { hostname } from "node:os";
import type { BmpPeerStatus } from "~db/postgres/schema";
import { BmpFramingError } from "~/features/routing/bmp/errors";
import { BmpStreamDecoder } from "~/features/routing/bmp/stream-decoder";
import type { BmpMessage, BmpMessageName } from "~/features/routing/bmp/types";
import { RIB_VIEWS } from "~/features/routing/bmp/types";
import type { CompactRibRow } from "~/features/routing/mrt/rib-rows";
import { chQuery } from "~/server/clickhouse/query.server";
import type { ComponentContext, ComponentHealth, IngestComponent } from "~/server/components/contract.server";
import { TtlCache } from "~/server/bounded-maps.server";
import { incrementCounter, setGauge } from "~/server/metrics.server";
import type { Services } from "~/server/services.server";
import { requestRoutingRefresh } from "../enrich/routing-refresh.server";
import { normaliseExporter } from "../runtime/exporter-address";
import { heartbeatListener, removeListener } from "../runtime/exporter-stats.server";
import { BMP_METRICS, describeBmpMetrics } from "./metrics.server";
import { encodeRow } from "./rows";
import { BmpSession, type SessionSink } from "./session.server";
import { bmpSettings, type BmpSettings } from "./settings.server";
import { forgetUnknownSource, recordUnknownSource, routerForSource, vantagePointOfRouter, type BmpRouter } from "./sources.server";
import { bmpStatusRows, markRoutesWithdrawn, writeRouteCounts, writeRouterStatus, type RouterStatusUpdate } from "./status.server";
import { doorStore, type StationStore, type StationSweep } from "./store.server";
import { routeCountsSql } from "./sweep-sql";
import { WritePipeline } from "./write-pipeline.server";

/** The stream decoder of one session (the routing feature's BmpStreamDecoder). */
export type StreamDecoder = { push(chunk: Buffer): BmpMessage[]; end(): void };

export type StationOptions = {
  /** Where rows and sweeps go; default: rib_entries through the query door. */
  store?: (services: Services) => StationStore;
  /** The station's clock, Unix ms (tests move it). */
  now?: () => number;
  /** How often bmp_router_status and the listener's heartbeat are written. */
  statusIntervalMs?: number;
  /** How often the current routes are counted (flowlens_bmp_routes, the Data sources page). */
  routeCountIntervalMs?: number;
  decoder?: () => StreamDecoder;
};

export type StationTotals = {
  connections: number;
  refused: number;
  sessions: number;
  messages: number;
  decodeErrors: number;
  rowsQueued: number;
  rowsWritten: number;
  sweeps: number;
  sweepsSkipped: number;
  pauses: number;
  pendingRows: number;
  paused: boolean;
};

export type BmpStation = IngestComponent<BmpSettings> & {
  /** The TCP port it listens on (the system's pick for port 0); 0 when not listening. */
  port(): number;
  totals(): StationTotals;
  /** Writes everything queued, the routers' status and the route counts now (tests, shutdown). */
  settle(): Promise<void>;
};

type Connection = { socket: net.Socket; address: string; entry: RouterEntry | null; session: BmpSession | null; ready: boolean };

/** A router the station has heard from (now or before a restart), its session when one is open. */
type RouterEntry = {
  router: BmpRouter;
  connection: Connection | null;
  session: BmpSession | null;
  state: "up" | "closed";
  sessionStartedAt: Date;
  sessionClosedAt: Date | null;
  closeReason: string | null;
  keepTimer: NodeJS.Timeout | null;
  peerGoneTimer: NodeJS.Timeout | null;
  /** Figures since the last status write. */
  dirty: boolean;
  sessionsStarted: number;
  messages: Record<string, number>;
  decodeErrors: number;
  skipped: Record<string, number>;
  lastError: { text: string; at: Date } | null;
  sysName: string;
  sysDescr: string;
  /** The peers as the last session left them. */
  peersAtClose: BmpPeerStatus[] | null;
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

class RunningStation {
  private server: net.Server | null = null;
  private readonly connections = new Set<Connection>();
  private readonly routers = new Map<number, RouterEntry>();
  private readonly pipeline: WritePipeline<StationSweep>;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly now: () => number;
  private readonly startedAt: Date;
  private readonly stationName = `${hostname()} (pid ${process.pid})`;
  private listenText = "";
  private stopping = false;
  private statusWrite: Promise<void> | null = null;
  private counting: Promise<void> | null = null;
  /** The addresses whose refusal was logged in the last ten minutes: entries expire and are capped, so a scan of many addresses does not grow it. */
  private refusalLogged = new TtlCache<true>(600_000);
  private lastStoreErrorLogMs = 0;
  readonly totals = { connections: 0, refused: 0, messages: 0, decodeErrors: 0, rowsQueued: 0 };

  constructor(
    private readonly services: Services,
    private readonly context: ComponentContext<BmpSettings>,
    private readonly options: StationOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.startedAt = new Date(this.now());
    const { settings } = context;
    this.pipeline = new WritePipeline<StationSweep>({
      store: (options.store ?? doorStore)(services),
      batchRows: settings.batchRows,
      flushMs: settings.flushMs,
      highWaterRows: settings.queueRows,
      lowWaterRows: Math.floor(settings.queueRows / 2),
      onPause: () => this.pauseReading(),
      onResume: () => this.resumeReading(),
      onWritten: ({ vantagePoints, rows, sweep, swept }) => {
        if (rows) incrementCounter(BMP_METRICS.rowsWritten, rows);
        if (sweep && swept) incrementCounter(BMP_METRICS.sweeps, { reason: sweep.reason });
        if (sweep) sweep.done?.();
        // A collector in this process reads the changed tables again (debounced).
        if (rows || swept) for (const vantagePoint of vantagePoints) requestRoutingRefresh(vantagePoint);
      },
      onError: (error, attempt, what) => {
        // One line a minute at most: a store that is down fails every retry.
        if (this.now() - this.lastStoreErrorLogMs > 60_000) {
          this.lastStoreErrorLogMs = this.now();
          context.log.warn(`writing ${what} failed (attempt ${attempt}, retried; reading paused while rows pile up): ${errorText(error)}`);
        }
      },
    });
  }

  async start(): Promise<void> {
    const { settings, log } = this.context;
    describeBmpMetrics();
    setGauge(BMP_METRICS.sessions, 0);
    setGauge(BMP_METRICS.readingPaused, 0);
    await this.resumeWaits();
    const server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(settings.listen.port, settings.listen.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.on("error", (error) => log.error(`listener error: ${error.message}`));
    this.server = server;
    const bound = server.address() as net.AddressInfo;
    this.listenText = hostPort(bound.address, bound.port);
    await heartbeatListener(this.services.pg.db, this.listenerRow());
    this.every(this.options.statusIntervalMs ?? 5_000, () => void this.writeStatus());
    this.every(this.options.routeCountIntervalMs ?? 60_000, () => void this.countRoutes());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const connection of [...this.connections]) this.closeConnection(connection, "the station stopped");
    await closed;
    for (const entry of this.routers.values()) {
      if (entry.keepTimer) clearTimeout(entry.keepTimer);
      if (entry.peerGoneTimer) clearTimeout(entry.peerGoneTimer);
    }
    // Within the supervisor's 10 s: what the store has not taken by then is logged. The routers send their
    // tables again when they reconnect, and their End-of-RIB replaces what the station held.
    const left = await this.pipeline.drain(6_000);
    if (left) this.context.log.warn(`${left} routing rows not written at stop (the store did not take them in time)`);
    try {
      await this.writeStatus();
      await removeListener(this.services.pg.db, this.listenerRow());
    } catch (error) {
      this.context.log.warn(`BMP status not written at stop: ${errorText(error)}`);
    }
    setGauge(BMP_METRICS.sessions, 0);
  }

  health(): ComponentHealth {
    if (!this.server) return { ok: false, detail: this.stopping ? "stopped" : "not listening" };
    const sessions = [...this.routers.values()].filter((e) => e.session);
    const peers = sessions.reduce((n, e) => n + (e.session?.peersUp ?? 0), 0);
    const parts = [
      `listening on ${this.listenText} (TCP)`,
      `${sessions.length} ${sessions.length === 1 ? "session" : "sessions"}`,
      `${peers} ${peers === 1 ? "peer" : "peers"} up`,
      `${this.pipeline.pendingRows.toLocaleString("en-US")} rows waiting for the store`,
    ];
    if (this.pipeline.isPaused) parts.push("reading paused: the store is behind");
    return { ok: true, detail: parts.join(", ") };
  }

  port(): number {
    const address = this.server?.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  stationTotals(): StationTotals {
    const t = this.pipeline.totals;
    return {
      ...this.totals,
      sessions: [...this.routers.values()].filter((e) => e.session).length,
      rowsWritten: t.rowsWritten,
      sweeps: t.sweeps,
      sweepsSkipped: t.sweepsSkipped,
      pauses: t.pauses,
      pendingRows: this.pipeline.pendingRows,
      paused: this.pipeline.isPaused,
    };
  }

  async settle(): Promise<void> {
    const left = await this.pipeline.drain(60_000);
    if (left) throw new Error(`${left} rows still waiting for the store`);
    await this.writeStatus();
    await this.countRoutes();
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private listenerRow() {
    return { component: "bmp", address: this.listenText, host: hostname(), pid: process.pid, startedAt: this.startedAt };
  }

  // Sessions

  private accept(socket: net.Socket): void {
    // Nothing is read until the router is known (and not while the store is behind).
    socket.pause();
    const address = normaliseExporter(socket.remoteAddress ?? "");
    const connection: Connection = { socket, address, entry: null, session: null, ready: false };
    this.totals.connections++;
    this.connections.add(connection);
    socket.on("error", (error) => {
      if (connection.entry) this.noteError(connection.entry, `connection error: ${error.message}`);
    });
    socket.on("close", () => this.closed(connection, "the router closed the connection"));
    void this.identify(connection).catch((error) => {
      this.context.log.error(`BMP connection from ${address}: ${errorText(error)}`);
      socket.destroy();
    });
  }

  private async identify(connection: Connection): Promise<void> {
    const { socket, address } = connection;
    const known = await routerForSource(this.services.pg.db, address);
    if (socket.destroyed || this.stopping) return;
    if (!known) {
      socket.destroy();
      this.totals.refused++;
      incrementCounter(BMP_METRICS.refused);
      if (!this.refusalLogged.get(address, this.now())) {
        this.refusalLogged.set(address, true, this.now());
        this.context.log.warn(
          `refused a BMP session from ${address}: no router of the inventory has this loopback or exporter address (listed on the Data sources page to adopt)`,
        );
      }
      await recordUnknownSource(this.services.pg.db, address, new Date(this.now()));
      return;
    }
    const vantagePoint = await vantagePointOfRouter(this.services, known.name);
    await forgetUnknownSource(this.services.pg.db, address);
    if (socket.destroyed || this.stopping) return;
    this.open(connection, { id: known.id, name: known.name, address, vantagePoint });
  }

  private open(connection: Connection, router: BmpRouter): void {
    let entry = this.routers.get(router.id);
    const previous = entry?.connection ?? null;
    if (!entry) {
      entry = this.newEntry(router);
      this.routers.set(router.id, entry);
    }
    entry.router = router;
    if (entry.keepTimer) clearTimeout(entry.keepTimer);
    entry.keepTimer = null;
    if (entry.peerGoneTimer) clearTimeout(entry.peerGoneTimer);
    const session = new BmpSession(router, this.sinkOf(entry), { staleAfterMs: this.context.settings.staleAfterMs, now: this.now });
    entry.connection = connection;
    entry.session = session;
    entry.state = "up";
    entry.sessionStartedAt = new Date(session.startedAt * 1000);
    entry.sessionClosedAt = null;
    entry.closeReason = null;
    entry.peersAtClose = null;
    entry.dirty = true;
    entry.sessionsStarted++;
    connection.entry = entry;
    connection.session = session;
    connection.ready = true;
    // A router that opens a new session while its old one still looks open: the new one is the router's word.
    if (previous) this.closeConnection(previous, "replaced by a new session from the router");
    // The peers of an earlier session that this one never brings up: their routes go after BMP_STALE_AFTER.
    entry.peerGoneTimer = setTimeout(() => {
      entry.peerGoneTimer = null;
      if (entry.session !== session) return;
      this.pipeline.addSweep(
        {
          scope: {
            vantagePoint: router.vantagePoint,
            routerIp: router.address,
            views: RIB_VIEWS,
            before: session.startedAt,
            keepPeers: session.keepPeers(),
          },
          at: Math.floor(this.now() / 1000),
          label: `routes of peers of ${router.name} that its new session did not bring up`,
          reason: "peer-gone",
        },
        router.vantagePoint,
        `peers gone of ${router.name}`,
      );
    }, this.context.settings.staleAfterMs);
    entry.peerGoneTimer.unref();
    this.updateSessionGauge();
    this.context.log.info(`BMP session from ${router.name} (${router.address}), vantage point ${router.vantagePoint}`);

    const decoder = (this.options.decoder ?? (() => new BmpStreamDecoder()))();
    const { socket } = connection;
    socket.on("data", (chunk: Buffer) => this.received(connection, decoder, chunk));
    socket.on("end", () => {
      try {
        decoder.end();
      } catch (error) {
        this.framingError(connection, error);
        return;
      }
      socket.end();
    });
    if (!this.pipeline.isPaused) socket.resume();
  }

  private newEntry(router: BmpRouter): RouterEntry {
    return {
      router,
      connection: null,
      session: null,
      state: "closed",
      sessionStartedAt: new Date(this.now()),
      sessionClosedAt: null,
      closeReason: null,
      keepTimer: null,
      peerGoneTimer: null,
      dirty: false,
      sessionsStarted: 0,
      messages: {},
      decodeErrors: 0,
      skipped: {},
      lastError: null,
      sysName: "",
      sysDescr: "",
      peersAtClose: null,
    };
  }

  private received(connection: Connection, decoder: StreamDecoder, chunk: Buffer): void {
    const session = connection.session;
    if (!session) return;
    let messages: BmpMessage[];
    let failure: unknown = null;
    try {
      messages = decoder.push(chunk);
    } catch (error) {
      // The whole messages before the bad bytes still count.
      messages = error instanceof BmpFramingError ? error.decoded : [];
      failure = error;
    }
    const at = Math.floor(this.now() / 1000);
    for (const message of messages) {
      try {
        session.handle(message, at);
      } catch (error) {
        // A bug must cost one message, not the station.
        if (connection.entry) this.noteDecodeError(connection.entry, `${message.kind} message not handled: ${errorText(error)}`);
      }
    }
    if (failure) this.framingError(connection, failure);
  }

  private framingError(connection: Connection, error: unknown): void {
    const entry = connection.entry;
    const reason = error instanceof BmpFramingError ? error.message : `decoder failure: ${errorText(error)}`;
    const name = entry ? `${entry.router.name} (${connection.address})` : connection.address;
    this.context.log.warn(`BMP session of ${name} closed: ${reason}`);
    if (entry) this.noteDecodeError(entry, reason);
    this.closeConnection(connection, reason);
  }

  private closeConnection(connection: Connection, reason: string): void {
    this.closed(connection, reason);
    connection.socket.destroy();
  }

  /** The connection ended (once per connection: the first reason given is kept). */
  private closed(connection: Connection, reason: string): void {
    if (!this.connections.delete(connection)) return;
    const entry = connection.entry;
    const session = connection.session;
    if (!entry || !session) return;
    session.close();
    if (entry.connection !== connection) return; // replaced by a newer session of the router
    entry.connection = null;
    entry.session = null;
    entry.state = "closed";
    entry.sessionClosedAt = new Date(this.now());
    entry.closeReason = session.terminationReason ? `terminated by the router: ${session.terminationReason}` : reason;
    entry.sysName = session.sysName || entry.sysName;
    entry.sysDescr = session.sysDescr || entry.sysDescr;
    entry.peersAtClose = session.peerStatus();
    entry.dirty = true;
    if (entry.peerGoneTimer) clearTimeout(entry.peerGoneTimer);
    entry.peerGoneTimer = null;
    this.updateSessionGauge();
    if (!this.stopping) {
      this.context.log.info(`BMP session of ${entry.router.name} (${entry.router.address}) ended: ${entry.closeReason}`);
      this.waitForReturn(entry, this.context.settings.keepAfterCloseMs);
    }
  }

  /** The router's routes stay for `ms`; if no session of it is open by then, they are withdrawn. */
  private waitForReturn(entry: RouterEntry, ms: number): void {
    if (entry.keepTimer) clearTimeout(entry.keepTimer);
    entry.keepTimer = setTimeout(() => {
      entry.keepTimer = null;
      if (entry.session || this.stopping) return;
      const { router } = entry;
      this.context.log.info(`${router.name} did not come back within BMP_KEEP_AFTER_CLOSE: its routes are withdrawn`);
      this.pipeline.addSweep(
        {
          scope: { vantagePoint: router.vantagePoint, routerIp: router.address, views: RIB_VIEWS },
          at: Math.floor(this.now() / 1000),
          label: `routes of ${router.name} (gone)`,
          reason: "router-gone",
          done: () =>
            void markRoutesWithdrawn(this.services.pg.db, router.id).catch((error) =>
              this.context.log.warn(`BMP status of ${router.name} not written: ${errorText(error)}`),
            ),
        },
        router.vantagePoint,
        `routes of ${router.name} (gone)`,
      );
    }, ms);
    entry.keepTimer.unref();
  }

  /** After a restart: routers whose routes were kept when their session closed wait out the rest of BMP_KEEP_AFTER_CLOSE. */
  private async resumeWaits(): Promise<void> {
    const keep = this.context.settings.keepAfterCloseMs;
    for (const row of await bmpStatusRows(this.services.pg.db)) {
      if (row.routesWithdrawn) continue;
      const router: BmpRouter = { id: row.routerId, name: row.router, address: row.address, vantagePoint: row.vantagePoint };
      const entry = this.newEntry(router);
      // A session still "up" in the table was open when the previous process ended: it closed then.
      entry.sessionStartedAt = row.sessionStartedAt;
      entry.sessionClosedAt = row.state === "up" ? row.updatedAt : (row.sessionClosedAt ?? row.updatedAt);
      entry.closeReason = row.state === "up" ? "the station stopped" : row.closeReason;
      entry.dirty = row.state === "up";
      entry.peersAtClose = row.peers;
      this.routers.set(router.id, entry);
      this.waitForReturn(entry, Math.max(0, entry.sessionClosedAt.getTime() + keep - this.now()));
    }
  }

  private sinkOf(entry: RouterEntry): SessionSink {
    return {
      rows: (rows: CompactRibRow[], vantagePoint: string) => {
        this.totals.rowsQueued += rows.length;
        this.pipeline.addRows(rows.map(encodeRow), vantagePoint);
      },
      sweep: (scope, at, label, reason) => {
        this.pipeline.addSweep({ scope, at, label, reason }, scope.vantagePoint, label);
      },
      message: (name: BmpMessageName) => {
        this.totals.messages++;
        incrementCounter(BMP_METRICS.messages, { type: name });
        entry.messages[name] = (entry.messages[name] ?? 0) + 1;
        entry.dirty = true;
      },
      decodeError: (text) => this.noteDecodeError(entry, text),
      skipped: (what) => {
        incrementCounter(BMP_METRICS.skipped, { what });
        entry.skipped[what] = (entry.skipped[what] ?? 0) + 1;
        entry.dirty = true;
      },
      changed: () => (entry.dirty = true),
    };
  }

  private noteDecodeError(entry: RouterEntry, text: string): void {
    this.totals.decodeErrors++;
    incrementCounter(BMP_METRICS.decodeErrors);
    entry.decodeErrors++;
    this.noteError(entry, text);
  }

  private noteError(entry: RouterEntry, text: string): void {
    entry.lastError = { text: text.slice(0, 500), at: new Date(this.now()) };
    entry.dirty = true;
  }

  private updateSessionGauge(): void {
    setGauge(BMP_METRICS.sessions, [...this.routers.values()].filter((e) => e.session).length);
  }

  // Back-pressure

  private pauseReading(): void {
    setGauge(BMP_METRICS.readingPaused, 1);
    for (const connection of this.connections) connection.socket.pause();
  }

  private resumeReading(): void {
    setGauge(BMP_METRICS.readingPaused, 0);
    for (const connection of this.connections) if (connection.ready) connection.socket.resume();
  }

  // Figures

  private writeStatus(): Promise<void> {
    this.statusWrite ??= this.writeStatusNow().finally(() => (this.statusWrite = null));
    return this.statusWrite;
  }

  private async writeStatusNow(): Promise<void> {
    setGauge(BMP_METRICS.rowsPending, this.pipeline.pendingRows);
    const dirty = [...this.routers.values()].filter((e) => e.dirty);
    const updates: RouterStatusUpdate[] = dirty.map((entry) => {
      const session = entry.session;
      return {
        routerId: entry.router.id,
        vantagePoint: entry.router.vantagePoint,
        address: entry.router.address,
        station: this.stationName,
        state: this.stopping && session ? "closed" : entry.state,
        sysName: session?.sysName || entry.sysName,
        sysDescr: session?.sysDescr || entry.sysDescr,
        sessionsStarted: entry.sessionsStarted,
        sessionStartedAt: entry.sessionStartedAt,
        sessionClosedAt: this.stopping && session ? new Date(this.now()) : entry.sessionClosedAt,
        closeReason: this.stopping && session ? "the station stopped" : entry.closeReason,
        peers: session?.peerStatus() ?? entry.peersAtClose ?? [],
        messages: entry.messages,
        decodeErrors: entry.decodeErrors,
        skipped: entry.skipped,
        lastError: entry.lastError,
      };
    });
    // Taken now; given back if the write fails, so nothing counted is lost.
    for (const entry of dirty)
      Object.assign(entry, { dirty: false, sessionsStarted: 0, messages: {}, decodeErrors: 0, skipped: {}, lastError: null });
    try {
      if (updates.length) await writeRouterStatus(this.services.pg.db, updates);
      if (!this.stopping) await heartbeatListener(this.services.pg.db, this.listenerRow());
    } catch (error) {
      updates.forEach((u, i) => {
        const entry = dirty[i];
        entry.dirty = true;
        entry.sessionsStarted += u.sessionsStarted;
        entry.decodeErrors += u.decodeErrors;
        for (const [k, n] of Object.entries(u.messages)) entry.messages[k] = (entry.messages[k] ?? 0) + n;
        for (const [k, n] of Object.entries(u.skipped)) entry.skipped[k] = (entry.skipped[k] ?? 0) + n;
        entry.lastError ??= u.lastError;
      });
      this.context.log.warn(`BMP status not written to PostgreSQL (kept for the next try): ${errorText(error)}`);
    }
  }

  /** The current routes of every router the station knows, per view and per peer: flowlens_bmp_routes and the status. */
  private countRoutes(): Promise<void> {
    this.counting ??= this.countRoutesNow()
      .catch((error) => this.context.log.warn(`routes not counted: ${errorText(error)}`))
      .finally(() => (this.counting = null));
    return this.counting;
  }

  private async countRoutesNow(): Promise<void> {
    const entries = [...this.routers.values()];
    if (!entries.length) return;
    const rows = await chQuery(this.services.ch, {
      ...routeCountsSql([...new Set(entries.map((e) => e.router.vantagePoint))].sort()),
      schema: z.object({ vp: z.string(), router: z.string(), peer: z.string(), view: z.string(), routes: z.number() }),
    });
    const at = new Date(this.now());
    for (const entry of entries) {
      const { router } = entry;
      const routes: Record<string, number> = Object.fromEntries(RIB_VIEWS.map((v) => [v, 0]));
      const peerRoutes: Record<string, Record<string, number>> = {};
      for (const row of rows) {
        if (row.vp !== router.vantagePoint || row.router !== router.address) continue;
        const n = Number(row.routes);
        routes[row.view] = (routes[row.view] ?? 0) + n;
        (peerRoutes[row.peer] ??= {})[row.view] = n;
      }
      for (const view of RIB_VIEWS) setGauge(BMP_METRICS.routes, routes[view], { router: router.name, view });
      await writeRouteCounts(this.services.pg.db, router.id, routes, peerRoutes, at);
    }
  }
}

/** The BMP station component (its variables are BMP_…). */
export function bmpStation(options: StationOptions = {}): BmpStation {
  let running: RunningStation | null = null;
  let last: RunningStation | null = null;
  const empty: StationTotals = {
    connections: 0,
    refused: 0,
    sessions: 0,
    messages: 0,
    decodeErrors: 0,
    rowsQueued: 0,
    rowsWritten: 0,
    sweeps: 0,
    sweepsSkipped: 0,
    pauses: 0,
    pendingRows: 0,
    paused: false,
  };
  return {
    name: "bmp",
    configure: bmpSettings,
    async start(services, context) {
      const station = new RunningStation(services, context, options);
      try {
        await station.start();
      } catch (error) {
        await station.stop().catch(() => {});
        throw error;
      }
      running = last = station;
    },
    async stop() {
      const station = running;
      running = null;
      await station?.stop();
    },
    health: () => running?.health() ?? { ok: false, detail: "not running" },
    port: () => running?.port() ?? 0,
    totals: () => last?.stationTotals() ?? { ...empty },
    settle: async () => {
      if (running) await running.settle();
    },
  };
}

/** BMP_LISTEN. */
export const bmp = bmpStation();
