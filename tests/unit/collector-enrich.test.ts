/**
 * Enrichment (enrich/enrich.ts) over the fixture network of tests/fixtures/enrichment-network.ts:
 * named cases with the values written out, then random flows against the fixture's independent
 * computation (expectedRow).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyFlow, type DecodedFlow, type FlowProtocol } from "~/features/collector/decode/flow-record";
import { createEnricher } from "~/features/collector/enrich/enrich";
import { FLOW_ROW_COLUMNS } from "~/features/collector/enrich/flow-row";
import { expectedRow, fixtureSnapshot, OPERATOR_ASN } from "../fixtures/enrichment-network";

const ARRIVAL = 1_790_000_123_456;
const options = { arrivalMs: ARRIVAL, clockSkewed: false };
const enricher = createEnricher(fixtureSnapshot());

function flow(overrides: Partial<DecodedFlow> = {}, protocol: FlowProtocol = "ipfix"): DecodedFlow {
  return {
    ...emptyFlow(protocol, "192.0.2.1", 0),
    ipVersion: 4,
    srcAddr: "8.8.8.8",
    dstAddr: "203.0.113.10",
    ipProtocol: 6,
    srcPort: 443,
    dstPort: 50000,
    bytes: 1500,
    packets: 1,
    samplingRate: 1000,
    ...overrides,
  };
}

const enrich = (f: DecodedFlow, o = options) => enricher.enrich(f, o);

describe("physical and logical interfaces", () => {
  it("looks up the logical ifIndex first and the physical one where the inventory knows only that", () => {
    // 10 and 30 are in the inventory of fra-er1; 555 and 556 are not.
    const physicalOnly = enrich(flow({ inIfIndex: null, outIfIndex: null, inPhysIfIndex: 10, outPhysIfIndex: 30 }));
    expect(physicalOnly).toMatchObject({ in_if: "xe-0/0/1", out_if: "ae1", in_if_index: 10, out_if_index: 30, as_hnd: 3356 });
    const unknownLogical = enrich(flow({ inIfIndex: 555, outIfIndex: 556, inPhysIfIndex: 10, outPhysIfIndex: 30 }));
    expect(unknownLogical).toMatchObject({ in_if: "xe-0/0/1", out_if: "ae1", in_if_index: 10, out_if_index: 30 });
    const bothKnown = enrich(flow({ inIfIndex: 11, outIfIndex: 30, inPhysIfIndex: 10, outPhysIfIndex: 20 }));
    expect(bothKnown).toMatchObject({ in_if: "xe-0/0/2", out_if: "ae1", in_if_index: 11, out_if_index: 30 });
    const neither = enrich(flow({ inIfIndex: 555, outIfIndex: null, inPhysIfIndex: 777, outPhysIfIndex: null }));
    expect(neither).toMatchObject({ in_if: "", in_if_index: 555, out_if_index: 0 });
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 555, outIfIndex: 556, inPhysIfIndex: 10, outPhysIfIndex: 30 }))).toEqual([]);
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 555, outIfIndex: null, inPhysIfIndex: 777, outPhysIfIndex: null }))).toEqual([555]);
  });
});

describe("VLANs and MPLS labels", () => {
  it("keeps the ingress tags outer first, the egress VLAN and the labels; 0 and [] when not said", () => {
    expect(enrich(flow({ vlans: [100, 2001], egressVlan: 300, mplsLabels: [16, 1_048_575, 0] }))).toMatchObject({
      src_vlan: 100,
      src_inner_vlan: 2001,
      dst_vlan: 300,
      mpls_labels: [16, 1_048_575, 0],
    });
    // A single tag has no inner one; a third QinQ tag has no column.
    expect(enrich(flow({ vlans: [7] }))).toMatchObject({ src_vlan: 7, src_inner_vlan: 0, dst_vlan: 0, mpls_labels: [] });
    expect(enrich(flow({ vlans: [10, 20, 30] }))).toMatchObject({ src_vlan: 10, src_inner_vlan: 20 });
    expect(enrich(flow())).toMatchObject({ src_vlan: 0, src_inner_vlan: 0, dst_vlan: 0, mpls_labels: [] });
  });
});

describe("exporter → router", () => {
  it("finds the router by any spelling of its exporter address", () => {
    for (const spelling of ["192.0.2.1", "::ffff:192.0.2.1", "::FFFF:c000:201", "2001:DB8:FFFF:0::1"])
      expect(enricher.routerOf(spelling), spelling).toBe("fra-er1");
    expect(enricher.routerOf("192.0.2.99")).toBeNull();
    expect(enricher.routerOf("not an address")).toBeNull();
    expect(enrich(flow({ exporter: "::ffff:192.0.2.1" })).exporter_address).toBe("::ffff:192.0.2.1");
    expect(enrich(flow({ exporter: "2001:db8:ffff::1" })).exporter_name).toBe("fra-er1");
  });

  it("keeps everything of an unknown exporter, with no router, no interface, the record's ASes or Untracked, counted", () => {
    const row = enrich(flow({ exporter: "192.0.2.99", inIfIndex: 10, outIfIndex: 30, srcAs: 15169, dstAs: null, direction: 1 }));
    expect(row).toMatchObject({
      exporter_address: "::ffff:192.0.2.99",
      exporter_name: "",
      ingress_router: "",
      in_if: "",
      egress_router: "",
      out_if: "",
      as_src: 15169,
      as_dst: -999,
      as_hnd: -999,
      as_nxt: -999,
      in_if_index: 10,
      out_if_index: 30,
      counted: 1,
      src_addr: "::ffff:8.8.8.8",
      bytes: 1500,
      packets: 1,
      sampling_rate: 1000,
    });
    expect(enricher.unknownIfIndexes(flow({ exporter: "192.0.2.99", inIfIndex: 10, outIfIndex: 30 }))).toEqual([10, 30]);
  });

  it("names the ifIndexes the inventory does not know for the exporter", () => {
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 10, outIfIndex: 30 }))).toEqual([]);
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 10, outIfIndex: 999 }))).toEqual([999]);
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 998, outIfIndex: 999 }))).toEqual([998, 999]);
    expect(enricher.unknownIfIndexes(flow({ inIfIndex: 0, outIfIndex: null }))).toEqual([]);
    expect(enricher.unknownIfIndexes(flow({ exporter: "192.0.2.2", inIfIndex: 10, outIfIndex: 10 }))).toEqual([10]);
  });

  it("sFlow: the agent address names the router, else the UDP source it came from; exporter_address is the agent's", () => {
    const relayed = flow({ exporter: "10.77.0.1", udpSource: "::ffff:192.0.2.1", inIfIndex: 10, outIfIndex: 30 }, "sflow5");
    const [direct, viaSource] = [enrich(flow({ inIfIndex: 10, outIfIndex: 30 }, "sflow5")), enrich(relayed)];
    expect(viaSource).toEqual({ ...direct, exporter_address: "::ffff:10.77.0.1" });
    expect(viaSource.exporter_name).toBe("fra-er1");
    expect(enricher.unknownIfIndexes(relayed)).toEqual([]);
    // An agent the inventory names wins over the address it was heard from.
    expect(enrich(flow({ exporter: "192.0.2.2", udpSource: "192.0.2.1" }, "sflow5")).exporter_name).toBe("ber-er1");
    expect(enrich(flow({ exporter: "10.77.0.1", udpSource: "192.0.2.99" }, "sflow5"))).toMatchObject({
      exporter_address: "::ffff:10.77.0.1",
      exporter_name: "",
    });
  });
});

describe("ingress", () => {
  it("external: the neighbour's AS hands over, the flow counts", () => {
    const row = enrich(flow({ inIfIndex: 10, outIfIndex: 30 }));
    expect(row).toMatchObject({
      ingress_router: "fra-er1",
      in_if: "xe-0/0/1",
      egress_router: "fra-er1",
      out_if: "ae1",
      as_src: 15169,
      as_hnd: 3356,
      as_nxt: OPERATOR_ASN,
      as_dst: OPERATOR_ASN,
      counted: 1,
      application: "Google",
      infrastructure: "Google Cloud",
      src_prefix_len: 24,
      dst_prefix_len: 24,
    });
  });

  it("external exchange port without a neighbour AS: the first AS of the path towards the source", () => {
    // 8.8.8.0/24's best path on fra1 is local preference 300: 3356 3356 3356 15169.
    expect(enrich(flow({ inIfIndex: 11, outIfIndex: 30 })).as_hnd).toBe(3356);
  });

  it("access: the operator hands over its own traffic; next hop is the egress neighbour", () => {
    const row = enrich(flow({ srcAddr: "203.0.113.10", dstAddr: "8.8.4.4", inIfIndex: 30, outIfIndex: 10 }));
    expect(row).toMatchObject({ as_src: OPERATOR_ASN, as_hnd: OPERATOR_ASN, as_nxt: 3356, as_dst: 3356, counted: 1, out_if: "xe-0/0/1" });
    expect(row.application).toBe("");
  });

  it("core: the traffic was counted where it entered", () => {
    const row = enrich(flow({ exporter: "192.0.2.2", inIfIndex: 100, outIfIndex: 130 }));
    expect(row).toMatchObject({ ingress_router: "ber-er1", in_if: "et-1/0/0", counted: 0, as_hnd: 174, egress_router: "ber-er1" });
  });

  it("unknown ingress interface: counts unless the record was exported on egress", () => {
    expect(enrich(flow({ inIfIndex: 555, direction: null })).counted).toBe(1);
    expect(enrich(flow({ inIfIndex: 555, direction: 0 })).counted).toBe(1);
    expect(enrich(flow({ inIfIndex: 555, direction: 1 })).counted).toBe(0);
    expect(enrich(flow({ inIfIndex: 555 })).in_if).toBe("");
    expect(enrich(flow({ inIfIndex: 555 })).in_if_index).toBe(555);
  });

  it("an egress-direction record on an external out interface keeps in and out and counts by its ingress interface", () => {
    const fromAccess = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "8.8.8.8", inIfIndex: 30, outIfIndex: 10, direction: 1 }));
    expect(fromAccess).toMatchObject({ in_if: "ae1", out_if: "xe-0/0/1", as_hnd: OPERATOR_ASN, as_nxt: 3356, counted: 1 });
    const fromCore = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "8.8.8.8", inIfIndex: 20, outIfIndex: 10, direction: 1 }));
    expect(fromCore).toMatchObject({ in_if: "et-0/0/0", out_if: "xe-0/0/1", counted: 0 });
  });
});

describe("egress over a core link", () => {
  it("names both ends of the link and takes the egress router from the routing table's next hop", () => {
    const row = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "8.8.8.8", inIfIndex: 30, outIfIndex: 20 }));
    expect(row).toMatchObject({
      link_start_router: "fra-er1",
      link_start_if: "et-0/0/0",
      link_end_router: "ber-er1",
      link_end_if: "et-1/0/0",
      out_if: "",
      // 8.8.8.0/24's best path on fra1 has next hop 203.0.113.253: no router's loopback.
      egress_router: "",
    });
    const viaBerlin = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "198.18.1.1", inIfIndex: 30, outIfIndex: 20 }));
    expect(viaBerlin).toMatchObject({ egress_router: "ber-er1", as_nxt: 6939, as_dst: 64496 });
  });

  it("looks up in every table of the router's vantage points, the longest match winning", () => {
    const row = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "8.8.8.200", inIfIndex: 30, outIfIndex: 20 }));
    expect(row).toMatchObject({ as_nxt: 1299, as_dst: 15169, dst_prefix_len: 25, egress_router: "ber-er1" });
    expect(enrich(flow({ srcAddr: "9.1.1.1", inIfIndex: 11 }))).toMatchObject({ as_src: 2914, as_hnd: 2914 });
  });

  it("prefers the record's BGP next hop", () => {
    const row = enrich(flow({ srcAddr: "203.0.113.9", dstAddr: "198.18.1.1", inIfIndex: 30, outIfIndex: 20, bgpNextHop: "198.51.100.3" }));
    expect(row.egress_router).toBe("ham-cr1");
    expect(row.next_hop).toBe("::ffff:198.51.100.3");
    const ipHop = enrich(flow({ nextHop: "2001:db8::99", bgpNextHop: "0.0.0.0" }));
    expect(ipHop.next_hop).toBe("2001:db8::99");
  });
});

describe("VRF", () => {
  it("uses the ingress interface's VRF table", () => {
    const row = enrich(flow({ srcAddr: "10.1.2.3", dstAddr: "8.8.8.8", inIfIndex: 40, outIfIndex: 10 }));
    expect(row).toMatchObject({ vrf_name: "CUST-A", as_src: 65010, as_hnd: 65010, as_dst: 15169, src_prefix_len: 8 });
  });

  it("takes the record's VRF id as vrf-<id> only for an interface the inventory does not know", () => {
    // The inventory's interface is in the global table: the record's VRF id does not override it.
    const row = enrich(flow({ srcAddr: "172.16.5.5", dstAddr: "8.8.8.8", inIfIndex: 10, ingressVrfId: 7 }));
    expect(row).toMatchObject({ vrf_name: "", as_src: -1, as_dst: 15169 });
    const unknownIf = enrich(flow({ srcAddr: "172.16.5.5", dstAddr: "8.8.8.8", inIfIndex: 555, ingressVrfId: 7 }));
    expect(unknownIf).toMatchObject({ vrf_name: "vrf-7", as_src: 65020, as_dst: -1 });
  });

  it("falls back to the global table for a VRF without a table of its own", () => {
    const row = enrich(flow({ srcAddr: "203.0.113.4", dstAddr: "8.8.8.8", inIfIndex: 41, outIfIndex: 10 }));
    expect(row).toMatchObject({ vrf_name: "MGMT", as_src: OPERATOR_ASN, as_dst: 15169 });
  });
});

describe("source and destination AS", () => {
  it("takes the record's AS when present and not 0, the routing table's origin otherwise", () => {
    expect(enrich(flow({ srcAs: 65555, inIfIndex: 10 })).as_src).toBe(65555);
    expect(enrich(flow({ srcAs: 0, inIfIndex: 10 })).as_src).toBe(15169);
    expect(enrich(flow({ dstAs: 65556, dstAddr: "8.8.8.8", inIfIndex: 10 })).as_dst).toBe(65556);
  });

  it("Not routable (-1) outside every route; Untracked (-999) without a routing table or address", () => {
    const row = enrich(flow({ srcAddr: "192.168.1.1", dstAddr: "203.0.113.1", inIfIndex: 11 }));
    expect(row).toMatchObject({ as_src: -1, as_hnd: -1, src_prefix_len: 0 });
    const noTable = enrich(flow({ exporter: "192.0.2.3", inIfIndex: 1 }));
    expect(noTable).toMatchObject({ as_src: -999, as_dst: -999, as_hnd: -999, as_nxt: -999, counted: 0, exporter_name: "ham-cr1" });
    const berlinV6 = enrich(flow({ exporter: "192.0.2.2", ipVersion: 6, srcAddr: "2a00:1450::1", dstAddr: "2001:db8::1" }));
    expect(berlinV6).toMatchObject({ as_src: -999, as_dst: -999, src_addr: "2a00:1450::1" });
    const noAddress = enrich(flow({ srcAddr: null, dstAddr: "not an address" }));
    expect(noAddress).toMatchObject({ as_src: -999, as_dst: -999, src_addr: "::", dst_addr: "::" });
  });

  it("IPv6: longest match, the operator's own space, and the sFlow path's first AS as next hop", () => {
    const row = enrich(flow({ ipVersion: 6, srcAddr: "2a00:1450:4001::5", dstAddr: "2001:db8:1::1", inIfIndex: 11, outIfIndex: 30 }));
    expect(row).toMatchObject({ as_src: 15169, as_hnd: 174, as_dst: OPERATOR_ASN, as_nxt: OPERATOR_ASN, src_prefix_len: 48 });
    const sflow = enrich(flow({ srcAddr: "203.0.113.1", dstAddr: "8.8.8.8", inIfIndex: 30, asPath: [1299, 15169] }, "sflow5"));
    expect(sflow.as_nxt).toBe(1299);
  });

  it("without an operator AS, the operator's own space is Untracked", () => {
    const plain = createEnricher(fixtureSnapshot(null));
    const row = plain.enrich(flow({ srcAddr: "203.0.113.1", dstAddr: "8.8.8.8", inIfIndex: 30, outIfIndex: 10 }), options);
    expect(row).toMatchObject({ as_src: -999, as_hnd: -999, as_nxt: 3356, as_dst: 15169 });
  });
});

describe("time", () => {
  it("is the flow's end, else the arrival (skewed clock, sFlow, no end)", () => {
    expect(enrich(flow({ flowEndMs: 1_790_000_000_999 })).time_received).toBe(1_790_000_000);
    expect(enrich(flow({ flowEndMs: 1_790_000_000_999 }), { arrivalMs: ARRIVAL, clockSkewed: true }).time_received).toBe(1_790_000_123);
    expect(enrich(flow({ flowEndMs: 1_790_000_000_999 }, "sflow5")).time_received).toBe(1_790_000_123);
    expect(enrich(flow({ flowEndMs: null })).time_received).toBe(1_790_000_123);
  });
});

describe("against the independent computation", () => {
  const exporters = ["192.0.2.1", "::ffff:192.0.2.1", "2001:db8:ffff::1", "192.0.2.2", "192.0.2.3", "192.0.2.99", "2001:db8:1::1"];
  const addresses = [
    "8.8.8.8",
    "8.8.4.4",
    "8.8.8.200",
    "8.1.2.3",
    "9.9.9.9",
    "10.1.1.1",
    "172.16.0.1",
    "198.18.0.1",
    "198.19.200.1",
    "203.0.113.77",
    "::ffff:8.8.8.8",
    "2a00:1450::1",
    "2a00:1450:4001::1",
    "2001:db8::5",
    "2001:db8:f000::1",
    "fe80::1",
    "junk",
  ];
  const ifIndex = fc.constantFrom(null, 0, 10, 11, 20, 30, 40, 41, 100, 110, 130, 1, 777);
  const asn = fc.constantFrom(null, 0, 15169, 64500, 4_200_000_000);
  const hop = fc.constantFrom(null, "0.0.0.0", "198.51.100.1", "198.51.100.2", "::ffff:198.51.100.3", "203.0.113.254", "2001:db8:100::1");
  const flows = fc.record({
    protocol: fc.constantFrom<FlowProtocol>("netflow5", "netflow9", "ipfix", "sflow5"),
    exporter: fc.constantFrom(...exporters),
    samplingRate: fc.constantFrom(1, 100, 4096),
    ipVersion: fc.constantFrom(null, 4, 6),
    srcAddr: fc.constantFrom(null, ...addresses),
    dstAddr: fc.constantFrom(null, ...addresses),
    srcPrefixLen: fc.constantFrom(null, 0, 22),
    dstPrefixLen: fc.constantFrom(null, 0, 19),
    inIfIndex: ifIndex,
    outIfIndex: ifIndex,
    inPhysIfIndex: ifIndex,
    outPhysIfIndex: ifIndex,
    icmpType: fc.constantFrom(null, 0, 8, 255),
    icmpCode: fc.constantFrom(null, 0, 3),
    forwardingStatus: fc.constantFrom(null, 0, 0x40, 0x82, 0xc0),
    postNatSrcAddr: fc.constantFrom(null, "0.0.0.0", "::", "198.51.100.7", "2001:db8::7"),
    postNatDstAddr: fc.constantFrom(null, "203.0.113.9"),
    postNatSrcPort: fc.constantFrom(null, 0, 61_000),
    postNatDstPort: fc.constantFrom(null, 443),
    vlans: fc.constantFrom<number[]>([], [1], [4094], [100, 2001], [10, 20, 30]),
    egressVlan: fc.constantFrom(null, 1, 4094),
    mplsLabels: fc.constantFrom([], [16], [299_792, 1_048_575, 3]),
    srcAs: asn,
    dstAs: asn,
    asPath: fc.constantFrom(null, [], [1299, 15169]),
    nextHop: hop,
    bgpNextHop: hop,
    direction: fc.constantFrom(null, 0, 1),
    ingressVrfId: fc.constantFrom(null, 0, 7, 9),
    flowEndMs: fc.constantFrom(null, 1_790_000_000_500),
    bytes: fc.nat(1e9),
    packets: fc.nat(1e6),
  });

  it.each([OPERATOR_ASN, null])("gives the same row for random flows (operator %s)", (operator) => {
    const subject = createEnricher(fixtureSnapshot(operator));
    fc.assert(
      fc.property(flows, fc.boolean(), (fields, clockSkewed) => {
        const f = { ...emptyFlow(fields.protocol, fields.exporter, 0), ...fields } as DecodedFlow;
        const o = { arrivalMs: ARRIVAL, clockSkewed };
        const row = subject.enrich(f, o);
        expect(Object.keys(row).sort()).toEqual([...FLOW_ROW_COLUMNS].sort());
        expect(row).toEqual(expectedRow(f, o, operator));
      }),
      { numRuns: 3000 },
    );
  });
});
