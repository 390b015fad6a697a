/**
 * Route origin validation (RFC 6811) against a fixture VRP set: covering and maxLength, AS0, the
 * origin of AS_SET-ending and empty paths, IPv4 and IPv6 — and the index against a plain scan of
 * every VRP on random sets, the definition written out without the index's lookups.
 */
import { describe, expect, it } from "vitest";
import { originOfSegments, parsePrefix, RoaIndex, routeOriginAsn, routeRpkiState, type Vrp } from "~/features/routing/rpki/roa-index";
import { rpkiStateLabel, type RpkiState } from "~/features/routing/rpki/state";

function vrp(prefix: string, maxLength: number, asn: number): Vrp {
  const p = parsePrefix(prefix);
  if (!p) throw new Error(`bad fixture prefix ${prefix}`);
  return { ...p, maxLength, asn };
}

const FIXTURE = [
  vrp("192.0.2.0/24", 24, 64500),
  vrp("198.51.100.0/22", 24, 64501), // more-specifics up to /24 allowed
  vrp("198.51.100.0/24", 24, 64502), // a second AS for one of them
  vrp("203.0.113.0/24", 24, 0), // AS0: nobody may originate it
  vrp("10.0.0.0/8", 8, 64503),
  vrp("2001:db8::/32", 48, 64510),
  vrp("2001:db8:ff00::/40", 40, 64511),
  vrp("2001:db8:abcd::/48", 48, 0),
];
const index = RoaIndex.build(FIXTURE);
const state = (prefix: string, origin: number | null) => index.validatePrefix(prefix, origin);

describe("RPKI states against the fixture VRPs", () => {
  it("IPv4: exact match, maxLength allowing and refusing more-specifics, another AS, nothing covering", () => {
    expect(state("192.0.2.0/24", 64500)).toBe("valid");
    expect(state("192.0.2.0/25", 64500)).toBe("invalid"); // longer than maxLength 24
    expect(state("192.0.2.0/24", 64999)).toBe("invalid"); // covered, other AS
    expect(state("198.51.100.0/22", 64501)).toBe("valid");
    expect(state("198.51.101.0/24", 64501)).toBe("valid"); // within maxLength 24 of the /22
    expect(state("198.51.101.0/25", 64501)).toBe("invalid"); // beyond it
    expect(state("198.51.100.0/24", 64502)).toBe("valid"); // its own VRP
    expect(state("198.51.100.0/24", 64501)).toBe("valid"); // the covering /22's AS may too
    expect(state("198.51.96.0/21", 64501)).toBe("not-found"); // less specific than every VRP: not covered
    expect(state("10.20.0.0/16", 64503)).toBe("invalid"); // maxLength 8
    expect(state("10.0.0.0/8", 64503)).toBe("valid");
    expect(state("100.64.0.0/10", 64500)).toBe("not-found");
    expect(state("0.0.0.0/0", 64500)).toBe("not-found");
  });

  it("AS0 VRPs cover but never validate, even a route claiming AS 0", () => {
    expect(state("203.0.113.0/24", 0)).toBe("invalid");
    expect(state("203.0.113.0/24", 64500)).toBe("invalid");
    expect(state("203.0.113.128/25", 64500)).toBe("invalid");
    expect(state("2001:db8:abcd::/48", 0)).toBe("invalid");
    // The AS0 /48 lies under the /32 of AS 64510 (maxLength 48), which still validates it.
    expect(state("2001:db8:abcd::/48", 64510)).toBe("valid");
  });

  it("a route without an origin (AS_SET at the end) is invalid when covered, not found otherwise", () => {
    expect(state("192.0.2.0/24", null)).toBe("invalid");
    expect(state("100.64.0.0/10", null)).toBe("not-found");
  });

  it("IPv6: maxLength, nested VRPs of other ASes, families kept apart", () => {
    expect(state("2001:db8::/32", 64510)).toBe("valid");
    expect(state("2001:db8:1234::/48", 64510)).toBe("valid");
    expect(state("2001:db8:1234::/49", 64510)).toBe("invalid");
    expect(state("2001:db8:ff00::/40", 64511)).toBe("valid");
    expect(state("2001:db8:ff00::/40", 64510)).toBe("valid"); // the /32's maxLength 48 covers a /40 of 64510 too
    expect(state("2001:db8:ff00::/44", 64511)).toBe("invalid");
    expect(state("2001:db9::/32", 64510)).toBe("not-found");
    // ::ffff:192.0.2.0/120 is an IPv6 prefix: IPv4 VRPs do not cover it.
    expect(state("::ffff:192.0.2.0/120", 64500)).toBe("not-found");
  });

  it("reads prefixes strictly: host bits or a missing length are not prefixes", () => {
    expect(parsePrefix("192.0.2.1/24")).toBeNull();
    expect(parsePrefix("192.0.2.0")).toBeNull();
    expect(parsePrefix("192.0.2.0/33")).toBeNull();
    expect(parsePrefix("192.0.02.0/24")).toBeNull();
    expect(parsePrefix("2001:db8::1/32")).toBeNull();
    expect(parsePrefix("2001:db8::/32")).toMatchObject({ version: 6, length: 32 });
    expect(parsePrefix("0.0.0.0/0")).toEqual({ version: 4, value: 0, length: 0 });
    expect(state("192.0.2.1/24", 64500)).toBeNull();
  });
});

