/**
 * The delegated-user rules (docs/delegated-users.md) on every call such a user can make, on a
 * 2-day demo network: the answer under the current restriction equals an independent
 * recomputation in TypeScript from flows_5m rows read with a plain SELECT; dimensions other than
 * the restricted one and its output are refused (403, naming the two); the header's "Next" cycles
 * the current restriction and a new login starts again at the first; the external-links
 * permissions go when no AS number is listed; the Looking Glass and ping/traceroute only use the
 * vantage points of the account's routers.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { delegationRestrictions, userFeatureFlags, userPermissions, users, vantagePoints } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import * as appLayout from "~/routes/_app";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import * as cycleRoute from "~/routes/_app.settings_.restriction";
import * as autocompleteRoute from "~/routes/api.autocomplete";
import * as metadataRoute from "~/routes/api.filter.metadata";
import * as exportRoute from "~/routes/api.flows.export";
import * as flowsRoute from "~/routes/api.flows";
import * as lookingGlassRoute from "~/routes/api.lookingglass";
import * as lookingGlassExportRoute from "~/routes/api.lookingglass_.export";
import * as vantagePointsRoute from "~/routes/api.lookingglass.vantagepoints";
import * as netcommandRoute from "~/routes/api.netcommand";
import * as sankeyRoute from "~/routes/api.sankey";
import * as tagValuesRoute from "~/routes/api.tag.values";
import * as tagsRoute from "~/routes/api.tags";
import * as untrackedRoute from "~/routes/api.untracked_data";
import { userMenu } from "~/server/auth/guard.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { useServicesForTests } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { readCsv } from "../helpers/csv";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { callRoute, formRequest, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { chRows, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const CUSTOMERS = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight);
const TOP_CUSTOMER = CUSTOMERS[0].asn;
const OTHER_CUSTOMER = CUSTOMERS[1].asn;
const LINK_PERMISSIONS: Permission[] = ["FRONTEND_LINK_UTIL_EXTERNAL", "API_LINK_UTIL_EXTERNAL"];

let stores: TestStores;
let rows: FlowRow[];
/** The source AS that sends the most ingress traffic (the second restriction of `cycler`). */
let topSource = 0;
let vps: { key: string; router: string }[] = [];
const uid = { admin: 0, cycler: 0, withAs: 0, plain: 0, broken: 0, bare: 0, noRouters: 0, granted: 0 };

type Restriction = { dimension: string; constrained_values: string[]; output: string };

async function createUser(
  email: string,
  permissions: Permission[],
  options: { delegated?: boolean; flows?: Restriction[]; asns?: number[]; routers?: string[]; netcommand?: boolean } = {},
) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "D", passwordHash: "!unusable", hasConsented: true, isDelegated: options.delegated ?? true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (options.flows)
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: row.id,
      flowsViewsRestrictions: options.flows,
      externalLinksViewsRestrictions: { ASNumberList: options.asns ?? [], routerList: options.routers ?? [], interfaceList: [] },
    });
  if (options.netcommand) await stores.pg.db.insert(userFeatureFlags).values({ userId: row.id, flag: "canInvokeNetcommandApi" });
  return row.id;
}

