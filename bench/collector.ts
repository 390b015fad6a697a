/**
 * npm run bench:collector (also the last step of npm run bench): the flow collector's throughput and
 * its behaviour under overload, on fresh embedded stores (PGlite + chDB in a temporary directory),
 * over the synthetic network of bench/synthetic-network.ts (a router with 48 interfaces and a
 * routing table of BENCH_COLLECTOR_PREFIXES prefixes, so enrichment does real work).
 *
 *   1. decode + enrich + encode only: one core (this thread) over NetFlow v9 and IPFIX datagrams of
 *      25 records, what a decoding thread does per batch; then the same sampled packets as IPFIX
 *      address fields and as 128-byte sampled headers, the header parse's cost;
 *   2. the whole path: datagrams over loopback UDP (from a child process) → decoding threads →
 *      flows_raw in chDB; flows/s and flows per CPU-second of this process (all its threads);
 *   3. overload: 2× the rate of step 2 for BENCH_COLLECTOR_OVERLOAD_SECONDS, with /healthz's check
 *      and a Flow Explorer query timed in turn, the event loop's delay, CPU and the largest RSS; then
 *      received, stored and dropped flows, which must add up (the run fails when they do not).
 * No thresholds: slow figures never fail it.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { asInfo } from "~db/postgres/schema";
import { createRouter, createVantagePoint } from "~/features/inventory/inventory.server";
import { decodeDatagram, TemplateState, type DecodedFlow } from "~/features/collector/decode";
import { parseEthernetFrame } from "~/features/collector/decode/packet-header";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { flowCollector, type CollectorTotals } from "~/features/collector/runtime/collector.server";
import { runFlowsQuery } from "~/features/flows/query.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { startComponents } from "~/server/components/supervisor.server";
import { parseConfig } from "~/server/env.server";
import { checkHealth } from "~/server/health.server";
import { startServices, type Services } from "~/server/services.server";
import { insertSuperuser } from "../tests/helpers/users";
import type { SenderOrder, SenderReport } from "./collector-sender";
import { ipfixDatagram, RECORDS, SAMPLED_HEADER_BYTES, sampledPair, trafficSource, v9Datagram } from "./collector-traffic";
import { OPERATOR_ASN, ROUTER, VANTAGE_POINT, type SyntheticNetwork } from "./synthetic-network";
import { recordBenchOutput } from "./results";

const DATAGRAMS = Number(process.env.BENCH_COLLECTOR_DATAGRAMS ?? 8000);
const OVERLOAD_SECONDS = Number(process.env.BENCH_COLLECTOR_OVERLOAD_SECONDS ?? 60);
const WORKERS = process.env.BENCH_COLLECTOR_WORKERS;
const BATCH_ROWS = process.env.BENCH_COLLECTOR_BATCH_ROWS;

const grouped = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))} (${values.length} samples)`;
const dropped = (t: CollectorTotals) => Object.values(t.dropped).reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** CPU seconds of this process, every thread (main, decoding threads, chDB's) together. */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** DecodeThread batches of 50 datagrams from a pool, as the collector hands them to a decoding thread. */
function batchesOf(datagrams: Uint8Array[]) {
  const batch = (from: number) => {
    const slice = datagrams.slice(from, from + 50);
    const offsets = [0];
    for (const d of slice) offsets.push(offsets[offsets.length - 1] + d.length);
    const buffer = new Uint8Array(offsets[offsets.length - 1]);
    slice.forEach((d, i) => buffer.set(d, offsets[i]));
    return { buffer: buffer.buffer, offsets, exporters: slice.map(() => "192.0.2.1"), arrivalsMs: slice.map(() => Date.now()) };
  };
  return Array.from({ length: Math.ceil(datagrams.length / 50) }, (_, i) => batch(i * 50));
}

/** Flows/s (wall) and flows per CPU-second of `thread` decoding `batches` over and over for `ms`. */
function measure(thread: DecodeThread, batches: ReturnType<typeof batchesOf>, ms: number) {
  let flows = 0;
  const cpu = cpuSeconds();
  const started = performance.now();
  while (performance.now() - started < ms) for (const b of batches) flows += thread.decodeBatch(b).rows;
  return { perSecond: flows / ((performance.now() - started) / 1000), perCpu: flows / (cpuSeconds() - cpu) };
}

