/**
 * Communities as the screens and the Looking Glass filter read them (app/lib/bgp-communities.ts):
 * parsing to the canonical text, the well-known names of RFC 1997/3765/7611/7999/8326/9494, and
 * which operator label applies — checked against a brute-force reading of the rules written here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMMUNITY_MESSAGES,
  communityNamer,
  communityWithName,
  parseCommunity,
  parseCommunityPattern,
  patternMatches,
  WELL_KNOWN_COMMUNITIES,
  type CommunityLabel,
} from "~/lib/bgp-communities";

const canonical = (text: string) => {
  const parsed = parseCommunityPattern(text);
  return parsed.ok ? [parsed.pattern.kind, parsed.pattern.text, parsed.pattern.wildcard, parsed.pattern.prefix] : parsed.error;
};

describe("parsing communities and patterns", () => {
  it.each([
    ["64496:100", ["standard", "64496:100", false, ""]],
    [" 064496:0100 ", ["standard", "64496:100", false, ""]],
    ["0:0", ["standard", "0:0", false, ""]],
    ["65535:65281", ["standard", "65535:65281", false, ""]],
    ["64496:1:2", ["large", "64496:1:2", false, ""]],
    ["4294967295:4294967295:4294967295", ["large", "4294967295:4294967295:4294967295", false, ""]],
    ["RT:64497:42", ["extended", "RT:64497:42", false, ""]],
    ["rt:64497:42", ["extended", "RT:64497:42", false, ""]],
    ["target:64497:42", ["extended", "RT:64497:42", false, ""]],
    ["soo:192.0.2.1:7", ["extended", "SoO:192.0.2.1:7", false, ""]],
    ["0x0002FDE90000002A", ["extended", "0x0002fde90000002a", false, ""]],
    ["64496:*", ["standard", "64496:*", true, "64496:"]],
    ["64496:1:*", ["large", "64496:1:*", true, "64496:1:"]],
    ["RT:64497:*", ["extended", "RT:64497:*", true, "RT:64497:"]],
  ])("%s", (text, expected) => {
    expect(canonical(text)).toEqual(expected);
  });

  it("refuses what is not a community with a message that says how to write one", () => {
    expect(parseCommunityPattern("")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.empty });
    expect(parseCommunityPattern("65536:1")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.standardRange });
    expect(parseCommunityPattern("1:65536")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.standardRange });
    expect(parseCommunityPattern("4294967296:1:1")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.largeRange });
    expect(parseCommunityPattern("RT:4294967296:1")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.extendedRange });
    expect(parseCommunityPattern("0x12*")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.opaqueWildcard });
    expect(parseCommunityPattern("x".repeat(65))).toEqual({ ok: false, error: COMMUNITY_MESSAGES.tooLong });
    for (const bad of [
      "64496",
      "*",
      "*:100",
      "64496:*:1",
      "64496:1:2:3",
      "a:b",
      "RT:64497",
      "RT:abc:1",
      "RT:300.0.0.1:1",
      "64496:-1",
      "0x",
    ])
      expect(parseCommunityPattern(bad), bad).toEqual({ ok: false, error: COMMUNITY_MESSAGES.notAPattern(bad) });
    // A single community has no `*`.
    expect(parseCommunity("64496:*")).toEqual({ ok: false, error: COMMUNITY_MESSAGES.notACommunity("64496:*") });
    expect(parseCommunity("64496:7").ok).toBe(true);
  });

  it("a canonical text reads back as itself (any standard or large community)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 65535 })).map(([a, b]) => `${a}:${b}`),
          fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([a, b, c]) => `${a}:${b}:${c}`),
        ),
        (text) => {
          const parsed = parseCommunity(text);
          expect(parsed.ok && parsed.pattern.text).toBe(text);
        },
      ),
    );
  });
});

describe("patterns match communities", () => {
  const matches = (pattern: string, community: string) => {
    const parsed = parseCommunityPattern(pattern);
    if (!parsed.ok) throw new Error(parsed.error);
    return patternMatches(parsed.pattern, community);
  };

  it("the * stands for the last part only, of the same kind", () => {
    expect(matches("64496:*", "64496:100")).toBe(true);
    expect(matches("64496:*", "64496:1:2")).toBe(false);
    expect(matches("64496:*", "644960:1")).toBe(false);
    expect(matches("64496:*", "64496:")).toBe(false);
    expect(matches("64496:1:*", "64496:1:2")).toBe(true);
    expect(matches("64496:1:*", "64496:10:2")).toBe(false);
    expect(matches("RT:64497:*", "RT:64497:42")).toBe(true);
    expect(matches("RT:64497:*", "SoO:64497:42")).toBe(false);
    expect(matches("64496:100", "64496:100")).toBe(true);
    expect(matches("64496:100", "64496:1000")).toBe(false);
  });
});

describe("names: the operator's exact label, then the well-known name, then the operator's pattern", () => {
  const LABELS: CommunityLabel[] = [
    { pattern: "64496:100", label: "Customer routes" },
    { pattern: "64496:*", label: "Learned in region" },
    { pattern: "64496:1:*", label: "Neighbour AS" },
    { pattern: "RT:64497:42", label: "VPN blue" },
    { pattern: "65535:*", label: "Well-known range" },
    { pattern: "65535:666", label: "Remote triggered blackhole" },
  ];
  const name = communityNamer(LABELS);

  it("names the well-known communities as the RFCs spell them", () => {
    const plain = communityNamer([]);
    expect(plain("65535:65281")).toBe("NO_EXPORT");
    expect(plain("65535:65282")).toBe("NO_ADVERTISE");
    expect(plain("65535:65283")).toBe("NO_EXPORT_SUBCONFED");
    expect(plain("65535:65284")).toBe("NOPEER");
    expect(plain("65535:666")).toBe("BLACKHOLE");
    expect(plain("65535:0")).toBe("GRACEFUL_SHUTDOWN");
    expect(plain("65535:1")).toBe("ACCEPT_OWN");
    expect(plain("65535:6")).toBe("LLGR_STALE");
    expect(plain("65535:7")).toBe("NO_LLGR");
    expect(plain("65535:12345")).toBeNull();
    expect(plain("64496:100")).toBeNull();
  });

  it("applies the precedence", () => {
    expect(name("64496:100")).toBe("Customer routes");
    expect(name("64496:200")).toBe("Learned in region");
    expect(name("64496:1:64511")).toBe("Neighbour AS");
    expect(name("64496:2:64511")).toBeNull();
    expect(name("RT:64497:42")).toBe("VPN blue");
    expect(name("RT:64497:43")).toBeNull();
    expect(name("65535:666")).toBe("Remote triggered blackhole");
    expect(name("65535:65281")).toBe("NO_EXPORT");
    expect(name("65535:4242")).toBe("Well-known range");
    expect(communityWithName("65535:65281", name("65535:65281"))).toBe("65535:65281 NO_EXPORT");
    expect(communityWithName("64496:2:1", name("64496:2:1"))).toBe("64496:2:1");
  });

  it("agrees with a brute-force reading of the rules on random communities", () => {
    const brute = (community: string): string | null => {
      const parsed = LABELS.map((l) => ({ l, p: parseCommunityPattern(l.pattern) })).filter((x) => x.p.ok);
      const exact = parsed.find((x) => x.p.ok && !x.p.pattern.wildcard && x.p.pattern.text === community);
      if (exact) return exact.l.label;
      if (WELL_KNOWN_COMMUNITIES[community]) return WELL_KNOWN_COMMUNITIES[community];
      const wild = parsed.find((x) => x.p.ok && x.p.pattern.wildcard && patternMatches(x.p.pattern, community));
      return wild ? wild.l.label : null;
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.constantFrom(64496, 65535, 64497, 1), fc.integer({ min: 0, max: 65535 })).map(([a, b]) => `${a}:${b}`),
          fc.tuple(fc.constantFrom(64496, 1), fc.constantFrom(1, 2), fc.nat()).map(([a, b, c]) => `${a}:${b}:${c}`),
          fc
            .tuple(fc.constantFrom("RT", "SoO"), fc.constantFrom(64497, 1), fc.integer({ min: 40, max: 44 }))
            .map(([t, a, n]) => `${t}:${a}:${n}`),
        ),
        (community) => {
          expect(name(community)).toBe(brute(community));
        },
      ),
    );
  });
});
