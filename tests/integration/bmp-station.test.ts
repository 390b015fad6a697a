/**
 * The BMP station (`bmp` component) on a port-0 listen address against test stores, with sessions
 * from loopback addresses (127.0.0.x) that the inventory names as routers, and BMP messages built by
 * tests/helpers/bmp-builder.ts: every message type; IPv4/IPv6 unicast, L3VPN with route
 * distinguishers, ADD-PATH paths kept apart, Loc-RIB with the router as the peer, pre- and
 * post-policy tables; a peer down withdrawing its routes; a reconnect replacing the table without a
 * gap; a router that does not come back (also across a restart of the station); garbage and truncated
 * streams; an unknown source refused and listed; back-pressure with a slow store; the status rows,
 * the Data sources page and the metrics. Expected tables are written out from the messages sent.
 */
import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bmpRouterStatus, bmpUnknownSources, vantagePoints } from "~db/postgres/schema";
import { bmpStation, type BmpStation } from "~/features/collector/bmp/station.server";
import type { BmpSettings } from "~/features/collector/bmp/settings.server";
import { doorStore, type StationStore } from "~/features/collector/bmp/store.server";
import { loadDataSourcesScreen } from "~/features/collector/data-sources/data-sources-screen.server";
import { onRoutingRefresh } from "~/features/collector/enrich/routing-refresh.server";
import { createRouter, createVantagePoint } from "~/features/inventory/inventory.server";
import type { ComponentContext } from "~/server/components/contract.server";
import { metricsResponse } from "~/server/metrics-endpoint.server";
import type { Services } from "~/server/services.server";
import {
  bgpMessage,
  bmpMessage,
  endOfRib,
  evpnRoute,
  fullTableUpdates,
  initiation,
  peer,
  peerDown,
  peerUp,
  routeMirroring,
  routeMonitoring,
  routeMonitoringRaw,
  statisticsReport,
  termination,
  type PeerOptions,
} from "../helpers/bmp-builder";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const TOKEN = "scrape-token-0123456789abcdef";
const SETTINGS: Omit<BmpSettings, "listen"> = {
  staleAfterMs: 4_000,
  keepAfterCloseMs: 60_000,
  batchRows: 1_000,
  flushMs: 100,
  queueRows: 20_000,
};

let stores: TestStores;
let clock = Math.floor(Date.now() / 1000) * 1000;
const lines: string[] = [];
const refreshed: string[] = [];
let stopListening: () => void = () => {};

function context(settings: Omit<BmpSettings, "listen">): ComponentContext<BmpSettings> {
  const line = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return {
    settings: { listen: { host: "127.0.0.1", port: 0 }, ...settings },
    log: { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") },
    metrics: { increment: () => {}, duration: () => {} },
  };
}

async function startStation(options: { settings?: Partial<Omit<BmpSettings, "listen">>; store?: (s: Services) => StationStore } = {}) {
  const station = bmpStation({ now: () => clock, statusIntervalMs: 200, routeCountIntervalMs: 600_000, store: options.store });
  await station.start(stores, context({ ...SETTINGS, ...options.settings }));
  return station;
}

type Client = { socket: net.Socket; send: (...messages: Buffer[]) => Promise<void>; end: () => Promise<void>; closed: Promise<void> };

/** A TCP session to the station from `localAddress` (a loopback address the test gives a router). */
function connect(station: BmpStation, localAddress: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: station.port(), localAddress });
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    socket.on("error", () => {});
    socket.once("connect", () =>
      resolve({
        socket,
        closed,
        send: (...messages) => new Promise((done, fail) => socket.write(Buffer.concat(messages), (e) => (e ? fail(e) : done()))),
        end: async () => {
          socket.end();
          await closed;
        },
      }),
    );
    socket.once("error", reject);
  });
}

/** Waits until the station has handled `n` more messages than `before`, then writes everything. */
async function handled(station: BmpStation, before: number, n: number) {
  await expect.poll(() => station.totals().messages, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + n);
  await station.settle();
}

