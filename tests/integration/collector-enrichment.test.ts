/**
 * Enrichment on test stores: the fixture network (tests/fixtures/enrichment-network.ts) written
 * through the inventory service and into rib_current, read back by loadEnrichmentSnapshot (pages
 * of 3 prefixes, so every table crosses page boundaries) and enriched by createEnricher, compared
 * with the fixture's independent computation. Then recomputeTrackedAs over flows_raw rows, against
 * the top ASes counted here from the rows the test wrote.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, asServiceMappings } from "~db/postgres/schema";
import { emptyFlow, type DecodedFlow, type FlowProtocol } from "~/features/collector/decode/flow-record";
import { createEnricher } from "~/features/collector/enrich/enrich";
import { loadEnrichmentSnapshot } from "~/features/collector/enrich/snapshot.server";
import { recomputeTrackedAs, TRACKED_TOP } from "~/features/collector/enrich/tracked-as.server";
import { createRouter, createVantagePoint, updateRouter } from "~/features/inventory/inventory.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { AS_SERVICES, expectedRow, OPERATOR_ASN, ROUTERS, ROUTES, VANTAGE_POINTS } from "../fixtures/enrichment-network";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const T0 = Math.floor(Date.now() / 1000) - 3600;

function ribRow(route: (typeof ROUTES)[number], timestamp: number, extra: Record<string, unknown> = {}) {
  const [address, length] = route.prefix.split("/");
  const v4 = !address.includes(":");
  return {
    timestamp,
    vantage_point: route.vp,
    router_ip: "198.51.100.1",
    peer_ip: route.peer,
    peer_asn: route.path[0] ?? 0,
    route_distinguisher: route.rd,
    prefix: route.prefix,
    prefix_addr: address,
    prefix_len: Number(length),
    afi: v4 ? 1 : 2,
    safi: 1,
    is_withdrawn: 0,
    as_path: route.path,
    as_path_set: [],
    as_confed_seq: [],
    local_pref: route.localPref,
    med: 0,
    bgp_next_hop: route.nextHop,
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: [],
    ...extra,
  };
}

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: "42".repeat(32) } });
  await stores.pg.db.insert(asInfo).values([
    { asn: OPERATOR_ASN, name: "Test Carrier", category: "operator" },
    { asn: 15169, name: "Google", category: "content" },
  ]);
  await stores.pg.db.insert(asServiceMappings).values(AS_SERVICES);
  // Remote ends name interfaces of routers that must exist first: create, then link.
  const base = { snmp: null, ssh: null };
  for (const router of ROUTERS)
    await createRouter(stores, { ...base, ...router, interfaces: router.interfaces.map(({ remote: _remote, ...i }) => i) });
  for (const router of ROUTERS) await updateRouter(stores, router.name, { ...base, ...router });
  for (const point of VANTAGE_POINTS) await createVantagePoint(stores, point);
  await createVantagePoint(stores, { key: "elsewhere", router: "not-in-inventory", city: "X", country: "Y", ip: "192.0.2.200" });

  const rows = [
    ...ROUTES.map((route) => ribRow(route, T0)),
    // An older state of a route, replaced by the row above (same peer): FINAL keeps the newer one.
    ribRow({ ...ROUTES[0], path: [65999] }, T0 - 600),
    // A route withdrawn since: a tombstone newer than its announcement.
    ribRow(
      { vp: "fra1", rd: "", prefix: "100.64.0.0/10", path: [65100], nextHop: "198.51.100.2", localPref: 100, peer: "192.0.2.9" },
      T0 - 60,
    ),
    ribRow({ vp: "fra1", rd: "", prefix: "100.64.0.0/10", path: [], nextHop: "", localPref: 0, peer: "192.0.2.9" }, T0, {
      is_withdrawn: 1,
    }),
    // A vantage point whose router is not in the inventory: not loaded.
    ribRow({ vp: "elsewhere", rd: "", prefix: "0.0.0.0/0", path: [1], nextHop: "192.0.2.1", localPref: 100, peer: "192.0.2.1" }, T0),
    // What a peer sent before the router's import policy (BMP pre-policy Adj-RIB-In) never counts: not as a prefix of
    // its own (9.1.1.1 stays unroutable), not as a better path of a known prefix, not as a table of its own.
    ...[
      { vp: "fra1", rd: "", prefix: "9.0.0.0/8", path: [64666] },
      { vp: "fra1", rd: "", prefix: ROUTES[1].prefix, path: [64666, 15169] },
      { vp: "fra1", rd: "PRE-ONLY", prefix: "10.0.0.0/8", path: [64666] },
    ].map((route) =>
      ribRow({ ...route, nextHop: "192.0.2.66", localPref: 1000, peer: "192.0.2.66" }, T0, { rib_view: "pre-policy", path_id: 7 }),
    ),
  ];
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_current", values: rows });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("loadEnrichmentSnapshot", () => {
  it("reads the inventory, the best current paths of the routers' vantage points, the operator and the mappings", async () => {
    const snapshot = await loadEnrichmentSnapshot(stores, { pageRows: 3 });
    expect(snapshot.operatorAsn).toBe(OPERATOR_ASN);
    expect(snapshot.asServices).toEqual([
      { asn: 3356, application: "", infrastructure: "Lumen" },
      { asn: 15169, application: "Google", infrastructure: "Google Cloud" },
    ]);
    const fra = snapshot.routers.find((r) => r.name === "fra-er1")!;
    expect(fra).toMatchObject({ loopback: "198.51.100.1", exporters: ["192.0.2.1", "2001:db8:ffff::1"], vantagePoints: ["fra1", "fra2"] });
    expect(fra.interfaces.find((i) => i.ifIndex === 20)).toEqual({
      ifIndex: 20,
      name: "et-0/0/0",
      kind: "core",
      neighborAsn: null,
      vrf: null,
      remoteRouter: "ber-er1",
      remoteInterface: "et-1/0/0",
    });
    expect(snapshot.routers.find((r) => r.name === "ham-cr1")!.vantagePoints).toEqual([]);

    const tables = snapshot.ribs.map((t) => `${t.vantagePoint}|${t.routeDistinguisher}|${t.ipv4.count}|${t.ipv6.count}`).sort();
    // fra1 global: 8/8, 8.8.8/24, 198.18/15, 198.18.128/17, 203.0.113/24 (the withdrawn 100.64/10 left out); 3 IPv6.
    expect(tables).toEqual(["ber1||2|0", "fra1|CUST-A|2|0", "fra1|vrf-7|1|0", "fra1||5|3", "fra2||2|0"]);
    // Structured cloning (postMessage to workers) keeps it whole.
    expect(structuredClone(snapshot)).toEqual(snapshot);
  });

  it("enriches flows as the independent computation does", async () => {
    const enricher = createEnricher(await loadEnrichmentSnapshot(stores, { pageRows: 3 }));
    const addresses = ["8.8.8.8", "8.8.8.200", "8.9.9.9", "9.1.1.1", "10.2.2.2", "100.64.1.1", "172.16.1.1", "198.18.200.1", "203.0.113.5"];
    const v6 = ["2a00:1450::1", "2a00:1450:4001::9", "2001:db8::1", "2001:db9::1"];
    const flows = fc.record({
      protocol: fc.constantFrom<FlowProtocol>("netflow9", "ipfix", "sflow5"),
      exporter: fc.constantFrom("192.0.2.1", "::ffff:192.0.2.2", "192.0.2.3", "192.0.2.50"),
      srcAddr: fc.constantFrom(null, ...addresses, ...v6),
      dstAddr: fc.constantFrom(null, ...addresses, ...v6),
      inIfIndex: fc.constantFrom(null, 10, 11, 20, 30, 40, 41, 100, 110, 130, 1, 9),
      outIfIndex: fc.constantFrom(null, 10, 11, 20, 30, 40, 100, 110, 130, 9),
      srcAs: fc.constantFrom(null, 0, 65001),
      bgpNextHop: fc.constantFrom(null, "198.51.100.2"),
      direction: fc.constantFrom(null, 0, 1),
      ingressVrfId: fc.constantFrom(null, 7),
      flowEndMs: fc.constantFrom(null, T0 * 1000),
    });
    fc.assert(
      fc.property(flows, (fields) => {
        const flow = { ...emptyFlow(fields.protocol, fields.exporter, 0), bytes: 100, packets: 1, ...fields } as DecodedFlow;
        const options = { arrivalMs: T0 * 1000 + 5000, clockSkewed: false };
        expect(enricher.enrich(flow, options)).toEqual(expectedRow(flow, options));
      }),
      { numRuns: 1000 },
    );
    // The replaced and the withdrawn routes are gone.
    const sample = { ...emptyFlow("ipfix", "192.0.2.1", 0), srcAddr: "8.9.9.9", dstAddr: "100.64.1.1", inIfIndex: 10 };
    expect(enricher.enrich(sample, { arrivalMs: 0, clockSkewed: false })).toMatchObject({ as_src: 3356, as_dst: -1 });
  });

  it("writes rows that flows_raw accepts", async () => {
    const enricher = createEnricher(await loadEnrichmentSnapshot(stores));
    const flow = {
      ...emptyFlow("ipfix", "192.0.2.1", 0),
      srcAddr: "8.8.8.8",
      dstAddr: "2001:db8::1",
      inIfIndex: 10,
      outIfIndex: 30,
      bytes: 10,
    };
    const row = enricher.enrich(flow, { arrivalMs: T0 * 1000, clockSkewed: false });
    await chInsert(stores.ch, { name: "test.fixture", table: "flows_raw", values: [row] });
    const [back] = await chRows<Record<string, unknown>>(
      stores,
      "SELECT toString(src_addr) AS src, toString(dst_addr) AS dst, as_src, as_hnd, counted FROM flows_raw WHERE exporter_name = 'fra-er1'",
    );
    expect(back).toEqual({ src: "::ffff:8.8.8.8", dst: "2001:db8::1", as_src: 15169, as_hnd: 3356, counted: 1 });
  });
});

describe("recomputeTrackedAs", () => {
  const DAY = 86_400;
  const now = Math.floor(Date.now() / 1000);

  type Raw = {
    time_received: number;
    as_src: number;
    as_hnd: number;
    as_nxt: number;
    as_dst: number;
    bytes: number;
    sampling_rate: number;
    counted: number;
  };
  const raw = (time: number, ases: [number, number, number, number], bytes: number, counted = 1, rate = 10): Raw => ({
    time_received: time,
    as_src: ases[0],
    as_hnd: ases[1],
    as_nxt: ases[2],
    as_dst: ases[3],
    bytes,
    sampling_rate: rate,
    counted,
  });

  /** The expected members: operator, the top by traffic counted here, then the inventory's neighbours by number. */
  function expectedMembers(rows: Raw[], from: number, to: number): number[] {
    const traffic = new Map<number, number>();
    for (const row of rows) {
      if (!row.counted || row.time_received < from || row.time_received > to) continue;
      for (const asn of new Set([row.as_src, row.as_hnd, row.as_nxt, row.as_dst]))
        if (asn > 0 && asn !== OPERATOR_ASN) traffic.set(asn, (traffic.get(asn) ?? 0) + row.bytes * row.sampling_rate);
    }
    const top = [...traffic.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, TRACKED_TOP)
      .map(([asn]) => asn);
    const neighbours = [3356, 65010, 174].sort((a, b) => a - b).filter((asn) => !top.includes(asn));
    return [OPERATOR_ASN, ...top, ...neighbours];
  }

  const tracked = async (final: boolean) =>
    (
      await chRows<{ asn: number; rank: number }>(stores, `SELECT asn, rank FROM tracked_as ${final ? "FINAL" : ""} ORDER BY rank, asn`)
    ).map((r) => [Number(r.asn), Number(r.rank)]);

  it("tracks the operator, the top ASes by counted traffic of the last 7 days and the neighbours, and replaces the set", async () => {
    await chInsert(stores.ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 4242, rank: 5, updated_at: now - DAY }] });
    const rows: Raw[] = [];
    for (let i = 1; i <= 250; i++) rows.push(raw(now - (i % 6) * DAY - 60, [10_000 + i, 3356, OPERATOR_ASN, OPERATOR_ASN], i * 1000));
    rows.push(raw(now - 3600, [99_999, 174, OPERATOR_ASN, OPERATOR_ASN], 1e12, 0)); // re-exported: not counted
    rows.push(raw(now - 8 * DAY, [88_888, 3356, OPERATOR_ASN, OPERATOR_ASN], 1e12)); // older than 7 days
    rows.push(raw(now - 3600, [-1, -999, OPERATOR_ASN, -101], 1e12)); // special values only
    // One AS in every column counts once: 2,005,000 ranks it between AS 10200 and 10201 (4 times as much would rank it first).
    rows.push(raw(now - 3600, [20_001, 20_001, 20_001, 20_001], 200_500));
    await chInsert(stores.ch, { name: "test.fixture", table: "flows_raw", values: rows });

    const all = [
      ...rows,
      // The row written by the test above (fra-er1, T0, 10 bytes at rate 1).
      raw(T0, [15169, 3356, OPERATOR_ASN, OPERATOR_ASN], 10, 1, 1),
    ];
    const expected = expectedMembers(all, now - 7 * DAY, now);
    expect(expected.indexOf(20_001)).toBe(expected.indexOf(10_200) - 1);
    expect(expected).not.toContain(10_001);
    const count = await recomputeTrackedAs(stores, new Date(now * 1000));
    expect(count).toBe(expected.length);
    expect(await tracked(true)).toEqual(expected.map((asn, rank) => [asn, rank]));
    expect((await tracked(false)).map(([asn]) => asn)).not.toContain(4242);

    // A week later, with new traffic only: the old members leave, also for readers without FINAL (the aggregates' fold).
    const later = now + 8 * DAY;
    const fresh = [raw(later - 60, [30_000, 3356, OPERATOR_ASN, OPERATOR_ASN], 5000)];
    await chInsert(stores.ch, { name: "test.fixture", table: "flows_raw", values: fresh });
    const expectedLater = expectedMembers([...all, ...fresh], later - 7 * DAY, later);
    expect(await recomputeTrackedAs(stores, new Date(later * 1000))).toBe(expectedLater.length);
    expect(await tracked(true)).toEqual(expectedLater.map((asn, rank) => [asn, rank]));
    expect(new Set((await tracked(false)).map(([asn]) => asn))).toEqual(new Set(expectedLater));
  });
});
