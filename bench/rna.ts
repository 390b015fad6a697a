/**
 * npm run bench:rna
 *
 * The Raw Network Analyzer over a generated flows_raw (issue "Performance"): BENCH_RNA_ROWS rows
 * (default 50,000,000) over the 7 days flows_raw keeps, generated inside embedded chDB by
 * `INSERT … SELECT … FROM numbers()` (no row passes through JavaScript), with the cardinality of a
 * real network: ~150,000 source and ~20,000 destination addresses per family (skewed: a few talk a
 * lot), 80 % IPv4 / 20 % IPv6, TCP/UDP/ICMP with their usual ports, 8 exporters with four sampling
 * rates (1, 100, 1000, 2000) and three flow protocols, 12,000 source ASes, and one record in ten a
 * re-exported copy (counted = 0). The stores live in BENCH_DATA_DIR/rna (default ./data-bench/rna)
 * and are reused while they hold that many rows still inside the TTL.
 *
 * Each case is timed through the app's own code (runRnaQuery and runRnaTimeseries of features/rna,
 * as the screen and api/rna/ call them, as a superuser) next to `SELECT sum(bytes), sum(packets)` over the
 * same range and filter — the cost of reading those rows — taking turns (A B, B A, …) so both see
 * the same machine noise; median of BENCH_RUNS (default 5) after one warm-up each. Rows and bytes
 * read are chDB's SelectedRows / SelectedBytes counters (system.events) across one call: the
 * embedded engine keeps no query_log. Figures are printed and written to bench/RESULTS.md.
 * BENCH_RNA_ROWS=0 skips the bench (it is part of `npm run bench`, and generating takes minutes: 50 M rows
 * took 20 minutes on 2 shared cores and need about 4.5 GiB of disk, flows_raw 41.5 MiB per million rows).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "~db/postgres/schema";
import { DEFAULT_RNA_COLUMNS } from "~/features/rna/columns";
import { DEFAULT_PAGE_SIZE, type RnaQuery } from "~/features/rna/query";
import { runRnaQuery } from "~/features/rna/query.server";
import { runRnaTimeseries } from "~/features/rna/timeseries.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { chCommand, chQuery, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { wireApp } from "~/wiring.server";
import { commitOf, loadAverage, writeResultsSection } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROWS = Number(process.env.BENCH_RNA_ROWS ?? 50_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Rows per INSERT … SELECT: bounds the memory of one statement (and of the views it feeds). */
const CHUNK = 5_000_000;
/** The generated span: just under the 7 days of the TTL, so no part expires while the bench runs. */
const SPAN_SECONDS = 7 * 86_400 - 2 * 3600;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

async function openStores(dataDir: string): Promise<Services> {
  mkdirSync(dataDir, { recursive: true });
  // No read limit of the RNA for the bench's own reads: the figures are the point.
  const config = parseConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    CLICKHOUSE_URL: "",
    DEMO_DATA: "off",
    RNA_MAX_ROWS_TO_READ: String(Math.max(ROWS * 4, 1_000_000_000)),
  });
  wireApp();
  return startServices(config, { loadDemo: false });
}

const FLOW_COLUMNS = [
  "time_received",
  "exporter_address",
  "exporter_name",
  "sampling_rate",
  "ip_version",
  "src_addr",
  "dst_addr",
  "src_prefix_len",
  "dst_prefix_len",
  "protocol",
  "src_port",
  "dst_port",
  "tcp_flags",
  "bytes",
  "packets",
  "vrf_name",
  "ingress_router",
  "in_if",
  "egress_router",
  "out_if",
  "as_src",
  "as_hnd",
  "as_nxt",
  "as_dst",
  "in_if_index",
  "out_if_index",
  "flow_protocol",
  "next_hop",
  "counted",
];

/**
 * One chunk of rows [offset, offset + count) of the `rows` spread over [start, start + span):
 * time grows with the row number (as the collector writes), everything else from three hashes
 * of it. Addresses: IPv4 sources from 1.0.0.0 spread by 97, destinations in 198.18.0.0/15; IPv6
 * sources in 2a00::/32, destinations in 2001:db8::/32 — each family the same skewed indexes.
 */
