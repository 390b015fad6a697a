/**
 * The longest-prefix match of enrichment (enrich/prefix-table.ts) and its address readers
 * (enrich/address.ts) against independent computations: a brute-force LPM over BigInt addresses
 * for random, heavily nested prefix sets (IPv4 and IPv6), and app/lib/ip's parser.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalIp, mappedIpv4, parseIpv4, parseIpv6, V6_WORDS } from "~/features/collector/enrich/address";
import { buildPrefixRanges, lookupIpv4, lookupIpv6, type PrefixVersion } from "~/features/collector/enrich/prefix-table";
import { parseIpAddress } from "~/lib/ip";

type Prefix = { value: bigint; length: number };

const BITS = { 4: 32, 6: 128 } as const;

/** The index of the longest prefix containing `address`; the later of equal prefixes; -1 for none. */
function bruteForce(version: PrefixVersion, prefixes: Prefix[], address: bigint): number {
  const bits = BigInt(BITS[version]);
  let best = -1;
  prefixes.forEach((p, i) => {
    const shift = bits - BigInt(p.length);
    if (p.length > BITS[version]) return;
    if (address >> shift !== p.value >> shift) return;
    if (best < 0 || p.length >= prefixes[best].length) best = i;
  });
  return best;
}

function toWords(version: PrefixVersion, value: bigint): number[] {
  const count = version === 4 ? 1 : 4;
  return Array.from({ length: count }, (_, w) => Number((value >> BigInt((count - 1 - w) * 32)) & 0xffffffffn));
}

function build(version: PrefixVersion, prefixes: Prefix[]) {
  const words = prefixes.flatMap((p) => toWords(version, p.value));
  return buildPrefixRanges(version, Uint32Array.from(words), Uint8Array.from(prefixes.map((p) => p.length)));
}

function lookup(version: PrefixVersion, table: ReturnType<typeof build>, address: bigint): number {
  const w = toWords(version, address);
  return version === 4 ? lookupIpv4(table, w[0]) : lookupIpv6(table, w[0], w[1], w[2], w[3]);
}

/** Addresses that test the edges: each prefix's first and last address, and their neighbours. */
function edges(version: PrefixVersion, prefixes: Prefix[]): bigint[] {
  const max = (1n << BigInt(BITS[version])) - 1n;
  return prefixes.flatMap((p) => {
    const host = (1n << BigInt(BITS[version] - p.length)) - 1n;
    const first = p.value & (max ^ host);
    const last = first | host;
    return [first, last, first - 1n, last + 1n].filter((a) => a >= 0n && a <= max);
  });
}

/**
 * Prefixes drawn around a few base addresses with random lengths, so they nest deeply and share
 * starts; host bits are left set on purpose (the table ignores them).
 */
function prefixSet(version: PrefixVersion) {
  const bits = BITS[version];
  const word = fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
  return fc.array(word, { minLength: 1, maxLength: 6 }).chain((bases) =>
    fc.array(
      fc.record({
        base: fc.constantFrom(...bases),
        noise: word,
        noiseBits: fc.integer({ min: 0, max: bits }),
        length: fc.oneof(fc.integer({ min: 0, max: bits }), fc.constantFrom(0, 1, bits - 1, bits, 8, 16, 24)),
      }),
      { maxLength: 120 },
    ),
  );
}

function toPrefixes(version: PrefixVersion, drawn: { base: bigint; noise: bigint; noiseBits: number; length: number }[]): Prefix[] {
  const bits = BigInt(BITS[version]);
  return drawn.map((d) => {
    const low = (1n << BigInt(d.noiseBits)) - 1n;
    return { value: (d.base & (((1n << bits) - 1n) ^ low)) | (d.noise & low), length: d.length };
  });
}

