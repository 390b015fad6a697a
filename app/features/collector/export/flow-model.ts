/**
 * Plausible sampled flows for a network, from its inventory and routing table: what the flow
 * generator sends so the collector's whole path (decode, enrich, store, screens) can be watched on
 * any installation. Traffic enters on external interfaces from addresses the neighbour on that
 * port announces (or any routed prefix when the port is at an exchange or the neighbour announces
 * nothing), goes to the operator's own space over access interfaces or to customers over their
 * ports, and leaves through a core interface when that port or the subscribers are on another
 * router; outbound traffic goes the other way. Ports are those of common services, sizes give
 * visible rates at the sampling rate, and every flow ended within the last few seconds.
 *
 * Pure: the caller hands in the random source and the time, so a seed gives the same flows.
 */
import { formatIpAddress, parseNetwork, type IpVersion } from "~/lib/ip";
import type { ExportFlow } from "./netflow9-writer";

export type Random = {
  /** In [0, 1). */
  next(): number;
};

/** mulberry32: small and fast; the generator's flows repeat for a seed, which tests rely on. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

export type ModelInterface = {
  ifindex: number;
  kind: "core" | "external" | "access";
  peering: "Transit" | "Peering" | "Customer" | null;
  neighbourAs: number | null;
  /** Bits per second: ports are picked in proportion to it. */
  capacity: number;
  /** For core links: the router at the other end. */
  remoteRouter: string | null;
};

export type ModelRouter = { name: string; interfaces: ModelInterface[] };

/** One current route: the prefix and what BGP says about it (an empty AS path: originated by the operator). */
export type RibRoute = { prefix: string; asPath: number[]; nextHop: string | null };

type Prefix = { version: IpVersion; base: bigint; length: number; asPath: number[]; nextHop: string | null };

type RouterPlan = {
  name: string;
  weight: number;
  interfaces: ModelInterface[];
  external: ModelInterface[];
  access: ModelInterface[];
  core: ModelInterface[];
  own: Prefix[];
  customer: Prefix[];
  remote: Prefix[];
  byFirstAs: Map<number, Prefix[]>;
};

export type NetworkModel = {
  routers: string[];
  /** Routers left out because the inventory gives them no interface to put in a flow. */
  withoutInterfaces: string[];
  /** The routing table named none of the operator's own prefixes: documentation ranges stand in. */
  ownFromDocumentation: boolean;
  /** The routing table was empty: documentation ranges stand in for the internet. */
  remoteFromDocumentation: boolean;
  pickRouter(random: Random): string;
  flow(router: string, random: Random, nowMs: number): ExportFlow;
};

export const SAMPLING_INTERVAL = 1000;
/** Share of the flows entering from outside; the rest are the subscribers' requests and uploads. */
const INBOUND_SHARE = 0.7;
const IPV6_SHARE = 0.3;
const CUSTOMER_SHARE = 0.3;

// RFC 5737 and RFC 3849 space: never routed, so stand-ins cannot be mistaken for someone's traffic.
const DOCUMENTATION_OWN = ["192.0.2.0/24", "2001:db8::/33"];
const DOCUMENTATION_REMOTE = ["198.51.100.0/24", "203.0.113.0/24", "2001:db8:8000::/33"];

type Service = { protocol: 6 | 17; port: number; weight: number; packetBytes: [number, number] };
/** What subscribers mostly fetch: HTTPS over TCP and QUIC first, then the long tail. */
const SERVICES: Service[] = [
  { protocol: 6, port: 443, weight: 50, packetBytes: [1200, 1500] },
  { protocol: 17, port: 443, weight: 18, packetBytes: [1200, 1350] },
  { protocol: 6, port: 80, weight: 12, packetBytes: [1000, 1500] },
  { protocol: 6, port: 8080, weight: 2, packetBytes: [600, 1500] },
  { protocol: 6, port: 993, weight: 2, packetBytes: [200, 1500] },
  { protocol: 17, port: 4500, weight: 2, packetBytes: [400, 1400] },
  { protocol: 6, port: 1935, weight: 2, packetBytes: [1300, 1500] },
  { protocol: 17, port: 53, weight: 3, packetBytes: [80, 512] },
  { protocol: 6, port: 25, weight: 1, packetBytes: [400, 1500] },
  { protocol: 6, port: 22, weight: 1, packetBytes: [90, 1400] },
  { protocol: 17, port: 123, weight: 1, packetBytes: [76, 76] },
];

const int = (random: Random, min: number, max: number) => min + Math.floor(random.next() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random.next() * items.length)];

function pickWeighted<T>(random: Random, items: readonly T[], weight: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + Math.max(0, weight(item)), 0);
  if (!(total > 0)) return pick(random, items);
  let left = random.next() * total;
  for (const item of items) {
    left -= Math.max(0, weight(item));
    if (left < 0) return item;
  }
  return items[items.length - 1];
}

