/**
 * The usage screen (/site-settings/usage) through its route module: staff and superusers only; per
 * week (Monday, UTC) and target, the events and distinct users, each recomputed here from the usage
 * rows the test inserted (weeks counted from an epoch Monday, not by the code under test); targets
 * shown with the screen's menu label (aliases included) or the tool and action; the week choice
 * bounds what is shown and a week count it does not offer is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageEvents, users } from "~db/postgres/schema";
import * as route from "~/routes/_app.site-settings_.usage";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/site-settings/usage";
const DAY = 86_400_000;
const WEEK = 7 * DAY;
const EPOCH_MONDAY = Date.UTC(1970, 0, 5);
const weekIndex = (t: number) => Math.floor((t - EPOCH_MONDAY) / WEEK);
const weekKey = (i: number) => new Date(EPOCH_MONDAY + i * WEEK).toISOString().slice(0, 10);

let stores: TestStores;
const cookies = { admin: "", user: "" };
const now = Date.now();
type Row = { user: number; target: string; at: Date };
let rows: Row[] = [];

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const admin = await insertSuperuser(stores, "admin@example.org");
  const inserted = await stores.pg.db
    .insert(users)
    .values([
      { email: "ana@example.org", passwordHash: "unused", hasConsented: true, consentedAt: new Date() },
      { email: "ben@example.org", passwordHash: "unused", hasConsented: true, consentedAt: new Date() },
    ])
    .returning({ id: users.id });
  const [ana, ben] = inserted.map((r) => r.id);
  const at = (daysAgo: number, hour = 0) => new Date(now - daysAgo * DAY - hour * 3_600_000);
  rows = [
    { user: ana, target: "/rna", at: at(0) },
    { user: ana, target: "/rna", at: at(0, 1) },
    { user: ben, target: "/rna", at: at(1) },
    { user: ben, target: "/links", at: at(2) },
    { user: ana, target: "/core-planner", at: at(3) },
    { user: ana, target: "flow-explorer.export-csv", at: at(4) },
    { user: admin, target: "/site-settings/error-reports", at: at(5) },
    { user: ben, target: "/rna", at: at(8) },
    { user: ben, target: "/rna", at: at(9) },
    { user: ana, target: "/flow-explorer", at: at(12) },
    { user: ana, target: "/flow-explorer", at: at(20) },
    { user: ben, target: "/flow-explorer", at: at(21) },
    { user: ben, target: "/flow-explorer", at: at(40) },
    { user: ana, target: "/rna", at: at(60) },
  ];
  await stores.pg.db.insert(usageEvents).values(rows.map((r) => ({ userId: r.user, target: r.target, createdAt: r.at })));
  cookies.admin = await sessionCookie(stores, admin);
  cookies.user = await sessionCookie(stores, ana);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

/** The report as the inserted rows give it: the newest week first, then the most used, then by target. */
function expected(weeks: number) {
  const first = weekIndex(now) - (weeks - 1);
  const groups = new Map<string, { week: number; target: string; events: number; users: Set<number> }>();
  for (const r of rows) {
    const w = weekIndex(r.at.getTime());
    if (w < first) continue;
    const key = `${w} ${r.target}`;
    const g = groups.get(key) ?? { week: w, target: r.target, events: 0, users: new Set<number>() };
    g.events += 1;
    g.users.add(r.user);
    groups.set(key, g);
  }
  const sorted = [...groups.values()].sort((a, b) => b.week - a.week || b.events - a.events || (a.target < b.target ? -1 : 1));
  const byWeek = new Map<string, { target: string; events: number; users: number }[]>();
  for (const g of sorted) {
    const list = byWeek.get(weekKey(g.week)) ?? [];
    list.push({ target: g.target, events: g.events, users: g.users.size });
    byWeek.set(weekKey(g.week), list);
  }
  return [...byWeek.entries()].map(([week, targets]) => ({ week, targets }));
}

const figures = (report: { week: string; targets: { target: string; events: number; users: number }[] }[]) =>
  report.map((w) => ({ week: w.week, targets: w.targets.map(({ target, events, users }) => ({ target, events, users })) }));

describe("the usage screen", () => {
  it("is for staff and superusers only", async () => {
    expect((await runRoute(route.loader, getRequest(PATH, cookies.user))).status).toBe(403);
    expect((await runRoute(route.loader, getRequest(PATH))).status).toBe(302);
    expect((await runRoute(route.loader, getRequest(PATH, cookies.admin))).status).toBe(200);
  });

  it("counts uses and distinct users per week and target, for each week choice", async () => {
    for (const weeks of [1, 4, 13]) {
      const { status, data } = await runRoute(route.loader, getRequest(`${PATH}?weeks=${weeks}`, cookies.admin));
      expect(status).toBe(200);
      expect(data.weeks).toBe(weeks);
      const want = expected(weeks);
      expect(want.length).toBeGreaterThan(0);
      expect(figures(data.report)).toEqual(want);
      for (const w of data.report) expect(w.events).toBe(w.targets.reduce((s: number, t: { events: number }) => s + t.events, 0));
    }
    // The default is four weeks; 13 weeks reach the event of 60 days ago, four do not.
    const { data } = await runRoute(route.loader, getRequest(PATH, cookies.admin));
    expect(figures(data.report)).toEqual(expected(4));
    const all = (await runRoute(route.loader, getRequest(`${PATH}?weeks=13`, cookies.admin))).data;
    const total = (r: { targets: { events: number }[] }[]) => r.flatMap((w) => w.targets).reduce((s, t) => s + t.events, 0);
    expect(total(all.report)).toBe(rows.length);
    expect(total(data.report)).toBeLessThan(rows.length);
  });

  it("shows each target with the name people read", async () => {
    const { data } = await runRoute(route.loader, getRequest(`${PATH}?weeks=13`, cookies.admin));
    const labels = new Map<string, string>(
      data.report.flatMap((w: { targets: { target: string; label: string }[] }) => w.targets.map((t) => [t.target, t.label])),
    );
    expect(labels.get("/rna")).toBe("Raw Network Analyzer");
    expect(labels.get("/links")).toBe("Core Planner");
    expect(labels.get("/core-planner")).toBe("Core Planner");
    expect(labels.get("flow-explorer.export-csv")).toBe("Flow Explorer: export csv");
    expect(labels.get("/site-settings/error-reports")).toBe("Error reports");
    expect(data.report[0].label).toMatch(/^Week of \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  });

  it("refuses a week count it does not offer with a 400", async () => {
    for (const bad of ["0", "2", "abc", "", "1000"])
      expect([bad, (await runRoute(route.loader, getRequest(`${PATH}?weeks=${bad}`, cookies.admin))).status]).toEqual([bad, 400]);
  });
});
