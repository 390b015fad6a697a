/**
 * npm run bench:load
 *
 * Does one user stall everyone? Starts the built app (server.mjs) with a demo network on a free
 * port, logs in as the demo delegated user (and the admin, to turn the public Looking Glass on),
 * then runs three scenarios over loopback:
 *   (a) 8 parallel heavy Flow Explorer pages (30 days) of the delegated user, while /healthz and a
 *       static file are probed every 100 ms: the slowest answer of each probe;
 *   (b) 50 concurrent clients (the delegated user's session) on a 7-day deep link with two filters
 *       for 20 s: completed, p50/p95, time-outs, 429/503 counts, against one request alone;
 *   (c) 200 concurrent anonymous clients on one cached public Looking Glass query for 10 s:
 *       requests/s, p50/p95, time-outs.
 * With EVENT_LOOP_STATS_MS the app logs its event-loop delay each second; the bench reports the
 * max and p99 seen during each scenario (an app without that log shows "n/a").
 *
 * Knobs (environment): BENCH_APP_DIR (the checkout whose build to start, default this one: point
 * it at another checkout to measure that version), BENCH_LOAD_DATA_DIR (default ./data-bench-load,
 * reused between runs), BENCH_LOAD_DEMO_DAYS (default 8), BENCH_TIMEOUT_MS (client time-out, default
 * 10000), BENCH_LOAD_SECONDS_B / BENCH_LOAD_SECONDS_C (default 20 / 10).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { enablePublicLookingGlass, startApp, stopApp } from "./app-server";
import { loginCookie } from "./deep-link";
import { timedRequest, type Timing } from "./http-request";
import { recordBenchOutput } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);
const DATA_DIR = path.resolve(process.env.BENCH_LOAD_DATA_DIR ?? path.join(ROOT, "data-bench-load"));
const DEMO_DAYS = Number(process.env.BENCH_LOAD_DEMO_DAYS ?? 8);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10_000);
const SECONDS_B = Number(process.env.BENCH_LOAD_SECONDS_B ?? 20);
const SECONDS_C = Number(process.env.BENCH_LOAD_SECONDS_C ?? 10);

const HEAVY_PAGE = "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_30_DAYS";
/** 7 days, two filters the delegated user may set (router of entry, one big neighbour excluded). */
const DEEP_LINK_7D =
  "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_7_DAYS&filter=ROUTER_IN%3Afra-er1%2Cfra-er2&filter=AS_HND_INGRESS%3A%2115169";
const PUBLIC_LG = `/public/lookingglass?selectedVantagePoints=${encodeURIComponent('["all"]')}&queryType=IP_PREFIX_QUERY&queryTerm=${encodeURIComponent("203.0.113.0/24")}`;
const STATIC_FILE = "/favicon.svg";

type Outcome = { status: number; ms: number } | { status: "timeout" | "error"; ms: number };

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const fmt = (ms: number) => (Number.isNaN(ms) ? "n/a" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

async function request(agent: http.Agent, port: number, pathname: string, headers: Record<string, string> = {}): Promise<Outcome> {
  const started = performance.now();
  try {
    const res: Timing = await timedRequest(agent, port, pathname, { headers, timeoutMs: TIMEOUT_MS });
    return { status: res.status, ms: res.total };
  } catch (error) {
    const ms = performance.now() - started;
    return { status: /no answer within/.test(String(error)) ? "timeout" : "error", ms };
  }
}

function summary(outcomes: Outcome[]) {
  const ok = outcomes.filter((o) => o.status === 200).map((o) => o.ms);
  const all = outcomes.filter((o) => typeof o.status === "number").map((o) => o.ms);
  const count = (s: Outcome["status"]) => outcomes.filter((o) => o.status === s).length;
  return {
    requests: outcomes.length,
    completed: ok.length,
    p50: percentile(ok, 50),
    p95: percentile(ok, 95),
    answeredP95: percentile(all, 95),
    timeouts: count("timeout"),
    errors: count("error"),
    s429: count(429),
    s503: count(503),
    other: outcomes.filter((o) => typeof o.status === "number" && ![200, 429, 503].includes(o.status)).length,
  };
}

/** Clients that each send requests back to back until the time is up. */
async function closedLoop(clients: number, seconds: number, send: (agent: http.Agent) => Promise<Outcome>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) outcomes.push(await send(agent));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { outcomes, elapsed };
}