function decodeOnly(kind: string, network: SyntheticNetwork, snapshot: ReturnType<SyntheticNetwork["snapshot"]>, make: typeof v9Datagram) {
  const thread = new DecodeThread(120_000);
  thread.useSnapshot(snapshot);
  const batches = batchesOf(Array.from({ length: 200 }, (_, i) => make(network, i)));
  for (let i = 0; i < 20; i++) for (const b of batches) thread.decodeBatch(b); // warm-up
  const { perSecond, perCpu } = measure(thread, batches, 3000);
  console.log(`  ${kind.padEnd(12)} ${grouped(perSecond)} flows/s, ${grouped(perCpu)} per CPU-second`);
}

/**
 * The same sampled packets as IPFIX address fields and as 128-byte sampled headers (IE 315 + 312):
 * flows per CPU-second both ways, in rounds alternating the two so both see the same machine noise,
 * the median of each; the parse's cost is the share of the fields' rate the headers lose. Before
 * timing, both encodings are decoded once and must give the same flows (else the bench fails).
 */
function headerCost(network: SyntheticNetwork, snapshot: ReturnType<SyntheticNetwork["snapshot"]>) {
  const pairs = Array.from({ length: 200 }, (_, i) => sampledPair(network, i));
  const key = (f: DecodedFlow) =>
    [f.srcAddr, f.dstAddr, f.srcPort, f.dstPort, f.ipProtocol, f.vlans.join(","), f.bytes, f.packets, f.inIfIndex, f.samplingRate].join(
      " ",
    );
  for (const pair of pairs.slice(0, 20)) {
    const byFields = decodeDatagram(new TemplateState(), "192.0.2.1", pair.fields, 0).flows.map(key).sort();
    const byHeaders = decodeDatagram(new TemplateState(), "192.0.2.1", pair.headers, 0).flows.map(key).sort();
    if (byFields.length !== RECORDS || byFields.join("\n") !== byHeaders.join("\n"))
      throw new Error(`sampled headers and address fields decode to different flows:\n${byFields.join("\n")}\n≠\n${byHeaders.join("\n")}`);
  }
  const ways = { fields: pairs.map((p) => p.fields), headers: pairs.map((p) => p.headers) };
  const threads = { fields: new DecodeThread(120_000), headers: new DecodeThread(120_000) };
  const batches = { fields: batchesOf(ways.fields), headers: batchesOf(ways.headers) };
  const rates: Record<"fields" | "headers", number[]> = { fields: [], headers: [] };
  for (const way of ["fields", "headers"] as const) {
    threads[way].useSnapshot(snapshot);
    for (let i = 0; i < 20; i++) for (const b of batches[way]) threads[way].decodeBatch(b); // warm-up
  }
  for (let round = 0; round < 6; round++)
    for (const way of round % 2 ? (["headers", "fields"] as const) : (["fields", "headers"] as const))
      rates[way].push(measure(threads[way], batches[way], 1000).perCpu);
  const fields = percentile(rates.fields, 50);
  const headers = percentile(rates.headers, 50);
  console.log(`  IPFIX sampled packets, ${RECORDS} per datagram (half TCP/IPv4, half UDP/IPv6, one VLAN tag), median of 6 × 1 s each way:`);
  console.log(`    as address fields        ${grouped(fields)} flows per CPU-second`);
  console.log(`    as ${SAMPLED_HEADER_BYTES}-byte headers (IE 315) ${grouped(headers)} flows per CPU-second`);
  console.log(`    header parse cost: ${(100 * (1 - headers / fields)).toFixed(1)} % of the fields' rate (target < 30 %)`);
  // The parse alone, on the same frames: what it adds to a flow, against a flow's whole cost by fields.
  const frames = pairs.flatMap((p) => p.frames);
  let parsed = 0;
  const cpu = cpuSeconds();
  const started = performance.now();
  while (performance.now() - started < 1000) for (const frame of frames) parsed += parseEthernetFrame(frame).srcPort === null ? 0 : 1;
  const parseUs = ((cpuSeconds() - cpu) * 1e6) / parsed;
  console.log(
    `    the parse alone: ${parseUs.toFixed(2)} µs of CPU per header, ${((100 * parseUs) / (1e6 / fields)).toFixed(1)} % of a flow's ${(1e6 / fields).toFixed(2)} µs by fields`,
  );
}

