/**
 * api/flows/, api/sankey/ and api/flows/timestamps/ on a 2-day demo network, checked against an
 * independent recomputation in TypeScript from flows_5m rows read with a plain SELECT; access,
 * delegation restrictions (enforced on the server) and validation.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { asInfo, delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { MESSAGES } from "~/lib/messages";
import * as flowsRoute from "~/routes/api.flows";
import * as timestampsRoute from "~/routes/api.flows.timestamps";
import * as sankeyRoute from "~/routes/api.sankey";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { openDemoStores } from "../helpers/demo-template";
import { chRows, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const TOP_CUSTOMER = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight)[0].asn;

type Row = FlowRow;

let stores: TestStores;
let rows: Row[];
const uid = { admin: 0, operator: 0, restricted: 0, restrictedUnflagged: 0, noFlows: 0, noSankey: 0 };

async function createUser(
  email: string,
  permissions: Permission[],
  restriction?: { dimension: string; constrained_values: string[]; output: string }[],
  isDelegated = !!restriction,
) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (restriction) await stores.pg.db.insert(delegationRestrictions).values({ userId: row.id, flowsViewsRestrictions: restriction });
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  rows = await readFlowRows(stores, RANGE);
  const idOf = async (email: string) => (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
  uid.admin = await idOf("admin@flowlens.example");
  uid.operator = await idOf("operator@flowlens.example");
  uid.restricted = await createUser(
    "restricted@flows.test",
    ["API_FLOWS_4D", "SANKEY_TOPOLOGY"],
    [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
  );
  // Restricted although the account is not flagged as delegated: the restriction row is what counts.
  uid.restrictedUnflagged = await createUser(
    "unflagged@flows.test",
    ["API_FLOWS_4D"],
    [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
    false,
  );
  uid.noFlows = await createUser("noflows@flows.test", ["CONTROL_PLANE"]);
  uid.noSankey = await createUser("nosankey@flows.test", ["API_FLOWS_4D"]);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const ingress = (r: Row) => r.as_hnd !== OPERATOR_ASN;
const bits = (list: Row[]) => Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8;

type Series = { key: string; name: string; values: number[] };
type FlowsResponse = {
  timeseries: {
    buckets: number[];
    series: Series[];
    complete: boolean[];
    prediction?: { model: string; buckets: number[]; series: Series[] } | null;
  };
  window: number;
  table: { key: string; name: string; bps: number; bytes: string }[];
  range: { start: number; end: number; adjusted: string };
  filters: { dimension: string; value: string; isNegation: boolean; locked: boolean }[];
  notes: string[];
};
type SankeyResponse = {
  nodes: { id: string; dimension: string; key: string; name: string }[];
  links: { source: string; target: string; value: number }[];
};

async function post<T>(
  module: typeof flowsRoute | typeof sankeyRoute,
  path: string,
  userId: number,
  body: unknown,
  accept?: string,
): Promise<{ status: number; data: T }> {
  const res = await callRoute(module, path, { method: "POST", cookie: await sessionCookie(stores, userId), body, accept });
  return { status: res.status, data: (await res.json()) as T };
}
const flows = (userId: number, body: unknown, accept?: string) => post<FlowsResponse>(flowsRoute, "/api/flows", userId, body, accept);
const sankeyCall = (userId: number, body: unknown, accept?: string) =>
  post<SankeyResponse>(sankeyRoute, "/api/sankey", userId, body, accept);

/** Bits of a timeseries: every bucket of every series times the window. */
const seriesBits = (r: FlowsResponse) => r.timeseries.series.reduce((a, s) => a + s.values.reduce((x, v) => x + v, 0) * r.window, 0);
const tableBits = (r: FlowsResponse) => r.table.reduce((a, t) => a + Number(BigInt(t.bytes)) * 8, 0);

const body = (extra: Record<string, unknown> = {}) => ({
  dimension: "AS_SRC_INGRESS",
  startTimestamp: RANGE.start,
  endTimestamp: RANGE.end,
  window: 900,
  ...extra,
});