/** The current routes of a vantage point, one line each: view peer (AS) rd prefix#path as-path next-hop communities ext. */
async function table(vantagePoint: string): Promise<string[]> {
  const rows = await chRows<Record<string, unknown>>(
    stores,
    `SELECT toString(rib_view) AS view, peer_ip, peer_asn, route_distinguisher AS rd, prefix, path_id, safi, as_path, bgp_next_hop AS nh,
            communities, ext_communities AS ext, local_pref, med, router_ip
     FROM rib_current FINAL WHERE vantage_point = {vp:String} AND is_withdrawn = 0`,
    { vp: vantagePoint },
  );
  return rows
    .map((r) =>
      [
        r.view,
        `${r.peer_ip} AS${r.peer_asn}`,
        r.rd || "-",
        `${r.prefix}#${r.path_id}`,
        `safi ${r.safi}`,
        `[${(r.as_path as number[]).join(" ")}]`,
        r.nh || "-",
        (r.communities as string[]).join(",") || "-",
        (r.ext as string[]).join(",") || "-",
        `lp ${r.local_pref} med ${r.med}`,
        `via ${r.router_ip}`,
      ].join(" "),
    )
    .sort();
}

/** The prefixes (with path id) of a vantage point's current routes of one peer and view. */
async function prefixes(vantagePoint: string, view: string, peerIp: string): Promise<string[]> {
  const rows = await chRows<{ p: string }>(
    stores,
    `SELECT concat(prefix, '#', toString(path_id), ' [', arrayStringConcat(as_path, ' '), ']') AS p FROM rib_current FINAL
     WHERE vantage_point = {vp:String} AND toString(rib_view) = {view:String} AND peer_ip = {peer:String} AND is_withdrawn = 0`,
    { vp: vantagePoint, view, peer: peerIp },
  );
  return rows.map((r) => r.p).sort();
}

let adminId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  adminId = await insertSuperuser(stores, "admin@example.net");
  const router = (name: string, loopback: string, exporters: string[] = []) =>
    createRouter(stores, { name, city: "Frankfurt", country: "DE", loopback, exporters, interfaces: [] });
  await router("fra1-r1", "127.0.0.21");
  await createVantagePoint(stores, { key: "fra1", router: "fra1-r1", city: "Frankfurt", country: "DE", ip: "127.0.0.21", public: true });
  // Known by an exporter address, not its loopback; no vantage point yet.
  await router("ber1-r1", "10.0.0.2", ["127.0.0.22"]);
  for (const [name, address] of [
    ["ham1-r1", "127.0.0.23"],
    ["muc1-r1", "127.0.0.24"],
    ["vie1-r1", "127.0.0.25"],
    ["par1-r1", "127.0.0.26"],
    ["lon1-r1", "127.0.0.27"],
    ["ams1-r1", "127.0.0.28"],
    ["cph1-r1", "127.0.0.29"],
  ])
    await router(name, address);
  stopListening = onRoutingRefresh((vps) => refreshed.push(...vps));
}, 120_000);

afterAll(async () => {
  stopListening();
  await stores?.dispose();
});

