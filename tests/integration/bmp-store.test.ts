/**
 * The BMP station's writes against chDB: rows of Route Monitoring messages through the query door's
 * raw insert, and sweeps (INSERT … SELECT from rib_current FINAL) that withdraw exactly the routes
 * of their scope — one peer, one view, one address family, one set of route distinguishers, only
 * routes older than a time, or a router's routes but those of the peers it keeps — checked against
 * rib_current and the routing history. Also the count of current routes per router, peer and view.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodeRow, peerTarget, updateRows } from "~/features/collector/bmp/rows";
import { doorStore, type StationStore } from "~/features/collector/bmp/store.server";
import { writeRouterStatus, type RouterStatusUpdate } from "~/features/collector/bmp/status.server";
import { routeCountsSql, type SweepScope } from "~/features/collector/bmp/sweep-sql";
import type { BmpPeer, BmpUpdate } from "~/features/routing/bmp/types";
import { emptyAttributes } from "~/features/routing/mrt/attributes";
import { onRoutingRefresh, requestRoutingRefresh } from "~/features/collector/enrich/routing-refresh.server";
import { loadEnrichmentSnapshot, reloadRoutingTables } from "~/features/collector/enrich/snapshot.server";
import { createRouter, createVantagePoint, getRouter } from "~/features/inventory/inventory.server";
import { bmpRouterStatus } from "~db/postgres/schema";
import { chCommand } from "~/server/clickhouse/query.server";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

const VP = "fra1-r1";
const ROUTER = { address: "192.0.2.1", vantagePoint: VP };
// Another router, another vantage point: rib_current's key has no router, a vantage point is one router's.
const OTHER_ROUTER = { address: "192.0.2.2", vantagePoint: "ber1-r1" };
const T = 1_760_000_000;

let stores: TestStores;
let store: StationStore;

beforeAll(async () => {
  stores = await openTestStores();
  store = doorStore(stores);
});
afterAll(() => stores?.dispose());
beforeEach(async () => {
  await chCommand(stores.ch, { name: "test.truncate", sql: "TRUNCATE TABLE rib_entries" });
  await chCommand(stores.ch, { name: "test.truncate", sql: "TRUNCATE TABLE rib_current" });
});

const peer = (address: string, extra: Partial<BmpPeer> = {}): BmpPeer => ({
  peerType: 0,
  view: "post-policy",
  distinguisher: "",
  address,
  asn: 64496,
  bgpId: address,
  timestamp: 0,
  legacyAsPath: false,
  adjRibOut: false,
  filtered: false,
  ...extra,
});

function route(prefix: string, extra: { rd?: string; pathId?: number } = {}) {
  const [address, length] = prefix.split("/");
  const afi = address.includes(":") ? (2 as const) : (1 as const);
  return {
    prefix,
    address,
    length: Number(length),
    afi,
    safi: extra.rd ? 128 : 1,
    routeDistinguisher: extra.rd ?? "",
    pathId: extra.pathId ?? 0,
    labels: [],
    nextHop: afi === 1 ? "198.51.100.1" : "2001:db8::1",
  };
}

const announce = (prefixes: ReturnType<typeof route>[], asPath = [64496]): BmpUpdate => ({
  announced: prefixes,
  withdrawn: [],
  attributes: { ...emptyAttributes(), origin: "IGP", asPath: [{ type: "sequence", asns: asPath }], localPref: 100 },
  extendedCommunities: ["RT:64500:1"],
  endOfRib: null,
  skipped: null,
});

async function write(router: typeof ROUTER, p: BmpPeer, u: BmpUpdate, at: number) {
  const lines = updateRows(u, peerTarget(p, router), at).map(encodeRow);
  await store.insertRows(lines, lines.length);
}

type Current = { key: string; withdrawn: number; t: number; path: number[] };

/** rib_current as "router peer view rd prefix#path" → state, newest row per route. */
async function current(): Promise<Record<string, string>> {
  const rows = await chRows<Current>(
    stores,
    `SELECT concat(vantage_point, ' ', router_ip, ' ', peer_ip, ' ', toString(rib_view), ' ', route_distinguisher, ' ', prefix, '#', toString(path_id)) AS key,
            is_withdrawn AS withdrawn, toUInt32(timestamp) AS t, as_path AS path
     FROM rib_current FINAL ORDER BY key`,
  );
  return Object.fromEntries(
    rows.map((r) => [r.key, Number(r.withdrawn) ? `withdrawn at ${Number(r.t) - T}` : `up since ${Number(r.t) - T}`]),
  );
}

