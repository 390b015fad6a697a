/**
 * npm run bench:collector (also the last step of npm run bench): the flow collector's throughput and
 * its behaviour under overload, on fresh embedded stores (PGlite + chDB in a temporary directory).
 *
 *   1. decode + enrich only: one core (this thread) over NetFlow v9 and IPFIX datagrams of 25 records;
 *   2. the whole path: datagrams over loopback UDP → decoding threads → flows_raw in chDB, flows/s
 *      overall and per decoding thread;
 *   3. overload: 2× the rate of step 2 for BENCH_COLLECTOR_OVERLOAD_SECONDS, with /healthz's check and
 *      a Flow Explorer query timed every second, and the RSS; then received, stored and dropped flows,
 *      which must add up (the run fails when they do not).
 * No thresholds: slow figures never fail it.
 */
import dgram from "node:dgram";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asInfo } from "~db/postgres/schema";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { flowCollector, type CollectorTotals } from "~/features/collector/runtime/collector.server";
import { runFlowsQuery } from "~/features/flows/query.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { startComponents } from "~/server/components/supervisor.server";
import { parseConfig } from "~/server/env.server";
import { checkHealth } from "~/server/health.server";
import { startServices } from "~/server/services.server";
import { encodeIpfix, encodeNetflow9, IE, type TemplateSpec } from "../tests/fixtures/flow-encoders";
import { insertSuperuser } from "../tests/helpers/users";

const RECORDS = 25;
const DATAGRAMS = Number(process.env.BENCH_COLLECTOR_DATAGRAMS ?? 4000);
const OVERLOAD_SECONDS = Number(process.env.BENCH_COLLECTOR_OVERLOAD_SECONDS ?? 60);
const WORKERS = process.env.BENCH_COLLECTOR_WORKERS;

const V9: TemplateSpec = {
  id: 256,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.bgpSourceAsNumber, length: 4 },
    { id: IE.bgpDestinationAsNumber, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
  ],
};
const IPFIX: TemplateSpec = {
  id: 300,
  fields: [
    { id: IE.sourceIPv6Address, length: 16 },
    { id: IE.destinationIPv6Address, length: 16 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 8 },
    { id: IE.packetDeltaCount, length: 8 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.flowEndMilliseconds, length: 8 },
  ],
};

function v9Datagram(seq: number): Uint8Array {
  const unixSecs = Math.floor(Date.now() / 1000);
  return encodeNetflow9({
    sysUptimeMs: 3_600_000,
    unixSecs,
    sequence: seq,
    sourceId: 1,
    sets: [
      { kind: "template", templates: [V9] },
      {
        kind: "data",
        template: V9,
        records: Array.from({ length: RECORDS }, (_, i) => [
          `10.${seq % 250}.${i}.1`,
          `192.0.2.${i}`,
          1024 + i,
          443,
          6,
          1500 * (i + 1),
          i + 1,
          1,
          2,
          64500 + (i % 7),
          15169,
          3_599_000,
        ]),
      },
    ],
  });
}

function ipfixDatagram(seq: number): Uint8Array {
  const now = Date.now();
  return encodeIpfix({
    exportTime: Math.floor(now / 1000),
    sequence: seq,
    domain: 1,
    sets: [
      { kind: "template", templates: [IPFIX] },
      {
        kind: "data",
        template: IPFIX,
        records: Array.from({ length: RECORDS }, (_, i) => [
          `2001:db8:${seq % 1000}::${i + 1}`,
          `2001:db8:ffff::${i + 1}`,
          2048 + i,
          53,
          17,
          BigInt(200 * (i + 1)),
          BigInt(i + 1),
          3,
          4,
          BigInt(now),
        ]),
      },
    ],
  });
}

const grouped = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const dropped = (t: CollectorTotals) => Object.values(t.dropped).reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function decodeOnly(kind: string, make: (seq: number) => Uint8Array): number {
  const datagrams = Array.from({ length: 200 }, (_, i) => make(i));
  const thread = new DecodeThread(120_000);
  thread.useSnapshot({ loadedAtMs: Date.now(), operatorAsn: null, routers: [], ribs: [], asServices: [] });
  const batch = (from: number) => {
    const slice = datagrams.slice(from, from + 50);
    const offsets = [0];
    for (const d of slice) offsets.push(offsets[offsets.length - 1] + d.length);
    const buffer = new Uint8Array(offsets[offsets.length - 1]);
    slice.forEach((d, i) => buffer.set(d, offsets[i]));
    return { buffer: buffer.buffer, offsets, exporters: slice.map(() => "192.0.2.1"), arrivalsMs: slice.map(() => Date.now()) };
  };
  const batches = [0, 50, 100, 150].map(batch);
  let flows = 0;
  const started = performance.now();
  while (performance.now() - started < 2000) for (const b of batches) flows += thread.decodeBatch(b).rows.length;
  const perSecond = flows / ((performance.now() - started) / 1000);
  console.log(`  ${kind.padEnd(12)} ${grouped(perSecond)} flows/s on one core`);
  return perSecond;
}

