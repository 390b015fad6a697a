import type { DemoAs } from "./catalog";
import type { Random } from "./random";

export type DemoRouter = {
  name: string;
  city: string;
  country: string;
  countryName: string;
  loopback: string;
  /**
   * The address the router exports flows from (router_exporters). Demo only: a loopback address
   * of 127.0.1.0/24 rather than the router's 192.0.2.x loopback, because the built-in flow generator
   * sends each router's NetFlow from a socket bound to this address, and on Linux every
   * 127.0.0.0/8 address is local without configuration. Any address of the machine would do.
   */
  exporter: string;
  vendor: "juniper" | "cisco";
  vantagePointKey: string;
  isPublicVantagePoint: boolean;
};

export type DemoInterface = {
  router: string;
  name: string;
  snmpIndex: number;
  description: string;
  kind: "core" | "external" | "access";
  peeringType: "Transit" | "Peering" | "Customer" | null;
  /** PNI, IX name, or null */
  connection: string | null;
  neighborAsn: number | null;
  /** For core links: "router/interface" at the other end. */
  remote: { router: string; name: string } | null;
  /** The neighbour's address on this link (BGP next hop for external links). */
  neighborIp: string | null;
  /** Set later from the traffic the interface actually carries (standard sizes), with the final name. */
  capacityBps: number;
};

export const ROUTERS: DemoRouter[] = [
  {
    name: "fra-er1",
    city: "Frankfurt",
    country: "DE",
    countryName: "Germany",
    loopback: "192.0.2.1",
    exporter: "127.0.1.1",
    vendor: "juniper",
    vantagePointKey: "fra1",
    isPublicVantagePoint: true,
  },
  {
    name: "fra-er2",
    city: "Frankfurt",
    country: "DE",
    countryName: "Germany",
    loopback: "192.0.2.2",
    exporter: "127.0.1.2",
    vendor: "cisco",
    vantagePointKey: "fra2",
    isPublicVantagePoint: true,
  },
  {
    name: "ber-er1",
    city: "Berlin",
    country: "DE",
    countryName: "Germany",
    loopback: "192.0.2.3",
    exporter: "127.0.1.3",
    vendor: "juniper",
    vantagePointKey: "ber1",
    isPublicVantagePoint: true,
  },
  {
    name: "ham-er1",
    city: "Hamburg",
    country: "DE",
    countryName: "Germany",
    loopback: "192.0.2.4",
    exporter: "127.0.1.4",
    vendor: "cisco",
    vantagePointKey: "ham1",
    isPublicVantagePoint: false,
  },
  {
    name: "muc-er1",
    city: "Munich",
    country: "DE",
    countryName: "Germany",
    loopback: "192.0.2.5",
    exporter: "127.0.1.5",
    vendor: "juniper",
    vantagePointKey: "muc1",
    isPublicVantagePoint: true,
  },
  {
    name: "ams-er1",
    city: "Amsterdam",
    country: "NL",
    countryName: "Netherlands",
    loopback: "192.0.2.6",
    exporter: "127.0.1.6",
    vendor: "cisco",
    vantagePointKey: "ams1",
    isPublicVantagePoint: true,
  },
  {
    name: "lon-er1",
    city: "London",
    country: "GB",
    countryName: "United Kingdom",
    loopback: "192.0.2.7",
    exporter: "127.0.1.7",
    vendor: "juniper",
    vantagePointKey: "lon1",
    isPublicVantagePoint: false,
  },
  {
    name: "par-er1",
    city: "Paris",
    country: "FR",
    countryName: "France",
    loopback: "192.0.2.8",
    exporter: "127.0.1.8",
    vendor: "cisco",
    vantagePointKey: "par1",
    isPublicVantagePoint: false,
  },
  {
    name: "vie-er1",
    city: "Vienna",
    country: "AT",
    countryName: "Austria",
    loopback: "192.0.2.9",
    exporter: "127.0.1.9",
    vendor: "juniper",
    vantagePointKey: "vie1",
    isPublicVantagePoint: true,
  },
];

/** Internet exchanges the operator is present at: one port each. */
export const IXES = [
  { name: "DE-CIX Frankfurt", router: "fra-er2" },
  { name: "BCIX", router: "ber-er1" },
  { name: "AMS-IX", router: "ams-er1" },
  { name: "LINX LON1", router: "lon-er1" },
  { name: "France-IX Paris", router: "par-er1" },
  { name: "VIX", router: "vie-er1" },
] as const;

/** Core links (both routers in each pair): a Frankfurt hub plus a few direct spans. */
const CORE_LINKS: [string, string][] = [
  ["fra-er1", "fra-er2"],
  ["fra-er1", "ber-er1"],
  ["fra-er1", "ham-er1"],
  ["fra-er1", "muc-er1"],
  ["fra-er1", "ams-er1"],
  ["fra-er2", "ams-er1"],
  ["fra-er2", "lon-er1"],
  ["fra-er2", "par-er1"],
  ["fra-er2", "vie-er1"],
  ["ber-er1", "ham-er1"],
  ["muc-er1", "vie-er1"],
  ["ams-er1", "lon-er1"],
  ["lon-er1", "par-er1"],
];

