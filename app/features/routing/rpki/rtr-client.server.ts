/**
 * The `rpki-rtr` ingest component: an RPKI to Router client (RFC 8210 version 1, falling back to
 * version 0 of RFC 6810 when the cache answers "Unsupported Protocol Version") that keeps the 'rtr'
 * VRP set of rpki_vrps equal to what a validating cache (Routinator, rpki-client with StayRTR,
 * FORT, …) holds. Off unless RPKI_RTR_CACHE=host:port is set; runs where the ingest components run.
 *
 * - A session starts with a Reset Query (or, when the process stored a session id and serial of
 *   this cache that have not expired, a Serial Query); the Cache Response's Prefix PDUs build the
 *   set, and each End of Data writes it in one transaction: the whole set after a reset, the
 *   announcements and withdrawals after a serial query. The refresh, retry and expire intervals
 *   of the End of Data (version 1; version 0: 3600, 600, 7200 s) schedule the next Serial Query,
 *   the reconnection's longest back-off, and when data without a successful refresh is dropped.
 * - Serial Notify asks for the update at once; Cache Reset is answered with a Reset Query; an Error
 *   Report is logged (No Data Available: asked again after the retry interval; any other: the
 *   session ends and the next starts with a Reset Query). Router Key and ASPA PDUs are skipped.
 * - A malformed or unknown PDU, a duplicate announcement, a withdrawal of an unknown VRP or a PDU of
 *   another protocol version is answered with an Error Report; the connection is closed and opened
 *   again after a back-off (1 s, doubling, at most the retry interval). The stored set stays until a
 *   new one is complete, unless it expires meanwhile.
 */
import net from "node:net";
import { ConfigError } from "~/server/env.server";
import type { ComponentContext, ComponentEnv, IngestComponent } from "~/server/components/contract.server";
import type { Services } from "~/server/services.server";
import { formatNetwork } from "~/lib/ip";
import { parsePrefix } from "./roa-index";
import {
  encodeErrorReport,
  encodeResetQuery,
  encodeSerialQuery,
  decodePdu,
  errorName,
  RTR_ERROR,
  RtrDecodeError,
  RtrFramer,
  type RtrPdu,
} from "./rtr-pdu";
import {
  dropRtrSet,
  readRtrSet,
  recordRtrConnection,
  rtrSetExpired,
  writeRtrSet,
  type RtrSourceState,
  type StoredVrp,
} from "./vrp-store.server";

export type RtrSettings = {
  host: string;
  port: number;
  /** First reconnection delay; it doubles up to maxBackoffMs (and at most the cache's retry interval). */
  minBackoffMs: number;
  maxBackoffMs: number;
  /** A query without any answer for this long ends the connection. */
  responseTimeoutMs: number;
  connectTimeoutMs: number;
  /** How often the expiry of the data is checked. */
  expiryCheckMs: number;
};

/** RFC 8210 §6 defaults, used with version 0 (whose End of Data has no intervals). */
export const DEFAULT_INTERVALS = { refresh: 3600, retry: 600, expire: 7200 } as const;

export const DEFAULT_RTR_SETTINGS = {
  minBackoffMs: 1000,
  maxBackoffMs: 300_000,
  responseTimeoutMs: 120_000,
  connectTimeoutMs: 10_000,
  expiryCheckMs: 10_000,
} as const;

/** RPKI_RTR_CACHE=host:port ([IPv6]:port) → the settings; unset → off. */
export function rtrSettings(env: ComponentEnv): RtrSettings | null {
  const value = env.get("CACHE");
  if (value === undefined) return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port < 1 || port > 65535)
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}CACHE: expected the RTR cache as host:port or [IPv6]:port (got "${value}")`,
    );
  return { host: match[1] ?? match[2], port, ...DEFAULT_RTR_SETTINGS };
}

const cacheLabel = (s: Pick<RtrSettings, "host" | "port">) => (s.host.includes(":") ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`);

/**
 * The client keeps its set as texts "prefix maxLength asn" only (about 150 bytes a VRP rather than
 * nearly 300 as objects): a full set is half a million of them.
 */
