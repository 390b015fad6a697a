/**
 * api/lookingglass/ and api/lookingglass/vantagepoints/ on chDB with routing rows this test
 * inserts into rib_entries, checked against an independent model in TypeScript built from the
 * same rows (newest row per route, tombstones dropped, longest match by BigInt prefix arithmetic
 * from the demo generator's helpers): longest prefix match for IPv4 and IPv6, more-specifics, AS
 * path patterns (the unit test's table, here evaluated by ClickHouse), result caps and the banner
 * numbers, public and private variants, access per role, CSRF, cache and the rate limit.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parsePrefix } from "~db/demo/addresses";
import type { RibRow } from "~db/demo/rib";
import { siteSettings, userPermissions, users, vantagePoints } from "~db/postgres/schema";
import { resultsLimited } from "~/lib/messages";
import { publicQueryCache, publicQueryLimiter, PUBLIC_QUERY_RATE } from "~/features/routing/lookingglass-cache.server";
import { runLookingGlassQuery, type LookingGlassResult } from "~/features/routing/lookingglass.server";
import * as lookingGlassRoute from "~/routes/api.lookingglass";
import * as vantagePointsRoute from "~/routes/api.lookingglass.vantagepoints";
import { trustProxy } from "~/server/auth/session.server";
import { useServicesForTests } from "~/server/services.server";
import { AS_PATH_CASES } from "../fixtures/as-path-cases";
import { CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chInsert } from "~/server/clickhouse/query.server";

const T0 = 1_790_000_000;

const VANTAGE_POINTS = [
  {
    key: "fra1",
    city: "Frankfurt",
    country: "Germany",
    router: "fra-er1",
    ip: "192.0.2.1",
    isPublic: true,
    description: "Frankfurt, Germany (1)",
  },
  {
    key: "fra2",
    city: "Frankfurt",
    country: "Germany",
    router: "fra-er2",
    ip: "192.0.2.2",
    isPublic: true,
    description: "Frankfurt, Germany (2)",
  },
  { key: "ber1", city: "Berlin", country: "Germany", router: "ber-er1", ip: "192.0.2.3", isPublic: true, description: "Berlin, Germany" },
  {
    key: "ham1",
    city: "Hamburg",
    country: "Germany",
    router: "ham-er1",
    ip: "192.0.2.4",
    isPublic: false,
    description: "Hamburg, Germany",
  },
  { key: "lab1", city: "Lab", country: "Nowhere", router: "lab-er1", ip: "192.0.2.99", isPublic: false, description: "AS path lab" },
];

/** A rib_entries row with defaults; IPv4 prefixes go into prefix_addr as text (ClickHouse maps them). */
function route(vp: string, prefix: string, timestamp: number, extra: Partial<RibRow> = {}): RibRow {
  const parsed = parsePrefix(prefix);
  return {
    timestamp,
    vantage_point: vp,
    router_ip: VANTAGE_POINTS.find((v) => v.key === vp)!.ip,
    peer_ip: "198.51.100.1",
    peer_asn: 3356,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: parsed.length,
    afi: parsed.family === 4 ? 1 : 2,
    safi: 1,
    is_withdrawn: 0,
    as_path: [3356, 15169],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: parsed.family === 4 ? "198.51.100.1" : "2001:db8:ffff::1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: ["64500:100"],
    expire_at: 0,
    ...extra,
  };
}

const withdrawal = (row: RibRow, at: number): RibRow => ({ ...row, timestamp: at, is_withdrawn: 1, as_path: [] });

/** Distinct AS paths of the pattern table, one /24 each on lab1. */
const LAB_PATHS = [...new Map(AS_PATH_CASES.map(([, path]) => [path.join(" "), path])).values()];
const labPrefix = (i: number) => `198.18.${i}.0/24`;

