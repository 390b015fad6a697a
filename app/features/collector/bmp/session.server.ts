/**
 * One BMP session (one TCP connection from an inventory router), message by message: what the
 * router says about itself (Initiation, Termination), its peers (Peer Up and Down, Statistics
 * Reports) and their routes (Route Monitoring), turned into rows and sweeps for the station's write
 * pipeline. Nothing here touches a store or a socket; the station (station.server.ts) owns those.
 *
 * A peer is (kind, address, distinguisher): kind "adj-rib-in" for a BGP peer (its pre- and
 * post-policy tables are one peer: the L flag says which table a message is about), "loc-rib" for a
 * Loc-RIB instance (RFC 9069), whose address is the router's own. Its routes (sweep-sql.ts):
 *   - Peer Down: every route of the peer, in the views of its kind, withdrawn at the arrival time;
 *   - End-of-RIB of (peer, view, AFI/SAFI): the routes of that table older than the peer's Peer Up
 *     withdrawn — a reconnecting router's fresh table replaces its old one, and a route announced
 *     again in between is never missing (its new row is newer than the Peer Up);
 *   - the same for all the peer's tables BMP_STALE_AFTER after its Peer Up, for routers that send no
 *     End-of-RIB (a table whose End-of-RIB came has nothing older left, so this changes nothing there).
 * Adj-RIB-Out (RFC 8671) and address families the station does not store are counted and skipped.
 */
import type { BmpPeerStatus } from "~db/postgres/schema";
import { bmpMessageName, familyName } from "~/features/routing/bmp/names";
import type { BmpMessage, BmpMessageName, BmpPeer, BmpUpdate, RibView } from "~/features/routing/bmp/types";
import type { CompactRibRow } from "~/features/routing/mrt/rib-rows";
import { isLocRibPeer, peerTarget, updateRows, type PeerTarget } from "./rows";
import type { BmpRouter } from "./sources.server";
import type { SweepScope } from "./sweep-sql";

/** What a session hands to the station. */
export type SessionSink = {
  rows(rows: CompactRibRow[], vantagePoint: string): void;
  /** Withdraw what `scope` covers at `at` (Unix seconds); `label` names it in logs. */
  sweep(scope: SweepScope, at: number, label: string, reason: SweepReason): void;
  message(name: BmpMessageName): void;
  decodeError(text: string): void;
  skipped(what: string): void;
  /** The router's figures changed (for the status written every few seconds). */
  changed(): void;
};

/** Why routes are withdrawn: a Peer Down, an End-of-RIB, no End-of-RIB within BMP_STALE_AFTER, a reconnected router's peers gone, a router gone. */
export type SweepReason = "peer-down" | "end-of-rib" | "stale" | "peer-gone" | "router-gone";

export type SessionOptions = {
  staleAfterMs: number;
  /** The station's clock, Unix ms. */
  now: () => number;
};

const ADJ_RIB_IN_VIEWS: readonly RibView[] = ["pre-policy", "post-policy"];
const LOC_RIB_VIEWS: readonly RibView[] = ["loc-rib"];
/** Route distinguishers remembered per RD instance peer for its sweeps; beyond, its sweeps take every one but other peers'. */
const MAX_PEER_DISTINGUISHERS = 256;

export type PeerState = {
  key: string;
  target: PeerTarget;
  peerType: number;
  distinguisher: string;
  bgpId: string;
  views: Set<RibView>;
  up: boolean;
  /** Unix seconds of its Peer Up (of the session's start when routes came without one). */
  upAt: number;
  downAt: number | null;
  downReason: string | null;
  statistics: Record<string, number>;
  statisticsAt: number | null;
  /** Route distinguishers its routes were written under (RD instance peers). */
  distinguishers: Set<string>;
  staleTimer: NodeJS.Timeout | null;
};

export class BmpSession {
  readonly peers = new Map<string, PeerState>();
  readonly startedAt: number;
  sysName = "";
  sysDescr = "";
  /** The router's own words when it ended the session (Termination). */
  terminationReason: string | null = null;
  private closed = false;

  constructor(
    readonly router: BmpRouter,
    private readonly sink: SessionSink,
    private readonly options: SessionOptions,
  ) {
    this.startedAt = Math.floor(options.now() / 1000);
  }