const ingress = (r: FlowRow) => r.as_hnd !== OPERATOR_ASN;
const toCustomer = (r: FlowRow) => ingress(r) && r.as_dst === TOP_CUSTOMER;
const fromSource = (r: FlowRow) => ingress(r) && r.as_src === topSource;
/** Bits per key over the rows. */
function bitsBy(list: FlowRow[], key: (r: FlowRow) => number | string): Map<string, number> {
  const m = new Map<string, bigint>();
  for (const r of list) m.set(String(key(r)), (m.get(String(key(r))) ?? 0n) + r.bytes);
  return new Map([...m].map(([k, v]) => [k, Number(v) * 8]));
}
const bits = (list: FlowRow[]) => Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8;

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  rows = await readFlowRows(stores, RANGE);
  topSource = Number(
    [
      ...bitsBy(
        rows.filter((r) => ingress(r) && r.as_src > 0),
        (r) => r.as_src,
      ),
    ].sort((a, b) => b[1] - a[1])[0][0],
  );
  vps = await stores.pg.db.select({ key: vantagePoints.key, router: vantagePoints.router }).from(vantagePoints).orderBy(vantagePoints.id);
  uid.admin = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example")))[0].id;
  const flows: Restriction[] = [
    { dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" },
    { dimension: "AS_SRC_INGRESS", constrained_values: [`AS${topSource}`], output: "AS_DST_INGRESS" },
  ];
  uid.cycler = await createUser(
    "cycler@delegated.test",
    ["API_FLOWS_4D", "SANKEY_TOPOLOGY", "PRIVATE_LOOKING_GLASS", ...LINK_PERMISSIONS],
    {
      flows,
      routers: [vps[0].router],
      netcommand: true,
    },
  );
  uid.withAs = await createUser("with-as@delegated.test", ["API_FLOWS_4D", ...LINK_PERMISSIONS], {
    flows: flows.slice(0, 1),
    asns: [TOP_CUSTOMER],
  });
  uid.plain = await createUser("plain@delegated.test", ["API_FLOWS_4D", ...LINK_PERMISSIONS], { delegated: false });
  uid.broken = await createUser("broken@delegated.test", ["API_FLOWS_4D"], {
    flows: [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "NOPE" }],
  });
  uid.bare = await createUser("bare@delegated.test", ["API_FLOWS_4D"]);
  // Administrative permissions granted to a delegated account by mistake (directly, as SQL or an old release could).
  uid.granted = await createUser(
    "granted@delegated.test",
    ["API_FLOWS_4D", "SANKEY_TOPOLOGY", "API_FLOWS_INDIRECT_KPI", "VIEW_USERS", "MANAGE_DELEGATED_USERS", "MANAGE_TAGS"],
    { flows: flows.slice(0, 1) },
  );
  uid.noRouters = await createUser("no-routers@delegated.test", ["API_FLOWS_4D", "PRIVATE_LOOKING_GLASS"], {
    flows: flows.slice(0, 1),
    netcommand: true,
  });
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
async function call(module: object, path: string, cookie: string, body?: unknown): Promise<{ status: number; data: Json }> {
  const res = await callRoute(module as never, path, { method: body === undefined ? "GET" : "POST", cookie, body });
  const text = await res.text();
  return { status: res.status, data: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text };
}
const flowsBody = (dimension: string, extra: Record<string, unknown> = {}) => ({
  dimension,
  startTimestamp: RANGE.start,
  endTimestamp: RANGE.end,
  window: 900,
  limit: 1000,
  ...extra,
});
const tableBits = (data: Json) => new Map<string, number>(data.table.map((t: Json) => [t.key, Number(BigInt(t.bytes)) * 8]));
function expectSameBits(actual: Map<string, number>, expected: Map<string, number>) {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [k, v] of expected) expect(actual.get(k)! / v, k).toBeCloseTo(1, 9);
}
const refusal = (asked: string, allowed: string) => `${asked} is not available to your account: it may only use ${allowed}.`;
const FIRST = "Destination AS (ingress) and Source AS (ingress)";
const SECOND = "Source AS (ingress) and Destination AS (ingress)";