const ROWS: RibRow[] = (() => {
  const rows: RibRow[] = [];
  // IPv4 nesting on fra1, with two paths (peers) for the /24 and a VRF of its own.
  rows.push(route("fra1", "10.0.0.0/8", T0, { as_path: [1299] }));
  rows.push(route("fra1", "10.1.0.0/16", T0, { as_path: [1299, 2914] }));
  rows.push(
    route("fra1", "10.1.2.0/24", T0, {
      as_path: [3356, 64511],
      communities: ["64500:100", "64500:1001"],
      originator_id: "192.0.2.9",
      med: 20,
    }),
  );
  rows.push(route("fra1", "10.1.2.0/24", T0 + 60, { peer_ip: "198.51.100.7", peer_asn: 174, as_path: [174, 64511], local_pref: 150 }));
  rows.push(route("fra1", "10.1.0.0/16", T0, { route_distinguisher: "64500:1", as_path: [64512] }));
  // fra2: the /24 was withdrawn, so the /16 is its longest match; the /8 was re-announced with a new path.
  const fra2Specific = route("fra2", "10.1.2.0/24", T0, { as_path: [6939, 64511] });
  rows.push(fra2Specific, withdrawal(fra2Specific, T0 + 120));
  rows.push(route("fra2", "10.1.0.0/16", T0, { as_path: [6939] }));
  rows.push(route("fra2", "10.0.0.0/8", T0, { as_path: [1] }), route("fra2", "10.0.0.0/8", T0 + 300, { as_path: [6939, 1] }));
  // ber1: only the /8. ham1 (private): the /24.
  rows.push(route("ber1", "10.0.0.0/8", T0, { as_path: [3320] }));
  rows.push(route("ham1", "10.1.2.0/24", T0, { as_path: [3320, 64511] }));
  // IPv6 on fra1 and ber1; an IPv6 route in ::ffff:0:0/96 must not answer IPv4 queries.
  rows.push(route("fra1", "2001:db8::/32", T0, { as_path: [6939] }));
  rows.push(route("fra1", "2001:db8:1::/48", T0, { as_path: [6939, 64496] }));
  rows.push(route("ber1", "2001:db8::/32", T0, { as_path: [3320] }));
  rows.push(route("ber1", "::ffff:0:0/96", T0, { as_path: [65000] }));
  // 1200 host routes under 100.64.0.0/16 on fra1 and 3 on ber1: more than one page of results.
  for (let i = 0; i < 1200; i++) rows.push(route("fra1", `100.64.${i >> 8}.${i & 255}/32`, T0, { as_path: [64496] }));
  for (let i = 0; i < 3; i++) rows.push(route("ber1", `100.64.9.${i}/32`, T0, { as_path: [64497] }));
  LAB_PATHS.forEach((path, i) => rows.push(route("lab1", labPrefix(i), T0, { as_path: path })));
  return rows;
})();

// ---------------------------------------------------------------------------------------------------------------
// The model: the current table from the rows, then the selections

const routeKey = (r: RibRow) => [r.vantage_point, r.route_distinguisher, r.prefix, r.peer_ip].join("|");

function currentTable(rows: RibRow[]): RibRow[] {
  const newest = new Map<string, RibRow>();
  for (const r of rows) {
    const seen = newest.get(routeKey(r));
    if (!seen || r.timestamp >= seen.timestamp) newest.set(routeKey(r), r);
  }
  return [...newest.values()].filter((r) => r.is_withdrawn === 0);
}

function contains(prefix: string, inner: string): boolean {
  const outer = parsePrefix(prefix);
  const target = parsePrefix(inner.includes("/") ? inner : `${inner}/${inner.includes(":") ? 128 : 32}`);
  if (outer.family !== target.family || target.length < outer.length) return false;
  const bits = BigInt(outer.family === 4 ? 32 : 128);
  const shift = bits - BigInt(outer.length);
  return outer.base >> shift === target.base >> shift;
}

/** Rows per vantage point of the model, sorted like the API (route distinguisher, prefix, peer). */
function expected(vps: string[], select: (rows: RibRow[]) => RibRow[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const vp of vps) {
    const rows = select(currentTable(ROWS).filter((r) => r.vantage_point === vp));
    out[vp] = rows.map((r) => `${r.route_distinguisher}|${r.prefix}|${r.as_path.join(" ")}`).sort();
  }
  return out;
}

function longestMatch(address: string) {
  return (rows: RibRow[]) => {
    const covering = rows.filter((r) => contains(r.prefix, address));
    return covering.filter(
      (r) => r.prefix_len === Math.max(...covering.filter((c) => c.route_distinguisher === r.route_distinguisher).map((c) => c.prefix_len)),
    );
  };
}

