/**
 * "Test against the last 7 days" against an independent evaluation: a week of flows_5m rows with
 * known episodes (a breach long enough to trigger, one too short, one broken by a gap, a value
 * inside the hysteresis, a gap), the preview of a rule over them (previewRule and the screen's
 * preview button), and the transitions recomputed here from the rows themselves with a
 * deliberately plain loop — not the state machine. A band rule's preview gives each bucket the
 * band the evaluator's sampleOf gives it (over four weeks of history before the week).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertRules, asInfo, userSettings } from "~db/postgres/schema";
import { BAND_HISTORY_SECONDS, newestCompleteBucket, readRuleSeries, ruleSelection, sampleOf } from "~/features/alerts/evaluate.server";
import { logicOfBody, previewRule, PREVIEW_SECONDS } from "~/features/alerts/preview.server";
import { runSeries } from "~/features/alerts/state-machine";
import { alertRuleBodySchema } from "~/features/alerts/request-schema";
import { formatUnix } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import * as route from "~/routes/_app.alerts";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { formRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const OPERATOR = 64500;
const TRANSIT = 3356;
const NOW = Math.floor(Date.now() / 1000);
const LAST = newestCompleteBucket(NOW);
const END = LAST + 300;
const START = END - PREVIEW_SECONDS;
const N = PREVIEW_SECONDS / 300;
const MBIT = 1e6;

let stores: TestStores;
let admin: UserContext;
let cookie = "";
let rows: FlowRow[] = [];

/** The watched AS's bit/s per bucket index (null: no row of it); AS 65020 carries 100 Mbit/s throughout. */
function watched(i: number): number | null {
  if (i >= 100 && i <= 102) return 20 * MBIT; // three buckets above: triggers at the second
  if (i === 103) return 9.5 * MBIT; // below 10 but above 9 (10 % hysteresis): stays triggered
  if (i === 500) return 20 * MBIT; // one bucket: shorter than the minimum duration
  if (i === 800 || i === 801) return null; // a gap: No data, then OK again
  if (i === 1500 || i === 1502) return 20 * MBIT; // two breaching buckets with a gap between: no trigger
  if (i === 1501) return null;
  if (i >= N - 3) return 30 * MBIT; // the newest buckets: triggered at the end of the week
  return 5 * MBIT;
}

const flow = (time: number, as_src: number, bps: number) => ({
  time,
  ip_version: 4,
  as_src,
  as_hnd: TRANSIT,
  as_nxt: OPERATOR,
  as_dst: OPERATOR,
  ingress_router: "r1",
  in_if: "et-1",
  bytes: Math.round((bps * 300) / 8),
  packets: Math.round((bps * 300) / 8 / 1000),
  flows: 1,
});

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(asInfo).values({ asn: OPERATOR, name: "Operator", category: "operator" });
  const values = [];
  for (let i = 0; i < N; i++) {
    const t = START + i * 300;
    const v = watched(i);
    if (v !== null) values.push(flow(t, 65010, v));
    values.push(flow(t, 65020, 100 * MBIT));
  }
  // Rows outside the week (before it, and the bucket not yet complete) are never read by a threshold rule.
  values.push(flow(START - 300, 65010, 50 * MBIT), flow(END, 65010, 50 * MBIT));
  // Four weeks of history before the week for the band rule: 5 Mbit/s with a daily swing of ±1 Mbit/s.
  for (let t = START - BAND_HISTORY_SECONDS; t < START - 300; t += 300)
    values.push(flow(t, 65010, (5 + Math.sin((t / 86_400) * 2 * Math.PI)) * MBIT));
  await chInsert(stores.ch, { name: "test.flows", table: "flows_5m", values });
  rows = await readFlowRows(stores, { start: START, end: END });
  const id = await insertSuperuser(stores, "noc@alerts-preview.test");
  await stores.pg.db
    .insert(userSettings)
    .values({ userId: id, timezone: "America/New_York" })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { timezone: "America/New_York" },
    });
  admin = (await loadUserContext(stores.pg.db, id))!;
  cookie = await sessionCookie(stores, id);
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

type Expected = { at: number; to: string; value: number | null };

/**
 * The independent evaluation: bit/s per bucket from the rows (source AS 65010, ingress: handover
 * not the operator), then "above `limit` for `minBuckets` buckets in a row, back at or below
 * limit × (1 − h)" written as a plain loop, with No data for a bucket without a row.
 */
function independent(limit: number, minBuckets: number, h: number): Expected[] {
  const out: Expected[] = [];
  let status = "OK";
  let run = 0;
  for (let i = 0; i < N; i++) {
    const t = START + i * 300;
    const mine = rows.filter((r) => r.time === t && r.as_src === 65010 && r.as_hnd !== OPERATOR);
    const v = mine.length ? (Number(mine.reduce((a, r) => a + r.bytes, 0n)) * 8) / 300 : null;
    const go = (to: string) => {
      out.push({ at: t + 300, to, value: v });
      status = to;
    };
    if (v === null) {
      run = 0;
      if (status !== "No data") go("No data");
    } else if (status === "Triggered") {
      if (v <= limit * (1 - h)) go("Resolved");
    } else if (v > limit) {
      run += 1;
      if (run >= minBuckets) {
        run = 0;
        go("Triggered");
      }
    } else {
      run = 0;
      if (status === "No data") go("OK");
    }
  }
  return out;
}

