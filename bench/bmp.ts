/**
 * npm run bench:bmp
 *
 * BMP station figures on fresh embedded stores, printed as one table at the end:
 *   1. one BMP session streaming a generated full IPv4 table (BENCH_BMP_ROUTES routes, default
 *      1,000,000 /24s, several per UPDATE, tests/helpers/bmp-builder.ts fullTableUpdates) and its
 *      End-of-RIB to the `bmp` component with its default settings: routes written per second (from
 *      the first byte sent to the last row written), the process's resident memory before and at
 *      its highest, the longest the station held its sessions paused;
 *   2. BENCH_BMP_SESSIONS sessions at once (default 4, one router each), BENCH_BMP_ROUTES_PER_SESSION
 *      routes each (default: as many as in 1): the same figures for all of them together;
 *   3. a Looking Glass prefix lookup (runLookingGlassQuery, as api/lookingglass/ runs it) of a
 *      prefix of the first table, every 250 ms while 2 runs and then idle: server time, median and p90.
 * The senders run in this process too (their bytes are made before the clock starts), so the station
 * shares the machine with them, as a station on a busy host would. Nothing is kept: the stores are
 * made in a temporary directory and removed.
 */
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bmpStation, type BmpStation } from "~/features/collector/bmp/station.server";
import { bmpSettings } from "~/features/collector/bmp/settings.server";
import { createRouter } from "~/features/inventory/inventory.server";
import { runLookingGlassQuery } from "~/features/routing/lookingglass.server";
import { componentEnv } from "~/server/components/contract.server";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { wireApp } from "~/wiring.server";
import { endOfRib, fullTablePrefix, fullTableUpdates, initiation, peer, peerUp } from "../tests/helpers/bmp-builder";
import { recordBenchOutput } from "./results";

