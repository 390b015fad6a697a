/**
 * The route that carried a raw flow (features/rna/route-at-time.server.ts) on chDB and PostgreSQL
 * with routing history this test writes: the longest prefix announced and not withdrawn at the
 * flow's time at the exporting router's vantage point, checked against the same lookup computed
 * here over the inserted rows; withdrawals before the time, announcements after it, other vantage
 * points, other route distinguishers and pre-policy routes left out; IPv4 and IPv6; which route of
 * the prefix carried the flow; the AS names, community labels and RPKI states; the vantage point
 * found from the exporter's address; a delegated account outside its routers; bad input as 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import {
  asInfo,
  communityLabels,
  delegationRestrictions,
  routerExporters,
  routers,
  routerVrfs,
  userPermissions,
  users,
  vantagePoints,
} from "~db/postgres/schema";
import { routeAtTime, type FlowForRoute } from "~/features/rna/route-at-time.server";
import { noRouteMessage, type RouteAtTimeResult } from "~/features/rna/route-at-time";
import { replaceFileVrps } from "~/features/routing/rpki/vrp-store.server";
import { parseNetwork, parseIpAddress } from "~/lib/ip";
import { ApiProblem } from "~/server/api/contract.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { controlPlaneScreen } from "../helpers/controlplane";
import { sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const T = 1_800_000_000;
const VP_A = { key: "vp-a", router: "ra-er1", city: "Zurich", country: "Switzerland", ip: "198.18.1.1" };
const VP_B = { key: "vp-b", router: "rb-er1", city: "Geneva", country: "Switzerland", ip: "198.18.1.2" };
/** The address ra-er1 exports flows from (router_exporters), not its loopback. */
const EXPORTER_A = "198.18.9.1";

type Announce = Partial<RibRow> & { vantage_point: string; prefix: string; timestamp: number };
function rib(r: Announce): RibRow {
  const network = parseNetwork(r.prefix)!;
  const v4 = network.version === 4;
  const withdrawn = r.is_withdrawn === 1;
  return {
    router_ip: r.vantage_point === VP_A.key ? VP_A.ip : VP_B.ip,
    peer_ip: "198.51.100.1",
    peer_asn: 64500,
    route_distinguisher: "",
    prefix_addr: r.prefix.split("/")[0],
    prefix_len: network.length,
    afi: v4 ? 1 : 2,
    safi: 1,
    is_withdrawn: 0,
    as_path: withdrawn ? [] : [64500, 64510],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: withdrawn ? 0 : 100,
    med: 0,
    bgp_next_hop: withdrawn ? "" : v4 ? "198.51.100.1" : "2001:db8:ffff::1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: withdrawn ? [] : ["64999:100", "65535:65281"],
    expire_at: 0,
    ...r,
  };
}
type Fixture = RibRow & { rib_view?: string };

const ROWS: Fixture[] = [
  // The covering /8 from two peers: 64520 with the higher local preference is the best path.
  rib({ vantage_point: "vp-a", prefix: "10.0.0.0/8", timestamp: T - 5000 }),
  rib({
    vantage_point: "vp-a",
    prefix: "10.0.0.0/8",
    timestamp: T - 4000,
    peer_ip: "198.51.100.2",
    peer_asn: 64520,
    as_path: [64520, 64530],
    bgp_next_hop: "198.51.100.2",
    local_pref: 200,
    communities: ["64999:200"],
  }),
  // A /16 announced, then withdrawn before T.
  rib({ vantage_point: "vp-a", prefix: "10.1.0.0/16", timestamp: T - 900, as_path: [64501, 64511] }),
  rib({ vantage_point: "vp-a", prefix: "10.1.0.0/16", timestamp: T - 100, is_withdrawn: 1 }),
  // A /24 announced only after T.
  rib({ vantage_point: "vp-a", prefix: "10.1.2.0/24", timestamp: T + 100, as_path: [64502, 64512] }),
  // Longer prefixes that are not the global post-policy table of vp-a: another vantage point, a VRF, the pre-policy table.
  rib({ vantage_point: "vp-b", prefix: "10.1.2.0/25", timestamp: T - 2000, as_path: [64503] }),
  rib({ vantage_point: "vp-a", prefix: "10.1.2.0/26", timestamp: T - 3000, route_distinguisher: "64999:1", as_path: [64504] }),
  { ...rib({ vantage_point: "vp-a", prefix: "10.1.2.0/27", timestamp: T - 3000, as_path: [64505] }), rib_view: "pre-policy" },
  // The Loc-RIB's route of 10.2.0.0/16 beside a post-policy route with a higher local preference.
  rib({
    vantage_point: "vp-a",
    prefix: "10.2.0.0/16",
    timestamp: T - 600,
    local_pref: 300,
    peer_ip: "198.51.100.3",
    bgp_next_hop: "198.51.100.3",
  }),
  { ...rib({ vantage_point: "vp-a", prefix: "10.2.0.0/16", timestamp: T - 600, peer_ip: "", peer_asn: 0 }), rib_view: "loc-rib" },
  // IPv6: a /32 and a more specific /48 with a large community.
  rib({ vantage_point: "vp-a", prefix: "2001:db8::/32", timestamp: T - 500, as_path: [64502] }),
  rib({ vantage_point: "vp-a", prefix: "2001:db8:1::/48", timestamp: T - 400, as_path: [64503, 64512], communities: ["64999:1:2"] }),
  rib({ vantage_point: "vp-b", prefix: "2001:db8:1:1::/64", timestamp: T - 400, as_path: [64503] }),
];