describe("flows calls under the current restriction", () => {
  it("api/flows/: the output dimension equals the recomputation; other dimensions and filters are a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const ok = await call(flowsRoute, "/api/flows", cookie, flowsBody("AS_SRC_INGRESS"));
    expect(ok.status).toBe(200);
    expect(ok.data.filters).toEqual([{ dimension: "AS_DST_INGRESS", value: String(TOP_CUSTOMER), isNegation: false, locked: true }]);
    expectSameBits(
      tableBits(ok.data),
      bitsBy(rows.filter(toCustomer), (r) => r.as_src),
    );
    const hnd = await call(flowsRoute, "/api/flows", cookie, flowsBody("AS_HND_INGRESS"));
    expect(hnd.status).toBe(403);
    expect(hnd.data).toMatchObject({ exception_code: "permission_denied", detail: refusal("Handover AS (ingress)", FIRST) });
    const filtered = await call(
      flowsRoute,
      "/api/flows",
      cookie,
      flowsBody("AS_SRC_INGRESS", { filters: [{ dimension: "AS_NXT_INGRESS", values: [String(OPERATOR_ASN)] }] }),
    );
    expect(filtered.status).toBe(403);
    expect(filtered.data.detail).toBe(refusal("Next-hop AS (ingress)", FIRST));
    // The locked dimension keeps its rule: another value is a 400.
    const other = await call(
      flowsRoute,
      "/api/flows",
      cookie,
      flowsBody("AS_SRC_INGRESS", { filters: [{ dimension: "AS_DST_INGRESS", values: [String(OTHER_CUSTOMER)] }] }),
    );
    expect(other.status).toBe(400);
  });

  it("api/sankey/: the restricted and output dimensions only", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const ok = await call(sankeyRoute, "/api/sankey", cookie, {
      dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(ok.status).toBe(200);
    const sum = ok.data.links.reduce((a: number, l: Json) => a + l.value, 0);
    expect(sum / (bits(rows.filter(toCustomer)) / DAY)).toBeCloseTo(1, 9);
    expect(ok.data.nodes.filter((n: Json) => n.dimension === "AS_DST_INGRESS").map((n: Json) => n.key)).toEqual([String(TOP_CUSTOMER)]);
    const refused = await call(sankeyRoute, "/api/sankey", cookie, {
      dimensions: ["AS_SRC_INGRESS", "AS_HND_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(refused.status).toBe(403);
  });

  it("api/untracked_data/: the output's special values of the restricted traffic; another dimension is a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const ok = await call(untrackedRoute, "/api/untracked_data", cookie, {
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      dimension: "AS_SRC_INGRESS",
    });
    expect(ok.status).toBe(200);
    const mine = rows.filter(toCustomer);
    expect(ok.data.overall.total_bps / (bits(mine) / DAY)).toBeCloseTo(1, 9);
    expect(ok.data.overall.others_share).toBeCloseTo(bits(mine.filter((r) => r.as_src === -101)) / bits(mine), 9);
    const refused = await call(untrackedRoute, "/api/untracked_data", cookie, {
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      dimension: "AS_NXT_INGRESS",
    });
    expect(refused.status).toBe(403);
  });

  it("a restriction that cannot be applied, and a delegated account without restrictions, are refused", async () => {
    for (const id of [uid.broken, uid.bare]) {
      const res = await call(flowsRoute, "/api/flows", await sessionCookie(stores, id), flowsBody("AS_SRC_INGRESS"));
      expect(res.status).toBe(403);
      expect(res.data.detail).toBe("Your account's flow restrictions cannot be applied; please contact your operator.");
    }
  });
});

describe("the Flow Explorer screen and its exports", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function screen(cookie: string, search: string): Promise<any> {
    const out = await runRoute(explorerRoute.loader, new Request(`${ORIGIN}/flow-explorer?${search}`, { headers: { Cookie: cookie } }));
    expect(out.status).toBe(200);
    return out.data;
  }
  const range = `start=${RANGE.start}&end=${RANGE.end}`;

  it("opens on the output, offers the two dimensions, and its table equals the recomputation", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const data = await screen(cookie, range);
    expect(data.dimension.id).toBe("AS_SRC_INGRESS");
    expect(data.dimensions.map((d: Json) => d.value)).toEqual(["AS_SRC_INGRESS", "AS_DST_INGRESS"]);
    expect(data.errors).toEqual([]);
    const table = new Map<string, number>(data.flows.table.map((t: Json) => [t.key, Number(BigInt(t.bytes)) * 8]));
    expectSameBits(
      table,
      bitsBy(rows.filter(toCustomer), (r) => r.as_src),
    );
  });

  it("another dimension is a notice and the allowed view; the Sankey's second is the restricted dimension", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const data = await screen(cookie, `${range}&dimension=AS_HND_INGRESS&filter=AS_NXT_INGRESS:64500`);
    expect(data.dimension.id).toBe("AS_SRC_INGRESS");
    expect(data.errors).toEqual([
      `The address's dimension=AS_HND_INGRESS was not applied (${refusal("Handover AS (ingress)", FIRST).replace(/\.$/, "")}); showing Source AS (ingress) instead.`,
      refusal("Next-hop AS (ingress)", FIRST),
    ]);
    expect(data.flows.filters.map((f: Json) => f.dimension)).toEqual(["AS_DST_INGRESS"]);
    const sankey = await screen(cookie, `${range}&view=sankey`);
    expect(sankey.params.dimension2).toBe("AS_DST_INGRESS");
    const sum = sankey.sankey.links.reduce((a: number, l: Json) => a + l.value, 0);
    expect(sum / (bits(rows.filter(toCustomer)) / DAY)).toBeCloseTo(1, 9);
  });

  it("the CSV export holds the recomputed table; a refused dimension or filter is a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const download = (search: string) =>
      exportRoute.loader({
        request: new Request(`${ORIGIN}/api/flows/export?${search}`, { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      }) as Promise<Response>;
    const ok = await download(`${range}&format=csv`);
    expect(ok.status).toBe(200);
    const csv = readCsv((await ok.text()).replace(/^\uFEFF/, ""), ",");
    const header = csv[0];
    expect(header[0]).toBe("Source AS (ingress)");
    const bytesAt = header.indexOf("Bytes");
    const exported = new Map<string, number>(
      csv
        .slice(1)
        .filter((r) => /^-?\d+$/.test(r[0]))
        .map((r) => [r[0], Number(r[bytesAt]) * 8]),
    );
    expectSameBits(
      exported,
      bitsBy(rows.filter(toCustomer), (r) => r.as_src),
    );
    for (const search of [
      `${range}&dimension=AS_HND_INGRESS`,
      `${range}&filter=AS_NXT_INGRESS:64500`,
      `${range}&view=sankey&dimension2=AS_HND_INGRESS&format=svg`,
    ]) {
      const refused = await download(search);
      expect(refused.status, search).toBe(403);
    }
  });
});