const ROUTES = Number(process.env.BENCH_BMP_ROUTES ?? 1_000_000);
const SESSIONS = Number(process.env.BENCH_BMP_SESSIONS ?? 4);
const PER_SESSION = Number(process.env.BENCH_BMP_ROUTES_PER_SESSION ?? ROUTES);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MiB`;
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const p90 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))] : NaN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Figures = Record<string, string>;

/** One router's session: its messages made up front, sent with TCP's own pacing. */
function sessionBytes(index: number, routes: number): { local: string; bytes: Buffer; router: string } {
  const p = peer({ address: `198.51.100.${index}`, asn: 64_500 + index });
  const parts = [
    initiation({ sysName: `bench-bmp-${index}` }),
    peerUp({ peer: p }),
    ...fullTableUpdates(routes, { peer: p }),
    endOfRib({ peer: p, afi: 1, safi: 1 }),
  ];
  return { local: `127.0.2.${index}`, bytes: Buffer.concat(parts), router: `bench-bmp-${index}` };
}

function send(station: BmpStation, local: string, bytes: Buffer): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: station.port(), localAddress: local });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.write(bytes);
      resolve(socket);
    });
  });
}

/** Runs `sessions` at once and measures until the station wrote all their rows. */
async function ingest(station: BmpStation, sessions: { local: string; bytes: Buffer }[], rows: number, during?: () => Promise<void>) {
  const written = station.totals().rowsWritten;
  const rssBefore = process.memoryUsage().rss;
  let rssMax = rssBefore;
  let pausedMs = 0;
  let pausedSince: number | null = null;
  let longestPause = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
    const paused = station.totals().paused;
    if (paused && pausedSince === null) pausedSince = performance.now();
    if (!paused && pausedSince !== null) {
      const ms = performance.now() - pausedSince;
      pausedMs += ms;
      longestPause = Math.max(longestPause, ms);
      pausedSince = null;
    }
  }, 50);
  const started = performance.now();
  const sockets = await Promise.all(sessions.map((s) => send(station, s.local, s.bytes)));
  let done = false;
  const side = during
    ? (async () => {
        while (!done) await during();
      })()
    : Promise.resolve();
  while (station.totals().rowsWritten - written < rows) await sleep(20);
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await side;
  clearInterval(sampler);
  for (const socket of sockets) socket.destroy();
  return { seconds, rate: rows / seconds, rssBefore, rssMax, pausedMs, longestPause };
}

async function main() {
  const figures: Figures = {};
  const dir = mkdtempSync(path.join(os.tmpdir(), "flowlens-bench-bmp-"));
  wireApp();
  const config = parseConfig({ ...process.env, DATA_DIR: dir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
  const services: Services = await startServices(config, { loadDemo: false });
  const station = bmpStation();
  try {
    for (let i = 1; i <= Math.max(1, SESSIONS); i++)
      await createRouter(services, {
        name: `bench-bmp-${i}`,
        city: "Frankfurt",
        country: "Germany",
        loopback: `127.0.2.${i}`,
        interfaces: [],
      });
    const settings = bmpSettings(componentEnv("bmp", { ...process.env, BMP_LISTEN: "127.0.0.1:0" }))!;
    const quiet = () => {};
    await station.start(services, {
      settings,
      log: { debug: quiet, info: quiet, warn: console.warn, error: console.error },
      metrics: { increment: quiet, duration: quiet },
    });
    console.log(`BMP station with batches of ${fmt(settings.batchRows)} rows, paused above ${fmt(settings.queueRows)} waiting`);
    figures["Station settings"] =
      `BMP_BATCH_ROWS ${fmt(settings.batchRows)}, BMP_QUEUE_ROWS ${fmt(settings.queueRows)}, BMP_FLUSH_SECONDS ${settings.flushMs / 1000}`;

    // 1. One session, a full IPv4 table.
    console.log(`== 1. one session, ${fmt(ROUTES)} IPv4 routes`);
    const one = sessionBytes(1, ROUTES);
    const lookup = fullTablePrefix(Math.floor(ROUTES / 2))
      .replace("/24", "")
      .replace(/0$/, "1");
    const busy: number[] = [];
    const query = async (into: number[]) => {
      const t = performance.now();
      await runLookingGlassQuery(services, {
        variant: "private",
        queryType: "IpPrefixQuery",
        queryTerm: lookup,
        vantagePoints: ["bench-bmp-1"],
      });
      into.push(performance.now() - t);
      await sleep(250);
    };
    const r1 = await ingest(station, [one], ROUTES, () => query(busy));
    console.log(
      `  ${fmt(ROUTES)} routes in ${r1.seconds.toFixed(1)} s = ${fmt(r1.rate)} routes/s; RSS ${mb(r1.rssBefore)} → ${mb(r1.rssMax)}`,
    );
    figures["1 session: routes/s"] = `${fmt(r1.rate)} (${fmt(ROUTES)} routes in ${r1.seconds.toFixed(1)} s)`;
    figures["1 session: memory (RSS)"] = `${mb(r1.rssBefore)} before, ${mb(r1.rssMax)} at most`;
    figures["1 session: reading paused"] = `${(r1.pausedMs / 1000).toFixed(1)} s in all, longest ${(r1.longestPause / 1000).toFixed(1)} s`;
    await station.settle();

    // 3. The same lookup idle.
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) await query(idle);
    const found = await runLookingGlassQuery(services, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: lookup,
      vantagePoints: ["bench-bmp-1"],
    });
    const rows = found.results["bench-bmp-1"];
    if (!Array.isArray(rows) || !rows.length) throw new Error(`the Looking Glass finds no route for ${lookup}: the table was not stored`);
    figures[`LG lookup ${lookup} during 1`] = `median ${median(busy).toFixed(1)} ms, p90 ${p90(busy).toFixed(1)} ms (n=${busy.length})`;
    figures[`LG lookup ${lookup} idle`] = `median ${median(idle).toFixed(1)} ms, p90 ${p90(idle).toFixed(1)} ms (n=${idle.length})`;
    console.log(`  Looking Glass ${lookup}: during ${median(busy).toFixed(1)} ms, idle ${median(idle).toFixed(1)} ms (medians)`);

    // 2. Several sessions at once (the first router's session again, and the others).
    if (SESSIONS > 1) {
      console.log(`== 2. ${SESSIONS} sessions at once, ${fmt(PER_SESSION)} routes each`);
      const many = Array.from({ length: SESSIONS }, (_, i) => sessionBytes(i + 1, PER_SESSION));
      const total = SESSIONS * PER_SESSION;
      const r2 = await ingest(station, many, total);
      console.log(
        `  ${fmt(total)} routes in ${r2.seconds.toFixed(1)} s = ${fmt(r2.rate)} routes/s; RSS ${mb(r2.rssBefore)} → ${mb(r2.rssMax)}`,
      );
      figures[`${SESSIONS} sessions: routes/s`] = `${fmt(r2.rate)} (${fmt(total)} routes in ${r2.seconds.toFixed(1)} s)`;
      figures[`${SESSIONS} sessions: memory (RSS)`] = `${mb(r2.rssBefore)} before, ${mb(r2.rssMax)} at most`;
      figures[`${SESSIONS} sessions: reading paused`] =
        `${(r2.pausedMs / 1000).toFixed(1)} s in all, longest ${(r2.longestPause / 1000).toFixed(1)} s`;
    }
  } finally {
    await station.stop();
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  }
  figures.Machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, load ${os.loadavg()[0].toFixed(1)}, Node ${process.version}`;
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  console.log(`\n== Summary\n`);
  for (const [k, v] of Object.entries(figures)) console.log(`| ${k.padEnd(width)} | ${v} |`);
}

const results = recordBenchOutput("BMP station (`npm run bench:bmp`)");
main().then(
  () => {
    results.finish();
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
