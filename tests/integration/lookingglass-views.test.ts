/**
 * The Looking Glass and the Control Plane over the routing tables' RIB views, with communities and
 * AS names, on chDB with rows this test inserts: pre-policy and post-policy Adj-RIB-In, Loc-RIB,
 * ADD-PATH paths and extended communities as a BMP station writes them. Checked against an
 * independent model in TypeScript built from the same rows: the newest row per route (peer, table,
 * path), the tables of the choice, the longest prefix per vantage point and route distinguisher, and
 * a community matcher written here. Names: as_info for AS paths (both variants), well-known names
 * and operator labels for communities (private only). The public variant refuses both choices; the
 * screens and the export read them from their URL.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parsePrefix } from "~db/demo/addresses";
import type { RibRow } from "~db/demo/rib";
import { asInfo, communityLabels, siteSettings, userPermissions, users, vantagePoints } from "~db/postgres/schema";
import { controlPlaneQuery } from "~/features/routing/controlplane.server";
import { publicQueryCache, publicQueryLimiter } from "~/features/routing/lookingglass-cache.server";
import { PUBLIC_COMMUNITY_REFUSAL, PUBLIC_RIB_VIEW_REFUSAL, type LookingGlassResult } from "~/features/routing/lookingglass.server";
import type { RibView, RibViewChoice } from "~/features/routing/rib-views";
import { flattenRunRows } from "~/features/lookingglass/run-rows";
import { COMMUNITY_MESSAGES } from "~/lib/bgp-communities";
import * as lookingGlassRoute from "~/routes/api.lookingglass";
import * as exportRoute from "~/routes/api.lookingglass_.export";
import * as privateRoute from "~/routes/_app.lookingglass";
import * as publicRoute from "~/routes/public.lookingglass";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { readCsv } from "../helpers/csv";
import { CSRF_TOKEN, getRequest, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const T0 = 1_790_000_000;

type Row = RibRow & { rib_view: RibView; path_id: number; ext_communities: string[] };

const VPS = [
  { key: "fra1", city: "Frankfurt", country: "Germany", router: "fra-er1", ip: "192.0.2.1", isPublic: true },
  { key: "ber1", city: "Berlin", country: "Germany", router: "ber-er1", ip: "192.0.2.3", isPublic: true },
];

function route(vp: string, prefix: string, view: RibView, extra: Partial<Row> = {}): Row {
  const parsed = parsePrefix(prefix);
  const router = VPS.find((v) => v.key === vp)!.ip;
  return {
    timestamp: T0,
    vantage_point: vp,
    router_ip: router,
    // A Loc-RIB route has no real peer: the router itself stands for it.
    peer_ip: view === "loc-rib" ? router : "198.51.100.1",
    peer_asn: view === "loc-rib" ? 64500 : 3356,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: parsed.length,
    afi: parsed.family === 4 ? 1 : 2,
    safi: 1,
    is_withdrawn: 0,
    as_path: [3356, 64511],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
    rib_view: view,
    path_id: 0,
    ext_communities: [],
    ...extra,
  };
}

const PEER_B = { peer_ip: "198.51.100.2", peer_asn: 174, bgp_next_hop: "198.51.100.2" };
const PEER_C = { peer_ip: "198.51.100.3", peer_asn: 64666, bgp_next_hop: "198.51.100.3" };

const ROWS: Row[] = [
  // fra1: a covering /16, and the /24 in every table: peer A post-policy with two ADD-PATH paths, the router's Loc-RIB,
  // peer B post-policy; peer C's routes only pre-policy (its import policy rejects them), among them a /25.
  route("fra1", "10.1.0.0/16", "post-policy", {
    as_path: [3356, 64496],
    communities: ["64500:100", "65535:65281"],
    ext_communities: ["RT:64497:42"],
  }),
  route("fra1", "10.1.2.0/24", "post-policy", { communities: ["64500:200"] }),
  route("fra1", "10.1.2.0/24", "post-policy", { path_id: 1, as_path: [3356, 65001, 64511], communities: ["64500:1:3356"] }),
  route("fra1", "10.1.2.0/24", "loc-rib", { communities: ["64500:200", "65535:666"], local_pref: 200 }),
  route("fra1", "10.1.2.0/24", "post-policy", { ...PEER_B, as_path: [174, 64511], communities: ["64500:300", "64500:1:174"] }),
  route("fra1", "10.1.2.0/24", "pre-policy", { ...PEER_C, as_path: [64666, 64511], communities: ["65535:0"] }),
  route("fra1", "10.1.2.128/25", "pre-policy", { ...PEER_C, as_path: [64666, 64511], communities: ["65535:0"] }),
  // An ADD-PATH path announced, then withdrawn: a tombstone in the current table, two rows of history.
  route("fra1", "10.1.2.0/24", "post-policy", { path_id: 2, as_path: [3356, 65002, 64511], communities: ["64500:200"] }),
  route("fra1", "10.1.2.0/24", "post-policy", {
    path_id: 2,
    timestamp: T0 + 60,
    is_withdrawn: 1,
    as_path: [],
    bgp_next_hop: "",
    local_pref: 0,
  }),
  // ber1: the /24 in its Loc-RIB only, with an extended community; a /16 only pre-policy; IPv6 in the Loc-RIB.
  route("ber1", "10.1.2.0/24", "loc-rib", { as_path: [1299, 64511], ext_communities: ["SoO:64497:12", "RT:64497:43"] }),
  route("ber1", "10.9.0.0/16", "pre-policy", { ...PEER_C, as_path: [64666] }),
  route("ber1", "2001:db8:100::/40", "loc-rib", { as_path: [6939, 64511], bgp_next_hop: "2001:db8::6", communities: ["64500:1:6939"] }),
];

const AS_NAMES = [
  { asn: 3356, name: "LEVEL3" },
  { asn: 64511, name: "Example-Net" },
  { asn: 174, name: "COGENT-174" },
];
const LABELS = [
  { pattern: "64500:100", label: "Transit routes" },
  { pattern: "64500:*", label: "Learned here" },
  { pattern: "64500:1:*", label: "Neighbour AS" },
  { pattern: "RT:64497:*", label: "VPNs" },
  { pattern: "65535:666", label: "Remote triggered blackhole" },
];

// ---------------------------------------------------------------------------------------------------------------
// The model

const VIEWS_OF: Record<RibViewChoice, RibView[]> = {
  default: ["post-policy", "loc-rib"],
  "pre-policy": ["pre-policy"],
  "post-policy": ["post-policy"],
  "loc-rib": ["loc-rib"],
};

function currentTable(choice: RibViewChoice): Row[] {
  const newest = new Map<string, Row>();
  for (const r of ROWS) {
    const key = [r.vantage_point, r.route_distinguisher, r.prefix, r.peer_ip, r.rib_view, r.path_id].join("|");
    const seen = newest.get(key);
    if (!seen || r.timestamp >= seen.timestamp) newest.set(key, r);
  }
  return [...newest.values()].filter((r) => r.is_withdrawn === 0 && VIEWS_OF[choice].includes(r.rib_view));
}

function contains(prefix: string, inner: string): boolean {
  const outer = parsePrefix(prefix);
  const target = parsePrefix(inner.includes("/") ? inner : `${inner}/${inner.includes(":") ? 128 : 32}`);
  if (outer.family !== target.family || target.length < outer.length) return false;
  const shift = BigInt(outer.family === 4 ? 32 : 128) - BigInt(outer.length);
  return outer.base >> shift === target.base >> shift;
}

/** The community a pattern names, read here by splitting: "a:b:*" is every community "a:b:<one more part>". */
function carries(row: Row, pattern: string): boolean {
  const all = [...row.communities, ...row.ext_communities];
  if (!pattern.endsWith(":*")) return all.includes(pattern);
  const head = pattern.slice(0, -2).split(":");
  return all.some((c) => {
    const parts = c.split(":");
    return parts.length === head.length + 1 && head.every((h, i) => parts[i] === h) && /^\d+$/.test(parts[head.length]);
  });
}