/** Probes a URL every `everyMs` until stopped; the slowest answer (a time-out counts as its time). */
function probe(port: number, pathname: string, everyMs = 100) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const failures: string[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const o = await request(agent, port, pathname);
      times.push(o.ms);
      if (o.status !== 200) failures.push(String(o.status));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      agent.destroy();
      return { max: Math.max(...times), p95: percentile(times, 95), n: times.length, failures };
    },
  };
}

/** Event-loop delay lines the app logged between two offsets of its log. */
function eventLoop(logFile: string, from: number) {
  const text = readFileSync(logFile, "utf8").slice(from);
  const lines = [...text.matchAll(/event loop delay over \d+ ms: max ([\d.]+) ms, p99 ([\d.]+) ms/g)];
  if (!lines.length) return { max: NaN, p99: NaN };
  return { max: Math.max(...lines.map((m) => Number(m[1]))), p99: Math.max(...lines.map((m) => Number(m[2]))) };
}

async function main() {
  if (!existsSync(path.join(APP_DIR, "build/server/index.js")))
    throw new Error(`no build in ${APP_DIR}: run npx remix vite:build there first`);
  const logFile = path.join(DATA_DIR, "..", `${path.basename(DATA_DIR)}-app.log`);
  console.log(
    `app: ${APP_DIR} (build of ${statSync(path.join(APP_DIR, "build/server/index.js")).mtime.toISOString()}), data: ${DATA_DIR}, demo days: ${DEMO_DAYS}`,
  );
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (other work on the machine shows in every figure)`,
  );
  const t0 = performance.now();
  const { port, child } = await startApp({
    appDir: APP_DIR,
    dataDir: DATA_DIR,
    demoDays: DEMO_DAYS,
    logFile,
    env: { EVENT_LOOP_STATS_MS: "1000" },
  });
  const stop = () => stopApp(child);
  process.once("SIGINT", () => void stop().then(() => process.exit(130)));
  try {
    console.log(`started in ${fmt(performance.now() - t0)} on port ${port}`);
    const agent = new http.Agent({ keepAlive: true });
    const delegated = await loginCookie(agent, port, "delegated@flowlens.example", "flowlens-delegated");
    const admin = await loginCookie(agent, port, "admin@flowlens.example", "flowlens-admin");
    await enablePublicLookingGlass(agent, port, admin);
    const warm = await timedRequest(agent, port, DEEP_LINK_7D, { headers: { cookie: delegated }, timeoutMs: 120_000 });
    if (warm.status !== 200) throw new Error(`the 7-day deep link answered ${warm.status}`);
    console.log("\n| scenario | figure | value |\n|---|---|---|");

    // (a)
    let logAt = statSync(logFile).size;
    const health = probe(port, "/healthz");
    const file = probe(port, STATIC_FILE);
    const pagesAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const pages = await Promise.all(Array.from({ length: 8 }, () => request(pagesAgent, port, HEAVY_PAGE, { cookie: delegated })));
    pagesAgent.destroy();
    const a = {
      health: await health.stop(),
      file: await file.stop(),
      pages: summary(pages),
      slowestPage: Math.max(...pages.map((p) => p.ms)),
      loop: eventLoop(logFile, logAt),
    };
    console.log(
      `| (a) 8 parallel 30-day Flow Explorer pages, delegated user | pages 200 / 429 / 503 / time-outs | ${a.pages.completed} / ${a.pages.s429} / ${a.pages.s503} / ${a.pages.timeouts} (slowest ${fmt(a.slowestPage)}) |`,
    );
    console.log(
      `| | /healthz max (p95, probes) | ${fmt(a.health.max)} (${fmt(a.health.p95)}, ${a.health.n}${a.health.failures.length ? `, failed: ${a.health.failures.join(",")}` : ""}) |`,
    );
    console.log(`| | static file max (p95, probes) | ${fmt(a.file.max)} (${fmt(a.file.p95)}, ${a.file.n}) |`);
    console.log(`| | event-loop delay max / p99 | ${fmt(a.loop.max)} / ${fmt(a.loop.p99)} |`);

    // (b)
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await timedRequest(agent, port, DEEP_LINK_7D, { headers: { cookie: delegated }, timeoutMs: 120_000 });
      if (o.status === 200) alone.push(o.total);
    }
    logAt = statSync(logFile).size;
    const healthB = probe(port, "/healthz");
    const b = await closedLoop(50, SECONDS_B, (ag) => request(ag, port, DEEP_LINK_7D, { cookie: delegated }));
    const bHealth = await healthB.stop();
    const bSum = summary(b.outcomes);
    const bLoop = eventLoop(logFile, logAt);
    const aloneMedian = percentile(alone, 50);
    console.log(
      `| (b) 50 clients × ${SECONDS_B} s, 7-day deep link, two filters | one request alone (median of ${alone.length}) | ${fmt(aloneMedian)} |`,
    );
    console.log(`| | completed (200) | ${bSum.completed} of ${bSum.requests} in ${b.elapsed.toFixed(1)} s |`);
    console.log(`| | p50 / p95 of completed | ${fmt(bSum.p50)} / ${fmt(bSum.p95)} (p95 = ${(bSum.p95 / aloneMedian).toFixed(1)}× alone) |`);
    console.log(`| | p95 of all answers | ${fmt(bSum.answeredP95)} |`);
    console.log(
      `| | time-outs (${TIMEOUT_MS / 1000} s) / 429 / 503 / other | ${bSum.timeouts} / ${bSum.s429} / ${bSum.s503} / ${bSum.other + bSum.errors} |`,
    );
    console.log(`| | /healthz max during (b) | ${fmt(bHealth.max)} |`);
    console.log(`| | event-loop delay max / p99 | ${fmt(bLoop.max)} / ${fmt(bLoop.p99)} |`);

    // (c)
    const first = await timedRequest(agent, port, PUBLIC_LG, { headers: { "accept-encoding": "gzip" }, timeoutMs: 120_000 });
    if (first.status !== 200) throw new Error(`the public Looking Glass answered ${first.status} (is it enabled?)`);
    logAt = statSync(logFile).size;
    const c = await closedLoop(200, SECONDS_C, (ag) => request(ag, port, PUBLIC_LG, { "accept-encoding": "gzip" }));
    const cSum = summary(c.outcomes);
    const cLoop = eventLoop(logFile, logAt);
    agent.destroy();
    console.log(
      `| (c) 200 anonymous clients × ${SECONDS_C} s, cached public LG | requests/s | ${(cSum.completed / c.elapsed).toFixed(0)} (${cSum.completed} of ${cSum.requests}) |`,
    );
    console.log(`| | p50 / p95 | ${fmt(cSum.p50)} / ${fmt(cSum.p95)} |`);
    console.log(`| | time-outs / 429 / 503 / other | ${cSum.timeouts} / ${cSum.s429} / ${cSum.s503} / ${cSum.other + cSum.errors} |`);
    console.log(`| | event-loop delay max / p99 | ${fmt(cLoop.max)} / ${fmt(cLoop.p99)} |`);

    console.log(
      `\nload average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}; app log: ${logFile}`,
    );
  } finally {
    await stop();
  }
}

const results = recordBenchOutput("Load (`npm run bench:load`)", APP_DIR);
main()
  .then(() => results.finish())
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
