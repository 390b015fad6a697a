/**
 * The AS Relations screen's peering candidates against a fixture: hourly flows through a transit (flows_1h
 * rows with source and handover AS), a PeeringDB import that places the operator and the sources at
 * exchanges and facilities, and the inventory's links. The figures are recomputed from the rows the test
 * wrote; a delegated account gets no candidates, and the state without an operator AS says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, interfaces, routers, userPermissions, users } from "~db/postgres/schema";
import { asRelationsScreen, loadAsRelationsScreen } from "~/features/asrelations/screen.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { useServicesForTests } from "~/server/services.server";
import * as screenRoute from "~/routes/_app.as-relations";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { chunksOf } from "../helpers/peeringdb-fixture";
import { openTestStores, type TestStores } from "../helpers/stores";

const MONTH_START = Date.UTC(2026, 10, 1) / 1000;
const HOUR = 3600;
const OPERATOR = 64496;
const TRANSIT = 64500;
const PEER = 64501;

type Row = { hour: number; as_src: number; as_hnd: number; bytes: number };
const ROWS: Row[] = [
  // 64510 (Open, at our FRA-IX): 24 hours through the transit, growing.
  ...Array.from({ length: 24 }, (_, h) => ({ hour: h, as_src: 64510, as_hnd: TRANSIT, bytes: (h + 1) * 4e9 })),
  // 64511 (Restrictive, at our facility only): more traffic, but ranked last by policy.
  ...Array.from({ length: 24 }, (_, h) => ({ hour: h, as_src: 64511, as_hnd: TRANSIT, bytes: 3e11 })),
  // 64512 (Open, at an exchange we are not at): shares nothing.
  ...Array.from({ length: 10 }, (_, h) => ({ hour: h, as_src: 64512, as_hnd: TRANSIT, bytes: 1e12 })),
  // 64513 comes through the peer, not a transit: no candidate.
  ...Array.from({ length: 10 }, (_, h) => ({ hour: h, as_src: 64513, as_hnd: PEER, bytes: 1e12 })),
  // The peer's own traffic and the Others fold.
  ...Array.from({ length: 24 }, (_, h) => ({ hour: h, as_src: PEER, as_hnd: PEER, bytes: 1e10 })),
  ...Array.from({ length: 5 }, (_, h) => ({ hour: h, as_src: -101, as_hnd: TRANSIT, bytes: 5e10 })),
  // Egress through the transit (handover = operator): not ingress, not counted.
  { hour: 3, as_src: OPERATOR, as_hnd: OPERATOR, bytes: 9e12 },
];

const ok = { status: "ok", created: "2020-01-01T00:00:00Z", updated: "2026-10-01T00:00:00Z" };
const DUMP = {
  net: [
    { id: 1, asn: OPERATOR, name: "Us", policy_general: "Selective", ...ok },
    { id: 2, asn: 64510, name: "Open Content", policy_general: "Open", ...ok },
    { id: 3, asn: 64511, name: "Closed Content", policy_general: "Restrictive", ...ok },
    { id: 4, asn: 64512, name: "Far Away", policy_general: "Open", ...ok },
    { id: 5, asn: 64513, name: "Via Peer", policy_general: "Open", ...ok },
  ],
  ix: [
    { id: 20, name: "FRA-IX", city: "Frankfurt", country: "DE", ...ok },
    { id: 21, name: "Other-IX", city: "Oslo", country: "NO", ...ok },
  ],
  ixlan: [
    { id: 30, ix_id: 20, ...ok },
    { id: 31, ix_id: 21, ...ok },
  ],
  netixlan: [
    { id: 40, net_id: 1, ix_id: 20, ixlan_id: 30, asn: OPERATOR, speed: 100000, ...ok },
    { id: 41, net_id: 2, ix_id: 20, ixlan_id: 30, asn: 64510, speed: 10000, ...ok },
    { id: 42, net_id: 4, ix_id: 21, ixlan_id: 31, asn: 64512, speed: 10000, ...ok },
    { id: 43, net_id: 5, ix_id: 20, ixlan_id: 30, asn: 64513, speed: 10000, ...ok },
  ],
  fac: [
    { id: 50, name: "FR5", city: "Frankfurt", country: "DE", ...ok },
    { id: 51, name: "OSL1", city: "Oslo", country: "NO", ...ok },
  ],
  netfac: [
    { id: 60, net_id: 1, fac_id: 50, ...ok },
    { id: 61, net_id: 3, fac_id: 50, ...ok },
    { id: 62, net_id: 4, fac_id: 51, ...ok },
  ],
};

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [r1] = await stores.pg.db
    .insert(routers)
    .values([{ name: "r1", city: "Frankfurt", country: "DE", loopback: "192.0.2.1" }])
    .returning({ id: routers.id });
  const ext = { kind: "external" as const, capacityBps: 10e9 };
  await stores.pg.db.insert(interfaces).values([
    { routerId: r1.id, name: "xe-0", snmpIndex: 1, ...ext, peeringType: "Transit", connection: "Transit", neighborAsn: TRANSIT },
    { routerId: r1.id, name: "xe-1", snmpIndex: 2, ...ext, peeringType: "Peering", connection: "FRA-IX", neighborAsn: PEER },
  ]);
  await chInsert(stores.ch, {
    name: "test.flows",
    table: "flows_1h",
    values: ROWS.map((r) => ({
      time: MONTH_START + r.hour * HOUR,
      ip_version: 4,
      as_src: r.as_src,
      as_hnd: r.as_hnd,
      as_dst: OPERATOR,
      ingress_router: "r1",
      in_if: r.as_hnd === TRANSIT ? "xe-0" : "xe-1",
      bytes: r.bytes,
    })),
  });
  const json = JSON.stringify(Object.fromEntries(Object.entries(DUMP).map(([kind, data]) => [kind, { data, meta: {} }])));
  await importPeeringDb(stores, { sources: [{ name: "peeringdb.json", chunks: chunksOf(json, 4096) }], actor: null });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const url = new URL("http://localhost/as-relations?month=2026-11");
/** The route gives the Revenues & Costs price lookup; a viewer without REVENUES_AND_COSTS gets null from it. */
const fullViewer = { prices: async () => null };