// ---- The independent lookup over the rows: containment on numbers, newest event per route before t.
function contains(prefix: string, address: string): boolean {
  const network = parseNetwork(prefix)!;
  let ip = parseIpAddress(address)!;
  if (ip.version === 6 && ip.value >> 32n === 0xffffn) ip = { version: 4, value: ip.value & 0xffffffffn };
  if (ip.version !== network.version) return false;
  const shift = BigInt((network.version === 4 ? 32 : 128) - network.length);
  return ip.value >> shift === network.value >> shift;
}
function expectedRoutes(vp: string, address: string, at: number, rd = ""): Fixture[] {
  const newest = new Map<string, Fixture>();
  for (const r of ROWS) {
    const view = r.rib_view ?? "post-policy";
    if (r.vantage_point !== vp || r.route_distinguisher !== rd || view === "pre-policy" || r.timestamp > at) continue;
    if (!contains(r.prefix, address)) continue;
    const key = `${r.prefix}|${r.peer_ip}|${view}`;
    const seen = newest.get(key);
    if (!seen || r.timestamp > seen.timestamp || (r.timestamp === seen.timestamp && r.is_withdrawn)) newest.set(key, r);
  }
  const present = [...newest.values()].filter((r) => r.is_withdrawn === 0);
  const longest = Math.max(-1, ...present.map((r) => r.prefix_len));
  return present.filter((r) => r.prefix_len === longest);
}
const routeKeys = (result: RouteAtTimeResult) =>
  result.kind === "route" ? [result.route, ...result.otherPaths].map((r) => `${r.prefix}|${r.peerIp}|${r.ribView}`).sort() : [];
const fixtureKeys = (rows: Fixture[]) => rows.map((r) => `${r.prefix}|${r.peer_ip}|${r.rib_view ?? "post-policy"}`).sort();

let stores: TestStores;
let analyst: UserContext;
let analystId = 0;
let withoutControlPlane: UserContext;
let delegatedElsewhere: UserContext;

async function insertUser(email: string, permissions: string[], delegated?: { routers: string[]; by: number }): Promise<number> {
  const [row] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: "R",
      passwordHash: "!unusable",
      hasConsented: true,
      isDelegated: delegated !== undefined,
      delegatedById: delegated?.by,
    })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (delegated)
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: row.id,
      flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["64510"], output: "AS_DST_INGRESS" }],
      externalLinksViewsRestrictions: { ASNumberList: [], routerList: delegated.routers, interfaceList: [] },
    });
  return row.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  for (const vp of [VP_A, VP_B]) {
    const [router] = await stores.pg.db
      .insert(routers)
      .values({ name: vp.router, city: vp.city, country: vp.country, loopback: vp.ip })
      .returning({ id: routers.id });
    if (vp === VP_A) await stores.pg.db.insert(routerExporters).values({ address: EXPORTER_A, routerId: router.id });
    // The inventory's VRFs: CUST_A is 64999:1 on ra-er1 (the /26 of the fixture) and 64999:2 on rb-er1 (no routes).
    await stores.pg.db
      .insert(routerVrfs)
      .values({ routerId: router.id, name: "CUST_A", routeDistinguisher: vp === VP_A ? "64999:1" : "64999:2" });
    await stores.pg.db.insert(vantagePoints).values({ key: vp.key, city: vp.city, country: vp.country, router: vp.router, ip: vp.ip });
  }
  await stores.pg.db
    .insert(asInfo)
    .values([
      { asn: 64500, name: "Transit-A" },
      { asn: 64510, name: "Origin-Net" },
      { asn: 64503, name: "Six-Net" },
    ])
    .onConflictDoNothing();
  await stores.pg.db.insert(communityLabels).values([
    { pattern: "64999:100", label: "Learned from transit" },
    { pattern: "64999:1:*", label: "Region" },
  ]);
  await replaceFileVrps(stores, {
    actor: null,
    fileName: "test-vrps.json",
    vrps: [
      { prefix: "10.0.0.0/8", maxLength: 8, asn: 64510, trustAnchor: "" },
      { prefix: "2001:db8::/32", maxLength: 48, asn: 64512, trustAnchor: "" },
    ],
  });
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
  analystId = await insertUser("analyst@route.test", ["RAW_NETWORK_ANALYZER", "CONTROL_PLANE"]);
  analyst = (await loadUserContext(stores.pg.db, analystId))!;
  withoutControlPlane = (await loadUserContext(stores.pg.db, await insertUser("rna-only@route.test", ["RAW_NETWORK_ANALYZER"])))!;
  const owner = await insertUser("owner@route.test", []);
  delegatedElsewhere = (await loadUserContext(
    stores.pg.db,
    await insertUser("delegated@route.test", ["RAW_NETWORK_ANALYZER"], { routers: [VP_B.router], by: owner }),
  ))!;
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const flow = (dst: string, at: number, extra: Partial<FlowForRoute> = {}): FlowForRoute => ({
  exporter_name: VP_A.router,
  exporter_address: EXPORTER_A,
  dst_addr: dst,
  time_received: at,
  ...extra,
});