const sweep = (scope: Partial<SweepScope>, at: number) =>
  store.sweep({
    scope: { vantagePoint: VP, routerIp: ROUTER.address, views: ["pre-policy", "post-policy"], ...scope },
    at,
    label: "test",
    reason: "peer-down",
  });

describe("rows and sweeps in rib_entries and rib_current", () => {
  it("withdraws one peer's routes, in the views of its kind, and leaves other peers, views and routers alone", async () => {
    const a = peer("198.51.100.7");
    const b = peer("198.51.100.8");
    await write(ROUTER, a, announce([route("203.0.113.0/24"), route("2001:db8:1::/48")]), T);
    await write(ROUTER, { ...a, view: "pre-policy" }, announce([route("203.0.113.0/24")]), T);
    await write(ROUTER, b, announce([route("203.0.113.0/24")]), T);
    await write(ROUTER, peer("", { peerType: 3, view: "loc-rib", asn: 64500 }), announce([route("203.0.113.0/24")]), T);
    await write(OTHER_ROUTER, a, announce([route("203.0.113.0/24")]), T);
    expect(await sweep({ peerIp: a.address }, T + 10)).toBe(true);
    expect(await current()).toEqual({
      "ber1-r1 192.0.2.2 198.51.100.7 post-policy  203.0.113.0/24#0": "up since 0",
      "fra1-r1 192.0.2.1 192.0.2.1 loc-rib  203.0.113.0/24#0": "up since 0",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  2001:db8:1::/48#0": "withdrawn at 10",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "withdrawn at 10",
      "fra1-r1 192.0.2.1 198.51.100.7 pre-policy  203.0.113.0/24#0": "withdrawn at 10",
      "fra1-r1 192.0.2.1 198.51.100.8 post-policy  203.0.113.0/24#0": "up since 0",
    });
    // The withdrawals are in the history too, without path attributes, with the route's view and path id.
    const history = await chRows<{ n: number; paths: number; ext: number }>(
      stores,
      "SELECT count() AS n, countIf(length(as_path) > 0) AS paths, countIf(length(ext_communities) > 0) AS ext FROM rib_entries WHERE is_withdrawn = 1",
    );
    expect(history.map((h) => [Number(h.n), Number(h.paths), Number(h.ext)])).toEqual([[3, 0, 0]]);
    // Nothing left to withdraw: the look for candidates says so and nothing is written. The look reads the parts as
    // they are (no FINAL), so it says so once the withdrawals replaced the routes' rows: merged here, as in time.
    await chCommand(stores.ch, { name: "test.mergeRibCurrent", sql: "OPTIMIZE TABLE rib_current FINAL" });
    expect(await sweep({ peerIp: a.address }, T + 20)).toBe(false);
    const [{ n }] = await chRows<{ n: number }>(stores, "SELECT count() AS n FROM rib_entries");
    expect(Number(n)).toBe(9);
  });

  it("withdraws only routes older than the cutoff: routes announced again since stay", async () => {
    const a = peer("198.51.100.7");
    await write(ROUTER, a, announce([route("203.0.113.0/24"), route("198.18.0.0/15"), route("198.18.0.0/15", { pathId: 2 })]), T);
    // The router's new session (Peer Up at T + 100) announces one of them again, with another path.
    await write(ROUTER, a, announce([route("203.0.113.0/24")], [64496, 64511]), T + 105);
    expect(await sweep({ peerIp: a.address, views: ["post-policy"], family: { afi: 1, safi: 1 }, before: T + 100 }, T + 110)).toBe(true);
    expect(await current()).toEqual({
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  198.18.0.0/15#0": "withdrawn at 110",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  198.18.0.0/15#2": "withdrawn at 110",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "up since 105",
    });
    const [kept] = await chRows<Current>(stores, "SELECT as_path AS path FROM rib_current FINAL WHERE is_withdrawn = 0");
    expect(kept.path.map(Number)).toEqual([64496, 64511]);
  });

  it("limits a sweep to an address family and to route distinguishers, or to all but some", async () => {
    const a = peer("198.51.100.7");
    await write(ROUTER, a, announce([route("203.0.113.0/24"), route("2001:db8:1::/48")]), T);
    await write(ROUTER, a, announce([route("10.0.0.0/8", { rd: "64500:1" }), route("10.0.0.0/8", { rd: "64500:2" })]), T);
    expect(await sweep({ peerIp: a.address, family: { afi: 2, safi: 1 } }, T + 1)).toBe(true);
    expect(await sweep({ peerIp: a.address, distinguishers: { only: ["64500:1"] } }, T + 2)).toBe(true);
    expect(await current()).toEqual({
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  2001:db8:1::/48#0": "withdrawn at 1",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "up since 0",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy 64500:1 10.0.0.0/8#0": "withdrawn at 2",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy 64500:2 10.0.0.0/8#0": "up since 0",
    });
    expect(await sweep({ peerIp: a.address, distinguishers: { except: ["64500:2"] } }, T + 3)).toBe(true);
    expect((await current())["fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0"]).toBe("withdrawn at 3");
    expect((await current())["fra1-r1 192.0.2.1 198.51.100.7 post-policy 64500:2 10.0.0.0/8#0"]).toBe("up since 0");
  });

  it("a router-wide sweep leaves the peers its new session brought up", async () => {
    await write(ROUTER, peer("198.51.100.7"), announce([route("203.0.113.0/24")]), T);
    await write(ROUTER, peer("198.51.100.8"), announce([route("203.0.113.0/24")]), T);
    await write(ROUTER, peer("", { peerType: 3, view: "loc-rib" }), announce([route("203.0.113.0/24")]), T);
    expect(
      await sweep(
        {
          views: ["pre-policy", "post-policy", "loc-rib"],
          before: T + 50,
          keepPeers: ["198.51.100.8|post-policy", "198.51.100.8|pre-policy"],
        },
        T + 60,
      ),
    ).toBe(true);
    expect(await current()).toEqual({
      "fra1-r1 192.0.2.1 192.0.2.1 loc-rib  203.0.113.0/24#0": "withdrawn at 60",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "withdrawn at 60",
      "fra1-r1 192.0.2.1 198.51.100.8 post-policy  203.0.113.0/24#0": "up since 0",
    });
  });

  it("a route announced again in the second of its withdrawal, after it, is up: the later row wins", async () => {
    const a = peer("198.51.100.7");
    await write(ROUTER, a, announce([route("203.0.113.0/24")]), T);
    await sweep({ peerIp: a.address }, T + 5);
    await write(ROUTER, a, announce([route("203.0.113.0/24")]), T + 5);
    expect(await current()).toEqual({ "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "up since 5" });
    // And the other way round: a withdrawal in the same second as the announcement before it.
    await sweep({ peerIp: a.address }, T + 5);
    expect(await current()).toEqual({ "fra1-r1 192.0.2.1 198.51.100.7 post-policy  203.0.113.0/24#0": "withdrawn at 5" });
  });

  it("counts the current routes per router, peer and view", async () => {
    await write(ROUTER, peer("198.51.100.7"), announce([route("203.0.113.0/24"), route("198.18.0.0/15")]), T);
    await write(ROUTER, peer("198.51.100.7", { view: "pre-policy" }), announce([route("203.0.113.0/24")]), T);
    await write(OTHER_ROUTER, peer("198.51.100.7"), announce([route("203.0.113.0/24")]), T);
    await sweep({ peerIp: "198.51.100.7", views: ["pre-policy"] }, T + 1);
    const rows = await chRows<{ vp: string; router: string; peer: string; view: string; routes: number }>(
      stores,
      routeCountsSql([VP, "ber1-r1"]).sql,
      routeCountsSql([VP, "ber1-r1"]).params,
    );
    expect(rows.map((r) => `${r.vp} ${r.router} ${r.peer} ${r.view} ${Number(r.routes)}`)).toEqual([
      "ber1-r1 192.0.2.2 198.51.100.7 post-policy 1",
      "fra1-r1 192.0.2.1 198.51.100.7 post-policy 2",
    ]);
  });
});

describe("the flow collector's routing tables after the station changed them", () => {
  it("reads again only the tables of the vantage points it is told of", async () => {
    for (const [name, loopback] of [
      ["fra1-r1", "192.0.2.1"],
      ["ber1-r1", "192.0.2.2"],
    ])
      await createRouter(stores, { name, city: "Frankfurt", country: "DE", loopback, interfaces: [] });
    await createVantagePoint(stores, { key: VP, router: "fra1-r1", city: "Frankfurt", country: "DE", ip: "192.0.2.1" });
    await createVantagePoint(stores, { key: "ber1-r1", router: "ber1-r1", city: "Berlin", country: "DE", ip: "192.0.2.2" });
    await write(ROUTER, peer("198.51.100.7"), announce([route("203.0.113.0/24")]), T);
    await write(OTHER_ROUTER, peer("198.51.100.7"), announce([route("203.0.113.0/24")]), T);
    const before = await loadEnrichmentSnapshot(stores);
    const table = (s: typeof before, vp: string) => s.ribs.find((t) => t.vantagePoint === vp && t.routeDistinguisher === "")!;
    expect(table(before, VP).ipv4.count).toBe(1);

    await write(ROUTER, peer("198.51.100.7"), announce([route("198.18.0.0/15"), route("2001:db8:1::/48")]), T + 1);
    await write(OTHER_ROUTER, peer("198.51.100.7"), announce([route("198.18.0.0/15")]), T + 1);
    const after = await reloadRoutingTables(stores, before, [VP, "not-a-router's"]);
    expect(table(after, VP).ipv4.count).toBe(2);
    expect(table(after, VP).ipv6.count).toBe(1);
    // The other router's table is the one read before (the same object, not read again), though it changed too.
    expect(table(after, "ber1-r1")).toBe(table(before, "ber1-r1"));
    expect(after.routers).toBe(before.routers);
    // Nothing to read: the same snapshot.
    expect(await reloadRoutingTables(stores, after, ["elsewhere"])).toBe(after);
  });

  it("gathers the requests of a burst into one, for the listeners of this process", async () => {
    const heard: string[][] = [];
    requestRoutingRefresh("nobody-listens", 10);
    const stop = onRoutingRefresh((vps) => heard.push(vps));
    try {
      requestRoutingRefresh("b", 30);
      requestRoutingRefresh("a", 30);
      requestRoutingRefresh("b", 30);
      await expect.poll(() => heard).toEqual([["a", "b"]]);
      requestRoutingRefresh("c", 10);
      await expect.poll(() => heard).toEqual([["a", "b"], ["c"]]);
    } finally {
      stop();
    }
  });
});

describe("the station's status rows", () => {
  it("add the counters of each write, replace the rest, keep the last error and names when a write has none, and skip routers gone", async () => {
    const router = (await getRouter(stores, "fra1-r1"))!;
    const update = (extra: Partial<RouterStatusUpdate>): RouterStatusUpdate => ({
      routerId: router.id,
      vantagePoint: VP,
      address: "192.0.2.1",
      station: "station1 (pid 1)",
      state: "up",
      sysName: "",
      sysDescr: "",
      sessionsStarted: 0,
      sessionStartedAt: new Date(T * 1000),
      sessionClosedAt: null,
      closeReason: null,
      peers: [],
      messages: {},
      decodeErrors: 0,
      skipped: {},
      lastError: null,
      ...extra,
    });
    await writeRouterStatus(stores.pg.db, [
      update({
        sysName: "fra1-r1.example.net",
        sessionsStarted: 1,
        messages: { "route-monitoring": 10, "peer-up": 2 },
        decodeErrors: 1,
        skipped: { "EVPN messages (not stored)": 1 },
        lastError: { text: "bad UPDATE", at: new Date(T * 1000) },
      }),
      update({ routerId: 999_999 }),
    ]);
    await writeRouterStatus(stores.pg.db, [
      update({ messages: { "route-monitoring": 5, termination: 1 }, skipped: { "EVPN messages (not stored)": 2 }, state: "closed" }),
    ]);
    const rows = await stores.pg.db.select().from(bmpRouterStatus);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      routerId: router.id,
      state: "closed",
      sysName: "fra1-r1.example.net",
      sessions: 1,
      messages: { "route-monitoring": 15, "peer-up": 2, termination: 1 },
      decodeErrors: 1,
      skipped: { "EVPN messages (not stored)": 3 },
      lastError: "bad UPDATE",
    });
  });
});