describe("peering candidates", () => {
  it("say why there are none while the operator's own AS is not configured", async () => {
    const screen = await asRelationsScreen(stores, url, "UTC", new Date(Date.UTC(2026, 11, 2)), fullViewer);
    expect(screen.candidates).toEqual({ unavailable: expect.stringContaining("own AS is not configured") });
  });

  it("list the transit sources that share an exchange or facility with us, with their mean rate as recomputed", async () => {
    await stores.pg.db.insert(asInfo).values({ asn: OPERATOR, name: "Us", category: "operator" });
    const screen = await asRelationsScreen(stores, url, "UTC", new Date(Date.UTC(2026, 11, 2)), fullViewer);
    const result = screen.candidates;
    if (!result || "unavailable" in result) throw new Error(`no candidates: ${JSON.stringify(result)}`);
    // The mean is over the month's hours with any flow (here hours 0..23).
    const hours = new Set(ROWS.map((r) => r.hour)).size;
    const mean = (asn: number) =>
      (ROWS.filter((r) => r.as_src === asn && r.as_hnd === TRANSIT).reduce((a, r) => a + r.bytes, 0) * 8) / (hours * HOUR);
    expect(result.candidates.map((c) => [c.asn, c.name, c.policy])).toEqual([
      [64510, "Open Content", "Open"],
      [64511, "Closed Content", "Restrictive"],
    ]);
    expect(result.candidates[0].transit_bps).toBeCloseTo(mean(64510), 3);
    expect(result.candidates[1].transit_bps).toBeCloseTo(mean(64511), 3);
    expect(result.candidates[1].transit_bps).toBeGreaterThan(result.candidates[0].transit_bps);
    expect(result.candidates[0].via).toEqual([{ asn: TRANSIT, bps: expect.closeTo(mean(64510), 3) }]);
    expect(result.candidates[0].shared_ixes).toEqual([{ name: "FRA-IX", city: "Frankfurt" }]);
    expect(result.candidates[1].shared_facilities).toEqual([{ name: "FR5", city: "Frankfurt" }]);
    // Without REVENUES_AND_COSTS no price is read.
    expect(result.priced).toBe(false);
    expect(result.candidates.every((c) => c.saving_eur === null)).toBe(true);
    expect(result.not_shared).toBe(1);
    expect(result.others_bps).toBeCloseTo((5 * 5e10 * 8) / (hours * HOUR), 3);
  });

  it("price the transit traffic at the transit's effective € per billed Mbit/s when the viewer may see prices", async () => {
    const screen = await asRelationsScreen(stores, url, "UTC", new Date(Date.UTC(2026, 11, 2)), {
      prices: async (year, month) => (year === 2026 && month === 11 ? new Map([[TRANSIT, 0.5]]) : new Map()),
    });
    const result = screen.candidates;
    if (!result || "unavailable" in result) throw new Error(`no candidates: ${JSON.stringify(result)}`);
    expect(result.priced).toBe(true);
    for (const c of result.candidates) expect(c.saving_eur).toBeCloseTo((c.transit_bps / 1e6) * 0.5, 6);
  });

  it("are not computed for a delegated account, and the screen shows them to a full one", async () => {
    const [u] = await stores.pg.db
      .insert(users)
      .values({ email: "cand@rel.test", firstName: "C", passwordHash: "!unusable", hasConsented: true })
      .returning({ id: users.id });
    await stores.pg.db.insert(userPermissions).values({ userId: u.id, permission: "AS_RELATIONS" });
    const { status, data } = await runRoute(
      screenRoute.loader,
      getRequest("/as-relations?month=2026-11", await sessionCookie(stores, u.id)),
    );
    expect(status).toBe(200);
    expect(data.candidates.candidates.map((c: { asn: number }) => c.asn)).toEqual([64510, 64511]);
    // The loader computes none for a delegated account (its route lets one in only with a restriction).
    const delegated = { id: u.id, permissions: ["AS_RELATIONS"], isDelegated: true } as unknown as UserContext;
    expect((await loadAsRelationsScreen(stores as unknown as Services, delegated, url)).candidates).toBeNull();
  });
});