type Query = { address?: string; prefix?: string; choice?: RibViewChoice; community?: string };

function modelRows(vp: string, q: Query): Row[] {
  let rows = currentTable(q.choice ?? "default").filter((r) => r.vantage_point === vp);
  if (q.prefix) rows = rows.filter((r) => contains(q.prefix!, r.prefix));
  if (q.address) {
    rows = rows.filter((r) => contains(r.prefix, q.address!));
    rows = rows.filter(
      (r) => r.prefix_len === Math.max(...rows.filter((o) => o.route_distinguisher === r.route_distinguisher).map((o) => o.prefix_len)),
    );
  }
  if (q.community) rows = rows.filter((r) => carries(r, q.community!));
  return rows;
}

const label = (prefix: string, path: string, view: string) => `${prefix}|${path}|${view}`;

function expected(q: Query, vps = VPS.map((v) => v.key)): Record<string, string[] | "none"> {
  const out: Record<string, string[] | "none"> = {};
  for (const vp of vps) {
    const rows = modelRows(vp, q).map((r) => label(r.prefix, r.as_path.join(" "), r.rib_view));
    out[vp] = rows.length ? rows.sort() : "none";
  }
  return out;
}

function actual(result: LookingGlassResult): Record<string, string[] | "none"> {
  const out: Record<string, string[] | "none"> = {};
  for (const [vp, rows] of Object.entries(result.results))
    out[vp] = rows === "VantagePointWithNoData" ? "none" : rows.map((r) => label(r.Prefix, r["BGP as_path"], r.RibView)).sort();
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

let stores: TestStores;
let lgCookie = "";
let cpCookie = "";

type Call = { status: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(body: Record<string, unknown>, cookie: string | null = lgCookie): Promise<Call> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": CSRF_TOKEN };
  headers.Cookie = cookie ?? `csrftoken=${CSRF_TOKEN}`;
  const request = new Request(`${ORIGIN}/api/lookingglass/`, { method: "POST", headers, body: JSON.stringify(body) });
  const res = await lookingGlassRoute.action({ request, params: {}, context: {} });
  return { status: res.status, data: await res.json() };
}

async function getQuery(params: [string, string][], cookie: string | null = lgCookie): Promise<Call> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (cookie) headers.Cookie = cookie;
  const request = new Request(`${ORIGIN}/api/lookingglass/?${new URLSearchParams(params)}`, { headers });
  const res = await lookingGlassRoute.loader({ request, params: {}, context: {} });
  return { status: res.status, data: await res.json() };
}