describe.each([4, 6] as const)("prefix table IPv%s", (version) => {
  const bits = BITS[version];
  it("answers as a brute-force longest-prefix match, at every prefix edge and at random addresses", () => {
    fc.assert(
      fc.property(
        prefixSet(version),
        fc.array(fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }), { maxLength: 30 }),
        (drawn, randomAddresses) => {
          const prefixes = toPrefixes(version, drawn);
          const table = build(version, prefixes);
          expect(table.size).toBeLessThanOrEqual(2 * prefixes.length + 1);
          for (const address of [0n, (1n << BigInt(bits)) - 1n, ...edges(version, prefixes), ...randomAddresses])
            expect(lookup(version, table, address), `address ${address}`).toBe(bruteForce(version, prefixes, address));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes sorted input in one pass and gives the same table for any order", () => {
    fc.assert(
      fc.property(prefixSet(version), fc.integer(), (drawn, seed) => {
        const prefixes = toPrefixes(version, drawn).map((p, i) => ({ ...p, i }));
        const shuffled = [...prefixes].sort((a, b) => ((a.i * 7919 + seed) % 101) - ((b.i * 7919 + seed) % 101));
        const a = build(version, prefixes);
        const b = build(version, shuffled);
        for (const address of edges(version, prefixes)) {
          const ea = lookup(version, a, address);
          const eb = lookup(version, b, address);
          // Same prefix (value and length) wins, whatever its place in the input.
          const pa = ea < 0 ? null : prefixes[ea];
          const pb = eb < 0 ? null : shuffled[eb];
          expect(pa?.length).toBe(pb?.length);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("has one range and no match for an empty table; a default route covers everything", () => {
    const empty = build(version, []);
    expect(empty.size).toBe(1);
    expect(lookup(version, empty, 12345n)).toBe(-1);
    const all = build(version, [{ value: 0n, length: 0 }]);
    expect(lookup(version, all, (1n << BigInt(bits)) - 1n)).toBe(0);
  });

  it("skips lengths beyond the address width", () => {
    const table = buildPrefixRanges(version, new Uint32Array(version === 4 ? 1 : 4), Uint8Array.of(bits + 1));
    expect(lookup(version, table, 0n)).toBe(-1);
  });
});

describe("address readers", () => {
  const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join("."));
  const group = fc.nat(0xffff).map((g) => g.toString(16));
  const v6 = fc.oneof(
    fc.array(group, { minLength: 8, maxLength: 8 }).map((g) => g.join(":")),
    fc
      .tuple(fc.array(group, { maxLength: 3 }), fc.array(group, { maxLength: 3 }))
      .map(([head, tail]) => `${head.join(":")}::${tail.join(":")}`),
    fc.tuple(fc.array(group, { maxLength: 2 }), v4).map(([head, tail]) => `${head.join(":")}::${tail}`),
    v4.map((a) => `::ffff:${a}`),
  );
  const noise = fc.string({ maxLength: 50, unit: fc.constantFrom(..."0123456789abcdefgABCDEFG:.x /%") });

  it("read IPv4 and IPv6 text as app/lib/ip does, and refuse what it refuses", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6, noise), (text) => {
        const expected = parseIpAddress(text);
        const trimmed = text.trim() === text;
        const four = parseIpv4(text);
        const six = parseIpv6(text);
        if (!trimmed) return;
        if (expected?.version === 4) {
          expect(four).toBe(Number(expected.value));
          expect(six).toBe(false);
        } else if (expected?.version === 6) {
          expect(four).toBe(-1);
          expect(six).toBe(true);
          const words = toWords(6, expected.value);
          expect([...V6_WORDS]).toEqual(words);
          expect(mappedIpv4()).toBe(expected.value >> 32n === 0xffffn ? Number(expected.value & 0xffffffffn) : -1);
        } else {
          expect(four).toBe(-1);
          expect(six).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("spell an exporter one way: IPv4-mapped as IPv4, IPv6 in RFC 5952 form", () => {
    expect(canonicalIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(canonicalIp("::FFFF:c000:0201")).toBe("192.0.2.1");
    expect(canonicalIp("2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(canonicalIp("192.0.2.1")).toBe("192.0.2.1");
    expect(canonicalIp("192.0.2.0/24")).toBeNull();
    expect(canonicalIp("not an address")).toBeNull();
    for (const bad of ["01.2.3.4", "1.2.3", "1::2::3", ":1", "1:", "1:2:3:4:5:6:7:8:9", "::1.2.3.4.5", "1.2.3.4::"]) {
      expect(parseIpv4(bad), bad).toBe(-1);
      expect(parseIpv6(bad), bad).toBe(false);
    }
  });
});
