/**
 * The BMP station's pure parts and its session logic without sockets or stores: settings, the key
 * of a vantage point made for a router, the rows of a Route Monitoring message, the sweep SQL
 * (golden), the ordered write pipeline (order, back-pressure, retries, stop), and a session fed
 * decoded messages with a recording sink (what is written and withdrawn, and when).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bmpSettings } from "~/features/collector/bmp/settings.server";
import { vantagePointKeyFor } from "~/features/collector/bmp/sources.server";
import { encodeRow, peerTarget, updateRows } from "~/features/collector/bmp/rows";
import { BmpSession, type SessionSink, type SweepReason } from "~/features/collector/bmp/session.server";
import { routeCountsSql, sweepCandidatesSql, sweepSql, type SweepScope } from "~/features/collector/bmp/sweep-sql";
import { WritePipeline, type PipelineStore } from "~/features/collector/bmp/write-pipeline.server";
import type { BmpMessage, BmpPeer, BmpUpdate } from "~/features/routing/bmp/types";
import { emptyAttributes } from "~/features/routing/mrt/attributes";
import { RIB_COLUMNS, type CompactRibRow } from "~/features/routing/mrt/rib-rows";
import { componentEnv } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";

const asObject = (row: CompactRibRow) => Object.fromEntries(RIB_COLUMNS.map((c, i) => [c, row[i]]));

const ROUTER = { id: 1, name: "fra1-r1", address: "192.0.2.1", vantagePoint: "fra1-r1" };

function peer(overrides: Partial<BmpPeer> = {}): BmpPeer {
  return {
    peerType: 0,
    view: "post-policy",
    distinguisher: "",
    address: "198.51.100.7",
    asn: 64496,
    bgpId: "198.51.100.7",
    timestamp: 1_600_000_000,
    legacyAsPath: false,
    adjRibOut: false,
    filtered: false,
    ...overrides,
  };
}

function v4(prefix: string, extra: { rd?: string; pathId?: number; safi?: number; nextHop?: string | null } = {}) {
  const [address, length] = prefix.split("/");
  return {
    prefix,
    address,
    length: Number(length),
    afi: 1 as const,
    safi: extra.safi ?? (extra.rd ? 128 : 1),
    routeDistinguisher: extra.rd ?? "",
    pathId: extra.pathId ?? 0,
    labels: extra.rd ? [16] : [],
    nextHop: extra.nextHop === undefined ? "198.51.100.7" : extra.nextHop,
  };
}

function update(overrides: Partial<BmpUpdate> = {}): BmpUpdate {
  return {
    announced: [],
    withdrawn: [],
    attributes: {
      ...emptyAttributes(),
      origin: "IGP",
      asPath: [
        { type: "sequence", asns: [64496, 4_200_000_001] },
        { type: "set", asns: [64511, 64512] },
      ],
      nextHop: "198.51.100.7",
      localPref: 150,
      med: 20,
      communities: ["64496:100"],
      largeCommunities: ["64496:1:2"],
      originatorId: "192.0.2.9",
      aggregator: "64496 192.0.2.9",
    },
    extendedCommunities: ["RT:64497:42"],
    endOfRib: null,
    skipped: null,
    ...overrides,
  };
}

describe("settings", () => {
  const env = (vars: Record<string, string>) => componentEnv("bmp", vars);

  it("is off without BMP_LISTEN and has defaults for the rest", () => {
    expect(bmpSettings(env({}))).toBeNull();
    expect(bmpSettings(env({ BMP_LISTEN: ":1790" }))).toEqual({
      listen: { host: "0.0.0.0", port: 1790 },
      staleAfterMs: 600_000,
      keepAfterCloseMs: 1_800_000,
      batchRows: 50_000,
      flushMs: 1000,
      queueRows: 200_000,
    });
  });

  it("reads minutes, rows and seconds, and names a bad variable", () => {
    const s = bmpSettings(
      env({ BMP_LISTEN: "[::1]:0", BMP_STALE_AFTER: "2.5", BMP_KEEP_AFTER_CLOSE: "0", BMP_BATCH_ROWS: "500", BMP_QUEUE_ROWS: "5000" }),
    );
    expect(s).toMatchObject({
      listen: { host: "::1", port: 0 },
      staleAfterMs: 150_000,
      keepAfterCloseMs: 0,
      batchRows: 500,
      queueRows: 5000,
    });
    expect(() => bmpSettings(env({ BMP_LISTEN: "1790" }))).toThrow(/BMP_LISTEN: expected host:port/);
    expect(() => bmpSettings(env({ BMP_LISTEN: ":1790", BMP_STALE_AFTER: "soon" }))).toThrow(/BMP_STALE_AFTER: expected a number/);
    expect(() => bmpSettings(env({ BMP_LISTEN: ":1790", BMP_BATCH_ROWS: "50000", BMP_QUEUE_ROWS: "60000" }))).toThrow(ConfigError);
    // A batch larger than the default queue makes the queue hold two of them.
    expect(bmpSettings(env({ BMP_LISTEN: ":1790", BMP_BATCH_ROWS: "150000" }))?.queueRows).toBe(300_000);
  });
});

describe("the vantage point made for a router", () => {
  it("takes the router's name, else a key made from it that is free", () => {
    expect(vantagePointKeyFor("fra1-r1", new Set())).toBe("fra1-r1");
    expect(vantagePointKeyFor("fra1-r1", new Set(["fra1-r1"]))).toBe("fra1-r1-2");
    expect(vantagePointKeyFor("fra1-r1", new Set(["fra1-r1", "fra1-r1-2"]))).toBe("fra1-r1-3");
    expect(vantagePointKeyFor("edge/1 (Frankfurt)", new Set())).toBe("edge-1--Frankfurt-");
    expect(vantagePointKeyFor("_core", new Set())).toBe("r_core");
    expect(vantagePointKeyFor("x".repeat(80), new Set())).toBe("x".repeat(60));
  });
});

describe("rows of a Route Monitoring message", () => {
  it("writes withdrawals without attributes first, then announcements with every column", () => {
    const target = peerTarget(peer({ view: "pre-policy" }), ROUTER);
    const rows = updateRows(
      update({ withdrawn: [v4("203.0.113.0/24", { pathId: 3 })], announced: [v4("192.0.2.0/24", { pathId: 7 })] }),
      target,
      1_700_000_000,
    ).map(asObject);
    expect(rows).toEqual([
      {
        timestamp: 1_700_000_000,
        vantage_point: "fra1-r1",
        router_ip: "192.0.2.1",
        peer_ip: "198.51.100.7",
        peer_asn: 64496,
        route_distinguisher: "",
        prefix: "203.0.113.0/24",
        prefix_addr: "::ffff:203.0.113.0",
        prefix_len: 24,
        afi: 1,
        safi: 1,
        is_withdrawn: 1,
        as_path: [],
        as_path_set: [],
        as_confed_seq: [],
        local_pref: 0,
        med: 0,
        bgp_next_hop: "",
        origin: "IGP",
        aggregator: "",
        originator_id: "",
        communities: [],
        expire_at: 0,
        rib_view: "pre-policy",
        path_id: 3,
        ext_communities: [],
      },
      {
        timestamp: 1_700_000_000,
        vantage_point: "fra1-r1",
        router_ip: "192.0.2.1",
        peer_ip: "198.51.100.7",
        peer_asn: 64496,
        route_distinguisher: "",
        prefix: "192.0.2.0/24",
        prefix_addr: "::ffff:192.0.2.0",
        prefix_len: 24,
        afi: 1,
        safi: 1,
        is_withdrawn: 0,
        as_path: [64496, 4_200_000_001],
        as_path_set: [64511, 64512],
        as_confed_seq: [],
        local_pref: 150,
        med: 20,
        bgp_next_hop: "198.51.100.7",
        origin: "IGP",
        aggregator: "64496 192.0.2.9",
        originator_id: "192.0.2.9",
        communities: ["64496:100", "64496:1:2"],
        expire_at: 0,
        rib_view: "pre-policy",
        path_id: 7,
        ext_communities: ["RT:64497:42"],
      },
    ]);
    expect(JSON.parse(encodeRow(updateRows(update({ announced: [v4("192.0.2.0/24")] }), target, 1)[0]))).toHaveLength(RIB_COLUMNS.length);
  });

  it("gives Loc-RIB routes the router as the peer and a VRF instance's distinguisher to routes without one", () => {
    const locRib = peerTarget(peer({ peerType: 3, view: "loc-rib", address: "", asn: 64500, distinguisher: "64500:7" }), ROUTER);
    expect(locRib).toEqual({
      vantagePoint: "fra1-r1",
      routerIp: "192.0.2.1",
      peerIp: "192.0.2.1",
      peerAsn: 64500,
      view: "loc-rib",
      defaultDistinguisher: "64500:7",
    });
    const rows = updateRows(update({ announced: [v4("10.0.0.0/8", { safi: 1 }), v4("10.1.0.0/16", { rd: "64500:9" })] }), locRib, 5).map(
      asObject,
    );
    expect(rows.map((r) => [r.peer_ip, r.route_distinguisher, r.safi, r.rib_view])).toEqual([
      ["192.0.2.1", "64500:7", 1, "loc-rib"],
      ["192.0.2.1", "64500:9", 128, "loc-rib"],
    ]);
    // A global instance peer: routes without an RD are in the global table.
    expect(peerTarget(peer({ distinguisher: "64500:7" }), ROUTER).defaultDistinguisher).toBe("");
    expect(peerTarget(peer({ peerType: 1, distinguisher: "64500:7" }), ROUTER).defaultDistinguisher).toBe("64500:7");
  });
});

describe("sweep SQL", () => {
  const scope: SweepScope = {
    vantagePoint: "fra1-r1",
    routerIp: "192.0.2.1",
    peerIp: "198.51.100.7",
    views: ["pre-policy", "post-policy"],
    distinguishers: { except: ["64500:7"] },
    family: { afi: 2, safi: 1 },
    before: 1_700_000_000,
  };

  it("withdraws the current routes of the scope by INSERT … SELECT from rib_current FINAL", () => {
    expect(sweepSql(scope, 1_700_000_100)).toEqual({
      name: "bmp.sweep",
      sql: `INSERT INTO rib_entries (timestamp, vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
                         afi, safi, is_withdrawn, as_path, as_path_set, as_confed_seq, local_pref, med, bgp_next_hop, origin,
                         aggregator, originator_id, communities, expire_at, rib_view, path_id, ext_communities)
SELECT toDateTime({at:UInt32}, 'UTC'), vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
       afi, safi, 1, emptyArrayUInt32(), emptyArrayUInt32(), emptyArrayUInt32(), 0, 0, '', 'IGP',
       '', '', emptyArrayString(), toDateTime(0, 'UTC'), rib_view, path_id, emptyArrayString()
FROM (
    SELECT * FROM rib_current FINAL
    WHERE vantage_point = {vantagePoint:String} AND toString(rib_view) IN {views:Array(String)} AND peer_ip = {peerIp:String} AND route_distinguisher NOT IN {distinguishers:Array(String)} AND afi = {afi:UInt8} AND safi = {safi:UInt8}
)
WHERE router_ip = {routerIp:String} AND is_withdrawn = 0 AND timestamp < toDateTime({before:UInt32}, 'UTC')`,
      params: {
        vantagePoint: "fra1-r1",
        routerIp: "192.0.2.1",
        views: ["pre-policy", "post-policy"],
        peerIp: "198.51.100.7",
        distinguishers: ["64500:7"],
        afi: 2,
        safi: 1,
        before: 1_700_000_000,
        at: 1_700_000_100,
      },
    });
  });

  it("looks for candidates without FINAL first, and leaves out what a scope does not limit", () => {
    const router = { vantagePoint: "fra1-r1", routerIp: "192.0.2.1", views: ["loc-rib" as const], keepPeers: ["192.0.2.1|loc-rib"] };
    expect(sweepCandidatesSql(router)).toEqual({
      name: "bmp.sweepCandidates",
      sql: "SELECT count() AS n FROM (SELECT 1 FROM rib_current WHERE vantage_point = {vantagePoint:String} AND toString(rib_view) IN {views:Array(String)} AND concat(peer_ip, '|', toString(rib_view)) NOT IN {keepPeers:Array(String)} AND router_ip = {routerIp:String} AND is_withdrawn = 0 LIMIT 1)",
      params: { vantagePoint: "fra1-r1", routerIp: "192.0.2.1", views: ["loc-rib"], keepPeers: ["192.0.2.1|loc-rib"] },
    });
    // An empty exception list is no condition; an "only" list always is.
    expect(sweepSql({ ...router, keepPeers: [], distinguishers: { except: [] } }, 1).sql).not.toMatch(/distinguishers|keepPeers/);
    expect(sweepSql({ ...router, distinguishers: { only: ["64500:7"] } }, 1).sql).toContain(
      "route_distinguisher IN {distinguishers:Array(String)}",
    );
  });

  it("counts current routes per vantage point, router, peer and view", () => {
    const q = routeCountsSql(["a", "b"]);
    expect(q.name).toBe("bmp.routeCounts");
    expect(q.sql).toContain("FROM rib_current FINAL");
    expect(q.sql).toContain("WHERE is_withdrawn = 0");
    expect(q.params).toEqual({ vantagePoints: ["a", "b"] });
  });
});

/** A store that records what it is given and can be held or made to fail. */
function recordingStore() {
  const log: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => {};
  let failures = 0;
  const store: PipelineStore<string> = {
    async insertRows(lines, rows) {
      await gate;
      if (failures > 0) {
        failures--;
        throw new Error("store down");
      }
      log.push(`rows ${lines.join(",")} (${rows})`);
    },
    async sweep(sweep) {
      await gate;
      if (failures > 0) {
        failures--;
        throw new Error("store down");
      }
      log.push(`sweep ${sweep}`);
      return sweep !== "nothing";
    },
  };
  return {
    store,
    log,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    fail(n: number) {
      failures = n;
    },
  };
}