const GENERATE = `
INSERT INTO flows_raw (${FLOW_COLUMNS.join(", ")})
SELECT
    toDateTime({start:UInt32} + intDiv(number * {span:UInt64}, {rows:UInt64}), 'UTC') AS time_received,
    toIPv6(IPv4NumToString(toUInt32(3221225985 + e))) AS exporter_address,
    concat('bench-er', toString(e + 1)) AS exporter_name,
    toUInt32([1, 100, 1000, 2000][e % 4 + 1]) AS sampling_rate,
    if(v6, 6, 4) AS ip_version,
    if(v6, toIPv6(IPv6NumToString(toFixedString(unhex(concat('2a000000', hex(s), '0000000000000001')), 16))),
           toIPv6(IPv4NumToString(toUInt32(16777216 + s * 97)))) AS src_addr,
    if(v6, toIPv6(IPv6NumToString(toFixedString(unhex(concat('20010db8', hex(d), '0000000000000001')), 16))),
           toIPv6(IPv4NumToString(toUInt32(3323068416 + d)))) AS dst_addr,
    toUInt8(if(v6, 48, 24)) AS src_prefix_len,
    toUInt8(if(v6, 48, 24)) AS dst_prefix_len,
    toUInt8(multiIf(h2 % 100 < 70, 6, h2 % 100 < 95, 17, 1)) AS protocol,
    toUInt16(if(protocol = 1, 0, 1024 + intDiv(h3, 65536) % 64000)) AS src_port,
    toUInt16(multiIf(protocol = 6, [443, 443, 443, 80, 80, 22, 25, 8443, 993, 3389][h3 % 10 + 1],
                     protocol = 17, [53, 53, 123, 443, 500, 4500, 1194, 51820][h3 % 8 + 1], 0)) AS dst_port,
    toUInt8(if(protocol = 6, [2, 16, 18, 24, 17, 4][intDiv(h1, 7) % 6 + 1], 0)) AS tcp_flags,
    toUInt64((40 + intDiv(h2, 4294967296) % 1460) * packets) AS bytes,
    toUInt64(1 + intDiv(h1, 4294967296) % 30) AS packets,
    '' AS vrf_name,
    exporter_name AS ingress_router,
    concat('et-0/0/', toString(h3 % 12)) AS in_if,
    concat('bench-er', toString((e + 1 + h1 % 7) % 8 + 1)) AS egress_router,
    concat('et-0/1/', toString(h2 % 12)) AS out_if,
    toInt64(1000 + s % 12000) AS as_src,
    toInt64([174, 1299, 3356, 6939, 2914, 3257][h3 % 6 + 1]) AS as_hnd,
    toInt64(64500) AS as_nxt,
    toInt64(if(d % 10 = 0, 64500, 65000 + d % 300)) AS as_dst,
    toUInt32(500 + h3 % 12) AS in_if_index,
    toUInt32(600 + h2 % 12) AS out_if_index,
    ['netflow9', 'ipfix', 'sflow5'][e % 3 + 1] AS flow_protocol,
    toIPv6(IPv4NumToString(toUInt32(3325256705 + h3 % 4))) AS next_hop,
    toUInt8(if(h1 % 10 = 0, 0, 1)) AS counted
FROM (
    SELECT number, h1, h2, h3,
           h3 % 8 AS e,
           h1 % 100 < 20 AS v6,
           toUInt32(150000 * pow((intDiv(h1, 256) % 1000000) / 1e6, 2)) AS s,
           toUInt32(20000 * pow((intDiv(h2, 256) % 1000000) / 1e6, 3)) AS d
    FROM (SELECT number, cityHash64(number) AS h1, cityHash64(number, 1) AS h2, cityHash64(number, 2) AS h3
          FROM numbers({offset:UInt64}, {count:UInt64}))
)`;

const countRow = z.object({ n: z.number(), first: z.number(), last: z.number() });

async function stored(ch: ClickhouseHandle) {
  const [row] = await chQuery(ch, {
    name: "bench.rnaStored",
    sql: "SELECT count() AS n, toUInt32(min(time_received)) AS first, toUInt32(max(time_received)) AS last FROM flows_raw",
    schema: countRow,
  });
  return row;
}