  /** Handles one decoded message that arrived at `at` (Unix seconds). */
  handle(message: BmpMessage, at: number): void {
    if (this.closed) return;
    this.sink.message(message.kind === "bad" ? bmpMessageName(message.type) : message.kind);
    switch (message.kind) {
      case "initiation":
        for (const info of message.information) {
          if (info.type === 1) this.sysDescr = info.value;
          else if (info.type === 2) this.sysName = info.value;
        }
        this.sink.changed();
        break;
      case "termination": {
        const said = message.information.map((i) => i.value).filter(Boolean);
        this.terminationReason = said.length ? said.join("; ") : "no reason given";
        this.sink.changed();
        break;
      }
      case "peer-up":
        this.peerUp(message.peer, at);
        break;
      case "peer-down":
        this.peerDown(message.peer, at, message.detail);
        break;
      case "route-monitoring":
        this.routeMonitoring(message.peer, message.update, at);
        break;
      case "statistics-report": {
        const peer = this.peerOf(message.peer);
        peer.statistics = Object.fromEntries(message.statistics.map((s) => [s.name, s.value]));
        peer.statisticsAt = at;
        this.sink.changed();
        break;
      }
      case "route-mirroring":
        this.sink.skipped("Route mirroring messages");
        break;
      case "unknown":
        this.sink.skipped(`Messages of unknown type ${message.type}`);
        break;
      case "bad":
        this.sink.decodeError(`${bmpMessageName(message.type)} message: ${message.message}`);
        break;
    }
  }

  /** The session ended: the peers' timers stop; their routes stay (the station decides what becomes of them). */
  close(): void {
    this.closed = true;
    for (const peer of this.peers.values()) this.stopTimer(peer);
  }

  /** "peer address|view" of every peer of this session, for the router-wide sweep that must leave them alone. */
  keepPeers(): string[] {
    const keep: string[] = [];
    for (const peer of this.peers.values()) for (const view of this.viewsOf(peer)) keep.push(`${peer.target.peerIp}|${view}`);
    return [...new Set(keep)].sort();
  }

