/**
 * npm run bench
 *
 * Two benchmarks on the demo network, printed side by side in one run:
 *   1. ClickHouse (chDB): a top-10-by-source-AS query (A) against a bare sum(bytes) (B) over the
 *      last 30 days of flows_5m, in the embedded stores under BENCH_DATA_DIR (default ./data-bench),
 *      loading the 35-day demo there first if the stores are empty.
 *   2. HTTP: the built app (scripts/start.mjs) on a free port over the same data dir,
 *      sequential GET /login against GET /healthz, time to first byte and total time.
 * Ends with a summary table to paste into notes. No thresholds: it only fails on real errors.
 *
 * Knobs (environment): BENCH_DATA_DIR, BENCH_RUNS (queries, default 10), BENCH_REQUESTS (default 50).
 */
import { z } from "zod";
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { systemState } from "~db/postgres/schema";
import { DEMO_DAYS, loadDemoNetwork } from "~db/demo/load";
import { chQuery } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices, storesAreEmpty, type Services } from "~/server/services.server";
import { wireApp } from "~/wiring.server";
import { DEEP_LINK, measureDeepLink, operatorCookie, type PageJs } from "./deep-link";
import { measureAsDimensions, type DimensionFigure } from "./flows-dimensions";
import { timedRequest, type Timing } from "./http-request";
import { recordBenchOutput } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DAY = 86_400;
const BUCKET = 300;
const RANGE_DAYS = 30;
const QUERY_WARMUPS = 2;
const REQUEST_WARMUPS = 5;
const HEALTH_WAIT_MS = 10 * 60_000;
const KILL_GRACE_MS = 15_000;

const QUERY_A = `SELECT as_src, toFloat64(sum(bytes)) * 8 / {seconds:UInt32} AS bps
FROM flows_5m
WHERE time >= {from:DateTime} AND time < {to:DateTime}
GROUP BY as_src
ORDER BY bps DESC
LIMIT 10`;
const QUERY_B = `SELECT toFloat64(sum(bytes)) AS bytes FROM flows_5m WHERE time >= {from:DateTime} AND time < {to:DateTime}`;
const QUERY_COUNT = `SELECT toUInt64(count()) AS n FROM flows_5m WHERE time >= {from:DateTime} AND time < {to:DateTime}`;

// ---------------------------------------------------------------------------------------------
// Small helpers

class BenchError extends Error {}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new BenchError(`${name} must be a positive integer (got "${raw}")`);
  return value;
}

type Stats = { median: number; p90: number; min: number; max: number; n: number };

