/**
 * The AS Relations screen (/as-relations) and its export: the loader's figures per neighbour — the
 * observed 95th per direction against a recomputation from the hourly flow rows the test wrote
 * (billing rule, hours without any flow are no samples), the ratio category from the documented
 * edges (1.5:1 and 3:1), PeeringDB's declared facts and the disagreement flag — the state before
 * any PeeringDB import, a neighbour's detail (NOC contact, IX and facility presence, originated
 * prefixes from rib_current), lenient bad input, and who may open it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RibRow } from "~db/demo/rib";
import { interfaces, routers, userPermissions, users } from "~db/postgres/schema";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import * as screenRoute from "~/routes/_app.as-relations";
import * as exportRoute from "~/routes/as-relations.export";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { chunksOf, fixtureDump } from "../helpers/peeringdb-fixture";
import { openTestStores, type TestStores } from "../helpers/stores";

const MONTH_START = Date.UTC(2026, 10, 1) / 1000;
const MONTH_END = Date.UTC(2026, 11, 1) / 1000;
const HOUR = 3600;

type Flow = { time: number; ingress_router: string; in_if: string; egress_router: string; out_if: string; bytes: number };
const flow = (hour: number, from: [string, string], to: [string, string], bytes: number): Flow => ({
  time: MONTH_START + hour * HOUR,
  ingress_router: from[0],
  in_if: from[1],
  egress_router: to[0],
  out_if: to[1],
  bytes,
});

const CORE: [string, string] = ["r1", "et-9"];
const FLOWS: Flow[] = [
  // AS64500 (transit on r1 xe-0 and r2 xe-1): heavy towards us.
  ...Array.from({ length: 40 }, (_, h) => flow(h, ["r1", "xe-0"], CORE, (h + 1) * 1_000_000)),
  ...Array.from({ length: 40 }, (_, h) => flow(h, ["r2", "xe-1"], CORE, 250_000)),
  ...Array.from({ length: 40 }, (_, h) => flow(h, CORE, ["r1", "xe-0"], ((h % 7) + 1) * 400_000)),
  // AS64501 (peering at an IX): balanced, only in 12 hours.
  ...Array.from({ length: 12 }, (_, h) => flow(h, ["r1", "xe-2"], CORE, 3_000_000)),
  ...Array.from({ length: 12 }, (_, h) => flow(h, CORE, ["r1", "xe-2"], 2_500_000)),
  // Hours with flows on core links only: samples where every neighbour counts 0.
  ...Array.from({ length: 20 }, (_, h) => flow(40 + h, CORE, ["r2", "et-8"], 1_000)),
  // Outside the month: not read.
  flow(-1, ["r1", "xe-0"], CORE, 9e12),
  flow(30 * 24, ["r1", "xe-0"], CORE, 9e12),
];

const LINKS = { 64500: ["r1|xe-0", "r2|xe-1"], 64501: ["r1|xe-2"], 64502: ["r2|xe-3"] } as Record<number, string[]>;

/** The recomputation: n hours with any flow in the month; per AS and direction the hourly sums with zeros, the billing 95th in bit/s. */
function expectedP95(asn: number, direction: "outbound" | "inbound"): number {
  const inMonth = FLOWS.filter((f) => f.time >= MONTH_START && f.time < MONTH_END);
  const hours = [...new Set(inMonth.map((f) => f.time))];
  const perHour = hours.map((t) =>
    inMonth
      .filter(
        (f) =>
          f.time === t &&
          LINKS[asn].includes(direction === "outbound" ? `${f.ingress_router}|${f.in_if}` : `${f.egress_router}|${f.out_if}`),
      )
      .reduce((s, f) => s + f.bytes, 0),
  );
  const sorted = perHour.sort((a, b) => a - b);
  const k = Math.floor(sorted.length / 20);
  return ((sorted[sorted.length - 1 - k] ?? 0) * 8) / HOUR;
}

/** The category by the documented edges, written out independently of ratio.ts: r = out / in. */
function expectedCategory(out: number, inb: number): string {
  if (out === 0 && inb === 0) return "Not Disclosed";
  if (inb === 0) return "Heavy Outbound";
  if (out === 0) return "Heavy Inbound";
  const r = out / inb;
  if (r > 3) return "Heavy Outbound";
  if (r > 1.5) return "Mostly Outbound";
  if (r >= 1 / 1.5) return "Balanced";
  if (r >= 1 / 3) return "Mostly Inbound";
  return "Heavy Inbound";
}