describe("the longest prefix at the flow's time", () => {
  const cases: { name: string; dst: string; at: number; vp?: string; rd?: string; prefix: string }[] = [
    { name: "the withdrawn /16 is gone at T: the /8", dst: "10.1.2.3", at: T, prefix: "10.0.0.0/8" },
    { name: "before the withdrawal the /16", dst: "10.1.2.3", at: T - 200, prefix: "10.1.0.0/16" },
    { name: "the /24 announced after T counts only after it", dst: "10.1.2.3", at: T + 100, prefix: "10.1.2.0/24" },
    { name: "an IPv4-mapped destination reads as IPv4", dst: "::ffff:10.1.2.3", at: T + 200, prefix: "10.1.2.0/24" },
    { name: "the other vantage point's /25", dst: "10.1.2.3", at: T, vp: "rb-er1", prefix: "10.1.2.0/25" },
    { name: "the VRF's table by its route distinguisher", dst: "10.1.2.3", at: T, rd: "64999:1", prefix: "10.1.2.0/26" },
    { name: "IPv6 more specific", dst: "2001:db8:1::5", at: T, prefix: "2001:db8:1::/48" },
    { name: "IPv6 covering prefix only", dst: "2001:db8:2::5", at: T, prefix: "2001:db8::/32" },
    { name: "IPv6 before the /48 was announced", dst: "2001:db8:1::5", at: T - 450, prefix: "2001:db8::/32" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const router = c.vp ?? VP_A.router;
      const result = await routeAtTime(
        stores,
        analyst,
        flow(c.dst, c.at, { exporter_name: router, exporter_address: "", route_distinguisher: c.rd ?? "" }),
      );
      expect(result.kind).toBe("route");
      if (result.kind !== "route") return;
      expect(result.route.prefix).toBe(c.prefix);
      const vpKey = router === VP_A.router ? VP_A.key : VP_B.key;
      const expected = expectedRoutes(vpKey, c.dst, c.at, c.rd ?? "");
      expect(routeKeys(result)).toEqual(fixtureKeys(expected));
      expect(result.vantagePoint.key).toBe(vpKey);
      expect(result.routeDistinguisher).toBe(c.rd ?? "");
      // The announcement in effect: the newest one of that route before the flow.
      expect(result.route.announcedAt).toBe(expected.find((r) => r.peer_ip === result.route.peerIp)!.timestamp);
      expect(result.route.announcedAt).toBeLessThanOrEqual(c.at);
    });
  }

  it("no route covering the destination: a clear no-route answer", async () => {
    for (const [dst, at] of [
      ["192.0.2.77", T],
      ["10.1.2.3", T - 6000],
      ["2001:db9::1", T],
    ] as const) {
      const result = await routeAtTime(stores, analyst, flow(dst, at));
      expect(expectedRoutes(VP_A.key, dst, at)).toEqual([]);
      expect(result).toMatchObject({ kind: "no-route", destination: dst.replace("::ffff:", ""), vantagePoint: { key: VP_A.key } });
      if (result.kind === "no-route") expect(result.message).toBe(noRouteMessage(result.destination, result.vantagePoint.name));
    }
  });
});