/** Percentile with linear interpolation between the closest ranks (the usual "type 7"). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p90: percentile(sorted, 90), min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const ratio = (value: number) => `${value.toFixed(2)}×`;
const seconds = (millis: number) => `${(millis / 1000).toFixed(1)} s`;
const grouped = (value: number) => Math.round(value).toLocaleString("en-US");

function perSecond(value: number): string {
  const units: [number, string][] = [
    [1e9, "G"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [scale, suffix] of units) if (value >= scale) return `${(value / scale).toFixed(1)} ${suffix}rows/s`;
  return `${value.toFixed(0)} rows/s`;
}

const isoMinute = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 16).replace("T", " ") + "Z";

function line(label: string, s: Stats, unit = "ms") {
  console.log(
    `  ${label.padEnd(26)} median ${ms(s.median).padStart(7)} ${unit}   p90 ${ms(s.p90).padStart(7)} ${unit}   (min ${ms(s.min)}, max ${ms(s.max)}, n=${s.n})`,
  );
}

// ---------------------------------------------------------------------------------------------
// 1. Query benchmark (chDB)

type QueryResult = {
  from: number;
  to: number;
  rows: number;
  version: string;
  a: Stats;
  b: Stats;
  topAs: { as_src: number; bps: number }[];
  dimensions: DimensionFigure[];
  demoLoadMs?: number;
};

/** The stores run embedded: the bench measures chDB and PGlite whatever the shell's environment says. */
function embeddedEnv(dataDir: string): Record<string, string | undefined> {
  return { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" };
}

async function queryBenchmark(dataDir: string, runs: number): Promise<QueryResult> {
  console.log(`\n== 1. ClickHouse (chDB) queries — data dir ${dataDir}`);
  const config = parseConfig(embeddedEnv(dataDir));
  const openedAt = performance.now();
  wireApp();
  const services = await startServices(config, { loadDemo: false });
  console.log(`  stores opened in ${seconds(performance.now() - openedAt)}`);
  try {
    let demoLoadMs: number | undefined;
    if (await storesAreEmpty(services)) {
      console.log(`  stores are empty: loading the ${DEMO_DAYS}-day demo network (takes a minute or two)…`);
      const started = performance.now();
      const summary = await loadDemoNetwork(services, { days: DEMO_DAYS });
      demoLoadMs = performance.now() - started;
      console.log(`  demo loaded in ${seconds(demoLoadMs)} (${summary.period.start} → ${summary.period.end}); later runs reuse it`);
    } else {
      await assertDemoComplete(services, dataDir);
      console.log("  reusing the data already in the stores");
    }
    return { ...(await measureQueries(services, runs)), demoLoadMs };
  } finally {
    await services.close();
  }
}

/** A demo load that was interrupted leaves partial data behind: refuse to time that. */
async function assertDemoComplete(services: Services, dataDir: string) {
  const [row] = await services.pg.db.select().from(systemState).where(eq(systemState.key, "demo"));
  const value = row?.value as { loaded?: boolean } | undefined;
  if (value && value.loaded === false) {
    throw new BenchError(`The demo load in ${dataDir} did not finish (interrupted run?). Delete that directory and run the bench again.`);
  }
}

async function measureQueries(services: Services, runs: number): Promise<Omit<QueryResult, "demoLoadMs">> {
  const rows = <S extends z.ZodType>(schema: S, sql: string, params?: Record<string, unknown>) =>
    chQuery(services.ch, { name: "bench.query", sql, params, schema });

  const [{ version }] = await rows(z.object({ version: z.string() }), "SELECT version() AS version");
  const [{ latest }] = await rows(z.object({ latest: z.number() }), "SELECT toUInt32(max(time)) AS latest FROM flows_5m");
  if (!latest) throw new BenchError("flows_5m holds no data in the bench data dir");
  // The last 30 days *of data* (not of the clock), so a reused data dir keeps the same workload.
  const to = latest + BUCKET;
  const from = to - RANGE_DAYS * DAY;
  const params = { from, to };
  const [{ earliest }] = await rows(z.object({ earliest: z.number() }), "SELECT toUInt32(min(time)) AS earliest FROM flows_5m");
  if (earliest > from) console.log(`  note: the data starts at ${isoMinute(earliest)}, less than ${RANGE_DAYS} days before its end`);
  const [{ n }] = await rows(z.object({ n: z.number() }), QUERY_COUNT, params);
  const rowCount = Number(n);
  console.log(`  range ${isoMinute(from)} → ${isoMinute(to)} (${RANGE_DAYS} days), ${grouped(rowCount)} rows in flows_5m, chDB ${version}`);

  const queryA = () => rows(z.object({ as_src: z.number(), bps: z.number() }), QUERY_A, { ...params, seconds: to - from });
  const queryB = () => rows(z.object({ bytes: z.number() }), QUERY_B, params);
  const timed = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
    const started = performance.now();
    const result = await run();
    return [performance.now() - started, result];
  };

  let topAs: { as_src: number; bps: number }[] = [];
  const samplesA: number[] = [];
  const samplesB: number[] = [];
  console.log(`  ${QUERY_WARMUPS} warm-ups, then ${runs} runs each, alternating (A B, B A, …)`);
  for (let i = 0; i < QUERY_WARMUPS + runs; i++) {
    const order = i % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
    for (const which of order) {
      if (which === "A") {
        const [elapsed, result] = await timed(queryA);
        if (result.length === 0) throw new BenchError("query A returned no rows");
        topAs = result;
        if (i >= QUERY_WARMUPS) samplesA.push(elapsed);
      } else {
        const [elapsed, result] = await timed(queryB);
        if (result.length !== 1) throw new BenchError("query B did not return one row");
        if (i >= QUERY_WARMUPS) samplesB.push(elapsed);
      }
    }
  }
  const a = stats(samplesA);
  const b = stats(samplesB);
  line("A top-10 source AS", a);
  line("B bare sum(bytes)", b);
  console.log(`  A/B (median)               ${ratio(a.median / b.median)}`);
  console.log(`  rows/s (median)            A ${perSecond(rowCount / (a.median / 1000))}, B ${perSecond(rowCount / (b.median / 1000))}`);
  console.log(
    `  top source AS: ${topAs
      .slice(0, 3)
      .map((r) => `AS${r.as_src} ${(r.bps / 1e9).toFixed(1)} Gbit/s`)
      .join(", ")}, …`,
  );

  console.log(
    `\n== 1b. Flow Explorer top-10 per AS dimension, ${RANGE_DAYS} days, two filters (app code path vs bare scan of the same rows)`,
  );
  const dimensions = await measureAsDimensions(services, { from, to }, runs, QUERY_WARMUPS);
  for (const d of dimensions) {
    const server = stats(d.server);
    const cold = stats(d.serverColdRange);
    const scan = stats(d.scan);
    console.log(
      `  ${d.dimension.padEnd(20)} server ${ms(server.median).padStart(6)} ms (range read first ${ms(cold.median).padStart(6)} ms)  scan ${ms(scan.median).padStart(6)} ms  ratio ${ratio(server.median / scan.median)} (${ratio(cold.median / scan.median)})   [${d.filters}] top: ${d.topValue}`,
    );
  }
  return { from, to, rows: rowCount, version, a, b, topAs, dimensions };
}