const body = (extra: Record<string, unknown> = {}) =>
  alertRuleBodySchema.parse({
    name: "Preview",
    view: { dimension: "AS_SRC_INGRESS", filter: [], ipVersion: "all", value: "65010" },
    metric: "bps",
    condition: "above",
    threshold: 10 * MBIT,
    minDurationSeconds: 600,
    hysteresis: 0.1,
    ...extra,
  });

describe("test against the last 7 days", () => {
  it("gives the transitions an independent evaluation of the flows_5m rows gives", async () => {
    const preview = await previewRule(stores, admin, body(), NOW);
    if ("error" in preview) throw new Error(preview.error);
    expect(preview.range).toEqual({ start: START, end: END });
    expect(preview.buckets).toBe(N);
    expect(preview.withData).toBe(N - 3);
    const expected = independent(10 * MBIT, 2, 0.1);
    // The fixture's episodes, so the comparison cannot pass on an empty week.
    expect(expected.map((e) => e.to)).toEqual(["Triggered", "Resolved", "No data", "OK", "No data", "OK", "Triggered"]);
    expect(preview.transitions.map((t) => ({ at: t.at, to: t.to, value: t.value }))).toEqual(expected);
    expect(preview.transitions[0]).toMatchObject({ from: "OK", limit: 10 * MBIT });
    expect(preview.transitions[1]).toMatchObject({ from: "Triggered", limit: 9 * MBIT });
  });

  it("follows the rule's settings: no minimum duration, no hysteresis", async () => {
    const preview = await previewRule(stores, admin, body({ minDurationSeconds: 0, hysteresis: 0 }), NOW);
    if ("error" in preview) throw new Error(preview.error);
    const expected = independent(10 * MBIT, 1, 0);
    expect(expected.filter((e) => e.to === "Triggered")).toHaveLength(5);
    expect(preview.transitions.map((t) => ({ at: t.at, to: t.to, value: t.value }))).toEqual(expected);
  });

  it("is the screen's preview button: formatted in the user's timezone, nothing stored", async () => {
    const out = await runRoute(
      route.action,
      formRequest(
        "/alerts",
        {
          intent: "preview",
          name: "Preview",
          dimension: "AS_SRC_INGRESS",
          value: "65010",
          metric: "bps",
          condition: "above",
          threshold: "10M",
          minDuration: "10",
          hysteresis: "10",
          severity: "warning",
          users: "",
        },
        cookie,
      ),
    );
    expect(out.status).toBe(200);
    const expected = independent(10 * MBIT, 2, 0.1);
    expect(out.data.preview.buckets).toBe(N);
    expect(out.data.preview.transitions).toEqual(
      expected.map((e, i) => ({
        at: formatUnix(e.at, "America/New_York"),
        from: i === 0 ? "OK" : expected[i - 1].to,
        to: e.to,
        value: e.value === null ? "–" : formatBitsPerSecond(e.value),
        limit: e.to === "No data" ? "–" : formatBitsPerSecond(e.to === "Resolved" ? 9 * MBIT : 10 * MBIT),
      })),
    );
    expect(out.data.form.threshold).toBe("10M");
    expect(await stores.pg.db.select().from(alertRules)).toEqual([]);
  });

  it("gives a band rule the evaluator's band for each bucket: the same transitions as the evaluator's samples", async () => {
    const band = body({ condition: "outside_band", threshold: null, bandFactor: 1.5, minDurationSeconds: 0, hysteresis: 0 });
    const preview = await previewRule(stores, admin, band, NOW);
    if ("error" in preview) throw new Error(preview.error);
    // The evaluator's way (evaluate.server.ts): the series, then sampleOf per bucket over the four weeks before it.
    const selected = await ruleSelection(stores, admin, band.view);
    if ("error" in selected) throw new Error(selected.error);
    const readStart = START - BAND_HISTORY_SECONDS;
    const [series] = await readRuleSeries(
      stores,
      [{ selection: selected.selection, metric: "bps" }],
      { start: readStart, end: END },
      OPERATOR,
    );
    const samples = Array.from({ length: N }, (_, i) =>
      sampleOf(series, { conditionKind: "outside_band", bandFactor: 1.5 }, START + i * 300, START + i * 300 - BAND_HISTORY_SECONDS),
    );
    expect(preview.transitions).toEqual(runSeries(logicOfBody(band), samples).transitions);
    // The 20 Mbit/s episodes are outside the band: the rule is triggered in each of them.
    const statusAt = (i: number) => preview.transitions.filter((t) => t.bucketStart <= START + i * 300).at(-1)?.to;
    for (const i of [100, 500, 1500, 1502]) expect(statusAt(i), `bucket ${i}`).toBe("Triggered");
  });

  it("refuses a view outside the user's dimensions next to the view", async () => {
    const preview = await previewRule(stores, admin, body({ view: { dimension: "NOPE", filter: [], ipVersion: "all", value: null } }), NOW);
    expect(preview).toEqual({ error: "Unknown dimension NOPE." });
  });
});