describe("GET api/flows/timestamps/", () => {
  it("returns the first and last bucket of flows_5m", async () => {
    const res = await callRoute(timestampsRoute, "/api/flows/timestamps", { cookie: await sessionCookie(stores, uid.operator) });
    expect(res.status).toBe(200);
    const [expected] = await chRows<{ a: number; b: number }>(
      stores,
      "SELECT toUInt32(min(time)) AS a, toUInt32(max(time)) AS b FROM flows_5m",
    );
    expect(await res.json()).toEqual({ minTimestamp: Number(expected.a), maxTimestamp: Number(expected.b) });
    expect(Number(expected.b)).toBe(NOW - 300);
  });
});

describe("POST api/flows/", () => {
  it("totals over buckets and series equal an independent recomputation", async () => {
    const { status, data } = await flows(uid.admin, body({ limit: 1000 }));
    expect(status).toBe(200);
    expect(data.table.length).toBeLessThan(1000);
    expect(data.range).toMatchObject({ start: RANGE.start, end: RANGE.end, adjusted: "none" });
    expect(data.window).toBe(900);
    const expected = bits(rows.filter(ingress));
    expect(seriesBits(data) / expected).toBeCloseTo(1, 9);
    expect(tableBits(data) / expected).toBeCloseTo(1, 9);
    // Epoch-aligned quarter hours covering the range (edge buckets may be partial).
    expect(data.timeseries.buckets[0]).toBe(Math.floor(RANGE.start / 900) * 900);
    expect(data.timeseries.buckets.length).toBe(Math.ceil((RANGE.end - data.timeseries.buckets[0]) / 900));
    expect(data.timeseries.buckets.every((b, i) => i === 0 || b - data.timeseries.buckets[i - 1] === 900)).toBe(true);
    for (const s of data.timeseries.series) expect(s.values.length).toBe(data.timeseries.buckets.length);
    // Complete buckets: wholly inside the range (read from 11:10 to 11:10): the first (11:00) and the last (11:00 the
    // next day, to 11:15) are cut, every other one is whole; the charts draw only the complete ones.
    const complete = data.timeseries.complete;
    expect(complete).toEqual(data.timeseries.buckets.map((b) => b >= RANGE.start && b + 900 <= RANGE.end));
    expect(complete.filter((c) => !c)).toHaveLength(2);
    expect(data.timeseries.series.length).toBeLessThanOrEqual(11);
    // Names from as_info and the special values.
    const google = data.table.find((t) => t.key === "15169");
    expect(google?.name).toBe("Google");
    const others = data.timeseries.series.find((s) => s.key === "-101");
    if (others) expect(others.name).toBe("Others");
    expect(data.notes).toEqual([]);
  });

  it("shouldPredict: with two days of data the prediction is the trend line (tests/integration/flows-prediction.test.ts)", async () => {
    const { status, data } = await flows(uid.admin, body({ shouldPredict: true }));
    expect(status).toBe(200);
    expect(data.notes).toEqual([]);
    const prediction = data.timeseries.prediction!;
    expect(prediction.model).toBe("trend");
    expect(prediction.buckets.length).toBe(data.timeseries.buckets.length);
    expect(prediction.buckets[0]).toBe(data.timeseries.buckets.at(-1)! + 900);
    expect(prediction.series.map((s) => s.key)).toEqual(data.timeseries.series.map((s) => s.key).filter((k) => k !== "-101"));
    for (const s of prediction.series) expect(s.values.every((v) => v >= 0)).toBe(true);
  });

  it("a negated filter removes exactly the matching rows", async () => {
    const { status, data } = await flows(
      uid.admin,
      body({ dimension: "AS_HND_INGRESS", filters: [{ dimension: "AS_SRC_INGRESS", values: ["!AS15169"] }] }),
    );
    expect(status).toBe(200);
    expect(data.filters).toEqual([{ dimension: "AS_SRC_INGRESS", value: "15169", isNegation: true, locked: false }]);
    const expected = bits(rows.filter((r) => ingress(r) && r.as_src !== 15169));
    expect(expected).toBeLessThan(bits(rows.filter(ingress)));
    expect(seriesBits(data) / expected).toBeCloseTo(1, 9);
    expect(tableBits(data) / expected).toBeCloseTo(1, 9);
  });

  it("the URL form of filters works too", async () => {
    const { status, data } = await flows(uid.admin, body({ filters: ["AS_SRC_INGRESS:2906,AS15169"] }));
    expect(status).toBe(200);
    expect(new Set(data.table.map((t) => t.key))).toEqual(new Set(["2906", "15169"]));
    expect(tableBits(data) / bits(rows.filter((r) => ingress(r) && (r.as_src === 2906 || r.as_src === 15169)))).toBeCloseTo(1, 9);
  });

  it("filters as one string, on api/flows/ and api/sankey/ alike (docs/api.md)", async () => {
    const expected = bits(rows.filter((r) => ingress(r) && r.as_src === 2906 && r.as_dst !== 3320));
    const { status, data } = await flows(uid.admin, body({ filters: "AS_SRC_INGRESS:2906;AS_DST_INGRESS:!AS3320" }));
    expect(status).toBe(200);
    expect(data.filters).toEqual([
      { dimension: "AS_SRC_INGRESS", value: "2906", isNegation: false, locked: false },
      { dimension: "AS_DST_INGRESS", value: "3320", isNegation: true, locked: false },
    ]);
    expect(tableBits(data) / expected).toBeCloseTo(1, 9);
    const sankey = await sankeyCall(uid.admin, {
      dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      filters: "AS_SRC_INGRESS:2906,!AS15169",
    });
    expect(sankey.status).toBe(200);
    expect(new Set(sankey.data.nodes.filter((n) => n.dimension === "AS_SRC_INGRESS").map((n) => n.key))).toEqual(new Set(["2906"]));
    // A string that is not DIMENSION:values is a 400 naming the field, never a 500.
    const bad = await flows(uid.admin, body({ filters: "2906" }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.data)).toMatch(/filters/);
  });

  it("names values as people read them: protocols by IANA name, the unmapped application as Not mapped, interfaces with a space", async () => {
    const protocols = await flows(uid.admin, body({ dimension: "IANA_PROTOCOL" }));
    expect(protocols.status).toBe(200);
    const byKey = new Map(protocols.data.table.map((t) => [t.key, t.name]));
    expect(byKey.get("6")).toBe("TCP");
    expect(byKey.get("17")).toBe("UDP");
    const apps = await flows(uid.admin, body({ dimension: "AS_APPLICATION" }));
    const unmapped = apps.data.table.find((t) => t.key === "");
    expect(unmapped?.name).toBe("Not mapped");
    expect(apps.data.table.every((t) => t.name.trim() !== "")).toBe(true);
    const ifaces = await flows(uid.admin, body({ dimension: "INTERFACE_IN" }));
    expect(ifaces.data.table.length).toBeGreaterThan(0);
    for (const t of ifaces.data.table.filter((x) => x.key !== "Others")) {
      expect(t.name.startsWith(t.key.replace("|", " "))).toBe(true);
      expect(t.name).not.toContain("|");
    }
  });

  it("ipVersion 6", async () => {
    const { status, data } = await flows(uid.admin, body({ dimension: "AS_DST_INGRESS", ipVersion: 6 }));
    expect(status).toBe(200);
    const expected = bits(rows.filter((r) => ingress(r) && r.ip_version === 6));
    expect(expected).toBeGreaterThan(0);
    expect(seriesBits(data) / expected).toBeCloseTo(1, 9);
  });

  it("clamps a range beyond the data", async () => {
    const { status, data } = await flows(
      uid.admin,
      body({ startTimestamp: NOW - 10 * DAY, endTimestamp: NOW + DAY, window: 3600, limit: 1000 }),
    );
    expect(status).toBe(200);
    expect(data.range.adjusted).toBe("start-moved-end-clamped");
    expect(data.range.end).toBe(NOW);
    // The table's bit/s are over the clamped range (aligned to the hourly table), from an independent read of all the data.
    const all = await readFlowRows(stores, { start: data.range.start, end: data.range.end });
    const aligned = { start: Math.floor(data.range.start / 3600) * 3600, end: Math.ceil(data.range.end / 3600) * 3600 };
    const tableBps = (data.table as { bps: number }[]).reduce((a, t) => a + t.bps, 0);
    expect(tableBps / (bits(all.filter(ingress)) / (aligned.end - aligned.start))).toBeCloseTo(1, 9);
    expect(tableBits(data) / bits(all.filter(ingress))).toBeCloseTo(1, 9);
  });
});

