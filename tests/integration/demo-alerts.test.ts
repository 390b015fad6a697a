/**
 * The demo's alert rules (db/demo/alerts.ts) on a 3-day demo network, whose one event is the
 * interface outage: its rule watches the transit's backup port, its threshold is just above the
 * port's busiest bucket outside the outage (recomputed here from the flows_5m rows), and
 * "Test against the last 7 days" shows it firing during the outage and resolving after it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "~db/postgres/schema";
import { loadDemoNetwork, type DemoSummary } from "~db/demo/load";
import { previewRule } from "~/features/alerts/preview.server";
import { alertRuleBodySchema } from "~/features/alerts/request-schema";
import { loadUserContext } from "~/server/auth/user-context.server";
import { demoTestNow } from "../helpers/clock";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

const NOW = demoTestNow();
const DAYS = 3;
let stores: TestStores;
let summary: DemoSummary;

beforeAll(async () => {
  stores = await openTestStores();
  summary = await loadDemoNetwork(stores, { now: NOW, days: DAYS });
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("the demo's alert rules", () => {
  it("add a rule on the outage's backup port that fires during the outage and resolves after it", async () => {
    expect(summary.events.map((e) => e.kind)).toEqual(["interface-outage"]);
    const outageAt = Date.parse(summary.events[0].at) / 1000;
    const rules = await stores.pg.db.select().from(schema.alertRules);
    expect(rules).toHaveLength(1);
    const [rule] = rules;
    expect(rule).toMatchObject({ conditionKind: "above", metric: "bps", severity: "critical", enabled: true });
    expect(rule.recipients).toEqual({ userIds: [], groupIds: [], emails: [], webhook: null });
    expect(rule.view.dimension).toBe("INTERFACE_IN");
    const [router, iface] = rule.view.value!.split("|");

    // The threshold: the port's busiest 5 minutes outside the outage, recomputed from the rows.
    const before = await chRows<{ bps: number }>(
      stores,
      `SELECT toFloat64(sum(bytes)) * 8 / 300 AS bps FROM flows_5m
       WHERE ingress_router = {router:String} AND in_if = {iface:String} AND (time < toDateTime({at:UInt32}, 'UTC') OR time >= toDateTime({until:UInt32}, 'UTC'))
       GROUP BY time ORDER BY bps DESC LIMIT 1`,
      { router, iface, at: Math.floor(outageAt / 300) * 300, until: outageAt + 4 * 3600 },
    );
    const peak = Number(before[0].bps);
    expect(rule.threshold!).toBeGreaterThanOrEqual(peak * 1.05);
    expect(rule.threshold!).toBeLessThan(peak * 1.06);

    const admin = (await loadUserContext(stores.pg.db, rule.ownerId))!;
    expect(admin.email).toBe("admin@flowlens.example");
    const body = alertRuleBodySchema.parse({
      name: rule.name,
      view: rule.view,
      metric: "bps",
      condition: "above",
      threshold: rule.threshold,
      minDurationSeconds: rule.minDurationSeconds,
      hysteresis: rule.hysteresis,
    });
    const preview = await previewRule(stores, admin, body, NOW + 40);
    if ("error" in preview) throw new Error(preview.error);
    const fired = preview.transitions.filter((t) => t.to === "Triggered");
    expect(fired.length).toBeGreaterThan(0);
    const outageEnd = outageAt + 4 * 3600;
    // Only during the outage: the threshold is above every bucket outside it.
    for (const t of fired) expect([t.at > outageAt, t.at <= outageEnd]).toEqual([true, true]);
    expect(preview.transitions.some((t) => t.to === "Resolved" && t.at > outageAt && t.at <= outageEnd + 3600)).toBe(true);
  });
});
