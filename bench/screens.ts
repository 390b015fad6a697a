/**
 * npm run bench:screens
 *
 * Server time and ClickHouse queries of every menu item's deep link on the demo network, next to
 * /login: the built app (scripts/start.mjs, rebuilt first when stale) started on a free port over
 * the embedded stores of BENCH_DATA_DIR (default ./data-bench; the 35-day demo is loaded there
 * first when the stores are empty). Per URL, as the demo operator (the admin for the admin
 * screens), one request after the other over one keep-alive connection: the first request (after
 * start, nothing cached) is reported apart, then the median of BENCH_RUNS (5) more. For each
 * request the ClickHouse reads it made, from the app's own counter
 * (flowlens_clickhouse_request_reads_total on /metrics, read before and after it). Answers other
 * than 200 (a 429 or 503 of the query limiter) are counted and shown next to the figures, which
 * are of the 200 answers. Writes its section of bench/RESULTS.md. No thresholds.
 *
 * Knobs (environment): BENCH_DATA_DIR, BENCH_RUNS, BENCH_APP_DIR (the checkout whose app to start,
 * default this one: point it at another checkout to measure that version on the same data).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { systemState } from "~db/postgres/schema";
import { DEMO_DAYS, loadDemoNetwork } from "~db/demo/load";
import { parseConfig } from "~/server/env.server";
import { startServices, storesAreEmpty } from "~/server/services.server";
import { wireApp } from "~/wiring.server";
import { loginCookie } from "./deep-link";
import { timedRequest } from "./http-request";
import { commitOf, loadAverage, writeResultsSection } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);
const DATA_DIR = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const START_WAIT_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 120_000;
const METRICS_TOKEN = randomBytes(16).toString("hex");
const READS_METRIC = "flowlens_clickhouse_request_reads_total";

type Who = "anonymous" | "operator" | "admin";
type Screen = { label: string; path: string; who: Who };

const D30 = "dateRange=LAST_30_DAYS";
const LG_QUERY = `queryType=IP_PREFIX_QUERY&queryTerm=${encodeURIComponent("203.0.113.0/24")}&selectedVantagePoints=${encodeURIComponent('["all"]')}`;

/** The menu's deep links (the planners' link details are added from the planners' own pages). */
const SCREENS: Screen[] = [
  { label: "/login", path: "/login", who: "anonymous" },
  { label: "Flow Explorer, 30 days", path: `/flow-explorer?dimension=AS_SRC_INGRESS&${D30}`, who: "operator" },
  { label: "AS Flows Analysis, 30 days", path: `/as-flows-analysis?${D30}`, who: "operator" },
  { label: "AS Flows Egress, 30 days", path: `/as-flows-egress?${D30}`, who: "operator" },
  { label: "Core Planner, 30 days", path: `/core-planner?${D30}`, who: "operator" },
  { label: "Border Planner, 30 days", path: `/border-planner?${D30}`, who: "operator" },
  { label: "Looking Glass, one prefix", path: `/lookingglass?${LG_QUERY}`, who: "operator" },
  { label: "Control Plane", path: "/controlplane", who: "operator" },
  { label: "Raw Network Analyzer, last hour", path: "/rna", who: "operator" },
  {
    label: "Raw Network Analyzer, 6 hours by /24 and /48",
    path: "/rna?dateRange=LAST_6_HOURS&aggregationPrefixV4=24&aggregationPrefixV6=48",
    who: "operator",
  },
  { label: "Applications", path: "/mappings/applications", who: "operator" },
  { label: "Infrastructures", path: "/mappings/infrastructures", who: "operator" },
  { label: "AS Mappings", path: "/mappings/as", who: "operator" },
  { label: "Notifications", path: "/notifications", who: "operator" },
  { label: "Tag list", path: "/manage-tags", who: "admin" },
  { label: "Users", path: "/manage-users", who: "admin" },
  { label: "Delegated Users", path: "/manage-delegated-users", who: "admin" },
  { label: "Site settings", path: "/site-settings", who: "admin" },
  { label: "Site settings: inventory", path: "/site-settings/inventory", who: "admin" },
  { label: "Site settings: data sources", path: "/site-settings/data-sources", who: "admin" },
  { label: "Site settings: routing data", path: "/site-settings/routing-data", who: "admin" },
];

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

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const q = (n: number) => (Number.isNaN(n) ? "—" : String(n));
const fmtMs = (ms: number) => (Number.isNaN(ms) ? "—" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** The demo in the bench's data dir, loaded when missing (the stores closed again: the app opens them next). */
async function ensureDemo() {
  mkdirSync(DATA_DIR, { recursive: true });
  wireApp();
  const config = parseConfig({ ...process.env, DATA_DIR, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
  const services = await startServices(config, { loadDemo: false });
  try {
    if (await storesAreEmpty(services)) {
      console.log(`stores are empty: loading the ${DEMO_DAYS}-day demo network into ${DATA_DIR} (a few minutes)…`);
      await loadDemoNetwork(services, { days: DEMO_DAYS });
    }
    const [row] = await services.pg.db.select().from(systemState).where(eq(systemState.key, "demo"));
    if ((row?.value as { loaded?: boolean } | undefined)?.loaded === false)
      throw new Error(`The demo load in ${DATA_DIR} did not finish (interrupted run?). Delete that directory and run the bench again.`);
  } finally {
    await services.close();
  }
}

async function startApp(logFile: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const out = createWriteStream(logFile, { flags: "w" });
  // Own process group: start.mjs spawns the build and server.mjs, and they all stop together.
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR,
      DATABASE_URL: "",
      CLICKHOUSE_URL: "",
      DEMO_DATA: "off",
      NODE_ENV: "production",
      METRICS_TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const agent = new http.Agent({ keepAlive: false });
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}); see ${logFile}`);
    const ok = await timedRequest(agent, port, "/healthz", { timeoutMs: 10_000 }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { port, child };
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the app did not answer /healthz within ${START_WAIT_MS / 60_000} min; see ${logFile}`);
}

