/**
 * sFlow v5 datagrams → flows: the datagram header, flow and expanded flow samples, the IPv4/IPv6
 * data records, the extended switch, router and gateway records, and counter samples, built with
 * the test's encoder (tests/fixtures/sflow-encoder.ts, written from sflow_version_5.txt).
 */
import { describe, expect, it } from "vitest";
import { emptyFlow } from "~/features/collector/decode/flow-record";
import { decodeSflow } from "~/features/collector/decode/sflow";
import { ETHERTYPE, PROTOCOL, ethernet, ipv4, tcp } from "../fixtures/packet-encoder";
import {
  counterSample,
  datagram,
  extendedGatewayRecord,
  extendedRouterRecord,
  extendedSwitchRecord,
  flowSample,
  rawHeaderRecord,
  sampledEthernetRecord,
  sampledIpRecord,
  tagged,
  type Interface,
} from "../fixtures/sflow-encoder";

const EXPORTER = "198.51.100.7";

const HEADER = rawHeaderRecord({
  frameLength: 1000,
  header: ethernet({
    etherType: ETHERTYPE.ipv4,
    payload: ipv4({
      src: "192.0.2.10",
      dst: "203.0.113.20",
      protocol: PROTOCOL.tcp,
      payload: tcp({ srcPort: 1234, dstPort: 80, flags: 0x10 }),
    }),
  }),
});

const V4_DATA = sampledIpRecord({
  length: 576,
  protocol: 17,
  src: "192.0.2.33",
  dst: "198.51.100.44",
  srcPort: 123,
  dstPort: 40001,
  tcpFlags: 0,
});

function sample(records: Buffer[], opts: { samplingRate?: number; input?: Interface; output?: Interface; expanded?: boolean } = {}) {
  return flowSample({
    expanded: opts.expanded,
    samplingRate: opts.samplingRate ?? 1000,
    input: opts.input ?? { value: 3 },
    output: opts.output ?? { value: 7 },
    records,
  });
}

function decodeOne(records: Buffer[], opts: Parameters<typeof sample>[1] = {}) {
  const result = decodeSflow(EXPORTER, datagram({ samples: [sample(records, opts)] }), 0);
  expect(result.problems).toEqual([]);
  expect(result.flows).toHaveLength(1);
  return result.flows[0];
}

describe("sFlow datagram header", () => {
  it("gives protocol sflow5, the agent address as exporter with the UDP source beside it, the sub-agent id as source id; no times", () => {
    const result = decodeSflow(EXPORTER, datagram({ agent: "10.1.1.1", subAgentId: 42, samples: [sample([HEADER])] }), 1_700_000_000_000);
    expect(result).toMatchObject({ protocol: "sflow5", problems: [], templateMisses: 0, counterSamples: 0 });
    expect(result.agent).toEqual({ address: "10.1.1.1", subAgentId: 42 });
    expect(result.flows).toEqual([
      {
        ...emptyFlow("sflow5", "10.1.1.1", 42),
        udpSource: EXPORTER,
        samplingRate: 1000,
        ipVersion: 4,
        srcAddr: "192.0.2.10",
        dstAddr: "203.0.113.20",
        srcPort: 1234,
        dstPort: 80,
        ipProtocol: 6,
        tcpFlags: 0x10,
        bytes: 1000,
        packets: 1,
        inIfIndex: 3,
        outIfIndex: 7,
        // What the header gave beyond the flow's fields (tests/unit/collector-packet-header.test.ts checks each).
        header: expect.objectContaining({
          counted: "outer",
          srcAddr: "192.0.2.10",
          ttl: 64,
          fragmentFlags: 2,
          impliedLength: 54,
          stop: null,
        }),
      },
    ]);
  });

  it("names no second address when the agent sends from its own address", () => {
    const result = decodeSflow(EXPORTER, datagram({ agent: EXPORTER, samples: [sample([V4_DATA])] }), 0);
    expect(result.agent).toEqual({ address: EXPORTER, subAgentId: 0 });
    expect(result.flows[0]).toMatchObject({ exporter: EXPORTER, udpSource: null });
  });

  it("reads an IPv6 agent address, an IPv4-mapped one dotted; an unknown, unspecified or loopback agent leaves the UDP source as exporter", () => {
    const cases: [string | null, string | null][] = [
      ["2001:db8::1", "2001:db8::1"],
      ["::ffff:10.9.8.7", "10.9.8.7"],
      [null, null],
      ["0.0.0.0", null],
      ["::", null],
      // Unconfigured agents report loopback, several devices alike: no device is named.
      ["127.0.0.1", null],
      ["::ffff:127.0.0.1", null],
      ["::1", null],
    ];
    for (const [agent, exporter] of cases) {
      const result = decodeSflow(EXPORTER, datagram({ agent, subAgentId: 3, samples: [sample([V4_DATA])] }), 0);
      expect(result.problems).toEqual([]);
      expect(result.agent).toEqual(exporter === null ? null : { address: exporter, subAgentId: 3 });
      expect(result.flows[0]).toMatchObject({
        exporter: exporter ?? EXPORTER,
        udpSource: exporter === null ? null : EXPORTER,
        sourceId: 3,
        srcAddr: "192.0.2.33",
        bytes: 576,
      });
    }
  });

  it("gives one flow per flow sample, each with its own sampling rate", () => {
    const payload = datagram({ samples: [sample([HEADER], { samplingRate: 512 }), sample([V4_DATA], { samplingRate: 4096 })] });
    const { flows } = decodeSflow(EXPORTER, payload, 0);
    expect(flows.map((f) => [f.samplingRate, f.srcAddr])).toEqual([
      [512, "192.0.2.10"],
      [4096, "192.0.2.33"],
    ]);
  });

  it("takes a sampling rate of 0 as unsampled", () => {
    expect(decodeOne([HEADER], { samplingRate: 0 }).samplingRate).toBe(1);
  });
});