describe("POST api/sankey/", () => {
  it("links equal independent sums (top 5 folded into Others)", async () => {
    const topN = 5;
    const { status, data } = await sankeyCall(uid.admin, {
      dimensions: ["AS_HND_INGRESS", "AS_DST_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      topN,
    });
    expect(status).toBe(200);
    const inRows = rows.filter(ingress);
    const topOf = (key: (r: Row) => number) => {
      const m = new Map<number, bigint>();
      for (const r of inRows) m.set(key(r), (m.get(key(r)) ?? 0n) + r.bytes);
      return new Set(
        [...m]
          .sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : a[0] - b[0]))
          .slice(0, topN)
          .map(([k]) => k),
      );
    };
    const hnd = topOf((r) => r.as_hnd);
    const dst = topOf((r) => r.as_dst);
    const expected = new Map<string, bigint>();
    for (const r of inRows) {
      const k = `AS_HND_INGRESS:${hnd.has(r.as_hnd) ? r.as_hnd : -101}>AS_DST_INGRESS:${dst.has(r.as_dst) ? r.as_dst : -101}`;
      expected.set(k, (expected.get(k) ?? 0n) + r.bytes);
    }
    expect(data.links.length).toBe(expected.size);
    for (const l of data.links) {
      const e = expected.get(`${l.source}>${l.target}`);
      expect(e, `${l.source}>${l.target}`).toBeDefined();
      expect(l.value).toBeCloseTo((Number(e!) * 8) / DAY, 3);
    }
    const ids = new Set(data.nodes.map((n) => n.id));
    for (const l of data.links) expect(ids.has(l.source) && ids.has(l.target)).toBe(true);
    expect(data.nodes.find((n) => n.key === "-101")?.name ?? "Others").toBe("Others");
  });

  it("three dimensions: every step carries the total, and the graph has no cycle", async () => {
    const dims = ["AS_SRC_INGRESS", "AS_HND_INGRESS", "AS_DST_INGRESS"];
    const { status, data } = await sankeyCall(uid.admin, {
      dimensions: dims,
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
      whitelist: [],
      aggregations: {},
    });
    expect(status).toBe(200);
    const total = bits(rows.filter(ingress)) / DAY;
    const dimOf = new Map(data.nodes.map((n) => [n.id, n.dimension]));
    for (let i = 0; i < 2; i++) {
      const sum = data.links.filter((l) => dimOf.get(l.source) === dims[i]).reduce((a, l) => a + l.value, 0);
      expect(sum / total).toBeCloseTo(1, 9);
    }
    // Kahn's algorithm consumes every node only in an acyclic graph.
    const indeg = new Map(data.nodes.map((n) => [n.id, 0]));
    for (const l of data.links) indeg.set(l.target, indeg.get(l.target)! + 1);
    const queue = [...indeg].filter(([, d]) => d === 0).map(([id]) => id);
    let seen = 0;
    while (queue.length) {
      const id = queue.shift()!;
      seen++;
      for (const l of data.links.filter((x) => x.source === id)) {
        indeg.set(l.target, indeg.get(l.target)! - 1);
        if (indeg.get(l.target) === 0) queue.push(l.target);
      }
    }
    expect(seen).toBe(data.nodes.length);
  });
});