const ip = (queryTerm: string, extra: Record<string, unknown> = {}) => ({
  queryType: "IpPrefixQuery",
  queryTerm,
  vantagePoints: ["fra1", "ber1"],
  ...extra,
});

const setPublic = (on: boolean) => stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: on }).where(eq(siteSettings.id, 1));

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(vantagePoints).values(VPS);
  await stores.pg.db.insert(asInfo).values(AS_NAMES);
  await stores.pg.db.insert(communityLabels).values(LABELS);
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
  const user = async (email: string, permission: "PRIVATE_LOOKING_GLASS" | "CONTROL_PLANE") => {
    const [row] = await stores.pg.db
      .insert(users)
      .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
      .returning({ id: users.id });
    await stores.pg.db.insert(userPermissions).values({ userId: row.id, permission });
    return sessionCookie(stores, row.id);
  };
  lgCookie = `${await user("lg@views.test", "PRIVATE_LOOKING_GLASS")}; csrftoken=${CSRF_TOKEN}`;
  cpCookie = await user("cp@views.test", "CONTROL_PLANE");
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

afterEach(async () => {
  publicQueryCache.clear();
  publicQueryLimiter.clear();
  await setPublic(false);
});

describe("RIB views in the Looking Glass", () => {
  it("by default post-policy and Loc-RIB: the longest prefix among them, every peer, table and ADD-PATH path a row; no pre-policy route", async () => {
    const res = await post(ip("10.1.2.200"));
    expect(res.status).toBe(200);
    expect(actual(res.data)).toEqual(expected({ address: "10.1.2.200" }));
    // By hand: peer C's /25 is pre-policy only, so the /24 is the longest; the withdrawn path 2 is gone.
    expect(actual(res.data).fra1).toEqual([
      "10.1.2.0/24|174 64511|post-policy",
      "10.1.2.0/24|3356 64511|loc-rib",
      "10.1.2.0/24|3356 64511|post-policy",
      "10.1.2.0/24|3356 65001 64511|post-policy",
    ]);
    expect(actual(res.data).ber1).toEqual(["10.1.2.0/24|1299 64511|loc-rib"]);
  });

  it.each(["default", "pre-policy", "post-policy", "loc-rib"] as const)(
    "ribView=%s: the model's rows for an address and for a prefix",
    async (choice) => {
      const queries: Query[] = [
        { address: "10.1.2.200" },
        { address: "10.9.1.1" },
        { prefix: "10.0.0.0/8" },
        { address: "2001:db8:100::1" },
      ];
      for (const q of queries) {
        const term = (q.address ?? q.prefix)!;
        const res = await post(ip(term, { ribView: choice }));
        expect(res.status).toBe(200);
        expect([term, actual(res.data)]).toEqual([term, expected({ ...q, choice })]);
      }
      // The pre-policy table's longest match for 10.1.2.200 is peer C's /25.
      if (choice === "pre-policy")
        expect(actual((await post(ip("10.1.2.200", { ribView: choice }))).data).fra1).toEqual(["10.1.2.128/25|64666 64511|pre-policy"]);
    },
  );

  it("a GET link takes ribView and community as the POST does", async () => {
    const params: [string, string][] = [
      ["queryType", "IpPrefixQuery"],
      ["queryTerm", "10.0.0.0/8"],
      ["vantagePoints", "fra1"],
      ["vantagePoints", "ber1"],
      ["ribView", "post-policy"],
      ["community", "64500:*"],
    ];
    const viaGet = await getQuery(params);
    expect(viaGet.status).toBe(200);
    expect(viaGet.data).toEqual((await post(ip("10.0.0.0/8", { ribView: "post-policy", community: "64500:*" }))).data);
    expect(actual(viaGet.data)).toEqual(expected({ prefix: "10.0.0.0/8", choice: "post-policy", community: "64500:*" }));
  });
});

