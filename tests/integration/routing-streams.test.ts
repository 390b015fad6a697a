/**
 * api/routingstreams/?asn: the prefixes an AS originates in rib_current and through which
 * neighbours and paths each vantage point receives them — every figure against a recomputation in
 * the test from the routes it wrote (newest row per route, withdrawals, AS_SET origins, empty paths,
 * tables other than post-policy and Loc-RIB, route distinguishers, both families); bad AS numbers
 * and who may call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import { userPermissions, users } from "~db/postgres/schema";
import { routingStreams } from "~/features/routing/streams/streams.server";
import * as streamsRoute from "~/routes/api.routingstreams";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const T0 = 1_790_000_000;
type Route = RibRow & { rib_view: "pre-policy" | "post-policy" | "loc-rib" };

function route(vp: string, prefix: string, asPath: number[], extra: Partial<Route> = {}): Route {
  const v6 = prefix.includes(":");
  const [addr, len] = prefix.split("/");
  return {
    timestamp: T0,
    vantage_point: vp,
    router_ip: "192.0.2.1",
    peer_ip: `198.51.100.${asPath[0] ?? 1 % 250}`,
    peer_asn: asPath[0] ?? 64496,
    route_distinguisher: "",
    prefix,
    prefix_addr: v6 ? addr : `::ffff:${addr}`,
    prefix_len: Number(len),
    afi: v6 ? 2 : 1,
    safi: 1,
    is_withdrawn: 0,
    as_path: asPath,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: v6 ? "2001:db8:ffff::1" : "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
    rib_view: "post-policy",
    ...extra,
  };
}

const AS = 64500;
const ROUTES: Route[] = [
  route("fra1", "192.0.2.0/24", [3356, AS]),
  route("fra1", "192.0.2.0/24", [3356, AS], { rib_view: "loc-rib" }),
  route("fra1", "198.51.100.0/24", [3356, AS]),
  route("fra1", "198.51.100.0/24", [1299, 174, AS], { peer_ip: "198.51.100.99" }),
  route("fra1", "2001:db8::/32", [1299, AS, AS]),
  // The same prefix in a VRF: counted per route distinguisher at the vantage point, once among the prefixes.
  route("fra1", "192.0.2.0/24", [3356, AS], { route_distinguisher: "64496:1" }),
  route("ams1", "192.0.2.0/24", [AS]),
  route("ams1", "203.0.113.0/24", [AS]),
  // Withdrawn later: gone from the current table.
  route("ams1", "100.64.0.0/24", [AS]),
  route("ams1", "100.64.0.0/24", [AS], { timestamp: T0 + 60, is_withdrawn: 1 }),
  // Announced again after a withdrawal: present.
  route("ams1", "100.64.1.0/24", [AS], { timestamp: T0 - 60, is_withdrawn: 1 }),
  route("ams1", "100.64.1.0/24", [6939, AS]),
  // Not counted: pre-policy only, an AS_SET origin, another origin, AS in the middle of the path.
  route("ams1", "10.1.0.0/16", [AS], { rib_view: "pre-policy" }),
  route("ams1", "10.2.0.0/16", [3356, AS], { as_path_set: [AS, 64501] }),
  route("ams1", "10.3.0.0/16", [AS, 64501]),
  // An empty path: originated inside the network, the peer's AS is the origin.
  route("lon1", "10.9.0.0/16", [], { peer_asn: AS }),
];

/** The recomputation: the newest row of each route (vp, rd, prefix, peer, table), kept when announced, in the default tables, originated by AS. */
function expected(asn: number) {
  const newest = new Map<string, Route>();
  for (const r of ROUTES) {
    const key = [r.vantage_point, r.route_distinguisher, r.prefix, r.peer_ip, r.rib_view].join("|");
    const seen = newest.get(key);
    if (!seen || r.timestamp >= seen.timestamp) newest.set(key, r);
  }
  const rows = [...newest.values()].filter(
    (r) =>
      r.is_withdrawn === 0 &&
      r.rib_view !== "pre-policy" &&
      r.as_path_set.length === 0 &&
      (r.as_path.length === 0 ? r.peer_asn : r.as_path[r.as_path.length - 1]) === asn,
  );
  const neighbor = (r: Route) => (r.as_path.length === 0 ? null : r.as_path[0]);
  const streams = new Map<
    string,
    { vantage_point: string; neighbor_asn: number | null; as_path: number[]; routes: Set<string>; v4: Set<string>; v6: Set<string> }
  >();
  for (const r of rows) {
    const key = `${r.vantage_point}|${r.as_path.join(" ")}`;
    const s = streams.get(key) ?? {
      vantage_point: r.vantage_point,
      neighbor_asn: neighbor(r),
      as_path: r.as_path,
      routes: new Set(),
      v4: new Set(),
      v6: new Set(),
    };
    s.routes.add(`${r.route_distinguisher}|${r.prefix}`);
    (r.afi === 1 ? s.v4 : s.v6).add(`${r.route_distinguisher}|${r.prefix}`);
    streams.set(key, s);
  }
  const vps = [...new Set(rows.map((r) => r.vantage_point))].sort();
  const prefixes = [...new Set(rows.map((r) => r.prefix))];
  return {
    summary: {
      prefixes: prefixes.length,
      ipv4: prefixes.filter((p) => !p.includes(":")).length,
      ipv6: prefixes.filter((p) => p.includes(":")).length,
      vantage_points: vps.length,
      neighbors: new Set(rows.map((r) => neighbor(r) ?? 0)).size,
      streams: streams.size,
    },
    vantage_points: vps.map((vp) => {
      const mine = rows.filter((r) => r.vantage_point === vp);
      return {
        vantage_point: vp,
        prefixes: new Set(mine.map((r) => `${r.route_distinguisher}|${r.prefix}`)).size,
        neighbors: new Set(mine.map((r) => neighbor(r) ?? 0)).size,
        paths: new Set(mine.map((r) => r.as_path.join(" "))).size,
      };
    }),
    streams: [...streams.values()]
      .map((s) => ({
        vantage_point: s.vantage_point,
        neighbor_asn: s.neighbor_asn,
        as_path: s.as_path,
        prefixes: s.routes.size,
        ipv4: s.v4.size,
        ipv6: s.v6.size,
      }))
      .sort(
        (a, b) =>
          a.vantage_point.localeCompare(b.vantage_point) || b.prefixes - a.prefixes || (a.neighbor_asn ?? 0) - (b.neighbor_asn ?? 0),
      ),
    prefixes: prefixes
      .map((prefix) => {
        const mine = rows.filter((r) => r.prefix === prefix);
        return {
          prefix,
          ip_version: prefix.includes(":") ? 6 : 4,
          vantage_points: new Set(mine.map((r) => r.vantage_point)).size,
          neighbors: new Set(mine.map((r) => neighbor(r) ?? 0)).size,
          paths: new Set(mine.map((r) => r.as_path.join(" "))).size,
        };
      })
      .sort((a, b) => a.ip_version - b.ip_version || a.prefix.localeCompare(b.prefix)),
  };
}

