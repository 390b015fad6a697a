/**
 * The Flow Explorer's comparison with the previous period, its table views and its exports
 * (api/flows/export in csv, xls, xlsx, svg, png) on a 2-day demo network. Figures are checked
 * against independent sums of flows_5m rows read with a plain SELECT; spreadsheets are read back
 * with their libraries.
 */
import { eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import XLSX from "xlsx";
import { OPERATOR_ASN } from "~db/demo/catalog";
import { asInfo, userSettings, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import * as exportRoute from "~/routes/api.flows.export";
import { useServicesForTests } from "~/server/services.server";
import { readCsv } from "../helpers/csv";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { demoTestNow, utcDays } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const DATES = utcDays(RANGE);
const PREVIOUS = { start: NOW - 2 * DAY, end: NOW - DAY };
/** The default window of a 1-day range (shell §9): 5 minutes. */
const WINDOW = 300;

let stores: TestStores;
let current: FlowRow[];
let previous: FlowRow[];
let operatorId = 0;
let cookie = "";

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  current = await readFlowRows(stores, RANGE);
  previous = await readFlowRows(stores, PREVIOUS);
  operatorId = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "operator@flowlens.example")))[0].id;
  cookie = await sessionCookie(stores, operatorId);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const ingress = (r: FlowRow) => r.as_hnd !== OPERATOR_ASN;
const bytesOf = (list: FlowRow[]) => list.reduce((a, r) => a + r.bytes, 0n);
/** bit/s over `seconds` of the rows. */
const bps = (list: FlowRow[], seconds = DAY) => (Number(bytesOf(list)) * 8) / seconds;
/** Ingress bit/s per source AS over one day. */
function perSource(rows: FlowRow[]): Map<string, number> {
  const bytes = new Map<string, bigint>();
  for (const r of rows.filter(ingress)) bytes.set(String(r.as_src), (bytes.get(String(r.as_src)) ?? 0n) + r.bytes);
  return new Map([...bytes].map(([k, b]) => [k, (Number(b) * 8) / DAY]));
}
/** The capped percentage written out independently of comparison.ts. */
function expectedPercent(now: number, before: number): number {
  if (before === 0) return now > 0 ? 1000 : 0;
  return Math.max(-1000, Math.min(1000, ((now - before) / before) * 100));
}