const vrpKey = (v: Pick<StoredVrp, "prefix" | "maxLength" | "asn">) => `${v.prefix} ${v.maxLength} ${v.asn}`;
function fromKey(key: string): StoredVrp {
  const [prefix, maxLength, asn] = key.split(" ");
  return { prefix, maxLength: Number(maxLength), asn: Number(asn), trustAnchor: "" };
}

/** A prefix text in the spelling the client keys its set by (PostgreSQL's cidr text may differ for IPv6). */
function canonicalPrefix(text: string): string {
  const route = parsePrefix(text);
  if (!route || route.version === 4) return text;
  return formatNetwork({ version: 6, value: route.value, length: route.length, hasLength: true });
}

type Response = {
  kind: "reset" | "serial";
  sessionId: number;
  /** Changes against the committed set (reset: against nothing). */
  announced: Set<string>;
  withdrawn: Set<string>;
};

type Log = ComponentContext<unknown>["log"];
type Metrics = ComponentContext<unknown>["metrics"];

/** Ends the handling of the stream: the connection is closed (after an Error Report when `code` is set). */
class SessionEnd extends Error {
  constructor(
    message: string,
    readonly options: { code?: number; pdu?: Buffer; forgetSession?: boolean; flush?: boolean; quickReconnect?: boolean } = {},
  ) {
    super(message);
  }
}

export class RtrClient {
  private version = 1;
  /** A PDU of the version asked for arrived: the version is agreed and a lower one is an error from now on. */
  private versionAgreed = false;
  private sessionId: number | null = null;
  private serial: number | null = null;
  private intervals: { refresh: number; retry: number; expire: number } = { ...DEFAULT_INTERVALS };
  private committed = new Set<string>();
  private lastSuccess: number | null = null;

  private socket: net.Socket | null = null;
  private connected = false;
  private framer = new RtrFramer();
  private response: Response | null = null;
  private awaiting: "reset" | "serial" | null = null;
  private pumping = false;
  private work: Promise<void> = Promise.resolve();
  private stopped = false;
  private attempts = 0;
  private timers: Record<"reconnect" | "refresh" | "response" | "expiry" | "retry", ReturnType<typeof setTimeout> | null> = {
    reconnect: null,
    refresh: null,
    response: null,
    expiry: null,
    retry: null,
  };
  readonly stats = { connections: 0, pdus: 0, resets: 0, updates: 0, errors: 0, lastError: "" };

  constructor(
    private readonly services: Pick<Services, "pg">,
    private readonly settings: RtrSettings,
    private readonly log: Log,
    private readonly metrics: Metrics = { increment: () => {}, duration: () => {} },
  ) {}

  get cache(): string {
    return cacheLabel(this.settings);
  }