/** bench-r1 with the synthetic interfaces, exporting from the sender's address; its routing table in rib_current. */
async function loadNetwork(services: Services, network: SyntheticNetwork): Promise<void> {
  await services.pg.db.insert(asInfo).values({ asn: OPERATOR_ASN, name: "Bench operator", category: "operator" });
  const base = { city: "Frankfurt", country: "Germany", snmp: null, ssh: null };
  await createRouter(services, { ...base, name: "bench-r2", loopback: "198.51.100.2", exporters: ["192.0.2.2"], interfaces: [] });
  await createRouter(services, {
    ...base,
    name: ROUTER,
    loopback: "198.51.100.1",
    exporters: ["127.0.0.1", "192.0.2.1"],
    interfaces: network.interfaces.map((i) => ({
      name: i.name,
      ifindex: i.ifIndex,
      capacity: "100G",
      kind: i.kind,
      ...(i.kind === "external"
        ? i.neighborAsn
          ? { peering: "Transit", neighbour_as: i.neighborAsn }
          : { peering: "Peering", connection: "DE-CIX Frankfurt" }
        : {}),
    })),
  });
  await createVantagePoint(services, { key: VANTAGE_POINT, router: ROUTER, city: "Frankfurt", country: "Germany", ip: "198.51.100.1" });
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < network.prefixes.length; i += 20_000) {
    const values = network.prefixes.slice(i, i + 20_000).map((p) => ({
      timestamp: now,
      vantage_point: VANTAGE_POINT,
      router_ip: "198.51.100.1",
      peer_ip: p.nextHop,
      peer_asn: p.path[0],
      route_distinguisher: "",
      prefix: `${p.text}/${p.length}`,
      prefix_addr: p.text,
      prefix_len: p.length,
      afi: p.text.includes(":") ? 2 : 1,
      safi: 1,
      is_withdrawn: 0,
      as_path: p.path,
      as_path_set: [],
      as_confed_seq: [],
      local_pref: 100,
      med: 0,
      bgp_next_hop: p.nextHop,
      origin: "IGP",
      aggregator: "",
      originator_id: "",
      communities: [],
    }));
    await chInsert(services.ch, { name: "bench.rib", table: "rib_current", values });
  }
}