/** Where transit providers and private interconnects land: two sessions for the big ones. */
const TRANSIT_ROUTERS = [
  ["fra-er1", "ams-er1"],
  ["fra-er2", "lon-er1"],
  ["ber-er1", "par-er1"],
  ["muc-er1", "vie-er1"],
];
const PNI_ROUTERS = [
  ["fra-er1", "ams-er1"],
  ["fra-er2", "ber-er1"],
  ["fra-er1", "lon-er1"],
  ["fra-er2", "muc-er1"],
  ["fra-er1", "par-er1"],
  ["ams-er1"],
  ["fra-er2"],
  ["lon-er1"],
];
const CUSTOMER_ROUTERS = ["ber-er1", "ham-er1", "muc-er1", "fra-er1", "vie-er1", "fra-er2"];

export type Topology = {
  routers: DemoRouter[];
  interfaces: DemoInterface[];
  /** Interfaces of each directly connected neighbour AS. */
  attachments: Map<number, DemoInterface[]>;
  coreLink: (from: string, to: string) => { start: DemoInterface; end: DemoInterface } | null;
  accessInterface: (router: string) => DemoInterface;
};

/**
 * Until the port sizes are known (they follow from the traffic), interfaces carry a provisional
 * name unique per router; `namePorts` gives them their final vendor names.
 */
function provisionalNamer() {
  let port = 0;
  return () => `port-${port++}`;
}

/** Port speeds the demo builds links from: 10GE, 100GE, 400GE. */
export const PORT_SPEEDS_BPS = [10e9, 100e9, 400e9] as const;

/** Single-port name prefixes by vendor and speed (Juniper xe-/et-; Cisco IOS XR TenGigE/HundredGigE/FourHundredGigE). */
const PORT_PREFIX: Record<DemoRouter["vendor"], Record<number, string>> = {
  juniper: { 10e9: "xe-", 100e9: "et-", 400e9: "et-" },
  cisco: { 10e9: "TenGigE", 100e9: "HundredGigE", 400e9: "FourHundredGigE" },
};

/** A link's size: `members` ports of `speedBps` each (more than one: a link aggregation bundle). */
export type PortSize = { speedBps: number; members: number };

/**
 * Vendor names that say the port's speed, as an engineer reads them: one port of the size's
 * speed (Juniper xe- 10GE, et- 100/400GE on their own line cards; Cisco TenGigE, HundredGigE,
 * FourHundredGigE), or for several ports a bundle (Juniper aeN, Cisco Bundle-EtherN).
 */
export function namePorts(
  topology: Pick<Topology, "routers" | "interfaces">,
  sizes: Map<DemoInterface, PortSize>,
  /**
   * Ports resized after the others were sized: named after all others of their router with this
   * size, their first size still counted, so that every other port keeps the name it had.
   */
  resized: Map<DemoInterface, PortSize> = new Map(),
): Map<string, string> {
  const renamed = new Map<string, string>();
  for (const router of topology.routers) {
    const counters = new Map<string, number>();
    const next = (kind: string) => {
      const n = counters.get(kind) ?? 0;
      counters.set(kind, n + 1);
      return n;
    };
    const nameOf = (size: PortSize) => {
      if (size.members > 1) {
        const n = next("bundle");
        return router.vendor === "juniper" ? `ae${n}` : `Bundle-Ether${n + 1}`;
      }
      const slot = PORT_SPEEDS_BPS.indexOf(size.speedBps as (typeof PORT_SPEEDS_BPS)[number]);
      const n = next(String(size.speedBps));
      const prefix = PORT_PREFIX[router.vendor][size.speedBps];
      return router.vendor === "juniper"
        ? `${prefix}${slot * 2 + Math.floor(n / 8)}/0/${n % 8}`
        : `${prefix}0/${slot * 2 + Math.floor(n / 8)}/0/${n % 8}`;
    };
    const own = topology.interfaces.filter((i) => i.router === router.name);
    for (const iface of own) renamed.set(`${iface.router}/${iface.name}`, nameOf(sizes.get(iface)!));
    for (const iface of own) {
      const size = resized.get(iface);
      if (size) renamed.set(`${iface.router}/${iface.name}`, nameOf(size));
    }
  }
  for (const iface of topology.interfaces) {
    if (iface.remote) iface.remote = { router: iface.remote.router, name: renamed.get(`${iface.remote.router}/${iface.remote.name}`)! };
  }
  for (const iface of topology.interfaces) iface.name = renamed.get(`${iface.router}/${iface.name}`)!;
  return renamed;
}