function moreSpecifics(prefix: string) {
  return (rows: RibRow[]) => rows.filter((r) => contains(prefix, r.prefix));
}

/** The API's answer in the model's form; "none" for VantagePointWithNoData. */
function actual(result: LookingGlassResult): Record<string, string[] | "none"> {
  const out: Record<string, string[] | "none"> = {};
  for (const [vp, rows] of Object.entries(result.results)) {
    out[vp] =
      rows === "VantagePointWithNoData" ? "none" : rows.map((r) => `${r.RouteDistinguisher}|${r.Prefix}|${r["BGP as_path"]}`).sort();
  }
  return out;
}

const orNone = (model: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(model).map(([vp, rows]) => [vp, rows.length ? rows : "none"]));

// ---------------------------------------------------------------------------------------------------------------

let stores: TestStores;
const uid = { lg: 0, noLg: 0 };

async function createUser(email: string, permissions: ("PRIVATE_LOOKING_GLASS" | "CONTROL_PLANE")[]) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

async function setPublicSite(enabled: boolean) {
  await stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: enabled }).where(eq(siteSettings.id, 1));
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(vantagePoints).values(VANTAGE_POINTS.map((v) => ({ ...v, legacyDescription: v.router.toUpperCase() })));
  for (let i = 0; i < ROWS.length; i += 5000)
    await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS.slice(i, i + 5000) });
  uid.lg = await createUser("lg@lg.test", ["PRIVATE_LOOKING_GLASS"]);
  uid.noLg = await createUser("nolg@lg.test", ["CONTROL_PLANE"]);
}, 120_000);

afterAll(async () => {
  trustProxy(false);
  await stores?.dispose();
}, 60_000);

afterEach(async () => {
  publicQueryCache.clear();
  publicQueryLimiter.clear();
  await setPublicSite(false);
  stores.config.APP_VARIANT = "analytics";
});

type Call = { status: number; headers: Headers; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(body: unknown, options: { userId?: number; csrf?: boolean; forwardedFor?: string } = {}): Promise<Call> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  headers.Cookie = options.userId ? await sessionCookie(stores, options.userId) : `csrftoken=${CSRF_TOKEN}`;
  if (options.csrf !== false) headers["X-CSRFToken"] = CSRF_TOKEN;
  if (options.forwardedFor) headers["X-Forwarded-For"] = options.forwardedFor;
  const request = new Request(`${ORIGIN}/api/lookingglass/`, { method: "POST", headers, body: JSON.stringify(body) });
  const res = await lookingGlassRoute.action({ request, params: {}, context: {} });
  return { status: res.status, headers: res.headers, data: await res.json() };
}

async function getVantagePoints(userId?: number): Promise<Call> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (userId) headers.Cookie = await sessionCookie(stores, userId);
  const res = await vantagePointsRoute.loader({
    request: new Request(`${ORIGIN}/api/lookingglass/vantagepoints/`, { headers }),
    params: {},
    context: {},
  });
  return { status: res.status, headers: res.headers, data: await res.json() };
}

/** GET api/lookingglass/?queryTerm=…&queryType=…&vantagePoints=a&vantagePoints=b — the same query as a plain link. */
async function getQuery(params: Record<string, string> | [string, string][], userId?: number): Promise<Call> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (userId) headers.Cookie = await sessionCookie(stores, userId);
  const url = `${ORIGIN}/api/lookingglass/?${new URLSearchParams(params)}`;
  const res = await lookingGlassRoute.loader({ request: new Request(url, { headers }), params: {}, context: {} });
  return { status: res.status, headers: res.headers, data: await res.json() };
}

const ip = (queryTerm: string, vps = ["fra1", "fra2", "ber1", "ham1"]) => ({ queryType: "IpPrefixQuery", queryTerm, vantagePoints: vps });
const PRIVATE_VPS = ["fra1", "fra2", "ber1", "ham1"];

