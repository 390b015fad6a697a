/**
 * GET api/rootcause/anomalies/ on flows_5m rows the test writes: 202 {"state": "computing"} until the
 * background task has computed the range, then 200 with the list — each anomaly's start, end and peak
 * deviation against an independent sum over those rows, its classification that of the analysis of
 * its period (POST api/rootcause/) — the spec's invalid-input texts (400), who may call (403), and the
 * analysis form's "This week's anomalies".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { NO_BASELINE_NOTE, rootCauseAnomaliesTask, type ListedAnomaly } from "~/features/flows/rootcause/anomalies.server";
import * as anomaliesRoute from "~/routes/api.rootcause.anomalies";
import * as rootCauseRoute from "~/routes/api.rootcause";
import * as screenRoute from "~/routes/_app.flow-explorer_.rootcause";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;
const NOW = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
/** The range asked for: one day ending a day ago. */
const START = NOW - 2 * DAY;
const END = START + DAY;
/** The anomaly: 3 hours from 5 hours into the range, AS64500's traffic through the transit tripled. */
const ANOMALY = { start: START + 5 * HOUR, end: START + 8 * HOUR };
const OBJECT = 64500;
const TRANSIT = 64600;
const OTHER = 64700;

type Flow = { time: number; as_src: number; as_hnd: number; ingress_router: string; in_if: string; bytes: number };
const flows: Flow[] = [];
// Every hour from 4 weeks before the range to the last 7 days (a range the screen asks for): the same two streams.
for (let t = START - 4 * WEEK; t < NOW; t += HOUR) {
  const inAnomaly = t >= ANOMALY.start && t < ANOMALY.end;
  flows.push({ time: t, as_src: OBJECT, as_hnd: TRANSIT, ingress_router: "r1", in_if: "xe-0", bytes: inAnomaly ? 3e9 : 1e9 });
  flows.push({ time: t, as_src: OTHER, as_hnd: OTHER, ingress_router: "r2", in_if: "xe-1", bytes: 2e9 });
}

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

let stores: TestStores;
const uid = { granted: 0, flowsOnly: 0, delegated: 0, none: 0 };

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
  await stores.pg.db.insert(asInfo).values([
    { asn: 64512, name: "Test Carrier", category: "operator" },
    { asn: TRANSIT, name: "Test Transit", category: "transit" },
  ]);
  await chInsert(stores.ch, { name: "test.fixture", table: "flows_5m", values: flows.map(flowRow) });
  uid.granted = await createUser("anomalies@rca.test", ["API_FLOWS_4D", "API_FLOWS_INTERFACES"]);
  uid.flowsOnly = await createUser("flows@rca.test", ["API_FLOWS_4D"]);
  uid.delegated = await createUser("delegated@rca.test", ["API_FLOWS_4D", "API_FLOWS_INTERFACES"], true);
  uid.none = await createUser("none@rca.test", []);
}, 120_000);

afterAll(async () => {
  await rootCauseAnomaliesTask.stop();
  await stores?.dispose();
}, 60_000);

const get = async (query: string, userId = uid.granted) => {
  const res = await callRoute(anomaliesRoute, `/api/rootcause/anomalies/?${query}`, { cookie: await sessionCookie(stores, userId) });
  return { status: res.status, data: await res.json() };
};

/** bit/s in the hour starting at `t` of the rows matching `pick`. */
const hourBps = (t: number, pick: (f: Flow) => boolean) =>
  (flows.filter((f) => f.time >= t && f.time < t + HOUR && pick(f)).reduce((s, f) => s + f.bytes, 0) * 8) / HOUR;

