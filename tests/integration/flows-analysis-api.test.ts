/**
 * api/asflows/indirect/, api/netflowstatistics/, api/linkleveltopology/, api/linklevelstatistics/
 * and api/untracked_data/ on a 2-day demo network, checked against independent recomputations in
 * TypeScript from flows_5m rows read with a plain SELECT (no aggregation in SQL); a delegated
 * user's restriction, a negated filter, permissions and validation; and the loader of the AS Flows
 * Analysis screen built on them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { MESSAGES } from "~/lib/messages";
import { ANALYSIS_INDIRECT_WITHHELD, ANALYSIS_SANKEY_WITHHELD, runAsIndirect } from "~/features/flows/analysis.server";
import { MAX_API_VERSION } from "~/features/filter/dimensions";
import { ApiProblem } from "~/server/api/contract.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import * as sankeyRoute from "~/routes/api.sankey";
import * as indirectRoute from "~/routes/api.asflows.indirect";
import * as statisticsRoute from "~/routes/api.linklevelstatistics";
import * as topologyRoute from "~/routes/api.linkleveltopology";
import * as netflowRoute from "~/routes/api.netflowstatistics";
import * as untrackedRoute from "~/routes/api.untracked_data";
import { useServicesForTests } from "~/server/services.server";
import * as analysisScreen from "~/routes/_app.as-flows-analysis";
import { callRoute, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { chRows, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const TOP_CUSTOMER = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight)[0].asn;

/** A flows_5m row with the router, interface and link columns these calls read. */
type Row = {
  ip_version: number;
  as_src: number;
  as_hnd: number;
  as_dst: number;
  ingress_router: string;
  in_if: string;
  egress_router: string;
  out_if: string;
  link_start: string;
  link_end: string;
  bytes: bigint;
};

let stores: TestStores;
let rows: Row[];
const uid = {
  admin: 0,
  restricted: 0,
  flowsOnly: 0,
  sankeyOnly: 0,
  indirectOnly: 0,
  granted: 0,
  restrictedSource: 0,
  restrictedRouter: 0,
};

async function createUser(
  email: string,
  permissions: Permission[],
  restriction?: { dimension: string; constrained_values: string[]; output: string }[],
) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated: !!restriction })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (restriction) await stores.pg.db.insert(delegationRestrictions).values({ userId: row.id, flowsViewsRestrictions: restriction });
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  const raw = await chRows<Record<string, string | number>>(
    stores,
    "SELECT ip_version, as_src, as_hnd, as_dst, ingress_router, in_if, egress_router, out_if, link_start_router, link_start_if, link_end_router, link_end_if, toString(bytes) AS b FROM flows_5m WHERE time >= toDateTime({s:UInt32}, 'UTC') AND time < toDateTime({e:UInt32}, 'UTC')",
    { s: RANGE.start, e: RANGE.end },
  );
  rows = raw.map((r) => ({
    ip_version: Number(r.ip_version),
    as_src: Number(r.as_src),
    as_hnd: Number(r.as_hnd),
    as_dst: Number(r.as_dst),
    ingress_router: String(r.ingress_router),
    in_if: String(r.in_if),
    egress_router: String(r.egress_router),
    out_if: String(r.out_if),
    link_start: r.link_start_if === "" ? "" : `${r.link_start_router}|${r.link_start_if}`,
    link_end: r.link_end_if === "" ? "" : `${r.link_end_router}|${r.link_end_if}`,
    bytes: BigInt(String(r.b)),
  }));
  uid.admin = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example")))[0].id;
  uid.restricted = await createUser(
    "restricted@analysis.test",
    // Granted the indirect figures too: the permission is not delegable, so the account never holds it.
    ["API_FLOWS_4D", "SANKEY_TOPOLOGY", "API_FLOWS_INTERFACES", "FLOWS_BY_LINK_FILTER", "API_FLOWS_INDIRECT_KPI"],
    [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
  );
  uid.flowsOnly = await createUser("flowsonly@analysis.test", ["API_FLOWS_4D"]);
  uid.sankeyOnly = await createUser("sankeyonly@analysis.test", ["API_FLOWS_4D", "SANKEY_TOPOLOGY"]);
  uid.indirectOnly = await createUser("indirectonly@analysis.test", ["API_FLOWS_4D", "API_FLOWS_INDIRECT_KPI"]);
  // Exactly what these calls and the screen need, without being a superuser.
  uid.granted = await createUser("granted@analysis.test", [
    "API_FLOWS_4D",
    "SANKEY_TOPOLOGY",
    "API_FLOWS_INDIRECT_KPI",
    "API_FLOWS_INTERFACES",
    "FLOWS_BY_LINK_FILTER",
  ]);
  // Restrictions whose two dimensions (restricted + output) are what an analysis call reads.
  uid.restrictedSource = await createUser(
    "source@analysis.test",
    ["API_FLOWS_4D", "API_FLOWS_INDIRECT_KPI"],
    [{ dimension: "AS_SRC_INGRESS", constrained_values: [String(splitSources()[1])], output: "AS_HND_INGRESS" }],
  );
  uid.restrictedRouter = await createUser(
    "router@analysis.test",
    ["API_FLOWS_4D", "API_FLOWS_INTERFACES"],
    [{ dimension: "ROUTER_IN", constrained_values: [topIngressRouter()], output: "AS_DST_INGRESS" }],
  );
}, 300_000);