describe("the origin AS of a route", () => {
  it("from the AS path's segments (RFC 6811 §2)", () => {
    expect(originOfSegments([{ type: "sequence", asns: [64496, 3356, 13335] }], 64500)).toBe(13335);
    expect(
      originOfSegments(
        [
          { type: "sequence", asns: [64496, 3356] },
          { type: "set", asns: [1, 2] },
        ],
        64500,
      ),
    ).toBeNull();
    expect(originOfSegments([], 64500)).toBe(64500);
    expect(originOfSegments([{ type: "confed-sequence", asns: [65001] }], 64500)).toBe(64500);
    expect(
      originOfSegments(
        [
          { type: "confed-sequence", asns: [65001] },
          { type: "sequence", asns: [174] },
        ],
        64500,
      ),
    ).toBe(174);
  });

  it("from the routing table's columns: the last AS of the sequence, none after an AS_SET, the peer's AS for an empty path", () => {
    expect(routeOriginAsn({ asPath: [64496, 3356, 13335], asPathSet: [], peerAsn: 64496 })).toBe(13335);
    expect(routeOriginAsn({ asPath: [64496, 3356], asPathSet: [64501, 64502], peerAsn: 64496 })).toBeNull();
    expect(routeOriginAsn({ asPath: [], asPathSet: [], peerAsn: 64500 })).toBe(64500);
  });

  it("a routing table row's state, null without any VRP", () => {
    const row = (prefix: string, as_path: number[], as_path_set: number[], peer_asn: number) => ({
      prefix,
      as_path,
      as_path_set,
      peer_asn,
    });
    expect(routeRpkiState(index, row("192.0.2.0/24", [3356, 64500], [], 3356))).toBe("valid");
    expect(routeRpkiState(index, row("192.0.2.0/24", [3356, 64501], [], 3356))).toBe("invalid");
    expect(routeRpkiState(index, row("192.0.2.0/24", [3356], [64500], 3356))).toBe("invalid");
    // Originated inside the network (iBGP, Loc-RIB): the peer's AS, which is the network's own.
    expect(routeRpkiState(index, row("10.0.0.0/8", [], [], 64503))).toBe("valid");
    expect(routeRpkiState(index, row("2001:db8:1::/48", [174, 64510], [], 174))).toBe("valid");
    expect(routeRpkiState(null, row("192.0.2.0/24", [3356, 64500], [], 3356))).toBeNull();
    expect([...(["valid", "invalid", "not-found", null] as (RpkiState | null)[])].map(rpkiStateLabel)).toEqual([
      "Valid",
      "Invalid",
      "Not found",
      "No ROA data",
    ]);
  });
});

/** RFC 6811 §2 as written: every VRP looked at. */
function reference(vrps: readonly Vrp[], route: { version: 4 | 6; value: bigint; length: number }, origin: number | null): RpkiState {
  const bits = route.version === 4 ? 32n : 128n;
  let covered = false;
  for (const v of vrps) {
    if (v.version !== route.version || v.length > route.length) continue;
    const shift = bits - BigInt(v.length);
    if (BigInt(v.value) >> shift !== route.value >> shift) continue;
    covered = true;
    if (origin !== null && v.asn !== 0 && v.asn === origin && v.maxLength >= route.length) return "valid";
  }
  return covered ? "invalid" : "not-found";
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the index against a scan of every VRP", () => {
  it("gives the same state for 6,000 routes over 1,000 random VRPs of both families", () => {
    const rnd = random(6811);
    const int = (n: number) => Math.floor(rnd() * n);
    // A narrow address space, so that VRPs nest and routes are covered often.
    const v4 = (length: number) => {
      // Mostly 10.0.0.0/8; some routes from 11.0.0.0/8, which only a rare /7 or shorter could cover.
      const value = BigInt(((rnd() < 0.9 ? 0x0a000000 : 0x0b000000) + int(1 << 12) * (1 << 12)) >>> 0);
      const shift = BigInt(32 - length);
      return { version: 4 as const, value: (value >> shift) << shift, length };
    };
    const v6 = (length: number) => {
      const value = (0x20010db8n << 96n) | (BigInt(int(1 << 16)) << 80n);
      const shift = BigInt(128 - length);
      return { version: 6 as const, value: (value >> shift) << shift, length };
    };
    const asns = [0, 64500, 64501, 64502, 64503];
    const vrps: Vrp[] = [];
    for (let i = 0; i < 1000; i++) {
      const six = rnd() < 0.3;
      const length = six ? 32 + int(17) : 10 + int(15);
      const p = six ? v6(length) : v4(length);
      const maxLength = Math.min(six ? 128 : 32, length + int(6));
      vrps.push({ ...p, value: six ? p.value : Number(p.value), maxLength, asn: asns[int(asns.length)] } as Vrp);
    }
    const built = RoaIndex.build(vrps);
    let states = { valid: 0, invalid: 0, "not-found": 0 };
    for (let i = 0; i < 6000; i++) {
      const six = rnd() < 0.3;
      const route = six ? v6(32 + int(25)) : v4(8 + int(25));
      const origin = rnd() < 0.05 ? null : asns[int(asns.length)];
      const expected = reference(vrps, route, origin);
      const got = built.validate(route.version === 4 ? { ...route, value: Number(route.value) } : route, origin);
      if (got !== expected)
        throw new Error(`route ${route.value.toString(16)}/${route.length} origin ${origin}: ${got}, expected ${expected}`);
      states = { ...states, [got]: states[got] + 1 };
    }
    // All three states were exercised.
    expect(states.valid).toBeGreaterThan(300);
    expect(states.invalid).toBeGreaterThan(300);
    expect(states["not-found"]).toBeGreaterThan(300);
  });
});