// ---------------------------------------------------------------------------------------------
// 2. HTTP benchmark (the built app)

type HttpResult = {
  login: { ttfb: Stats; total: Stats; bytes: number };
  healthz: { ttfb: Stats; total: Stats; bytes: number };
  deepLink: { ttfb: Stats; total: Stats; bytes: number; js: PageJs };
  startMs: number;
  builtIn?: string;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One GET with the default headers (see http-request.ts). */
function get(agent: http.Agent, port: number, pathname: string, timeoutMs = 30_000): Promise<Timing> {
  return timedRequest(agent, port, pathname, { timeoutMs });
}

class AppServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private exitInfo?: string;
  readonly logFile: string;

  constructor(dataDir: string) {
    this.logFile = path.join(dataDir, "bench-app.log");
  }

  start(port: number, dataDir: string) {
    const log = createWriteStream(this.logFile, { flags: "w" });
    // Own process group: start.mjs spawns the build and server.mjs, and they all go together.
    this.child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...embeddedEnv(dataDir), PORT: String(port), NODE_ENV: "production" },
    });
    this.child.stdout!.pipe(log, { end: false });
    this.child.stderr!.pipe(log, { end: false });
    this.exited = new Promise((resolve) => {
      this.child!.on("exit", (code, signal) => {
        this.exitInfo = signal ? `signal ${signal}` : `exit code ${code}`;
        resolve();
      });
    });
  }

  get running(): boolean {
    return !!this.child && this.exitInfo === undefined;
  }

  get exitDescription(): string | undefined {
    return this.exitInfo;
  }

  logTail(lines = 30): string {
    if (!existsSync(this.logFile)) return "";
    return readFileSync(this.logFile, "utf8")
      .trimEnd()
      .split("\n")
      .slice(-lines)
      .map((l) => `    | ${l}`)
      .join("\n");
  }

  builtIn(): string | undefined {
    if (!existsSync(this.logFile)) return undefined;
    return readFileSync(this.logFile, "utf8").match(/Built in ([\d.]+ s)/)?.[1];
  }

  /** SIGTERM goes to start.mjs alone (it forwards it to server.mjs); SIGKILL to the whole group. */
  private signal(sig: NodeJS.Signals) {
    if (!this.child?.pid || !this.running) return;
    try {
      process.kill(sig === "SIGKILL" ? -this.child.pid : this.child.pid, sig);
    } catch {
      // already gone
    }
  }

  /** SIGTERM to the app, SIGKILL to its process group if it is still there after 15 s. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited!.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), KILL_GRACE_MS))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      console.log(`  the app was still running ${KILL_GRACE_MS / 1000} s after SIGTERM: SIGKILL`);
      this.signal("SIGKILL");
      await this.exited;
    }
    // server.mjs may outlive start.mjs for a moment: make sure nothing of the group is left.
    if (this.child?.pid) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // nothing left
      }
    }
  }

  /** Last resort on process exit (synchronous): nothing of the group may survive the bench. */
  killNow() {
    if (!this.child?.pid) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // nothing left
    }
  }
}

