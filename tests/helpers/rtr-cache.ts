/**
 * An RPKI to Router cache for the tests (RFC 8210 / RFC 6810, the cache's side), listening on a
 * port of 127.0.0.1 the system picks: it holds a VRP set with its serial and the changes of each
 * serial, answers Reset and Serial Queries (Cache Reset when it no longer has the changes asked
 * for), notifies, and can misbehave as a test asks (another version only, no data yet, raw bytes).
 * Everything a router sends it is kept, decoded, in `received`.
 */
import net from "node:net";
import {
  decodePdu,
  encodeCacheReset,
  encodeCacheResponse,
  encodeEndOfData,
  encodeErrorReport,
  encodePrefix,
  encodeSerialNotify,
  RtrFramer,
  type RtrPdu,
} from "~/features/routing/rpki/rtr-pdu";

export type CacheVrp = { prefix: string; maxLength: number; asn: number };
type Change = { announce: boolean; vrp: CacheVrp };

const key = (v: CacheVrp) => `${v.prefix} ${v.maxLength} ${v.asn}`;

export class TestRtrCache {
  private server: net.Server;
  readonly sockets = new Set<net.Socket>();
  sessionId = 4242;
  serial = 1;
  intervals = { refresh: 3600, retry: 600, expire: 7200 };
  /** Protocol versions the cache speaks; a query in another is refused with "Unsupported Protocol Version". */
  versions = [0, 1];
  /** Answer every query with "No Data Available". */
  noData = false;
  /** PDUs sent inside every Cache Response, after the prefixes (e.g. Router Keys, which the router skips). */
  extraPdus: Buffer[] = [];
  /** Replaces the prefixes of the next Serial Query's answer (to send what a router must refuse). */
  nextSerialAnswer: Buffer[] | null = null;
  readonly vrps = new Map<string, CacheVrp>();
  private history = new Map<number, Change[]>();
  readonly received: RtrPdu[] = [];
  connections = 0;

  private constructor(server: net.Server) {
    this.server = server;
  }

  static async start(initial: CacheVrp[]): Promise<TestRtrCache> {
    const cache: TestRtrCache = new TestRtrCache(net.createServer((socket) => cache.accept(socket)));
    for (const v of initial) cache.vrps.set(key(v), v);
    await new Promise<void>((resolve) => cache.server.listen(0, "127.0.0.1", resolve));
    return cache;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** A new serial with these changes. */
  update(changes: { announce?: CacheVrp[]; withdraw?: CacheVrp[] }): void {
    const list: Change[] = [];
    for (const v of changes.withdraw ?? []) {
      this.vrps.delete(key(v));
      list.push({ announce: false, vrp: v });
    }
    for (const v of changes.announce ?? []) {
      this.vrps.set(key(v), v);
      list.push({ announce: true, vrp: v });
    }
    this.serial += 1;
    this.history.set(this.serial, list);
  }

  /** The cache lost the changes of the past (e.g. it restarted with the same session): Serial Queries get Cache Reset. */
  forgetHistory(): void {
    this.history.clear();
  }

  notify(version = 1): void {
    for (const socket of this.sockets) socket.write(encodeSerialNotify(version, this.sessionId, this.serial));
  }

  /** Sends raw bytes to every connected router. */
  sendRaw(bytes: Buffer): void {
    for (const socket of this.sockets) socket.write(bytes);
  }

  /** Closes every connection and stops accepting new ones. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The queries received, as "reset v1" / "serial v1 4242 3". */
  queries(): string[] {
    return this.received.flatMap((p) =>
      p.type === "reset-query"
        ? [`reset v${p.version}`]
        : p.type === "serial-query"
          ? [`serial v${p.version} ${p.sessionId} ${p.serial}`]
          : [],
    );
  }

  errorReports(): { code: number; text: string }[] {
    return this.received.flatMap((p) => (p.type === "error-report" ? [{ code: p.code, text: p.text }] : []));
  }

  private accept(socket: net.Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => {});
    const framer = new RtrFramer();
    socket.on("data", (chunk: Buffer) => {
      framer.push(chunk);
      for (let raw = framer.nextRaw(); raw; raw = framer.nextRaw()) {
        const pdu = decodePdu(raw);
        this.received.push(pdu);
        this.answer(socket, pdu, raw);
      }
    });
  }

  private answer(socket: net.Socket, pdu: RtrPdu, raw: Buffer): void {
    if (pdu.type !== "reset-query" && pdu.type !== "serial-query") return;
    const v = pdu.version;
    if (!this.versions.includes(v)) {
      // RFC 8210 §7: a cache that does not speak the router's version says so in its own, and ends the session.
      socket.end(encodeErrorReport(Math.max(...this.versions), 4, raw, `version ${v} is not supported`));
      return;
    }
    if (this.noData) {
      socket.write(encodeErrorReport(v, 2, raw, "still loading"));
      return;
    }
    const end = encodeEndOfData(v, this.sessionId, this.serial, this.intervals);
    if (pdu.type === "reset-query") {
      const prefixes = [...this.vrps.values()].map((p) => encodePrefix(v, true, p.prefix, p.maxLength, p.asn));
      socket.write(Buffer.concat([encodeCacheResponse(v, this.sessionId), ...prefixes, ...this.extraPdus, end]));
      return;
    }
    if (this.nextSerialAnswer) {
      const answer = this.nextSerialAnswer;
      this.nextSerialAnswer = null;
      socket.write(Buffer.concat([encodeCacheResponse(v, this.sessionId), ...answer, end]));
      return;
    }
    const changes: Change[] = [];
    for (let s = pdu.serial + 1; s <= this.serial; s++) {
      const list = this.history.get(s);
      if (!list || pdu.sessionId !== this.sessionId) {
        socket.write(encodeCacheReset(v));
        return;
      }
      changes.push(...list);
    }
    const prefixes = changes.map((c) => encodePrefix(v, c.announce, c.vrp.prefix, c.vrp.maxLength, c.vrp.asn));
    socket.write(Buffer.concat([encodeCacheResponse(v, this.sessionId), ...prefixes, ...this.extraPdus, end]));
  }
}
