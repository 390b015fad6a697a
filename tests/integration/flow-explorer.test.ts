/**
 * The Flow Explorer screen's loader (/flow-explorer), its alias (/as-flows) and its CSV export
 * (api/flows/export) on a 2-day demo network, checked against independent sums of flows_5m rows
 * read with a plain SELECT.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ASN } from "~db/demo/catalog";
import { userFeatureFlags, userPermissions, userSettings, users } from "~db/postgres/schema";
import { SANKEY_NEEDS_PERMISSION } from "~/features/flows/explorer.server";
import { invalidInput, negatedFilterReplaced } from "~/lib/messages";
import * as aliasRoute from "~/routes/_app.as-flows";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import * as exportRoute from "~/routes/api.flows.export";
import { useServicesForTests } from "~/server/services.server";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { openDemoStores } from "../helpers/demo-template";
import { chRows, type TestStores } from "../helpers/stores";
import { demoTestNow, utcDays } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const DATES = utcDays(RANGE);

type Row = FlowRow;
type TableRow = { key: string; name: string; bps: number; bytes: string };

let stores: TestStores;
let rows: Row[];
let operatorId = 0;
let cookie = "";
/** API_FLOWS_4D without SANKEY_TOPOLOGY. */
let noSankeyCookie = "";

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  rows = await readFlowRows(stores, RANGE);
  operatorId = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "operator@flowlens.example")))[0].id;
  cookie = await sessionCookie(stores, operatorId);
  const [noSankey] = await stores.pg.db
    .insert(users)
    .values({ email: "nosankey@explorer.test", firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values({ userId: noSankey.id, permission: "API_FLOWS_4D" });
  noSankeyCookie = await sessionCookie(stores, noSankey.id);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const ingress = (r: Row) => r.as_hnd !== OPERATOR_ASN;
/** bit/s over RANGE of the rows. */
const bps = (list: Row[]) => (Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8) / (RANGE.end - RANGE.start);

function search(extra: Record<string, string | string[]> = {}): string {
  const p = new URLSearchParams({ dimension: "AS_SRC_INGRESS", start: String(RANGE.start), end: String(RANGE.end) });
  for (const [k, v] of Object.entries(extra)) {
    p.delete(k);
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  }
  return p.toString();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function screen(extra: Record<string, string | string[]> = {}, as = cookie): Promise<any> {
  const request = new Request(`${ORIGIN}/flow-explorer?${search(extra)}`, { headers: { Cookie: as, Accept: "text/html" } });
  const out = await runRoute(explorerRoute.loader, request);
  expect(out.status).toBe(200);
  return out.data;
}

async function exportCsv(extra: Record<string, string | string[]> = {}, as = cookie) {
  const request = new Request(`${ORIGIN}/api/flows/export?${search(extra)}`, { headers: { Cookie: as } });
  return (await exportRoute.loader({ request, params: {}, context: {} })) as Response;
}

describe("Flow Explorer loader", () => {
  it("each view says which traffic its total counts, and the total is that traffic (one dimension of each kind)", async () => {
    const egress = (r: FlowRow) => r.as_hnd === OPERATOR_ASN && r.as_nxt !== OPERATOR_ASN;
    const cases = [
      { dimension: "AS_SRC_INGRESS", code: "INGRESS", rows: rows.filter(ingress) },
      { dimension: "AS_NEIGHBOR_EGRESS", code: "EGRESS", rows: rows.filter(egress) },
      { dimension: "ROUTER_OUT", code: "ALL", rows },
    ] as const;
    for (const c of cases) {
      const data = await screen({ dimension: c.dimension });
      expect(data.traffic?.code).toBe(c.code);
      expect(data.total / bps([...c.rows])).toBeCloseTo(1, 9);
    }
    // A positive filter on an ingress AS narrows a router view to ingress traffic.
    const filtered = await screen({ dimension: "ROUTER_OUT", filter: "AS_SRC_INGRESS:2906" });
    expect(filtered.traffic).toEqual({ code: "INGRESS", label: "ingress traffic (entering the network from neighbours)" });
    expect(filtered.total / bps(rows.filter((r) => ingress(r) && r.as_src === 2906))).toBeCloseTo(1, 9);
  });

  it("a view with a direction says what it leaves out of the range's traffic, and links to the view that shows it", async () => {
    const egress = (r: FlowRow) => r.as_hnd === OPERATOR_ASN && r.as_nxt !== OPERATOR_ASN;
    const fromAccess = (r: FlowRow) => r.as_hnd === OPERATOR_ASN;
    const close = (actual: number, expected: number) =>
      expected === 0 ? expect(actual).toBe(0) : expect(actual / expected).toBeCloseTo(1, 9);

    // An ingress view leaves out what enters from access interfaces: the operator's own traffic.
    const ingressView = await screen();
    expect(ingressView.traffic.code).toBe("INGRESS");
    expect(bps(rows.filter(fromAccess))).toBeGreaterThan(1e9);
    close(ingressView.leftOut.bps, bps(rows) - bps(rows.filter(ingress)));
    close(ingressView.leftOut.fromAccessBps, bps(rows.filter(fromAccess)));
    expect(ingressView.leftOut.fromNeighboursBps).toBe(0);
    expect(ingressView.leftOut.text).toMatch(/^\d[\d.]* [kMGT]?bit\/s entering from access interfaces$/);
    // The link keeps the range and opens the view that counts all traffic: its total is both together.
    expect(ingressView.leftOut.link.label).toBe("Ingress router view");
    const href = new URL(ingressView.leftOut.link.href, ORIGIN);
    expect(href.pathname).toBe("/flow-explorer");
    expect([...href.searchParams].sort()).toEqual([...new URLSearchParams(search({ dimension: "ROUTER_IN" }))].sort());
    const linked = await screen(Object.fromEntries(href.searchParams));
    expect(linked.traffic.code).toBe("ALL");
    expect(linked.leftOut).toBeNull();
    close(linked.total, ingressView.total + ingressView.leftOut.bps);

    // An egress view leaves out what enters from neighbours (and what never leaves the network).
    const egressView = await screen({ dimension: "AS_NEIGHBOR_EGRESS", filter: "ROUTER_OUT:!fra-er1", ipVersion: "4" });
    const selected = rows.filter((r) => r.egress_router !== "fra-er1" && r.ip_version === 4);
    expect(egressView.traffic.code).toBe("EGRESS");
    close(egressView.leftOut.bps, bps(selected) - bps(selected.filter(egress)));
    close(egressView.leftOut.fromNeighboursBps, bps(selected.filter(ingress)));
    close(egressView.leftOut.fromAccessBps, bps(selected.filter((r) => fromAccess(r) && !egress(r))));
    expect(egressView.leftOut.text).toMatch(/entering from neighbours/);
    const kept = new URL(egressView.leftOut.link.href, ORIGIN).searchParams;
    expect([kept.get("dimension"), kept.getAll("filter"), kept.get("ipVersion")]).toEqual(["ROUTER_IN", ["ROUTER_OUT:!fra-er1"], "4"]);

    // Without the interface dimensions the link goes to the protocol view; a view without direction leaves nothing out.
    const noInterfaces = await screen({}, noSankeyCookie);
    expect(noInterfaces.leftOut.link.label).toBe("IANA protocol view");
    close(noInterfaces.leftOut.bps, ingressView.leftOut.bps);
    expect((await screen({ dimension: "ROUTER_OUT" })).leftOut).toBeNull();
    // A Sankey's second dimension is not kept: it would bring the direction back.
    const sankey = await screen({ view: "sankey", dimension2: "AS_DST_INGRESS" });
    expect(new URL(sankey.leftOut.link.href, ORIGIN).searchParams.has("dimension2")).toBe(false);
  });

  it("the table total equals an independent sum of flows_5m rows", async () => {
    const data = await screen();
    expect(data.flows.range).toMatchObject({ start: RANGE.start, end: RANGE.end, adjusted: "none" });
    expect(data.errors).toEqual([]);
    const table = data.flows.table as TableRow[];
    expect(table.length).toBeGreaterThan(10);
    const expected = bps(rows.filter(ingress));
    expect(data.total / expected).toBeCloseTo(1, 9);
    expect(table.reduce((a, r) => a + r.bps, 0) / expected).toBeCloseTo(1, 9);
    // Per value too, for the biggest one.
    const top = table[0];
    expect(top.bps / bps(rows.filter((r) => ingress(r) && String(r.as_src) === top.key))).toBeCloseTo(1, 9);
    // Sorted by traffic. The page carries its chart as markup, not the timeseries; the chart's own
    // request (chartData=1) answers the timeseries of the same view, and its table is the page's.
    expect(table.every((r, i) => i === 0 || table[i - 1].bps >= r.bps)).toBe(true);
    expect(data.flows.timeseries.buckets).toEqual([]);
    expect(data.chart.drawable).toBe(true);
    const chart = await screen({ chartData: "1" });
    expect(chart.flows.timeseries.series.length).toBeGreaterThan(0);
    expect(chart.flows.timeseries.buckets.length).toBeGreaterThan(0);
    expect(chart.flows.table).toEqual(table);
    // The detailed table is made of the timeseries: that page carries it.
    expect((await screen({ table: "detailed" })).flows.timeseries).toEqual(chart.flows.timeseries);
    expect(data.sankey).toBeNull();
    expect(data.dimensions.map((d: { value: string }) => d.value)).toContain("AS_SRC_INGRESS");
  });

  it("the demo's protocol view names its ICMP by type, each row the sum of its flows_5m rows", async () => {
    // Read with a plain SELECT and summed here: the key is built from the columns as docs/glossary.md states the rule.
    const raw = await chRows<{ protocol: number; icmp_type: number; b: string }>(
      stores,
      "SELECT protocol, icmp_type, toString(bytes) AS b FROM flows_5m WHERE time >= toDateTime({s:UInt32}, 'UTC') AND time < toDateTime({e:UInt32}, 'UTC')",
      { s: RANGE.start, e: RANGE.end },
    );
    const expected = new Map<string, bigint>();
    for (const r of raw) {
      const key = r.protocol === 1 || r.protocol === 58 ? `${r.protocol}/${r.icmp_type}` : String(r.protocol);
      expected.set(key, (expected.get(key) ?? 0n) + BigInt(r.b));
    }
    const data = await screen({ dimension: "IANA_PROTOCOL" });
    const table = data.flows.table as TableRow[];
    expect(new Map(table.map((r) => [r.key, BigInt(r.bytes)]))).toEqual(expected);
    const names = new Map(table.map((r) => [r.key, r.name]));
    // A fresh install shows pings, traceroutes and unreachables by name, for both families.
    expect(names.get("1/8")).toBe("ICMP Echo Request");
    expect(names.get("1/0")).toBe("ICMP Echo Reply");
    expect(names.get("1/11")).toBe("ICMP Time Exceeded");
    expect(names.get("1/3")).toBe("ICMP Destination Unreachable");
    expect(names.get("58/128")).toBe("IPv6-ICMP Echo Request");
    expect(names.get("58/2")).toBe("IPv6-ICMP Packet Too Big");
    expect(names.get("6")).toBe("TCP");
    expect([...names.keys()].filter((k) => k.endsWith("/-1"))).toEqual([]);
  });

  it("a filter restricts the table to its values", async () => {
    const data = await screen({ filter: "AS_SRC_INGRESS:2906,AS15169" });
    expect(data.errors).toEqual([]);
    expect(new Set((data.flows.table as TableRow[]).map((r) => r.key))).toEqual(new Set(["2906", "15169"]));
    expect(data.total / bps(rows.filter((r) => ingress(r) && (r.as_src === 2906 || r.as_src === 15169)))).toBeCloseTo(1, 9);
  });

  it("a negation removes exactly the matching rows and replaces the positive filter with a notice", async () => {
    const data = await screen({ dimension: "AS_DST_INGRESS", filter: "AS_SRC_INGRESS:AS15169,!AS15169" });
    expect(data.notices).toContain(negatedFilterReplaced("AS15169"));
    expect(data.flows.filters).toEqual([{ dimension: "AS_SRC_INGRESS", value: "15169", isNegation: true, locked: false }]);
    const expected = bps(rows.filter((r) => ingress(r) && r.as_src !== 15169));
    expect(expected).toBeLessThan(bps(rows.filter(ingress)));
    expect(data.total / expected).toBeCloseTo(1, 9);
  });

  it("shows parse errors and runs with the valid filters", async () => {
    const data = await screen({ filter: ["AS_SRC_INGRESS:banana,2906", "NO_SUCH_DIMENSION:1"] });
    expect(data.errors).toContain(invalidInput("banana", "Source AS (ingress)"));
    expect(data.errors.join(" ")).toMatch(/Unknown dimension "NO_SUCH_DIMENSION"/);
    expect((data.flows.table as TableRow[]).map((r) => r.key)).toEqual(["2906"]);
  });

  it("clamps the range to the data and says so; bad parameters fall back to defaults", async () => {
    const data = await screen({ start: String(NOW - 10 * DAY), end: String(NOW + DAY), view: "bogus", ipVersion: "9" });
    expect(data.flows.range.adjusted).toBe("start-moved-end-clamped");
    expect(data.flows.range.end).toBe(NOW);
    expect(data.params.view).toBe("timeseries");
    expect(data.params.ipVersion).toBe("all");
  });

  it("sankey: needs a second dimension, then links from the first to the second", async () => {
    const missing = await screen({ view: "sankey" });
    expect(missing.sankeyError).toBe("Sankey chart needs at least two dimensions");
    const data = await screen({ view: "sankey", dimension2: "AS_DST_INGRESS" });
    expect(data.sankeyError).toBeNull();
    expect(data.sankey.links.length).toBeGreaterThan(0);
    for (const l of data.sankey.links) {
      expect(l.source.startsWith("AS_SRC_INGRESS:")).toBe(true);
      expect(l.target.startsWith("AS_DST_INGRESS:")).toBe(true);
    }
    const linkTotal = data.sankey.links.reduce((a: number, l: { value: number }) => a + l.value, 0);
    expect(linkTotal / bps(rows.filter(ingress))).toBeCloseTo(1, 6);
  });

  it("the Sankey view needs SANKEY_TOPOLOGY: without it the timeseries is shown, with the reason", async () => {
    const sankey = { view: "sankey", dimension2: "AS_DST_INGRESS" };
    const [held, without, plain] = await Promise.all([
      screen(sankey),
      screen({ ...sankey, chartData: "1" }, noSankeyCookie),
      screen({ chartData: "1" }, noSankeyCookie),
    ]);
    expect(held.sankeyAllowed).toBe(true);
    expect(held.params.view).toBe("sankey");
    expect(held.sankey.links.length).toBeGreaterThan(0);

    expect(without.sankeyAllowed).toBe(false);
    expect(without.params.view).toBe("timeseries");
    expect(without.sankey).toBeNull();
    expect(without.sankeyError).toBeNull();
    expect(without.errors).toEqual([
      `The address's view=sankey was not applied (the Sankey chart needs the permission "Sankey and link topology"); showing the timeseries instead.`,
    ]);
    // The rest of the screen is the timeseries view of the same URL, equal to the rows' traffic.
    expect(without.flows.timeseries).toEqual(plain.flows.timeseries);
    expect(without.flows.table).toEqual(plain.flows.table);
    expect(without.flows.timeseries.series.length).toBeGreaterThan(0);
    expect(without.total / bps(rows.filter(ingress))).toBeCloseTo(1, 9);
  });

  it("/as-flows redirects to /flow-explorer keeping the search params", async () => {
    const request = new Request(`${ORIGIN}/as-flows?${search({ filter: "AS_SRC_INGRESS:2906" })}`, { headers: { Cookie: cookie } });
    const out = await runRoute(aliasRoute.loader, request);
    expect(out.status).toBe(302);
    expect(out.location).toBe(`/flow-explorer?${search({ filter: "AS_SRC_INGRESS:2906" })}`);
  });
});

function parseCsv(text: string, delimiter: string): string[][] {
  // The demo's names hold no quotes or delimiters; quoted fields are unquoted simply.
  return text
    .split("\r\n")
    .filter((l) => l !== "")
    .map((l) => l.split(delimiter).map((f) => f.replace(/^"(.*)"$/, "$1").replace(/""/g, '"')));
}

describe("CSV export (api/flows/export)", () => {
  it("the csv's rows equal the table's rows", async () => {
    const extra = { filter: "AS_SRC_INGRESS:!AS15169" };
    const data = await screen(extra);
    const res = await exportCsv(extra);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="flowlens_flow-explorer_AS_SRC_INGRESS_${DATES}.csv"`);
    const [header, ...lines] = parseCsv(await res.text(), ",");
    expect(header).toEqual(["Source AS (ingress)", "Name", "Bits per second", "Share (%)", "Bytes"]);
    const table = data.flows.table as TableRow[];
    const total = table.reduce((a, r) => a + r.bps, 0);
    expect(lines.length).toBe(table.length);
    // Whole bit/s and the share of the table's total, two decimals.
    expect(lines).toEqual(
      table.map((r) => [r.key, r.name, String(Math.round(r.bps)), String(Number(((r.bps / total) * 100).toFixed(2))), r.bytes]),
    );
  });

  it("uses the user's CSV delimiter", async () => {
    await stores.pg.db
      .insert(userSettings)
      .values({ userId: operatorId, csvDelimiter: ";" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { csvDelimiter: ";" } });
    try {
      const res = await exportCsv({ filter: "AS_SRC_INGRESS:2906" });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.split("\r\n")[0]).toBe("Source AS (ingress);Name;Bits per second;Share (%);Bytes");
      expect(text.split("\r\n")[1]).toMatch(/^2906;/);
    } finally {
      await stores.pg.db.update(userSettings).set({ csvDelimiter: "," }).where(eq(userSettings.userId, operatorId));
    }
  });

  it("an image of the Sankey view without SANKEY_TOPOLOGY is a 403; its table exports as without the view", async () => {
    const sankey = { view: "sankey", dimension2: "AS_DST_INGRESS" };
    const refused = await exportCsv({ ...sankey, format: "svg" }, noSankeyCookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: SANKEY_NEEDS_PERMISSION, exception_code: "permission_denied" });
    expect(SANKEY_NEEDS_PERMISSION).toBe('The Sankey chart needs the permission "Sankey and link topology".');
    const held = await exportCsv({ ...sankey, format: "svg" });
    expect(held.status).toBe(200);
    expect(await held.text()).toContain("<svg");
    const [table, plain] = await Promise.all([exportCsv({ ...sankey, format: "csv" }, noSankeyCookie), exportCsv({}, noSankeyCookie)]);
    expect(table.status).toBe(200);
    expect(await table.text()).toBe(await plain.text());
  });

  it("an empty table is a 400 with 'Table is empty, nothing to export'", async () => {
    const res = await exportCsv({ filter: "AS_SRC_INGRESS:4200000000" });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Table is empty, nothing to export");
  });
});

describe("prediction and the newest data's time", () => {
  it("predict=1 adds the next period's prediction to the timeseries, not to the table nor the CSV", async () => {
    const plain = await screen({ table: "detailed" });
    const predicted = await screen({ table: "detailed", predict: "1" });
    expect(predicted.params.predict).toBe(true);
    const p = predicted.flows.timeseries.prediction;
    // Two days of demo data: less than a week, so the trend line.
    expect(p.model).toBe("trend");
    const buckets: number[] = predicted.flows.timeseries.buckets;
    expect(p.buckets.length).toBe(buckets.length);
    expect(p.buckets[0]).toBe(buckets[buckets.length - 1] + predicted.flows.window);
    expect(p.series.map((s: { key: string }) => s.key)).toEqual(
      predicted.flows.timeseries.series.map((s: { key: string }) => s.key).filter((k: string) => k !== "-101"),
    );
    expect(predicted.flows.table).toEqual(plain.flows.table);
    expect(predicted.flows.timeseries.series).toEqual(plain.flows.timeseries.series);
    expect(plain.flows.timeseries.prediction).toBeUndefined();
    const [a, b] = await Promise.all([exportCsv({ table: "detailed" }), exportCsv({ table: "detailed", predict: "1" })]);
    expect(await b.text()).toBe(await a.text());
  });

  it("the Sankey view predicts nothing", async () => {
    const data = await screen({ view: "sankey", dimension2: "AS_DST_INGRESS", predict: "1" });
    expect(data.flows.timeseries.prediction).toBeUndefined();
  });

  it("fetchMaxTimestamp: the screen says when the newest data ends, only with the flag", async () => {
    expect((await screen()).newestData).toBeNull();
    await stores.pg.db.insert(userFeatureFlags).values({ userId: operatorId, flag: "fetchMaxTimestamp" });
    try {
      const [newest] = await chRows<{ t: number }>(stores, "SELECT toUInt32(max(time)) AS t FROM flows_5m");
      expect((await screen()).newestData).toBe(Number(newest.t) + 300);
    } finally {
      await stores.pg.db.delete(userFeatureFlags).where(eq(userFeatureFlags.userId, operatorId));
    }
  });
});
