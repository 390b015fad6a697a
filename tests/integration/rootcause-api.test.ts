/**
 * POST api/rootcause/ on flows_5m and rib_entries rows the test writes: every evidence figure
 * against an independent sum over those rows, the classification and conclusions they imply, the
 * routing evidence against the rib_entries rows of the window (a flapping session of another
 * origin not listed), the spec's invalid-input texts (400) and who may call (403).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrefix } from "~db/demo/addresses";
import type { RibRow } from "~db/demo/rib";
import { asInfo, delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { ROUTING_AFTER_SECONDS, ROUTING_BEFORE_SECONDS } from "~/features/flows/rootcause/analysis.server";
import * as rootCauseRoute from "~/routes/api.rootcause";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, getRequest, runRoute, sessionCookie } from "../helpers/http";
import * as screenRoute from "~/routes/_app.flow-explorer_.rootcause";
import { openTestStores, type TestStores } from "../helpers/stores";

const MIN5 = 300;
const HOUR = 3600;
const WEEK = 7 * 86_400;
const NOW = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
/** The anomaly: 2 hours starting a day ago. */
const START = NOW - 24 * HOUR;
const DURATION = 2 * HOUR;
const OBJECT = 64500;
const TRANSIT = 64600;
const OTHER = 64700;

type Flow = { time: number; as_src: number; as_hnd: number; ingress_router: string; in_if: string; bytes: number };
const flows: Flow[] = [];
const add = (time: number, as_src: number, as_hnd: number, router: string, iface: string, bytes: number) =>
  flows.push({ time, as_src, as_hnd, ingress_router: router, in_if: iface, bytes });

// The same two hours of each of the 4 previous weeks, identical (no trend): 75 MB a bucket direct on
// r1 xe-0, 25 MB through the transit on r2 xe-0. In the period the direct part falls to 30 MB and the
// transit rises to 70 MB, with 2 MB a bucket on a second direct interface r1 xe-1.
for (let w = 1; w <= 4; w++) {
  for (let t = START - w * WEEK; t < START - w * WEEK + DURATION; t += MIN5) {
    add(t, OBJECT, OBJECT, "r1", "xe-0", 75_000_000);
    add(t, OBJECT, TRANSIT, "r2", "xe-0", 25_000_000);
    add(t, OTHER, OTHER, "r1", "xe-0", 500_000_000);
  }
}
for (let t = START; t < START + DURATION; t += MIN5) {
  add(t, OBJECT, OBJECT, "r1", "xe-0", 30_000_000);
  add(t, OBJECT, OBJECT, "r1", "xe-1", 2_000_000);
  add(t, OBJECT, TRANSIT, "r2", "xe-0", 70_000_000);
  add(t, OTHER, OTHER, "r1", "xe-0", 900_000_000);
}
// A second source AS whose direct link (r3 xe-5, 1 Mbit/s) is full in the period: the direct part stays
// at its baseline (+2.5 %) while the excess arrives through the transit.
const PEER = 64800;
for (let w = 1; w <= 4; w++) {
  for (let t = START - w * WEEK; t < START - w * WEEK + DURATION; t += MIN5) {
    add(t, PEER, PEER, "r3", "xe-5", 32_000_000);
    add(t, PEER, TRANSIT, "r2", "xe-0", 8_000_000);
  }
}
for (let t = START; t < START + DURATION; t += MIN5) {
  add(t, PEER, PEER, "r3", "xe-5", 32_800_000);
  add(t, PEER, TRANSIT, "r2", "xe-0", 20_000_000);
}
/** The direct link's counters in the period: 35.6 MB a bucket of 1 Mbit/s (95 %). */
const UTIL = Array.from({ length: DURATION / MIN5 }, (_, k) => ({
  time: START + k * MIN5,
  router: "r3",
  interface: "xe-5",
  kind: "external",
  neighbor_asn: PEER,
  in_bytes: 35_625_000,
  out_bytes: 0,
  capacity_bps: 1_000_000,
  source: "snmp",
}));
// After the period: not read.
add(START + DURATION, OBJECT, TRANSIT, "r2", "xe-0", 9e12);

const flowRow = (f: Flow) => ({
  time: f.time,
  ip_version: 4,
  as_src: f.as_src,
  as_hnd: f.as_hnd,
  as_nxt: 64512,
  as_dst: 64512,
  application: "",
  infrastructure: "",
  ingress_router: f.ingress_router,
  in_if: f.in_if,
  egress_router: "core1",
  out_if: "et-0",
  link_start_router: "",
  link_start_if: "",
  link_end_router: "",
  link_end_if: "",
  exporter_name: "",
  vrf_name: "",
  protocol: 6,
  bytes: f.bytes,
  packets: 1,
  flows: 1,
});