  peerStatus(): BmpPeerStatus[] {
    const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());
    return [...this.peers.values()]
      .map((p) => ({
        address: p.target.peerIp,
        asn: p.target.peerAsn,
        bgpId: p.bgpId,
        peerType: p.peerType,
        distinguisher: p.distinguisher,
        views: [...p.views].sort(),
        state: p.up ? ("up" as const) : ("down" as const),
        upSince: p.up ? iso(p.upAt) : null,
        downAt: p.up ? null : iso(p.downAt),
        downReason: p.up ? null : p.downReason,
        statistics: p.statistics,
        statisticsAt: iso(p.statisticsAt),
      }))
      .sort((a, b) => a.address.localeCompare(b.address) || a.distinguisher.localeCompare(b.distinguisher) || a.peerType - b.peerType);
  }

  get peersUp(): number {
    let n = 0;
    for (const peer of this.peers.values()) if (peer.up) n++;
    return n;
  }

  private keyOf(peer: BmpPeer, target: PeerTarget): string {
    return `${isLocRibPeer(peer) ? "loc-rib" : "adj-rib-in"}|${target.peerIp}|${peer.distinguisher}`;
  }

  /** The peer's state; a peer whose routes come without a Peer Up counts as up since the session began. */
  private peerOf(peer: BmpPeer): PeerState {
    const target = peerTarget(peer, this.router);
    const key = this.keyOf(peer, target);
    let state = this.peers.get(key);
    if (!state) {
      state = {
        key,
        target,
        peerType: peer.peerType,
        distinguisher: peer.distinguisher,
        bgpId: peer.bgpId,
        views: new Set(),
        up: true,
        upAt: this.startedAt,
        downAt: null,
        downReason: null,
        statistics: {},
        statisticsAt: null,
        distinguishers: new Set(),
        staleTimer: null,
      };
      this.peers.set(key, state);
      this.startTimer(state);
      this.sink.changed();
    }
    return state;
  }

  private viewsOf(peer: PeerState): readonly RibView[] {
    return peer.target.view === "loc-rib" ? LOC_RIB_VIEWS : ADJ_RIB_IN_VIEWS;
  }

  /** Which rows are this peer's (see sweep-sql.ts). */
  private scopeOf(peer: PeerState, extra: Partial<SweepScope> = {}): SweepScope {
    const instance = (peer.peerType === 1 || peer.peerType === 3) && peer.distinguisher !== "";
    let distinguishers: SweepScope["distinguishers"];
    if (instance && peer.distinguishers.size < MAX_PEER_DISTINGUISHERS) {
      distinguishers = { only: [...new Set([peer.distinguisher, ...peer.distinguishers])].sort() };
    } else {
      // Every route distinguisher but those of the instance peers of the same kind and address.
      const others = [...this.peers.values()]
        .filter(
          (p) =>
            p !== peer &&
            p.target.peerIp === peer.target.peerIp &&
            (p.target.view === "loc-rib") === (peer.target.view === "loc-rib") &&
            (p.peerType === 1 || p.peerType === 3) &&
            p.distinguisher !== "",
        )
        .map((p) => p.distinguisher);
      distinguishers = { except: [...new Set(others)].sort() };
    }
    return {
      vantagePoint: peer.target.vantagePoint,
      routerIp: peer.target.routerIp,
      peerIp: peer.target.peerIp,
      views: this.viewsOf(peer),
      distinguishers,
      ...extra,
    };
  }

  private describe(peer: PeerState): string {
    const what = peer.target.view === "loc-rib" ? "Loc-RIB" : `peer ${peer.target.peerIp} AS${peer.target.peerAsn}`;
    return peer.distinguisher ? `${what} (${peer.distinguisher})` : what;
  }

  private peerUp(peer: BmpPeer, at: number): void {
    const state = this.peerOf(peer);
    if (isLocRibPeer(peer)) state.views.add("loc-rib");
    state.up = true;
    state.upAt = at;
    state.downAt = null;
    state.downReason = null;
    state.bgpId = peer.bgpId;
    state.target = peerTarget(peer, this.router);
    this.startTimer(state);
    this.sink.changed();
  }

  private peerDown(peer: BmpPeer, at: number, detail: string): void {
    const state = this.peerOf(peer);
    this.stopTimer(state);
    this.sink.sweep(this.scopeOf(state), at, `${this.describe(state)} down`, "peer-down");
    state.up = false;
    state.downAt = at;
    state.downReason = detail || "no reason given";
    this.sink.changed();
  }

  private routeMonitoring(peer: BmpPeer, update: BmpUpdate, at: number): void {
    if (peer.adjRibOut) {
      this.sink.skipped("Adj-RIB-Out messages (not stored)");
      return;
    }
    const state = this.peerOf(peer);
    const view = state.target.view === "loc-rib" ? "loc-rib" : peer.view;
    if (!state.views.has(view)) {
      state.views.add(view);
      this.sink.changed();
    }
    if (update.skipped) this.sink.skipped(`${familyName(update.skipped.afi, update.skipped.safi)} messages (not stored)`);
    const target = view === state.target.view ? state.target : { ...state.target, view };
    const rows = updateRows(update, target, at);
    if (rows.length) {
      if (state.distinguishers.size < MAX_PEER_DISTINGUISHERS)
        for (const route of [...update.announced, ...update.withdrawn])
          if (route.routeDistinguisher) state.distinguishers.add(route.routeDistinguisher);
      this.sink.rows(rows, state.target.vantagePoint);
    }
    if (update.endOfRib) {
      const { afi, safi } = update.endOfRib;
      this.sink.sweep(
        this.scopeOf(state, { views: [view], family: { afi, safi }, before: state.upAt }),
        at,
        `End-of-RIB of ${this.describe(state)}, ${view}, ${familyName(afi, safi)}`,
        "end-of-rib",
      );
    }
  }

  private startTimer(peer: PeerState): void {
    this.stopTimer(peer);
    if (this.closed) return;
    peer.staleTimer = setTimeout(() => {
      peer.staleTimer = null;
      if (this.closed || !peer.up) return;
      // Routers that send no End-of-RIB: what the new session did not announce again by now is gone.
      this.sink.sweep(
        this.scopeOf(peer, { before: peer.upAt }),
        Math.floor(this.options.now() / 1000),
        `routes of ${this.describe(peer)} not announced again within BMP_STALE_AFTER`,
        "stale",
      );
    }, this.options.staleAfterMs);
    peer.staleTimer.unref();
  }

  private stopTimer(peer: PeerState): void {
    if (peer.staleTimer) clearTimeout(peer.staleTimer);
    peer.staleTimer = null;
  }
}
