/**
 * The synthetic network the enrichment and collector benches share: a routing table of nested
 * prefixes (90 % IPv4 from /8 to /24 around 2,000 bases, 10 % IPv6 /32–/48), a router with 48
 * interfaces of every kind and a second one behind its core links, and addresses drawn mostly from
 * the table's space (so a flow costs a real longest-prefix match). Drawn from a fixed seed: every
 * run, and every process that builds it with the same options (the collector bench's sender), gets
 * the same network.
 */
import { RibTableBuilder, type EnrichmentSnapshot, type RibTable, type SnapshotInterface } from "~/features/collector/enrich/snapshot";

/** mulberry32: the same numbers on every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const v4Text = (value: number) => `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;

export type SyntheticPrefix = { text: string; length: number; path: number[]; nextHop: string };

export const OPERATOR_ASN = 64500;
export const ROUTER = "bench-r1";
export const VANTAGE_POINT = "bench1";
/** The first ifIndex of the router's 48 interfaces (500 … 547). */
export const FIRST_IF_INDEX = 500;
export const INTERFACES = 48;

export type SyntheticNetwork = {
  prefixes: SyntheticPrefix[];
  interfaces: SnapshotInterface[];
  /** AS → application of 50 ASes that originate prefixes. */
  asServices: EnrichmentSnapshot["asServices"];
  /** An IPv4 address, mostly inside the table's space. */
  v4Address(): string;
  /** An IPv6 address, inside or beside the table's IPv6 prefixes. */
  v6Address(): string;
  int(n: number): number;
  /** The routing table as the collector's loader builds it (RibTableBuilder), and its build time. */
  buildRib(): { rib: RibTable; buildMs: number };
  /** A snapshot with bench-r1 exporting from `exporters` and bench-r2 behind its core links. */
  snapshot(exporters: string[], rib: RibTable): EnrichmentSnapshot;
};

export function syntheticNetwork(options: { prefixes: number; seed?: number }): SyntheticNetwork {
  const rand = random(options.seed ?? 20261126);
  const int = (n: number) => Math.floor(rand() * n);
  const v6Text = (a: number, b: number, c: number) =>
    `2a${(a & 0xff).toString(16).padStart(2, "0")}:${b.toString(16)}:${c.toString(16)}::${int(0xffff).toString(16)}`;

  const v4Bases = Array.from({ length: 2000 }, () => (int(223) + 1) * 2 ** 24 + int(2 ** 24));
  const paths = Array.from({ length: 500 }, () => Array.from({ length: 1 + int(5) }, () => 1 + int(400_000)));
  const v6Prefixes: string[] = [];
  const prefixes: SyntheticPrefix[] = [];
  for (let i = 0; i < options.prefixes; i++) {
    const path = paths[int(paths.length)];
    const nextHop = `198.51.100.${1 + int(4)}`;
    if (i % 10 === 9) {
      const text = v6Text(int(256), int(0xffff), int(0xffff)).replace(/::.*$/, "::");
      v6Prefixes.push(text);
      prefixes.push({ text, length: 32 + int(17), path, nextHop });
    } else {
      const length = 8 + int(17);
      const base = v4Bases[int(v4Bases.length)] + int(2 ** 16) * 256;
      const network = Math.floor(base / 2 ** (32 - length)) * 2 ** (32 - length);
      prefixes.push({ text: v4Text(network >>> 0), length, path, nextHop });
    }
  }

  const kinds = ["external", "external", "core", "access"] as const;
  const interfaces: SnapshotInterface[] = Array.from({ length: INTERFACES }, (_, i) => ({
    ifIndex: FIRST_IF_INDEX + i,
    name: `et-0/0/${i}`,
    kind: kinds[i % 4],
    neighborAsn: kinds[i % 4] === "external" && i % 8 ? 1000 + i : null,
    vrf: null,
    remoteRouter: kinds[i % 4] === "core" ? "bench-r2" : null,
    remoteInterface: kinds[i % 4] === "core" ? `et-1/0/${i}` : null,
  }));

  return {
    prefixes,
    interfaces,
    asServices: paths.slice(0, 50).map((p) => ({ asn: p[p.length - 1], application: "App", infrastructure: "" })),
    v4Address: () => v4Text((v4Bases[int(v4Bases.length)] + int(2 ** 24)) >>> 0),
    // Half inside a prefix of the table (its /32 with a random tail), half anywhere in 2a00::/8.
    v6Address: () =>
      int(2) && v6Prefixes.length
        ? v6Prefixes[int(v6Prefixes.length)].replace(/::$/, `:${int(0xffff).toString(16)}::${(1 + int(0xfffe)).toString(16)}`)
        : v6Text(int(256), int(0xffff), int(0xffff)),
    int,
    buildRib() {
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
      const builder = new RibTableBuilder(VANTAGE_POINT, "");
      for (const p of sorted) builder.add(p.text, p.length, p.path, p.nextHop);
      const rib = builder.build();
      return { rib, buildMs: performance.now() - started };
    },
    snapshot(exporters, rib) {
      return {
        loadedAtMs: Date.now(),
        operatorAsn: OPERATOR_ASN,
        routers: [
          { name: ROUTER, loopback: "198.51.100.1", exporters, vantagePoints: [VANTAGE_POINT], interfaces },
          { name: "bench-r2", loopback: "198.51.100.2", exporters: ["192.0.2.2"], vantagePoints: [VANTAGE_POINT], interfaces: [] },
        ],
        ribs: [rib],
        asServices: paths.slice(0, 50).map((p) => ({ asn: p[p.length - 1], application: "App", infrastructure: "" })),
      };
    },
  };
}