export function buildTopology(ases: DemoAs[], random: Random): Topology {
  const routersByName = new Map(ROUTERS.map((r) => [r.name, r]));
  const namers = new Map(ROUTERS.map((r) => [r.name, provisionalNamer()]));
  const snmpCounters = new Map(ROUTERS.map((r) => [r.name, 500]));
  const interfaces: DemoInterface[] = [];
  let linkNet = 0;

  const add = (router: string, fields: Omit<DemoInterface, "router" | "name" | "snmpIndex" | "capacityBps">) => {
    const snmpIndex = (snmpCounters.get(router) ?? 500) + 1;
    snmpCounters.set(router, snmpIndex);
    const iface: DemoInterface = { router, name: namers.get(router)!(), snmpIndex, capacityBps: 0, ...fields };
    interfaces.push(iface);
    return iface;
  };
  const nextNeighborIp = () => {
    linkNet++;
    return `198.51.100.${(linkNet * 2) % 254 || 2}`;
  };

  const coreLinks = new Map<string, { start: DemoInterface; end: DemoInterface }>();
  for (const [a, b] of CORE_LINKS) {
    const ia = add(a, {
      description: `CORE: ${a} <-> ${b}`,
      kind: "core",
      peeringType: null,
      connection: null,
      neighborAsn: null,
      remote: null,
      neighborIp: null,
    });
    const ib = add(b, {
      description: `CORE: ${b} <-> ${a}`,
      kind: "core",
      peeringType: null,
      connection: null,
      neighborAsn: null,
      remote: null,
      neighborIp: null,
    });
    ia.remote = { router: b, name: ib.name };
    ib.remote = { router: a, name: ia.name };
    coreLinks.set(`${a}>${b}`, { start: ia, end: ib });
    coreLinks.set(`${b}>${a}`, { start: ib, end: ia });
  }

  const attachments = new Map<number, DemoInterface[]>();
  const attach = (asn: number, iface: DemoInterface) => attachments.set(asn, [...(attachments.get(asn) ?? []), iface]);

  const byWeight = [...ases].sort((x, y) => y.weight - x.weight);
  byWeight
    .filter((a) => a.connection === "transit")
    .forEach((a, i) => {
      for (const router of TRANSIT_ROUTERS[i % TRANSIT_ROUTERS.length]) {
        attach(
          a.asn,
          add(router, {
            description: `TRANSIT: ${a.name} AS${a.asn}`,
            kind: "external",
            peeringType: "Transit",
            connection: "Transit",
            neighborAsn: a.asn,
            remote: null,
            neighborIp: nextNeighborIp(),
          }),
        );
      }
    });
  byWeight
    .filter((a) => a.connection === "pni")
    .forEach((a, i) => {
      for (const router of PNI_ROUTERS[i % PNI_ROUTERS.length]) {
        attach(
          a.asn,
          add(router, {
            description: `PNI: ${a.name} AS${a.asn}`,
            kind: "external",
            peeringType: "Peering",
            connection: "PNI",
            neighborAsn: a.asn,
            remote: null,
            neighborIp: nextNeighborIp(),
          }),
        );
      }
    });
  // One port per exchange; every IX peer is reachable over it (the interface has no single neighbour).
  const ixPorts = IXES.map((ix) =>
    add(ix.router, {
      description: `IX: ${ix.name} peering LAN`,
      kind: "external",
      peeringType: "Peering",
      connection: ix.name,
      neighborAsn: null,
      remote: null,
      neighborIp: null,
    }),
  );
  byWeight
    .filter((a) => a.connection === "ix")
    .forEach((a) => {
      // Peers meet the operator at one or two exchanges, chosen by their country first.
      const local = ixPorts.filter((_, i) => routersByName.get(IXES[i].router)!.country === a.country);
      const home = random.pick(local.length ? local : ixPorts);
      attach(a.asn, home);
    });
  byWeight
    .filter((a) => a.connection === "customer")
    .forEach((a, i) => {
      const router = CUSTOMER_ROUTERS[i % CUSTOMER_ROUTERS.length];
      attach(
        a.asn,
        add(router, {
          description: `CUST: ${a.name} AS${a.asn}`,
          kind: "external",
          peeringType: "Customer",
          connection: "Customer",
          neighborAsn: a.asn,
          remote: null,
          neighborIp: nextNeighborIp(),
        }),
      );
    });

  const access = new Map<string, DemoInterface>();
  for (const router of ROUTERS) {
    access.set(
      router.name,
      add(router.name, {
        description: `ACCESS: ${router.city} broadband aggregation`,
        kind: "access",
        peeringType: null,
        connection: null,
        neighborAsn: null,
        remote: null,
        neighborIp: null,
      }),
    );
  }

  return {
    routers: ROUTERS,
    interfaces,
    attachments,
    coreLink: (from, to) => {
      if (from === to) return null;
      // Direct span if there is one, otherwise the first hop towards the Frankfurt hub.
      return coreLinks.get(`${from}>${to}`) ?? coreLinks.get(`${from}>fra-er1`) ?? coreLinks.get(`${from}>fra-er2`) ?? null;
    },
    accessInterface: (router) => access.get(router)!,
  };
}