describe("sFlow flow sample interfaces", () => {
  it.each([
    ["ifIndex", { value: 12 }, { value: 13 }, 12, 13],
    ["output discarded (format 1)", { value: 5 }, { format: 1, value: 258 }, 5, null],
    ["several outputs (format 2)", { value: 5 }, { format: 2, value: 3 }, 5, null],
    ["no interface (0x3FFFFFFF)", { value: 0x3fffffff }, { value: 0x3fffffff }, null, null],
    ["not known (0)", { value: 0 }, { value: 9 }, null, 9],
  ] as [string, Interface, Interface, number | null, number | null][])("compact form: %s", (_name, input, output, inIf, outIf) => {
    expect(decodeOne([HEADER], { input, output })).toMatchObject({ inIfIndex: inIf, outIfIndex: outIf });
  });

  it("expanded form: format and value in separate words, values above 30 bits kept", () => {
    const flow = decodeOne([HEADER], { expanded: true, input: { value: 0x40000001 }, output: { value: 2_000_000_000 } });
    expect(flow).toMatchObject({ inIfIndex: 0x40000001, outIfIndex: 2_000_000_000, samplingRate: 1000, srcAddr: "192.0.2.10" });
    expect(decodeOne([HEADER], { expanded: true, input: { value: 4 }, output: { format: 1, value: 1 } })).toMatchObject({
      inIfIndex: 4,
      outIfIndex: null,
    });
  });
});

describe("sFlow sampled IPv4 and IPv6 data records", () => {
  it("reads addresses, ports, protocol, TCP flags; the IP length is the flow's bytes", () => {
    expect(decodeOne([V4_DATA])).toMatchObject({
      ipVersion: 4,
      srcAddr: "192.0.2.33",
      dstAddr: "198.51.100.44",
      srcPort: 123,
      dstPort: 40001,
      ipProtocol: 17,
      tcpFlags: 0,
      bytes: 576,
      packets: 1,
    });
    const v6 = sampledIpRecord({
      length: 1280,
      protocol: 6,
      src: "2001:db8:a::1",
      dst: "2001:db8:b::2",
      srcPort: 443,
      dstPort: 55555,
      tcpFlags: 0x12,
    });
    expect(decodeOne([v6])).toMatchObject({
      ipVersion: 6,
      srcAddr: "2001:db8:a::1",
      dstAddr: "2001:db8:b::2",
      srcPort: 443,
      dstPort: 55555,
      ipProtocol: 6,
      tcpFlags: 0x12,
      bytes: 1280,
    });
  });

  it("takes the first description of the packet when a sample carries two", () => {
    expect(decodeOne([HEADER, V4_DATA])).toMatchObject({ srcAddr: "192.0.2.10", bytes: 1000 });
  });

  it("reads the length of a sampled Ethernet record as bytes", () => {
    expect(decodeOne([sampledEthernetRecord({ length: 1518 })])).toMatchObject({ bytes: 1518, packets: 1, ipVersion: null });
  });
});