describe("a delegated user's restriction is enforced on the server", () => {
  const toCustomer = (r: Row) => ingress(r) && r.as_dst === TOP_CUSTOMER;

  it("no filter in the request: only traffic to the customer", async () => {
    const { status, data } = await flows(uid.restricted, body({ dimension: "AS_DST_INGRESS" }));
    expect(status).toBe(200);
    expect(data.table.map((t) => t.key)).toEqual([String(TOP_CUSTOMER)]);
    expect(data.filters).toEqual([{ dimension: "AS_DST_INGRESS", value: String(TOP_CUSTOMER), isNegation: false, locked: true }]);
    expect(seriesBits(data) / bits(rows.filter(toCustomer))).toBeCloseTo(1, 9);
  });

  it("another dimension and another filter: still only traffic to the customer", async () => {
    // A source that sends to the customer, and one that does not (its filter must give nothing).
    const sources = new Set(rows.filter(toCustomer).map((r) => r.as_src));
    const source = [...sources].find((s) => s > 0)!;
    const stranger = [...new Set(rows.filter(ingress).map((r) => r.as_src))].find((s) => s > 0 && !sources.has(s));
    const { status, data } = await flows(
      uid.restricted,
      body({ dimension: "AS_SRC_INGRESS", filters: [{ dimension: "AS_SRC_INGRESS", values: [String(source)] }] }),
    );
    expect(status).toBe(200);
    expect(data.table.map((t) => t.key)).toEqual([String(source)]);
    const expected = bits(rows.filter((r) => toCustomer(r) && r.as_src === source));
    expect(expected).toBeGreaterThan(0);
    expect(tableBits(data) / expected).toBeCloseTo(1, 9);
    if (stranger !== undefined) {
      const none = await flows(
        uid.restricted,
        body({ dimension: "AS_SRC_INGRESS", filters: [{ dimension: "AS_SRC_INGRESS", values: [String(stranger)] }] }),
      );
      expect(none.status).toBe(200);
      expect(none.data.table).toEqual([]);
    }
    const all = await flows(uid.restricted, body({ dimension: "AS_SRC_INGRESS", limit: 1000 }));
    expect(tableBits(all.data) / bits(rows.filter(toCustomer))).toBeCloseTo(1, 9);
  });

  it("an account not flagged as delegated gets its restriction row applied too", async () => {
    // The table is read on a guess (no restriction) while PostgreSQL answers; the guess must be dropped.
    await flows(uid.admin, body({ dimension: "AS_SRC_INGRESS", limit: 1000 }));
    const { status, data } = await flows(uid.restrictedUnflagged, body({ dimension: "AS_SRC_INGRESS", limit: 1000 }));
    expect(status).toBe(200);
    expect(data.filters).toEqual([{ dimension: "AS_DST_INGRESS", value: String(TOP_CUSTOMER), isNegation: false, locked: true }]);
    expect(tableBits(data) / bits(rows.filter(toCustomer))).toBeCloseTo(1, 9);
    expect(seriesBits(data) / bits(rows.filter(toCustomer))).toBeCloseTo(1, 9);
  });

  it("a filter on the locked dimension that conflicts is a 400; repeating the allowed value is fine", async () => {
    for (const values of [["15169"], ["!" + TOP_CUSTOMER], [String(TOP_CUSTOMER), "15169"]]) {
      const { status, data } = await flows(uid.restricted, body({ filters: [{ dimension: "AS_DST_INGRESS", values }] }));
      expect(status, values.join()).toBe(400);
      expect(JSON.stringify(data)).toMatch(/filters\.0\.values/);
    }
    const same = await flows(
      uid.restricted,
      body({ dimension: "AS_DST_INGRESS", filters: [{ dimension: "AS_DST_INGRESS", values: [`AS${TOP_CUSTOMER}`] }] }),
    );
    expect(same.status).toBe(200);
    expect(same.data.table.map((t) => t.key)).toEqual([String(TOP_CUSTOMER)]);
  });

  it("the sankey only has the customer as destination", async () => {
    const { status, data } = await sankeyCall(uid.restricted, {
      dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(status).toBe(200);
    expect(data.nodes.filter((n) => n.dimension === "AS_DST_INGRESS").map((n) => n.key)).toEqual([String(TOP_CUSTOMER)]);
    const sum = data.links.reduce((a, l) => a + l.value, 0);
    expect(sum / (bits(rows.filter(toCustomer)) / DAY)).toBeCloseTo(1, 9);
  });

  it("a dimension without its permission is a 400 for the delegated user too", async () => {
    const { status, data } = await flows(uid.restricted, body({ dimension: "AS_DST_EGRESS" }));
    expect(status).toBe(400);
    expect(JSON.stringify(data)).toMatch(/"field":"dimension"/);
  });
});

describe("access and validation", () => {
  it("a user without API_FLOWS_4D gets 403 on all three endpoints", async () => {
    const cookie = await sessionCookie(stores, uid.noFlows);
    const a = await callRoute(flowsRoute, "/api/flows", { method: "POST", cookie, body: body() });
    const b = await callRoute(sankeyRoute, "/api/sankey", {
      method: "POST",
      cookie,
      body: { dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end },
    });
    const c = await callRoute(timestampsRoute, "/api/flows/timestamps", { cookie });
    for (const res of [a, b, c]) {
      expect(res.status).toBe(403);
      expect((await res.json()).exception_code).toBe("permission_denied");
    }
  });

  it("api/sankey/ needs SANKEY_TOPOLOGY on top of API_FLOWS_4D; with it, the same answer as a superuser's", async () => {
    const sankeyBody = { dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end };
    const flowsAnswer = await flows(uid.noSankey, body());
    expect(flowsAnswer.status).toBe(200);
    const refused = await sankeyCall(uid.noSankey, sankeyBody);
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({ detail: MESSAGES.permissionDenied, exception_code: "permission_denied" });
    const [mine, admin] = await Promise.all([sankeyCall(uid.operator, sankeyBody), sankeyCall(uid.admin, sankeyBody)]);
    expect(mine.status).toBe(200);
    expect(mine.data.links.length).toBeGreaterThan(0);
    expect(mine.data).toEqual(admin.data);
  });

  it("a dimension without permission or outside the API version is a 400 naming the field", async () => {
    const noVrf = await flows(uid.operator, body({ dimension: "VRF_NAME" }));
    expect(noVrf.status).toBe(400);
    expect(noVrf.data).toMatchObject({ errors: [{ field: "dimension" }] });
    const v15 = await flows(uid.admin, body({ dimension: "VRF_NAME" }), "application/json; version=15");
    expect(v15.status).toBe(400);
    expect(v15.data).toMatchObject({ errors: [{ field: "dimension" }] });
    const v17 = await flows(uid.admin, body({ dimension: "VRF_NAME" }));
    expect(v17.status).toBe(200);
    const filterVrf = await flows(uid.operator, body({ filters: [{ dimension: "VRF_NAME", values: ["x"] }] }));
    expect(filterVrf.status).toBe(400);
    expect(filterVrf.data).toMatchObject({ errors: [{ field: "filters.0.dimension" }] });
    const sankeyVrf = await sankeyCall(uid.operator, {
      dimensions: ["AS_SRC_INGRESS", "VRF_NAME"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(sankeyVrf.status).toBe(400);
    expect(JSON.stringify(sankeyVrf.data)).toMatch(/"field":"dimensions.1"/);
  });

  it("api/sankey/ also accepts the spec client's version 3 (answered as 17, VRF included); api/flows/ does not", async () => {
    const request = { dimensions: ["AS_HND_INGRESS", "AS_DST_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end, topN: 3 };
    const v3 = await sankeyCall(uid.admin, request, "application/json; version=3");
    const v17 = await sankeyCall(uid.admin, request, "application/json; version=17");
    expect(v3.status).toBe(200);
    expect(v3.data.links.length).toBeGreaterThan(0);
    expect(v3.data).toEqual(v17.data);
    const vrfAt3 = await sankeyCall(uid.admin, { ...request, dimensions: ["AS_SRC_INGRESS", "VRF_NAME"] }, "application/json; version=3");
    expect(vrfAt3.status).toBe(200);
    for (const version of [2, 4, 12, 18]) {
      expect((await sankeyCall(uid.admin, request, `application/json; version=${version}`)).status, `version ${version}`).toBe(406);
    }
    const flowsAt3 = await flows(uid.admin, body(), "application/json; version=3");
    expect(flowsAt3.status).toBe(406);
    expect(flowsAt3.data).toMatchObject({ detail: "API version 3 is not supported (supported: 13 to 17)." });
  });

  it("bad bodies are 400s naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ dimension: "AS_SRC_INGRESS", endTimestamp: RANGE.end }, "startTimestamp"],
      [body({ startTimestamp: RANGE.end, endTimestamp: RANGE.start }), "startTimestamp"],
      [body({ startTimestamp: RANGE.end }), "startTimestamp"],
      [body({ dimension: "NOPE" }), "dimension"],
      [body({ endTimestamp: "tomorrow" }), "endTimestamp"],
      [body({ filters: [{ dimension: "AS_SRC_INGRESS", values: ["ASxyz"] }] }), "filters.0.values.0"],
      [body({ ipVersion: 5 }), "ipVersion"],
      [body({ window: 123 }), "window"],
    ];
    for (const [b, field] of cases) {
      const { status, data } = await flows(uid.admin, b);
      expect(status, JSON.stringify(b)).toBe(400);
      expect(
        (data as unknown as { errors: { field: string }[] }).errors.map((e) => e.field),
        JSON.stringify(b),
      ).toContain(field);
    }
  });

  it("sankey: fewer than two dimensions, mixed directions", async () => {
    const one = await sankeyCall(uid.admin, { dimensions: ["AS_SRC_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end });
    expect(one.status).toBe(400);
    expect(one.data).toMatchObject({ errors: [{ field: "dimensions", message: "Sankey chart needs at least two dimensions" }] });
    const mixed = await sankeyCall(uid.admin, {
      dimensions: ["AS_SRC_INGRESS", "AS_DST_EGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(mixed.status).toBe(400);
    expect(mixed.data).toMatchObject({ errors: [{ field: "dimensions" }] });
    const dup = await sankeyCall(uid.admin, {
      dimensions: ["AS_SRC_INGRESS", "AS_SRC_INGRESS"],
      startTimestamp: RANGE.start,
      endTimestamp: RANGE.end,
    });
    expect(dup.status).toBe(400);
  });
});

describe("the operator AS is the one read for the request", () => {
  it("after it changes, ingress traffic is counted against the new one at once", async () => {
    await flows(uid.admin, body({ limit: 1000 })); // the old operator AS is the last one seen
    const other = TOP_CUSTOMER;
    await stores.pg.db.update(asInfo).set({ category: "customer" }).where(eq(asInfo.asn, OPERATOR_ASN));
    const [previous] = await stores.pg.db.select({ category: asInfo.category }).from(asInfo).where(eq(asInfo.asn, other));
    await stores.pg.db.update(asInfo).set({ category: "operator" }).where(eq(asInfo.asn, other));
    try {
      const { status, data } = await flows(uid.admin, body({ limit: 1000 }));
      expect(status).toBe(200);
      const expected = bits(rows.filter((r) => r.as_hnd !== other));
      expect(expected).not.toBe(bits(rows.filter(ingress)));
      expect(tableBits(data) / expected).toBeCloseTo(1, 9);
    } finally {
      await stores.pg.db.update(asInfo).set({ category: previous.category }).where(eq(asInfo.asn, other));
      await stores.pg.db.update(asInfo).set({ category: "operator" }).where(eq(asInfo.asn, OPERATOR_ASN));
    }
  });
});
