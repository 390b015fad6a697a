// The flows-generator component against test stores: a UDP socket of the test is the collector. What arrives decodes
// (with the collector's decoder) to flows of the inventory's routers — each from its exporter address, with its
// ifIndexes and addresses from the routes its vantage point holds — and the variables are checked at start.
import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState, type DecodedFlow, type DecodeResult } from "~/features/collector/decode";
import { createFlowsGenerator, generatorSettings, MAX_RATE } from "~/features/collector/export/generator.server";
import { createRouter, createVantagePoint, listRouters } from "~/features/inventory/inventory.server";
import { parseIpAddress, parseNetwork } from "~/lib/ip";
import { chInsert } from "~/server/clickhouse/query.server";
import { componentEnv } from "~/server/components/contract.server";
import { startComponents } from "~/server/components/supervisor.server";
import { ConfigError } from "~/server/env.server";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;

const EDGE1 = {
  name: "edge1",
  city: "Frankfurt",
  country: "Germany",
  loopback: "198.51.100.1",
  exporters: ["127.0.1.201"],
  interfaces: [
    { name: "et-0/0/1", ifindex: 11, capacity: "100G", kind: "external", peering: "Transit", connection: "Transit", neighbour_as: 3356 },
    { name: "et-0/0/2", ifindex: 12, capacity: "10G", kind: "external", peering: "Customer", connection: "PNI", neighbour_as: 64510 },
    { name: "et-0/0/3", ifindex: 13, capacity: "100G", kind: "access" },
    { name: "et-0/0/4", ifindex: 14, capacity: "100G", kind: "core" },
  ],
};
const EDGE2 = {
  name: "edge2",
  city: "Berlin",
  country: "Germany",
  loopback: "198.51.100.2",
  exporters: ["2001:db8::2", "127.0.1.202"],
  interfaces: [
    { name: "xe-0/0/1", ifindex: 21, capacity: "10G", kind: "external", peering: "Peering", connection: "BCIX" },
    { name: "xe-0/0/2", ifindex: 22, capacity: "10G", kind: "core" },
  ],
};
/** Exports from an address this machine does not have: its flows come from the default address. */
const FOREIGN = {
  name: "foreign",
  city: "Paris",
  country: "France",
  loopback: "198.51.100.3",
  exporters: ["203.0.113.250"],
  interfaces: [{ name: "Te0/0/0", ifindex: 31, capacity: "10G", kind: "access" }],
};
const BARE = { name: "bare", city: "Vienna", country: "Austria", loopback: "198.51.100.4", exporters: ["127.0.1.204"] };

/** edge1's vantage point; the others see the whole table. */
const ROUTES = [
  { prefix: "203.0.113.0/24", as_path: [] },
  { prefix: "2001:db8:100::/40", as_path: [] },
  { prefix: "198.18.0.0/16", as_path: [3356, 15169] },
  { prefix: "2001:db8:3356::/48", as_path: [3356] },
  { prefix: "198.19.64.0/20", as_path: [64510] },
  { prefix: "2001:db8:6451::/48", as_path: [64510] },
];
/** Announced, then withdrawn: never an address of a flow. */
const WITHDRAWN = "198.51.100.0/24";

function ribRow(prefix: string, asPath: number[], timestamp: number, withdrawn = false) {
  const network = parseNetwork(prefix)!;
  return {
    timestamp,
    vantage_point: "e1",
    router_ip: "198.51.100.1",
    peer_ip: asPath.length ? "192.0.2.77" : "",
    peer_asn: asPath[0] ?? 0,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: network.length,
    afi: network.version === 4 ? 1 : 2,
    safi: 1,
    is_withdrawn: withdrawn ? 1 : 0,
    as_path: withdrawn ? [] : asPath,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: withdrawn ? "" : asPath.length ? (network.version === 4 ? "192.0.2.77" : "2001:db8:ffff::77") : "",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
  };
}