describe("sFlow extended records", () => {
  it("extended router: next hop and prefix lengths, in any order with the packet record", () => {
    expect(decodeOne([extendedRouterRecord({ nextHop: "192.0.2.254", srcMaskLen: 24, dstMaskLen: 16 }), HEADER])).toMatchObject({
      nextHop: "192.0.2.254",
      srcPrefixLen: 24,
      dstPrefixLen: 16,
      srcAddr: "192.0.2.10",
    });
    expect(decodeOne([HEADER, extendedRouterRecord({ nextHop: "fe80::1", srcMaskLen: 48, dstMaskLen: 32 })])).toMatchObject({
      nextHop: "fe80::1",
      srcPrefixLen: 48,
      dstPrefixLen: 32,
    });
  });

  it("extended gateway: BGP next hop, source AS, the path flattened (sets too), destination AS = last of the path", () => {
    const gateway = extendedGatewayRecord({
      nextHop: "203.0.113.1",
      as: 64500,
      srcAs: 64496,
      srcPeerAs: 64497,
      path: [
        { type: 2, asns: [64501, 4_200_000_000] },
        { type: 1, asns: [64510, 64511] },
      ],
      communities: [0xfde80001],
    });
    expect(decodeOne([HEADER, gateway])).toMatchObject({
      bgpNextHop: "203.0.113.1",
      srcAs: 64496,
      dstAs: 64511,
      asPath: [64501, 4_200_000_000, 64510, 64511],
      nextHop: null,
    });
  });

  it("extended gateway with an empty path: the destination is in the router's own AS", () => {
    const gateway = extendedGatewayRecord({ nextHop: "2001:db8::ff", as: 64500, srcAs: 0, srcPeerAs: 0, path: [] });
    expect(decodeOne([HEADER, gateway])).toMatchObject({ bgpNextHop: "2001:db8::ff", srcAs: 0, dstAs: 64500, asPath: [] });
  });

  it("extended switch: its source VLAN when the sampled header had no tag (and the VLAN is known); the header's tags otherwise", () => {
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 300, dstVlan: 301 })]).vlans).toEqual([300]);
    const tagged8021q = rawHeaderRecord({
      frameLength: 100,
      header: ethernet({
        vlans: [55],
        etherType: ETHERTYPE.ipv4,
        payload: ipv4({ src: "192.0.2.1", dst: "192.0.2.2", protocol: PROTOCOL.tcp, payload: tcp({ srcPort: 1, dstPort: 2, flags: 0 }) }),
      }),
    });
    expect(decodeOne([extendedSwitchRecord({ srcVlan: 300, dstVlan: 301 }), tagged8021q]).vlans).toEqual([55]);
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 0, dstVlan: 0 })]).vlans).toEqual([]);
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 0xffffffff, dstVlan: 100 })]).vlans).toEqual([]);
  });

  it("extended switch: its destination VLAN is the egress VLAN (when known), whatever the header's tags", () => {
    expect(decodeOne([HEADER]).egressVlan).toBeNull();
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 300, dstVlan: 301 })]).egressVlan).toBe(301);
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 300, dstVlan: 0 })]).egressVlan).toBeNull();
    expect(decodeOne([HEADER, extendedSwitchRecord({ srcVlan: 300, dstVlan: 0xffffffff })]).egressVlan).toBeNull();
    // A record cut after the source VLAN still gives that one, and no egress VLAN.
    const cut = extendedSwitchRecord({ srcVlan: 300, dstVlan: 301 }).subarray(0, 12);
    cut.writeUInt32BE(4, 4);
    expect(decodeOne([HEADER, cut])).toMatchObject({ vlans: [300], egressVlan: null });
  });

  it("steps over records of other formats and enterprises by their length", () => {
    const unknown = [
      tagged(2000, Buffer.alloc(12, 0xff)),
      tagged(1, Buffer.alloc(20, 0xee), { enterprise: 4413 }),
      tagged(1010, Buffer.alloc(0)),
    ];
    expect(decodeOne([...unknown, V4_DATA, ...unknown])).toMatchObject({ srcAddr: "192.0.2.33", bytes: 576 });
  });
});

describe("sFlow counter samples and other samples", () => {
  it("counts counter samples (compact and expanded) and makes no flow of them", () => {
    const payload = datagram({
      samples: [
        counterSample({ ifIndex: 1 }),
        sample([HEADER]),
        counterSample({ ifIndex: 2, expanded: true }),
        sample([V4_DATA], { expanded: true }),
      ],
    });
    const result = decodeSflow(EXPORTER, payload, 0);
    expect(result.problems).toEqual([]);
    expect(result.counterSamples).toBe(2);
    expect(result.flows.map((f) => f.srcAddr)).toEqual(["192.0.2.10", "192.0.2.33"]);
  });

  it("steps over samples of other formats and enterprises", () => {
    const payload = datagram({ samples: [tagged(5, Buffer.alloc(16)), tagged(1, Buffer.alloc(8), { enterprise: 9 }), sample([HEADER])] });
    const result = decodeSflow(EXPORTER, payload, 0);
    expect(result).toMatchObject({ problems: [], counterSamples: 0 });
    expect(result.flows).toHaveLength(1);
  });

  it("reports a flow sample that describes no packet, and makes no flow of it", () => {
    const result = decodeSflow(EXPORTER, datagram({ samples: [sample([extendedSwitchRecord({ srcVlan: 1, dstVlan: 1 })])] }), 0);
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([{ reason: "unsupported", detail: expect.stringContaining("no packet") }]);
  });
});