describe("the BMP station", () => {
  let station: BmpStation;
  beforeAll(async () => {
    station = await startStation();
  });
  afterAll(() => station?.stop());

  it("stores every message type's routes under the router's vantage point and keeps its figures", async () => {
    const before = station.totals().messages;
    const a: PeerOptions = { address: "198.51.100.1", asn: 64501 };
    const b: PeerOptions = { address: "2001:db8::b", asn: 64502 };
    const c: PeerOptions = { type: "rd", rd: "64500:30", address: "198.51.100.3", asn: 64503 };
    const loc: PeerOptions = { view: "loc-rib", asn: 64500, bgpId: "127.0.0.21" };
    const attrs = {
      asPath: [64501, 4_200_000_001],
      localPref: 200,
      med: 5,
      communities: ["64501:100"],
      largeCommunities: ["64501:1:2"],
      extendedCommunities: ["RT:64501:7"],
      originatorId: "192.0.2.99",
    };
    const client = await connect(station, "127.0.0.21");
    const messages = [
      initiation({ sysName: "fra1-r1.example.net", sysDescr: "Example OS 7.4" }),
      peerUp({ peer: a, addPath: ["1/1"] }),
      routeMonitoring({
        peer: a,
        announce: [
          { prefix: "203.0.113.0/24", pathId: 1, nextHop: "198.51.100.1" },
          { prefix: "203.0.113.0/24", pathId: 2, nextHop: "198.51.100.1" },
        ],
        ...attrs,
      }),
      routeMonitoring({
        peer: { ...a, view: "pre-policy" },
        announce: [{ prefix: "203.0.113.0/24", pathId: 1, nextHop: "198.51.100.1" }],
        asPath: [64501, 64502],
      }),
      peerUp({ peer: b }),
      routeMonitoring({ peer: b, announce: [{ prefix: "2001:db8:100::/48", nextHop: "2001:db8::b" }], asPath: [64502], localPref: 100 }),
      routeMonitoring({
        peer: b,
        announce: [{ prefix: "198.51.100.0/24", rd: "64500:10", labels: [100], nextHop: "192.0.2.50" }],
        asPath: [64502],
      }),
      routeMonitoring({
        peer: b,
        announce: [{ prefix: "2001:db8:200::/48", rd: "64500:20", labels: [200], nextHop: "2001:db8::b" }],
        asPath: [64502],
      }),
      peerUp({ peer: loc }),
      routeMonitoring({ peer: loc, announce: [{ prefix: "192.0.2.128/25", nextHop: "127.0.0.21" }], asPath: [], localPref: 100 }),
      peerUp({ peer: c }),
      routeMonitoring({ peer: c, announce: [{ prefix: "10.30.0.0/16", nextHop: "198.51.100.3" }], asPath: [64503] }),
      statisticsReport({
        peer: a,
        statistics: [
          { type: 7, value: 3 },
          { type: 0, value: 2 },
        ],
      }),
      routeMirroring({ peer: a }),
      evpnRoute({ peer: b }),
      // ADD-PATH was negotiated both ways for IPv4 unicast: the Adj-RIB-Out's UPDATEs carry path ids too.
      routeMonitoring({
        peer: { ...a, adjRibOut: true },
        announce: [{ prefix: "192.0.2.0/24", pathId: 5, nextHop: "192.0.2.1" }],
        asPath: [64500],
      }),
      bmpMessage(9, Buffer.from("future")),
      // An UPDATE whose attributes run past its end: a decode error, and the session goes on.
      routeMonitoringRaw({ peer: a, message: bgpMessage(2, Buffer.from([0, 0, 0, 40, 0x40, 1, 1, 0])) }),
      routeMonitoring({ peer: a, withdraw: [{ prefix: "203.0.113.0/24", pathId: 2 }] }),
      endOfRib({ peer: a, afi: 1, safi: 1 }),
    ];
    await client.send(...messages);
    await handled(station, before, messages.length);

    const path = "[64501 4200000001] 198.51.100.1 64501:100,64501:1:2 RT:64501:7 lp 200 med 5";
    expect(await table("fra1")).toEqual(
      [
        `post-policy 198.51.100.1 AS64501 - 203.0.113.0/24#1 safi 1 ${path} via 127.0.0.21`,
        "pre-policy 198.51.100.1 AS64501 - 203.0.113.0/24#1 safi 1 [64501 64502] 198.51.100.1 - - lp 0 med 0 via 127.0.0.21",
        "post-policy 2001:db8::b AS64502 - 2001:db8:100::/48#0 safi 1 [64502] 2001:db8::b - - lp 100 med 0 via 127.0.0.21",
        "post-policy 2001:db8::b AS64502 64500:10 198.51.100.0/24#0 safi 128 [64502] 192.0.2.50 - - lp 0 med 0 via 127.0.0.21",
        "post-policy 2001:db8::b AS64502 64500:20 2001:db8:200::/48#0 safi 128 [64502] 2001:db8::b - - lp 0 med 0 via 127.0.0.21",
        "loc-rib 127.0.0.21 AS64500 - 192.0.2.128/25#0 safi 1 [] 127.0.0.21 - - lp 100 med 0 via 127.0.0.21",
        "post-policy 198.51.100.3 AS64503 64500:30 10.30.0.0/16#0 safi 1 [64503] 198.51.100.3 - - lp 0 med 0 via 127.0.0.21",
      ].sort(),
    );
    // The path withdrawn is a withdrawal in rib_current, not a missing row.
    const [withdrawn] = await chRows<{ n: number }>(
      stores,
      "SELECT count() AS n FROM rib_current FINAL WHERE vantage_point = 'fra1' AND is_withdrawn = 1 AND path_id = 2",
    );
    expect(Number(withdrawn.n)).toBe(1);
    // A collector in this process was asked to read the table again.
    await expect.poll(() => refreshed.includes("fra1"), { timeout: 10_000 }).toBe(true);

    await client.send(termination(0, { strings: ["maintenance window"] }));
    await client.end();
    // The termination reaches the station's socket after the send returns: settle once it has been read.
    const status = async () => {
      await station.settle();
      const [r] = await stores.pg.db.select().from(bmpRouterStatus).where(eq(bmpRouterStatus.vantagePoint, "fra1"));
      return r;
    };
    await expect.poll(async () => (await status())?.state, { timeout: 10_000 }).toBe("closed");
    const row = await status();
    expect(row).toMatchObject({
      address: "127.0.0.21",
      state: "closed",
      sysName: "fra1-r1.example.net",
      sysDescr: "Example OS 7.4",
      sessions: 1,
      decodeErrors: 1,
      routes: { "post-policy": 5, "pre-policy": 1, "loc-rib": 1 },
      messages: {
        initiation: 1,
        "peer-up": 4,
        "route-monitoring": 12,
        "statistics-report": 1,
        "route-mirroring": 1,
        unknown: 1,
        termination: 1,
      },
      skipped: {
        "Adj-RIB-Out messages (not stored)": 1,
        "EVPN messages (not stored)": 1,
        "Route mirroring messages": 1,
        "Messages of unknown type 9": 1,
      },
    });
    expect(row.closeReason).toMatch(/^terminated by the router: .*maintenance window/);
    expect(row.lastError).toMatch(/route-monitoring message/);
    expect(row.peers.map((p) => [p.address, p.asn, p.peerType, p.distinguisher, p.views.join("+")])).toEqual([
      ["127.0.0.21", 64500, 3, "", "loc-rib"],
      ["198.51.100.1", 64501, 0, "", "post-policy+pre-policy"],
      ["198.51.100.3", 64503, 1, "64500:30", "post-policy"],
      ["2001:db8::b", 64502, 0, "", "post-policy"],
    ]);
    expect(Object.values(row.peers[1].statistics).sort()).toEqual([2, 3]);
    expect(row.peerRoutes).toEqual({
      "127.0.0.21": { "loc-rib": 1 },
      "198.51.100.1": { "post-policy": 1, "pre-policy": 1 },
      "198.51.100.3": { "post-policy": 1 },
      "2001:db8::b": { "post-policy": 3 },
    });
    // The routes of the router stay while it is away (within BMP_KEEP_AFTER_CLOSE).
    expect(await table("fra1")).toHaveLength(7);
  }, 60_000);

  it("makes a vantage point for a router that has none, known by an exporter address, and withdraws a peer's routes when it goes down", async () => {
    const before = station.totals().messages;
    const a: PeerOptions = { address: "198.51.100.11", asn: 64511 };
    const b: PeerOptions = { address: "198.51.100.12", asn: 64512 };
    const client = await connect(station, "127.0.0.22");
    const messages = [
      initiation({ sysName: "ber1-r1" }),
      peerUp({ peer: a }),
      peerUp({ peer: b }),
      routeMonitoring({
        peer: a,
        announce: [
          { prefix: "198.18.0.0/24", nextHop: "198.51.100.11" },
          { prefix: "198.18.1.0/24", nextHop: "198.51.100.11" },
        ],
        asPath: [64511],
      }),
      routeMonitoring({
        peer: { ...a, view: "pre-policy" },
        announce: [{ prefix: "198.18.2.0/24", nextHop: "198.51.100.11" }],
        asPath: [64511],
      }),
      routeMonitoring({ peer: b, announce: [{ prefix: "198.18.0.0/24", nextHop: "198.51.100.12" }], asPath: [64512, 64511] }),
    ];
    await client.send(...messages);
    await handled(station, before, messages.length);
    const [point] = await stores.pg.db.select().from(vantagePoints).where(eq(vantagePoints.router, "ber1-r1"));
    expect(point).toMatchObject({ key: "ber1-r1", city: "Frankfurt", country: "DE", ip: "10.0.0.2", isPublic: false });
    expect(await prefixes("ber1-r1", "post-policy", "198.51.100.11")).toEqual(["198.18.0.0/24#0 [64511]", "198.18.1.0/24#0 [64511]"]);

    clock += 5_000;
    await client.send(peerDown({ peer: a, reason: 1 }));
    await handled(station, before, messages.length + 1);
    expect(await prefixes("ber1-r1", "post-policy", "198.51.100.11")).toEqual([]);
    expect(await prefixes("ber1-r1", "pre-policy", "198.51.100.11")).toEqual([]);
    expect(await prefixes("ber1-r1", "post-policy", "198.51.100.12")).toEqual(["198.18.0.0/24#0 [64512 64511]"]);
    // The routing history holds each withdrawal at the time the Peer Down arrived.
    const history = await chRows<{ prefix: string; t: number }>(
      stores,
      "SELECT prefix, toUInt32(timestamp) AS t FROM rib_entries WHERE vantage_point = 'ber1-r1' AND is_withdrawn = 1 ORDER BY prefix",
    );
    expect(history.map((h) => [h.prefix, Number(h.t)])).toEqual([
      ["198.18.0.0/24", clock / 1000],
      ["198.18.1.0/24", clock / 1000],
      ["198.18.2.0/24", clock / 1000],
    ]);
    await station.settle();
    const screen = await loadDataSourcesScreen(stores, { id: adminId }, new Date(clock));
    const peerA = screen.bmp.peers.find((p) => p.router === "ber1-r1" && p.address === "198.51.100.11");
    expect(peerA).toMatchObject({ asn: "AS64511", kind: "Global instance", down: true });
    expect(peerA?.state).toMatch(/^Down since .*: /);
    expect(screen.bmp.routers.find((r) => r.router === "ber1-r1")).toMatchObject({
      up: true,
      address: "127.0.0.22",
      vantagePoint: "ber1-r1",
      peers: "1 of 2 up",
      routes: [{ label: "Post-policy Adj-RIB-In", count: "1" }],
    });
    await client.end();
  }, 60_000);

  it("replaces a reconnecting router's table without a gap: routes not announced again go at End-of-RIB or after BMP_STALE_AFTER", async () => {
    const vp = "ham1-r1";
    const a: PeerOptions = { address: "198.51.100.21", asn: 64521 };
    const b: PeerOptions = { address: "198.51.100.22", asn: 64522 };
    const route = (prefix: string) => ({ prefix, nextHop: "198.51.100.21" });
    let before = station.totals().messages;
    const first = await connect(station, "127.0.0.23");
    const old = [
      initiation({ sysName: vp }),
      peerUp({ peer: a }),
      routeMonitoring({ peer: a, announce: ["10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"].map(route), asPath: [64521] }),
      routeMonitoring({ peer: { ...a, view: "pre-policy" }, announce: [route("10.4.0.0/16")], asPath: [64521] }),
      peerUp({ peer: b }),
      routeMonitoring({ peer: b, announce: [{ prefix: "10.9.0.0/16", nextHop: "198.51.100.22" }], asPath: [64522] }),
      endOfRib({ peer: a, afi: 1, safi: 1 }),
    ];
    await first.send(...old);
    await handled(station, before, old.length);
    await first.end();

    // The router comes back ten seconds later: its new session dumps its table again.
    clock += 10_000;
    before = station.totals().messages;
    const second = await connect(station, "127.0.0.23");
    const fresh = [
      initiation({ sysName: vp }),
      peerUp({ peer: a }),
      routeMonitoring({ peer: a, announce: [route("10.1.0.0/16"), route("10.5.0.0/16")], asPath: [64521, 64599] }),
    ];
    await second.send(...fresh);
    await handled(station, before, fresh.length);
    // Before its End-of-RIB nothing is missing: the old routes answer until the new table is complete.
    expect(await prefixes(vp, "post-policy", "198.51.100.21")).toEqual([
      "10.1.0.0/16#0 [64521 64599]",
      "10.2.0.0/16#0 [64521]",
      "10.3.0.0/16#0 [64521]",
      "10.5.0.0/16#0 [64521 64599]",
    ]);
    expect(await prefixes(vp, "pre-policy", "198.51.100.21")).toEqual(["10.4.0.0/16#0 [64521]"]);
    expect(await prefixes(vp, "post-policy", "198.51.100.22")).toEqual(["10.9.0.0/16#0 [64522]"]);

    clock += 1_000;
    await second.send(endOfRib({ peer: a, afi: 1, safi: 1 }));
    await handled(station, before, fresh.length + 1);
    expect(await prefixes(vp, "post-policy", "198.51.100.21")).toEqual(["10.1.0.0/16#0 [64521 64599]", "10.5.0.0/16#0 [64521 64599]"]);
    // The pre-policy table had no End-of-RIB yet, and peer b has not come up in the new session: both wait.
    expect(await prefixes(vp, "pre-policy", "198.51.100.21")).toEqual(["10.4.0.0/16#0 [64521]"]);
    expect(await prefixes(vp, "post-policy", "198.51.100.22")).toEqual(["10.9.0.0/16#0 [64522]"]);
    // BMP_STALE_AFTER (4 s here) after the Peer Up and after the session began: what was not announced again goes.
    await expect
      .poll(async () => [...(await prefixes(vp, "pre-policy", "198.51.100.21")), ...(await prefixes(vp, "post-policy", "198.51.100.22"))], {
        timeout: 15_000,
        interval: 300,
      })
      .toEqual([]);
    expect(await prefixes(vp, "post-policy", "198.51.100.21")).toEqual(["10.1.0.0/16#0 [64521 64599]", "10.5.0.0/16#0 [64521 64599]"]);
    await second.end();
  }, 60_000);

  it("closes a garbage or truncated stream with one log line naming the router and the reason; other sessions go on", async () => {
    const before = station.totals().messages;
    const healthy = await connect(station, "127.0.0.28");
    const p: PeerOptions = { address: "198.51.100.31", asn: 64531 };
    await healthy.send(initiation({ sysName: "ams1-r1" }), peerUp({ peer: p }));

    const garbage = await connect(station, "127.0.0.25");
    await garbage.send(
      initiation({ sysName: "vie1-r1" }),
      peerUp({ peer: p }),
      routeMonitoring({ peer: p, announce: [{ prefix: "10.25.0.0/16", nextHop: "198.51.100.31" }], asPath: [64531] }),
      Buffer.from("GET / HTTP/1.1\r\nHost: example\r\n\r\n"),
    );
    await garbage.closed;

    const truncated = await connect(station, "127.0.0.26");
    const up = peerUp({ peer: p });
    await truncated.send(initiation({ sysName: "par1-r1" }), up.subarray(0, 30));
    await truncated.end();

    await healthy.send(routeMonitoring({ peer: p, announce: [{ prefix: "10.28.0.0/16", nextHop: "198.51.100.31" }], asPath: [64531] }));
    await handled(station, before, 2 + 3 + 1 + 1);
    expect(await prefixes("ams1-r1", "post-policy", "198.51.100.31")).toEqual(["10.28.0.0/16#0 [64531]"]);
    // What came before the garbage is kept.
    expect(await prefixes("vie1-r1", "post-policy", "198.51.100.31")).toEqual(["10.25.0.0/16#0 [64531]"]);
    await expect.poll(() => lines.filter((l) => /vie1-r1|par1-r1/.test(l) && /closed/.test(l))).toHaveLength(2);
    const vie = lines.find((l) => l.includes("vie1-r1") && l.includes("closed"));
    const par = lines.find((l) => l.includes("par1-r1") && l.includes("closed"));
    expect(vie).toMatch(/^warn BMP session of vie1-r1 \(127\.0\.0\.25\) closed: not a BMP v3 stream/);
    expect(par).toMatch(/^warn BMP session of par1-r1 \(127\.0\.0\.26\) closed: the BMP stream ended inside a message/);
    await station.settle();
    const rows = await stores.pg.db.select().from(bmpRouterStatus);
    const byAddress = new Map(rows.map((r) => [r.address, r]));
    expect(byAddress.get("127.0.0.25")).toMatchObject({ state: "closed", decodeErrors: 1 });
    expect(byAddress.get("127.0.0.25")?.closeReason).toMatch(/not a BMP v3 stream/);
    expect(byAddress.get("127.0.0.26")).toMatchObject({ state: "closed", decodeErrors: 1 });
    expect(byAddress.get("127.0.0.28")).toMatchObject({ state: "up", decodeErrors: 0 });
    expect(healthy.socket.destroyed).toBe(false);
    await healthy.end();
  }, 60_000);

  it("refuses a source that is no router of the inventory, lists it for adoption, and takes it once adopted", async () => {
    const before = station.totals();
    for (let i = 0; i < 2; i++) {
      const stranger = await connect(station, "127.0.0.99");
      await stranger.send(initiation({ sysName: "stranger" })).catch(() => {});
      await stranger.closed;
    }
    await expect
      .poll(async () => (await stores.pg.db.select().from(bmpUnknownSources)).map((r) => [r.address, Number(r.attempts)]))
      .toEqual([["127.0.0.99", 2]]);
    expect(station.totals().refused).toBe(before.refused + 2);
    expect(station.totals().messages).toBe(before.messages);
    expect(lines.filter((l) => l.includes("refused a BMP session from 127.0.0.99"))).toHaveLength(1);
    const screen = await loadDataSourcesScreen(stores, { id: adminId }, new Date(clock));
    expect(screen.bmp.unknown).toEqual([
      expect.objectContaining({ address: "127.0.0.99", attempts: "2", adoptLink: "/site-settings/inventory?adopt=127.0.0.99" }),
    ]);

    await createRouter(stores, {
      name: "exporter-127-0-0-99",
      city: "Unknown",
      country: "Unknown",
      loopback: "127.0.0.99",
      interfaces: [],
    });
    expect((await loadDataSourcesScreen(stores, { id: adminId }, new Date(clock))).bmp.unknown).toEqual([]);
    const adopted = await connect(station, "127.0.0.99");
    await adopted.send(initiation({ sysName: "adopted" }));
    await handled(station, before.messages, 1);
    expect(await stores.pg.db.select().from(bmpUnknownSources)).toEqual([]);
    await adopted.end();
  }, 60_000);

  it("withdraws the routes of a router that does not come back within BMP_KEEP_AFTER_CLOSE, also after a restart of the station", async () => {
    const before = station.totals().messages;
    const p: PeerOptions = { address: "198.51.100.41", asn: 64541 };
    const client = await connect(station, "127.0.0.24");
    const messages = [
      initiation({ sysName: "muc1-r1" }),
      peerUp({ peer: p }),
      routeMonitoring({ peer: p, announce: [{ prefix: "10.24.0.0/16", nextHop: "198.51.100.41" }], asPath: [64541] }),
    ];
    await client.send(...messages);
    await handled(station, before, messages.length);
    await client.end();
    // The station stops before BMP_KEEP_AFTER_CLOSE is over; the one after it (1.5 s) finishes the wait.
    await station.stop();
    expect(await prefixes("muc1-r1", "post-policy", "198.51.100.41")).toEqual(["10.24.0.0/16#0 [64541]"]);
    station = await startStation({ settings: { keepAfterCloseMs: 1_500 } });
    await expect.poll(() => prefixes("muc1-r1", "post-policy", "198.51.100.41"), { timeout: 15_000, interval: 300 }).toEqual([]);
    await expect
      .poll(async () => (await stores.pg.db.select().from(bmpRouterStatus)).find((r) => r.vantagePoint === "muc1-r1")?.routesWithdrawn)
      .toBe(true);
    expect(lines.some((l) => l.includes("muc1-r1 did not come back within BMP_KEEP_AFTER_CLOSE"))).toBe(true);
  }, 60_000);

  it("reports sessions, messages by type, routes per router and view, and decode errors in /metrics", async () => {
    const before = station.totals().messages;
    const client = await connect(station, "127.0.0.29");
    const p: PeerOptions = { address: "198.51.100.51", asn: 64551 };
    await client.send(
      initiation({ sysName: "cph1-r1" }),
      peerUp({ peer: p }),
      routeMonitoring({ peer: p, announce: [{ prefix: "10.29.0.0/16", nextHop: "198.51.100.51" }], asPath: [64551] }),
    );
    await handled(station, before, 3);
    expect(station.health()).toMatchObject({ ok: true });
    expect(station.health().detail).toMatch(/^listening on 127\.0\.0\.1:\d+ \(TCP\), 1 session, 1 peer up, 0 rows waiting for the store$/);
    const response = metricsResponse(new Request("http://x/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } }), TOKEN);
    const text = await response.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);
    expect(value(/^flowlens_bmp_sessions (\d+)$/m)).toBe(1);
    expect(value(/^flowlens_bmp_messages_total\{type="peer-up"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^flowlens_bmp_messages_total\{type="route-monitoring"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^flowlens_bmp_decode_errors_total (\d+)$/m)).toBeGreaterThanOrEqual(3);
    const [counted] = await chRows<{ n: number }>(
      stores,
      "SELECT count() AS n FROM rib_current FINAL WHERE vantage_point = 'fra1' AND toString(rib_view) = 'post-policy' AND is_withdrawn = 0",
    );
    expect(value(/^flowlens_bmp_routes\{router="fra1-r1",view="post-policy"\} (\d+)$/m)).toBe(Number(counted.n));
    expect(value(/^flowlens_bmp_routes\{router="cph1-r1",view="post-policy"\} (\d+)$/m)).toBe(1);
    expect(value(/^flowlens_bmp_routes\{router="cph1-r1",view="loc-rib"\} (\d+)$/m)).toBe(0);
    await client.end();
    await expect.poll(() => station.totals().sessions).toBe(0);
  }, 60_000);
});

describe("back-pressure", () => {
  it("stops reading the sessions while the store is behind, and loses nothing", async () => {
    let release: () => void = () => {};
    let gate: Promise<void> = new Promise((resolve) => (release = resolve));
    let maxPending = 0;
    let station: BmpStation | null = null;
    const slow = (services: Services): StationStore => {
      const inner = doorStore(services);
      return {
        async insertRows(body, rows) {
          maxPending = Math.max(maxPending, station?.totals().pendingRows ?? 0);
          await gate;
          await inner.insertRows(body, rows);
        },
        sweep: (s) => inner.sweep(s),
      };
    };
    station = await startStation({ store: slow, settings: { batchRows: 500, queueRows: 2_000 } });
    try {
      const p = peer({ address: "198.51.100.61", asn: 64561 });
      const client = await connect(station, "127.0.0.27");
      const count = 30_000;
      await client.send(initiation({ sysName: "lon1-r1" }), peerUp({ peer: p }));
      const sending = client.send(...fullTableUpdates(count, { peer: p, prefixesPerUpdate: 4 }));
      await expect.poll(() => station!.totals().paused, { timeout: 20_000 }).toBe(true);
      // Reading stopped: no message is handled while the store holds everything back.
      const handledAtPause = station.totals().messages;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(station.totals().messages).toBe(handledAtPause);
      expect(station.totals().messages).toBeLessThan(2 + count / 4);
      const pending = station.totals().pendingRows;
      expect(pending).toBeGreaterThan(2_000);
      // Bounded: the high-water mark and what one read of the socket had already decoded.
      expect(pending).toBeLessThan(2_000 + 20_000);
      release();
      gate = Promise.resolve();
      await sending;
      await handled(station, 0, 2 + count / 4);
      const [stored] = await chRows<{ n: number }>(
        stores,
        "SELECT count() AS n FROM rib_current FINAL WHERE vantage_point = 'lon1-r1' AND is_withdrawn = 0",
      );
      expect(Number(stored.n)).toBe(count);
      expect(station.totals()).toMatchObject({ rowsWritten: count, pendingRows: 0, paused: false });
      expect(station.totals().pauses).toBeGreaterThanOrEqual(1);
      expect(maxPending).toBeLessThan(2_000 + 20_000);
      await client.end();
    } finally {
      release();
      await station.stop();
    }
  }, 120_000);
});

describe("ingest rate", () => {
  it("stores a table of 100,000 routes from one session (the rate is printed, not asserted)", async () => {
    const station = await startStation({ settings: { batchRows: 20_000, queueRows: 100_000, flushMs: 1000 } });
    try {
      const p = peer({ address: "198.51.100.71", asn: 64571 });
      const count = 100_000;
      const updates = [...fullTableUpdates(count, { peer: p })];
      const client = await connect(station, "127.0.0.21");
      const started = performance.now();
      await client.send(peerUp({ peer: p }), ...updates, endOfRib({ peer: p, afi: 1, safi: 1 }));
      await handled(station, 0, 2 + updates.length);
      const seconds = (performance.now() - started) / 1000;
      const [stored] = await chRows<{ n: number }>(
        stores,
        "SELECT count() AS n FROM rib_current FINAL WHERE vantage_point = 'fra1' AND peer_ip = '198.51.100.71' AND is_withdrawn = 0",
      );
      expect(Number(stored.n)).toBe(count);
      console.info(
        `BMP ingest: ${count} routes in ${seconds.toFixed(2)} s, ${Math.round(count / seconds)} routes/s (one session, embedded chDB)`,
      );
      await client.end();
    } finally {
      await station.stop();
    }
  }, 300_000);
});