async function waitForHealth(app: AppServer, port: number): Promise<number> {
  const started = performance.now();
  const agent = new http.Agent({ keepAlive: false });
  let last = "no answer yet";
  let nextNotice = 30_000;
  while (performance.now() - started < HEALTH_WAIT_MS) {
    if (!app.running) {
      throw new BenchError(
        `The app exited (${app.exitDescription}) before /healthz answered. Last lines of ${app.logFile}:\n${app.logTail()}`,
      );
    }
    try {
      const result = await get(agent, port, "/healthz", 10_000);
      if (result.status === 200) return performance.now() - started;
      last = `HTTP ${result.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (performance.now() - started > nextNotice) {
      console.log(`  still waiting for /healthz after ${seconds(performance.now() - started)} (${last}; building the app?)`);
      nextNotice += 30_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new BenchError(
    `/healthz did not answer 200 within ${HEALTH_WAIT_MS / 60_000} min (last: ${last}). Last lines of ${app.logFile}:\n${app.logTail()}`,
  );
}

async function httpBenchmark(app: AppServer, dataDir: string, requests: number): Promise<HttpResult> {
  console.log(`\n== 2. HTTP — the built app (scripts/start.mjs) on the same data dir`);
  const port = await freePort();
  console.log(`  starting the app on port ${port} (builds first if the build is stale; log: ${app.logFile})…`);
  app.start(port, dataDir);
  const startMs = await waitForHealth(app, port);
  const builtIn = app.builtIn();
  console.log(`  /healthz answered 200 after ${seconds(startMs)}${builtIn ? ` (including a build of ${builtIn})` : ""}`);

  // One keep-alive connection, as a browser would hold: TTFB is server time, not TCP set-up.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = { login: [] as Timing[], healthz: [] as Timing[] };
  console.log(
    `  ${REQUEST_WARMUPS} warm-ups, then ${requests} sequential requests each, alternating (/login /healthz, /healthz /login, …)`,
  );
  for (let i = 0; i < REQUEST_WARMUPS + requests; i++) {
    const order = i % 2 === 0 ? (["login", "healthz"] as const) : (["healthz", "login"] as const);
    for (const which of order) {
      const result = await get(agent, port, `/${which}`);
      if (result.status !== 200) throw new BenchError(`GET /${which} answered HTTP ${result.status}`);
      if (i >= REQUEST_WARMUPS) samples[which].push(result);
    }
  }
  const cookie = await operatorCookie(agent, port);
  const deepLinkRequests = Math.min(requests, 20);
  console.log(`  deep link (operator, ${deepLinkRequests} requests after ${REQUEST_WARMUPS} warm-ups): ${DEEP_LINK}`);
  const deep = await measureDeepLink(agent, port, cookie, deepLinkRequests, REQUEST_WARMUPS, path.join(ROOT, "build", "client"));
  agent.destroy();
  const summarise = (list: Timing[]) => ({
    ttfb: stats(list.map((t) => t.ttfb)),
    total: stats(list.map((t) => t.total)),
    bytes: Math.round(list.reduce((sum, t) => sum + t.bytes, 0) / list.length),
  });
  const login = summarise(samples.login);
  const healthz = summarise(samples.healthz);
  line("/login TTFB", login.ttfb);
  line("/login total", login.total);
  line("/healthz TTFB", healthz.ttfb);
  line("/healthz total", healthz.total);
  console.log(
    `  login/healthz (median TTFB) ${ratio(login.ttfb.median / healthz.ttfb.median)}   (bodies: /login ${grouped(login.bytes)} B, /healthz ${grouped(healthz.bytes)} B)`,
  );
  const deepLink = { ...summarise(deep.samples), js: deep.js };
  line("deep link TTFB", deepLink.ttfb);
  line("deep link total", deepLink.total);
  console.log(
    `  deep link HTML ${grouped(deepLink.bytes)} B; its JavaScript: ${deep.js.files} files, ${grouped(deep.js.raw)} B raw, ${grouped(deep.js.gzip)} B gzip`,
  );
  return { login, healthz, deepLink, startMs, builtIn };
}

// ---------------------------------------------------------------------------------------------
// 3. Summary

/** One row: a label, a number to align with the others (may be empty) and the rest of the cell. */
type Row = { label: string; num?: string; rest?: string };

function table(rows: Row[]): string {
  const numWidth = Math.max(0, ...rows.map((r) => r.num?.length ?? 0));
  const cells = rows.map((r) => [r.label, (r.num !== undefined ? r.num.padStart(numWidth) : "") + (r.rest ?? "")]);
  const header = ["Figure", "Value"];
  const widths = [0, 1].map((c) => Math.max(header[c].length, ...cells.map((cell) => cell[c].length)));
  const render = (cell: string[]) => `| ${cell[0].padEnd(widths[0])} | ${cell[1].padEnd(widths[1])} |`;
  const rule = `|${"-".repeat(widths[0] + 2)}|${"-".repeat(widths[1] + 2)}|`;
  return [render(header), rule, ...cells.map(render)].join("\n");
}

function cpuModel(): string {
  const model = os.cpus()[0]?.model ?? "unknown CPU";
  return model
    .replace(/\((R|TM)\)/gi, "")
    .replace(/\b(CPU|Processor)\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function summary(q: QueryResult, h: HttpResult, runs: number, requests: number, totalMs: number): string {
  const timings: [string, Stats][] = [
    [`A top-10 source AS, ${RANGE_DAYS} d`, q.a],
    [`B bare sum(bytes), ${RANGE_DAYS} d`, q.b],
    ["GET /login TTFB", h.login.ttfb],
    ["GET /login total", h.login.total],
    ["GET /healthz TTFB", h.healthz.ttfb],
    ["GET /healthz total", h.healthz.total],
  ];
  const p90Width = Math.max(...timings.map(([, s]) => ms(s.p90).length));
  const timing = (label: string, s: Stats): Row => ({
    label: `${label} (median / p90)`,
    num: ms(s.median),
    rest: ` / ${ms(s.p90).padStart(p90Width)} ms`,
  });
  const throughput = (label: string, millis: number): Row => {
    const [num, unit] = perSecond(q.rows / (millis / 1000)).split(" ");
    return { label, num, rest: ` ${unit}` };
  };
  const rows: Row[] = [
    timing(...timings[0]),
    timing(...timings[1]),
    { label: "A/B (median)", num: ratio(q.a.median / q.b.median) },
    { label: `Rows scanned (flows_5m, ${RANGE_DAYS} d)`, num: grouped(q.rows) },
    throughput("A rows scanned/s (median)", q.a.median),
    throughput("B rows scanned/s (median)", q.b.median),
    timing(...timings[2]),
    timing(...timings[3]),
    timing(...timings[4]),
    timing(...timings[5]),
    { label: "login/healthz (median TTFB)", num: ratio(h.login.ttfb.median / h.healthz.ttfb.median) },
    timing("GET deep link TTFB", h.deepLink.ttfb),
    timing("GET deep link total", h.deepLink.total),
    {
      label: "Deep link page JavaScript",
      rest: `${h.deepLink.js.files} files, ${grouped(h.deepLink.js.raw)} B raw / ${grouped(h.deepLink.js.gzip)} B gzip`,
    },
    ...q.dimensions.map((d): Row => {
      const server = stats(d.server).median;
      const cold = stats(d.serverColdRange).median;
      const scan = stats(d.scan).median;
      return {
        label: `Top-10 ${d.dimension} / scan (median)`,
        num: ratio(server / scan),
        rest: `  (${ms(server)} / ${ms(scan)} ms; range read first: ${ratio(cold / scan).trim()}, ${ms(cold)} ms)`,
      };
    }),
    { label: "Samples", rest: `${runs} queries and ${requests} requests each (after ${QUERY_WARMUPS} / ${REQUEST_WARMUPS} warm-ups)` },
    { label: "Data range", rest: `${isoMinute(q.from)} → ${isoMinute(q.to)}` },
    { label: "App start to /healthz 200", rest: seconds(h.startMs) + (h.builtIn ? ` (incl. build ${h.builtIn})` : "") },
    ...(q.demoLoadMs !== undefined ? [{ label: "Demo load (this run)", rest: seconds(q.demoLoadMs) }] : []),
    { label: "Bench runtime", rest: seconds(totalMs) },
    { label: "Machine", rest: `${os.cpus().length} × ${cpuModel()}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM` },
    { label: "OS", rest: `${os.type()} ${os.release()} ${os.arch()}` },
    { label: "Node / chDB", rest: `${process.version} / ${q.version}` },
    { label: "Date", rest: new Date().toISOString().slice(0, 16).replace("T", " ") + "Z" },
  ];
  return table(rows);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const startedAt = performance.now();
  const dataDir = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench");
  const runs = positiveInt("BENCH_RUNS", 10);
  const requests = positiveInt("BENCH_REQUESTS", 50);
  mkdirSync(dataDir, { recursive: true });

  const app = new AppServer(dataDir);
  process.on("exit", () => app.killNow());
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.on(sig, () => {
      console.error(`\n${sig}: stopping the app…`);
      void app.stop().finally(() => process.exit(130));
    });
  }

  // Step 1 must close the embedded stores before the app opens them (one process at a time).
  const queries = await queryBenchmark(dataDir, runs);
  let http: HttpResult;
  try {
    http = await httpBenchmark(app, dataDir, requests);
  } finally {
    await app.stop();
  }

  console.log(`\n== Summary\n`);
  console.log(summary(queries, http, runs, requests, performance.now() - startedAt));
}

const results = recordBenchOutput("Query and HTTP (`npm run bench`)");
main().then(
  () => {
    results.finish();
    process.exit(0);
  },
  (error) => {
    console.error(error instanceof BenchError ? `\nbench: ${error.message}` : error);
    process.exit(1);
  },
);