describe("a flow of a VRF", () => {
  it("reads the table of the VRF's route distinguisher on the exporting router (the inventory's router_vrfs)", async () => {
    const result = await routeAtTime(stores, analyst, flow("10.1.2.3", T, { vrf_name: "CUST_A" }));
    expect(result).toMatchObject({ kind: "route", routeDistinguisher: "64999:1", vrf: "CUST_A", route: { prefix: "10.1.2.0/26" } });
    expect(routeKeys(result)).toEqual(fixtureKeys(expectedRoutes(VP_A.key, "10.1.2.3", T, "64999:1")));
    // The global table's flow to the same address: the /8, no VRF.
    expect(await routeAtTime(stores, analyst, flow("10.1.2.3", T, { vrf_name: "" }))).toMatchObject({
      kind: "route",
      routeDistinguisher: "",
      vrf: null,
      route: { prefix: "10.0.0.0/8" },
    });
    // A distinguisher given as such wins over the VRF's name.
    expect(await routeAtTime(stores, analyst, flow("10.1.2.3", T, { vrf_name: "CUST_A", route_distinguisher: "64999:9" }))).toMatchObject({
      kind: "no-route",
      routeDistinguisher: "64999:9",
      vrf: null,
    });
  });

  it("takes the VRF of the exporting router: the same name on another router is another table", async () => {
    const result = await routeAtTime(
      stores,
      analyst,
      flow("10.1.2.3", T, { exporter_name: VP_B.router, exporter_address: "", vrf_name: "CUST_A" }),
    );
    expect(result).toMatchObject({ kind: "no-route", routeDistinguisher: "64999:2", vrf: "CUST_A", vantagePoint: { key: VP_B.key } });
    expect(expectedRoutes(VP_B.key, "10.1.2.3", T, "64999:2")).toEqual([]);
  });

  it("a VRF the inventory gives no route distinguisher reads the global table, and the answer says so", async () => {
    for (const vrf of ["default", "vrf-7"]) {
      const result = await routeAtTime(stores, analyst, flow("10.1.2.3", T, { vrf_name: vrf }));
      expect(result).toMatchObject({ kind: "route", routeDistinguisher: "", vrf: null, unmappedVrf: vrf, route: { prefix: "10.0.0.0/8" } });
    }
    expect(await routeAtTime(stores, analyst, flow("10.1.2.3", T, { vrf_name: "CUST_A" }))).toMatchObject({ unmappedVrf: null });
    // A delegated account outside the router learns nothing of its VRFs.
    expect((await routeAtTime(stores, delegatedElsewhere, flow("10.1.2.3", T, { vrf_name: "CUST_A" }))).kind).toBe("not-available");
  });
});

describe("the route that carried it", () => {
  it("among several routes of the prefix: the best path, or the one with the flow's next hop", async () => {
    const best = await routeAtTime(stores, analyst, flow("10.9.9.9", T));
    expect(best).toMatchObject({ kind: "route", carriedBecause: "best-path", route: { peerIp: "198.51.100.2", localPref: 200 } });
    if (best.kind === "route") expect(best.otherPaths.map((r) => r.peerIp)).toEqual(["198.51.100.1"]);
    const byNextHop = await routeAtTime(stores, analyst, flow("10.9.9.9", T, { next_hop: "::ffff:198.51.100.1" }));
    expect(byNextHop).toMatchObject({ kind: "route", carriedBecause: "flow-next-hop", route: { peerIp: "198.51.100.1" } });
  });

  it("the router's Loc-RIB route before a post-policy one with a higher local preference", async () => {
    const result = await routeAtTime(stores, analyst, flow("10.2.3.4", T));
    expect(result).toMatchObject({ kind: "route", carriedBecause: "loc-rib", route: { prefix: "10.2.0.0/16", ribView: "loc-rib" } });
  });

  it("the only route of a prefix", async () => {
    const result = await routeAtTime(stores, analyst, flow("2001:db8:1::5", T));
    expect(result).toMatchObject({ kind: "route", carriedBecause: "only-route", otherPaths: [] });
  });
});

