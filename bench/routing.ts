/**
 * npm run bench:routing
 *
 * Routing data figures, printed as one table at the end:
 *   1. MRT import: the RouteViews IPv4 RIB sample (BENCH_MRT_FILE, default
 *      ../shared/testdata/bgp/routeviews2.rib.20140523.0600_firstMB.bz2): decoding alone and
 *      `bgpdump -m` (when installed), the import into fresh embedded stores and the store's insert
 *      ceiling for the same rows, peak memory, and the whole `npm run rib:import` process.
 *   1b. The same figures for a generated TABLE_DUMP_V2 dump (bench/mrt-generator.ts; BENCH_MRT_PREFIXES
 *      × BENCH_MRT_PEERS, default 1,000,000 × 8; BENCH_MRT_GENERATED=off skips it).
 *   2. Looking Glass queries through the app's code path (runLookingGlassQuery, as api/lookingglass/
 *      runs it) over a generated RIB of BENCH_RIB_ROUTES routes (default 1,000,000) for one vantage
 *      point: an IPv4 address (longest match), an IPv4 /16 (itself and its more-specifics), an IPv6
 *      address, and an AS path pattern. Target: ≤ 20 ms for a prefix lookup.
 * The generated RIB is kept in BENCH_DATA_DIR/routing (default ./data-bench/routing) for later runs.
 */
