/**
 * The alert rules' evaluation on fixed flows: the newest complete bucket only, N rules of the same
 * range and window in one grouped query (the door's per-name query counter), values checked against
 * an independent recomputation from the flows_5m rows, one event and one notification per
 * transition with two evaluators at once and a re-evaluation (a restart), and a delegated owner's
 * rules evaluated inside the restriction as it is at evaluation time.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alertEvents,
  alertRules,
  alertState,
  asInfo,
  delegationRestrictions,
  notifications,
  userPermissions,
  users,
} from "~db/postgres/schema";
import type { AlertRuleView } from "~db/postgres/schema";
import { evaluateAlerts, newestCompleteBucket, readRuleSeries, ruleSelection } from "~/features/alerts/evaluate.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { chInsert, observeQueries } from "~/server/clickhouse/query.server";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { insertSuperuser } from "../helpers/users";
import { openTestStores, type TestStores } from "../helpers/stores";

const OPERATOR = 64500;
const TRANSIT = 3356;
const DAY_AGO = Math.floor(Date.now() / 1000) - 86_400;
const B = DAY_AGO - (DAY_AGO % 300);
/** An instant at which B is the newest complete bucket (its end + flush + margin have passed). */
const NOW = B + 300 + 40;

let stores: TestStores;
let admin = 0;
let delegated = 0;
let rows: FlowRow[] = [];

const flow = (time: number, as_src: number, bytes: number, packets: number, ip_version = 4) => ({
  time,
  ip_version,
  as_src,
  as_hnd: TRANSIT,
  as_nxt: OPERATOR,
  as_dst: OPERATOR,
  ingress_router: "r1",
  in_if: "et-1",
  bytes,
  packets,
  flows: 1,
});

const view = (value: string | null, extra: Partial<AlertRuleView> = {}): AlertRuleView => ({
  dimension: "AS_SRC_INGRESS",
  filter: [],
  ipVersion: "all",
  value,
  ...extra,
});

async function addRule(
  ownerId: number,
  name: string,
  v: AlertRuleView,
  condition: { kind: "above" | "below"; threshold: number; metric?: "bps" | "pps" },
) {
  const [rule] = await stores.pg.db
    .insert(alertRules)
    .values({
      ownerId,
      name,
      view: v,
      metric: condition.metric ?? "bps",
      conditionKind: condition.kind,
      threshold: condition.threshold,
      recipients: { userIds: [ownerId], groupIds: [], emails: [], webhook: null },
    })
    .returning();
  return rule.id;
}

/** bit/s of the rows of bucket `t` that `keep` selects: the independent recomputation. */
const bpsOf = (t: number, keep: (r: FlowRow) => boolean) =>
  (Number(rows.filter((r) => r.time === t && r.as_hnd !== OPERATOR && keep(r)).reduce((a, r) => a + r.bytes, 0n)) * 8) / 300;