describe("autocomplete and metadata", () => {
  it("api/autocomplete/: the restricted dimension gives its constrained values only; others are a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const restricted = await call(autocompleteRoute, "/api/autocomplete", cookie, {
      dimension: "AS_DST_INGRESS",
      searchTerm: String(TOP_CUSTOMER),
    });
    expect(restricted.status).toBe(200);
    expect(restricted.data.results.map((r: Json) => r.value)).toEqual([String(TOP_CUSTOMER)]);
    const nothing = await call(autocompleteRoute, "/api/autocomplete", cookie, {
      dimension: "AS_DST_INGRESS",
      searchTerm: String(OTHER_CUSTOMER),
    });
    expect(nothing.data.results).toEqual([]);
    const output = await call(autocompleteRoute, "/api/autocomplete", cookie, {
      dimension: "AS_SRC_INGRESS",
      searchTerm: String(OTHER_CUSTOMER),
    });
    expect(output.data.results.map((r: Json) => r.value)).toContain(String(OTHER_CUSTOMER));
    const refused = await call(autocompleteRoute, "/api/autocomplete", cookie, { dimension: "AS_HND_INGRESS", searchTerm: "AS" });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toBe(refusal("Handover AS (ingress)", FIRST));
  });

  it("api/filter/metadata/: names of the allowed values; another value or dimension is a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const ok = await call(metadataRoute, "/api/filter/metadata", cookie, {
      filters: [
        { dimension: "AS_DST_INGRESS", value: String(TOP_CUSTOMER) },
        { dimension: "AS_SRC_INGRESS", value: String(OTHER_CUSTOMER) },
        { value: String(OTHER_CUSTOMER) },
      ],
      fallbackDimensionType: "AS_NUMBER",
    });
    expect(ok.status).toBe(200);
    expect(ok.data.results.map((r: Json) => r.name)).toEqual([
      DEMO_ASES.find((a) => a.asn === TOP_CUSTOMER)!.name,
      DEMO_ASES.find((a) => a.asn === OTHER_CUSTOMER)!.name,
      DEMO_ASES.find((a) => a.asn === OTHER_CUSTOMER)!.name,
    ]);
    for (const filters of [
      [{ dimension: "AS_DST_INGRESS", value: String(OTHER_CUSTOMER) }],
      [{ dimension: "AS_HND_INGRESS", value: "1" }],
    ]) {
      const refused = await call(metadataRoute, "/api/filter/metadata", cookie, { filters });
      expect(refused.status).toBe(403);
    }
  });
});

describe("the tag calls", () => {
  it("api/tags/ and api/tag/values/: the restricted dimension and its output only", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    expect((await call(tagsRoute, "/api/tags?dimension=AS_SRC_INGRESS", cookie)).status).toBe(200);
    const refused = await call(tagsRoute, "/api/tags?dimension=AS_HND_INGRESS", cookie);
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toBe(refusal("Handover AS (ingress)", FIRST));
    expect((await call(tagValuesRoute, "/api/tag/values", cookie, { dimension: "AS_NXT_INGRESS", id: 1 })).status).toBe(403);
  });
});