function search(extra: Record<string, string> = {}): string {
  const p = new URLSearchParams({ dimension: "AS_SRC_INGRESS", start: String(RANGE.start), end: String(RANGE.end) });
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p.toString();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function screen(extra: Record<string, string> = {}): Promise<any> {
  const out = await runRoute(
    explorerRoute.loader,
    new Request(`${ORIGIN}/flow-explorer?${search(extra)}`, { headers: { Cookie: cookie } }),
  );
  expect(out.status).toBe(200);
  return out.data;
}

async function download(extra: Record<string, string>): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/flows/export?${search(extra)}`, { headers: { Cookie: cookie } });
  return (await exportRoute.loader({ request, params: {}, context: {} })) as Response;
}

const filenameOf = (res: Response) => /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1];

function parseCsv(text: string, delimiter: string): string[][] {
  // The demo's names hold no quotes, delimiters or line breaks.
  return text
    .split("\r\n")
    .filter((l) => l !== "")
    .map((l) => l.split(delimiter));
}

describe("comparison with the previous period (compare=1)", () => {
  it("per value and in total: previous bit/s and the capped difference equal independent sums", async () => {
    const data = await screen({ compare: "1" });
    expect(data.errors).toEqual([]);
    expect(data.comparison.range).toEqual(PREVIOUS);
    // The demo covers both days: no notice about missing data.
    expect(data.notices.join(" ")).not.toMatch(/previous period/);
    const now = perSource(current);
    const before = perSource(previous);
    const rows = data.comparison.rows as {
      key: string;
      bps: number;
      previousBps: number;
      differencePercent: number;
      differenceCapped: boolean;
    }[];
    expect(rows.length).toBe(data.flows.table.length);
    expect(rows.length).toBeGreaterThan(10);
    let compared = 0;
    for (const r of rows) {
      const n = now.get(r.key) ?? 0;
      const b = before.get(r.key) ?? 0;
      expect(r.bps / n).toBeCloseTo(1, 9);
      if (b === 0) expect(r.previousBps).toBe(0);
      else expect(r.previousBps / b).toBeCloseTo(1, 9);
      expect(r.differencePercent).toBeCloseTo(expectedPercent(n, b), 6);
      expect(Math.abs(r.differencePercent)).toBeLessThanOrEqual(1000);
      if (b > 0) compared++;
    }
    expect(compared).toBeGreaterThan(10);
    const totalNow = bps(current.filter(ingress));
    const totalBefore = bps(previous.filter(ingress));
    expect(data.comparison.total.bps / totalNow).toBeCloseTo(1, 9);
    expect(data.comparison.total.previousBps / totalBefore).toBeCloseTo(1, 9);
    expect(data.comparison.total.differencePercent).toBeCloseTo(expectedPercent(totalNow, totalBefore), 6);
  });

  it("a previous period before the first data is still the full length, with a notice", async () => {
    // The first day: its previous day has no data at all, so every value is new.
    const data = await screen({ compare: "1", start: String(PREVIOUS.start), end: String(PREVIOUS.end) });
    expect(data.comparison.range).toEqual({ start: PREVIOUS.start - DAY, end: PREVIOUS.start });
    expect(data.notices).toContain("The previous period starts before the first flow data; its missing time counts as no traffic.");
    expect(data.comparison.total.previousBps).toBe(0);
    expect(data.comparison.total).toMatchObject({ differencePercent: 1000, differenceCapped: true });
  });

  it("without compare=1 there is no comparison", async () => {
    expect((await screen()).comparison).toBeNull();
  });
});

describe("table views", () => {
  it("detailed: one row per 5-minute bucket and top value (plus Others); each bucket adds up to the bucket's traffic", async () => {
    const data = await screen({ table: "detailed", view: "sankey", dimension2: "AS_DST_INGRESS" });
    // The sankey view has no timeseries chart, but the detailed table still gets its buckets.
    const ts = data.flows.timeseries as { buckets: number[]; series: { key: string; values: number[] }[] };
    expect(ts.buckets.length).toBe(DAY / WINDOW);
    expect(ts.series.length).toBe(11);
    const res = await download({ table: "detailed", format: "csv" });
    expect(res.status).toBe(200);
    expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS_detailed_${DATES}.csv`);
    const [header, ...lines] = parseCsv(await res.text(), ",");
    expect(header).toEqual(["Time (UTC)", "Timestamp (unix seconds)", "Source AS (ingress)", "Name", "Bits per second", "Complete bucket"]);
    // A whole past day of 5-minute buckets: every one is complete.
    expect(new Set(lines.map((l) => l[5]))).toEqual(new Set(["yes"]));
    expect(lines.length).toBe(ts.buckets.length * ts.series.length);
    const perBucket = new Map<number, number>();
    for (const l of lines) perBucket.set(Number(l[1]), (perBucket.get(Number(l[1])) ?? 0) + Number(l[4]));
    const bucketBytes = new Map<number, bigint>();
    for (const r of current.filter(ingress))
      bucketBytes.set(r.time - (r.time % WINDOW), (bucketBytes.get(r.time - (r.time % WINDOW)) ?? 0n) + r.bytes);
    expect(perBucket.size).toBe(ts.buckets.length);
    // Whole bit/s per cell: a bucket's sum is within half a bit/s per value of the independent figure.
    for (const [t, sum] of perBucket)
      expect(Math.abs(sum - (Number(bucketBytes.get(t) ?? 0n) * 8) / WINDOW)).toBeLessThanOrEqual(0.5 * ts.series.length);
    // The time column is the timestamp in the user's timezone (UTC here), in the spec's dd.MM.yyyy HH:mm.
    const iso = new Date(Number(lines[0][1]) * 1000).toISOString();
    expect(lines[0][0]).toBe(`${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 16)}`);
  });

  it("detailed: the buckets the range cuts are marked in the table, the export and the chart", async () => {
    // Two days from 11:10 in 15-minute buckets: the first (11:00) and the last (11:00 to 11:15, the data end at 11:10) are cut.
    const range = { start: String(PREVIOUS.start), end: String(RANGE.end) };
    const data = await screen({ table: "detailed", ...range });
    const ts = data.flows.timeseries as { buckets: number[]; complete: boolean[] };
    expect(data.flows.window).toBe(900);
    const expected = ts.buckets.map((b) => b >= PREVIOUS.start && b + 900 <= RANGE.end);
    expect(ts.complete).toEqual(expected);
    expect(expected.filter((c) => !c)).toHaveLength(2);
    const [, ...lines] = parseCsv(await (await download({ table: "detailed", format: "csv", ...range })).text(), ",");
    const byBucket = new Map(lines.map((l) => [Number(l[1]), l[5]]));
    expect(ts.buckets.map((b) => byBucket.get(b))).toEqual(expected.map((c) => (c ? "yes" : "no")));
  });

  it("pivot parameters are read; the aggregated table ignores pivot", async () => {
    const data = await screen({ table: "detailed", pivot: "1" });
    expect(data.params).toMatchObject({ table: "detailed", pivot: true });
    expect((await screen({ table: "bogus", pivot: "maybe" })).params).toMatchObject({ table: "aggregated", pivot: false });
  });
});

