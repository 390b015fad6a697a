/**
 * npm run bench:public-lg
 *
 * The public Looking Glass as anonymous visitors get it: starts the built app (server.mjs) with a
 * demo network on a free port, turns the public Looking Glass on (as the demo admin), then
 *   - for each public page (the form, query answers, a second page of results, no data, an invalid
 *     term) the JavaScript it loads or inlines, gzip-compressed script by script (bench/page-scripts.ts);
 *   - time to first byte of a cache miss (a query no visitor asked in the last minute: each request
 *     a different address, so neither the page cache nor the query cache holds it) and of a cache hit
 *     (the same URL again, served by server.mjs from the public page cache), median and p90.
 * Writes its section of bench/RESULTS.md.
 *
 * Knobs (environment): BENCH_APP_DIR (the checkout whose build to start, default this one),
 * BENCH_PUBLIC_LG_DATA_DIR (default ./data-bench-public-lg, reused between runs),
 * BENCH_PUBLIC_LG_DEMO_DAYS (default 2), BENCH_PUBLIC_LG_REQUESTS (default 20 per figure).
 */
import { existsSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { enablePublicLookingGlass, startApp, stopApp } from "./app-server";
import { loginCookie } from "./deep-link";
import { timedRequest } from "./http-request";
import { pageScripts } from "./page-scripts";
import { ALL_VANTAGE_POINTS, lg, PUBLIC_PAGES } from "./public-lg-pages";
import { commitOf, writeResultsSection } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);
const DATA_DIR = path.resolve(process.env.BENCH_PUBLIC_LG_DATA_DIR ?? path.join(ROOT, "data-bench-public-lg"));
const DEMO_DAYS = Number(process.env.BENCH_PUBLIC_LG_DEMO_DAYS ?? 2);
const REQUESTS = Number(process.env.BENCH_PUBLIC_LG_REQUESTS ?? 20);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  if (!existsSync(path.join(APP_DIR, "build/server/index.js")))
    throw new Error(`no build in ${APP_DIR}: run npx remix vite:build there first`);
  const clientDir = path.join(APP_DIR, "build/client");
  const publicDir = path.join(APP_DIR, "public");
  const logFile = path.join(DATA_DIR, "..", `${path.basename(DATA_DIR)}-app.log`);
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const loadBefore = load();
  console.log(`app: ${APP_DIR} (build of ${statSync(path.join(APP_DIR, "build/server/index.js")).mtime.toISOString()}), data: ${DATA_DIR}`);
  console.log(`machine: ${os.cpus().length} CPUs, load average ${loadBefore}`);
  const { port, child } = await startApp({ appDir: APP_DIR, dataDir: DATA_DIR, demoDays: DEMO_DAYS, logFile });
  process.once("SIGINT", () => void stopApp(child).then(() => process.exit(130)));
  const lines: string[] = [];
  const out = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  try {
    const agent = new http.Agent({ keepAlive: true });
    const admin = await loginCookie(agent, port, "admin@flowlens.example", "flowlens-admin");
    await enablePublicLookingGlass(agent, port, admin);

    out("| public page | scripts | JavaScript raw | JavaScript gzip |");
    out("|---|---|---|---|");
    let largest = 0;
    for (const page of PUBLIC_PAGES) {
      const res = await timedRequest(agent, port, page.url, { keepBody: true, timeoutMs: 120_000 });
      if (res.status !== 200) throw new Error(`GET ${page.url} answered HTTP ${res.status}`);
      if (!res.body.includes(page.expect)) throw new Error(`GET ${page.url} is not the page "${page.name}" (no ${page.expect})`);
      const js = pageScripts(res.body, clientDir, publicDir);
      largest = Math.max(largest, js.gzip);
      out(`| ${page.name} | ${js.scripts.length} | ${kb(js.raw)} | ${kb(js.gzip)} |`);
    }

    // Misses: a different address each time (203.0.113.N/32 of the demo's prefix), as a new visitor's query.
    const misses: number[] = [];
    const offset = Math.floor(Math.random() * 256);
    for (let i = 0; i < REQUESTS; i++) {
      const url = lg({
        selectedVantagePoints: ALL_VANTAGE_POINTS,
        queryType: "IpPrefixQuery",
        queryTerm: `203.0.113.${(offset + i) % 256}/32`,
      });
      const res = await timedRequest(agent, port, url, { timeoutMs: 120_000 });
      if (res.status !== 200) throw new Error(`GET ${url} answered HTTP ${res.status}`);
      misses.push(res.ttfb);
    }
    const hitUrl = PUBLIC_PAGES[1].url;
    await timedRequest(agent, port, hitUrl, { headers: { "accept-encoding": "gzip" }, timeoutMs: 120_000 });
    const hits: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const res = await timedRequest(agent, port, hitUrl, { headers: { "accept-encoding": "gzip" }, timeoutMs: 120_000 });
      if (res.status !== 200) throw new Error(`GET ${hitUrl} answered HTTP ${res.status}`);
      hits.push(res.ttfb);
    }
    agent.destroy();
    out("");
    out("| time to first byte (one client, keep-alive) | median | p90 |");
    out("|---|---|---|");
    out(`| cache miss (${misses.length} different queries) | ${ms(percentile(misses, 50))} | ${ms(percentile(misses, 90))} |`);
    out(`| cache hit (${hits.length} × the same query) | ${ms(percentile(hits, 50))} | ${ms(percentile(hits, 90))} |`);
    out("");
    out(`Largest public page: ${kb(largest)} of JavaScript (gzip); budget 30 kB.`);
  } finally {
    await stopApp(child);
  }
  writeResultsSection(
    "Public Looking Glass (`npm run bench:public-lg`)",
    { commit: commitOf(APP_DIR), load: `${loadBefore} before, ${load()} after` },
    lines.join("\n"),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