async function sendAll(socket: dgram.Socket, port: number, datagrams: Uint8Array[]): Promise<void> {
  // In small batches, each awaited: an unpaced burst overflows the receive buffer of a busy machine.
  for (let i = 0; i < datagrams.length; i += 16) {
    await Promise.all(
      datagrams
        .slice(i, i + 16)
        .map((d) => new Promise<void>((resolve, reject) => socket.send(d, port, "127.0.0.1", (e) => (e ? reject(e) : resolve())))),
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function main(): Promise<void> {
  console.log("Collector bench");
  console.log("1. decode + enrich only");
  decodeOnly("NetFlow v9", v9Datagram);
  decodeOnly("IPFIX", ipfixDatagram);

  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-bench-collector-"));
  const services = await startServices(
    parseConfig({ DATA_DIR: dataDir, DEMO_DATA: "off", SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123" }),
  );
  const collector = flowCollector("flows-netflow");
  const env = { FLOWS_NETFLOW_LISTEN: "127.0.0.1:0", ...(WORKERS ? { FLOWS_NETFLOW_WORKERS: WORKERS } : {}) };
  const running = await startComponents([collector], services, env);
  const socket = dgram.createSocket("udp4");
  let failed = false;
  try {
    const threads = Number(/(\d+) of \d+ decoding threads/.exec(collector.health().detail)?.[1] ?? 1);
    console.log(
      `2. datagrams over loopback → ${threads} decoding thread(s) → flows_raw (chDB), ${grouped(DATAGRAMS)} datagrams of ${RECORDS} records`,
    );
    const datagrams = Array.from({ length: DATAGRAMS }, (_, i) => (i % 2 ? ipfixDatagram(i) : v9Datagram(i)));
    const started = performance.now();
    await sendAll(socket, collector.port(), datagrams);
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
    const seconds = (storedAt - started) / 1000;
    const rate = last.stored / seconds;
    console.log(
      `  sent ${grouped(DATAGRAMS * RECORDS)} flows, decoded ${grouped(last.flows)}, stored ${grouped(last.stored)} in ${seconds.toFixed(2)} s`,
    );
    console.log(`  ${grouped(rate)} flows/s stored, ${grouped(rate / threads)} flows/s per decoding thread`);

    const target = 2 * rate;
    console.log(`3. overload: ${grouped(target)} flows/s (2× step 2) for ${OVERLOAD_SECONDS} s`);
    // The Flow Explorer needs the operator's AS.
    await services.pg.db.insert(asInfo).values({ asn: 64496, name: "Bench operator", category: "operator" });
    const user = await loadUserContext(services.pg.db, await insertSuperuser(services, "bench@flowlens.example"));
    if (!user) throw new Error("the bench user could not be loaded");
    const before = collector.totals();
    const healthMs: number[] = [];
    const explorerMs: number[] = [];
    let rssMax = 0;
    let sent = 0;
    let seq = DATAGRAMS;
    const overloadStart = performance.now();
    const probes = (async () => {
      while (performance.now() - overloadStart < OVERLOAD_SECONDS * 1000) {
        await sleep(1000);
        let t = performance.now();
        await checkHealth(services);
        healthMs.push(performance.now() - t);
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
    while (performance.now() - overloadStart < OVERLOAD_SECONDS * 1000) {
      const due = Math.floor((((performance.now() - overloadStart) / 1000) * target) / RECORDS);
      const batch: Uint8Array[] = [];
      while (sent < due && batch.length < 2000) {
        batch.push(seq % 2 ? ipfixDatagram(seq) : v9Datagram(seq));
        seq++;
        sent++;
      }
      await sendAll(socket, collector.port(), batch);
      await sleep(5);
    }
    await probes;
    const during = collector.totals();
    await running.stop();
    const after = collector.totals();
    const flows = after.flows - before.flows;
    const stored = after.stored - before.stored;
    const drops = dropped(after) - dropped(before);
    console.log(
      `  sent ${grouped(sent * RECORDS)} flows (${grouped(sent)} datagrams); received ${grouped(after.datagrams - before.datagrams)} datagrams, ${grouped(flows)} flows decoded`,
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
      `  /healthz check p50 ${ms(percentile(healthMs, 50))}, p95 ${ms(percentile(healthMs, 95))}; Flow Explorer query p50 ${ms(percentile(explorerMs, 50))}, p95 ${ms(percentile(explorerMs, 95))}`,
    );
    console.log(`  RSS at most ${grouped(rssMax / 1024 / 1024)} MiB`);
    if (stored + drops !== flows || after.pending !== 0) {
      console.error(`  received ≠ stored + dropped: ${flows} ≠ ${stored} + ${drops} (pending ${after.pending})`);
      failed = true;
    } else console.log("  received = stored + dropped: yes");
  } finally {
    socket.close();
    await running.stop();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
