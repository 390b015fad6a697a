import { describe, expect, it } from "vitest";
import {
  createAllocator,
  formatIpv4,
  formatIpv6,
  formatPrefix,
  hostInPrefix,
  parseIpv4,
  parseIpv6,
  parsePrefix,
  type ParsedPrefix,
} from "~db/demo/addresses";

/** First and last address of a prefix, computed here rather than by the module under test. */
function range(prefix: ParsedPrefix): [bigint, bigint] {
  const bits = prefix.family === 4 ? 32 : 128;
  const size = 1n << BigInt(bits - prefix.length);
  return [prefix.base, prefix.base + size - 1n];
}

const parse = (family: 4 | 6, text: string) => (family === 4 ? parseIpv4(text) : parseIpv6(text));

describe("IPv4", () => {
  it("parses dotted quads", () => {
    expect(parseIpv4("0.0.0.0")).toBe(0n);
    expect(parseIpv4("192.0.2.1")).toBe(0xc0000201n);
    expect(parseIpv4("255.255.255.255")).toBe(0xffffffffn);
    expect(parseIpv4("10.1.2.3")).toBe((10n << 24n) | (1n << 16n) | (2n << 8n) | 3n);
  });

  it("formats without leading zeros and round-trips", () => {
    expect(formatIpv4(0n)).toBe("0.0.0.0");
    expect(formatIpv4(0xc0000201n)).toBe("192.0.2.1");
    expect(formatIpv4(0xffffffffn)).toBe("255.255.255.255");
    for (const text of ["1.2.3.4", "198.18.255.0", "203.0.113.128", "100.64.0.1"]) {
      expect(formatIpv4(parseIpv4(text))).toBe(text);
    }
  });

  it("rejects malformed text", () => {
    for (const text of ["1.2.3", "1.2.3.4.5", "256.0.0.1", "1.2.3.-1", "a.b.c.d", "1.2.3.4.", "", "1.2.3.4/24"]) {
      expect(() => parseIpv4(text), text).toThrow();
    }
  });
});