describe("exports (api/flows/export)", () => {
  it("csv with the comparison columns, in the user's delimiter, equal to independent sums", async () => {
    await stores.pg.db
      .insert(userSettings)
      .values({ userId: operatorId, csvDelimiter: ";" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { csvDelimiter: ";" } });
    try {
      const res = await download({ format: "csv", compare: "1" });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS_${DATES}.csv`);
      const [header, ...lines] = parseCsv(await res.text(), ";");
      expect(header).toEqual([
        "Source AS (ingress)",
        "Name",
        "Bits per second",
        "Share (%)",
        "Bytes",
        "Previous period (bit/s)",
        "Difference to the previous period (%)",
      ]);
      const now = perSource(current);
      const before = perSource(previous);
      expect(lines.length).toBe(now.size);
      const total = [...now.values()].reduce((a, v) => a + v, 0);
      for (const [key, , b, share, bytes, p, d] of lines) {
        // Whole bit/s, a share in percent with two decimals, a difference with one.
        expect(Math.abs(Number(b) - now.get(key)!)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(Number(share) - (now.get(key)! / total) * 100)).toBeLessThanOrEqual(0.005);
        expect((Number(bytes) * 8) / DAY / now.get(key)!).toBeCloseTo(1, 9);
        expect(Math.abs(Number(p) - (before.get(key) ?? 0))).toBeLessThanOrEqual(0.5);
        expect(Math.abs(Number(d) - expectedPercent(now.get(key)!, before.get(key) ?? 0))).toBeLessThanOrEqual(0.05);
      }
    } finally {
      await stores.pg.db.update(userSettings).set({ csvDelimiter: "," }).where(eq(userSettings.userId, operatorId));
    }
  });

  it("csv: AS names that would start a spreadsheet formula arrive as text with a leading apostrophe, numbers as numbers", async () => {
    // AS names come from registry data anyone can write to (an AS picks its own name).
    const hostile = ['=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"];
    const top = [...perSource(current)].sort((a, b) => b[1] - a[1]).slice(0, hostile.length);
    const asns = top.map(([key]) => Number(key));
    const before = await stores.pg.db.select().from(asInfo).where(inArray(asInfo.asn, asns));
    try {
      for (const [i, asn] of asns.entries()) {
        await stores.pg.db
          .insert(asInfo)
          .values({ asn, name: hostile[i] })
          .onConflictDoUpdate({ target: asInfo.asn, set: { name: hostile[i] } });
      }
      const res = await download({ format: "csv" });
      expect(res.status).toBe(200);
      const [, ...lines] = readCsv(await res.text(), ",");
      for (const [i, [key, bps]] of top.entries()) {
        const line = lines.find((l) => l[0] === key);
        expect(line, `row of AS${key}`).toBeDefined();
        expect(line).toContain(`'${hostile[i]}`);
        expect(line).not.toContain(hostile[i]);
        // No other cell of the row starts a formula; the figures are plain numbers.
        expect(line!.filter((cell) => /^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !Number.isFinite(Number(cell))))).toEqual([]);
        expect(line!.some((cell) => /^\d+(\.\d+)?$/.test(cell) && Math.abs(Number(cell) / bps - 1) < 1e-6)).toBe(true);
      }
    } finally {
      await stores.pg.db.delete(asInfo).where(inArray(asInfo.asn, asns));
      if (before.length) await stores.pg.db.insert(asInfo).values(before);
    }
  });

  it("xlsx: read back with exceljs, numbers as numbers, equal to independent sums", async () => {
    const res = await download({ format: "xlsx" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS_${DATES}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe("Flow Explorer");
    const values = sheet
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(values[0]).toEqual(["Source AS (ingress)", "Name", "Bits per second", "Share (%)", "Bytes"]);
    const now = perSource(current);
    expect(values.length - 1).toBe(now.size);
    let sum = 0;
    for (const [asn, name, b, , bytes] of values.slice(1) as [number, string, number, number, number][]) {
      // AS numbers are numbers, not text.
      expect(typeof asn).toBe("number");
      expect(typeof b).toBe("number");
      expect(typeof name).toBe("string");
      expect(Math.abs(b - now.get(String(asn))!)).toBeLessThanOrEqual(0.5);
      expect((bytes * 8) / DAY / now.get(String(asn))!).toBeCloseTo(1, 9);
      sum += b;
    }
    expect(Math.abs(sum - bps(current.filter(ingress)))).toBeLessThanOrEqual(0.5 * now.size);
  });

  it("xls: a BIFF8 compound file that reads back with the same rows", async () => {
    const res = await download({ format: "xls", filter: "AS_SRC_INGRESS:2906,AS15169" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.ms-excel");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const workbook = XLSX.read(bytes, { type: "array" });
    expect(workbook.SheetNames).toEqual(["Flow Explorer"]);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets["Flow Explorer"], { header: 1 });
    expect(rows[0]).toEqual(["Source AS (ingress)", "Name", "Bits per second", "Share (%)", "Bytes"]);
    const now = perSource(current);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(new Set([2906, 15169]));
    for (const r of rows.slice(1)) expect(Math.abs((r[2] as number) - now.get(String(r[0]))!)).toBeLessThanOrEqual(0.5);
  });

  it("svg: the timeseries chart with the top values' names", async () => {
    const data = await screen();
    const res = await download({ format: "svg" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS_timeseries_${DATES}.svg`);
    const svg = await res.text();
    // The chart (1000 × 360) under a caption of two lines (48 px): title and dimension, range with its timezone and the traffic counted.
    expect(svg).toMatch(/^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1000" height="408"/);
    expect(svg).toContain(">Flow Explorer: Source AS (ingress)</text>");
    expect(svg).toMatch(
      />\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} – (\d{2}\.\d{2}\.\d{4} )?\d{2}:\d{2} UTC · ingress traffic \(entering the network from neighbours\)<\/text>/,
    );
    expect(svg.trim().endsWith("</svg>")).toBe(true);
    const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    for (const s of data.flows.timeseries.series as { name: string }[]) expect(svg).toContain(escape(s.name));
  });

  it("svg of the sankey view: both dimensions' names; without a second dimension the sankey's message", async () => {
    const res = await download({ format: "svg", view: "sankey", dimension2: "AS_DST_INGRESS" });
    expect(res.status).toBe(200);
    expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS-AS_DST_INGRESS_sankey_${DATES}.svg`);
    const svg = await res.text();
    expect(svg).toContain("<svg");
    const data = await screen({ view: "sankey", dimension2: "AS_DST_INGRESS" });
    const escape = (x: string) => x.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const nodes = data.sankey.nodes as { dimension: string; name: string }[];
    for (const dim of ["AS_SRC_INGRESS", "AS_DST_INGRESS"]) {
      const named = nodes.filter((n) => n.dimension === dim);
      expect(named.length).toBeGreaterThan(0);
      for (const n of named) expect(svg).toContain(escape(n.name));
    }
    const missing = await download({ format: "png", view: "sankey" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).detail).toBe("Sankey chart needs at least two dimensions");
  });

  it("png: the PNG signature and the chart's size at twice the scale", async () => {
    const res = await download({ format: "png" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(filenameOf(res)).toBe(`flowlens_flow-explorer_AS_SRC_INGRESS_timeseries_${DATES}.png`);
    const png = Buffer.from(await res.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: width and height, big-endian, right after the chunk header.
    expect(png.toString("ascii", 12, 16)).toBe("IHDR");
    // The captioned chart (1000 × 408) at twice the scale.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2000, 816]);
    // A drawn chart compresses far worse than an empty canvas.
    expect(png.length).toBeGreaterThan(20_000);
  });

  it("refusals: unknown format (naming the formats), pivoted table, empty table", async () => {
    const bad = await download({ format: "pdf" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      errors: [{ field: "format", message: 'Unsupported export format "pdf"; use one of csv, xls, xlsx, png, svg.' }],
    });
    const pivoted = await download({ format: "xlsx", table: "detailed", pivot: "1" });
    expect(pivoted.status).toBe(400);
    expect((await pivoted.json()).detail).toBe(MESSAGES.exportWhilePivoted);
    for (const format of ["csv", "xlsx", "png"]) {
      const empty = await download({ format, filter: "AS_SRC_INGRESS:4200000000" });
      expect(empty.status).toBe(400);
      expect((await empty.json()).detail).toBe("Table is empty, nothing to export");
    }
  });

  it("no format is csv (the endpoint's first version)", async () => {
    const res = await download({});
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  });
});
