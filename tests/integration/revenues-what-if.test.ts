/**
 * The what-if of Revenues & Costs on real stores (PGlite, chDB): a month of interface_util_5m samples on two
 * transit ports, one AS's flows_5m bytes on the first, two Max 95th contracts; half of the AS's traffic moved
 * to the second transit. Both bills are recomputed here from the rows, interval by interval (95th = the value
 * left after dropping the top 5 % of the samples), and compared with whatIfOfMonth and with the screen's table;
 * the form's refusals name their field; the 12-month history's totals of the month against the same recomputation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { createContract, listContracts } from "~/features/revenues/contracts.server";
import { formatEur, formatMbps } from "~/features/revenues/format";
import { whatIfOfMonth } from "~/features/revenues/what-if.server";
import * as screenRoute from "~/routes/_app.revenues-and-costs";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const now = new Date();
const YEAR = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const MONTH = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const MONTH_KEY = `${YEAR}-${String(MONTH).padStart(2, "0")}`;
const START = Date.UTC(YEAR, MONTH - 1, 1) / 1000;
const END = Date.UTC(YEAR, MONTH, 1) / 1000;
const ASN = 2906;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);
const mbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e6;

type Sample = { t: number; inB: number; outB: number };
const portA: Sample[] = [];
const portB: Sample[] = [];
const asX = new Map<number, number>();
for (let t = START; t < END; t += 300) {
  const i = (t - START) / 300;
  // The AS bursts in the evening (a 7 % share of the intervals: it sets A's 95th) and is quiet otherwise.
  const x = bytesOf(i % 288 >= 250 && i % 288 < 270 ? 900 : 50 + (i % 11));
  asX.set(t, x);
  portA.push({ t, inB: bytesOf(400 + (i % 13) * 5) + x, outB: bytesOf(120) });
  portB.push({ t, inB: bytesOf(300 + (i % 17) * 4), outB: bytesOf(90) });
}

function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return Math.max(...left);
}
const billedMbps = (s: Sample[]) => Math.max(mbpsOf(p95(s.map((x) => x.inB))), mbpsOf(p95(s.map((x) => x.outB))));
const TERMS = {
  A: { commitMbps: 1000, commitPriceEur: 0.3, burstPriceEur: 0.4, portFeeEur: 250 },
  B: { commitMbps: 500, commitPriceEur: 0.25, burstPriceEur: 0.35, portFeeEur: 200 },
};
const charges = (billed: number, t: (typeof TERMS)["A"]) =>
  Math.round((t.commitMbps * t.commitPriceEur + Math.max(0, billed - t.commitMbps) * t.burstPriceEur + t.portFeeEur) * 100) / 100;

let stores: TestStores;
let cookie: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const superId = await insertSuperuser(stores, "finance@example.org");
  cookie = await sessionCookie(stores, superId);
  await createRouter(stores, {
    name: "r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-2", ifindex: 2, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 1299 },
    ],
  });
  for (const row of await stores.pg.db.select().from(interfaces)) ids[row.name] = row.id;
  const util = (iface: string, s: Sample[]) =>
    s.map((x) => ({
      time: x.t,
      router: "r1",
      interface: iface,
      in_bytes: x.inB,
      out_bytes: x.outB,
      kind: "external",
      neighbor_asn: 0,
      capacity_bps: 10e9,
      source: "snmp",
      interpolated: 0,
    }));
  await chInsert(stores.ch, { name: "test.util", table: "interface_util_5m", values: [...util("et-1", portA), ...util("et-2", portB)] });
  await chInsert(stores.ch, {
    name: "test.flows",
    table: "flows_5m",
    values: [...asX].map(([time, bytes]) => ({
      time,
      ip_version: 4,
      as_src: ASN,
      as_hnd: 3356,
      as_nxt: 64500,
      as_dst: 64500,
      ingress_router: "r1",
      in_if: "et-1",
      bytes,
      packets: Math.round(bytes / 1000),
      flows: 1,
    })),
  });
  await chInsert(stores.ch, { name: "test.tracked", table: "tracked_as", values: [{ asn: ASN, rank: 1, updated_at: START }] });
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
  for (const [name, iface, t] of [
    ["Transit A", "et-1", TERMS.A],
    ["Transit B", "et-2", TERMS.B],
  ] as const)
    ids[name] = (
      await createContract(
        stores.pg.db,
        { name, direction: "cost", method: "Max 95th", ...t, validFrom: "2020-01-01", interfaceIds: [ids[iface]] },
        by,
      )
    ).id;
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
});

/** The independent recomputation: half of the AS's bytes taken off A and added to B in every interval. */
function expected(share: number) {
  const movedA = portA.map((s) => ({ ...s, inB: s.inB - share * asX.get(s.t)! }));
  const movedB = portB.map((s) => ({ ...s, inB: s.inB + share * asX.get(s.t)! }));
  return {
    A: { before: billedMbps(portA), after: billedMbps(movedA) },
    B: { before: billedMbps(portB), after: billedMbps(movedB) },
  };
}