describe("cycling the current restriction", () => {
  it("Next makes the second current, then the first again; a new login starts at the first", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const layout = async () =>
      (await runRoute(appLayout.loader, new Request(`${ORIGIN}/flow-explorer`, { headers: { Cookie: cookie } }))).data;
    const customerName = DEMO_ASES.find((a) => a.asn === TOP_CUSTOMER)!.name;
    expect((await layout()).restriction).toEqual({ position: 1, count: 2, label: `Destination AS (ingress) = ${customerName}` });

    const next = await runRoute(
      cycleRoute.action,
      formRequest("/settings/restriction", { back: "/flow-explorer?dimension=AS_SRC_INGRESS" }, cookie),
    );
    expect(next.status).toBe(302);
    expect(next.location).toBe("/flow-explorer");
    expect((await layout()).restriction).toMatchObject({ position: 2, count: 2 });

    // The same calls now answer for the second restriction: traffic from the top source, by destination.
    const second = await call(flowsRoute, "/api/flows", cookie, flowsBody("AS_DST_INGRESS"));
    expect(second.status).toBe(200);
    expect(second.data.filters).toEqual([{ dimension: "AS_SRC_INGRESS", value: String(topSource), isNegation: false, locked: true }]);
    expectSameBits(
      tableBits(second.data),
      bitsBy(rows.filter(fromSource), (r) => r.as_dst),
    );
    const hnd = await call(flowsRoute, "/api/flows", cookie, flowsBody("AS_HND_INGRESS"));
    expect(hnd.data.detail).toBe(refusal("Handover AS (ingress)", SECOND));

    // An address of another site falls back to "/"; without the CSRF field nothing changes.
    const away = await runRoute(cycleRoute.action, formRequest("/settings/restriction", { back: "//evil.example/x" }, cookie));
    expect(away.location).toBe("/");
    expect((await layout()).restriction).toMatchObject({ position: 1 });
    const forged = new Request(`${ORIGIN}/settings/restriction`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: "back=/faq",
    });
    expect((await runRoute(cycleRoute.action, forged)).status).toBe(403);
    expect((await layout()).restriction).toMatchObject({ position: 1 });

    await runRoute(cycleRoute.action, formRequest("/settings/restriction", { back: "/faq" }, cookie));
    expect((await layout()).restriction).toMatchObject({ position: 2 });
    // A new login: the first restriction again.
    const fresh = await sessionCookie(stores, uid.cycler);
    const again = await call(flowsRoute, "/api/flows", fresh, flowsBody("AS_SRC_INGRESS"));
    expect(again.data.filters[0].dimension).toBe("AS_DST_INGRESS");
  });

  it("an account with one restriction has no cycler", async () => {
    const cookie = await sessionCookie(stores, uid.withAs);
    const out = await runRoute(appLayout.loader, new Request(`${ORIGIN}/flow-explorer`, { headers: { Cookie: cookie } }));
    expect(out.data.restriction).toBeNull();
  });
});

describe("the external-links permission", () => {
  it("goes from a delegated account whose restrictions list no AS number, and only there", async () => {
    const held = async (id: number) => (await loadUserContext(stores.pg.db, id))!.permissions;
    for (const p of LINK_PERMISSIONS) {
      expect(await held(uid.cycler)).not.toContain(p);
      expect(await held(uid.withAs)).toContain(p);
      expect(await held(uid.plain)).toContain(p);
    }
    expect(await held(uid.cycler)).toContain("API_FLOWS_4D");
  });

  it("a delegated account holds only delegable permissions, whatever it was granted", async () => {
    const context = (await loadUserContext(stores.pg.db, uid.granted))!;
    // The Sankey is delegable (of the restriction's two dimensions); the indirect-traffic figures are not.
    expect([...context.permissions].sort()).toEqual(["API_FLOWS_4D", "SANKEY_TOPOLOGY"]);
    const menu = (await userMenu(stores, context)).map((item) => item.path);
    expect(menu).not.toContain("/manage-users");
    expect(menu).not.toContain("/manage-delegated-users");
    expect(menu).not.toContain("/manage-tags");
  });
});