describe("the write pipeline", () => {
  const make = (
    store: PipelineStore<string>,
    events: string[],
    extra: Partial<ConstructorParameters<typeof WritePipeline<string>>[0]> = {},
  ) =>
    new WritePipeline<string>({
      store,
      batchRows: 3,
      flushMs: 20,
      highWaterRows: 6,
      lowWaterRows: 3,
      onPause: () => events.push("pause"),
      onResume: () => events.push("resume"),
      retryDelayMs: 5,
      ...extra,
    });

  it("writes rows and sweeps in the order they came, batching rows by size and time", async () => {
    const s = recordingStore();
    const written: string[] = [];
    const p = make(s.store, [], { onWritten: (w) => written.push(`${w.vantagePoints.join("+")}:${w.rows}:${w.swept}`) });
    p.addRows(["a", "b", "c", "d"], "vp1");
    p.addSweep("peer down", "vp1", "peer down");
    p.addRows(["e"], "vp2");
    p.addSweep("nothing", "vp2", "nothing");
    await expect.poll(() => s.log.length).toBe(4);
    // The lone row waits for its timer.
    p.addRows(["f"], "vp1");
    await expect.poll(() => s.log.length, { timeout: 2000 }).toBe(5);
    expect(s.log).toEqual(["rows a,b,c,d (4)", "sweep peer down", "rows e (1)", "sweep nothing", "rows f (1)"]);
    expect(written).toEqual(["vp1:4:false", "vp1:0:true", "vp2:1:false", "vp2:0:false", "vp1:1:false"]);
    expect(p.totals).toMatchObject({ rowsWritten: 6, sweeps: 1, sweepsSkipped: 1 });
  });

  it("pauses above the high-water mark and resumes below the low one, losing nothing", async () => {
    const s = recordingStore();
    const events: string[] = [];
    const p = make(s.store, events);
    s.hold();
    for (const line of ["1", "2", "3", "4", "5", "6", "7"]) p.addRows([line], "vp");
    expect(events).toEqual(["pause"]);
    expect(p.isPaused).toBe(true);
    expect(p.pendingRows).toBe(7);
    s.release();
    await expect.poll(() => events).toEqual(["pause", "resume"]);
    await p.drain(1000);
    expect(s.log.join(" ")).toBe("rows 1,2,3 (3) rows 4,5,6 (3) rows 7 (1)");
  });

  it("retries a failed write until it succeeds, in order", async () => {
    const s = recordingStore();
    const errors: string[] = [];
    const p = make(s.store, [], { onError: (_e, attempt, what) => errors.push(`${attempt} ${what}`) });
    s.fail(3);
    p.addRows(["a", "b", "c"], "vp");
    p.addSweep("after", "vp", "after");
    await expect.poll(() => s.log.length).toBe(2);
    expect(s.log).toEqual(["rows a,b,c (3)", "sweep after"]);
    expect(errors).toEqual(["1 3 rows", "2 3 rows", "3 3 rows"]);
  });

  it("stops retrying at the deadline of a stop and says how many rows were left", async () => {
    const s = recordingStore();
    const p = make(s.store, [], { retryDelayMs: 1000 });
    s.fail(1_000_000);
    p.addRows(["a", "b"], "vp");
    expect(await p.drain(50)).toBe(2);
  });
});

