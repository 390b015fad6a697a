/**
 * The routing evidence's second kind of affected prefix: the longest matches, at each vantage
 * point, of the object's top source addresses (read from flows_raw). On flows_raw rows the test
 * writes (flows_5m filled from them by the aggregation) and rib_entries rows: a prefix the object
 * does not originate that covers its top addresses and changed in the window is listed with its
 * reason; less specifics, prefixes of non-top addresses, of uncounted records, of another AS, of
 * routes gone before the window or only pre-policy are not; the rows equal an independent
 * computation from the fixture rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, userPermissions, users } from "~db/postgres/schema";
import { ROUTING_AFTER_SECONDS, ROUTING_BEFORE_SECONDS, ROUTING_TOP_ADDRESSES } from "~/features/flows/rootcause/analysis.server";
import { networkAddress, parseIpAddress, parseNetwork, toIpv6Column } from "~/lib/ip";
import * as rootCauseRoute from "~/routes/api.rootcause";
import * as screenRoute from "~/routes/_app.flow-explorer_.rootcause";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const HOUR = 3600;
const NOW = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
const START = NOW - 24 * HOUR;
const DURATION = HOUR;
const OPERATOR = 64512;
const OBJECT = 64500;
const TRANSIT = 64600;
const OTHER = 64700;
const WINDOW = { start: START - ROUTING_BEFORE_SECONDS, end: START + ROUTING_AFTER_SECONDS };

type Raw = {
  time: number;
  src: string;
  as_src: number;
  as_hnd: number;
  bytes: number;
  sampling: number;
  counted?: number;
  forwarding_status?: number;
};
const RAW: Raw[] = [];
// 20 busy remote hosts of the object in 203.0.113.0/24, some through the transit, with sampling.
for (let k = 1; k <= 20; k++)
  RAW.push({
    time: START + k * 60,
    src: `203.0.113.${k}`,
    as_src: OBJECT,
    as_hnd: k % 3 ? OBJECT : TRANSIT,
    bytes: (30 - k) * 1_000_000,
    sampling: k % 2 ? 1 : 2,
  });
// An IPv6 host, busy.
RAW.push({ time: START + 600, src: "2001:db8:77::5", as_src: OBJECT, as_hnd: OBJECT, bytes: 50_000_000, sampling: 1 });
// The 22nd host: not among the top 20.
RAW.push({ time: START + 700, src: "198.51.100.77", as_src: OBJECT, as_hnd: OBJECT, bytes: 1_000, sampling: 1 });
// Not counted (re-exported on a core interface), dropped, the operator's own, another AS's, outside the period: none is a top address.
RAW.push({ time: START + 800, src: "198.18.5.5", as_src: OBJECT, as_hnd: OBJECT, bytes: 9e9, sampling: 1, counted: 0 });
RAW.push({ time: START + 810, src: "198.18.6.6", as_src: OBJECT, as_hnd: OBJECT, bytes: 9e9, sampling: 1, forwarding_status: 0x82 });
RAW.push({ time: START + 820, src: "198.18.7.7", as_src: OBJECT, as_hnd: OPERATOR, bytes: 9e9, sampling: 1 });
RAW.push({ time: START + 830, src: "100.64.0.1", as_src: OTHER, as_hnd: OTHER, bytes: 9e9, sampling: 1 });
RAW.push({ time: START + DURATION, src: "198.18.8.8", as_src: OBJECT, as_hnd: OBJECT, bytes: 9e9, sampling: 1 });

const column = (text: string) => {
  const a = parseIpAddress(text);
  if (!a) throw new Error(text);
  return toIpv6Column(a);
};
const rawRow = (r: Raw) => ({
  time_received: r.time,
  exporter_name: "r1",
  exporter_address: "::ffff:192.0.2.1",
  ingress_router: r.as_hnd === TRANSIT ? "r2" : "r1",
  in_if: "xe-0",
  sampling_rate: r.sampling,
  ip_version: r.src.includes(":") ? 6 : 4,
  src_addr: column(r.src),
  dst_addr: column(r.src.includes(":") ? "2001:db8:ffff::1" : "192.0.2.10"),
  protocol: 6,
  bytes: r.bytes,
  packets: 1,
  as_src: r.as_src,
  as_hnd: r.as_hnd,
  as_nxt: OPERATOR,
  as_dst: OPERATOR,
  counted: r.counted ?? 1,
  forwarding_status: r.forwarding_status ?? 0x40,
});

type Rib = {
  timestamp: number;
  vantage_point: string;
  peer_ip: string;
  prefix: string;
  is_withdrawn: number;
  as_path: number[];
  rib_view: "pre-policy" | "post-policy" | "loc-rib";
};
function rib(vp: string, prefix: string, timestamp: number, as_path: number[], extra: Partial<Rib> = {}): Rib {
  return { timestamp, vantage_point: vp, peer_ip: "198.51.100.1", prefix, is_withdrawn: 0, as_path, rib_view: "post-policy", ...extra };
}
const RIB: Rib[] = [
  // Covers the 20 hosts at fra1, not originated by the object: a path change in the window.
  rib("fra1", "203.0.113.0/24", START - 3 * HOUR, [TRANSIT, 64999]),
  rib("fra1", "203.0.113.0/24", START - 5 * 60, [64601, 64999]),
  // A less specific at fra1: never the longest match there.
  rib("fra1", "203.0.0.0/16", START - 3 * HOUR, [TRANSIT, 64999]),
  rib("fra1", "203.0.0.0/16", START + 5 * 60, [64601, 64999]),
  // A more specific gone before the window: not the longest match (it would take .1–.15).
  rib("fra1", "203.0.113.0/28", START - 5 * HOUR, [TRANSIT, 64999]),
  rib("fra1", "203.0.113.0/28", START - 4 * HOUR, [], { is_withdrawn: 1 }),
  // A more specific only before the router's policy: not what the router accepted.
  rib("fra1", "203.0.113.0/25", START - 2 * HOUR, [TRANSIT, 64999], { rib_view: "pre-policy" }),
  rib("fra1", "203.0.113.0/25", START + 2 * 60, [64601, 64999], { rib_view: "pre-policy" }),
  // At ber1 the /20 is the longest match: withdrawn in the window.
  rib("ber1", "203.0.112.0/20", START - 2 * HOUR, [64602, 64998], { peer_ip: "198.51.100.2" }),
  rib("ber1", "203.0.112.0/20", START + 10 * 60, [], { peer_ip: "198.51.100.2", is_withdrawn: 1 }),
  // The IPv6 host's prefix, first announced in the window.
  rib("ber1", "2001:db8:77::/48", START + 15 * 60, [64602, 64997], { peer_ip: "2001:db8:ffff::2" }),
  // The object's own prefix: originated.
  rib("fra1", "10.9.0.0/24", START - 3 * HOUR, [64501, OBJECT]),
  rib("fra1", "10.9.0.0/24", START + 60, [TRANSIT, OBJECT]),
  // Covering a host outside the top, an uncounted record, dropped packets, the operator's own, another AS: not listed.
  rib("fra1", "198.51.100.0/24", START - 3 * HOUR, [TRANSIT, 64996]),
  rib("fra1", "198.51.100.0/24", START + 3 * 60, [64601, 64996]),
  rib("fra1", "198.18.0.0/15", START - 3 * HOUR, [TRANSIT, 64995]),
  rib("fra1", "198.18.0.0/15", START + 4 * 60, [64601, 64995]),
  rib("fra1", "100.64.0.0/24", START - 3 * HOUR, [TRANSIT, OTHER]),
  rib("fra1", "100.64.0.0/24", START + 6 * 60, [64601, OTHER]),
  // Background churn of another origin: a session flapping every 10 minutes.
  ...Array.from({ length: 6 }, (_, k) =>
    rib("fra1", "192.0.2.0/24", START - 30 * 60 + k * 10 * 60, k % 2 ? [] : [65001, OTHER], { is_withdrawn: k % 2 }),
  ),
  // Outside the window.
  rib("fra1", "203.0.113.0/24", START + 45 * 60, [TRANSIT, 64999]),
];

const ribRow = (r: Rib) => {
  const network = parseNetwork(r.prefix);
  if (!network) throw new Error(r.prefix);
  return {
    ...r,
    router_ip: "192.0.2.1",
    peer_asn: r.as_path[0] ?? 0,
    route_distinguisher: "",
    prefix_addr: toIpv6Column(network),
    prefix_len: network.length,
    afi: network.version === 4 ? 1 : 2,
    safi: 1,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "192.0.2.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
    path_id: 0,
    ext_communities: [],
  };
};

// ---- The independent computation from the fixture rows.

/** The object's top source addresses in the period, as the aggregates count traffic. */
function expectedTop(): string[] {
  const sums = new Map<string, number>();
  for (const r of RAW) {
    if (r.as_src !== OBJECT || r.as_hnd === OPERATOR || (r.counted ?? 1) !== 1 || (r.forwarding_status ?? 0x40) >> 6 === 2) continue;
    if (r.time < START || r.time >= START + DURATION) continue;
    sums.set(r.src, (sums.get(r.src) ?? 0) + r.bytes * r.sampling);
  }
  return [...sums.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, ROUTING_TOP_ADDRESSES)
    .map(([a]) => a);
}
const contains = (prefix: string, address: string) => {
  const n = parseNetwork(prefix);
  const a = parseIpAddress(address);
  return !!n && !!a && n.version === a.version && networkAddress(a.version, a.value, n.length) === n.value;
};
/** Per vantage point, the prefixes with an accepted route in the window: up at its start or announced inside it. */
function presentInWindow(vp: string): Set<string> {
  const out = new Set<string>();
  const routes = new Map<string, Rib[]>();
  for (const r of RIB.filter((x) => x.vantage_point === vp && x.rib_view !== "pre-policy" && x.timestamp < WINDOW.end)) {
    const key = `${r.prefix} ${r.peer_ip} ${r.rib_view}`;
    routes.set(key, [...(routes.get(key) ?? []), r]);
  }
  for (const rows of routes.values()) {
    const before = rows
      .filter((r) => r.timestamp < WINDOW.start)
      .sort((a, b) => a.timestamp - b.timestamp || a.is_withdrawn - b.is_withdrawn);
    const upAtStart = before.length > 0 && before[before.length - 1].is_withdrawn === 0;
    const inside = rows.some((r) => r.timestamp >= WINDOW.start && !r.is_withdrawn);
    if (upAtStart || inside) out.add(rows[0].prefix);
  }
  return out;
}
function expectedCovering(top: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const address of top) {
    for (const vp of new Set(RIB.map((r) => r.vantage_point))) {
      const covering = [...presentInWindow(vp)].filter((p) => contains(p, address));
      if (!covering.length) continue;
      const longest = covering.sort((a, b) => parseNetwork(b)!.length - parseNetwork(a)!.length)[0];
      out.set(longest, [...new Set([...(out.get(longest) ?? []), address])]);
    }
  }
  return out;
}

