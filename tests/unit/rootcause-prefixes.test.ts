/** The longest matches of the top source addresses (app/features/flows/rootcause/prefixes.ts), on fixed routes. */
import { describe, expect, it } from "vitest";
import {
  candidateNetworks,
  covers,
  fromIpv6Column,
  listedForText,
  longestMatches,
  type CandidateRoute,
} from "~/features/flows/rootcause/prefixes";
import { parseIpAddress, parseNetwork, toIpv6Column } from "~/lib/ip";

const ip = (text: string) => parseIpAddress(text)!;
const route = (vantage_point: string, prefix: string, route_distinguisher = ""): CandidateRoute => {
  const n = parseNetwork(prefix)!;
  return { vantage_point, route_distinguisher, prefix, prefix_addr: toIpv6Column(n), prefix_len: n.length, afi: n.version === 4 ? 1 : 2 };
};

describe("fromIpv6Column", () => {
  it("reads IPv4-mapped addresses as IPv4, others as IPv6", () => {
    expect(fromIpv6Column("::ffff:203.0.113.7")).toEqual({ version: 4, value: ip("203.0.113.7").value });
    expect(fromIpv6Column("2001:db8::1")).toEqual({ version: 6, value: ip("2001:db8::1").value });
    expect(fromIpv6Column("nonsense")).toBeNull();
  });
});

describe("candidateNetworks", () => {
  it("one network address per covering length, deduplicated (/0 … /32)", () => {
    const c = candidateNetworks(ip("203.0.113.7"));
    expect(c).toContain("::ffff:203.0.113.7");
    expect(c).toContain("::ffff:203.0.113.0");
    expect(c).toContain("::ffff:0.0.0.0");
    // /29 … /31 share 203.0.113.0 with /24 … /28; 203.0.113.4 (/30) and .6 (/31) differ.
    expect(new Set(c).size).toBe(c.length);
    expect(c.length).toBeLessThanOrEqual(33);
    expect(candidateNetworks(ip("2001:db8::1")).length).toBeLessThanOrEqual(129);
  });
});

describe("covers", () => {
  it("the prefix contains the address, same family only", () => {
    expect(covers(route("a", "203.0.113.0/24"), ip("203.0.113.200"))).toBe(true);
    expect(covers(route("a", "203.0.113.0/25"), ip("203.0.113.200"))).toBe(false);
    expect(covers(route("a", "0.0.0.0/0"), ip("203.0.113.200"))).toBe(true);
    expect(covers(route("a", "203.0.113.7/32"), ip("203.0.113.7"))).toBe(true);
    expect(covers(route("a", "::/0"), ip("203.0.113.7"))).toBe(false);
    expect(covers(route("a", "2001:db8::/32"), ip("2001:db8:1::1"))).toBe(true);
    // Same network address, longer than the address's own network: not covering.
    expect(covers(route("a", "10.0.0.0/30"), ip("10.0.0.5"))).toBe(false);
  });
});

describe("longestMatches", () => {
  it("per address and table the longest covering prefix; a less specific everywhere shadowed is left out", () => {
    const routes = [
      route("fra1", "203.0.0.0/16"),
      route("fra1", "203.0.113.0/24"),
      route("fra1", "203.0.113.128/25"),
      route("ber1", "203.0.0.0/16"),
      route("ber1", "198.51.100.0/24"),
      // Another VRF of fra1: its own table.
      route("fra1", "203.0.112.0/20", "64500:1"),
    ];
    const out = longestMatches([ip("203.0.113.200"), ip("203.0.113.7"), ip("192.0.2.1")], routes);
    expect(Object.fromEntries(out)).toEqual({
      "203.0.113.128/25": ["203.0.113.200"],
      "203.0.0.0/16": ["203.0.113.200", "203.0.113.7"],
      "203.0.112.0/20": ["203.0.113.200", "203.0.113.7"],
      "203.0.113.0/24": ["203.0.113.7"],
    });
  });
  it("no routes, no prefixes", () => {
    expect(longestMatches([ip("203.0.113.7")], []).size).toBe(0);
  });
});

describe("listedForText", () => {
  it("says why a prefix is listed in words", () => {
    expect(listedForText({ originated: true, topAddresses: [] }, [64500])).toBe("Originated by AS64500");
    expect(listedForText({ originated: true, topAddresses: [] }, null)).toBe("Originated by a top source AS");
    expect(listedForText({ originated: false, topAddresses: ["192.0.2.1"] }, [64500])).toBe(
      "Longest match of top source address 192.0.2.1",
    );
    expect(listedForText({ originated: true, topAddresses: ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"] }, [64500])).toBe(
      "Originated by AS64500; Longest match of top source addresses 192.0.2.1, 192.0.2.2 and 2 more",
    );
    expect(listedForText({ originated: false, topAddresses: [] }, null)).toBe("–");
  });
});