function toPrefix(route: RibRoute): Prefix | null {
  const network = parseNetwork(route.prefix);
  if (!network) return null;
  return { version: network.version, base: network.value, length: network.length, asPath: route.asPath, nextHop: route.nextHop };
}

function documentation(prefixes: string[]): Prefix[] {
  return prefixes.map((prefix) => toPrefix({ prefix, asPath: [], nextHop: null })!);
}

/** A host of the prefix: not its network address when it has others. */
function hostIn(random: Random, prefix: Prefix): string {
  const bits = prefix.version === 4 ? 32 : 128;
  const hostBits = BigInt(bits - prefix.length);
  if (hostBits === 0n) return formatIpAddress({ version: prefix.version, value: prefix.base });
  const draw = (BigInt(int(random, 0, 0xffffffff)) << 32n) | BigInt(int(random, 0, 0xffffffff));
  const mask = (1n << hostBits) - 1n;
  let offset = draw & mask;
  if (offset === 0n) offset = 1n;
  return formatIpAddress({ version: prefix.version, value: prefix.base + offset });
}

const originOf = (prefix: Prefix, fallback: number | null) => prefix.asPath[prefix.asPath.length - 1] ?? fallback ?? 0;

/**
 * `routes(router)` is the routing table the router sees: its vantage point's, or the whole table
 * when it has none. Routes are bounded by the caller; duplicates do no harm.
 */
