/**
 * The Data sources screen (/site-settings/data-sources) through its route module: staff and
 * superusers only; the listeners (running or not by their heartbeat), the inventory's exporters
 * with the figures of collector_exporters as inserted here, formatted independently in the test;
 * the exporters not in the inventory (an IPv4-mapped spelling matches the plain IPv4 of a router),
 * which leave the list once adopted through the inventory's prefilled form; GET parameters of any
 * kind tolerated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  auditLog,
  bmpRouterStatus,
  bmpUnknownSources,
  collectorExporters,
  collectorListeners,
  interfaces,
  routers,
  snmpPollStatus,
  systemState,
  userSettings,
  users,
} from "~db/postgres/schema";
import { createRouter, getRouter } from "~/features/inventory/inventory.server";
import { formatDateLongBare } from "~/lib/date-format";
import * as route from "~/routes/_app.site-settings_.data-sources";
import * as inventoryRoute from "~/routes/_app.site-settings_.inventory";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/site-settings/data-sources";
const TZ = "Europe/Berlin";
let stores: TestStores;
const cookies = { staff: "", superuser: "", user: "", delegated: "" };
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * 60_000);
const count = (n: number) => new Intl.NumberFormat("en-US").format(n);

const KNOWN = {
  address: "192.0.2.1",
  protocol: "netflow9",
  listener: "flows-netflow 0.0.0.0:2055",
  firstSeen: ago(600),
  lastSeen: ago(1),
  datagrams: 1_234_567,
  flows: 9_876_543,
  flowsStored: 9_870_000,
  templateMisses: 1_503,
  decodeErrors: { "bad-record": 12, truncated: 3_456 },
  drops: { queue_full: 6_543 },
  samplingRates: [1000, 100],
  unknownIfIndexes: [],
  clockSkewMs: -93_400,
  clockSkewed: true,
};
// The same router's second exporter address, over sFlow, silent for 45 minutes.
const SILENT = {
  address: "2001:db8::1",
  protocol: "sflow5",
  firstSeen: ago(900),
  lastSeen: ago(45),
  datagrams: 10,
  flows: 20,
  flowsStored: 20,
};
// Not in the inventory: one address over two protocols, one in its IPv4-mapped spelling.
const STRANGER = [
  { address: "198.51.100.7", protocol: "ipfix", firstSeen: ago(300), lastSeen: ago(2), datagrams: 5_000, unknownIfIndexes: [7, 3] },
  {
    address: "::ffff:198.51.100.7",
    protocol: "netflow5",
    firstSeen: ago(400),
    lastSeen: ago(20),
    datagrams: 1_200,
    unknownIfIndexes: [3, 12],
  },
];
// Spelled as an IPv6 socket sees it; the inventory has the plain IPv4 of router ber1-r1.
const MAPPED_KNOWN = { address: "::ffff:192.0.2.50", protocol: "netflow5", firstSeen: ago(50), lastSeen: ago(3), datagrams: 77 };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) =>
    (
      await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  const staff = await insert("staff@sources.test", { isStaff: true });
  await stores.pg.db.insert(userSettings).values({ userId: staff, timezone: TZ });
  const user = await insert("user@sources.test", {});
  const delegated = await insert("delegated@sources.test", { isDelegated: true, delegatedById: user });
  cookies.staff = await sessionCookie(stores, staff);
  cookies.superuser = await sessionCookie(stores, await insertSuperuser(stores, "root@sources.test"));
  cookies.user = await sessionCookie(stores, user);
  cookies.delegated = await sessionCookie(stores, delegated);
  await createRouter(stores, {
    name: "fra1-r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "198.51.100.1",
    exporters: ["192.0.2.1", "2001:db8::1"],
  });
  await createRouter(stores, { name: "ber1-r1", city: "Berlin", country: "Germany", loopback: "198.51.100.2", exporters: ["192.0.2.50"] });
  await createRouter(stores, { name: "ham1-r1", city: "Hamburg", country: "Germany", loopback: "198.51.100.3", exporters: ["192.0.2.99"] });
  await stores.pg.db.insert(collectorExporters).values([KNOWN, SILENT, MAPPED_KNOWN, ...STRANGER]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const get = (query = "", cookie = cookies.staff) => runRoute(route.loader, getRequest(`${PATH}${query}`, cookie));

describe("access", () => {
  it("is for staff and superusers; others get a 403, signed-out visitors the login page", async () => {
    expect((await get("", cookies.staff)).status).toBe(200);
    expect((await get("", cookies.superuser)).status).toBe(200);
    expect((await get("", cookies.user)).status).toBe(403);
    expect((await get("", cookies.delegated)).status).toBe(403);
    const anonymous = await runRoute(route.loader, new Request(`${ORIGIN}${PATH}`));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(PATH)}`);
  });

  it("tolerates any GET parameters", async () => {
    for (const query of ["?router=%ZZ", "?adopt=<script>&x=1&x=2", `?${"a".repeat(3000)}=1`]) expect((await get(query)).status).toBe(200);
  });
});

describe("listeners", () => {
  it("with none, the page says which variables start one", async () => {
    const { data } = await get();
    expect(data.listeners).toEqual([]);
    expect(data.anyRunning).toBe(false);
    expect(data.listenVariables.map((v: { variable: string }) => v.variable)).toEqual(["FLOWS_NETFLOW_LISTEN", "FLOWS_SFLOW_LISTEN"]);
  });

  it("are listed with their label, running while the heartbeat is under a minute old; a restarted process replaces its old row", async () => {
    await stores.pg.db.insert(collectorListeners).values([
      { component: "flows-netflow", address: "0.0.0.0:2055", host: "collector1", pid: 100, startedAt: ago(120), heartbeatAt: ago(60) },
      { component: "flows-netflow", address: "0.0.0.0:2055", host: "collector1", pid: 200, startedAt: ago(30), heartbeatAt: ago(0.1) },
      { component: "flows-sflow", address: "[::]:6343", host: "collector1", pid: 200, startedAt: ago(30), heartbeatAt: ago(5) },
    ]);
    const { data } = await get();
    expect(data.anyRunning).toBe(true);
    expect(data.listeners).toEqual([
      expect.objectContaining({
        component: "NetFlow v5/v9 and IPFIX",
        address: "0.0.0.0:2055",
        host: "collector1 (pid 200)",
        since: formatDateLongBare(ago(30), TZ),
        running: true,
      }),
      expect.objectContaining({ component: "sFlow v5", address: "[::]:6343", running: false, heartbeat: formatDateLongBare(ago(5), TZ) }),
    ]);
  });
});

describe("exporters in the inventory", () => {
  it("show the table's figures, labels instead of codes, dates in the user's timezone", async () => {
    const { data } = await get();
    expect(data.timezone).toBe(TZ);
    expect(data.known.map((e: { router: string; address: string }) => `${e.router} ${e.address}`)).toEqual([
      "ber1-r1 192.0.2.50",
      "fra1-r1 192.0.2.1",
      "fra1-r1 2001:db8::1",
      "ham1-r1 192.0.2.99",
    ]);
    const fra = data.known[1];
    expect(fra).toEqual({
      key: "192.0.2.1 netflow9 0",
      router: "fra1-r1",
      routerLink: "/site-settings/inventory?router=fra1-r1",
      address: "192.0.2.1",
      subAgent: null,
      udpSources: [],
      protocol: "NetFlow v9",
      datagrams: count(KNOWN.datagrams),
      flows: count(KNOWN.flows),
      stored: count(KNOWN.flowsStored),
      decodeErrors: [
        { reason: "truncated", label: "Truncated datagram", count: count(3_456) },
        { reason: "bad-record", label: "Malformed record", count: "12" },
      ],
      templateMisses: count(KNOWN.templateMisses),
      drops: [{ reason: "queue_full", label: "Write queue full (the store was slower than the network)", count: count(6_543) }],
      samplingRates: ["1:100", "1:1,000"],
      lastPacket: formatDateLongBare(KNOWN.lastSeen, TZ),
      clockSkew: "Clock off by 93 s: flows timed by arrival",
      silent: null,
    });
    expect(fra.datagrams).toBe("1,234,567");
    const silent = data.known[2];
    expect(silent).toMatchObject({ protocol: "sFlow v5", datagrams: "10", clockSkew: null });
    expect(silent.silent).toMatch(/^Silent for 4[56] min$/);
    expect(data.known[0]).toMatchObject({ protocol: "NetFlow v5", datagrams: "77", silent: null });
    expect(data.known[3]).toMatchObject({ protocol: "", datagrams: "0", lastPacket: null });
  });
});

describe("not in inventory yet", () => {
  it("lists each address once over its protocols and spellings, with packets, first/last seen and ifIndexes", async () => {
    const { data } = await get();
    expect(data.unknown).toEqual([
      {
        address: "198.51.100.7",
        udpSources: [],
        protocols: "IPFIX, NetFlow v5",
        packets: count(6_200),
        firstSeen: formatDateLongBare(ago(400), TZ),
        lastSeen: formatDateLongBare(ago(2), TZ),
        ifIndexes: "3, 7, 12",
        adoptLink: "/site-settings/inventory?adopt=198.51.100.7",
      },
    ]);
  });

  it("adopting: the link opens a prefilled new-router form, its values saved as they are make the router, and the address leaves the list", async () => {
    const form = await runRoute(inventoryRoute.loader, getRequest("/site-settings/inventory?adopt=198.51.100.7", cookies.staff));
    expect(form.status).toBe(200);
    expect(form.data.adopt).toEqual({
      address: "198.51.100.7",
      ifIndexes: [3, 7, 12],
      values: {
        name: "exporter-198-51-100-7",
        city: "Unknown",
        country: "Unknown",
        role: "edge",
        loopback: "198.51.100.7",
        exporters: "198.51.100.7",
      },
    });
    const saved = await runRoute(
      inventoryRoute.action,
      formRequest("/site-settings/inventory?adopt=198.51.100.7", { intent: "create-router", ...form.data.adopt.values }, cookies.staff),
    );
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/site-settings/inventory?router=exporter-198-51-100-7&saved=router-created");
    expect((await getRouter(stores, "exporter-198-51-100-7"))!.exporters).toEqual(["198.51.100.7"]);
    const page = await runRoute(inventoryRoute.loader, getRequest("/site-settings/inventory?router=exporter-198-51-100-7", cookies.staff));
    expect(page.data.unnamedIfIndexes).toEqual([3, 7, 12]);
    const { data } = await get();
    expect(data.unknown).toEqual([]);
    expect(
      data.known.filter((e: { router: string }) => e.router === "exporter-198-51-100-7").map((e: { protocol: string }) => e.protocol),
    ).toEqual(["IPFIX", "NetFlow v5"]);
  });

  it("the inventory refuses to adopt what is no address or an exporter already, without an error page", async () => {
    const bad = await runRoute(inventoryRoute.loader, getRequest("/site-settings/inventory?adopt=not-an-address", cookies.staff));
    expect(bad.status).toBe(200);
    expect(bad.data.adopt).toBeNull();
    expect(bad.data.adoptNotice).toBe('"not-an-address" is not an exporter address: nothing to adopt.');
    const taken = await runRoute(inventoryRoute.loader, getRequest("/site-settings/inventory?adopt=::ffff:192.0.2.1", cookies.staff));
    expect(taken.data.adoptNotice).toBe("192.0.2.1 is an exporter of router fra1-r1 already.");
  });

  it("a refused adoption (400) shows the form again with the values typed", async () => {
    await stores.pg.db.insert(collectorExporters).values({ address: "203.0.113.9", protocol: "netflow9", datagrams: 3 });
    const out = await runRoute(
      inventoryRoute.action,
      formRequest(
        "/site-settings/inventory?adopt=203.0.113.9",
        {
          intent: "create-router",
          name: "exporter-203-0-113-9",
          city: "",
          country: "Unknown",
          loopback: "203.0.113.9",
          exporters: "203.0.113.9",
        },
        cookies.staff,
      ),
    );
    expect(out.status).toBe(400);
    expect(out.data.errors.city).toBe("must not be empty");
    expect(out.data.values.name).toBe("exporter-203-0-113-9");
    expect((await get()).data.unknown.map((u: { address: string }) => u.address)).toEqual(["203.0.113.9"]);
  });
});

describe("BMP", () => {
  it("without a station, the page names BMP_LISTEN; no router, no source to adopt", async () => {
    const { data } = await get();
    expect(data.bmp).toEqual({ stations: [], running: false, routers: [], peers: [], unknown: [] });
  });

  it("lists the station, each router's session, names, peers, routes per view, messages, errors, and the sources to adopt", async () => {
    const date = (d: Date) => formatDateLongBare(d, TZ);
    await stores.pg.db
      .insert(collectorListeners)
      .values({ component: "bmp", address: "0.0.0.0:1790", host: "station1", pid: 300, startedAt: ago(90), heartbeatAt: ago(0.05) });
    const fra = (await getRouter(stores, "fra1-r1"))!;
    const ber = (await getRouter(stores, "ber1-r1"))!;
    const upSince = ago(80);
    await stores.pg.db.insert(bmpRouterStatus).values([
      {
        routerId: fra.id,
        vantagePoint: "fra1",
        address: "198.51.100.1",
        station: "station1 (pid 300)",
        state: "up",
        sysName: "fra1-r1.example.net",
        sysDescr: "Example OS 7.4",
        sessions: 3,
        sessionStartedAt: upSince,
        peers: [
          {
            address: "192.0.2.7",
            asn: 64501,
            bgpId: "192.0.2.7",
            peerType: 0,
            distinguisher: "",
            views: ["post-policy", "pre-policy"],
            state: "up",
            upSince: upSince.toISOString(),
            downAt: null,
            downReason: null,
            statistics: { "Routes in Adj-RIB-In": 912_345 },
            statisticsAt: ago(1).toISOString(),
          },
          {
            address: "192.0.2.8",
            asn: 64502,
            bgpId: "192.0.2.8",
            peerType: 1,
            distinguisher: "64500:7",
            views: ["post-policy"],
            state: "down",
            upSince: null,
            downAt: ago(4).toISOString(),
            downReason: "Hold timer expired",
            statistics: {},
            statisticsAt: null,
          },
        ],
        messages: { "route-monitoring": 1_234_567, "peer-up": 2, initiation: 1, "peer-down": 1 },
        decodeErrors: 4,
        skipped: { "EVPN messages (not stored)": 17 },
        routes: { "pre-policy": 950_000, "post-policy": 912_345, "loc-rib": 0 },
        peerRoutes: { "192.0.2.7": { "post-policy": 912_345, "pre-policy": 950_000 } },
        routesCountedAt: ago(0.5),
        lastError: "route-monitoring message: attribute length beyond the UPDATE",
        lastErrorAt: ago(7),
      },
      {
        routerId: ber.id,
        vantagePoint: "ber1-r1",
        address: "198.51.100.2",
        state: "closed",
        sessions: 1,
        sessionStartedAt: ago(300),
        sessionClosedAt: ago(200),
        closeReason: "not a BMP v3 stream: the message at byte offset 0 has version 71",
        routesWithdrawn: true,
        peers: [],
      },
    ]);
    // One refused address is the loopback of a router by now (adopted): it is not offered again.
    await stores.pg.db.insert(bmpUnknownSources).values([
      { address: "203.0.113.77", firstSeen: ago(50), lastSeen: ago(6), attempts: 12 },
      { address: "198.51.100.3", firstSeen: ago(50), lastSeen: ago(6), attempts: 2 },
    ]);
    const { data } = await get();
    // The station is no flow listener.
    expect(data.listeners.map((l: { component: string }) => l.component)).not.toContain("BMP station");
    expect(data.bmp.stations).toEqual([
      {
        key: "0.0.0.0:1790 station1 300",
        address: "0.0.0.0:1790",
        host: "station1 (pid 300)",
        since: date(ago(90)),
        running: true,
        heartbeat: date(ago(0.05)),
      },
    ]);
    expect(data.bmp.running).toBe(true);
    expect(data.bmp.routers).toEqual([
      {
        router: "ber1-r1",
        routerLink: "/site-settings/inventory?router=ber1-r1",
        address: "198.51.100.2",
        vantagePoint: "ber1-r1",
        up: false,
        session: `Closed at ${date(ago(200))} (not a BMP v3 stream: the message at byte offset 0 has version 71); its routes were withdrawn`,
        sessions: "1",
        system: "",
        peers: "Session closed",
        routes: [],
        routesCountedAt: null,
        messages: [],
        decodeErrors: "0",
        skipped: [],
        lastError: null,
      },
      {
        router: "fra1-r1",
        routerLink: "/site-settings/inventory?router=fra1-r1",
        address: "198.51.100.1",
        vantagePoint: "fra1",
        up: true,
        session: `Up since ${date(upSince)}`,
        sessions: "3",
        system: "fra1-r1.example.net — Example OS 7.4",
        peers: "1 of 2 up",
        routes: [
          { label: "Post-policy Adj-RIB-In", count: "912,345" },
          { label: "Pre-policy Adj-RIB-In", count: "950,000" },
        ],
        routesCountedAt: date(ago(0.5)),
        messages: [
          { label: "Route monitoring", count: "1,234,567" },
          { label: "Peer up", count: "2" },
          { label: "Peer down", count: "1" },
          { label: "Initiation", count: "1" },
        ],
        decodeErrors: "4",
        skipped: [{ label: "EVPN messages (not stored)", count: "17" }],
        lastError: `${date(ago(7))}: route-monitoring message: attribute length beyond the UPDATE`,
      },
    ]);
    expect(data.bmp.peers).toEqual([
      {
        key: "fra1-r1 0 192.0.2.7 ",
        router: "fra1-r1",
        address: "192.0.2.7",
        asn: "AS64501",
        kind: "Global instance",
        views: "Post-policy Adj-RIB-In, Pre-policy Adj-RIB-In",
        state: `Up since ${date(upSince)}`,
        down: false,
        routes: [
          { label: "Post-policy Adj-RIB-In", count: "912,345" },
          { label: "Pre-policy Adj-RIB-In", count: "950,000" },
        ],
        statistics: ["Routes in Adj-RIB-In: 912,345"],
        statisticsAt: date(ago(1)),
      },
      {
        key: "fra1-r1 1 192.0.2.8 64500:7",
        router: "fra1-r1",
        address: "192.0.2.8",
        asn: "AS64502",
        kind: "RD instance 64500:7",
        views: "Post-policy Adj-RIB-In",
        state: `Down since ${date(ago(4))}: Hold timer expired`,
        down: true,
        routes: [],
        statistics: [],
        statisticsAt: null,
      },
    ]);
    expect(data.bmp.unknown).toEqual([
      {
        address: "203.0.113.77",
        attempts: "12",
        firstSeen: date(ago(50)),
        lastSeen: date(ago(6)),
        adoptLink: "/site-settings/inventory?adopt=203.0.113.77",
      },
    ]);
  });
});

describe("utilisation from flows", () => {
  it("says not written yet before the first run, then the end of the last interval written, in the user's timezone", async () => {
    expect((await get()).data.flowUtil).toEqual({ on: true, through: null });
    const through = Math.floor(now / 300_000) * 300;
    await stores.pg.db.insert(systemState).values({ key: "flows_util", value: { through } });
    expect((await get()).data.flowUtil).toEqual({ on: true, through: formatDateLongBare(new Date(through * 1000), TZ) });
    await stores.pg.db.delete(systemState).where(eq(systemState.key, "flows_util"));
  });
});

describe("SNMP polls", () => {
  it("with no router set up for SNMP, the page says how to start", async () => {
    const { data } = await get();
    expect(data.snmp).toEqual([]);
  });

  it("list every router with SNMP settings: where it is polled, last poll and success, a failure with its kind, what is missing or differs", async () => {
    await stores.pg.db.update(routers).set({ snmpVersion: "2c", snmpPort: 1161 }).where(eq(routers.name, "ham1-r1"));
    await stores.pg.db.update(routers).set({ snmpVersion: "3" }).where(eq(routers.name, "ber1-r1"));
    const ham = (await getRouter(stores, "ham1-r1"))!;
    await stores.pg.db.insert(snmpPollStatus).values({
      routerId: ham.id,
      lastPollAt: ago(2),
      lastSuccessAt: ago(12),
      lastErrorAt: ago(2),
      lastErrorKind: "timeout",
      lastError: "No answer (time-out)",
      failures: 2,
      interfacesPolled: 1_234,
      interfacesMissing: ["et-0/0/9", "et-0/0/10"],
      capacityChanges: [{ interface: "ae0", inventory_bps: 40e9, device_bps: 30e9 }],
    });
    const { data } = await get();
    const date = (d: Date) => formatDateLongBare(d, TZ);
    expect(data.snmp).toEqual([
      {
        router: "ber1-r1",
        routerLink: "/site-settings/inventory?router=ber1-r1",
        target: "198.51.100.2:161",
        version: "SNMPv3",
        lastPoll: null,
        lastSuccess: null,
        failing: false,
        failures: 0,
        lastError: null,
        interfacesPolled: "0",
        missing: [],
        capacityChanges: [],
      },
      {
        router: "ham1-r1",
        routerLink: "/site-settings/inventory?router=ham1-r1",
        target: "198.51.100.3:1161",
        version: "SNMP v2c",
        lastPoll: date(ago(2)),
        lastSuccess: date(ago(12)),
        failing: true,
        failures: 2,
        lastError: { at: date(ago(2)), kind: "Time-out", text: "No answer (time-out)" },
        interfacesPolled: count(1_234),
        missing: ["et-0/0/9", "et-0/0/10"],
        capacityChanges: [{ interface: "ae0", deviceBps: 30e9, text: "ae0: 30.0 Gbit/s on the device, 40.0 Gbit/s in the inventory" }],
      },
    ]);
  });

  it("staff apply a device's capacity to the inventory (audited, taken off the list); a stale or foreign request changes nothing", async () => {
    const ham1 = (await getRouter(stores, "ham1-r1"))!;
    await stores.pg.db.insert(interfaces).values({ routerId: ham1.id, name: "ae0", snmpIndex: 500, capacityBps: 40e9, kind: "core" });
    const capacityOfAe0 = async () =>
      (await stores.pg.db.select({ bps: interfaces.capacityBps }).from(interfaces).where(eq(interfaces.name, "ae0")))[0].bps;
    const confirm = (cookie: string, deviceBps = "30000000000") =>
      runRoute(route.action, formRequest(PATH, { intent: "confirm-capacity", router: "ham1-r1", interface: "ae0", deviceBps }, cookie));
    // Not staff: refused, nothing changes.
    expect((await confirm(cookies.user)).status).toBe(403);
    // A capacity other than the listed one is stale.
    const other = await confirm(cookies.staff, "25000000000");
    expect([other.status, other.headers.get("Location")]).toEqual([302, `${PATH}?capacity=stale`]);
    expect(await capacityOfAe0()).toBe(40e9);
    const applied = await confirm(cookies.staff);
    expect([applied.status, applied.headers.get("Location")]).toEqual([302, `${PATH}?capacity=applied`]);
    expect(await capacityOfAe0()).toBe(30e9);
    const ham = (await get("?capacity=applied")).data;
    expect(ham.capacityNotice).toBe("The device's capacity is now the inventory's.");
    expect(ham.snmp.find((r: { router: string }) => r.router === "ham1-r1").capacityChanges).toEqual([]);
    const [entry] = await stores.pg.db.select().from(auditLog).where(eq(auditLog.action, "interface.capacity_from_snmp"));
    expect(entry).toMatchObject({ targetLabel: "ham1-r1 ae0", before: { capacity_bps: 40e9 }, after: { capacity_bps: 30e9 } });
    // Confirming twice: the change is gone, so the second is stale.
    expect((await confirm(cookies.staff)).headers.get("Location")).toBe(`${PATH}?capacity=stale`);
  });
});

describe("sFlow agents", () => {
  it("lists an agent by its address and sub-agent with the UDP source beside it; the inventory may name either, adoption takes either", async () => {
    const lon = await createRouter(stores, {
      name: "lon1-r1",
      city: "London",
      country: "UK",
      loopback: "198.51.100.4",
      exporters: ["192.0.2.77"],
    });
    // Behind a relay (the inventory has the relay's address), and behind a NAT (the inventory has neither).
    const agents = [
      { address: "10.9.9.9", protocol: "sflow5", subAgentId: 3, udpSources: ["192.0.2.77"], lastSeen: ago(1), datagrams: 30 },
      { address: "10.9.9.9", protocol: "sflow5", subAgentId: 4, udpSources: ["::ffff:192.0.2.77"], lastSeen: ago(1), datagrams: 40 },
      { address: "10.8.8.8", protocol: "sflow5", udpSources: ["203.0.113.200"], lastSeen: ago(1), datagrams: 8, unknownIfIndexes: [5] },
    ];
    await stores.pg.db.insert(collectorExporters).values(agents);
    try {
      const { data } = await get();
      const lonRows = data.known.filter((e: { router: string }) => e.router === "lon1-r1");
      expect(lonRows.map((e: Record<string, unknown>) => [e.address, e.subAgent, e.udpSources, e.protocol, e.datagrams])).toEqual([
        ["10.9.9.9", "3", ["192.0.2.77"], "sFlow v5", "30"],
        ["10.9.9.9", "4", ["192.0.2.77"], "sFlow v5", "40"],
      ]);
      const agentOf = (rows: { address: string }[]) => rows.filter((u) => u.address.startsWith("10."));
      expect(agentOf(data.unknown)).toEqual([
        expect.objectContaining({ address: "10.8.8.8", udpSources: ["203.0.113.200"], packets: "8" }),
      ]);
      // Adopting by the agent's address or by the UDP source it is heard from: the ifIndexes it sent are listed either way.
      for (const address of ["10.8.8.8", "203.0.113.200"]) {
        const form = await runRoute(inventoryRoute.loader, getRequest(`/site-settings/inventory?adopt=${address}`, cookies.staff));
        expect(form.data.adopt).toMatchObject({ address, ifIndexes: [5] });
      }
      await createRouter(stores, {
        name: "nat1-r1",
        city: "Paris",
        country: "France",
        loopback: "198.51.100.5",
        exporters: ["203.0.113.200"],
      });
      const after = (await get()).data;
      expect(agentOf(after.unknown)).toEqual([]);
      expect(after.known.filter((e: { router: string }) => e.router === "nat1-r1").map((e: { address: string }) => e.address)).toEqual([
        "10.8.8.8",
      ]);
      const page = await runRoute(inventoryRoute.loader, getRequest("/site-settings/inventory?router=nat1-r1", cookies.staff));
      expect(page.data.unnamedIfIndexes).toEqual([5]);
    } finally {
      await stores.pg.db.delete(collectorExporters).where(eq(collectorExporters.protocol, "sflow5"));
      await stores.pg.db.delete(routers).where(eq(routers.id, lon.id));
      await stores.pg.db.delete(routers).where(eq(routers.name, "nat1-r1"));
    }
  });
});