describe("prefix queries (private variant)", () => {
  it("an IPv4 address: the longest match per vantage point and route distinguisher, all its paths", async () => {
    const res = await post(ip("10.1.2.3"), { userId: uid.lg });
    expect(res.status).toBe(200);
    expect(actual(res.data)).toEqual(orNone(expected(PRIVATE_VPS, longestMatch("10.1.2.3"))));
    // Spelled out, so the model cannot agree with a wrong query by accident:
    expect(actual(res.data).fra1).toEqual(["64500:1|10.1.0.0/16|64512", "|10.1.2.0/24|174 64511", "|10.1.2.0/24|3356 64511"]);
    expect(actual(res.data).fra2).toEqual(["|10.1.0.0/16|6939"]);
    expect(actual(res.data).ber1).toEqual(["|10.0.0.0/8|3320"]);
    expect(res.data.queryTerm).toBe("10.1.2.3");
    expect(res.data.results_limit).toBeNull();
    expect(res.data.results_maximum).toBeNull();
  });

  // (fra2's withdrawn /24 is checked above: its longest match is the /16.)
  it("the newest announcement of a route wins", async () => {
    const res = await post(ip("10.200.0.1", ["fra2"]), { userId: uid.lg });
    expect(actual(res.data)).toEqual({ fra2: ["|10.0.0.0/8|6939 1"] });
  });

  it("an address nobody routes: VantagePointWithNoData everywhere", async () => {
    const res = await post(ip("203.0.113.5"), { userId: uid.lg });
    expect(res.data.results).toEqual({
      fra1: "VantagePointWithNoData",
      fra2: "VantagePointWithNoData",
      ber1: "VantagePointWithNoData",
      ham1: "VantagePointWithNoData",
    });
  });

  it("an IPv6 address: longest match, compressed term; IPv4-mapped IPv6 routes do not answer IPv4", async () => {
    const res = await post(ip("2001:0DB8:0001::1"), { userId: uid.lg });
    expect(res.data.queryTerm).toBe("2001:db8:1::1");
    expect(actual(res.data)).toEqual(orNone(expected(PRIVATE_VPS, longestMatch("2001:db8:1::1"))));
    expect(actual(res.data).fra1).toEqual(["|2001:db8:1::/48|6939 64496"]);
    const v4 = await post(ip("192.0.2.200", ["ber1"]), { userId: uid.lg });
    expect(v4.data.results).toEqual({ ber1: "VantagePointWithNoData" });
  });

  it("a prefix: the prefix and its more-specifics; host bits of the term are cleared", async () => {
    for (const term of ["10.1.0.0/16", "10.0.0.0/8", "2001:db8::/32"]) {
      const res = await post(ip(term, ["fra1", "fra2", "ber1"]), { userId: uid.lg });
      expect(actual(res.data)).toEqual(orNone(expected(["fra1", "fra2", "ber1"], moreSpecifics(term))));
    }
    const res = await post(ip("10.1.2.77/24", ["fra1"]), { userId: uid.lg });
    expect(res.data.queryTerm).toBe("10.1.2.0/24");
    expect(actual(res.data).fra1).toEqual(["|10.1.2.0/24|174 64511", "|10.1.2.0/24|3356 64511"]);
  });

  it("rows carry the spec's columns, private ones included", async () => {
    const res = await post(ip("10.1.2.3", ["fra1"]), { userId: uid.lg });
    const row = res.data.results.fra1.find((r: { "BGP as_path": string }) => r["BGP as_path"] === "3356 64511");
    expect(row).toEqual({
      VantagePoint: "fra-er1 Frankfurt, Germany",
      Prefix: "10.1.2.0/24",
      RouteDistinguisher: "",
      "BGP as_path": "3356 64511",
      "BGP local_pref": 100,
      "BGP med": 20,
      "BGP next_hop": "198.51.100.1",
      "BGP community": "64500:100 64500:1001",
      "BGP originator_id": "192.0.2.9",
      RibView: "post-policy",
      LastUpdate: new Date(T0 * 1000).toISOString().replace(".000Z", "Z"),
      // No names in as_info and no labels here (tests/integration/lookingglass-views.test.ts has them).
      asNames: {},
      communityNames: {},
      // No VRP is loaded in this test's stores: nothing can be judged (tests/integration/rpki-import.test.ts loads some).
      RPKI: null,
    });
  });
});