/** The ingress router that carries the most ingress traffic. */
function topIngressRouter(): string {
  return [...sumBy(rows.filter(ingress), (r) => r.ingress_router)].sort((a, b) => b[1] - a[1])[0][0];
}

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const ingress = (r: Row) => r.as_hnd !== OPERATOR_ASN;
/** Mean bit/s over the day of a set of rows. */
const bps = (list: Row[]) => (Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8) / DAY;
const sumBy = <K>(list: Row[], key: (r: Row) => K) => {
  const m = new Map<K, bigint>();
  for (const r of list) m.set(key(r), (m.get(key(r)) ?? 0n) + r.bytes);
  return new Map([...m].map(([k, v]) => [k, (Number(v) * 8) / DAY]));
};

type Module = { loader: unknown; action: unknown };
async function post(module: Module, path: string, userId: number, body: unknown) {
  const res = await callRoute(module as never, path, { method: "POST", cookie: await sessionCookie(stores, userId), body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  return { status: res.status, data: (await res.json()) as any };
}
async function get(module: Module, path: string, userId: number) {
  const res = await callRoute(module as never, path, { cookie: await sessionCookie(stores, userId) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  return { status: res.status, data: (await res.json()) as any };
}

/** Ingress source ASes (positive numbers) by traffic: those handed over by themselves, and those reaching the network only through others. */
function sources(): { direct: number[]; indirect: number[] } {
  const bySrc = new Map<number, Set<number>>();
  for (const r of rows.filter(ingress)) {
    if (r.as_src <= 0) continue;
    bySrc.set(r.as_src, (bySrc.get(r.as_src) ?? new Set()).add(r.as_hnd));
  }
  const volume = sumBy(rows.filter(ingress), (r) => r.as_src);
  const byVolume = (a: number, b: number) => volume.get(b)! - volume.get(a)!;
  return {
    direct: [...bySrc]
      .filter(([src, hnds]) => hnds.has(src))
      .map(([src]) => src)
      .sort(byVolume),
    indirect: [...bySrc]
      .filter(([src, hnds]) => !hnds.has(src) && !hnds.has(-101))
      .map(([src]) => src)
      .sort(byVolume),
  };
}

/** A direct source and an indirect one (with more than one handover AS when the data has one). */
function splitSources(): number[] {
  const { direct, indirect } = sources();
  const handovers = (src: number) => new Set(rows.filter((r) => ingress(r) && r.as_src === src).map((r) => r.as_hnd)).size;
  return [direct[0], indirect.find((s) => handovers(s) > 1) ?? indirect[0]];
}

describe("POST api/asflows/indirect/", () => {
  it("direct, indirect and the per-handover split equal an independent recomputation", async () => {
    const asns = splitSources();
    expect(asns.every((a) => a > 0)).toBe(true);
    const { status, data } = await post(indirectRoute, "/api/asflows/indirect", uid.admin, {
      ASNumberList: [`AS${asns[0]}`, asns[1]],
      startTime: RANGE.start,
      endTime: RANGE.end,
    });
    expect(status).toBe(200);
    expect(data.range).toMatchObject({ start: RANGE.start, end: RANGE.end });
    expect(data.results.map((r: { asn: number }) => r.asn)).toEqual(asns);
    for (const result of data.results) {
      const mine = rows.filter((r) => ingress(r) && r.as_src === result.asn);
      expect(result.total_bps / bps(mine)).toBeCloseTo(1, 9);
      const direct = bps(mine.filter((r) => r.as_hnd === result.asn));
      if (direct === 0) expect(result.direct_bps).toBe(0);
      else expect(result.direct_bps / direct).toBeCloseTo(1, 9);
      expect(result.direct_bps + result.indirect_bps).toBeCloseTo(result.total_bps, 3);
      const via = sumBy(
        mine.filter((r) => r.as_hnd !== result.asn),
        (r) => r.as_hnd,
      );
      expect(result.via.length).toBe(via.size);
      for (const v of result.via) expect(v.bps / via.get(v.asn)!).toBeCloseTo(1, 9);
    }
    expect(data.results[0].direct_bps).toBeGreaterThan(0);
    expect(data.results[1].direct_bps).toBe(0);
    expect(data.results[1].indirect_share).toBe(1);
    expect(data.results[1].via.length).toBeGreaterThan(0);
    expect(data.results[0].name).not.toMatch(/^AS\d+$/);
  });

  it("a negated filter removes exactly its rows", async () => {
    const [asn] = splitSources();
    const mine = rows.filter((r) => ingress(r) && r.as_src === asn);
    expect(mine.length).toBeGreaterThan(0);
    const dropped = [...sumBy(mine, (r) => r.as_dst)].sort((a, b) => b[1] - a[1])[0][0];
    const { status, data } = await post(indirectRoute, "/api/asflows/indirect", uid.admin, {
      ASNumberList: [asn],
      startTime: RANGE.start,
      endTime: RANGE.end,
      filters: [{ dimension: "AS_DST_INGRESS", values: [`!${dropped}`] }],
    });
    expect(status).toBe(200);
    const expected = bps(mine.filter((r) => r.as_dst !== dropped));
    expect(expected).toBeLessThan(bps(mine));
    expect(data.results[0].total_bps / expected).toBeCloseTo(1, 9);
  });

  it("a delegated account is refused, even when granted the permission: it is not delegable", async () => {
    for (const id of [uid.restricted, uid.restrictedSource]) {
      expect((await loadUserContext(stores.pg.db, id))!.permissions).not.toContain("API_FLOWS_INDIRECT_KPI");
      const refused = await post(indirectRoute, "/api/asflows/indirect", id, {
        ASNumberList: [splitSources()[0]],
        startTime: RANGE.start,
        endTime: RANGE.end,
      });
      expect(refused.status).toBe(403);
      expect(refused.data).toEqual({ detail: MESSAGES.permissionDenied, exception_code: "permission_denied" });
    }
  });

  it("behind the call, the service still forces a restriction: the handover split needs both source and handover AS", async () => {
    // Defence in depth: should a delegated account ever reach the service, its restriction holds.
    const restricted = (await loadUserContext(stores.pg.db, uid.restricted))!;
    const [asn] = [...new Set(rows.filter((r) => ingress(r) && r.as_dst === TOP_CUSTOMER && r.as_src > 0).map((r) => r.as_src))];
    const body = { ASNumberList: [asn], startTime: RANGE.start, endTime: RANGE.end, filters: [] };
    const refused = await runAsIndirect(stores, restricted, MAX_API_VERSION, body).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).body.detail).toBe(
      "Handover AS (ingress) is not available to your account: it may only use Destination AS (ingress) and Source AS (ingress).",
    );

    const source = splitSources()[1];
    const restrictedSource = (await loadUserContext(stores.pg.db, uid.restrictedSource))!;
    const data = await runAsIndirect(stores, restrictedSource, MAX_API_VERSION, {
      ASNumberList: [source, splitSources()[0]],
      startTime: RANGE.start,
      endTime: RANGE.end,
      filters: [],
    });
    expect(data.filters).toEqual([{ dimension: "AS_SRC_INGRESS", value: String(source), isNegation: false, locked: true }]);
    const mine = rows.filter((r) => ingress(r) && r.as_src === source);
    expect(data.results[0].total_bps / bps(mine)).toBeCloseTo(1, 9);
    const via = sumBy(
      mine.filter((r) => r.as_hnd !== source),
      (r) => r.as_hnd,
    );
    expect(data.results[0].via.length).toBe(via.size);
    for (const v of data.results[0].via) expect(v.bps / via.get(v.asn)!).toBeCloseTo(1, 9);
    // Another source AS gets nothing: the restriction's filter is forced.
    expect(data.results[1].total_bps).toBe(0);
  });

  it("bad input is a 400 naming the field", async () => {
    const bad = await post(indirectRoute, "/api/asflows/indirect", uid.admin, {
      ASNumberList: [2906, "AS-x"],
      startTime: RANGE.start,
      endTime: RANGE.end,
    });
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toEqual([{ field: "ASNumberList.1", message: "AS-x is not a valid AS number input" }]);
    const reversed = await post(indirectRoute, "/api/asflows/indirect", uid.admin, {
      ASNumberList: [2906],
      startTime: RANGE.end,
      endTime: RANGE.start,
    });
    expect(reversed.status).toBe(400);
    expect(reversed.data.errors.map((e: { field: string }) => e.field)).toEqual(["startTime"]);
    const empty = await post(indirectRoute, "/api/asflows/indirect", uid.admin, {
      ASNumberList: [],
      startTime: RANGE.start,
      endTime: RANGE.end,
    });
    expect(empty.status).toBe(400);
  });
});

describe("POST api/netflowstatistics/", () => {
  const router = () => [...sumBy(rows.filter(ingress), (r) => r.ingress_router)].sort((a, b) => b[1] - a[1])[0][0];

  it("per destination AS at one ingress router, with totals", async () => {
    const at = router();
    const { status, data } = await post(netflowRoute, "/api/netflowstatistics", uid.admin, {
      start: RANGE.start,
      end: RANGE.end,
      ingressRouter: at,
      targetDimension: "AS_DST_INGRESS",
    });
    expect(status).toBe(200);
    const mine = rows.filter((r) => ingress(r) && r.ingress_router === at);
    const expected = sumBy(mine, (r) => String(r.as_dst));
    expect(data.totals.total_bps / bps(mine)).toBeCloseTo(1, 9);
    expect(data.totals.network_bps / bps(rows.filter(ingress))).toBeCloseTo(1, 9);
    expect(data.results.length).toBe(expected.size);
    for (const r of data.results) expect(r.bps / expected.get(r.key)!).toBeCloseTo(1, 9);
    expect(data.results.reduce((a: number, r: { share: number }) => a + r.share, 0)).toBeCloseTo(1, 9);
  });

  it("IPv6 only, with a negated filter", async () => {
    const at = router();
    const { status, data } = await post(netflowRoute, "/api/netflowstatistics", uid.admin, {
      start: RANGE.start,
      end: RANGE.end,
      ingressRouter: at,
      targetDimension: "AS_SRC_INGRESS",
      ipVersion: 6,
      filters: ["AS_SRC_INGRESS:!15169"],
    });
    expect(status).toBe(200);
    const mine = rows.filter((r) => ingress(r) && r.ingress_router === at && r.ip_version === 6 && r.as_src !== 15169);
    expect(mine.length).toBeGreaterThan(0);
    expect(data.totals.total_bps / bps(mine)).toBeCloseTo(1, 9);
    expect(data.results.some((r: { key: string }) => r.key === "15169")).toBe(false);
  });

  it("a delegated user: their router's traffic per output value; other dimensions are a 403", async () => {
    const at = topIngressRouter();
    const { status, data } = await post(netflowRoute, "/api/netflowstatistics", uid.restrictedRouter, {
      start: RANGE.start,
      end: RANGE.end,
      ingressRouter: at,
      targetDimension: "AS_DST_INGRESS",
    });
    expect(status).toBe(200);
    const mine = rows.filter((r) => ingress(r) && r.ingress_router === at);
    const expected = sumBy(mine, (r) => String(r.as_dst));
    expect(data.totals.total_bps / bps(mine)).toBeCloseTo(1, 9);
    // The network total is the restricted traffic too: only this router's.
    expect(data.totals.network_bps / bps(mine)).toBeCloseTo(1, 9);
    expect(data.results.length).toBe(expected.size);
    for (const r of data.results) expect(r.bps / expected.get(r.key)!).toBeCloseTo(1, 9);
    const other = await post(netflowRoute, "/api/netflowstatistics", uid.restrictedRouter, {
      start: RANGE.start,
      end: RANGE.end,
      targetDimension: "AS_SRC_INGRESS",
    });
    expect(other.status).toBe(403);
    expect(other.data.detail).toBe(
      "Source AS (ingress) is not available to your account: it may only use Ingress router and Destination AS (ingress).",
    );
    const viaRouter = await post(netflowRoute, "/api/netflowstatistics", uid.restricted, {
      start: RANGE.start,
      end: RANGE.end,
      ingressRouter: at,
      targetDimension: "AS_SRC_INGRESS",
    });
    expect(viaRouter.status).toBe(403);
  });

  it("the router dimension needs its permission; an unknown dimension is a 400", async () => {
    const denied = await post(netflowRoute, "/api/netflowstatistics", uid.flowsOnly, {
      start: RANGE.start,
      end: RANGE.end,
      ingressRouter: "fra-er1",
      targetDimension: "AS_SRC_INGRESS",
    });
    expect(denied.status).toBe(400);
    expect(denied.data.errors[0].field).toBe("ingressRouter");
    const unknown = await post(netflowRoute, "/api/netflowstatistics", uid.admin, {
      start: RANGE.start,
      end: RANGE.end,
      targetDimension: "NOPE",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors[0].field).toBe("targetDimension");
  });
});

describe("GET api/linkleveltopology/ and api/linklevelstatistics/", () => {
  const query = (origin: string, destination: string) =>
    `begin_timestamp=${RANGE.start}&end_timestamp=${RANGE.end}&origin=${encodeURIComponent(origin)}&destination=${encodeURIComponent(destination)}`;

  it("links from a source AS to an egress router equal an independent recomputation", async () => {
    const pair = [
      ...sumBy(
        rows.filter((r) => ingress(r) && r.as_src > 0 && r.link_start !== ""),
        (r) => `${r.as_src} ${r.egress_router}`,
      ),
    ].sort((a, b) => b[1] - a[1])[0][0];
    const [src, egress] = pair.split(" ");
    const mine = rows.filter((r) => ingress(r) && r.as_src === Number(src) && r.egress_router === egress);
    const { status, data } = await get(topologyRoute, `/api/linkleveltopology?${query(`AS${src}`, egress)}`, uid.admin);
    expect(status).toBe(200);
    expect(data.origin).toMatchObject({ kind: "AS", asn: Number(src) });
    expect(data.destination).toMatchObject({ kind: "ROUTER", router: egress });
    expect(data.total_bps / bps(mine)).toBeCloseTo(1, 9);
    const expected = new Map<string, number>();
    const add = (id: string, v: number) => expected.set(id, (expected.get(id) ?? 0) + v);
    for (const [k, v] of sumBy(mine, (r) => `in:${r.ingress_router}|${r.in_if}`)) add(k, v);
    for (const [k, v] of sumBy(
      mine.filter((r) => r.link_start !== ""),
      (r) => `core:${r.link_start}>${r.link_end}`,
    ))
      add(k, v);
    for (const [k, v] of sumBy(mine, (r) => `out:${r.egress_router}|${r.out_if}`)) add(k, v);
    expect(data.links.length).toBe(expected.size);
    for (const l of data.links) expect(l.bps / expected.get(l.id)!, l.id).toBeCloseTo(1, 9);
    expect(data.links.some((l: { kind: string }) => l.kind === "core")).toBe(true);
    const nodeIds = new Set(data.nodes.map((n: { id: string }) => n.id));
    for (const l of data.links) expect(nodeIds.has(l.source) && nodeIds.has(l.target)).toBe(true);

    const stats = await get(statisticsRoute, `/api/linklevelstatistics?${query(`AS${src}`, egress)}`, uid.admin);
    expect(stats.status).toBe(200);
    expect(stats.data.links.map((l: { id: string }) => l.id).sort()).toEqual(data.links.map((l: { id: string }) => l.id).sort());
    for (const l of stats.data.links) {
      expect(l.capacity_bps).toBeGreaterThan(0);
      expect(l.utilisation_pct).toBeCloseTo((l.bps / l.capacity_bps) * 100, 6);
      // The selection is part of everything measured on the interface.
      expect(l.link_bps).toBeGreaterThanOrEqual(l.bps * 0.999);
    }
  });

  it("a delegated user never sees the operator's links: a 403 naming the allowed dimensions", async () => {
    const at = topIngressRouter();
    for (const route of [topologyRoute, statisticsRoute]) {
      const path = route === topologyRoute ? "/api/linkleveltopology" : "/api/linklevelstatistics";
      const { status, data } = await get(route, `${path}?${query(at, `AS${TOP_CUSTOMER}`)}`, uid.restricted);
      expect(status).toBe(403);
      expect(data.exception_code).toBe("permission_denied");
      expect(data.detail).toBe(
        "In-interface is not available to your account: it may only use Destination AS (ingress) and Source AS (ingress).",
      );
    }
  });

  it("needs the interface and link permissions; bad parameters are a 400", async () => {
    // SANKEY_TOPOLOGY alone does not open the link dimensions.
    const denied = await get(topologyRoute, `/api/linkleveltopology?${query("AS2906", "fra-er1")}`, uid.sankeyOnly);
    expect(denied.status).toBe(403);
    expect(denied.data.exception_code).toBe("permission_denied");
    expect(denied.data.detail).toBe(
      "You do not have permission to perform this action: needs API_FLOWS_INTERFACES and FLOWS_BY_LINK_FILTER.",
    );
    const unknown = await get(statisticsRoute, `/api/linklevelstatistics?${query("nowhere-er9", "fra-er1")}`, uid.admin);
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors[0].field).toBe("origin");
    const missing = await get(statisticsRoute, `/api/linklevelstatistics?begin_timestamp=x&end_timestamp=${RANGE.end}`, uid.admin);
    expect(missing.status).toBe(400);
    expect(missing.data.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["begin_timestamp", "origin", "destination"]),
    );
  });
});

describe("SANKEY_TOPOLOGY and API_FLOWS_INDIRECT_KPI on top of API_FLOWS_4D", () => {
  /** The source AS and egress router with the most traffic over internal links. */
  const linkQuery = () => {
    const pair = [
      ...sumBy(
        rows.filter((r) => ingress(r) && r.as_src > 0 && r.link_start !== ""),
        (r) => `${r.as_src} ${r.egress_router}`,
      ),
    ].sort((a, b) => b[1] - a[1])[0][0];
    const [src, egress] = pair.split(" ");
    return `begin_timestamp=${RANGE.start}&end_timestamp=${RANGE.end}&origin=AS${src}&destination=${encodeURIComponent(egress)}`;
  };
  const sankeyBody = { dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end };
  const indirectBody = () => ({ ASNumberList: splitSources(), startTime: RANGE.start, endTime: RANGE.end });
  const calls = (userId: number) => [
    post(sankeyRoute, "/api/sankey", userId, sankeyBody),
    get(topologyRoute, `/api/linkleveltopology?${linkQuery()}`, userId),
    get(statisticsRoute, `/api/linklevelstatistics?${linkQuery()}`, userId),
    post(indirectRoute, "/api/asflows/indirect", userId, indirectBody()),
  ];
  const DENIED = { detail: MESSAGES.permissionDenied, exception_code: "permission_denied" };

  it("API_FLOWS_4D alone: the Sankey, the link-level topology and statistics and the indirect figures are each a 403", async () => {
    const answers = await Promise.all(calls(uid.flowsOnly));
    for (const a of answers) expect(a).toEqual({ status: 403, data: DENIED });
    // The access check comes before the input's: a bad body is still a 403.
    const bad = await post(sankeyRoute, "/api/sankey", uid.flowsOnly, { dimensions: ["AS_SRC_INGRESS"] });
    expect(bad).toEqual({ status: 403, data: DENIED });
  });

  it("each permission opens its own calls only", async () => {
    const [sankey, topology, statistics, indirect] = await Promise.all(calls(uid.sankeyOnly));
    expect(sankey.status).toBe(200);
    // The link calls read the link dimensions: their permissions are still needed.
    expect([topology.status, statistics.status]).toEqual([403, 403]);
    expect(indirect).toEqual({ status: 403, data: DENIED });
    const byIndirect = await Promise.all(calls(uid.indirectOnly));
    expect(byIndirect.map((a) => a.status)).toEqual([403, 403, 403, 200]);
  });

  it("with the permissions (no superuser): the same answers as a superuser's", async () => {
    const [mine, admin] = await Promise.all([Promise.all(calls(uid.granted)), Promise.all(calls(uid.admin))]);
    expect(mine.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(mine.map((a) => a.data)).toEqual(admin.map((a) => a.data));
    // Not empty answers: the sankey has links, the topology links, the indirect figures traffic.
    expect(mine[0].data.links.length).toBeGreaterThan(0);
    expect(mine[1].data.links.length).toBeGreaterThan(0);
    expect(mine[3].data.results[0].total_bps).toBeGreaterThan(0);
  });
});

describe("POST api/untracked_data/", () => {
  it("the special values' shares per bucket and overall equal an independent recomputation", async () => {
    const { status, data } = await post(untrackedRoute, "/api/untracked_data", uid.admin, {
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      dimension: "AS_SRC_INGRESS",
    });
    expect(status).toBe(200);
    expect(data.window).toBe(300);
    const mine = rows.filter(ingress);
    const total = bps(mine);
    expect(data.overall.total_bps / total).toBeCloseTo(1, 9);
    for (const [key, asn] of [
      ["untracked", -999],
      ["others", -101],
      ["not_routable", -1],
    ] as const) {
      const part = bps(mine.filter((r) => r.as_src === asn));
      expect(data.overall[`${key}_share`]).toBeCloseTo(part / total, 9);
    }
    expect(data.overall.untracked_share + data.overall.others_share + data.overall.not_routable_share).toBeGreaterThan(0);
    expect(data.buckets.length).toBe(DAY / 300);
    const bucketSum = data.buckets.reduce((a: number, b: { total_bps: number }) => a + b.total_bps * 300, 0);
    expect(bucketSum / (total * DAY)).toBeCloseTo(1, 9);
  });

  it("a delegated user's shares are of their traffic only; non-AS dimensions are a 400", async () => {
    const { status, data } = await post(untrackedRoute, "/api/untracked_data", uid.restricted, {
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      dimension: "AS_SRC_INGRESS",
    });
    expect(status).toBe(200);
    const mine = rows.filter((r) => ingress(r) && r.as_dst === TOP_CUSTOMER);
    expect(data.overall.total_bps / bps(mine)).toBeCloseTo(1, 9);
    expect(data.overall.others_share).toBeCloseTo(bps(mine.filter((r) => r.as_src === -101)) / bps(mine), 9);
    const bad = await post(untrackedRoute, "/api/untracked_data", uid.admin, {
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      dimension: "ROUTER_IN",
    });
    expect(bad.status).toBe(400);
    expect(bad.data.errors[0].field).toBe("dimension");
  });
});

describe("the AS Flows Analysis screen's loader", () => {
  const screen = async (userId: number, search: string) => {
    const res = await runRoute(analysisScreen.loader, getRequest(`/as-flows-analysis?${search}`, await sessionCookie(stores, userId)));
    return res;
  };

  it("the four-dimension sankey and the direct/indirect table equal an independent recomputation", async () => {
    const asns = splitSources().slice(0, 2);
    const res = await screen(uid.admin, `as=${asns.join(",+AS")}&start=${RANGE.start}&end=${RANGE.end}`);
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.errors).toEqual([]);
    expect(data.asns).toEqual(asns);
    const mine = rows.filter((r) => ingress(r) && asns.includes(r.as_src));
    const total = bps(mine);
    // Each of the three steps of the sankey carries all of the chosen ASes' traffic.
    const dimOf = new Map(data.sankey.nodes.map((n: { id: string; dimension: string }) => [n.id, n.dimension]));
    ["AS_SRC_INGRESS", "AS_HND_INGRESS", "AS_NXT_INGRESS"].forEach((dim) => {
      const sum = data.sankey.links
        .filter((l: { source: string }) => dimOf.get(l.source) === dim)
        .reduce((a: number, l: { value: number }) => a + l.value, 0);
      expect(sum / total, dim).toBeCloseTo(1, 9);
    });
    // Source nodes are exactly the chosen ASes; the handover column splits by handover AS.
    const srcLinks = data.sankey.links.filter((l: { source: string }) => dimOf.get(l.source) === "AS_SRC_INGRESS");
    expect(new Set(srcLinks.map((l: { source: string }) => l.source))).toEqual(new Set(asns.map((a) => `AS_SRC_INGRESS:${a}`)));
    const direct = srcLinks.filter(
      (l: { source: string; target: string }) => l.target === l.source.replace("AS_SRC_INGRESS", "AS_HND_INGRESS"),
    );
    for (const row of data.indirect) {
      const own = rows.filter((r) => ingress(r) && r.as_src === row.asn);
      expect(row.total_bps / bps(own)).toBeCloseTo(1, 9);
      const ownDirect = bps(own.filter((r) => r.as_hnd === row.asn));
      if (ownDirect === 0) expect(row.direct_bps).toBe(0);
      else expect(row.direct_bps / ownDirect).toBeCloseTo(1, 9);
      const link = direct.find((l: { source: string }) => l.source === `AS_SRC_INGRESS:${row.asn}`);
      // The handover column folds to the top 10: a direct handover AS outside it is counted in Others.
      if (link) expect(link.value / row.direct_bps).toBeCloseTo(1, 9);
    }
  });

  it("each part needs its permission: without it the part is left out and said, the rest of the screen stays", async () => {
    const search = `as=${splitSources().join(",")}&start=${RANGE.start}&end=${RANGE.end}`;
    const [full, flowsOnly, sankeyOnly, indirectOnly] = await Promise.all(
      [uid.granted, uid.flowsOnly, uid.sankeyOnly, uid.indirectOnly].map((id) => screen(id, search)),
    );
    for (const res of [full, flowsOnly, sankeyOnly, indirectOnly]) {
      expect(res.status).toBe(200);
      expect(res.data.errors).toEqual([]);
      expect(res.data.asns).toEqual(splitSources());
    }
    expect(full.data.withheld).toEqual([]);
    expect(full.data.sankey.links.length).toBeGreaterThan(0);
    expect(full.data.indirect.length).toBe(2);

    expect(flowsOnly.data.sankey).toBeNull();
    expect(flowsOnly.data.indirect).toBeNull();
    expect(flowsOnly.data.withheld).toEqual([ANALYSIS_SANKEY_WITHHELD, ANALYSIS_INDIRECT_WITHHELD]);
    expect(ANALYSIS_SANKEY_WITHHELD).toBe('The Sankey chart of the four ASes needs the permission "Sankey and link topology".');
    expect(ANALYSIS_INDIRECT_WITHHELD).toBe('The direct and indirect traffic figures need the permission "Indirect traffic figures".');

    // One part: exactly the figures of the screen with both parts.
    expect(sankeyOnly.data.sankey).toEqual(full.data.sankey);
    expect(sankeyOnly.data.indirect).toBeNull();
    expect(sankeyOnly.data.withheld).toEqual([ANALYSIS_INDIRECT_WITHHELD]);
    expect(sankeyOnly.data.range).toEqual(full.data.range);
    expect(indirectOnly.data.indirect).toEqual(full.data.indirect);
    expect(indirectOnly.data.sankey).toBeNull();
    expect(indirectOnly.data.withheld).toEqual([ANALYSIS_SANKEY_WITHHELD]);
    expect(indirectOnly.data.range).toEqual(full.data.range);
    // And they are the traffic of the flows_5m rows (the figures are checked in detail above).
    for (const row of indirectOnly.data.indirect) {
      expect(row.total_bps / bps(rows.filter((r) => ingress(r) && r.as_src === row.asn))).toBeCloseTo(1, 9);
    }
  });

  it("is not for delegated accounts: every figure reads dimensions outside a restriction's two, so they land elsewhere", async () => {
    const res = await screen(uid.restricted, `as=2906&start=${RANGE.start}&end=${RANGE.end}&ipVersion=all`);
    expect(res.status).toBe(302);
    expect(res.location).not.toContain("as-flows-analysis");
  });

  it("bad AS numbers are named", async () => {
    const res = await screen(uid.admin, `as=2906,AS-x&start=${RANGE.start}&end=${RANGE.end}&ipVersion=all`);
    expect(res.status).toBe(200);
    expect(res.data.errors).toContain("AS-x is not a valid AS number input");
  });

  it("without AS numbers: the form only; without the permission: the landing route", async () => {
    const res = await screen(uid.admin, "");
    expect(res.status).toBe(200);
    expect(res.data.sankey).toBeNull();
    const noFlows = await createUser("noflows@analysis.test", ["CONTROL_PLANE"]);
    const denied = await screen(noFlows, "as=2906");
    expect(denied.location).not.toBeNull();
    expect(denied.location).not.toContain("as-flows-analysis");
  });
});