describe("the Looking Glass and ping/traceroute", () => {
  const lgBody = (names: string[]) => ({ queryType: "AsPathQuery", queryTerm: `* ${TOP_CUSTOMER}`, vantagePoints: names });

  it("lists, queries and exports only the vantage points of the account's routers", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const listed = await call(vantagePointsRoute, "/api/lookingglass/vantagepoints", cookie);
    expect(listed.status).toBe(200);
    expect(listed.data.map((v: Json) => v.router)).toEqual(vps.filter((v) => v.router === vps[0].router).map((v) => v.router));
    const mine = await call(lookingGlassRoute, "/api/lookingglass", cookie, lgBody([vps[0].key]));
    expect(mine.status).toBe(200);
    // Recomputed from rib_entries with a plain SELECT: the newest row per route, withdrawals dropped, paths ending in the customer.
    const history = await chRows<{
      rd: string;
      prefix: string;
      peer: string;
      t: number | string;
      w: number | string;
      path: (number | string)[];
    }>(
      stores,
      "SELECT route_distinguisher AS rd, prefix, toString(peer_ip) AS peer, toUnixTimestamp(timestamp) AS t, is_withdrawn AS w, as_path AS path FROM rib_entries WHERE vantage_point = {vp:String}",
      { vp: vps[0].key },
    );
    const newest = new Map<string, (typeof history)[number]>();
    for (const r of history) {
      const key = `${r.rd}|${r.prefix}|${r.peer}`;
      const seen = newest.get(key);
      if (!seen || Number(r.t) >= Number(seen.t)) newest.set(key, r);
    }
    const expected = [...newest.values()]
      .filter((r) => Number(r.w) === 0 && r.path.length > 0 && Number(r.path[r.path.length - 1]) === TOP_CUSTOMER)
      .map((r) => `${r.prefix} ${r.path.join(" ")}`)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(mine.data.results_limit).toBeNull();
    const got = (mine.data.results[vps[0].key] as Json[]).map((r) => `${r.Prefix} ${r["BGP as_path"]}`).sort();
    expect(got).toEqual(expected);
    const all = await call(lookingGlassRoute, "/api/lookingglass", cookie, lgBody(["all"]));
    expect(Object.keys(all.data.results)).toEqual([vps[0].key]);
    const other = await call(lookingGlassRoute, "/api/lookingglass", cookie, lgBody([vps[0].key, vps[1].key]));
    expect(other.status).toBe(403);
    expect(other.data.detail).toMatch(/^Not available to your account: /);
    const file = (await lookingGlassExportRoute.loader({
      request: new Request(
        `${ORIGIN}/api/lookingglass/export?format=csv&queryType=AsPathQuery&queryTerm=${encodeURIComponent(`* ${TOP_CUSTOMER}`)}&selectedVantagePoints=${encodeURIComponent(JSON.stringify([vps[1].key]))}`,
        { headers: { Cookie: cookie } },
      ),
      params: {},
      context: {},
    } as never)) as Response;
    expect(file.status).toBe(403);
  });

  it("an empty router list: no vantage point, every query refused, no Looking Glass in the menu", async () => {
    const cookie = await sessionCookie(stores, uid.noRouters);
    expect((await call(vantagePointsRoute, "/api/lookingglass/vantagepoints", cookie)).data).toEqual([]);
    expect((await call(lookingGlassRoute, "/api/lookingglass", cookie, lgBody(["all"]))).status).toBe(403);
    const user = (await loadUserContext(stores.pg.db, uid.noRouters))!;
    expect((await userMenu(stores, user)).map((m) => m.path)).not.toContain("/lookingglass");
    const cycler = (await loadUserContext(stores.pg.db, uid.cycler))!;
    expect((await userMenu(stores, cycler)).map((m) => m.path)).toContain("/lookingglass");
  });

  it("api/netcommand/: a job from the account's router; another vantage point is a 403", async () => {
    const cookie = await sessionCookie(stores, uid.cycler);
    const job = (networkElement: string) => ({ networkElement, queryType: "PingQuery", targetAddress: "8.8.8.8" });
    const ok = await call(netcommandRoute, "/api/netcommand", cookie, job(vps[0].key));
    expect(ok.status).toBe(200);
    expect(ok.data[0].jobID).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await call(netcommandRoute, "/api/netcommand", cookie, job(vps[1].key));
    expect(refused.status).toBe(403);
    const none = await call(netcommandRoute, "/api/netcommand", await sessionCookie(stores, uid.noRouters), job(vps[0].key));
    expect(none.status).toBe(403);
  });
});
