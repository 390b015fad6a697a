/**
 * api/asrelations/: the neighbours of the inventory's external links with their relations, links
 * and routers, PeeringDB's declared facts, and the observed 95th per direction of a month —
 * against a recomputation in the test from the hourly flow rows it wrote (hours without any flow
 * are no samples, hours with flows elsewhere count 0), placed in the spec's ratio categories with
 * the disagreement flag; bad months and who may call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces, routers, userPermissions, users } from "~db/postgres/schema";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import { observedRatio } from "~/features/routing/peeringdb/ratio";
import * as relationsRoute from "~/routes/api.asrelations";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
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

let stores: TestStores;
const cookies = { relations: "", other: "" };

async function createUser(email: string, permissions: "AS_RELATIONS"[]) {
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
  cookies.other = await sessionCookie(stores, await createUser("other@rel.test", []));
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
  await importPeeringDb(stores, { sources: [{ name: "peeringdb.json", chunks: chunksOf(fixtureDump(), 4096) }], actor: null });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("api/asrelations/", () => {
  it("answers each neighbour's relation, links, PeeringDB facts and observed 95th per direction, as recomputed", async () => {
    const res = await callRoute(relationsRoute, "/api/asrelations/?month=2026-11", { cookie: cookies.relations });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.month).toBe("2026-11");
    expect(body.range).toEqual({ start: MONTH_START, end: MONTH_END });
    expect(body.samples).toBe(60);
    expect(body.peeringdb).toMatchObject({ dump_date: expect.any(String) });
    const observed = (asn: number) => {
      const outbound = expectedP95(asn, "outbound");
      const inbound = expectedP95(asn, "inbound");
      return { outbound_p95_bps: outbound, inbound_p95_bps: inbound, ratio: observedRatio(outbound, inbound) };
    };
    // Not vacuous: the fixture gives three different categories.
    expect([observed(64500).ratio, observed(64501).ratio, observed(64502).ratio]).toEqual(["Heavy Outbound", "Balanced", "Not Disclosed"]);
    expect(body.neighbors).toEqual([
      {
        asn: 64500,
        name: "Example Transit",
        relations: ["Transit"],
        links: [
          { router: "r1", interface: "xe-0", peering_type: "Transit", connection: "Transit", capacity_bps: 10e9 },
          { router: "r2", interface: "xe-1", peering_type: "Transit", connection: "Transit", capacity_bps: 10e9 },
        ],
        routers: ["r1", "r2"],
        peeringdb: { policy_general: "Selective", info_traffic: "1-5Tbps", info_type: "NSP" },
        declared_ratio: "Mostly Outbound",
        observed: observed(64500),
        ratio_disagrees: true,
      },
      {
        asn: 64501,
        name: "Content Net",
        relations: ["Peering"],
        links: [{ router: "r1", interface: "xe-2", peering_type: "Peering", connection: "IX", capacity_bps: 100e9 }],
        routers: ["r1"],
        peeringdb: { policy_general: "Open", info_traffic: "", info_type: "" },
        declared_ratio: "Not Disclosed",
        observed: observed(64501),
        ratio_disagrees: false,
      },
      {
        asn: 64502,
        name: null,
        relations: ["Customer"],
        links: [{ router: "r2", interface: "xe-3", peering_type: "Customer", connection: "Customer", capacity_bps: 10e9 }],
        routers: ["r2"],
        peeringdb: null,
        declared_ratio: "Not Disclosed",
        observed: { outbound_p95_bps: 0, inbound_p95_bps: 0, ratio: "Not Disclosed" },
        ratio_disagrees: false,
      },
    ]);
  });

  it("a month without flows: no samples, every ratio Not Disclosed; a bad month is a 400; AS_RELATIONS is needed", async () => {
    const empty = await (await callRoute(relationsRoute, "/api/asrelations/?month=2025-01", { cookie: cookies.relations })).json();
    expect(empty.samples).toBe(0);
    expect(empty.neighbors.map((n: { observed: { ratio: string } }) => n.observed.ratio)).toEqual([
      "Not Disclosed",
      "Not Disclosed",
      "Not Disclosed",
    ]);
    for (const month of ["2026-13", "2026-1", "x", "2026-11-01"]) {
      const res = await callRoute(relationsRoute, `/api/asrelations/?month=${month}`, { cookie: cookies.relations });
      expect([month, res.status]).toEqual([month, 400]);
    }
    expect((await callRoute(relationsRoute, "/api/asrelations/", { cookie: cookies.relations })).status).toBe(200);
    expect((await callRoute(relationsRoute, "/api/asrelations/", { cookie: cookies.other })).status).toBe(403);
  });
});