/** The bench's flows_raw: reused while it holds ROWS rows none of which leaves the TTL within the hour. */
async function ensureFlows(services: Services): Promise<{ first: number; last: number; generatedSeconds: number | null }> {
  const now = Math.floor(Date.now() / 1000);
  const have = await stored(services.ch);
  if (have.n === ROWS && have.first > now - 7 * 86_400 + 3600) return { first: have.first, last: have.last, generatedSeconds: null };
  console.log(`  generating ${fmt(ROWS)} rows over ${(SPAN_SECONDS / 86_400).toFixed(2)} days…`);
  for (const table of ["flows_raw", "flows_5m", "flows_1h"])
    await chCommand(services.ch, { name: "bench.rnaTruncate", sql: `TRUNCATE TABLE ${table}` });
  const started = performance.now();
  const start = now - SPAN_SECONDS;
  for (let offset = 0; offset < ROWS; offset += CHUNK) {
    await chCommand(services.ch, {
      name: "bench.rnaGenerate",
      sql: GENERATE,
      params: { start, span: SPAN_SECONDS, rows: ROWS, offset, count: Math.min(CHUNK, ROWS - offset) },
    });
    process.stdout.write(`  ${fmt(Math.min(ROWS, offset + CHUNK))} rows\r`);
  }
  await chCommand(services.ch, { name: "bench.rnaOptimize", sql: "OPTIMIZE TABLE flows_raw FINAL" });
  const generatedSeconds = (performance.now() - started) / 1000;
  const after = await stored(services.ch);
  if (after.n !== ROWS) throw new Error(`flows_raw holds ${after.n} rows after generating ${ROWS}`);
  return { first: after.first, last: after.last, generatedSeconds };
}

const cardinalityRow = z.object({
  sources: z.number(),
  destinations: z.number(),
  ipv6: z.number(),
  copies: z.number(),
  rates: z.number(),
  source_ases: z.number(),
});

async function cardinality(ch: ClickhouseHandle) {
  const [row] = await chQuery(ch, {
    name: "bench.rnaCardinality",
    sql: `SELECT uniqExact(src_addr) AS sources, uniqExact(dst_addr) AS destinations, countIf(ip_version = 6) / count() AS ipv6,
                 countIf(counted = 0) / count() AS copies, uniqExact(sampling_rate) AS rates, uniqExact(as_src) AS source_ases
          FROM flows_raw`,
    schema: cardinalityRow,
  });
  return row;
}

const diskRow = z.object({ rows: z.number(), bytes: z.number(), table: z.string() });

/** Bytes on disk of the flows tables (active parts): flows_raw per million rows, and the aggregates its views wrote. */
async function disk(ch: ClickhouseHandle) {
  return chQuery(ch, {
    name: "bench.rnaDisk",
    sql: `SELECT table, toUInt64(sum(rows)) AS rows, toUInt64(sum(bytes_on_disk)) AS bytes FROM system.parts
          WHERE active AND database = currentDatabase() AND table IN ('flows_raw', 'flows_5m', 'flows_1h') GROUP BY table ORDER BY table`,
    schema: diskRow,
  });
}

const eventsRow = z.object({ rows: z.number(), bytes: z.number() });

/** chDB's cumulative counters of rows and bytes selected from tables. */
async function selected(ch: ClickhouseHandle) {
  const [row] = await chQuery(ch, {
    name: "bench.rnaEvents",
    sql: "SELECT sumIf(value, event = 'SelectedRows') AS rows, sumIf(value, event = 'SelectedBytes') AS bytes FROM system.events",
    schema: eventsRow,
  });
  return row;
}

type Measured = { ms: number; rows: number; bytes: number };

async function measure(ch: ClickhouseHandle, call: () => Promise<unknown>): Promise<Measured> {
  const before = await selected(ch);
  const started = performance.now();
  await call();
  const ms = performance.now() - started;
  const after = await selected(ch);
  return { ms, rows: after.rows - before.rows, bytes: after.bytes - before.bytes };
}

/** A case: the engine's call and the scan of the same range and filter. */
type BenchCase = { label: string; engine: (() => Promise<unknown>) | null; scan: { where: string; params: Record<string, unknown> } };

const sumsRow = z.object({ total_bytes: z.number(), total_packets: z.number() });

