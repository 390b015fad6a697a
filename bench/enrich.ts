/**
 * npx tsx bench/enrich.ts
 *
 * Enrichment on one core: 100k random flows (BENCH_ENRICH_FLOWS) enriched by createEnricher over a
 * routing table of 100k prefixes (BENCH_ENRICH_PREFIXES; 90 % IPv4 from /8 to /24, nested, 10 %
 * IPv6 /32 to /48) and a router with 48 interfaces of every kind, as the decoding workers run it.
 * Prints the table's build time and size, then flows/s over BENCH_RUNS (5) timed passes after one
 * warm-up. No stores, no thresholds. The data is drawn from a fixed seed, so runs compare.
 */
import { emptyFlow, type DecodedFlow } from "~/features/collector/decode/flow-record";
import { createEnricher } from "~/features/collector/enrich/enrich";
import { ribTableBytes } from "~/features/collector/enrich/snapshot";
import { FIRST_IF_INDEX, syntheticNetwork } from "./synthetic-network";

const FLOWS = Number(process.env.BENCH_ENRICH_FLOWS ?? 100_000);
const PREFIXES = Number(process.env.BENCH_ENRICH_PREFIXES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const network = syntheticNetwork({ prefixes: PREFIXES });
const { int } = network;
const { rib, buildMs } = network.buildRib();
const snapshot = network.snapshot(["192.0.2.1"], rib);
const enricher = createEnricher(snapshot);

// Flows: addresses inside the table's space mostly (some outside), IPv6 one in ten, as decoders give them.
const address = (): string => (int(10) === 0 ? network.v6Address() : network.v4Address());
const flows: DecodedFlow[] = Array.from({ length: FLOWS }, () => {
  const src = address();
  const dst = address();
  return {
    ...emptyFlow("ipfix", int(20) === 0 ? "::ffff:192.0.2.1" : "192.0.2.1", 0),
    samplingRate: 1000,
    ipVersion: src.includes(":") ? 6 : 4,
    srcAddr: src,
    dstAddr: dst,
    srcPort: int(65536),
    dstPort: 443,
    ipProtocol: 6,
    bytes: 40 + int(1460),
    packets: 1,
    inIfIndex: FIRST_IF_INDEX + int(50),
    outIfIndex: FIRST_IF_INDEX + int(50),
    srcAs: int(3) === 0 ? 1 + int(400_000) : null,
    dstAs: null,
    direction: 0,
    flowEndMs: Date.now() - int(60_000),
  };
});

const options = { arrivalMs: Date.now(), clockSkewed: false };
let sink = 0;
const pass = () => {
  const t = performance.now();
  for (const flow of flows) sink += enricher.enrich(flow, options).as_src;
  return performance.now() - t;
};
pass();
const times = Array.from({ length: RUNS }, pass).sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const rate = (ms: number) => Math.round((FLOWS / ms) * 1000).toLocaleString("en-US");

console.log(`prefixes: ${rib.ipv4.count.toLocaleString("en-US")} IPv4 + ${rib.ipv6.count.toLocaleString("en-US")} IPv6`);
console.log(`ranges:   ${rib.ipv4.ranges.size.toLocaleString("en-US")} IPv4 + ${rib.ipv6.ranges.size.toLocaleString("en-US")} IPv6`);
console.log(`table:    ${(ribTableBytes(rib) / 1e6).toFixed(1)} MB, built in ${buildMs.toFixed(0)} ms`);
console.log(`flows:    ${FLOWS.toLocaleString("en-US")} per pass, ${RUNS} passes after a warm-up`);
console.log(`enriched: ${rate(median)} flows/s median (best ${rate(times[0])}, worst ${rate(times[times.length - 1])})`);
if (sink === 0.5) console.log(""); // keeps the result alive for the optimiser