function rib(vp: string, prefix: string, timestamp: number, as_path: number[], extra: Partial<RibRow> = {}): RibRow {
  const parsed = parsePrefix(prefix);
  return {
    timestamp,
    vantage_point: vp,
    router_ip: "192.0.2.1",
    peer_ip: "198.51.100.1",
    peer_asn: as_path[0] ?? 0,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: parsed.length,
    afi: 1,
    safi: 1,
    is_withdrawn: 0,
    as_path,
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
    ...extra,
  };
}

const WINDOW = { start: START - ROUTING_BEFORE_SECONDS, end: START + ROUTING_AFTER_SECONDS };
const RIB: RibRow[] = [
  rib("fra1", "10.0.0.0/24", START - 3 * HOUR, [64501, OBJECT]),
  rib("ber1", "10.0.1.0/24", START - 3 * HOUR, [64502, OBJECT], { peer_ip: "198.51.100.2" }),
  // In the window: a path change, a withdrawal and a new announcement of the object's prefixes.
  rib("fra1", "10.0.0.0/24", START - 10 * 60, [TRANSIT, OBJECT]),
  rib("ber1", "10.0.1.0/24", START + 5 * 60, [], { peer_ip: "198.51.100.2", is_withdrawn: 1 }),
  rib("ber1", "10.0.2.0/24", START + 10 * 60, [64502, OBJECT], { peer_ip: "198.51.100.2" }),
  // A session of another origin flapping every 10 minutes: not the object's prefixes.
  ...Array.from({ length: 6 }, (_, k) =>
    rib("fra1", "192.0.2.0/24", START - 30 * 60 + k * 10 * 60, k % 2 ? [] : [65001, OTHER], { is_withdrawn: k % 2 }),
  ),
  // Outside the window.
  rib("fra1", "10.0.0.0/24", START + 45 * 60, [64501, OBJECT]),
  rib("fra1", "10.0.0.0/24", START - 40 * 60, [64503, OBJECT]),
];

let stores: TestStores;
const uid = { granted: 0, flowsOnly: 0, delegated: 0 };

async function createUser(email: string, permissions: Permission[], delegated = false) {
  const [r] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated: delegated })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: r.id, permission })));
  if (delegated)
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: r.id,
      flowsViewsRestrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: [String(OBJECT)], output: "AS_HND_INGRESS" }],
    });
  return r.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(asInfo).values({ asn: 64512, name: "Test Carrier", category: "operator" });
  await chInsert(stores.ch, { name: "test.fixture", table: "flows_5m", values: flows.map(flowRow) });
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: RIB });
  await chInsert(stores.ch, { name: "test.fixture", table: "interface_util_5m", values: UTIL });
  uid.granted = await createUser("rca@rca.test", ["API_FLOWS_4D", "API_FLOWS_INTERFACES"]);
  uid.flowsOnly = await createUser("flows@rca.test", ["API_FLOWS_4D"]);
  uid.delegated = await createUser("delegated@rca.test", ["API_FLOWS_4D", "API_FLOWS_INTERFACES"], true);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const post = async (body: unknown, userId = uid.granted) => {
  const res = await callRoute(rootCauseRoute, "/api/rootcause/", { method: "POST", cookie: await sessionCookie(stores, userId), body });
  return { status: res.status, data: await res.json() };
};
const iso = (t: number) => new Date(t * 1000).toISOString();

/** bit/s of the object's rows matching `pick` in [from, from + DURATION). */
const bps = (from: number, pick: (f: Flow) => boolean) =>
  (flows.filter((f) => f.as_src === OBJECT && f.time >= from && f.time < from + DURATION && pick(f)).reduce((s, f) => s + f.bytes, 0) * 8) /
  DURATION;