function scanOf(ch: ClickhouseHandle, where: string, params: Record<string, unknown>) {
  return () =>
    chQuery(ch, {
      name: "bench.rnaScan",
      sql: `SELECT sum(bytes) AS total_bytes, sum(packets) AS total_packets FROM flows_raw WHERE ${where}`,
      params,
      schema: sumsRow,
    });
}

type CaseFigures = { label: string; engine: Measured | null; scan: Measured };

async function runCase(ch: ClickhouseHandle, c: BenchCase): Promise<CaseFigures> {
  const scan = scanOf(ch, c.scan.where, c.scan.params);
  const engineRuns: Measured[] = [];
  const scanRuns: Measured[] = [];
  if (c.engine) await c.engine();
  await scan();
  for (let i = 0; i < RUNS; i++) {
    // Taking turns: A B, B A, … so both see the same noise.
    const order = i % 2 === 0 ? ["engine", "scan"] : ["scan", "engine"];
    for (const which of order) {
      if (which === "scan") scanRuns.push(await measure(ch, scan));
      else if (c.engine) engineRuns.push(await measure(ch, c.engine));
    }
  }
  const summary = (runs: Measured[]): Measured => ({
    ms: median(runs.map((r) => r.ms)),
    rows: median(runs.map((r) => r.rows)),
    bytes: median(runs.map((r) => r.bytes)),
  });
  return { label: c.label, engine: c.engine ? summary(engineRuns) : null, scan: summary(scanRuns) };
}

/** The range of the last `seconds` of the data (end exclusive), as the screen's presets end at the newest record. */
const lastOf = (last: number, seconds: number) => ({ start: last + 1 - seconds, end: last + 1 });
const inRange = "time_received >= toDateTime({start:UInt32}, 'UTC') AND time_received < toDateTime({end:UInt32}, 'UTC') AND counted = 1";

/** The bench's superuser (every column, no restriction), created once in the bench's stores. */
async function benchUser(services: Services): Promise<UserContext> {
  const email = "bench-rna@flowlens.invalid";
  let [row] = await services.pg.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row)
    [row] = await services.pg.db
      .insert(users)
      .values({ email, firstName: "Bench", passwordHash: "!unusable", hasConsented: true, isSuperuser: true })
      .returning({ id: users.id });
  const user = await loadUserContext(services.pg.db, row.id);
  if (!user) throw new Error("the bench user cannot be loaded");
  return user;
}

/** A query as the screen sends it: the default columns, no filter, not aggregated, counted records, the default page. */
const rnaQuery = (range: { start: number; end: number }, over: Partial<RnaQuery> = {}): RnaQuery => ({
  ...range,
  columns: [...DEFAULT_RNA_COLUMNS],
  filters: [],
  expression: "",
  aggregation: { v4: null, v6: null },
  includeCopies: false,
  sort: null,
  after: null,
  pageSize: DEFAULT_PAGE_SIZE,
  ...over,
});

const EXPRESSION = "proto tcp and dst port 443 and bytes > 1000";

/** Each case: the engine's call (runRnaQuery, runRnaTimeseries) and the scan of the same range and filter. */
async function benchCases(services: Services, last: number): Promise<BenchCase[]> {
  const user = await benchUser(services);
  const hour = lastOf(last, 3600);
  const day = lastOf(last, 86_400);
  const page = (q: RnaQuery) => runRnaQuery(services, user, q);
  // Page 100: the cursor of page 99's end, walked once (untimed), as a user paging through gets it.
  let after: string | null = null;
  for (let i = 1; i < 100; i++) {
    after = (await page(rnaQuery(day, { after }))).next;
    if (after === null) throw new Error(`the last 24 hours hold only ${i} pages`);
  }
  const first = await page(rnaQuery(day));
  if (first.rows.length === 0) throw new Error("the first page is empty: the generated data does not hold what the query asks");
  const keys = first.rows.map((r) => r.key);
  return [
    { label: "default query, first page (last hour)", engine: () => page(rnaQuery(hour)), scan: { where: inRange, params: hour } },
    {
      label: "/24 (and /48) aggregated by destination, first page (last 24 h)",
      engine: () => page(rnaQuery(day, { columns: ["dst_addr", "protocol", "bytes", "packets"], aggregation: { v4: 24, v6: 48 } })),
      scan: { where: inRange, params: day },
    },
    {
      label: `nfdump '${EXPRESSION}', first page (last 24 h)`,
      engine: () => page(rnaQuery(day, { expression: EXPRESSION })),
      scan: { where: `${inRange} AND protocol = 6 AND dst_port = 443 AND bytes > 1000`, params: day },
    },
    {
      label: "page 100 by the keyset cursor (last 24 h)",
      engine: () => page(rnaQuery(day, { after })),
      scan: { where: inRange, params: day },
    },
    {
      label: "timeseries of the first page by destination (last 24 h)",
      engine: () => runRnaTimeseries(services, user, { query: rnaQuery(day), groupedColumn: "dst_addr", keys }),
      scan: { where: inRange, params: day },
    },
  ];
}