let stores: TestStores;
let userId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(asInfo).values({ asn: OPERATOR, name: "Test Carrier", category: "operator" });
  await chInsert(stores.ch, {
    name: "test.fixture",
    table: "tracked_as",
    values: [OPERATOR, OBJECT, TRANSIT, OTHER].map((asn, rank) => ({ asn, rank, updated_at: NOW })),
  });
  await chInsert(stores.ch, { name: "test.fixture", table: "flows_raw", values: RAW.map(rawRow) });
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: RIB.map(ribRow) });
  const [u] = await stores.pg.db
    .insert(users)
    .values({ email: "prefixes@rca.test", firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  userId = u.id;
  await stores.pg.db.insert(userPermissions).values(["API_FLOWS_4D", "API_FLOWS_INTERFACES"].map((permission) => ({ userId, permission })));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

type Change = {
  time: number;
  vantagePoint: string;
  prefix: string;
  kind: string;
  listedFor: { originated: boolean; topAddresses: string[] };
};

describe("Routing evidence: the longest matches of the top source addresses", () => {
  it("lists the prefixes covering the object's top source addresses with the reason; the rows equal the fixture's", async () => {
    const res = await callRoute(rootCauseRoute, "/api/rootcause/", {
      method: "POST",
      cookie: await sessionCookie(stores, userId),
      body: { dimension: "AS_SRC_INGRESS", value: String(OBJECT), start: new Date(START * 1000).toISOString(), duration: "1h" },
    });
    const data = await res.json();
    expect(res.status, JSON.stringify(data)).toBe(200);
    const top = expectedTop();
    expect(top).toHaveLength(ROUTING_TOP_ADDRESSES);
    expect(top).not.toContain("198.51.100.77");
    expect(data.routing.topAddresses).toEqual(top);

    const covering = expectedCovering(top);
    const originated = new Set(
      RIB.filter((r) => !r.is_withdrawn && r.as_path.at(-1) === OBJECT && r.timestamp < WINDOW.end).map((r) => r.prefix),
    );
    const affected = new Set([...originated, ...covering.keys()]);
    const expected = RIB.filter((r) => r.timestamp >= WINDOW.start && r.timestamp < WINDOW.end && affected.has(r.prefix))
      .map(
        (r) =>
          `${r.timestamp} ${r.vantage_point} ${r.prefix} ${r.is_withdrawn} ${originated.has(r.prefix)} ${(covering.get(r.prefix) ?? []).join(",")}`,
      )
      .sort();
    const changes: Change[] = data.routing.changes;
    expect(
      changes
        .map(
          (c) =>
            `${c.time} ${c.vantagePoint} ${c.prefix} ${c.kind === "Withdrawal" ? 1 : 0} ${c.listedFor.originated} ${[...c.listedFor.topAddresses].sort().join(",")}`,
        )
        .sort(),
    ).toEqual(expected.map((e) => e.replace(/ ([^ ]*)$/, (_, list: string) => ` ${list.split(",").filter(Boolean).sort().join(",")}`)));

    // What that means here, in words.
    const hosts = top.filter((a) => a.startsWith("203.0.113."));
    expect(changes.map((c) => `${c.prefix} ${c.kind}`)).toEqual([
      "203.0.113.0/24 Path change",
      "10.9.0.0/24 Path change",
      "203.0.112.0/20 Withdrawal",
      "2001:db8:77::/48 Announcement",
    ]);
    const byPrefix = (p: string) => changes.find((c) => c.prefix === p)!;
    expect(byPrefix("203.0.113.0/24").listedFor).toEqual({ originated: false, topAddresses: hosts.slice().sort(byValue) });
    expect([...byPrefix("203.0.112.0/20").listedFor.topAddresses].sort()).toEqual([...hosts].sort());
    expect(byPrefix("2001:db8:77::/48").listedFor).toEqual({ originated: false, topAddresses: ["2001:db8:77::5"] });
    expect(byPrefix("10.9.0.0/24").listedFor).toEqual({ originated: true, topAddresses: [] });
    for (const p of [
      "203.0.0.0/16",
      "203.0.113.0/28",
      "203.0.113.0/25",
      "198.51.100.0/24",
      "198.18.0.0/15",
      "100.64.0.0/24",
      "192.0.2.0/24",
    ])
      expect(
        changes.some((c) => c.prefix === p),
        p,
      ).toBe(false);
    expect(data.routing.conclusion).toBe("Yes");
  });

  it("the screen's evidence table says why each prefix is listed", async () => {
    const search = new URLSearchParams({
      dimension: "AS_SRC_INGRESS",
      value: String(OBJECT),
      start: new Date(START * 1000).toISOString(),
      duration: "1h",
    });
    const ok = await runRoute(screenRoute.loader, getRequest(`/flow-explorer/rootcause?${search}`, await sessionCookie(stores, userId)));
    expect(ok.status).toBe(200);
    const rows: { prefix: string; listedFor: string }[] = ok.data.view.routing.changes;
    const top = expectedTop();
    expect(rows.find((r) => r.prefix === "10.9.0.0/24")?.listedFor).toBe(`Originated by AS${OBJECT}`);
    expect(rows.find((r) => r.prefix === "2001:db8:77::/48")?.listedFor).toBe("Longest match of top source address 2001:db8:77::5");
    const hosts = top.filter((a) => a.startsWith("203.0.113."));
    expect(rows.find((r) => r.prefix === "203.0.113.0/24")?.listedFor).toBe(
      `Longest match of top source addresses ${hosts[0]}, ${hosts[1]} and ${hosts.length - 2} more`,
    );
  });
});

/** The order the analysis names addresses in: the order of the top list (busiest first). */
function byValue(a: string, b: string): number {
  const top = expectedTop();
  return top.indexOf(a) - top.indexOf(b);
}