describe("POST api/rootcause/", () => {
  it("evidence figures are the sums of the flows_5m rows; a handover AS shift with its conclusions", async () => {
    const { status, data } = await post({ dimension: "AS_SRC_INGRESS", value: `AS${OBJECT}`, start: iso(START), duration: "2h" });
    expect(status, JSON.stringify(data)).toBe(200);
    expect(data.period).toMatchObject({ start: START, end: START + DURATION, duration: "2h", step: MIN5 });
    // The baseline weeks are identical: the seasonal baseline is any one of them.
    const all = () => true;
    const baseline = bps(START - WEEK, all);
    const anomaly = bps(START, all);
    expect(data.totals.anomalyBps).toBeCloseTo(anomaly, 3);
    expect(data.totals.baselineBps).toBeCloseTo(baseline, 3);
    expect(data.baseline.points).toHaveLength(DURATION / MIN5);
    for (const p of data.baseline.points) {
      const bucket = flows.filter((f) => f.as_src === OBJECT && f.time === p.time).reduce((s, f) => s + f.bytes, 0);
      expect(p.actualBps).toBeCloseTo((bucket * 8) / MIN5, 3);
      expect(p.baselineBps).toBeCloseTo((100_000_000 * 8) / MIN5, 3);
    }
    const row = (level: string, key: string) => data.levels[level].rows.find((r: { key: string }) => r.key === key);
    expect(row("handoverAs", String(OBJECT)).anomalyBps).toBeCloseTo(
      bps(START, (f) => f.as_hnd === OBJECT),
      3,
    );
    expect(row("handoverAs", String(OBJECT)).baselineBps).toBeCloseTo(
      bps(START - 2 * WEEK, (f) => f.as_hnd === OBJECT),
      3,
    );
    expect(row("handoverAs", String(TRANSIT)).anomalyBps).toBeCloseTo(
      bps(START, (f) => f.as_hnd === TRANSIT),
      3,
    );
    expect(row("router", "r1").anomalyBps).toBeCloseTo(
      bps(START, (f) => f.ingress_router === "r1"),
      3,
    );
    expect(row("interface", "r1|xe-1").anomalyBps).toBeCloseTo(
      bps(START, (f) => f.in_if === "xe-1"),
      3,
    );
    expect(row("interface", "r1|xe-1").baselineBps).toBe(0);
    expect(data.path.directAnomalyBps).toBeCloseTo(
      bps(START, (f) => f.as_hnd === OBJECT),
      3,
    );
    expect(data.path.indirectAnomalyBps).toBeCloseTo(
      bps(START, (f) => f.as_hnd !== OBJECT),
      3,
    );
    expect(data.path.indirectBaselineBps).toBeCloseTo(
      bps(START - WEEK, (f) => f.as_hnd !== OBJECT),
      3,
    );
    // Shares moved: the transit went from 25 % to 70 / 102.
    expect(data.levels.handoverAs.moved).toBeCloseTo(70 / 102 - 0.25, 6);
    expect(data.classification).toBe("Handover AS Shift");
    expect(row("handoverAs", String(TRANSIT)).conclusion).toBe("Yes (Gain)");
    expect(row("handoverAs", String(OBJECT)).conclusion).toBe("Yes (Loss)");
  });

  it("routing evidence: the rib_entries rows of the window of the object's prefixes, at every vantage point", async () => {
    const { data } = await post({ dimension: "AS_SRC_INGRESS", value: String(OBJECT), start: iso(START), duration: "2h" });
    const originated = new Set(RIB.filter((r) => !r.is_withdrawn && r.as_path.at(-1) === OBJECT).map((r) => r.prefix));
    const expected = RIB.filter((r) => r.timestamp >= WINDOW.start && r.timestamp < WINDOW.end && originated.has(r.prefix))
      .map((r) => `${r.timestamp} ${r.vantage_point} ${r.prefix} ${r.is_withdrawn}`)
      .sort();
    expect(data.routing.window).toEqual(WINDOW);
    expect(
      data.routing.changes
        .map(
          (c: { time: number; vantagePoint: string; prefix: string; kind: string }) =>
            `${c.time} ${c.vantagePoint} ${c.prefix} ${c.kind === "Withdrawal" ? 1 : 0}`,
        )
        .sort(),
    ).toEqual(expected);
    expect(data.routing.changes.map((c: { prefix: string; kind: string }) => `${c.prefix} ${c.kind}`)).toEqual([
      "10.0.0.0/24 Path change",
      "10.0.1.0/24 Withdrawal",
      "10.0.2.0/24 Announcement",
    ]);
    // The flapping session's prefix is not named.
    expect(data.routing.changes.some((c: { prefix: string }) => c.prefix === "192.0.2.0/24")).toBe(false);
    expect(data.routing.vantagePoints).toEqual(["ber1", "fra1"]);
    expect(data.routing.conclusion).toBe("Yes");
    expect(data.routing.changes[0].controlPlaneUrl).toMatch(/^\/controlplane\?queryType=IpPrefixQuery&queryTerm=10\.0\.0\.0%2F24&/);
  });

  it("an ingress router object: its traffic by handover AS, the prefixes of its top source ASes", async () => {
    const { status, data } = await post({ dimension: "ROUTER_IN", value: "r2", start: iso(START), duration: "2h" });
    expect(status).toBe(200);
    const r2 = (from: number) =>
      (flows.filter((f) => f.ingress_router === "r2" && f.time >= from && f.time < from + DURATION).reduce((s, f) => s + f.bytes, 0) * 8) /
      DURATION;
    expect(data.totals.anomalyBps).toBeCloseTo(r2(START), 3);
    expect(data.totals.baselineBps).toBeCloseTo(r2(START - WEEK), 3);
    expect(data.routing.originAsns).toEqual([OBJECT, PEER]);
    // One handover AS, one router, one interface: nothing moved, the total grew.
    expect(data.classification).toBe("Organic");
  });

  it("bad input: 400 with the spec's text", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ duration: "10x" }, "duration", "10x is not a valid duration input"],
      [{ duration: "8d" }, "duration", "8d is not a valid duration input"],
      [{ start: "yesterday" }, "start", "yesterday is not a valid start input"],
      [{ dimension: "COUNTRY" }, "dimension", "COUNTRY is not a valid dimension input"],
      [{ value: "ASX" }, "value", "ASX is not a valid value input"],
      // Outside the flow data.
      [{ start: iso(NOW + 7 * 86_400) }, "start", `${iso(NOW + 7 * 86_400)} is not a valid start input`],
    ];
    for (const [change, field, message] of cases) {
      const { status, data } = await post({
        dimension: "AS_SRC_INGRESS",
        value: String(OBJECT),
        start: iso(START),
        duration: "2h",
        ...change,
      });
      expect(status).toBe(400);
      expect(data.errors).toContainEqual({ field, message });
    }
  });

  it("permissions: the interface levels need API_FLOWS_INTERFACES; never a delegated user", async () => {
    const body = { dimension: "AS_SRC_INGRESS", value: String(OBJECT), start: iso(START), duration: "2h" };
    expect((await post(body, uid.flowsOnly)).status).toBe(403);
    expect((await post(body, uid.delegated)).status).toBe(403);
  });

  it("the Flow Explorer's sub-view: the same analysis from the URL, the spec's text for a bad duration", async () => {
    const cookie = await sessionCookie(stores, uid.granted);
    const search = new URLSearchParams({ dimension: "AS_SRC_INGRESS", value: String(OBJECT), start: iso(START), duration: "2h" });
    const ok = await runRoute(screenRoute.loader, getRequest(`/flow-explorer/rootcause?${search}`, cookie));
    expect(ok.status).toBe(200);
    expect(ok.data.result.classification).toBe("Handover AS Shift");
    expect(ok.data.view.levels[0].rows.map((r: { conclusion: string }) => r.conclusion)).toEqual(["Yes (Gain)", "Yes (Loss)"]);
    expect(ok.data.view.routing.changes).toHaveLength(3);
    search.set("duration", "10h20x");
    const bad = await runRoute(screenRoute.loader, getRequest(`/flow-explorer/rootcause?${search}`, cookie));
    expect(bad.data.errors).toEqual(["10h20x is not a valid duration input"]);
    expect(bad.data.result).toBeNull();
    const delegated = await runRoute(
      screenRoute.loader,
      getRequest(`/flow-explorer/rootcause?${search.toString().replace("10h20x", "2h")}`, await sessionCookie(stores, uid.delegated)),
    );
    expect(delegated.data?.result ?? null).toBeNull();
  });

  it("Indirect Overflow: direct capped on a full link, the excess through the transit", async () => {
    const { status, data } = await post({ dimension: "AS_SRC_INGRESS", value: String(PEER), start: iso(START), duration: "2h" });
    expect(status).toBe(200);
    const util = (UTIL.reduce((a, u) => a + u.in_bytes, 0) * 8) / DURATION / 1_000_000;
    expect(data.directUtilisation).toBeCloseTo(util, 9);
    expect(data.classification).toBe("Indirect Overflow");
    // Without the utilisation rows the same traffic would be a handover AS shift (20 → 52.8 / … moved).
    expect(data.levels.handoverAs.moved).toBeGreaterThanOrEqual(0.1);
  });

  // Last: it rewrites the direct link's polls as interpolated (missed polls filled in), which the cases above read as measured.
  it("Unknown when the object's polls were missed or interpolated: the data is incomplete (rule 1), said with its share", async () => {
    await chInsert(stores.ch, {
      name: "test.fixture",
      table: "interface_util_5m",
      values: UTIL.filter((_, k) => k % 2 === 0).map((u) => ({ ...u, interpolated: 1 })),
    });
    const { status, data } = await post({ dimension: "AS_SRC_INGRESS", value: String(PEER), start: iso(START), duration: "2h" });
    expect(status).toBe(200);
    expect(data.classification).toBe("Unknown");
    // Half of the direct link's intervals interpolated, the other interfaces of the peer's traffic not polled at all.
    expect(data.notes).toContain(
      "50 % of the SNMP polls of the object's interfaces were missed or interpolated in the period or the baseline weeks.",
    );
  });
});