describe("communities in the private Looking Glass", () => {
  const PATTERNS = [
    "64500:200",
    "064500:0200",
    "64500:*",
    "64500:1:*",
    "64500:1:174",
    "RT:64497:42",
    "rt:64497:*",
    "SoO:64497:12",
    "65535:666",
    "64500:999",
    "65535:*",
  ];

  it.each(PATTERNS)("community=%s keeps the routes carrying it, by prefix and by address", async (pattern) => {
    const canonical = pattern.replace("064500:0200", "64500:200").replace("rt:", "RT:");
    const queries: Query[] = [{ prefix: "10.0.0.0/8" }, { address: "10.1.2.200" }, { prefix: "2001:db8::/32" }];
    for (const q of queries) {
      const term = (q.address ?? q.prefix)!;
      const res = await post(ip(term, { community: pattern }));
      expect(res.status).toBe(200);
      expect([term, actual(res.data)]).toEqual([term, expected({ ...q, community: canonical })]);
    }
  });

  it("names each community: an exact label, then the well-known name, then a label with *; extended ones listed after the others", async () => {
    const res = await post(ip("10.1.0.0/16", { ribView: "default" }));
    const rows = (res.data.results.fra1 as Record<string, unknown>[]).filter((r) => r.Prefix === "10.1.0.0/16");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      "BGP community": "64500:100 65535:65281 RT:64497:42",
      communityNames: { "64500:100": "Transit routes", "65535:65281": "NO_EXPORT", "RT:64497:42": "VPNs" },
      "BGP as_path": "3356 64496",
      asNames: { "3356": "LEVEL3" },
      RibView: "post-policy",
    });
    const loc = ((await post(ip("10.1.2.200", { ribView: "loc-rib" }))).data.results.fra1 as Record<string, unknown>[])[0];
    // The operator's exact label wins over BLACKHOLE; 64500:200 has only the * label.
    expect(loc.communityNames).toEqual({ "64500:200": "Learned here", "65535:666": "Remote triggered blackhole" });
    const pathOne = ((await post(ip("10.1.2.200", { community: "64500:1:3356" }))).data.results.fra1 as Record<string, unknown>[])[0];
    expect(pathOne).toMatchObject({ "BGP as_path": "3356 65001 64511", asNames: { "3356": "LEVEL3", "64511": "Example-Net" } });
    expect(pathOne.communityNames).toEqual({ "64500:1:3356": "Neighbour AS" });
    const ber = ((await post(ip("10.1.2.200"))).data.results.ber1 as Record<string, unknown>[])[0];
    expect(ber).toMatchObject({ "BGP community": "SoO:64497:12 RT:64497:43", communityNames: { "RT:64497:43": "VPNs" } });
  });

  it("refuses a community that is not one, and an unknown RIB view, with the message", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ community: "64500" }, "community", COMMUNITY_MESSAGES.notAPattern("64500")],
      [{ community: "70000:1" }, "community", COMMUNITY_MESSAGES.standardRange],
      [{ ribView: "adj-rib-out" }, "ribView", 'Unknown RIB view "adj-rib-out": use default, pre-policy, post-policy, loc-rib.'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await post(ip("10.1.2.200", extra));
      expect([res.status, res.data.detail, res.data.errors]).toEqual([400, message, [{ field, message }]]);
    }
    const tooLong = await post(ip("10.1.2.200", { community: "1".repeat(65) }));
    expect(tooLong.status).toBe(400);
  });
});