let stores: TestStores;
const cookies = { relations: "", other: "" };

async function createUser(email: string, permissions: "AS_RELATIONS"[]) {
  const [r] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: r.id, permission })));
  return r.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  cookies.relations = await sessionCookie(stores, await createUser("relations@streams.test", ["AS_RELATIONS"]));
  cookies.other = await sessionCookie(stores, await createUser("other@streams.test", []));
  await chInsert(stores.ch, { name: "test.routes", table: "rib_entries", values: ROUTES });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("api/routingstreams/", () => {
  it("answers the origin's prefixes, vantage points and streams as recomputed from the routes", async () => {
    const want = expected(AS);
    // The recomputation is not vacuous: the fixture's rules leave these.
    expect(want.summary).toEqual({ prefixes: 6, ipv4: 5, ipv6: 1, vantage_points: 3, neighbors: 5, streams: 6 });
    const res = await callRoute(streamsRoute, `/api/routingstreams/?asn=AS${AS}`, { cookie: cookies.relations });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ asn: AS, tables: ["post-policy", "loc-rib"], ...want, truncated: false });
  });

  it("cuts the lists at the limit and says so; the summary still counts everything", async () => {
    const cut = await routingStreams(stores, AS, 2);
    expect(cut.streams).toEqual(expected(AS).streams.slice(0, 2));
    expect(cut.prefixes).toHaveLength(2);
    expect([cut.truncated, cut.summary.streams]).toEqual([true, 6]);
  });

  it("answers empty lists for an AS no route has, 400 for a bad AS number, 403 without AS_RELATIONS", async () => {
    const none = await (await callRoute(streamsRoute, "/api/routingstreams/?asn=64999", { cookie: cookies.relations })).json();
    expect(none).toMatchObject({ summary: { prefixes: 0, streams: 0 }, streams: [], prefixes: [], vantage_points: [] });
    for (const asn of ["", "abc", "!64500", "0", "4294967296"]) {
      const res = await callRoute(streamsRoute, `/api/routingstreams/?asn=${encodeURIComponent(asn)}`, { cookie: cookies.relations });
      expect([asn, res.status]).toEqual([asn, 400]);
    }
    expect((await callRoute(streamsRoute, "/api/routingstreams/?asn=64500", { cookie: cookies.other })).status).toBe(403);
  });
});