/** A current route as the RIB import writes it (the fields rib_current reads). */
function ribRoute(vp: string, prefix: string, asPath: number[]): RibRow & { rib_view: "post-policy" } {
  const v6 = prefix.includes(":");
  const [addr, len] = prefix.split("/");
  return {
    timestamp: MONTH_START,
    vantage_point: vp,
    router_ip: "192.0.2.1",
    peer_ip: "198.51.100.1",
    peer_asn: asPath[0],
    route_distinguisher: "",
    prefix,
    prefix_addr: v6 ? addr : `::ffff:${addr}`,
    prefix_len: Number(len),
    afi: v6 ? 2 : 1,
    safi: 1,
    is_withdrawn: 0,
    as_path: asPath,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: v6 ? "2001:db8:ffff::1" : "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    expire_at: 0,
    rib_view: "post-policy",
  };
}

let stores: TestStores;
const cookies = { relations: "", other: "" };

async function createUser(email: string, permissions: ("AS_RELATIONS" | "CONTROL_PLANE")[]) {
  const [r] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: r.id, permission })));
  return r.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  cookies.relations = await sessionCookie(stores, await createUser("relations@rel.test", ["AS_RELATIONS"]));
  cookies.other = await sessionCookie(stores, await createUser("other@rel.test", ["CONTROL_PLANE"]));
  const [r1, r2] = await stores.pg.db
    .insert(routers)
    .values([
      { name: "r1", city: "Frankfurt", country: "DE", loopback: "192.0.2.1" },
      { name: "r2", city: "Amsterdam", country: "NL", loopback: "192.0.2.2" },
    ])
    .returning({ id: routers.id });
  const ext = { kind: "external" as const, capacityBps: 10e9 };
  await stores.pg.db.insert(interfaces).values([
    { routerId: r1.id, name: "xe-0", snmpIndex: 1, ...ext, peeringType: "Transit", connection: "Transit", neighborAsn: 64500 },
    { routerId: r2.id, name: "xe-1", snmpIndex: 2, ...ext, peeringType: "Transit", connection: "Transit", neighborAsn: 64500 },
    {
      routerId: r1.id,
      name: "xe-2",
      snmpIndex: 3,
      ...ext,
      capacityBps: 100e9,
      peeringType: "Peering",
      connection: "IX",
      neighborAsn: 64501,
    },
    { routerId: r2.id, name: "xe-3", snmpIndex: 4, ...ext, peeringType: "Customer", connection: "Customer", neighborAsn: 64502 },
    { routerId: r1.id, name: "et-9", snmpIndex: 5, kind: "core", capacityBps: 100e9 },
  ]);
  await chInsert(stores.ch, { name: "test.flows", table: "flows_1h", values: FLOWS.map((f) => ({ ...f, ip_version: 4 })) });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const load = async (path: string, cookie = cookies.relations) => runRoute(screenRoute.loader, getRequest(path, cookie));