beforeAll(async () => {
  stores = await openTestStores();
  for (const router of [EDGE1, EDGE2, FOREIGN, BARE]) await createRouter(stores, router);
  await createVantagePoint(stores, { key: "e1", router: "edge1", city: "Frankfurt", country: "Germany", ip: "198.51.100.1" });
  const now = Math.floor(Date.now() / 1000);
  await chInsert(stores.ch, {
    name: "test.rib",
    table: "rib_entries",
    values: [
      ...ROUTES.map((r) => ribRow(r.prefix, r.as_path, now - 3600)),
      ribRow(WITHDRAWN, [3356], now - 3600),
      ribRow(WITHDRAWN, [3356], now - 60, true),
    ],
  });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

type Received = { from: RemoteInfo; result: DecodeResult };

/** A collector of the test: every datagram decoded as it arrives, by the address it came from. */
async function listen(): Promise<{ socket: Socket; port: number; received: Received[]; close: () => Promise<void> }> {
  const socket = createSocket("udp4");
  const state = new TemplateState();
  const received: Received[] = [];
  socket.on("message", (payload, from) => received.push({ from, result: decodeDatagram(state, from.address, payload, Date.now()) }));
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  return {
    socket,
    port: socket.address().port,
    received,
    close: async () => {
      socket.close();
      await once(socket, "close");
    },
  };
}

const inside = (address: string | null, prefix: string) => {
  const a = parseIpAddress(address ?? "");
  const n = parseNetwork(prefix)!;
  if (!a || a.version !== n.version) return false;
  const bits = BigInt((a.version === 4 ? 32 : 128) - n.length);
  return a.value >> bits === n.value >> bits;
};

describe("flows-generator", () => {
  it("sends each router's flows from its exporter address, with its ifIndexes and addresses of its routing table", async () => {
    const collector = await listen();
    const generator = createFlowsGenerator({ seed: 20_261_126 });
    const running = await startComponents([generator], stores, {
      FLOWS_GENERATOR_TARGET: `127.0.0.1:${collector.port}`,
      FLOWS_GENERATOR_RATE: "2000",
    });
    try {
      const routers = await listRouters(stores);
      const idOf = new Map(routers.map((r) => [r.name, r.id]));
      const flowsOf = (exporter: string, sourceId: number) =>
        collector.received.flatMap((r) => r.result.flows).filter((f) => f.exporter === exporter && f.sourceId === sourceId);
      await expect
        .poll(
          () => [
            flowsOf("127.0.1.201", idOf.get("edge1")!).length >= 200,
            flowsOf("127.0.1.202", idOf.get("edge2")!).length >= 20,
            flowsOf("127.0.0.1", idOf.get("foreign")!).length >= 5,
          ],
          { timeout: 20_000, interval: 100 },
        )
        .toEqual([true, true, true]);
      expect(running.health()["flows-generator"]).toEqual({
        ok: true,
        detail: `sending 2000 flows/s of 3 routers to 127.0.0.1:${collector.port}`,
      });

      const results = collector.received.map((r) => r.result);
      expect(results.flatMap((r) => r.problems)).toEqual([]);
      expect(results.every((r) => r.protocol === "netflow9")).toBe(true);
      // The collector listened before the generator started: the first packets carried the templates.
      expect(results.reduce((sum, r) => sum + r.templateMisses, 0)).toBe(0);
      const all = results.flatMap((r) => r.flows);
      // Only the inventory's routers, each from one source; the router without interfaces sends nothing.
      expect(new Set(all.map((f) => `${f.exporter}/${f.sourceId}`))).toEqual(
        new Set([`127.0.1.201/${idOf.get("edge1")}`, `127.0.1.202/${idOf.get("edge2")}`, `127.0.0.1/${idOf.get("foreign")}`]),
      );

      const checkRouter = (flows: DecodedFlow[], ifindexes: number[]) => {
        for (const f of flows) {
          expect(ifindexes).toContain(f.inIfIndex);
          expect(ifindexes).toContain(f.outIfIndex);
          expect(f.samplingRate).toBe(1000);
          expect(f.bytes).toBeGreaterThan(0);
          expect(f.packets).toBeGreaterThan(0);
          expect(f.ipVersion === 4 || f.ipVersion === 6).toBe(true);
          // Ended by the time it was exported, started within the minute before.
          expect(f.flowEndMs!).toBeLessThanOrEqual(f.exportTimeMs! + 1_000);
          expect(f.flowEndMs! - f.flowStartMs!).toBeGreaterThanOrEqual(0);
          expect(f.flowEndMs! - f.flowStartMs!).toBeLessThanOrEqual(60_000);
          expect([6, 17]).toContain(f.ipProtocol);
          expect(f.srcAddr).not.toSatisfy((a: string) => inside(a, WITHDRAWN));
          expect(f.dstAddr).not.toSatisfy((a: string) => inside(a, WITHDRAWN));
        }
      };
      const edge1 = flowsOf("127.0.1.201", idOf.get("edge1")!);
      checkRouter(edge1, [11, 12, 13, 14]);
      checkRouter(flowsOf("127.0.1.202", idOf.get("edge2")!), [21, 22]);
      checkRouter(flowsOf("127.0.0.1", idOf.get("foreign")!), [31]);

      // edge1 sees its vantage point's table: every address is in one of its prefixes, of the flow's family.
      for (const f of edge1) {
        expect(
          ROUTES.some((r) => inside(f.srcAddr, r.prefix)),
          `${f.srcAddr}`,
        ).toBe(true);
        expect(
          ROUTES.some((r) => inside(f.dstAddr, r.prefix)),
          `${f.dstAddr}`,
        ).toBe(true);
      }
      // Entering from the transit: from what AS 3356 announces, to the operator's or the customer's space.
      const fromTransit = edge1.filter((f) => f.inIfIndex === 11);
      expect(fromTransit.length).toBeGreaterThan(0);
      for (const f of fromTransit) {
        expect(["198.18.0.0/16", "2001:db8:3356::/48"].some((p) => inside(f.srcAddr, p))).toBe(true);
        expect([15169, 3356]).toContain(f.srcAs);
        expect(["203.0.113.0/24", "2001:db8:100::/40", "198.19.64.0/20", "2001:db8:6451::/48"].some((p) => inside(f.dstAddr, p))).toBe(
          true,
        );
        expect([13, 12, 14]).toContain(f.outIfIndex);
      }
      // The customer's space is reached over the customer's port, the operator's over the access port.
      for (const f of edge1.filter((x) => x.inIfIndex === 11)) {
        if (inside(f.dstAddr, "198.19.64.0/20") || inside(f.dstAddr, "2001:db8:6451::/48")) expect(f.outIfIndex).toBe(12);
        else expect(f.outIfIndex).toBe(13);
      }
      // Outbound towards the transit carries the route's BGP next hop.
      const toTransit = edge1.filter((f) => f.outIfIndex === 11);
      expect(toTransit.length).toBeGreaterThan(0);
      for (const f of toTransit) expect(f.bgpNextHop).toBe(f.ipVersion === 4 ? "192.0.2.77" : "2001:db8:ffff::77");
      expect(new Set(edge1.map((f) => f.ipVersion))).toEqual(new Set([4, 6]));
    } finally {
      await running.stop();
      await collector.close();
    }
    expect(generator.health()).toEqual({ ok: false, detail: "not running" });
  }, 60_000);

  it("is off without FLOWS_GENERATOR_TARGET", async () => {
    const generator = createFlowsGenerator();
    expect(generator.configure(componentEnv("flows-generator", {}))).toBeNull();
    expect(generator.configure(componentEnv("flows-generator", { FLOWS_GENERATOR_TARGET: " " }))).toBeNull();
    const running = await startComponents([generator], stores, { FLOWS_GENERATOR_TARGET: "" });
    expect(running.names).toEqual([]);
    await running.stop();
  });

  it("takes the rate as given, 200 flows per second by default", () => {
    const settings = (env: Record<string, string>) => generatorSettings(componentEnv("flows-generator", env));
    expect(settings({ FLOWS_GENERATOR_TARGET: "127.0.0.1:2055" })).toEqual({
      target: { host: "127.0.0.1", port: 2055, family: 4 },
      rate: 200,
    });
    expect(settings({ FLOWS_GENERATOR_TARGET: "[::1]:9995", FLOWS_GENERATOR_RATE: String(MAX_RATE) })).toEqual({
      target: { host: "::1", port: 9995, family: 6 },
      rate: MAX_RATE,
    });
    expect(settings({ FLOWS_GENERATOR_TARGET: "collector.example.net:2055", FLOWS_GENERATOR_RATE: " 1 " })?.rate).toBe(1);
  });

  it("refuses bad values with a ConfigError naming the variable", async () => {
    const refusal = (env: Record<string, string>) => {
      try {
        generatorSettings(componentEnv("flows-generator", env));
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    const target = "127.0.0.1:2055";
    expect(refusal({ FLOWS_GENERATOR_TARGET: "2055" })).toBe(
      'Invalid configuration:\n  FLOWS_GENERATOR_TARGET: expected host:port or [IPv6]:port of a flow collector, port 1-65535 (got "2055")',
    );
    for (const bad of [":2055", "127.0.0.1:0", "127.0.0.1:70000", "[zz]:2055", "::1:2055", "host name:2055"])
      expect(refusal({ FLOWS_GENERATOR_TARGET: bad })).toMatch(/^Invalid configuration:\n {2}FLOWS_GENERATOR_TARGET: expected host:port/);
    for (const bad of ["0", "-5", "abc", "1.5", "1e3", String(MAX_RATE + 1)])
      expect(refusal({ FLOWS_GENERATOR_TARGET: target, FLOWS_GENERATOR_RATE: bad })).toBe(
        `Invalid configuration:\n  FLOWS_GENERATOR_RATE: expected a whole number of flows per second from 1 to ${MAX_RATE} (got "${bad}")`,
      );
    expect(refusal({ FLOWS_GENERATOR_RATE: "100" })).toBe(
      "Invalid configuration:\n  FLOWS_GENERATOR_RATE: is set, but FLOWS_GENERATOR_TARGET is not",
    );
    // At start, the same refusal stops everything before anything runs.
    await expect(startComponents([createFlowsGenerator()], stores, { FLOWS_GENERATOR_TARGET: "nowhere" })).rejects.toThrow(ConfigError);
  });
});