function dirBytes(dir: string): number | null {
  try {
    return Number(execFileSync("du", ["-sb", dir], { encoding: "utf8" }).split(/\s/)[0]);
  } catch {
    return null;
  }
}

async function main() {
  const loadBefore = loadAverage();
  const dataDir = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench", "rna");
  console.log(`== Raw Network Analyzer over a generated flows_raw of ${fmt(ROWS)} rows (${dataDir})`);
  const services = await openStores(dataDir);
  const lines: string[] = [];
  try {
    const flows = await ensureFlows(services);
    const [card, parts] = await Promise.all([cardinality(services.ch), disk(services.ch)]);
    const raw = parts.find((p) => p.table === "flows_raw");
    const aggregates = parts.filter((p) => p.table !== "flows_raw").reduce((sum, p) => sum + p.bytes, 0);
    const perMillion = raw ? (raw.bytes / raw.rows) * 1e6 : 0;
    const chBytes = dirBytes(path.join(dataDir, "ch"));
    lines.push(
      `- rows: ${fmt(ROWS)} over ${((flows.last - flows.first) / 86_400).toFixed(2)} days` +
        (flows.generatedSeconds === null ? " (reused)" : `, generated in ${flows.generatedSeconds.toFixed(0)} s`),
      `- cardinality: ${fmt(card.sources)} source addresses, ${fmt(card.destinations)} destinations, ` +
        `${(card.ipv6 * 100).toFixed(1)} % IPv6, ${card.rates} sampling rates, ${fmt(card.source_ases)} source ASes, ` +
        `${(card.copies * 100).toFixed(1)} % re-exported copies (counted = 0)`,
      `- disk: flows_raw ${mib(raw?.bytes ?? 0)} = ${mib(perMillion)} per million rows; the aggregates its views wrote ${mib(aggregates)}` +
        (chBytes === null ? "" : `; the whole chDB folder ${mib(chBytes)}`),
      "",
      `Server time is the median of ${RUNS} runs (ms); rows and bytes read per call (chDB's SelectedRows / SelectedBytes).`,
      "",
      "| case | RNA | rows read | bytes read | scan `sum(bytes), sum(packets)` | rows read | bytes read | RNA / scan |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
    );
    console.log(lines.join("\n"));
    for (const c of await benchCases(services, flows.last)) {
      const f = await runCase(services.ch, c);
      const engine = f.engine;
      const line =
        `| ${f.label} | ${engine ? engine.ms.toFixed(1) : "not built"} | ${engine ? fmt(engine.rows) : "—"} | ${engine ? mib(engine.bytes) : "—"} ` +
        `| ${f.scan.ms.toFixed(1)} | ${fmt(f.scan.rows)} | ${mib(f.scan.bytes)} | ${engine ? `${(engine.ms / f.scan.ms).toFixed(2)}×` : "—"} |`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await services.close();
  }
  lines.push("", "Goal (issue): every case within 3× of its scan, the default query's first page ≤ 1 s.");
  writeResultsSection(
    "Raw Network Analyzer (bench/rna.ts)",
    { commit: commitOf(), load: `${loadBefore} before, ${loadAverage()} after` },
    lines.join("\n"),
  );
}

if (ROWS <= 0) console.log("== Raw Network Analyzer: BENCH_RNA_ROWS=0, skipped");
else await main();