function startSender(): ChildProcess {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return fork(path.join(here, "collector-sender.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

function order(sender: ChildProcess, message: SenderOrder): Promise<SenderReport> {
  return new Promise((resolve, reject) => {
    sender.once("message", (report) => resolve(report as SenderReport));
    sender.once("exit", (code) => reject(new Error(`the sender ended (exit code ${code})`)));
    sender.send(message);
  });
}

async function main(): Promise<void> {
  const cores = availableParallelism();
  console.log(`Collector bench (${cores} cores)`);
  const { network } = trafficSource();
  const { rib, buildMs } = network.buildRib();
  console.log(
    `1. decode + enrich + encode only, one core; routing table of ${grouped(rib.ipv4.count)} IPv4 + ${grouped(rib.ipv6.count)} IPv6 prefixes (built in ${buildMs.toFixed(0)} ms)`,
  );
  const snapshot = network.snapshot(["192.0.2.1"], rib);
  decodeOnly("NetFlow v9", network, snapshot, v9Datagram);
  decodeOnly("IPFIX", network, snapshot, ipfixDatagram);
  headerCost(network, snapshot);

  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-bench-collector-"));
  const services = await startServices(
    parseConfig({ DATA_DIR: dataDir, DEMO_DATA: "off", SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123" }),
  );
  await loadNetwork(services, network);
  const collector = flowCollector("flows-netflow");
  const env = {
    FLOWS_NETFLOW_LISTEN: "127.0.0.1:0",
    ...(WORKERS ? { FLOWS_NETFLOW_WORKERS: WORKERS } : {}),
    ...(BATCH_ROWS ? { FLOWS_NETFLOW_BATCH_ROWS: BATCH_ROWS } : {}),
  };
  const running = await startComponents([collector], services, env);
  const sender = startSender();
  let failed = false;
  try {
    const threads = Number(/(\d+) of \d+ decoding threads/.exec(collector.health().detail)?.[1] ?? 1);
    console.log(
      `2. datagrams over loopback (sender in its own process) → ${threads} decoding thread(s) → flows_raw (chDB), ${grouped(DATAGRAMS)} datagrams of ${RECORDS} records`,
    );
    const port = collector.port();
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    await order(sender, { port, datagrams: DATAGRAMS });
    let last = collector.totals();
    let lastChange = performance.now();
    let storedAt = started;
    // Done when nothing moved for a second and nothing waits (datagrams the kernel dropped never arrive).
    while (performance.now() - lastChange < 1000 || last.pending > 0) {
      await sleep(20);
      const now = collector.totals();
      if (now.stored !== last.stored) storedAt = performance.now();
      if (now.flows !== last.flows || now.stored !== last.stored || now.pending !== last.pending) lastChange = performance.now();
      last = now;
    }
    // The idle second of the wait is not the collector's work: CPU up to the last row stored is close enough.
    const cpu = cpuSeconds() - cpuBefore;
    const seconds = (storedAt - started) / 1000;
    const rate = last.stored / seconds;
    console.log(
      `  sent ${grouped(DATAGRAMS * RECORDS)} flows, decoded ${grouped(last.flows)}, stored ${grouped(last.stored)} in ${seconds.toFixed(2)} s`,
    );
    console.log(`  ${grouped(rate)} flows/s stored; ${grouped(last.stored / cpu)} flows per CPU-second of the collector's process`);

    const target = 2 * rate;
    console.log(`3. overload: ${grouped(target)} flows/s (2× step 2) for ${OVERLOAD_SECONDS} s`);
    const user = await loadUserContext(services.pg.db, await insertSuperuser(services, "bench@flowlens.example"));
    if (!user) throw new Error("the bench user could not be loaded");
    const before = collector.totals();
    const healthMs: number[] = [];
    const explorerMs: number[] = [];
    let rssMax = 0;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const overloadCpu = cpuSeconds();
    const overloadStart = performance.now();
    const sending = order(sender, { port, flowsPerSecond: target, seconds: OVERLOAD_SECONDS });
    const probes = (async () => {
      // In turn, 4 per second: what an operator's browser and a load balancer's health check would ask meanwhile.
      while (performance.now() - overloadStart < OVERLOAD_SECONDS * 1000) {
        await sleep(250);
        let t = performance.now();
        await checkHealth(services);
        healthMs.push(performance.now() - t);
        rssMax = Math.max(rssMax, process.memoryUsage.rss());
        await sleep(250);
        t = performance.now();
        const now = Math.floor(Date.now() / 1000);
        // flows_raw feeds flows_5m: the query reads what the collector is writing.
        await runFlowsQuery(services, user, 17, {
          dimension: "AS_SRC_INGRESS",
          start: now - 3600,
          end: now,
          filters: [],
          ipVersion: "all",
          limit: 10,
          timeseries: false,
        });
        explorerMs.push(performance.now() - t);
        rssMax = Math.max(rssMax, process.memoryUsage.rss());
      }
    })();
    const [report] = await Promise.all([sending, probes]);
    loop.disable();
    const during = collector.totals();
    const overloadCpuSeconds = cpuSeconds() - overloadCpu;
    const overloadWall = (performance.now() - overloadStart) / 1000;
    await running.stop();
    const after = collector.totals();
    const flows = after.flows - before.flows;
    const stored = after.stored - before.stored;
    const drops = dropped(after) - dropped(before);
    console.log(
      `  sent ${grouped(report.sent * RECORDS)} flows (${grouped(report.sent)} datagrams, ${grouped((report.sent * RECORDS) / report.seconds)} flows/s); received ${grouped(after.datagrams - before.datagrams)} datagrams, ${grouped(flows)} flows decoded`,
    );
    console.log(
      `  stored ${grouped(stored)}, dropped ${grouped(drops)} (${
        Object.entries(after.dropped)
          .map(([r, n]) => `${r} ${grouped(n - (before.dropped[r] ?? 0))}`)
          .join(", ") || "none"
      }), pending at the end of the load ${grouped(during.pending)}`,
    );
    console.log(`  datagrams lost before decoding (threads busy): ${grouped(after.datagramsLost - before.datagramsLost)}`);
    console.log(
      `  collector process CPU ${overloadCpuSeconds.toFixed(1)} s over ${overloadWall.toFixed(1)} s (${((100 * overloadCpuSeconds) / overloadWall).toFixed(0)} % of one core); ${grouped(stored / overloadCpuSeconds)} flows stored per CPU-second`,
    );
    console.log(`  /healthz check:      ${spread(healthMs)}`);
    console.log(`  Flow Explorer query: ${spread(explorerMs)}`);
    console.log(
      `  event-loop delay:    p50 ${ms(loop.percentile(50) / 1e6)}, p99 ${ms(loop.percentile(99) / 1e6)}, max ${ms(loop.max / 1e6)}`,
    );
    console.log(`  RSS at most ${grouped(rssMax / 1024 / 1024)} MiB`);
    if (stored + drops !== flows || after.pending !== 0) {
      console.error(`  received ≠ stored + dropped: ${flows} ≠ ${stored} + ${drops} (pending ${after.pending})`);
      failed = true;
    } else console.log(`  received = stored + dropped: ${grouped(flows)} = ${grouped(stored)} + ${grouped(drops)}`);
  } finally {
    sender.disconnect();
    await running.stop();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

const results = recordBenchOutput("Collector (`npm run bench:collector`)");
main()
  .then(() => results.finish())
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
