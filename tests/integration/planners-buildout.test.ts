/**
 * Build-out notices on real stores: links whose daily utilisation grows by exactly 1/64 a day over
 * the last 30 UTC days (flat within each day, so the peak hour of day d is 0.25 + d/64), one flat
 * link, and users who plan them (staff, holders of each planner's permission, delegated accounts,
 * one user without either). Hand-computed: fitted last day 0.25 + 29/64 = 0.703125; the default
 * level 0.95 is reached after (0.95 − 0.703125)·64 = 15.8 → 16 days; at 90 days PERCENT expects
 * (0.703125 + 90/64)·100 = 210.9375 %.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delegationRestrictions, notifications, userPermissions, users } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { buildoutRange, checkBuildouts } from "~/features/planners/buildout-notices.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { updateUserSetting } from "~/server/settings/user-settings.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const NOW = Date.now();
const RANGE = buildoutRange(NOW);
const CAP = 10e9;
const FULL = (CAP * 300) / 8;

let stores: TestStores;
const ids: Record<string, number> = {};

async function user(email: string, extra: { isStaff?: boolean; isDelegated?: boolean; permission?: string } = {}) {
  const [{ id }] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: email.split("@")[0],
      passwordHash: "x",
      isStaff: extra.isStaff ?? false,
      isDelegated: extra.isDelegated ?? false,
    })
    .returning({ id: users.id });
  if (extra.permission) await stores.pg.db.insert(userPermissions).values({ userId: id, permission: extra.permission });
  return id;
}

const told = async (id: number) =>
  (await stores.pg.db.select().from(notifications).where(eq(notifications.userId, id))).map((n) => n.message).sort();

beforeAll(async () => {
  stores = await openTestStores();
  const base = { city: "Berlin", country: "Germany" };
  await createRouter(stores, {
    ...base,
    name: "r2",
    loopback: "192.0.2.2",
    interfaces: [{ name: "c-1", ifindex: 1, capacity: CAP, kind: "core" }],
  });
  await createRouter(stores, {
    ...base,
    name: "r1",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: CAP, kind: "external", peering: "Transit", neighbour_as: 64501 },
      { name: "et-2", ifindex: 2, capacity: CAP, kind: "external", peering: "Peering", neighbour_as: 64502 },
      { name: "c-1", ifindex: 3, capacity: CAP, kind: "core", remote: { router: "r2", interface: "c-1" } },
    ],
  });
  const rows = [];
  for (let t = RANGE.start; t < RANGE.end; t += 300) {
    const d = Math.floor((t - RANGE.start) / DAY);
    const grow = Math.round(FULL * (0.25 + d / 64));
    const tenth = Math.round(FULL * 0.1);
    const fifth = Math.round(FULL * 0.2);
    const common = { time: t, router: "r1", neighbor_asn: 0, capacity_bps: CAP, source: "snmp", interpolated: 0 };
    rows.push({ ...common, interface: "et-1", kind: "external", in_bytes: grow, out_bytes: tenth });
    rows.push({ ...common, interface: "et-2", kind: "external", in_bytes: fifth, out_bytes: fifth });
    rows.push({ ...common, interface: "c-1", kind: "core", in_bytes: tenth, out_bytes: grow });
  }
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: rows });
  ids.staff = await user("staff@b.test", { isStaff: true });
  ids.border = await user("border@b.test", { permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
  ids.core = await user("core@b.test", { permission: "API_LINK_UTIL_INTERNAL" });
  ids.percent = await user("percent@b.test", { permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
  await updateUserSetting(stores.pg.db, ids.percent, "extlinks_buildout_type", "PERCENT");
  await updateUserSetting(stores.pg.db, ids.percent, "extlinks_buildout_threshold", 80);
  ids.nobody = await user("nobody@b.test");
  ids.sees = await user("sees@b.test", { isDelegated: true, permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
  ids.blind = await user("blind@b.test", { isDelegated: true, permission: "FRONTEND_LINK_UTIL_EXTERNAL" });
  await stores.pg.db.insert(delegationRestrictions).values([
    { userId: ids.sees, externalLinksViewsRestrictions: { ASNumberList: [64501], routerList: [], interfaceList: [] } },
    { userId: ids.blind, externalLinksViewsRestrictions: { ASNumberList: [64502], routerList: [], interfaceList: [] } },
  ]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const ET1_DAYS = "et-1 on r1 needs building out in 16 days (your threshold: 90 days). See the Border Planner.";
const CORE_DAYS = "c-1 → r2 c-1 on r1 needs building out in 16 days (your threshold: 90 days). See the Core Planner.";

describe("build-out notices", () => {
  it("tells each planner once per link and crossing, per their own threshold and visibility", async () => {
    const first = await checkBuildouts(stores, NOW);
    expect(first.links).toBe(3);
    expect(await told(ids.staff)).toEqual([CORE_DAYS, ET1_DAYS]);
    expect(await told(ids.border)).toEqual([ET1_DAYS]);
    expect(await told(ids.core)).toEqual([CORE_DAYS]);
    // PERCENT 80: et-1 is past it at the horizon; et-2, flat at 20 %, is not.
    expect(await told(ids.percent)).toEqual(["et-1 on r1 is at 210.9 % utilisation (your threshold: 80 %). See the Border Planner."]);
    expect(await told(ids.nobody)).toEqual([]);
    expect(await told(ids.sees)).toEqual([ET1_DAYS]);
    // Sees only et-2, which does not grow.
    expect(await told(ids.blind)).toEqual([]);
    expect(first.outcomes.notified).toBe(6);

    const again = await checkBuildouts(stores, NOW);
    expect(again.outcomes.notified).toBe(0);
    expect(again.outcomes["already told"]).toBe(6);
    expect(await told(ids.staff)).toHaveLength(2);
  }, 120_000);
});