export function buildNetworkModel(routers: ModelRouter[], routes: (router: string) => RibRoute[]): NetworkModel {
  const customerAsns = new Set(
    routers
      .flatMap((r) => r.interfaces.filter((i) => i.kind === "external" && i.peering === "Customer" && i.neighbourAs !== null))
      .map((i) => i.neighbourAs!),
  );
  /** Routers with a port to each customer, and routers with subscribers: where core links lead. */
  const customerRouters = new Map<number, Set<string>>();
  const accessRouters = new Set<string>();
  for (const router of routers) {
    for (const i of router.interfaces) {
      if (i.kind === "access") accessRouters.add(router.name);
      if (i.kind === "external" && i.neighbourAs !== null && customerAsns.has(i.neighbourAs)) {
        if (!customerRouters.has(i.neighbourAs)) customerRouters.set(i.neighbourAs, new Set());
        customerRouters.get(i.neighbourAs)!.add(router.name);
      }
    }
  }

  let ownFromDocumentation = false;
  let remoteFromDocumentation = false;
  const plans = new Map<string, RouterPlan>();
  const withoutInterfaces: string[] = [];
  for (const router of routers) {
    if (!router.interfaces.length) {
      withoutInterfaces.push(router.name);
      continue;
    }
    const prefixes = routes(router.name).flatMap((r) => toPrefix(r) ?? []);
    let own = prefixes.filter((p) => p.asPath.length === 0);
    let remote = prefixes.filter((p) => p.asPath.length > 0);
    if (!own.length) {
      own = documentation(DOCUMENTATION_OWN);
      ownFromDocumentation = true;
    }
    if (!remote.length) {
      remote = documentation(DOCUMENTATION_REMOTE);
      remoteFromDocumentation = true;
    }
    // Every family the internet side has needs a destination on the operator's side.
    for (const version of [4, 6] as const) {
      if (remote.some((p) => p.version === version) && !own.some((p) => p.version === version)) {
        own = [...own, ...documentation(DOCUMENTATION_OWN).filter((p) => p.version === version)];
        ownFromDocumentation = true;
      }
    }
    const byFirstAs = new Map<number, Prefix[]>();
    for (const p of remote) {
      const first = p.asPath[0];
      if (!byFirstAs.has(first)) byFirstAs.set(first, []);
      byFirstAs.get(first)!.push(p);
    }
    const external = router.interfaces.filter((i) => i.kind === "external");
    const access = router.interfaces.filter((i) => i.kind === "access");
    plans.set(router.name, {
      name: router.name,
      // Routers carry traffic in proportion to their ports towards the outside and the subscribers.
      weight: [...external, ...access].reduce((sum, i) => sum + Math.max(0, i.capacity), 0) || router.interfaces.length,
      interfaces: router.interfaces,
      external,
      access,
      core: router.interfaces.filter((i) => i.kind === "core"),
      own,
      customer: remote.filter((p) => customerAsns.has(p.asPath[0])),
      remote,
      byFirstAs,
    });
  }
  const planList = [...plans.values()];

  /** A core interface towards one of `targets`, else any core interface, else null. */
  const coreTowards = (plan: RouterPlan, random: Random, targets: Set<string> | undefined) => {
    const towards = plan.core.filter((i) => i.remoteRouter !== null && targets?.has(i.remoteRouter));
    if (towards.length) return pick(random, towards);
    return plan.core.length ? pick(random, plan.core) : null;
  };

  /** The operator's side of a flow: its own space behind an access port, or a customer's behind theirs. */
  const inside = (plan: RouterPlan, random: Random, version: IpVersion) => {
    const customers = plan.customer.filter((p) => p.version === version);
    const own = plan.own.filter((p) => p.version === version);
    if (customers.length && (random.next() < CUSTOMER_SHARE || !own.length)) {
      const prefix = pick(random, customers);
      const customer = prefix.asPath[0];
      const ports = plan.external.filter((i) => i.neighbourAs === customer);
      const port = ports.length ? pick(random, ports) : coreTowards(plan, random, customerRouters.get(customer));
      return { prefix, ifindex: (port ?? pick(random, plan.interfaces)).ifindex, as: originOf(prefix, customer) };
    }
    const prefix = pick(random, own);
    const port = plan.access.length ? pick(random, plan.access) : coreTowards(plan, random, accessRouters);
    // Routers report AS 0 for the operator's own prefixes.
    return { prefix, ifindex: (port ?? pick(random, plan.interfaces)).ifindex, as: 0 };
  };

  /** The internet's side: a prefix the neighbour on the port announces, or any routed one. */
  const outside = (plan: RouterPlan, random: Random, version: IpVersion) => {
    const port = plan.external.length
      ? pickWeighted(random, plan.external, (i) => i.capacity)
      : (coreTowards(plan, random, undefined) ?? pick(random, plan.interfaces));
    const announced = (port.neighbourAs !== null ? plan.byFirstAs.get(port.neighbourAs) : undefined)?.filter((p) => p.version === version);
    const prefix = pick(random, announced?.length ? announced : plan.remote.filter((p) => p.version === version));
    return { prefix, ifindex: port.ifindex, as: originOf(prefix, port.neighbourAs), nextHop: prefix.nextHop };
  };

  // The plan gives the operator's side every family the internet side has.
  const hasVersion = (plan: RouterPlan, version: IpVersion) => plan.remote.some((p) => p.version === version);

  return {
    routers: planList.map((p) => p.name),
    withoutInterfaces,
    ownFromDocumentation,
    remoteFromDocumentation,
    pickRouter: (random) => pickWeighted(random, planList, (p) => p.weight).name,
    flow(router, random, nowMs) {
      const plan = plans.get(router);
      if (!plan) throw new Error(`router ${router} is not in the model`);
      const wantV6 = random.next() < IPV6_SHARE;
      const version: IpVersion = (wantV6 && hasVersion(plan, 6)) || !hasVersion(plan, 4) ? 6 : 4;
      const inbound = random.next() < INBOUND_SHARE;
      const ours = inside(plan, random, version);
      const theirs = outside(plan, random, version);
      const service = pickWeighted(random, SERVICES, (s) => s.weight);
      const ephemeral = int(random, 32_768, 60_999);
      // Sampled at 1:1000, most flows are one packet; a few long ones show several.
      const packets = random.next() < 0.65 ? 1 : int(random, 2, 6);
      const [small, large] = service.packetBytes;
      // Requests and acknowledgements are small; a fifth of the outbound flows are uploads.
      const packetBytes = inbound || random.next() < 0.2 ? int(random, small, large) : int(random, 52, Math.min(600, large));
      const lastSwitchedMs = nowMs - int(random, 0, 3_000);
      const firstSwitchedMs = packets === 1 ? lastSwitchedMs : lastSwitchedMs - int(random, 1_000, 55_000);
      const flags = service.protocol !== 6 ? 0 : pickWeighted(random, TCP_FLAGS, (f) => f.weight).flags;
      const from = inbound ? theirs : ours;
      const to = inbound ? ours : theirs;
      return {
        ipVersion: version,
        srcAddr: hostIn(random, from.prefix),
        dstAddr: hostIn(random, to.prefix),
        srcPrefixLen: from.prefix.length,
        dstPrefixLen: to.prefix.length,
        srcPort: inbound ? service.port : ephemeral,
        dstPort: inbound ? ephemeral : service.port,
        protocol: service.protocol,
        tcpFlags: flags,
        bytes: packets * packetBytes,
        packets,
        inIfIndex: from.ifindex,
        outIfIndex: to.ifindex,
        srcAs: from.as,
        dstAs: to.as,
        bgpNextHop: inbound ? null : theirs.nextHop,
        firstSwitchedMs,
        lastSwitchedMs,
        direction: 0,
        samplingInterval: SAMPLING_INTERVAL,
      };
    },
  };
}

/** Cumulative TCP flags of a sampled flow: mostly ACK and PSH, now and then a handshake or a close. */
const TCP_FLAGS = [
  { flags: 0x10, weight: 60 },
  { flags: 0x18, weight: 30 },
  { flags: 0x12, weight: 4 },
  { flags: 0x19, weight: 4 },
  { flags: 0x14, weight: 2 },
];