describe("AS path patterns on chDB (the unit test's table)", () => {
  const patterns = [...new Set(AS_PATH_CASES.map(([pattern]) => pattern))];
  it("every case of the table gives the same answer in ClickHouse", async () => {
    for (const pattern of patterns) {
      const result = await runLookingGlassQuery(stores, {
        variant: "private",
        queryType: "AsPathQuery",
        queryTerm: pattern,
        vantagePoints: ["lab1"],
      });
      const lab = result.results.lab1;
      const found = new Set(lab === "VantagePointWithNoData" ? [] : lab.map((r) => r.Prefix));
      for (const [casePattern, path, matches] of AS_PATH_CASES.filter(([p]) => p === pattern)) {
        const prefix = labPrefix(LAB_PATHS.findIndex((p) => p.join(" ") === path.join(" ")));
        expect({ pattern: casePattern, path, matches: found.has(prefix) }).toEqual({ pattern: casePattern, path, matches });
      }
    }
  });

  it("the API takes legacy codes and refuses bad patterns with the message", async () => {
    const res = await post({ queryType: "AS_PATH_QUERY", queryTerm: "* 64511", vantagePoints: ["fra1", "ham1"] }, { userId: uid.lg });
    expect(actual(res.data)).toEqual({ fra1: ["|10.1.2.0/24|174 64511", "|10.1.2.0/24|3356 64511"], ham1: ["|10.1.2.0/24|3320 64511"] });
    const bad = await post({ queryType: "AsPathQuery", queryTerm: "AS3356", vantagePoints: ["fra1"] }, { userId: uid.lg });
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toMatch(/^Invalid AS path pattern/);
    expect(bad.data.errors[0].field).toBe("queryTerm");
  });
});

describe("result caps", () => {
  it("more than 1000 rows: results_limit and results_maximum give the banner's numbers", async () => {
    const res = await post(ip("100.64.0.0/12", ["fra1", "ber1"]), { userId: uid.lg });
    const model = expected(["fra1", "ber1"], moreSpecifics("100.64.0.0/12"));
    const found = model.fra1.length + model.ber1.length;
    expect(found).toBe(1203);
    expect(res.data.results_limit).toBe(1000);
    expect(res.data.results_maximum).toBe(found);
    // The limit is shared in turns: ber1's three rows are all there.
    expect(res.data.results.ber1).toHaveLength(3);
    expect(res.data.results.fra1).toHaveLength(997);
    expect(resultsLimited(res.data.results_maximum, res.data.results_limit)).toBe(
      "Your search had 1203 results, only the first 1000 will be shown. Try a more specific query.",
    );
  });

  it("a smaller limit (server function)", async () => {
    const result = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: "10.0.0.0/8",
      vantagePoints: ["fra1", "fra2"],
      limit: 4,
    });
    const model = expected(["fra1", "fra2"], moreSpecifics("10.0.0.0/8"));
    expect(result.results_maximum).toBe(model.fra1.length + model.fra2.length);
    expect(result.results_limit).toBe(4);
    expect(result.results.fra1).toHaveLength(2);
    expect(result.results.fra2).toHaveLength(2);
  });
});

describe("bad input", () => {
  it.each([
    [ip("10.0.0.0/33"), "Network is not a CIDR or IP"],
    [ip(""), "Network is not a CIDR or IP"],
    [{ queryType: "PingQuery", queryTerm: "192.0.2.1", vantagePoints: ["fra1"] }, "PingQuery is a network command: use api/netcommand/."],
    [
      { queryType: "TRACEROUTE_QUERY", queryTerm: "192.0.2.1", vantagePoints: ["fra1"] },
      "TracerouteQuery is a network command: use api/netcommand/.",
    ],
    [
      { queryType: "BogusQuery", queryTerm: "1", vantagePoints: ["fra1"] },
      'Unknown query type "BogusQuery": use AsPathQuery or IpPrefixQuery.',
    ],
    [ip("10.0.0.1", ["nope"]), "Unknown vantage point: nope."],
  ])("%j → 400 %s", async (body, detail) => {
    const res = await post(body, { userId: uid.lg });
    expect(res.status).toBe(400);
    expect(res.data.detail).toBe(detail);
  });

  it("a body of the wrong shape names the fields", async () => {
    const res = await post({ queryType: "IpPrefixQuery", queryTerm: 5, vantagePoints: [] }, { userId: uid.lg });
    expect(res.status).toBe(400);
    expect(res.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["queryTerm", "vantagePoints"]);
  });
});