describe("names, labels and RPKI", () => {
  it("AS path with the AS names, communities with labels and well-known names, the peer and next hop", async () => {
    const result = await routeAtTime(stores, analyst, flow("10.9.9.9", T, { next_hop: "198.51.100.1" }));
    if (result.kind !== "route") throw new Error(result.kind);
    expect(result.route.asPath).toEqual([
      { asn: 64500, name: "Transit-A" },
      { asn: 64510, name: "Origin-Net" },
    ]);
    expect(result.route.peerAs).toEqual({ asn: 64500, name: "Transit-A" });
    expect(result.route.nextHop).toBe("198.51.100.1");
    expect(result.route.communities).toEqual([
      { community: "64999:100", label: "Learned from transit" },
      { community: "65535:65281", label: "NO_EXPORT" },
    ]);
    // 10.0.0.0/8 is authorised for AS64510 only: the route from 64520 (origin 64530) is invalid.
    expect(result.route.rpki).toBe("valid");
    expect(result.otherPaths[0]).toMatchObject({
      peerIp: "198.51.100.2",
      rpki: "invalid",
      communities: [{ community: "64999:200", label: null }],
    });
  });

  it("IPv6: a large community labelled by a wildcard pattern; an AS without a name; RPKI valid within the max length", async () => {
    const result = await routeAtTime(stores, analyst, flow("2001:db8:1::5", T));
    if (result.kind !== "route") throw new Error(result.kind);
    expect(result.route.asPath).toEqual([
      { asn: 64503, name: "Six-Net" },
      { asn: 64512, name: null },
    ]);
    expect(result.route.communities).toEqual([{ community: "64999:1:2", label: "Region" }]);
    expect(result.route.rpki).toBe("valid");
    expect(result.route.nextHop).toBe("2001:db8:ffff::1");
  });
});

describe("the vantage point and the Control Plane link", () => {
  it("a flow whose exporter was not named is found by the exporter's address", async () => {
    const result = await routeAtTime(stores, analyst, flow("10.9.9.9", T, { exporter_name: "", exporter_address: `::ffff:${EXPORTER_A}` }));
    expect(result).toMatchObject({ kind: "route", vantagePoint: { key: VP_A.key, router: VP_A.router } });
  });

  it("an exporter that is no router of the inventory, or a router without vantage point, says so", async () => {
    const unknown = await routeAtTime(stores, analyst, flow("10.9.9.9", T, { exporter_name: "", exporter_address: "203.0.113.9" }));
    expect(unknown.kind).toBe("no-vantage-point");
    const noPoint = await routeAtTime(stores, analyst, flow("10.9.9.9", T, { exporter_name: "zz-er9", exporter_address: "" }));
    expect(noPoint).toMatchObject({ kind: "no-vantage-point", message: expect.stringContaining("zz-er9") });
  });

  it("links to the Control Plane at that time, which shows the route's announcement; only with CONTROL_PLANE", async () => {
    const result = await routeAtTime(stores, analyst, flow("10.1.2.3", T - 200));
    if (result.kind !== "route") throw new Error(result.kind);
    const href = new URL(result.controlPlaneHref!, "http://x");
    expect(href.pathname).toBe("/controlplane");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      queryType: "IpPrefixQuery",
      queryTerm: "10.1.2.3",
      start: String(T - 900),
      end: String(T - 200 + 3600),
    });
    const screen = await controlPlaneScreen(await sessionCookie(stores, analystId), href.searchParams.toString());
    const rows = JSON.stringify(screen);
    expect(rows).toContain("10.1.0.0/16");
    expect(await routeAtTime(stores, withoutControlPlane, flow("10.1.2.3", T - 200))).toMatchObject({
      kind: "route",
      controlPlaneHref: null,
    });
    const none = await routeAtTime(stores, analyst, flow("192.0.2.77", T));
    expect(none.kind === "no-route" && new URL(none.controlPlaneHref!, "http://x").searchParams.get("start")).toBe(String(T - 3600));
  });

  it("a delegated account reads only the routing tables of its routers", async () => {
    const refused = await routeAtTime(stores, delegatedElsewhere, flow("10.1.2.3", T));
    expect(refused.kind).toBe("not-available");
    const own = await routeAtTime(stores, delegatedElsewhere, flow("10.1.2.3", T, { exporter_name: VP_B.router, exporter_address: "" }));
    expect(own).toMatchObject({ kind: "route", route: { prefix: "10.1.2.0/25" } });
  });

  it("bad input is a 400 naming the field", async () => {
    for (const [extra, field] of [
      [{ dst_addr: "10.1.2" }, "dst_addr"],
      [{ time_received: 1.5 }, "time_received"],
      [{ exporter_address: "nope" }, "exporter_address"],
      [{ next_hop: "1.2.3.4.5" }, "next_hop"],
    ] as const) {
      const error = await routeAtTime(stores, analyst, { ...flow("10.1.2.3", T), ...extra }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiProblem);
      expect((error as ApiProblem).status).toBe(400);
      expect((error as ApiProblem).body.errors?.[0].field).toBe(field);
    }
  });
});