describe("GET api/rootcause/anomalies/", () => {
  it("202 while the background computes the range (nothing runs before the task starts), then 200 with the list", async () => {
    const query = `start=${START}&end=${END}`;
    expect(await get(query)).toEqual({ status: 202, data: { state: "computing" } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await get(query)).toEqual({ status: 202, data: { state: "computing" } });
    rootCauseAnomaliesTask.start(stores);
    let answer = await get(query);
    for (let i = 0; answer.status === 202 && i < 240; i++) {
      await new Promise((r) => setTimeout(r, 250));
      answer = await get(query);
    }
    expect(answer.status).toBe(200);
    const { data } = answer;
    expect(data.range).toEqual({ start: START, end: END });
    expect(data.step).toBe(HOUR);

    // One anomaly per object the tripled stream crosses: its source AS, its handover AS, its router, its interface.
    const expected: [string, string, (f: Flow) => boolean][] = [
      ["AS_SRC_INGRESS", String(OBJECT), (f) => f.as_src === OBJECT],
      ["AS_HND_INGRESS", String(TRANSIT), (f) => f.as_hnd === TRANSIT],
      ["ROUTER_IN", "r1", (f) => f.ingress_router === "r1"],
      ["INTERFACE_IN", "r1|xe-0", (f) => f.ingress_router === "r1" && f.in_if === "xe-0"],
    ];
    const anomalies: ListedAnomaly[] = data.anomalies;
    expect(anomalies.map((a) => `${a.dimension} ${a.value}`).sort()).toEqual(expected.map(([d, v]) => `${d} ${v}`).sort());
    for (const [dimension, value, pick] of expected) {
      const a = anomalies.find((x) => x.dimension === dimension && x.value === value)!;
      expect(a).toMatchObject({ start: ANOMALY.start, end: ANOMALY.end, duration: "3h", direction: "rise", fromRangeStart: false });
      // The 4 previous weeks are identical: the baseline of an hour is that hour a week before.
      const actual = hourBps(a.peakTime, pick);
      const baseline = hourBps(a.peakTime - WEEK, pick);
      expect(a.peakBps).toBeCloseTo(actual, 3);
      expect(a.peakBaselineBps).toBeCloseTo(baseline, 3);
      expect(a.peakDeviationBps).toBeCloseTo(actual - baseline, 3);
      expect(a.peakShare).toBeCloseTo((actual - baseline) / baseline, 9);
      // Classified by the analysis of its period.
      const body = { dimension, value, start: new Date(a.start * 1000).toISOString(), duration: "3h" };
      const res = await callRoute(rootCauseRoute, "/api/rootcause/", {
        method: "POST",
        cookie: await sessionCookie(stores, uid.granted),
        body,
      });
      const analysis = await res.json();
      expect(a.classification).toBe(analysis.classification);
      expect(a.reason).toBe(analysis.reason);
      expect(a.href).toBe(`/flow-explorer/rootcause?${new URLSearchParams({ ...body, start: body.start.replace(".000Z", "Z") })}`);
    }
    expect(anomalies.find((a) => a.dimension === "AS_HND_INGRESS")!.name).toContain("Test Transit");
    expect(anomalies.find((a) => a.dimension === "ROUTER_IN")!.name).toBe("r1");

    expect(data.notes).toEqual([]);
    // Cached: asked again, answered at once.
    expect((await get(query)).status).toBe(200);

    // A range starting less than a week after the first flow data: no baseline there, and a note says so.
    const early = `start=${START - 4 * WEEK + DAY}&end=${START - 4 * WEEK + 2 * DAY}`;
    let first = await get(early);
    for (let i = 0; first.status === 202 && i < 240; i++) {
      await new Promise((r) => setTimeout(r, 250));
      first = await get(early);
    }
    expect(first.status).toBe(200);
    expect(first.data.anomalies).toEqual([]);
    expect(first.data.notes).toEqual([NO_BASELINE_NOTE]);
  }, 240_000);

  it("bad input: 400 with the spec's text", async () => {
    const cases: [string, string, string][] = [
      ["dateRange=LAST_30_DAYS", "dateRange", "LAST_30_DAYS is not a valid dateRange input"],
      ["dateRange=YESTERDAY", "dateRange", "YESTERDAY is not a valid dateRange input"],
      ["start=yesterday&end=1", "start", "yesterday is not a valid start input"],
      [`start=${START}&end=${START - 1}`, "end", `${START - 1} is not a valid end input`],
      [`start=${START}&end=${START + 8 * DAY}`, "end", `${START + 8 * DAY} is not a valid end input`],
      [`start=${START}`, "end", " is not a valid end input"],
    ];
    for (const [query, field, message] of cases) {
      const { status, data } = await get(query);
      expect(status, query).toBe(400);
      expect(data.errors).toContainEqual({ field, message });
    }
  });

  it("permissions: API_FLOWS_4D and API_FLOWS_INTERFACES; never a delegated user", async () => {
    expect((await get("dateRange=LAST_7_DAYS", uid.none)).status).toBe(403);
    expect((await get("dateRange=LAST_7_DAYS", uid.flowsOnly)).status).toBe(403);
    expect((await get("dateRange=LAST_7_DAYS", uid.delegated)).status).toBe(403);
  });

  it("the analysis form lists the week's anomalies, each a link to its analysis; computing until the task is done", async () => {
    const cookie = await sessionCookie(stores, uid.granted);
    const load = () => runRoute(screenRoute.loader, getRequest("/flow-explorer/rootcause?dimension=AS_SRC_INGRESS", cookie));
    let page = await load();
    expect(page.status).toBe(200);
    for (let i = 0; page.data.anomalies.state === "computing" && i < 240; i++) {
      expect(page.data.anomalies.reloadHref).toBe("/flow-explorer/rootcause?dimension=AS_SRC_INGRESS");
      await new Promise((r) => setTimeout(r, 250));
      page = await load();
    }
    const section = page.data.anomalies;
    expect(section.state).toBe("ready");
    // The last 7 days hold the same anomaly (the weeks before it are as regular).
    expect(section.rows.map((r: { object: string }) => r.object).sort()).toEqual(
      [
        "In-interface: r1 xe-0",
        "Ingress router: r1",
        "Handover AS (ingress): Test Transit (AS64600)",
        "Source AS (ingress): AS64500",
      ].sort(),
    );
    for (const r of section.rows) {
      expect(r.duration).toBe("3h");
      expect(r.deviation).toMatch(/^\+\S+ \S+ \(\+200 %\)$/);
      expect(r.href).toMatch(/^\/flow-explorer\/rootcause\?dimension=\w+&value=.+&start=.+&duration=3h$/);
    }
    // Not shown with an analysis.
    const analysis = await runRoute(
      screenRoute.loader,
      getRequest(
        `/flow-explorer/rootcause?dimension=ROUTER_IN&value=r1&start=${new Date(ANOMALY.start * 1000).toISOString()}&duration=3h`,
        cookie,
      ),
    );
    expect(analysis.data.anomalies).toBeNull();
    // A full user without API_FLOWS_INTERFACES: a text instead of the list.
    const limited = await runRoute(screenRoute.loader, getRequest("/flow-explorer/rootcause", await sessionCookie(stores, uid.flowsOnly)));
    if (limited.status === 200) expect(limited.data.anomalies.state).toBe("unavailable");
  }, 240_000);
});