describe("the public variant", () => {
  it("shows AS names and the row's table, no communities; refuses a community and any RIB view but the default", async () => {
    await setPublic(true);
    const res = await post(ip("10.1.2.200"), null);
    expect(res.status).toBe(200);
    expect(actual(res.data)).toEqual(expected({ address: "10.1.2.200" }));
    for (const row of res.data.results.fra1 as Record<string, unknown>[]) {
      expect(row).not.toHaveProperty("BGP community");
      expect(row).not.toHaveProperty("communityNames");
      expect(row.asNames).toEqual(
        Object.fromEntries(
          AS_NAMES.filter((a) => String(row["BGP as_path"]).split(" ").includes(String(a.asn))).map((a) => [String(a.asn), a.name]),
        ),
      );
    }
    expect((await post(ip("10.1.2.200", { ribView: "default" }), null)).status).toBe(200);
    const community = await post(ip("10.1.2.200", { community: "64500:200" }), null);
    expect([community.status, community.data.detail]).toEqual([400, PUBLIC_COMMUNITY_REFUSAL]);
    const view = await post(ip("10.1.2.200", { ribView: "pre-policy" }), null);
    expect([view.status, view.data.detail]).toEqual([400, PUBLIC_RIB_VIEW_REFUSAL]);
    const viaGet = await getQuery(
      [
        ["queryType", "IpPrefixQuery"],
        ["queryTerm", "10.1.2.200"],
        ["vantagePoints", "fra1"],
        ["community", "64500:*"],
      ],
      null,
    );
    expect([viaGet.status, viaGet.data.detail]).toEqual([400, PUBLIC_COMMUNITY_REFUSAL]);
  });
});