import { z } from "zod";
import { existsSync, mkdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { vantagePoints } from "~db/postgres/schema";
import { runLookingGlassQuery } from "~/features/routing/lookingglass.server";
import { chCommand, chQuery } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { wireApp } from "~/wiring.server";
import { bgpdumpTime, decodeOnly, freshStores, importOnce, insertCeiling, wholeProcessImport } from "./mrt-import";
import { generatedDump, generatedDumpOptions } from "./mrt-generator";
import { recordBenchOutput } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VANTAGE_POINT = { key: "bench1", city: "Frankfurt", country: "Germany", router: "bench-r1", ip: "192.0.2.250", isPublic: false };
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUPS = 3;
const ROUTES = Number(process.env.BENCH_RIB_ROUTES ?? 1_000_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function openStores(dataDir: string): Promise<Services> {
  mkdirSync(dataDir, { recursive: true });
  const config = parseConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
  wireApp();
  return startServices(config, { loadDemo: false });
}

async function ensureVantagePoint(services: Services) {
  const found = await services.pg.db.select().from(vantagePoints).where(eq(vantagePoints.key, VANTAGE_POINT.key));
  if (!found.length) await services.pg.db.insert(vantagePoints).values(VANTAGE_POINT);
}

type Figures = Record<string, string>;

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const secs = (t: { seconds: number; load: string }) => `${t.seconds.toFixed(2)} s (load ${t.load})`;

/**
 * Decoding alone against `bgpdump -m` on the same file, the import into fresh stores against the
 * store's insert ceiling for the same rows, and the import's peak memory above the idle process.
 */
async function importFigures(figures: Figures, label: string, file: string) {
  const decode = await decodeOnly(file);
  console.log(`  decode only: ${fmt(decode.rows)} rows in ${secs(decode)}, ${decode.cpuSeconds.toFixed(2)} s CPU in this process`);
  figures[`${label}: decode only (file → rows)`] = `${fmt(decode.rows)} rows in ${secs(decode)}`;
  const bgpdump = bgpdumpTime(file);
  if (bgpdump) {
    console.log(`  bgpdump -m: ${fmt(bgpdump.lines)} lines in ${secs(bgpdump)}`);
    figures[`${label}: bgpdump -m`] = `${fmt(bgpdump.lines)} lines in ${secs(bgpdump)}`;
    figures[`${label}: decode only / bgpdump -m`] = ratio(decode.seconds, bgpdump.seconds);
  } else figures[`${label}: bgpdump -m`] = "not installed (apt-get install bgpdump)";
  for (const step of ["import", "ceiling"] as const) {
    const stores = await freshStores();
    try {
      if (step === "import") {
        const run = await importOnce(stores.services, file);
        console.log(
          `  import: ${fmt(run.rows)} rows in ${secs(run)} = ${fmt(run.rows / run.seconds)} rows/s, peak RSS +${fmt(run.peakAboveIdleMiB)} MiB`,
        );
        figures[`${label}: import`] = `${fmt(run.rows)} rows in ${secs(run)} = ${fmt(run.rows / run.seconds)} rows/s`;
        figures[`${label}: import peak RSS above idle`] = `${fmt(run.peakAboveIdleMiB)} MiB (idle ${fmt(run.idleMiB)} MiB)`;
        figures[`${label}: import seconds`] = String(run.seconds);
      } else {
        const run = await insertCeiling(stores.services, file);
        console.log(`  insert ceiling (pre-encoded rows, inserts alone): ${fmt(run.rows)} rows in ${secs(run)}`);
        figures[`${label}: insert ceiling (pre-encoded rows)`] =
          `${fmt(run.rows)} rows in ${secs(run)} = ${fmt(run.rows / run.seconds)} rows/s`;
        figures[`${label}: import / insert ceiling`] = ratio(Number(figures[`${label}: import seconds`]), run.seconds);
      }
    } finally {
      await stores.dispose();
    }
  }
  delete figures[`${label}: import seconds`];
  return bgpdump;
}

async function importBenchmark(figures: Figures) {
  const file = path.resolve(ROOT, process.env.BENCH_MRT_FILE ?? "../shared/testdata/bgp/routeviews2.rib.20140523.0600_firstMB.bz2");
  if (!existsSync(file)) {
    console.log(`== 1. MRT import: ${file} not found (set BENCH_MRT_FILE): skipped`);
    figures["MRT import"] = "skipped (no file)";
    return;
  }
  console.log(`== 1. MRT import of ${path.basename(file)} (${fmt(statSync(file).size)} B) into fresh embedded stores`);
  const bgpdump = await importFigures(figures, "RouteViews sample", file);
  const cli = wholeProcessImport(file);
  if (!cli.ok) throw new Error("npm run rib:import wrote no rows");
  console.log(`  npm run rib:import (whole process, start included): ${fmt(cli.rows)} rows in ${secs(cli)}`);
  figures["RouteViews sample: npm run rib:import (whole process)"] = `${fmt(cli.rows)} rows in ${secs(cli)}`;
  if (bgpdump) figures["RouteViews sample: whole process / bgpdump -m"] = ratio(cli.seconds, bgpdump.seconds);
}

async function generatedDumpBenchmark(figures: Figures) {
  if (process.env.BENCH_MRT_GENERATED === "off") return;
  const options = generatedDumpOptions();
  const label = `generated ${fmt(options.prefixes)} × ${options.peers}`;
  console.log(`== 1b. MRT import of a generated RIB dump (${label}, bzip2)`);
  const file = await generatedDump(options);
  await importFigures(figures, label, file);
}

/**
 * ROUTES routes for the bench vantage point, generated inside ClickHouse: 90 % IPv4 /24s from
 * 1.0.0.0 upwards with a covering /16 every 256, 10 % IPv6 /48s under 2a00::/12 — paths of 3–4
 * ASes ending at one of ~60,000 origins.
 */
async function ensureRib(services: Services): Promise<number> {
  const count = async () =>
    Number(
      (
        await chQuery(services.ch, {
          name: "bench.ribCount",
          sql: "SELECT count() AS n FROM rib_current WHERE vantage_point = {vp:String}",
          params: { vp: VANTAGE_POINT.key },
          schema: z.object({ n: z.number() }),
        })
      )[0].n,
    );
  const have = await count();
  if (have >= ROUTES * 0.99) return have;
  const v4 = Math.floor(ROUTES * 0.9);
  const v6 = ROUTES - v4;
  console.log(`  generating ${fmt(ROUTES)} routes (${fmt(v4)} IPv4, ${fmt(v6)} IPv6)…`);
  const started = performance.now();
  const common = `toDateTime('2026-11-01 00:00:00', 'UTC') AS timestamp, {vp:String} AS vantage_point, '192.0.2.250' AS router_ip,
    '198.51.100.1' AS peer_ip, toUInt32(64496) AS peer_asn, '' AS route_distinguisher`;
  const path = `arrayConcat([toUInt32(64496), toUInt32(174 + number % 7)], if(number % 3 = 0, [toUInt32(3320)], []), [toUInt32(1000 + number % 60000)]) AS as_path`;
  const tail = `[] AS as_path_set, [] AS as_confed_seq, toUInt32(100) AS local_pref, toUInt32(0) AS med, '198.51.100.1' AS bgp_next_hop,
    'IGP' AS origin, '' AS aggregator, '' AS originator_id, ['64500:100'] AS communities, toDateTime(0, 'UTC') AS expire_at`;
  await chCommand(services.ch, {
    name: "bench.ribIpv4",
    sql: `INSERT INTO rib_entries SELECT ${common},
      concat(IPv4NumToString(toUInt32(16777216 + (if(number % 257 = 256, intDiv(number, 257) * 65536, number - intDiv(number, 257)) * 256))), if(number % 257 = 256, '/16', '/24')) AS prefix,
      toIPv6(IPv4NumToString(toUInt32(16777216 + (if(number % 257 = 256, intDiv(number, 257) * 65536, number - intDiv(number, 257)) * 256)))) AS prefix_addr,
      toUInt8(if(number % 257 = 256, 16, 24)) AS prefix_len, toUInt8(1) AS afi, toUInt8(1) AS safi, toUInt8(0) AS is_withdrawn, ${path}, ${tail}
      FROM numbers({n:UInt64})`,
    params: { vp: VANTAGE_POINT.key, n: v4 },
  });
  await chCommand(services.ch, {
    name: "bench.ribIpv6",
    sql: `INSERT INTO rib_entries SELECT ${common},
      concat(toString(toIPv6(concat('2a0', toString(intDiv(number, 65536) % 10), ':', lower(hex(toUInt16(number % 65536))), '::'))), '/48') AS prefix,
      toIPv6(concat('2a0', toString(intDiv(number, 65536) % 10), ':', lower(hex(toUInt16(number % 65536))), '::')) AS prefix_addr,
      toUInt8(48) AS prefix_len, toUInt8(2) AS afi, toUInt8(1) AS safi, toUInt8(0) AS is_withdrawn, ${path}, ${tail}
      FROM numbers({n:UInt64})`,
    params: { vp: VANTAGE_POINT.key, n: Math.min(v6, 655_360) },
  });
  await chCommand(services.ch, { name: "bench.ribOptimize", sql: "OPTIMIZE TABLE rib_current FINAL" });
  console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return count();
}

async function queryBenchmark(figures: Figures) {
  const dataDir = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench", "routing");
  console.log(`== 2. Looking Glass queries over a generated RIB (${dataDir})`);
  const services = await openStores(dataDir);
  try {
    await ensureVantagePoint(services);
    const routes = await ensureRib(services);
    console.log(`  ${fmt(routes)} current routes for ${VANTAGE_POINT.key}`);
    figures["RIB size (current routes, one vantage point)"] = fmt(routes);
    const cases: [string, string, string][] = [
      ["IPv4 address (longest match)", "IpPrefixQuery", "5.6.7.8"],
      ["IPv4 /16 (+ more-specifics)", "IpPrefixQuery", "5.6.0.0/16"],
      ["IPv6 address (longest match)", "IpPrefixQuery", "2a00:12::1"],
      ["AS path pattern '* 3320 ?'", "AsPathQuery", "* 3320 ?"],
    ];
    for (const [label, queryType, queryTerm] of cases) {
      const samples: number[] = [];
      let rows = 0;
      for (let i = 0; i < WARMUPS + RUNS; i++) {
        const started = performance.now();
        const result = await runLookingGlassQuery(services, {
          variant: "private",
          queryType,
          queryTerm,
          vantagePoints: [VANTAGE_POINT.key],
        });
        const elapsed = performance.now() - started;
        const found = result.results[VANTAGE_POINT.key];
        rows = Array.isArray(found) ? found.length : 0;
        if (i >= WARMUPS) samples.push(elapsed);
      }
      if (rows === 0) throw new Error(`${label}: no rows — the generated RIB does not hold what the query asks`);
      const line = `median ${median(samples).toFixed(1)} ms, p90 ${p90(samples).toFixed(1)} ms (${rows} rows shown, n=${samples.length})`;
      console.log(`  ${label.padEnd(32)} ${line}`);
      figures[label] = line;
    }
  } finally {
    await services.close();
  }
}

async function main() {
  const figures: Figures = {};
  await importBenchmark(figures);
  await generatedDumpBenchmark(figures);
  await queryBenchmark(figures);
  figures.Machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}`;
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  console.log(`\n== Summary\n`);
  for (const [k, v] of Object.entries(figures)) console.log(`| ${k.padEnd(width)} | ${v} |`);
}

const results = recordBenchOutput("Routing data (`npm run bench:routing`)");
main().then(
  () => {
    results.finish();
    process.exit(0);
  },
  (error) => {
    console.error(error instanceof Error ? `bench:routing: ${error.message}` : error);
    process.exit(1);
  },
);