describe("IPv6", () => {
  it("parses full, compressed and edge forms", () => {
    expect(parseIpv6("::")).toBe(0n);
    expect(parseIpv6("::1")).toBe(1n);
    expect(parseIpv6("1::")).toBe(1n << 112n);
    expect(parseIpv6("2001:db8::1")).toBe((0x2001n << 112n) | (0xdb8n << 96n) | 1n);
    expect(parseIpv6("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe(parseIpv6("2001:db8::1"));
    expect(parseIpv6("2001:DB8::A")).toBe(parseIpv6("2001:db8::a"));
    expect(parseIpv6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")).toBe((1n << 128n) - 1n);
    expect(parseIpv6("1:2:3:4:5:6:7:8")).toBe(0x0001_0002_0003_0004_0005_0006_0007_0008n);
    expect(parseIpv6("1:2:3::6:7:8")).toBe(0x0001_0002_0003_0000_0000_0006_0007_0008n);
  });

  it("formats in RFC 5952 canonical form", () => {
    const cases: [string, string][] = [
      ["0:0:0:0:0:0:0:0", "::"],
      ["0:0:0:0:0:0:0:1", "::1"],
      ["1:0:0:0:0:0:0:0", "1::"],
      ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"], // leading zeros dropped
      ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"], // a single zero group is not compressed (4.2.2)
      ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1"], // the longest run is compressed (4.2.3)
      ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"], // on a tie, the first run (4.2.3)
      ["2001:DB8:0:0:0:0:0:ABCD", "2001:db8::abcd"], // lower case (4.3)
      ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
      ["0:1:2:3:4:5:6:7", "0:1:2:3:4:5:6:7"],
      ["1:0:0:2:0:0:0:0", "1:0:0:2::"],
    ];
    for (const [input, canonical] of cases) {
      expect(formatIpv6(parseIpv6(input)), input).toBe(canonical);
      // The canonical text parses back to the same value.
      expect(parseIpv6(canonical), canonical).toBe(parseIpv6(input));
    }
  });

  it("round-trips values with zero runs in every position", () => {
    for (let mask = 0; mask < 256; mask++) {
      let value = 0n;
      for (let g = 0; g < 8; g++) value = (value << 16n) | (mask & (1 << (7 - g)) ? BigInt(0x1000 + g * 0x111) : 0n);
      const text = formatIpv6(value);
      expect(parseIpv6(text), text).toBe(value);
      expect(text.split("::").length, text).toBeLessThanOrEqual(2);
      expect(text, "no leading zeros").not.toMatch(/(^|:)0[0-9a-f]/);
    }
  });

  it("rejects malformed text instead of misreading it", () => {
    const malformed = ["1:2:3", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", "g::1", "1:2:3:4:5:6:7:8::", "1:2:3:4:5:6:7:8:"];
    const accepted: string[] = [];
    for (const text of malformed) {
      try {
        accepted.push(`${text} -> ${parseIpv6(text).toString(16)}`);
      } catch {
        // refused, as it should be
      }
    }
    expect(accepted).toEqual([]);
  });

  it("reads embedded IPv4 notation right or refuses it", () => {
    // RFC 4291 2.2 (3), how ClickHouse prints IPv4-mapped addresses.
    let mapped: bigint | null = null;
    try {
      mapped = parseIpv6("::ffff:192.0.2.1");
    } catch {
      mapped = null;
    }
    if (mapped !== null) expect(mapped).toBe(0xffff_c000_0201n);
  });
});

describe("prefixes", () => {
  it("parse and format both families", () => {
    expect(parsePrefix("198.18.0.0/15")).toEqual({ family: 4, base: parseIpv4("198.18.0.0"), length: 15 });
    expect(parsePrefix("2001:db8:1000::/36")).toEqual({ family: 6, base: parseIpv6("2001:db8:1000::"), length: 36 });
    for (const text of [
      "0.0.0.0/0",
      "10.0.0.0/8",
      "203.0.113.0/24",
      "192.0.2.1/32",
      "::/0",
      "2001:db8::/32",
      "2a00:1450::/32",
      "2001:db8::1/128",
    ]) {
      expect(formatPrefix(parsePrefix(text))).toBe(text);
    }
  });
});

describe("createAllocator", () => {
  it("hands out aligned, consecutive, non-overlapping subnets inside the pool, then throws", () => {
    for (const [pool, length, expected] of [
      ["10.0.0.0/22", 24, 4],
      ["198.18.0.0/15", 24, 512],
      ["203.0.113.0/24", 26, 4],
      ["2001:db8:1000::/36", 48, 4096],
      ["2001:db8::/46", 48, 4],
    ] as const) {
      const next = createAllocator(pool, length);
      const [poolStart, poolEnd] = range(parsePrefix(pool));
      const got: ParsedPrefix[] = [];
      for (let i = 0; i < expected; i++) got.push(parsePrefix(next()));
      expect(() => next(), `${pool} exhausted`).toThrow(/exhausted/);
      expect(() => next(), `${pool} stays exhausted`).toThrow(/exhausted/);

      const sorted = got.map(range).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      for (const [i, p] of got.entries()) {
        expect(p.length).toBe(length);
        const [start, end] = range(p);
        expect(start >= poolStart && end <= poolEnd, `${formatPrefix(p)} inside ${pool}`).toBe(true);
        // Aligned on its own size (no host bits set).
        expect(start % (end - start + 1n)).toBe(0n);
        if (i > 0) expect(start, "consecutive").toBe(range(got[i - 1])[1] + 1n);
      }
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i][0] > sorted[i - 1][1], `${pool}: no overlap`).toBe(true);
      }
      // Together they cover the pool exactly.
      expect(sorted[0][0]).toBe(poolStart);
      expect(sorted[sorted.length - 1][1]).toBe(poolEnd);
    }
  });

  it("throws at once when the subnet is larger than the pool", () => {
    expect(() => createAllocator("10.0.0.0/24", 16)()).toThrow(/exhausted/);
  });
});

describe("hostInPrefix", () => {
  const ns = [0, 1, 2, 253, 254, 255, 256, 7919, 104_729, 999 * 7919 + 11 * 104_729, 2 ** 31, Number.MAX_SAFE_INTEGER];

  it("stays inside the prefix and skips the network address", () => {
    const prefixes = [
      "203.0.113.0/24",
      "198.51.100.128/25",
      "198.18.0.0/15",
      "4.0.0.0/9",
      "10.0.0.0/30",
      "8.8.8.0/24",
      "2001:db8::/36",
      "2a00:1450::/32",
      "2001:db8:10de::/48",
      "2600:1f00::/24",
      "2001:db8::/126",
    ];
    for (const text of prefixes) {
      const prefix = parsePrefix(text);
      const [start, end] = range(prefix);
      for (const n of ns) {
        const host = hostInPrefix(prefix, n);
        const value = parse(prefix.family, host);
        expect(value > start && value <= end, `${text} #${n} -> ${host}`).toBe(true);
        if (prefix.family === 4) expect(value, `${text} #${n}: not the broadcast address`).not.toBe(end);
      }
    }
  });

  it("is deterministic and spreads over the prefix", () => {
    const prefix = parsePrefix("203.0.113.0/24");
    expect(hostInPrefix(prefix, 42)).toBe(hostInPrefix(prefix, 42));
    expect(hostInPrefix(prefix, 0)).toBe("203.0.113.1");
    expect(new Set(Array.from({ length: 254 }, (_, i) => hostInPrefix(prefix, i))).size).toBe(254);
  });

  it("formats IPv6 hosts canonically", () => {
    const host = hostInPrefix(parsePrefix("2001:db8::/32"), 0);
    expect(host).toBe("2001:db8::1");
  });

  it("stays inside the smallest prefixes too (/31, /32, /127, /128)", () => {
    for (const text of ["192.0.2.0/31", "192.0.2.7/32", "2001:db8::/127", "2001:db8::7/128"]) {
      const prefix = parsePrefix(text);
      const [start, end] = range(prefix);
      for (const n of ns) {
        const host = hostInPrefix(prefix, n);
        const value = parse(prefix.family, host);
        expect(value >= start && value <= end, `${text} #${n} -> ${host}`).toBe(true);
      }
    }
  });
});