describe("the screens and the export read the choices from their URL", () => {
  const search = (extra: Record<string, string>) =>
    new URLSearchParams({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", ...extra }).toString();

  it("the private screen answers ribView and community on the server; a bad community is said on its field", async () => {
    const page = await runRoute(
      privateRoute.loader,
      getRequest(`/lookingglass?${search({ ribView: "loc-rib", community: "64500:*" })}`, lgCookie),
    );
    expect(page.status).toBe(200);
    expect(page.data.page.state).toMatchObject({ ribView: "loc-rib", community: "64500:*" });
    const rows = flattenRunRows(page.data.page.run);
    const model = [
      ...modelRows("fra1", { prefix: "10.0.0.0/8", choice: "loc-rib", community: "64500:*" }),
      ...modelRows("ber1", { prefix: "10.0.0.0/8", choice: "loc-rib", community: "64500:*" }),
    ];
    expect(rows.map((r) => label(r.Prefix, r["BGP as_path"], r.RibView)).sort()).toEqual(
      model.map((r) => label(r.prefix, r.as_path.join(" "), r.rib_view)).sort(),
    );
    expect(rows[0].communityNames).toBeDefined();

    const bad = await runRoute(privateRoute.loader, getRequest(`/lookingglass?${search({ community: "64500:*:1" })}`, lgCookie));
    expect(bad.data.page.filterError).toEqual({ field: "community", message: COMMUNITY_MESSAGES.notAPattern("64500:*:1") });
    expect(bad.data.page.run.status).toBe("IDLE");
  });

  it("the public page refuses a community in its URL with the API's message, and shows no communities", async () => {
    await setPublic(true);
    const refused = await runRoute(publicRoute.loader, getRequest(`/public/lookingglass?${search({ community: "64500:*" })}`));
    expect(refused.status).toBe(200);
    expect(refused.data.page.run.notices.map((n: { message: string }) => n.message)).toEqual([PUBLIC_COMMUNITY_REFUSAL]);
    expect(flattenRunRows(refused.data.page.run)).toEqual([]);
    const plain = await runRoute(publicRoute.loader, getRequest(`/public/lookingglass?${search({})}`));
    const rows = flattenRunRows(plain.data.page.run);
    expect(rows.length).toBe(modelRows("fra1", { prefix: "10.0.0.0/8" }).length + modelRows("ber1", { prefix: "10.0.0.0/8" }).length);
    for (const row of rows) expect(row).not.toHaveProperty("communityNames");
  });

  it("the private export holds the chosen table's rows, AS paths and communities with their names", async () => {
    const res = await runRoute(
      exportRoute.loader,
      getRequest(`/api/lookingglass/export?${search({ ribView: "pre-policy" })}&format=csv`, lgCookie),
    );
    expect(res.status).toBe(200);
    const [header, ...lines] = readCsv(String(res.data), ",");
    const at = (name: string) => header.indexOf(name);
    expect(lines.map((l) => `${l[at("Prefix")]} ${l[at("RIB view")]}`).sort()).toEqual(
      ["10.1.2.0/24", "10.1.2.128/25", "10.9.0.0/16"].map((p) => `${p} Adj-RIB-In pre-policy`),
    );
    // A community the export cannot apply is refused with its reason, as the API refuses it.
    const bad = await runRoute(
      exportRoute.loader,
      getRequest(`/api/lookingglass/export?${search({ community: "64500" })}&format=csv`, lgCookie),
    );
    expect([bad.status, bad.data.detail]).toEqual([400, COMMUNITY_MESSAGES.notAPattern("64500")]);
    await setPublic(true);
    const publicBad = await runRoute(
      exportRoute.loader,
      getRequest(`/api/lookingglass/export?${search({ community: "64500:*" })}&variant=public&format=csv`),
    );
    expect([publicBad.status, publicBad.data.detail]).toEqual([400, PUBLIC_COMMUNITY_REFUSAL]);
    const named = await runRoute(
      exportRoute.loader,
      getRequest(`/api/lookingglass/export?${search({ community: "64500:100" })}&format=csv`, lgCookie),
    );
    const [h2, row, ...rest] = readCsv(String(named.data), ",");
    expect(rest).toEqual([]);
    expect(row[h2.indexOf("AS path")]).toBe("3356 LEVEL3 › 64496");
    expect(row[h2.indexOf("Communities")]).toBe("64500:100 Transit routes, 65535:65281 NO_EXPORT, RT:64497:42 VPNs");
  });
});

describe("RIB views in the Control Plane", () => {
  it("the history of post-policy and Loc-RIB by default, one table when asked; each row names its table", async () => {
    const history = async (ribView?: string) =>
      (
        await controlPlaneQuery(stores, { queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: T0, endDate: T0 + 3600, ribView })
      ).data
        .map((r) => `${r.vantagePoint} ${r.prefix} ${r.ribView} ${r.withdrawn ? "W" : "A"}`)
        .sort();
    const model = (views: RibView[]) =>
      ROWS.filter((r) => views.includes(r.rib_view) && r.afi === 1)
        .map((r) => `${r.vantage_point} ${r.prefix} ${r.rib_view} ${r.is_withdrawn ? "W" : "A"}`)
        .sort();
    expect(await history()).toEqual(model(["post-policy", "loc-rib"]));
    expect(await history("default")).toEqual(model(["post-policy", "loc-rib"]));
    expect(await history("pre-policy")).toEqual(model(["pre-policy"]));
    expect(await history("loc-rib")).toEqual(model(["loc-rib"]));
    // The API answers with the choice and refuses an unknown one.
    const call = async (body: Record<string, unknown>) => {
      const { action } = await import("~/routes/api.controlplane");
      const request = new Request(`${ORIGIN}/api/controlplane/`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": CSRF_TOKEN,
          Cookie: `${cpCookie}; csrftoken=${CSRF_TOKEN}`,
        },
        body: JSON.stringify({ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: T0, endDate: T0 + 3600, ...body }),
      });
      const res = await action({ request, params: {}, context: {} });
      return { status: res.status, data: await res.json() };
    };
    const ok = await call({ ribView: "pre-policy" });
    expect([ok.status, ok.data.data.ribView, ok.data.data.data.every((r: { ribView: string }) => r.ribView === "pre-policy")]).toEqual([
      200,
      "pre-policy",
      true,
    ]);
    expect((await call({ ribView: "best" })).status).toBe(400);
  });
});
