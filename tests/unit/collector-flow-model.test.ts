// The flow generator's model of a network: the same flows for a seed, other flows for another, routing that follows
// the inventory's core links, and documentation ranges standing in when the routing table has nothing to give.
import { describe, expect, it } from "vitest";
import { buildNetworkModel, seededRandom, type ModelRouter, type RibRoute } from "~/features/collector/export/flow-model";
import { parseIpAddress, parseNetwork } from "~/lib/ip";

const NOW = 1_763_000_000_000;

const ROUTERS: ModelRouter[] = [
  {
    name: "border",
    interfaces: [
      { ifindex: 1, kind: "external", peering: "Transit", neighbourAs: 174, capacity: 100e9, remoteRouter: null },
      { ifindex: 2, kind: "core", peering: null, neighbourAs: null, capacity: 100e9, remoteRouter: "metro" },
    ],
  },
  {
    name: "metro",
    interfaces: [
      { ifindex: 7, kind: "core", peering: null, neighbourAs: null, capacity: 100e9, remoteRouter: "border" },
      { ifindex: 8, kind: "access", peering: null, neighbourAs: null, capacity: 100e9, remoteRouter: null },
      { ifindex: 9, kind: "external", peering: "Customer", neighbourAs: 64_999, capacity: 10e9, remoteRouter: null },
    ],
  },
];
const RIB: RibRoute[] = [
  { prefix: "100.64.0.0/12", asPath: [], nextHop: null },
  { prefix: "2001:db8:aa::/48", asPath: [], nextHop: null },
  { prefix: "9.9.9.0/24", asPath: [174, 19_281], nextHop: "192.0.2.174" },
  { prefix: "2620:fe::/48", asPath: [174, 19_281], nextHop: "2001:db8::174" },
  { prefix: "198.19.0.0/24", asPath: [64_999], nextHop: "10.0.0.9" },
];

const flows = (seed: number, count: number, rib: RibRoute[] = RIB) => {
  const model = buildNetworkModel(ROUTERS, () => rib);
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const router = model.pickRouter(random);
    return { router, ...model.flow(router, random, NOW) };
  });
};

const inside = (address: string, prefix: string) => {
  const a = parseIpAddress(address)!;
  const n = parseNetwork(prefix)!;
  const bits = BigInt((a.version === 4 ? 32 : 128) - n.length);
  return a.version === n.version && a.value >> bits === n.value >> bits;
};

describe("flow model", () => {
  it("gives the same flows for a seed and others for another seed", () => {
    expect(flows(1, 50)).toEqual(flows(1, 50));
    expect(flows(2, 50)).not.toEqual(flows(1, 50));
  });

  it("keeps each flow on its router's interfaces, in one family, ended within the last seconds", () => {
    for (const f of flows(7, 2_000)) {
      const own = ROUTERS.find((r) => r.name === f.router)!.interfaces.map((i) => i.ifindex);
      expect(own).toContain(f.inIfIndex);
      expect(own).toContain(f.outIfIndex);
      expect(parseIpAddress(f.srcAddr)!.version).toBe(f.ipVersion);
      expect(parseIpAddress(f.dstAddr)!.version).toBe(f.ipVersion);
      expect(RIB.some((r) => inside(f.srcAddr, r.prefix))).toBe(true);
      expect(RIB.some((r) => inside(f.dstAddr, r.prefix))).toBe(true);
      expect(f.lastSwitchedMs).toBeLessThanOrEqual(NOW);
      expect(NOW - f.firstSwitchedMs).toBeLessThanOrEqual(60_000);
      expect(f.samplingInterval).toBe(1000);
    }
  });

  it("routes over the core: the border router reaches subscribers and the customer through the metro router", () => {
    const inbound = flows(11, 2_000).filter((f) => f.router === "border" && f.inIfIndex === 1);
    expect(inbound.length).toBeGreaterThan(100);
    expect(new Set(inbound.map((f) => f.outIfIndex))).toEqual(new Set([2]));
    expect(new Set(inbound.map((f) => f.srcAs))).toEqual(new Set([19_281]));
    const atMetro = flows(11, 2_000).filter((f) => f.router === "metro" && f.inIfIndex === 7);
    for (const f of atMetro) expect(inside(f.dstAddr, "198.19.0.0/24") ? 9 : 8).toBe(f.outIfIndex);
  });

  it("stands in documentation ranges when the routing table is empty, and says so", () => {
    const model = buildNetworkModel(ROUTERS, () => []);
    expect(model.remoteFromDocumentation).toBe(true);
    expect(model.ownFromDocumentation).toBe(true);
    const documentation = ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32"];
    for (const f of flows(3, 300, []))
      for (const address of [f.srcAddr, f.dstAddr]) expect(documentation.some((p) => inside(address, p))).toBe(true);
  });

  it("leaves out routers without interfaces", () => {
    const model = buildNetworkModel([...ROUTERS, { name: "empty", interfaces: [] }], () => RIB);
    expect(model.routers).toEqual(["border", "metro"]);
    expect(model.withoutInterfaces).toEqual(["empty"]);
  });
});
