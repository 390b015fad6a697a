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
import { RibTableBuilder, ribTableBytes, type EnrichmentSnapshot, type SnapshotInterface } from "~/features/collector/enrich/snapshot";

const FLOWS = Number(process.env.BENCH_ENRICH_FLOWS ?? 100_000);
const PREFIXES = Number(process.env.BENCH_ENRICH_PREFIXES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** mulberry32: the same numbers on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261126);
const int = (n: number) => Math.floor(rand() * n);
const v4Text = (value: number) => `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
const v6Text = (a: number, b: number, c: number) =>
  `2a${(a & 0xff).toString(16).padStart(2, "0")}:${b.toString(16)}:${c.toString(16)}::${int(0xffff).toString(16)}`;

// Prefixes: IPv4 blocks of /8–/24 around 2,000 bases so they nest as in a real table; IPv6 /32–/48.
const v4Bases = Array.from({ length: 2000 }, () => (int(223) + 1) * 2 ** 24 + int(2 ** 24));
type Prefix = { text: string; length: number };
const prefixes: Prefix[] = [];
for (let i = 0; i < PREFIXES; i++) {
  if (i % 10 === 9) prefixes.push({ text: v6Text(int(256), int(0xffff), int(0xffff)).replace(/::.*$/, "::"), length: 32 + int(17) });
  else {
    const length = 8 + int(17);
    const base = v4Bases[int(v4Bases.length)] + int(2 ** 16) * 256;
    const network = Math.floor(base / 2 ** (32 - length)) * 2 ** (32 - length);
    prefixes.push({ text: v4Text(network >>> 0), length });
  }
}
const paths = Array.from({ length: 500 }, () => Array.from({ length: 1 + int(5) }, () => 1 + int(400_000)));

// The loader feeds a table in (address, length) order; so does the bench for IPv4 (IPv6 is left to the builder's sort).
const sorted = prefixes
  .map((p) => ({
    ...p,
    key: p.text.includes(":")
      ? `1${p.text}`
      : `0${p.text
          .split(".")
          .map((o) => o.padStart(3, "0"))
          .join(".")}`,
  }))
  .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.length - b.length));
const started = performance.now();
const builder = new RibTableBuilder("bench1", "");
for (const p of sorted) builder.add(p.text, p.length, paths[int(paths.length)], `198.51.100.${1 + int(4)}`);
const rib = builder.build();
const buildMs = performance.now() - started;

const kinds = ["external", "external", "core", "access"] as const;
const interfaces: SnapshotInterface[] = Array.from({ length: 48 }, (_, i) => ({
  ifIndex: 500 + i,
  name: `et-0/0/${i}`,
  kind: kinds[i % 4],
  neighborAsn: kinds[i % 4] === "external" && i % 8 ? 1000 + i : null,
  vrf: null,
  remoteRouter: kinds[i % 4] === "core" ? "bench-r2" : null,
  remoteInterface: kinds[i % 4] === "core" ? `et-1/0/${i}` : null,
}));
const snapshot: EnrichmentSnapshot = {
  loadedAtMs: Date.now(),
  operatorAsn: 64500,
  routers: [
    { name: "bench-r1", loopback: "198.51.100.1", exporters: ["192.0.2.1"], vantagePoints: ["bench1"], interfaces },
    { name: "bench-r2", loopback: "198.51.100.2", exporters: ["192.0.2.2"], vantagePoints: ["bench1"], interfaces: [] },
  ],
  ribs: [rib],
  asServices: paths.slice(0, 50).map((p) => ({ asn: p[p.length - 1], application: "App", infrastructure: "" })),
};

const enricher = createEnricher(snapshot);

// Flows: addresses inside the table's space mostly (some outside), IPv6 one in ten, as decoders give them.
const address = (): string => {
  if (int(10) === 0) return v6Text(int(256), int(0xffff), int(0xffff));
  return v4Text((v4Bases[int(v4Bases.length)] + int(2 ** 24)) >>> 0);
};
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
    inIfIndex: 500 + int(50),
    outIfIndex: 500 + int(50),
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