describe("vantage points", () => {
  it("private: all, 'Router City, Country'", async () => {
    const res = await getVantagePoints(uid.lg);
    expect(res.status).toBe(200);
    expect(res.data.map((v: { key: string; display_name: string }) => [v.key, v.display_name])).toEqual([
      ["fra1", "fra-er1 Frankfurt, Germany"],
      ["fra2", "fra-er2 Frankfurt, Germany"],
      ["ber1", "ber-er1 Berlin, Germany"],
      ["ham1", "ham-er1 Hamburg, Germany"],
      ["lab1", "lab-er1 Lab, Nowhere"],
    ]);
    expect(Object.keys(res.data[0]).sort()).toEqual([
      "city",
      "country",
      "description",
      "display_name",
      "id",
      "ip",
      "key",
      "legacy_description",
      "router",
    ]);
  });

  it("public: only public ones, 'City, Country' numbered when a city has several", async () => {
    await setPublicSite(true);
    const res = await getVantagePoints();
    expect(res.data.map((v: { key: string; display_name: string }) => [v.key, v.display_name])).toEqual([
      ["fra1", "Frankfurt, Germany 1"],
      ["fra2", "Frankfurt, Germany 2"],
      ["ber1", "Berlin, Germany"],
    ]);
  });
});

describe("access", () => {
  it("public Looking Glass off: anonymous 403 not_authenticated, logged in without the permission 403 permission_denied", async () => {
    expect((await getVantagePoints()).data.exception_code).toBe("not_authenticated");
    expect((await post(ip("10.1.2.3"))).data.exception_code).toBe("not_authenticated");
    const noLg = await post(ip("10.1.2.3"), { userId: uid.noLg });
    expect([noLg.status, noLg.data.exception_code]).toEqual([403, "permission_denied"]);
    expect((await getVantagePoints(uid.noLg)).status).toBe(403);
  });

  it("public Looking Glass on (site setting): public vantage points, no private-only columns", async () => {
    await setPublicSite(true);
    const res = await post(ip("10.1.2.3", ["Frankfurt, Germany 1", "Frankfurt, Germany (2)", "ber1"]));
    expect(res.status).toBe(200);
    expect(Object.keys(res.data.results)).toEqual(["fra1", "fra2", "ber1"]);
    for (const rows of Object.values(res.data.results) as { VantagePoint: string }[][]) {
      for (const row of rows) {
        expect(row).not.toHaveProperty("BGP community");
        expect(row).not.toHaveProperty("BGP originator_id");
        expect(row).not.toHaveProperty("communityNames");
      }
    }
    expect(res.data.results.fra1[0].VantagePoint).toBe("Frankfurt, Germany 1");
    const all = await post(ip("10.1.2.3", ["all"]));
    expect(Object.keys(all.data.results)).toEqual(["fra1", "fra2", "ber1"]);
    // A private vantage point is as unknown as a missing one.
    const priv = await post(ip("10.1.2.3", ["ham1"]));
    expect([priv.status, priv.data.detail]).toEqual([400, "Unknown vantage point: ham1."]);
    // A logged-in user without the permission gets the public variant too.
    const noLg = await post(ip("10.1.2.3", ["fra1"]), { userId: uid.noLg });
    expect(noLg.data.results.fra1[0]).not.toHaveProperty("BGP community");
  });

  it("the public-lg deployment serves anonymous visitors whatever the site setting", async () => {
    stores.config.APP_VARIANT = "public-lg";
    const res = await post(ip("10.1.2.3", ["fra1"]));
    expect(res.status).toBe(200);
    expect(res.data.results.fra1.length).toBeGreaterThan(0);
  });

  it("GET with the body's fields as parameters answers as the POST does (a shared link), with the same access and checks", async () => {
    const term: [string, string][] = [
      ["queryType", "IpPrefixQuery"],
      ["queryTerm", "10.1.2.3"],
    ];
    const params: [string, string][] = [...term, ["vantagePoints", "fra1"], ["vantagePoints", "ber1"]];
    expect((await getQuery(params)).data.exception_code).toBe("not_authenticated");
    const viaGet = await getQuery(params, uid.lg);
    const viaPost = await post(ip("10.1.2.3", ["fra1", "ber1"]), { userId: uid.lg });
    expect(viaGet.status).toBe(200);
    expect(viaGet.data).toEqual(viaPost.data);
    await setPublicSite(true);
    // A display name (with its comma) is one parameter; a private vantage point is as unknown as a missing one.
    const byName = await getQuery([...term, ["vantagePoints", "Frankfurt, Germany 1"], ["vantagePoints", "ber1"]]);
    expect(Object.keys(byName.data.results)).toEqual(["fra1", "ber1"]);
    const priv = await getQuery([...term, ["vantagePoints", "ham1"]]);
    expect([priv.status, priv.data.detail]).toEqual([400, "Unknown vantage point: ham1."]);
    const publicGet = await getQuery(params);
    expect(Object.keys(publicGet.data.results)).toEqual(["fra1", "ber1"]);
    expect(publicGet.data.results.fra1[0]).not.toHaveProperty("BGP community");
    const missing = await getQuery({ queryType: "IpPrefixQuery", queryTerm: "10.1.2.3" });
    expect(missing.status).toBe(400);
    expect(missing.data.errors.map((e: { field: string }) => e.field)).toEqual(["vantagePoints"]);
  });

  it("CSRF: required with a session cookie, not for anonymous public queries", async () => {
    const noHeader = await post(ip("10.1.2.3"), { userId: uid.lg, csrf: false });
    expect([noHeader.status, noHeader.data.exception_code]).toEqual([403, "csrf_failed"]);
    await setPublicSite(true);
    expect((await post(ip("10.1.2.3", ["fra1"]), { csrf: false })).status).toBe(200);
  });
});