  /** Loads what an earlier run stored (to resume with a Serial Query), then connects; resolves at once. */
  async start(): Promise<void> {
    const { state, vrps } = await readRtrSet(this.services);
    if (state && state.cache && state.cache !== this.cache && state.vrpCount > 0) {
      await dropRtrSet(this.services, `The RTR cache changed from ${state.cache} to ${this.cache}.`);
    } else if (state && rtrSetExpired(state, Date.now(), DEFAULT_INTERVALS.expire)) {
      if (state.vrpCount > 0) await dropRtrSet(this.services, "The RTR data expired before this start.");
    } else if (state && state.cache === this.cache && state.sessionId !== null && state.serial !== null && state.lastSuccessAt) {
      this.sessionId = state.sessionId;
      this.serial = state.serial;
      this.version = state.protocolVersion ?? 1;
      this.lastSuccess = state.lastSuccessAt.getTime();
      this.intervals = {
        refresh: state.refreshSeconds ?? DEFAULT_INTERVALS.refresh,
        retry: state.retrySeconds ?? DEFAULT_INTERVALS.retry,
        expire: state.expireSeconds ?? DEFAULT_INTERVALS.expire,
      };
      for (const vrp of vrps) {
        const v = { ...vrp, prefix: canonicalPrefix(vrp.prefix) };
        this.committed.add(vrpKey(v));
      }
    }
    this.scheduleExpiryCheck();
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const name of Object.keys(this.timers) as (keyof typeof this.timers)[]) this.clearTimer(name);
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    await this.work.catch(() => {});
    if (this.connected) {
      this.connected = false;
      await recordRtrConnection(this.services, { cache: this.cache, connected: false }).catch(() => {});
    }
  }

  health(): { ok: boolean; detail: string } {
    const data = `${this.committed.size} VRPs${this.serial !== null ? `, session ${this.sessionId} serial ${this.serial}` : ""}`;
    if (this.connected) return { ok: true, detail: `connected to ${this.cache} (RTR version ${this.version}), ${data}` };
    return { ok: false, detail: `not connected to ${this.cache}${this.stats.lastError ? ` (${this.stats.lastError})` : ""}, ${data}` };
  }

  /** The VRPs of the current set (for tests and the health detail). */
  get size(): number {
    return this.committed.size;
  }

  get state(): { version: number; sessionId: number | null; serial: number | null } {
    return { version: this.version, sessionId: this.sessionId, serial: this.serial };
  }

  // -------------------------------------------------------------------------------------------

  private clearTimer(name: keyof typeof this.timers): void {
    const timer = this.timers[name];
    if (timer) clearTimeout(timer);
    this.timers[name] = null;
  }

  private setTimer(name: keyof typeof this.timers, ms: number, run: () => void): void {
    this.clearTimer(name);
    const timer = setTimeout(() => {
      this.timers[name] = null;
      run();
    }, ms);
    timer.unref();
    this.timers[name] = timer;
  }

  /** Runs store work one after the other (writes of End of Data, connection records, expiry); never rejects. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    this.work = this.work.then(task).catch((error) => this.log.error(`store: ${error instanceof Error ? error.message : String(error)}`));
    return this.work;
  }

  private connect(): void {
    if (this.stopped) return;
    this.framer = new RtrFramer();
    this.response = null;
    this.awaiting = null;
    this.versionAgreed = false;
    const socket = net.connect({ host: this.settings.host, port: this.settings.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.settings.connectTimeoutMs, () => socket.destroy(new Error("connection timed out")));
    let closedError: Error | null = null;
    socket.on("connect", () => {
      socket.setTimeout(0);
      this.connected = true;
      this.stats.connections += 1;
      this.metrics.increment("connections");
      this.log.info(`connected to ${this.cache}, RTR version ${this.version}`);
      void this.enqueue(() => recordRtrConnection(this.services, { cache: this.cache, connected: true, protocolVersion: this.version }));
      this.query();
    });
    socket.on("data", (chunk: Buffer) => {
      this.framer.push(chunk);
      // Any progress of the answer keeps the connection: a full set is several hundred thousand PDUs.
      if (this.awaiting) this.armResponseTimer();
      void this.pump(socket);
    });
    socket.on("error", (error) => (closedError = error));
    socket.on("close", () => {
      // A connection this side ended (end(), stop()) was dealt with there.
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimer("response");
      this.clearTimer("retry");
      this.clearTimer("refresh");
      const wasConnected = this.connected;
      this.connected = false;
      if (this.stopped) return;
      const reason = closedError ? closedError.message : "the cache closed the connection";
      if (closedError || !wasConnected) this.noteError(`${this.cache}: ${reason}`);
      else this.log.warn(`${this.cache}: ${reason}`);
      void this.enqueue(() =>
        recordRtrConnection(this.services, {
          cache: this.cache,
          connected: false,
          ...(closedError || !wasConnected ? { error: `${reason}` } : {}),
        }),
      );
      this.scheduleReconnect();
    });
  }

  private noteError(message: string): void {
    this.stats.errors += 1;
    this.stats.lastError = message;
    this.metrics.increment("errors");
    this.log.warn(message);
  }

  private scheduleReconnect(quick = false): void {
    if (this.stopped || this.timers.reconnect) return;
    const cap = Math.min(this.settings.maxBackoffMs, this.intervals.retry * 1000);
    const delay = quick ? this.settings.minBackoffMs : Math.min(cap, this.settings.minBackoffMs * 2 ** Math.min(this.attempts, 20));
    this.attempts += 1;
    this.setTimer("reconnect", delay, () => this.connect());
  }

  private send(bytes: Buffer): void {
    this.socket?.write(bytes);
  }

  /** Asks for the set: incremental when a session and serial are known, whole otherwise. */
  private query(): void {
    if (!this.connected || this.awaiting) return;
    this.clearTimer("refresh");
    this.clearTimer("retry");
    if (this.sessionId !== null && this.serial !== null) {
      this.awaiting = "serial";
      this.send(encodeSerialQuery(this.version, this.sessionId, this.serial));
    } else {
      this.awaiting = "reset";
      this.send(encodeResetQuery(this.version));
    }
    this.armResponseTimer();
  }

  private armResponseTimer(): void {
    this.setTimer("response", this.settings.responseTimeoutMs, () => {
      this.noteError(`${this.cache}: no answer within ${Math.round(this.settings.responseTimeoutMs / 1000)} s`);
      this.socket?.destroy();
    });
  }

  /** Reads the PDUs that arrived, one at a time; the socket pauses while an End of Data is written. */
  private async pump(socket: net.Socket): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.socket === socket && !this.stopped) {
        let pdu: RtrPdu | null;
        let raw: Buffer | null = null;
        try {
          raw = this.framer.nextRaw();
          if (!raw) break;
          pdu = decodePdu(raw);
        } catch (error) {
          if (error instanceof RtrDecodeError) {
            this.end(socket, new SessionEnd(`malformed PDU: ${error.message}`, { code: error.code, pdu: error.pdu, forgetSession: true }));
            break;
          }
          throw error;
        }
        this.stats.pdus += 1;
        try {
          const wait = this.handle(pdu, raw);
          if (wait) {
            socket.pause();
            try {
              await wait;
            } finally {
              if (this.socket === socket) socket.resume();
            }
          }
        } catch (error) {
          if (error instanceof SessionEnd) {
            this.end(socket, error);
            break;
          }
          throw error;
        }
      }
    } catch (error) {
      this.end(socket, new SessionEnd(`internal error: ${error instanceof Error ? error.message : String(error)}`, {}));
    } finally {
      this.pumping = false;
    }
  }

  /** Ends the session: an Error Report first when asked, then the connection closes and is opened again later. */
  private end(socket: net.Socket, reason: SessionEnd): void {
    const { code, pdu, forgetSession, flush, quickReconnect } = reason.options;
    this.noteError(`${this.cache}: ${reason.message}${code !== undefined ? ` (answered with Error Report "${errorName(code)}")` : ""}`);
    if (code !== undefined && !socket.destroyed)
      socket.write(encodeErrorReport(this.version, code, pdu ?? Buffer.alloc(0), reason.message));
    if (forgetSession) {
      // The next session starts from a whole set; the stored one stays until that is complete.
      this.sessionId = null;
      this.serial = null;
    }
    this.response = null;
    this.awaiting = null;
    if (flush) {
      this.committed.clear();
      void this.enqueue(async () => void (await dropRtrSet(this.services, reason.message)));
    }
    const message = reason.message;
    void this.enqueue(() => recordRtrConnection(this.services, { cache: this.cache, connected: false, error: message }));
    if (quickReconnect) this.attempts = 0;
    this.socket = null;
    this.connected = false;
    this.clearTimer("response");
    this.clearTimer("retry");
    this.clearTimer("refresh");
    socket.end(() => socket.destroy());
    // A cache that reads nothing more would keep the socket half open: it goes in any case.
    setTimeout(() => socket.destroy(), 5000).unref();
    this.scheduleReconnect(quickReconnect);
  }

  /** Handles one PDU; a promise when the stream must wait for it (an End of Data being written). */
  private handle(pdu: RtrPdu, raw: Buffer): Promise<void> | null {
    if (pdu.version !== this.version) {
      const unsupported = pdu.type === "error-report" && pdu.code === RTR_ERROR.UNSUPPORTED_PROTOCOL_VERSION;
      if (this.version > 0 && !this.versionAgreed && (unsupported || pdu.version < this.version)) {
        const from = this.version;
        this.version = Math.min(this.version - 1, pdu.version);
        this.log.info(`${this.cache} does not speak RTR version ${from}: falling back to version ${this.version}`);
        // The cache ends the session after that error; this side ends it too and asks again at once.
        throw new SessionEnd(`the cache answered with RTR version ${pdu.version}: asking again with version ${this.version}`, {
          quickReconnect: true,
        });
      }
      throw new SessionEnd(`PDU of RTR version ${pdu.version} in a version ${this.version} session`, {
        code: RTR_ERROR.UNEXPECTED_PROTOCOL_VERSION,
        pdu: raw,
        forgetSession: true,
      });
    }
    this.versionAgreed = true;
    switch (pdu.type) {
      case "serial-notify":
        if (this.sessionId !== null && pdu.sessionId !== this.sessionId) throw this.sessionMismatch(pdu.sessionId, raw);
        // Answered only between queries: a notify during an answer is covered by it.
        if (!this.awaiting) this.query();
        return null;
      case "cache-response":
        if (!this.awaiting || this.response)
          throw new SessionEnd("Cache Response without a query", { code: RTR_ERROR.CORRUPT_DATA, pdu: raw, forgetSession: true });
        if (this.awaiting === "serial" && pdu.sessionId !== this.sessionId) throw this.sessionMismatch(pdu.sessionId, raw);
        this.response = { kind: this.awaiting, sessionId: pdu.sessionId, announced: new Set(), withdrawn: new Set() };
        return null;
      case "prefix":
        this.applyPrefix(pdu, raw);
        return null;
      case "end-of-data":
        return this.endOfData(pdu, raw);
      case "cache-reset":
        if (this.awaiting !== "serial" || this.response)
          throw new SessionEnd("Cache Reset without a Serial Query", { code: RTR_ERROR.CORRUPT_DATA, pdu: raw, forgetSession: true });
        this.log.info(`${this.cache} cannot send the changes since serial ${this.serial} (Cache Reset): asking for the whole set`);
        this.awaiting = null;
        this.sessionId = null;
        this.serial = null;
        this.query();
        return null;
      case "error-report":
        return this.errorReport(pdu);
      case "skipped":
        return null;
      case "serial-query":
      case "reset-query":
        throw new SessionEnd("the cache sent a query", { code: RTR_ERROR.INVALID_REQUEST, pdu: raw });
    }
  }

  private sessionMismatch(sessionId: number, raw: Buffer): SessionEnd {
    // RFC 8210 §5.1: the router flushes what it learned from the cache and starts over.
    return new SessionEnd(`the cache's session id changed from ${this.sessionId} to ${sessionId}`, {
      code: RTR_ERROR.CORRUPT_DATA,
      pdu: raw,
      forgetSession: true,
      flush: true,
    });
  }

  private applyPrefix(pdu: Extract<RtrPdu, { type: "prefix" }>, raw: Buffer): void {
    const response = this.response;
    if (!response)
      throw new SessionEnd("Prefix PDU outside a Cache Response", { code: RTR_ERROR.CORRUPT_DATA, pdu: raw, forgetSession: true });
    const key = vrpKey(pdu.vrp);
    const inBase = response.kind === "serial" && this.committed.has(key);
    if (pdu.announce) {
      if (response.announced.has(key) || (inBase && !response.withdrawn.has(key)))
        throw new SessionEnd(`duplicate announcement of ${key}`, { code: RTR_ERROR.DUPLICATE_ANNOUNCEMENT, pdu: raw, forgetSession: true });
      if (response.withdrawn.has(key)) response.withdrawn.delete(key);
      else response.announced.add(key);
    } else {
      if (response.announced.has(key)) response.announced.delete(key);
      else if (inBase && !response.withdrawn.has(key)) response.withdrawn.add(key);
      else
        throw new SessionEnd(`withdrawal of ${key}, which is not in the set`, {
          code: RTR_ERROR.WITHDRAWAL_OF_UNKNOWN_RECORD,
          pdu: raw,
          forgetSession: true,
        });
    }
  }

  private endOfData(pdu: Extract<RtrPdu, { type: "end-of-data" }>, raw: Buffer): Promise<void> {
    const response = this.response;
    if (!response)
      throw new SessionEnd("End of Data without a Cache Response", { code: RTR_ERROR.CORRUPT_DATA, pdu: raw, forgetSession: true });
    if (pdu.sessionId !== response.sessionId) throw this.sessionMismatch(pdu.sessionId, raw);
    const intervals = pdu.intervals ?? { ...DEFAULT_INTERVALS };
    const state: RtrSourceState = {
      cache: this.cache,
      sessionId: pdu.sessionId,
      serial: pdu.serial,
      protocolVersion: this.version,
      refreshSeconds: intervals.refresh,
      retrySeconds: intervals.retry,
      expireSeconds: intervals.expire,
    };
    const started = Date.now();
    const changes =
      response.kind === "reset"
        ? { full: [...response.announced].map(fromKey) }
        : { announced: [...response.announced].map(fromKey), withdrawn: [...response.withdrawn].map(fromKey) };
    return this.enqueue(async () => {
      let written: { vrpCount: number };
      try {
        written = await writeRtrSet(this.services, changes, state);
      } catch (error) {
        // Not stored: this side keeps the previous serial, so the next session asks for the same changes again.
        if (this.socket) this.end(this.socket, new SessionEnd(`storing the VRPs failed: ${(error as Error).message}`, {}));
        return;
      }
      if (response.kind === "reset") this.committed = response.announced;
      else {
        for (const key of response.withdrawn) this.committed.delete(key);
        for (const key of response.announced) this.committed.add(key);
      }
      const first = this.lastSuccess === null;
      this.sessionId = pdu.sessionId;
      this.serial = pdu.serial;
      this.intervals = intervals;
      this.lastSuccess = Date.now();
      this.response = null;
      this.awaiting = null;
      this.attempts = 0;
      this.stats.lastError = "";
      this.clearTimer("response");
      this.metrics.duration("write", Date.now() - started);
      if (response.kind === "reset") {
        this.stats.resets += 1;
        this.metrics.increment("resets");
        this.log.info(`${written.vrpCount} VRPs from ${this.cache} (session ${pdu.sessionId}, serial ${pdu.serial})`);
      } else {
        this.stats.updates += 1;
        this.metrics.increment("updates");
        if (response.announced.size || response.withdrawn.size || first)
          this.log.info(
            `serial ${pdu.serial}: ${response.announced.size} VRPs announced, ${response.withdrawn.size} withdrawn, ${written.vrpCount} in all`,
          );
      }
      if (this.connected) this.setTimer("refresh", intervals.refresh * 1000, () => this.query());
    });
  }

  private errorReport(pdu: Extract<RtrPdu, { type: "error-report" }>): Promise<void> | null {
    const text = pdu.text ? `: ${pdu.text}` : "";
    if (pdu.code === RTR_ERROR.NO_DATA_AVAILABLE) {
      // Not fatal: the cache has nothing yet; ask again after the retry interval, on the same session.
      this.noteError(`${this.cache} has no data yet (Error Report "No Data Available"${text}); asking again in ${this.intervals.retry} s`);
      this.response = null;
      this.awaiting = null;
      this.setTimer("retry", Math.min(this.intervals.retry * 1000, this.settings.maxBackoffMs), () => this.query());
      return null;
    }
    // Every other error ends the session; an Error Report is never answered with one.
    throw new SessionEnd(`the cache reported "${errorName(pdu.code)}"${text}`, { forgetSession: true });
  }

  private scheduleExpiryCheck(): void {
    this.setTimer("expiry", this.settings.expiryCheckMs, () => {
      void this.enqueue(async () => {
        if (this.stopped) return;
        if (this.lastSuccess !== null && this.committed.size > 0 && Date.now() - this.lastSuccess > this.intervals.expire * 1000) {
          const message = `no successful refresh from ${this.cache} for ${this.intervals.expire} s (the expire interval): its VRPs are dropped`;
          this.noteError(message);
          this.committed.clear();
          this.sessionId = null;
          this.serial = null;
          this.lastSuccess = null;
          await dropRtrSet(this.services, message);
        }
      }).finally(() => {
        if (!this.stopped) this.scheduleExpiryCheck();
      });
    });
  }
}

let client: RtrClient | null = null;

export const rpkiRtr: IngestComponent<RtrSettings> = {
  name: "rpki-rtr",
  configure: rtrSettings,
  async start(services: Services, ctx: ComponentContext<RtrSettings>) {
    const c = new RtrClient(services, ctx.settings, ctx.log, ctx.metrics);
    await c.start();
    client = c;
    ctx.log.info(`RPKI to Router client for ${c.cache} started`);
  },
  async stop() {
    const c = client;
    client = null;
    await c?.stop();
  },
  health() {
    return client ? client.health() : { ok: false, detail: "not running" };
  },
};