function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 15_000);
  return exited.then(() => {
    clearTimeout(timer);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // nothing of the group left
    }
  });
}

/** The app's count of ClickHouse reads made for requests so far (the metric appears with the first read). */
async function requestReads(agent: http.Agent, port: number): Promise<number> {
  const r = await timedRequest(agent, port, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, keepBody: true });
  if (r.status !== 200) throw new Error(`/metrics answered HTTP ${r.status}`);
  const lines = r.body.split("\n").filter((l) => l.startsWith(`${READS_METRIC}{`));
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

type Figure = {
  label: string;
  path: string;
  first: number;
  firstReads: number;
  median: number;
  reads: number;
  bytes: number;
  /** Answers other than 200, by status ("503 ×2"); empty when all were 200. */
  refused: string;
};

async function measure(agent: http.Agent, port: number, screen: Screen, cookies: Record<Who, string>, keepBody = false) {
  const samples: { ttfb: number; reads: number; bytes: number }[] = [];
  const refused = new Map<number, number>();
  let body = "";
  for (let i = 0; i <= RUNS; i++) {
    const before = await requestReads(agent, port);
    const r = await timedRequest(agent, port, screen.path, {
      headers: cookies[screen.who] ? { cookie: cookies[screen.who] } : {},
      keepBody: keepBody && !body,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    const after = await requestReads(agent, port);
    if (r.status !== 200) {
      if (r.status !== 429 && r.status !== 503) throw new Error(`GET ${screen.path} (${screen.who}) answered HTTP ${r.status}`);
      refused.set(r.status, (refused.get(r.status) ?? 0) + 1);
      console.log(`    HTTP ${r.status} (the query limiter) after ${fmtMs(r.ttfb)}`);
      continue;
    }
    if (keepBody && !body) body = r.body;
    samples.push({ ttfb: r.ttfb, reads: after - before, bytes: r.bytes });
  }
  // All refused: no time to give (NaN shows as "—"), the refusals say it.
  const [first = { ttfb: NaN, reads: NaN, bytes: NaN }, ...rest] = samples;
  if (!rest.length) rest.push({ ttfb: NaN, reads: NaN, bytes: NaN });
  const figure: Figure = {
    label: screen.label,
    path: screen.path,
    first: first.ttfb,
    firstReads: first.reads,
    median: median(rest.map((s) => s.ttfb)),
    reads: median(rest.map((s) => s.reads)),
    bytes: Math.round(median(rest.map((s) => s.bytes))),
    refused: [...refused].map(([status, n]) => `${status} ×${n}`).join(", "),
  };
  console.log(
    `  ${screen.label.padEnd(40)} first ${fmtMs(figure.first).padStart(7)} (${q(figure.firstReads)} queries)   median ${fmtMs(figure.median).padStart(7)} (${q(figure.reads)} queries)${figure.refused ? `   refused: ${figure.refused}` : ""}`,
  );
  return { figure, body };
}

/** The first link detail the planner page offers (its "open detail" anchor). */
function firstDetailPath(html: string, pathname: string): string | null {
  const m =
    /<a[^>]*href="([^"]*link=[^"]*)"[^>]*data-testid="planner-open-detail"|data-testid="planner-open-detail"[^>]*href="([^"]*)"/.exec(html);
  const href = (m?.[1] ?? m?.[2])?.replace(/&amp;/g, "&");
  if (!href) return null;
  return href.startsWith("?") ? `${pathname}${href}` : href;
}