describe("public cache and rate limit", () => {
  it("identical public queries are answered from the cache for a minute; private ones read the table", async () => {
    await setPublicSite(true);
    const first = await post(ip("172.16.5.5", ["fra1"]));
    expect(first.data.results.fra1).toBe("VantagePointWithNoData");
    await chInsert(stores.ch, {
      name: "test.fixture",
      table: "rib_entries",
      values: [route("fra1", "172.16.0.0/12", T0 + 900, { as_path: [64499] })],
      format: "JSONEachRow",
    });
    const again = await post(ip("172.16.5.5", ["fra1"]));
    expect(again.data.results.fra1).toBe("VantagePointWithNoData");
    const priv = await post(ip("172.16.5.5", ["fra1"]), { userId: uid.lg });
    expect(actual(priv.data).fra1).toEqual(["|172.16.0.0/12|64499"]);
    publicQueryCache.clear();
    const fresh = await post(ip("172.16.5.5", ["fra1"]));
    expect(fresh.data.results.fra1).toHaveLength(1);
  });

  it(`more than ${PUBLIC_QUERY_RATE.perAddress} public queries a minute from one address: 429 with Retry-After`, async () => {
    await setPublicSite(true);
    trustProxy(true);
    try {
      for (let i = 0; i < PUBLIC_QUERY_RATE.perAddress; i++) {
        expect((await post(ip("10.1.2.3", ["fra1"]), { forwardedFor: "203.0.113.10" })).status).toBe(200);
      }
      const limited = await post(ip("10.1.2.3", ["fra1"]), { forwardedFor: "203.0.113.10" });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
      expect(limited.data.detail).toMatch(/^Too many Looking Glass queries\. Please try again in \d+ seconds\.$/);
      // Another address, and private users, are not limited by it.
      expect((await post(ip("10.1.2.3", ["fra1"]), { forwardedFor: "203.0.113.11" })).status).toBe(200);
      expect((await post(ip("10.1.2.3", ["fra1"]), { forwardedFor: "203.0.113.10", userId: uid.lg })).status).toBe(200);
    } finally {
      trustProxy(false);
    }
  });
});
