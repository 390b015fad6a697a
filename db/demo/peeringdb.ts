/**
 * The demo's PeeringDB data, in PeeringDB's own JSON (one dump with every object type under its key,
 * as `npm run peeringdb:import` reads it), imported by load.ts so the AS Relations screen shows
 * declared facts on a fresh install. It names only the demo's own ASes (catalog.ts), exchanges
 * (topology.ts IXES) and router cities. The declared values — policy, ratio, traffic level, the NOC
 * address — are made up for the demo from each AS's category, not copied from the real PeeringDB.
 * Customers have no record, as small networks often have none. The heaviest content, CDN and hosting
 * networks we reach only through transit ("remote") are listed too, each at one of our exchanges and in
 * that exchange's city: they are the AS Relations screen's peering candidates.
 */
import type { AsCategory, DemoAs } from "./catalog";
import { IXES, ROUTERS, type Topology } from "./topology";

const ok = { status: "ok", created: "2020-01-01T00:00:00Z", updated: "2026-01-01T00:00:00Z" };

/** What a network of each category typically declares: general policy, traffic ratio, network type. */
const DECLARED: Record<AsCategory, { policy: string; ratio: string; type: string; traffic: string }> = {
  transit: { policy: "Restrictive", ratio: "Balanced", type: "NSP", traffic: "100+Tbps" },
  content: { policy: "Open", ratio: "Heavy Outbound", type: "Content", traffic: "10-20Tbps" },
  cdn: { policy: "Open", ratio: "Heavy Outbound", type: "Content", traffic: "20-50Tbps" },
  eyeball: { policy: "Selective", ratio: "Mostly Inbound", type: "Cable/DSL/ISP", traffic: "5-10Tbps" },
  hosting: { policy: "Open", ratio: "Mostly Outbound", type: "Content", traffic: "1-5Tbps" },
  enterprise: { policy: "Selective", ratio: "Balanced", type: "Enterprise", traffic: "100-1000Gbps" },
  education: { policy: "Open", ratio: "Mostly Inbound", type: "Educational/Research", traffic: "100-1000Gbps" },
  customer: { policy: "Selective", ratio: "", type: "Cable/DSL/ISP", traffic: "" },
};

/** How many remote networks get a record (the heaviest of the categories that peer openly). */
export const DEMO_REMOTE_LISTED = 12;
const REMOTE_LISTED_CATEGORIES = new Set<AsCategory>(["content", "cdn", "hosting"]);

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * The dump: a network per directly connected AS (transit, private and IX peers; not the customers),
 * with its exchange ports and the cities it meets us in, and the operator at every exchange.
 */
export function demoPeeringDbDump(ases: readonly DemoAs[], attachments: Topology["attachments"], operator: { asn: number; name: string }) {
  const neighbours = new Set(attachments.keys());
  const remote = ases
    .filter((a) => !neighbours.has(a.asn) && a.connection === "remote" && REMOTE_LISTED_CATEGORIES.has(a.category))
    .sort((a, b) => b.weight - a.weight || a.asn - b.asn)
    .slice(0, DEMO_REMOTE_LISTED);
  const listed = [...ases.filter((a) => neighbours.has(a.asn) && a.category !== "customer"), ...remote];
  const ixId = new Map(IXES.map((ix, n) => [ix.name as string, 2000 + n]));
  const routerCity = new Map(ROUTERS.map((r) => [r.name, r.city]));
  const cityCountry = new Map(ROUTERS.map((r) => [r.city, r.country]));
  const cities = [...new Set(ROUTERS.map((r) => r.city))];
  const facId = new Map(cities.map((c, n) => [c, 6000 + n]));
  const networks = [{ asn: operator.asn, name: operator.name, category: "eyeball" as AsCategory }, ...listed];
  const net = networks.map((a, n) => {
    const d = DECLARED[a.category];
    return {
      id: 1000 + n,
      org_id: 100 + n,
      name: a.name,
      aka: "",
      asn: a.asn,
      website: "",
      irr_as_set: `AS-${slug(a.name).toUpperCase()}`,
      info_type: d.type,
      info_traffic: d.traffic,
      info_ratio: d.ratio,
      info_scope: "Europe",
      info_prefixes4: null,
      info_prefixes6: null,
      policy_general: d.policy,
      policy_url: "",
      ...ok,
    };
  });
  const netId = new Map(net.map((x) => [x.asn, x.id]));
  const netixlan: Record<string, unknown>[] = [];
  const netfac: Record<string, unknown>[] = [];
  const presence = new Set<string>();
  const port = (asn: number, ix: string) => {
    const key = `${asn}|${ix}`;
    if (presence.has(key) || !netId.has(asn) || !ixId.has(ix)) return;
    presence.add(key);
    netixlan.push({
      id: 5000 + netixlan.length,
      net_id: netId.get(asn),
      ix_id: ixId.get(ix),
      ixlan_id: ixId.get(ix),
      asn,
      speed: 100000,
      is_rs_peer: true,
      ...ok,
    });
  };
  const site = (asn: number, city: string | undefined) => {
    const key = `${asn}@${city}`;
    if (!city || presence.has(key) || !netId.has(asn)) return;
    presence.add(key);
    netfac.push({ id: 7000 + netfac.length, net_id: netId.get(asn), fac_id: facId.get(city), local_asn: asn, ...ok });
  };
  for (const ix of IXES) port(operator.asn, ix.name);
  for (const c of cities) site(operator.asn, c);
  for (const [asn, ports] of attachments) {
    for (const i of ports) {
      if (i.connection && ixId.has(i.connection)) port(asn, i.connection);
      site(asn, routerCity.get(i.router));
    }
  }
  remote.forEach((a, n) => {
    const ix = IXES[n % IXES.length];
    port(a.asn, ix.name);
    site(a.asn, routerCity.get(ix.router));
  });
  return {
    org: networks.map((a, n) => ({ id: 100 + n, name: a.name, ...ok })),
    net,
    ix: IXES.map((ix) => ({
      id: ixId.get(ix.name),
      org_id: 100,
      name: ix.name,
      city: routerCity.get(ix.router) ?? "",
      country: cityCountry.get(routerCity.get(ix.router) ?? "") ?? "",
      ...ok,
    })),
    ixlan: IXES.map((ix) => ({ id: ixId.get(ix.name), ix_id: ixId.get(ix.name), name: "", mtu: 1500, ...ok })),
    ixpfx: [],
    netixlan,
    fac: cities.map((c) => ({
      id: facId.get(c),
      org_id: 100,
      name: `${c} Data Centre`,
      city: c,
      country: cityCountry.get(c) ?? "",
      ...ok,
    })),
    netfac,
    poc: net.map((x, n) => ({
      id: 8000 + n,
      net_id: x.id,
      role: "NOC",
      email: `noc@${slug(networks[n].name)}.example`,
      visible: "Public",
      ...ok,
    })),
  };
}

/** The dump as the file a full PeeringDB dump is: each type's objects under its key, as `{"data": [...]}`. */
export function demoPeeringDbJson(...args: Parameters<typeof demoPeeringDbDump>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(demoPeeringDbDump(...args)).map(([kind, data]) => [kind, { data, meta: {} }])));
}