async function main() {
  const loadBefore = loadAverage();
  await ensureDemo();
  const logFile = path.join(DATA_DIR, "bench-screens-app.log");
  console.log(`starting the app of ${APP_DIR} (log: ${logFile})…`);
  const { port, child } = await startApp(logFile);
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  };
  process.on("exit", stop);
  const figures: Figure[] = [];
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const cookies: Record<Who, string> = {
      anonymous: "",
      operator: await loginCookie(agent, port, "operator@flowlens.example", "flowlens-operator"),
      admin: await loginCookie(agent, port, "admin@flowlens.example", "flowlens-admin"),
    };
    console.log(`${RUNS} requests per URL after the first, one after the other (time to first byte):`);
    for (const screen of SCREENS) {
      const planner = screen.path.startsWith("/border-planner") || screen.path.startsWith("/core-planner");
      const { figure, body } = await measure(agent, port, screen, cookies, planner);
      figures.push(figure);
      if (planner) {
        const detail = firstDetailPath(body, screen.path.split("?")[0]);
        if (!detail) {
          // Every request refused: no page to take the detail's link from.
          if (!body) continue;
          throw new Error(`${screen.path} offers no link detail (no planner-open-detail anchor)`);
        }
        figures.push(
          (await measure(agent, port, { label: `${screen.label.split(",")[0]}, a link's detail`, path: detail, who: screen.who }, cookies))
            .figure,
        );
      }
    }
    agent.destroy();
  } finally {
    await stopApp(child);
  }
  const loadAfter = loadAverage();
  const rows = figures.map(
    (f) =>
      `| ${f.label} | ${fmtMs(f.median)} | ${q(f.reads)} | ${fmtMs(f.first)} | ${q(f.firstReads)} | ${Number.isNaN(f.bytes) ? "—" : `${Math.round(f.bytes / 1024)} kB`} | ${f.refused || "none"} |`,
  );
  const body = [
    `${RUNS} requests per URL after the first (time to first byte, one after the other, one keep-alive connection; the`,
    "first request of each URL after the app's start reported apart: nothing of it is cached yet). Queries: ClickHouse",
    "reads the request made. Demo operator; the admin for the admin screens. Refused: answers 429/503 of the query",
    "limiter (left out of the times).",
    "",
    "| screen | median | queries | first request | its queries | HTML | refused |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "Deep links:",
    "",
    ...figures.map((f) => `- ${f.label}: \`${f.path}\``),
  ].join("\n");
  writeResultsSection(
    "Screens (`npm run bench:screens`)",
    { commit: commitOf(APP_DIR), load: `${loadBefore} before, ${loadAfter} after` },
    body,
  );
  console.log(`\nload average before ${loadBefore}, after ${loadAfter}; written to bench/RESULTS.md`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