describe("/as-relations", () => {
  it("before any PeeringDB import: every neighbour, no names, the empty state's null import", async () => {
    const { status, data } = await load("/as-relations?month=2026-11");
    expect(status).toBe(200);
    expect(data.peeringdb).toBeNull();
    expect(data.rows.map((r: { as_label: string; policy: string }) => [r.as_label, r.policy])).toEqual([
      ["AS64500", "Not in PeeringDB"],
      ["AS64501", "Not in PeeringDB"],
      ["AS64502", "Not in PeeringDB"],
    ]);
    await importPeeringDb(stores, { sources: [{ name: "peeringdb.json", chunks: chunksOf(fixtureDump(), 4096) }], actor: null });
  });

  it("shows each neighbour's relation, links, PeeringDB facts and observed 95th per direction, as recomputed", async () => {
    const { status, data } = await load("/as-relations?month=2026-11");
    expect(status).toBe(200);
    expect(data.month).toBe("2026-11");
    expect(data.notices).toEqual([]);
    expect(data.peeringdb).toMatchObject({ imported_at: expect.any(String) });
    const declared: Record<number, string> = { 64500: "Mostly Outbound", 64501: "Not Disclosed", 64502: "Not Disclosed" };
    const expected = [64500, 64501, 64502].map((asn) => {
      const out = expectedP95(asn, "outbound");
      const inb = expectedP95(asn, "inbound");
      const observed = expectedCategory(out, inb);
      return {
        asn,
        outbound_p95_bps: out,
        inbound_p95_bps: inb,
        observed_ratio: observed,
        declared_ratio: declared[asn],
        disagrees: declared[asn] !== "Not Disclosed" && observed !== "Not Disclosed" && declared[asn] !== observed,
      };
    });
    expect(expected[0].outbound_p95_bps).toBeGreaterThan(0);
    expect(expected[1].inbound_p95_bps).toBeGreaterThan(0);
    expect(
      data.rows.map((r: Record<string, unknown>) => ({
        asn: r.asn,
        outbound_p95_bps: r.outbound_p95_bps,
        inbound_p95_bps: r.inbound_p95_bps,
        observed_ratio: r.observed_ratio,
        declared_ratio: r.declared_ratio,
        disagrees: r.disagrees,
      })),
    ).toEqual(expected);
    expect(data.rows[0]).toMatchObject({
      as_label: "AS64500 Example Transit",
      relations: "Transit",
      links: "r1 xe-0, r2 xe-1",
      link_count: 2,
      routers: "r1, r2",
      policy: "Selective",
    });
    expect(data.rows[1]).toMatchObject({ as_label: "AS64501 Content Net", relations: "Peering", connections: "IX", policy: "Open" });
    // AS64502 is not in the fixture: no name, no policy, no traffic.
    expect(data.rows[2]).toMatchObject({
      as_label: "AS64502",
      relations: "Customer",
      policy: "Not in PeeringDB",
      outbound_text: expect.any(String),
    });
    const hours = new Set(FLOWS.filter((f) => f.time >= MONTH_START && f.time < MONTH_END).map((f) => f.time));
    expect(data.samples).toBe(hours.size);
  });

  it("opens a neighbour's detail: NOC contact, IX and facility presence, the prefixes it originates", async () => {
    await chInsert(stores.ch, {
      name: "test.routes",
      table: "rib_entries",
      values: [
        ribRoute("vp1", "198.51.100.0/24", [64501, 64500]),
        ribRoute("vp2", "2001:db8:5::/48", [64500]),
        ribRoute("vp1", "203.0.113.0/24", [64501]),
      ],
    });
    const { data } = await load("/as-relations?month=2026-11&asn=AS64500");
    expect(data.detail).toMatchObject({ asn: 64500, name: "Example Transit" });
    expect(data.detail.peeringdb.noc_email).toBe("noc@transit.example");
    expect(data.detail.peeringdb.ix_presence.map((i: { name: string }) => i.name).sort()).toEqual(["AMS-IX", "FRA-IX"]);
    expect(data.detail.peeringdb.facility_presence.map((f: { name: string }) => f.name).sort()).toEqual(["Equinix FR5", "Interxion AMS7"]);
    // AS64500 originates two prefixes, one per family, seen at two vantage points; 203.0.113.0/24 is AS64501's.
    expect(data.detail.routing).toMatchObject({ prefixes: 2, ipv4: 1, ipv6: 1, vantage_points: 2 });
    expect(data.detail.routing.listed.map((p: { prefix: string }) => p.prefix)).toEqual(["198.51.100.0/24", "2001:db8:5::/48"]);
    const none = await load("/as-relations?month=2026-11&asn=64501");
    expect(none.data.detail.peeringdb.noc_email).toBeNull();
  });

  it("falls back with a notice for a bad month or an AS that is no neighbour, never a 500", async () => {
    const bad = await load("/as-relations?month=2026-13&asn=x");
    expect(bad.status).toBe(200);
    expect(bad.data.month).toMatch(/^\d{4}-\d{2}$/);
    expect(bad.data.notices).toHaveLength(2);
    expect(bad.data.detail).toBeNull();
    const stranger = await load("/as-relations?month=2026-11&asn=65000");
    expect(stranger.data.notices).toEqual(['AS "65000" is not a neighbour in the inventory: no detail is shown.']);
  });

  it("is closed to those without AS_RELATIONS: the screen sends them to their own landing, the export answers 403", async () => {
    const refused = await load("/as-relations?month=2026-11", cookies.other);
    expect(refused.status).toBe(302);
    expect(refused.location).toBe("/controlplane");
    expect((await runRoute(exportRoute.loader, getRequest("/as-relations/export?month=2026-11", cookies.other))).status).toBe(403);
  });

  it("exports the table as csv with every neighbour, numbers in bit/s", async () => {
    const res = await runRoute(exportRoute.loader, getRequest("/as-relations/export?month=2026-11&format=csv", cookies.relations));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain("flowlens_as-relations_2026-11.csv");
    const lines = String(res.data).trim().split(/\r?\n/);
    expect(lines[0]).toContain("Observed 95th in (bit/s)");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(String(Math.round(expectedP95(64500, "outbound"))));
    const png = await runRoute(exportRoute.loader, getRequest("/as-relations/export?format=png", cookies.relations));
    expect(png.status).toBe(400);
  });
});