describe("a session fed decoded messages", () => {
  type Recorded = { rows: Record<string, unknown>[]; sweeps: { scope: SweepScope; at: number; reason: SweepReason }[]; other: string[] };
  let clock = 1_700_000_000_000;
  const at = () => Math.floor(clock / 1000);

  function session(staleAfterMs = 60_000) {
    const recorded: Recorded = { rows: [], sweeps: [], other: [] };
    const sink: SessionSink = {
      rows: (rows) => recorded.rows.push(...rows.map(asObject)),
      sweep: (scope, when, _label, reason) => recorded.sweeps.push({ scope, at: when, reason }),
      message: (name) => recorded.other.push(`message ${name}`),
      decodeError: (text) => recorded.other.push(`error ${text}`),
      skipped: (what) => recorded.other.push(`skipped ${what}`),
      changed: () => {},
    };
    return { s: new BmpSession(ROUTER, sink, { staleAfterMs, now: () => clock }), recorded };
  }

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1_700_000_000_000;
  });
  afterEach(() => vi.useRealTimers());

  const rm = (p: BmpPeer, u: Partial<BmpUpdate>): BmpMessage => ({ kind: "route-monitoring", peer: p, update: update(u) });
  const peerUpMessage = (p: BmpPeer): BmpMessage => ({
    kind: "peer-up",
    peer: p,
    localAddress: "192.0.2.1",
    localPort: 179,
    remotePort: 40000,
    addPath: [],
    addPathSent: [],
    localAsn: 64500,
    localBgpId: "192.0.2.1",
    fourByteAsn: true,
    information: [],
  });

  it("keeps the router's names, counts every message, and withdraws a peer's routes when it goes down", () => {
    const { s, recorded } = session();
    s.handle(
      {
        kind: "initiation",
        information: [
          { type: 2, name: "sysName", value: "fra1-r1.example.net" },
          { type: 1, name: "sysDescr", value: "Router OS 7.1" },
        ],
      },
      at(),
    );
    const p = peer();
    s.handle(peerUpMessage(p), at());
    s.handle(rm(p, { announced: [v4("192.0.2.0/24")] }), at());
    s.handle({ kind: "statistics-report", peer: p, statistics: [{ type: 7, name: "Routes in Adj-RIB-In", value: 1 }] }, at());
    clock += 5_000;
    s.handle({ kind: "peer-down", peer: p, reason: 2, detail: "hold timer expired" }, at());
    expect(s.sysName).toBe("fra1-r1.example.net");
    expect(s.sysDescr).toBe("Router OS 7.1");
    expect(recorded.rows).toHaveLength(1);
    expect(recorded.sweeps).toEqual([
      {
        scope: {
          vantagePoint: "fra1-r1",
          routerIp: "192.0.2.1",
          peerIp: "198.51.100.7",
          views: ["pre-policy", "post-policy"],
          distinguishers: { except: [] },
        },
        at: 1_700_000_005,
        reason: "peer-down",
      },
    ]);
    expect(recorded.other).toEqual([
      "message initiation",
      "message peer-up",
      "message route-monitoring",
      "message statistics-report",
      "message peer-down",
    ]);
    const [status] = s.peerStatus();
    expect(status).toMatchObject({
      address: "198.51.100.7",
      asn: 64496,
      state: "down",
      downReason: "hold timer expired",
      views: ["post-policy"],
      statistics: { "Routes in Adj-RIB-In": 1 },
    });
  });

  it("at End-of-RIB withdraws that table's routes older than the Peer Up; without one, all of them after BMP_STALE_AFTER", () => {
    const { s, recorded } = session(60_000);
    const p = peer({ view: "pre-policy" });
    clock += 1_000;
    s.handle(peerUpMessage(p), at());
    const upAt = at();
    clock += 2_000;
    s.handle(rm(p, { endOfRib: { afi: 2, safi: 1 } }), at());
    expect(recorded.sweeps).toEqual([
      {
        scope: expect.objectContaining({ peerIp: "198.51.100.7", views: ["pre-policy"], family: { afi: 2, safi: 1 }, before: upAt }),
        at: upAt + 2,
        reason: "end-of-rib",
      },
    ]);
    clock += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(recorded.sweeps[1]).toEqual({
      scope: expect.objectContaining({ peerIp: "198.51.100.7", views: ["pre-policy", "post-policy"], before: upAt }),
      at: upAt + 62,
      reason: "stale",
    });
    expect(recorded.sweeps[1].scope.family).toBeUndefined();
    // A closed session sweeps nothing more.
    s.handle(peerUpMessage(p), at());
    s.close();
    vi.advanceTimersByTime(120_000);
    expect(recorded.sweeps).toHaveLength(2);
  });

  it("keeps the tables of an RD instance peer and a VRF's Loc-RIB apart from a global peer of the same address", () => {
    const { s, recorded } = session();
    const global = peer();
    const vrf = peer({ peerType: 1, distinguisher: "64500:7" });
    s.handle(rm(global, { announced: [v4("192.0.2.0/24")] }), at());
    s.handle(rm(vrf, { announced: [v4("192.0.2.0/24"), v4("10.0.0.0/8", { rd: "64500:8" })] }), at());
    s.handle({ kind: "peer-down", peer: vrf, reason: 1, detail: "" }, at());
    s.handle({ kind: "peer-down", peer: global, reason: 1, detail: "" }, at());
    expect(recorded.rows.map((r) => `${r.peer_ip} ${r.route_distinguisher} ${r.prefix}`)).toEqual([
      "198.51.100.7  192.0.2.0/24",
      "198.51.100.7 64500:7 192.0.2.0/24",
      "198.51.100.7 64500:8 10.0.0.0/8",
    ]);
    expect(recorded.sweeps.map((w) => w.scope.distinguishers)).toEqual([{ only: ["64500:7", "64500:8"] }, { except: ["64500:7"] }]);
    expect(s.peerStatus().map((p) => [p.peerType, p.distinguisher, p.state])).toEqual([
      [0, "", "down"],
      [1, "64500:7", "down"],
    ]);

    const loc = session();
    const locRib = peer({ peerType: 3, view: "loc-rib", address: "", asn: 64500 });
    loc.s.handle(rm(locRib, { announced: [v4("10.0.0.0/8")] }), at());
    loc.s.handle({ kind: "peer-down", peer: locRib, reason: 1, detail: "" }, at());
    expect(loc.recorded.rows[0]).toMatchObject({ peer_ip: "192.0.2.1", peer_asn: 64500, rib_view: "loc-rib" });
    expect(loc.recorded.sweeps[0].scope).toMatchObject({ peerIp: "192.0.2.1", views: ["loc-rib"] });
    expect(loc.s.keepPeers()).toEqual(["192.0.2.1|loc-rib"]);
  });

  it("counts and skips Adj-RIB-Out, other address families, mirroring and unknown types; a bad message is a decode error", () => {
    const { s, recorded } = session();
    s.handle(rm(peer({ adjRibOut: true }), { announced: [v4("192.0.2.0/24")] }), at());
    s.handle(rm(peer(), { skipped: { afi: 25, safi: 70, reason: "EVPN" } }), at());
    s.handle({ kind: "route-mirroring", peer: peer() }, at());
    s.handle({ kind: "unknown", type: 9 }, at());
    s.handle({ kind: "bad", type: 0, message: "attribute length beyond the UPDATE" }, at());
    expect(recorded.rows).toEqual([]);
    expect(recorded.other).toEqual([
      "message route-monitoring",
      "skipped Adj-RIB-Out messages (not stored)",
      "message route-monitoring",
      "skipped EVPN messages (not stored)",
      "message route-mirroring",
      "skipped Route mirroring messages",
      "message unknown",
      "skipped Messages of unknown type 9",
      "message route-monitoring",
      "error route-monitoring message: attribute length beyond the UPDATE",
    ]);
  });
});
