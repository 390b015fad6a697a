/**
 * The Revenues & Costs screen on real stores (PGlite, chDB): a month of interface_util_5m rows and
 * two contracts inserted here; the loader's bills, totals and change against the previous month
 * against a recomputation in this file from those rows; the month picker's lenient parsing; the
 * export; the contract actions (create, update, delete with its confirm step) with their field
 * errors, their audit entries and their permissions (MANAGE_CONTRACTS, REVENUES_AND_COSTS, delegated).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, interfaces, userPermissions, users } from "~db/postgres/schema";
import * as screenRoute from "~/routes/_app.revenues-and-costs";
import * as exportRoute from "~/routes/revenues-and-costs.export";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { createRouter } from "~/features/inventory/inventory.server";
import { createContract, listContracts } from "~/features/revenues/contracts.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const now = new Date();
const YEAR = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const MONTH = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const MONTH_KEY = `${YEAR}-${String(MONTH).padStart(2, "0")}`;
const START = Date.UTC(YEAR, MONTH - 1, 1) / 1000;
const END = Date.UTC(YEAR, MONTH, 1) / 1000;
const DAYS = (END - START) / 86400;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);
const mbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e6;
const round2 = (x: number) => Math.round(x * 100) / 100;

type Row = { time: number; interface: string; in_bytes: number; out_bytes: number };
const rows: Row[] = [];
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  // The transit: out-heavy with a daily wave and a spike every 97th interval; every sample present.
  rows.push({
    time: t,
    interface: "et-1",
    in_bytes: bytesOf(200 + (i % 7) * 10),
    out_bytes: bytesOf(1000 + (i % 288) * 4 + (i % 97 === 0 ? 3000 : 0)),
  });
  // The customer: 1 interval in 40 missing (97.5 %: flagged under 99 %).
  if (i % 40 !== 3) rows.push({ time: t, interface: "et-3", in_bytes: bytesOf(100 + (i % 13) * 20), out_bytes: bytesOf(30) });
}

/** Drop the largest value floor(n/20) times, then the largest left. */
function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return Math.max(...left);
}
const billedOf = (iface: string) => {
  const r = rows.filter((x) => x.interface === iface);
  return Math.max(mbpsOf(p95(r.map((x) => x.in_bytes))), mbpsOf(p95(r.map((x) => x.out_bytes))));
};

let stores: TestStores;
let superId: number;
let ids: Record<string, number>;

async function account(email: string, options: { isDelegated?: boolean; isStaff?: boolean; permissions: string[] }) {
  const [{ id }] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: "T",
      passwordHash: "!unusable",
      hasConsented: true,
      isDelegated: options.isDelegated ?? false,
      isStaff: options.isStaff ?? false,
    })
    .returning({ id: users.id });
  for (const permission of options.permissions) await stores.pg.db.insert(userPermissions).values({ userId: id, permission });
  return sessionCookie(stores, id);
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  superId = await insertSuperuser(stores, "finance@example.org");
  await createRouter(stores, {
    name: "r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-3", ifindex: 3, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64510 },
      { name: "et-4", ifindex: 4, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64511 },
    ],
  });
  ids = Object.fromEntries((await stores.pg.db.select().from(interfaces)).map((r) => [r.name, r.id]));
  await chInsert(stores.ch, {
    name: "test.util",
    table: "interface_util_5m",
    values: rows.map((r) => ({
      ...r,
      router: "r1",
      kind: "external",
      neighbor_asn: 0,
      capacity_bps: 10e9,
      source: "snmp",
      interpolated: 0,
    })),
  });
  const by = {
    user: {
      id: superId,
      email: "finance@example.org",
      permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"],
      isDelegated: false,
      isStaff: true,
      isSuperuser: true,
    },
  };
  await createContract(
    stores.pg.db,
    {
      name: "Transit",
      direction: "cost",
      partnerAsn: 3356,
      method: "Max 95th",
      commitMbps: 1000,
      commitPriceEur: 0.5,
      burstPriceEur: 0.6,
      portFeeEur: 300,
      validFrom: "2020-01-01",
      interfaceIds: [ids["et-1"]],
    },
    by,
  );
  await createContract(
    stores.pg.db,
    {
      name: "Customer",
      direction: "revenue",
      partnerAsn: 64510,
      method: "Flatrate",
      flatPriceEur: 2500,
      crossConnectFeeEur: 100,
      validFrom: "2020-01-01",
      interfaceIds: [ids["et-3"]],
    },
    by,
  );
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
});

const load = async (cookie: string, search = `?month=${MONTH_KEY}`) =>
  runRoute(screenRoute.loader, getRequest(`/revenues-and-costs${search}`, cookie));