beforeAll(async () => {
  stores = await openTestStores();
  await stores.pg.db.insert(asInfo).values({ asn: OPERATOR, name: "Operator", category: "operator" });
  await chInsert(stores.ch, {
    name: "test.flows",
    table: "flows_5m",
    values: [
      flow(B - 300, 65010, 30_000_000, 30_000),
      flow(B, 65010, 75_000_000, 60_000),
      flow(B, 65020, 15_000_000, 20_000),
      flow(B, 65030, 3_000_000, 3_000, 6),
      // Newer than the newest complete bucket at NOW: never evaluated then.
      flow(B + 300, 65010, 900_000_000, 900_000),
      flow(B + 300, 65030, 6_000_000, 6_000),
    ],
  });
  rows = await readFlowRows(stores, { start: B - 300, end: B + 600 });
  admin = await insertSuperuser(stores, "noc@alerts.test");
  const [d] = await stores.pg.db
    .insert(users)
    .values({ email: "customer@alerts.test", firstName: "C", passwordHash: "!unusable", hasConsented: true, isDelegated: true })
    .returning({ id: users.id });
  delegated = d.id;
  await stores.pg.db
    .insert(userPermissions)
    .values(["API_FLOWS_4D", "VIEW_ALERTS", "MANAGE_ALERTS"].map((permission) => ({ userId: delegated, permission })));
  await stores.pg.db.insert(delegationRestrictions).values({
    userId: delegated,
    flowsViewsRestrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: ["65010"], output: "AS_DST_INGRESS" }],
  });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("alert evaluation", () => {
  it("evaluates the newest complete bucket: end + collector flush + margin", () => {
    expect(newestCompleteBucket(NOW)).toBe(B);
    expect(newestCompleteBucket(B + 300 + 34)).toBe(B - 300);
  });

  it("reads N rules in one grouped query; each rule's value is the independent recomputation; transitions once", async () => {
    const ids = {
      hot: await addRule(admin, "65010 above 1.5 Mbit/s", view("65010"), { kind: "above", threshold: 1.5e6 }),
      calm: await addRule(admin, "65020 above 1 Gbit/s", view("65020"), { kind: "above", threshold: 1e9 }),
      total: await addRule(admin, "All ingress below 10 Gbit/s", view(null), { kind: "below", threshold: 10e9 }),
      pps: await addRule(admin, "65010 above 150 packets/s", view("65010"), { kind: "above", threshold: 150, metric: "pps" }),
      v6: await addRule(admin, "IPv6 of 65010", view("65010", { ipVersion: "6" }), { kind: "above", threshold: 0 }),
      delegatedTotal: await addRule(delegated, "My traffic above 1 bit/s", view(null), { kind: "above", threshold: 1 }),
      outside: await addRule(delegated, "Someone else's", view("65020"), { kind: "above", threshold: 0 }),
    };
    const names: string[] = [];
    const stop = observeQueries((e) => names.push(e.name));
    let reports;
    try {
      // Two evaluators at once on the same database, then a third (a restart) on the same bucket.
      reports = await Promise.all([evaluateAlerts(stores, NOW), evaluateAlerts(stores, NOW)]);
      reports.push(await evaluateAlerts(stores, NOW));
    } finally {
      stop();
    }
    // One grouped query per evaluation for the seven rules of the same range and window.
    expect(names.filter((n) => n === "alerts.evaluate")).toHaveLength(3);
    expect(reports.map((r) => r.queries)).toEqual([1, 1, 1]);
    expect(reports.map((r) => r.bucket)).toEqual([B, B, B]);

    const state = async (id: number) => (await stores.pg.db.select().from(alertState).where(eq(alertState.ruleId, id)))[0];
    const events = async (id: number) => stores.pg.db.select().from(alertEvents).where(eq(alertEvents.ruleId, id));

    const hot = await state(ids.hot);
    expect(hot.status).toBe("Triggered");
    expect(hot.crossingValue).toBeCloseTo(
      bpsOf(B, (r) => r.as_src === 65010),
      6,
    );
    expect(hot.lastBucket).toBe(B);
    expect((await state(ids.calm)).status).toBe("OK");
    const total = await state(ids.total);
    expect([total.status, total.crossingValue]).toEqual(["Triggered", bpsOf(B, () => true)]);
    const pps = await state(ids.pps);
    expect([pps.status, pps.crossingValue]).toEqual(["Triggered", 60_000 / 300]);
    // No IPv6 row of 65010 in the bucket: No data, not a trigger of "above 0".
    expect((await state(ids.v6)).status).toBe("No data");
    // The delegated owner's total is its restriction's traffic only (65010), not 65020's or 65030's.
    const mine = await state(ids.delegatedTotal);
    expect([mine.status, mine.crossingValue]).toEqual(["Triggered", bpsOf(B, (r) => r.as_src === 65010)]);
    // A value outside the restriction is not read for it: No data.
    expect((await state(ids.outside)).status).toBe("No data");

    // One event and one notification per transition, whatever the number of evaluators.
    expect((await events(ids.hot)).map((e) => [e.fromStatus, e.toStatus, e.bucketStart, e.at])).toEqual([["OK", "Triggered", B, B + 300]]);
    const told = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, admin));
    expect(told.map((n) => n.title).sort()).toEqual(
      [
        "Alert Triggered (warning): 65010 above 1.5 Mbit/s",
        "Alert Triggered (warning): 65010 above 150 packets/s",
        "Alert Triggered (warning): All ingress below 10 Gbit/s",
        "Alert No data (warning): IPv6 of 65010",
      ].sort(),
    );
    const toldDelegated = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, delegated));
    expect(toldDelegated).toHaveLength(2);
  });

  it("a narrowed restriction narrows the rule at evaluation time", async () => {
    const owner = (await loadUserContext(stores.pg.db, delegated))!;
    const before = await ruleSelection(stores, owner, view(null));
    if ("error" in before) throw new Error(before.error);
    await stores.pg.db
      .update(delegationRestrictions)
      .set({ flowsViewsRestrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: ["65030"], output: "AS_DST_INGRESS" }] })
      .where(eq(delegationRestrictions.userId, delegated));
    const after = await ruleSelection(stores, (await loadUserContext(stores.pg.db, delegated))!, view(null));
    if ("error" in after) throw new Error(after.error);
    const range = { start: B, end: B + 600 };
    const [was, now] = await readRuleSeries(
      stores,
      [
        { selection: before.selection, metric: "bps" },
        { selection: after.selection, metric: "bps" },
      ],
      range,
      OPERATOR,
    );
    expect(was.get(B + 300)).toBeCloseTo(
      bpsOf(B + 300, (r) => r.as_src === 65010),
      6,
    );
    expect(now.get(B + 300)).toBeCloseTo(
      bpsOf(B + 300, (r) => r.as_src === 65030),
      6,
    );
    expect(now.get(B)).toBeCloseTo(
      bpsOf(B, (r) => r.as_src === 65030),
      6,
    );
  });
});
