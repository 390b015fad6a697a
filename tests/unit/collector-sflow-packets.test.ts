/**
 * The raw packet header record: each path through the layers (Ethernet, VLAN tags, MPLS, IPv4,
 * IPv6 extension headers, TCP/UDP/ICMP, VXLAN) and headers cut short, with packets built by the
 * test's own encoder, as flows of an sFlow datagram — and a header the parser stops in counted as
 * a problem beside its flow. Every layer's fields one by one: tests/unit/collector-packet-header.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { DecodedFlow } from "~/features/collector/decode/flow-record";
import type { HeaderStopReason } from "~/features/collector/decode/packet-header";
import { decodeSflow } from "~/features/collector/decode/sflow";
import { ETHERTYPE, PROTOCOL, controlWord, ethernet, icmp, ipv4, ipv6, mpls, tcp, udp, vxlan } from "../fixtures/packet-encoder";
import { datagram, flowSample, rawHeaderRecord } from "../fixtures/sflow-encoder";

function decodeHeader(
  header: Buffer,
  opts: { frameLength?: number; headerProtocol?: number; problem?: HeaderStopReason } = {},
): DecodedFlow {
  const payload = datagram({
    samples: [
      flowSample({
        samplingRate: 2048,
        input: { value: 3 },
        output: { value: 7 },
        records: [rawHeaderRecord({ headerProtocol: opts.headerProtocol, frameLength: opts.frameLength ?? 1500, header })],
      }),
    ],
  });
  const result = decodeSflow("198.51.100.7", payload, 0);
  expect(result.problems).toEqual(opts.problem ? [{ reason: opts.problem, detail: expect.stringMatching(/^sampled header: /) }] : []);
  expect(result.flows).toHaveLength(1);
  return result.flows[0];
}

const v4tcp = (flags = 0x18) =>
  ipv4({ src: "192.0.2.10", dst: "203.0.113.20", protocol: PROTOCOL.tcp, payload: tcp({ srcPort: 40000, dstPort: 443, flags }) });
const v6udp = () =>
  ipv6({ src: "2001:db8::10", dst: "2001:db8:1::20", nextHeader: PROTOCOL.udp, payload: udp({ srcPort: 5353, dstPort: 53 }) });

const TCP_V4 = {
  ipVersion: 4,
  srcAddr: "192.0.2.10",
  dstAddr: "203.0.113.20",
  ipProtocol: 6,
  srcPort: 40000,
  dstPort: 443,
  tcpFlags: 0x18,
};
const UDP_V6 = {
  ipVersion: 6,
  srcAddr: "2001:db8::10",
  dstAddr: "2001:db8:1::20",
  ipProtocol: 17,
  srcPort: 5353,
  dstPort: 53,
  tcpFlags: null,
};

describe("sFlow raw packet header: Ethernet and VLAN tags", () => {
  it("reads Ethernet → IPv4 → TCP: addresses, ports, flags; the frame length is the flow's bytes, one packet", () => {
    const flow = decodeHeader(ethernet({ etherType: ETHERTYPE.ipv4, payload: v4tcp() }), { frameLength: 1514 });
    expect(flow).toMatchObject({ ...TCP_V4, bytes: 1514, packets: 1, vlans: [], icmpType: null, icmpCode: null });
  });

  it("reads one 802.1Q tag (the VLAN id without its priority bits)", () => {
    expect(decodeHeader(ethernet({ vlans: [100], etherType: ETHERTYPE.ipv6, payload: v6udp() }))).toMatchObject({
      ...UDP_V6,
      vlans: [100],
    });
  });

  it.each([
    ["802.1ad outer, 802.1Q inner", [[0x88a8, 200], 300]],
    ["0x9100 outer, 802.1Q inner", [[0x9100, 4000], 1]],
  ])("reads QinQ (%s), outer first", (_name, vlans) => {
    const flow = decodeHeader(ethernet({ vlans: vlans as [number, number][], etherType: ETHERTYPE.ipv4, payload: v4tcp() }));
    const ids = (vlans as ([number, number] | number)[]).map((tag) => (typeof tag === "number" ? tag : tag[1]));
    expect(flow).toMatchObject({ ...TCP_V4, vlans: ids });
  });

  it("keeps a frame that is not IP as bytes only, counted as header_not_ip", () => {
    const flow = decodeHeader(ethernet({ vlans: [5], etherType: ETHERTYPE.arp, payload: Buffer.alloc(28) }), {
      frameLength: 64,
      problem: "header_not_ip",
    });
    expect(flow).toMatchObject({ vlans: [5], ipVersion: null, srcAddr: null, ipProtocol: null, bytes: 64, packets: 1 });
  });

  it("reads bare IPv4 and IPv6 headers (header protocols 11 and 12)", () => {
    expect(decodeHeader(v4tcp(), { headerProtocol: 11 })).toMatchObject(TCP_V4);
    expect(decodeHeader(v6udp(), { headerProtocol: 12 })).toMatchObject(UDP_V6);
  });

  it("keeps only the bytes of a header protocol it does not parse, counted as header_unsupported", () => {
    expect(decodeHeader(v4tcp(), { headerProtocol: 7, frameLength: 99, problem: "header_unsupported" })).toMatchObject({
      bytes: 99,
      ipVersion: null,
      srcAddr: null,
      header: { stop: "header_unsupported", stopDetail: "sFlow header protocol 7" },
    });
  });
});

describe("sFlow raw packet header: MPLS", () => {
  it("walks the label stack to bottom-of-stack and finds IPv4 by its version nibble", () => {
    const flow = decodeHeader(ethernet({ etherType: ETHERTYPE.mpls, payload: mpls([16001, 24005, 3], v4tcp()) }));
    expect(flow).toMatchObject(TCP_V4);
  });

  it("finds IPv6 under one label, also on the multicast MPLS ethertype and after a VLAN tag", () => {
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.mplsMulticast, payload: mpls([299776], v6udp()) }))).toMatchObject(UDP_V6);
    expect(decodeHeader(ethernet({ vlans: [42], etherType: ETHERTYPE.mpls, payload: mpls([17, 18], v6udp()) }))).toMatchObject({
      ...UDP_V6,
      vlans: [42],
    });
  });

  it("reads Ethernet over MPLS after the pseudowire control word; the labels stay in the header", () => {
    const flow = decodeHeader(
      ethernet({
        etherType: ETHERTYPE.mpls,
        payload: mpls([100, 200], controlWord(1, ethernet({ etherType: ETHERTYPE.ipv4, payload: v4tcp() }))),
      }),
    );
    expect(flow).toMatchObject({ ...TCP_V4, vlans: [], header: { mplsLabels: [100, 200], encapsulations: ["eompls"] } });
  });

  it("stops at a payload that is neither IP nor a control word, counted as header_unsupported", () => {
    const flow = decodeHeader(ethernet({ etherType: ETHERTYPE.mpls, payload: mpls([100], Buffer.alloc(40, 0x22)) }), {
      problem: "header_unsupported",
    });
    expect(flow).toMatchObject({ ipVersion: null, srcAddr: null, bytes: 1500, packets: 1 });
  });
});

describe("sFlow raw packet header: IPv4 and IPv6", () => {
  it("finds the transport header after IPv4 options", () => {
    const packet = ipv4({
      src: "192.0.2.10",
      dst: "203.0.113.20",
      protocol: PROTOCOL.tcp,
      options: Buffer.from([1, 1, 1, 0, 1, 1, 1, 0]),
      payload: tcp({ srcPort: 40000, dstPort: 443, flags: 0x18 }),
    });
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv4, payload: packet }))).toMatchObject(TCP_V4);
  });

  it("reads no ports from a later IPv4 fragment (its payload is not a transport header)", () => {
    const packet = ipv4({
      src: "192.0.2.10",
      dst: "203.0.113.20",
      protocol: PROTOCOL.udp,
      fragmentOffset: 185,
      payload: Buffer.alloc(32, 0xab),
    });
    const flow = decodeHeader(ethernet({ etherType: ETHERTYPE.ipv4, payload: packet }));
    expect(flow).toMatchObject({ ipVersion: 4, ipProtocol: 17, srcPort: null, dstPort: null });
  });

  it("walks hop-by-hop, routing, destination options and AH headers to TCP", () => {
    const packet = ipv6({
      src: "2001:db8::10",
      dst: "2001:db8:1::20",
      nextHeader: PROTOCOL.tcp,
      extensions: [
        { type: 0, length: 0 },
        { type: 43, length: 2 },
        { type: 60, length: 1 },
        { type: 51, length: 4 },
      ],
      payload: tcp({ srcPort: 179, dstPort: 50123, flags: 0x02 }),
    });
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv6, payload: packet }))).toMatchObject({
      ipVersion: 6,
      ipProtocol: 6,
      srcPort: 179,
      dstPort: 50123,
      tcpFlags: 0x02,
    });
  });

  it("reads ports after a first IPv6 fragment header, none after a later one", () => {
    const first = ipv6({ ...fragmentOf(0) });
    const later = ipv6({ ...fragmentOf(100) });
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv6, payload: first }))).toMatchObject(UDP_V6);
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv6, payload: later }))).toMatchObject({
      ipProtocol: 17,
      srcPort: null,
      dstPort: null,
    });
  });

  it("reads ICMP and ICMPv6 type and code, no ports", () => {
    const echo = ipv4({ src: "192.0.2.1", dst: "192.0.2.2", protocol: PROTOCOL.icmp, payload: icmp({ type: 8, code: 0 }) });
    const unreachable = ipv6({ src: "2001:db8::1", dst: "2001:db8::2", nextHeader: PROTOCOL.icmpv6, payload: icmp({ type: 1, code: 4 }) });
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv4, payload: echo }))).toMatchObject({
      ipProtocol: 1,
      icmpType: 8,
      icmpCode: 0,
      srcPort: null,
    });
    expect(decodeHeader(ethernet({ etherType: ETHERTYPE.ipv6, payload: unreachable }))).toMatchObject({
      ipProtocol: 58,
      icmpType: 1,
      icmpCode: 4,
      dstPort: null,
    });
  });
});

function fragmentOf(fragmentOffset: number) {
  return {
    src: "2001:db8::10",
    dst: "2001:db8:1::20",
    nextHeader: PROTOCOL.udp,
    extensions: [{ type: 44 as const, fragmentOffset }],
    payload: fragmentOffset === 0 ? udp({ srcPort: 5353, dstPort: 53 }) : Buffer.alloc(16, 0xcd),
  };
}

describe("sFlow raw packet header: VXLAN", () => {
  const inner = ethernet({ etherType: ETHERTYPE.ipv6, payload: v6udp() });
  const outer = (innerFrame: Buffer) =>
    ethernet({
      vlans: [10],
      etherType: ETHERTYPE.ipv4,
      payload: ipv4({
        src: "10.0.0.1",
        dst: "10.0.0.2",
        protocol: PROTOCOL.udp,
        payload: udp({ srcPort: 61000, dstPort: 4789, payload: vxlan(5001, innerFrame) }),
      }),
    });

  it("takes the inner packet as the flow and keeps the outer VLANs and frame length", () => {
    const flow = decodeHeader(outer(inner), { frameLength: 1450 });
    expect(flow).toMatchObject({ ...UDP_V6, vlans: [10], bytes: 1450 });
  });

  it("does not mix the inner frame's own VLAN tags into the outer ones", () => {
    const tagged = ethernet({ vlans: [777], etherType: ETHERTYPE.ipv4, payload: v4tcp() });
    expect(decodeHeader(outer(tagged))).toMatchObject({ ...TCP_V4, vlans: [10] });
  });

  it("keeps the outer packet when the header is cut before the inner IP header, counted as header_truncated", () => {
    const flow = decodeHeader(outer(inner).subarray(0, 14 + 4 + 20 + 8 + 8 + 10), { problem: "header_truncated" });
    expect(flow).toMatchObject({
      ipVersion: 4,
      srcAddr: "10.0.0.1",
      dstAddr: "10.0.0.2",
      ipProtocol: 17,
      srcPort: 61000,
      dstPort: 4789,
      vlans: [10],
    });
  });

  it("follows VXLAN in VXLAN to the innermost packet, the outermost endpoints kept", () => {
    const twice = outer(outer(inner));
    expect(decodeHeader(twice)).toMatchObject({
      ...UDP_V6,
      vlans: [10],
      header: { encapsulations: ["vxlan", "vxlan"], outerSrcAddr: "10.0.0.1" },
    });
  });
});

describe("sFlow raw packet header cut short", () => {
  const frame = ethernet({ vlans: [100, 200], etherType: ETHERTYPE.ipv4, payload: v4tcp() });
  // Ethernet 12 + two tags 8 + ethertype 2 = 22; IPv4 20 → TCP at 42.
  // Cut before the ports: counted; after them (what exporters send, the rest of the packet left out): not.
  it.each([
    [0, {}, "header_truncated"],
    [16, { vlans: [100] }, "header_truncated"],
    [41, { vlans: [100, 200], ipVersion: null }, "header_truncated"],
    [42, { vlans: [100, 200], ...TCP_V4, srcPort: null, dstPort: null, tcpFlags: null }, "header_truncated"],
    [46, { ...TCP_V4, tcpFlags: null }, undefined],
    [56, TCP_V4, undefined],
  ] as const)("at %i bytes gives the fields up to the cut", (length, expected, problem) => {
    const flow = decodeHeader(frame.subarray(0, length), { frameLength: 800, problem });
    expect(flow).toMatchObject({ bytes: 800, packets: 1, ...expected });
  });

  it("stops inside IPv6 extension headers without a protocol", () => {
    const packet = ipv6({
      src: "2001:db8::1",
      dst: "2001:db8::2",
      nextHeader: PROTOCOL.tcp,
      extensions: [
        { type: 0, length: 1 },
        { type: 60, length: 0 },
      ],
      payload: tcp({ srcPort: 1, dstPort: 2, flags: 0 }),
    });
    const flow = decodeHeader(ethernet({ etherType: ETHERTYPE.ipv6, payload: packet }).subarray(0, 14 + 40 + 16 + 1), {
      problem: "header_truncated",
    });
    expect(flow).toMatchObject({ ipVersion: 6, srcAddr: "2001:db8::1", ipProtocol: null, srcPort: null });
  });
});