describe("the Revenues & Costs screen", () => {
  it("shows each bill, the totals and the change against the previous month as recomputed from the rows", async () => {
    const res = await load(await sessionCookie(stores, superId));
    expect(res.status).toBe(200);
    const d = res.data;
    expect(d.month).toBe(MONTH_KEY);
    const transit = d.bills.find((b: { contract: string }) => b.contract === "Transit");
    const customer = d.bills.find((b: { contract: string }) => b.contract === "Customer");
    const tBilled = billedOf("et-1");
    expect(tBilled).toBeGreaterThan(1000);
    expect(transit.billed95thMbps).toBeCloseTo(tBilled, 6);
    const tCost = round2(1000 * 0.5 + (tBilled - 1000) * 0.6 + 300);
    expect(transit.totalEur).toBeCloseTo(tCost, 2);
    expect(transit.perBilledMbpsEur).toBeCloseTo(tCost / tBilled, 6);
    expect([transit.ports, transit.direction, transit.incomplete, transit.completenessLabel]).toEqual([
      "r1 et-1",
      "cost",
      false,
      "100.0 %",
    ]);
    expect(transit.partner).toMatch(/^AS3356\b/);
    const cSamples = rows.filter((r) => r.interface === "et-3").length;
    expect(customer.completeness).toBeCloseTo(cSamples / (DAYS * 288), 9);
    expect(customer.incomplete).toBe(true);
    expect(customer.billed95thMbps).toBeCloseTo(billedOf("et-3"), 6);
    expect(customer.totalEur).toBe(2600);
    expect(d.totals.costEur).toBeCloseTo(tCost, 2);
    expect(d.totals.revenueEur).toBe(2600);
    expect(d.totals.marginEur).toBeCloseTo(2600 - tCost, 2);
    // The month before has no samples: the transit pays its commit and fee, the customer its flat price and fee.
    const prevCost = 1000 * 0.5 + 300;
    expect(d.totals.change.cost).toBe(
      `+€${(tCost - prevCost).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
    expect(d.totals.change.revenue).toBe("€0.00");
    expect(d.totals.previous.cost).toBe("€800.00");
    expect(d.notices).toEqual([`1 of 2 bills rest on a month under 99 % complete: their 95th may change with late data.`]);
    expect(d.contracts.contracts.map((c: { name: string }) => c.name).sort()).toEqual(["Customer", "Transit"]);
  });

  it("takes a malformed month as the current one with a notice, and a month before any data as a notice, never a 500", async () => {
    const cookie = await sessionCookie(stores, superId);
    const bad = await load(cookie, "?month=2024-13");
    expect(bad.status).toBe(200);
    expect(bad.data.notices[0]).toBe(`Month "2024-13" is not a month YYYY-MM: showing ${bad.data.monthLabel}.`);
    const early = await load(cookie, "?month=2001-01");
    expect([early.status, early.data.totals, early.data.bills]).toEqual([200, null, []]);
    expect(early.data.notices[0]).toContain("is before any data");
  });

  it("exports the month's bills as csv with the screen's figures", async () => {
    const res = await exportRoute.loader({
      request: getRequest(`/revenues-and-costs/export?month=${MONTH_KEY}`, await sessionCookie(stores, superId)),
      params: {},
      context: {},
    } as never);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split(/\r?\n/)[0]).toContain("Billed 95th (Mbit/s)");
    expect(text).toContain("Transit");
    const bad = await exportRoute
      .loader({
        request: getRequest(`/revenues-and-costs/export?month=${MONTH_KEY}&format=pdf`, await sessionCookie(stores, superId)),
        params: {},
        context: {},
      } as never)
      .catch((e: unknown) => e);
    expect((bad as Response).status).toBe(400);
  });

  it("is refused to a delegated account whatever it holds, and without REVENUES_AND_COSTS", async () => {
    const delegated = await load(
      await account("customer@example.org", { isDelegated: true, permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"] }),
    );
    expect(delegated.status).not.toBe(200);
    const noc = await load(await account("noc@example.org", { permissions: ["LINK_UTILIZATION_95TH"] }));
    expect(noc.status).not.toBe(200);
  });

  it("does not show or allow contract changes without MANAGE_CONTRACTS as staff", async () => {
    const viewer = await account("viewer@example.org", { permissions: ["REVENUES_AND_COSTS"] });
    expect((await load(viewer)).data.contracts).toBeNull();
    const holder = await account("holder@example.org", { permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"] });
    for (const cookie of [viewer, holder]) {
      const res = await runRoute(
        screenRoute.action,
        formRequest("/revenues-and-costs", { intent: "delete", id: "1", confirm: "yes" }, cookie),
      );
      expect(res.status).toBe(403);
    }
    expect((await listContracts(stores.pg.db)).length).toBe(2);
  });

  it("creates, updates and deletes a contract through the form, with field errors and a confirm step, audited", async () => {
    const cookie = await sessionCookie(stores, superId);
    const post = (fields: Record<string, string>) => runRoute(screenRoute.action, formRequest("/revenues-and-costs", fields, cookie));
    const form = new URLSearchParams({
      intent: "create",
      name: "Peering",
      direction: "cost",
      method: "Max 95th",
      commitMbps: "abc",
      validFrom: "2026-02-30",
      interfaceIds: String(ids["et-4"]),
    });
    const refused = await post(Object.fromEntries(form));
    expect(refused.status).toBe(400);
    expect(refused.data.errors.commitMbps).toBe("The commit must be a number.");
    expect(refused.data.errors.validFrom).toBe("The first day of validity is a date YYYY-MM-DD.");
    expect(refused.data.values.name).toBe("Peering");
    const created = await post({
      intent: "create",
      name: "Peering",
      direction: "cost",
      method: "Flatrate",
      flatPriceEur: "450",
      validFrom: "2024-01-01",
      partnerAsn: "",
      interfaceIds: String(ids["et-4"]),
    });
    expect([created.status, created.data]).toEqual([200, { ok: true, saved: "Contract Peering added." }]);
    const peering = (await listContracts(stores.pg.db)).find((c) => c.name === "Peering")!;
    expect([peering.flatPriceEur, peering.partnerAsn, peering.ports.map((p) => p.interface)]).toEqual([450, null, ["et-4"]]);
    const taken = await post({
      intent: "update",
      id: String(peering.id),
      name: "Peering",
      direction: "cost",
      method: "Flatrate",
      flatPriceEur: "450",
      validFrom: "2024-01-01",
      interfaceIds: String(ids["et-1"]),
    });
    expect(taken.status).toBe(400);
    expect(taken.data.errors.interfaceIds).toContain("an interface is billed by one contract");
    const updated = await post({
      intent: "update",
      id: String(peering.id),
      name: "Peering FRA",
      direction: "cost",
      method: "Flatrate",
      flatPriceEur: "500",
      validFrom: "2024-01-01",
      interfaceIds: String(ids["et-4"]),
    });
    expect(updated.data).toEqual({ ok: true, saved: "Contract Peering FRA saved." });
    const unconfirmed = await post({ intent: "delete", id: String(peering.id) });
    expect(unconfirmed.status).toBe(400);
    expect((await listContracts(stores.pg.db)).some((c) => c.name === "Peering FRA")).toBe(true);
    const confirm = await load(cookie, `?month=${MONTH_KEY}&delete=${peering.id}`);
    expect(confirm.data.contracts.deleteId).toBe(peering.id);
    const deleted = await post({ intent: "delete", id: String(peering.id), confirm: "yes" });
    expect(deleted.data).toEqual({ ok: true, saved: "Contract Peering FRA deleted." });
    expect((await listContracts(stores.pg.db)).map((c) => c.name).sort()).toEqual(["Customer", "Transit"]);
    const missing = await post({ intent: "delete", id: String(peering.id), confirm: "yes" });
    expect(missing.status).toBe(404);
    const audit = await stores.pg.db.select().from(auditLog);
    expect(audit.filter((a) => JSON.stringify(a).includes("Peering")).length).toBeGreaterThanOrEqual(3);
  });
  it("shows the previous month as closed and recomputes it through the form for staff only, confirmed, audited", async () => {
    const cookie = await sessionCookie(stores, superId);
    const screen = await load(cookie, `?month=${MONTH_KEY}`);
    expect(screen.data.closed).toMatchObject({ recomputedAt: null, recomputedBy: null });
    expect(screen.data.closed.closedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const viewer = await account("reader@example.org", { permissions: ["REVENUES_AND_COSTS"] });
    const refused = await runRoute(
      screenRoute.action,
      formRequest("/revenues-and-costs", { intent: "recompute", month: MONTH_KEY, confirm: "yes" }, viewer),
    );
    expect(refused.status).toBe(403);
    const post = (fields: Record<string, string>) => runRoute(screenRoute.action, formRequest("/revenues-and-costs", fields, cookie));
    const unconfirmed = await post({ intent: "recompute", month: MONTH_KEY });
    expect([unconfirmed.status, unconfirmed.data.errors[""]]).toEqual([
      400,
      "Confirm the recompute first: the month's frozen bills are replaced.",
    ]);
    const open = await post({
      intent: "recompute",
      month: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`,
      confirm: "yes",
    });
    expect(open.status).toBe(400);
    const done = await post({ intent: "recompute", month: MONTH_KEY, confirm: "yes", reason: "late samples" });
    expect(done.status).toBe(200);
    expect(done.data.saved).toMatch(new RegExp(`^Bills of ${MONTH_KEY} recomputed: cost `));
    expect((await load(cookie, `?month=${MONTH_KEY}`)).data.closed.recomputedBy).toBe("finance@example.org");
    const audit = await stores.pg.db.select().from(auditLog);
    expect(audit.filter((a) => a.action === "bill.recompute").map((a) => a.after?.reason)).toEqual(["late samples"]);
  });
});