describe("what-if on the stores", () => {
  it("bills both contracts again on the moved 5-minute series, as recomputed from the rows", async () => {
    const r = await whatIfOfMonth(stores, await listContracts(stores.pg.db), YEAR, MONTH, {
      asn: ASN,
      fromId: ids["Transit A"],
      toId: ids["Transit B"],
      share: 0.5,
    });
    const e = expected(0.5);
    const [a, b] = r.sides;
    expect(a.before.billedBps! / 1e6).toBeCloseTo(e.A.before, 6);
    expect(a.after.billedBps! / 1e6).toBeCloseTo(e.A.after, 6);
    expect(b.before.billedBps! / 1e6).toBeCloseTo(e.B.before, 6);
    expect(b.after.billedBps! / 1e6).toBeCloseTo(e.B.after, 6);
    expect([a.before.totalEur, a.after.totalEur]).toEqual([charges(e.A.before, TERMS.A), charges(e.A.after, TERMS.A)]);
    expect([b.before.totalEur, b.after.totalEur]).toEqual([charges(e.B.before, TERMS.B), charges(e.B.after, TERMS.B)]);
    // The AS's bursts set A's 95th: halving them lowers it by far more than half the AS's mean.
    const meanX = mbpsOf([...asX.values()].reduce((s, x) => s + x, 0) / asX.size);
    expect(e.A.before - e.A.after).toBeGreaterThan(meanX);
    expect(r.movedMeanBps / 1e6).toBeCloseTo(meanX / 2, 6);
    const margin = -(a.after.totalEur - a.before.totalEur) - (b.after.totalEur - b.before.totalEur);
    expect(r.marginChangeEur).toBeCloseTo(margin, 2);
    expect(r.notices).toEqual([]);
  });

  it("shows the same figures on the screen from the URL's what-if", async () => {
    const q = `?month=${MONTH_KEY}&whatIfAs=AS${ASN}&whatIfFrom=${ids["Transit A"]}&whatIfTo=${ids["Transit B"]}&whatIfShare=50`;
    const res = await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs${q}`, cookie));
    expect(res.status).toBe(200);
    const w = res.data.whatIf;
    expect(w.errors).toEqual({});
    const e = expected(0.5);
    expect(w.result.rows.map((r: { contract: string; before95th: string; before: string; after: string }) => r)).toMatchObject([
      {
        contract: "Transit A",
        before95th: formatMbps(e.A.before),
        before: formatEur(charges(e.A.before, TERMS.A)),
        after: formatEur(charges(e.A.after, TERMS.A)),
      },
      {
        contract: "Transit B",
        before95th: formatMbps(e.B.before),
        before: formatEur(charges(e.B.before, TERMS.B)),
        after: formatEur(charges(e.B.after, TERMS.B)),
      },
    ]);
    expect(w.result.rows[0].after95th.startsWith(formatMbps(e.A.after))).toBe(true);
    expect(w.result.summary).toContain("50 % of the traffic of AS2906");
  });

  it("names the field of a refused what-if, never a 500", async () => {
    const ask = async (p: string) =>
      (await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs?month=${MONTH_KEY}&${p}`, cookie))).data.whatIf;
    const a = ids["Transit A"];
    const b = ids["Transit B"];
    expect((await ask(`whatIfAs=abc&whatIfFrom=${a}&whatIfTo=${b}`)).errors.as).toBe("The AS is a number such as 2906 or AS2906.");
    expect((await ask(`whatIfAs=2906&whatIfFrom=${a}&whatIfTo=${a}`)).errors.to).toBe(
      "The traffic moves to another contract than the one it leaves.",
    );
    expect((await ask(`whatIfAs=2906&whatIfFrom=${a}&whatIfTo=${b}&whatIfShare=0`)).errors.share).toBe(
      "The share moved is a percentage above 0 and at most 100.",
    );
    expect((await ask(`whatIfAs=2906&whatIfFrom=999&whatIfTo=${b}`)).errors.from).toBe("Choose a contract billed this month.");
    expect((await ask(`whatIfAs=64999&whatIfFrom=${a}&whatIfTo=${b}`)).errors.as).toBe(
      "AS64999 is outside the tracked set: the flows keep its traffic in Others, so it cannot be moved on its own.",
    );
    // Not asked: the form only, with the month's contracts to choose from.
    const none = (await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs?month=${MONTH_KEY}`, cookie))).data.whatIf;
    expect(none.result).toBeNull();
    expect(none.options.map((o: { label: string }) => o.label)).toEqual(["Transit A (cost)", "Transit B (cost)"]);
  });

  it("shows the last 12 months: the month's totals as recomputed from the rows, frozen once over, the months before any data without bills", async () => {
    const res = await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs?month=${MONTH_KEY}&history=12`, cookie));
    const history = res.data.history as { key: string; costEur: number | null; revenueEur: number | null; closed: boolean; cost: string }[];
    expect(history.map((h) => h.key)).toHaveLength(12);
    expect(history[11].key).toBe(MONTH_KEY);
    const e = expected(0);
    const cost = Math.round((charges(e.A.before, TERMS.A) + charges(e.B.before, TERMS.B)) * 100) / 100;
    expect([history[11].costEur, history[11].revenueEur, history[11].closed, history[11].cost]).toEqual([cost, 0, true, formatEur(cost)]);
    expect(history.slice(0, 11).every((h) => h.costEur === null && !h.closed)).toBe(true);
    // Not asked: not computed.
    expect((await runRoute(screenRoute.loader, getRequest(`/revenues-and-costs?month=${MONTH_KEY}`, cookie))).data.history).toBeNull();
  });
});
