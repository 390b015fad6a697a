/**
 * The sampled packet header parser (decode/packet-header.ts), field by field: a frame per
 * encapsulation built by the test's own encoder, both address families, QinQ, label stacks with
 * and without the control word, SRv6 with and without an inner packet, and headers cut, malformed
 * or nested beyond the caps; then fast-check over random and cut frames (no throw, bounded work).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HEADER_STOP_REASONS,
  MAX_ENCAPSULATIONS,
  MAX_EXTENSION_HEADERS,
  MAX_MPLS_LABELS,
  MAX_VLAN_TAGS,
  parseEthernetFrame,
  parseIpPacket,
  type SampledHeader,
} from "~/features/collector/decode/packet-header";
import {
  ETHERTYPE,
  PROTOCOL,
  controlWord,
  erspan2,
  erspan3,
  ethernet,
  gre,
  icmp,
  ipv4,
  ipv6,
  mpls,
  tcp,
  udp,
  vxlan,
  type Ipv6Extension,
} from "../fixtures/packet-encoder";

/** Every field absent: each expectation below names all the fields it expects set, the rest must stay null/empty. */
const NOTHING: SampledHeader = {
  vlans: [],
  mplsLabels: [],
  encapsulations: [],
  counted: null,
  ipVersion: null,
  srcAddr: null,
  dstAddr: null,
  ipProtocol: null,
  srcPort: null,
  dstPort: null,
  tcpFlags: null,
  icmpType: null,
  icmpCode: null,
  ttl: null,
  fragmentFlags: null,
  fragmentOffset: null,
  fragmentId: null,
  outerSrcAddr: null,
  outerDstAddr: null,
  srv6Segments: null,
  impliedLength: null,
  stop: null,
  stopDetail: null,
};

const expectHeader = (got: SampledHeader, want: Partial<SampledHeader>) => expect(got).toEqual({ ...NOTHING, ...want });

const tcpV4 = (opts: { ttl?: number; identification?: number } = {}) =>
  ipv4({
    src: "192.0.2.10",
    dst: "203.0.113.20",
    protocol: PROTOCOL.tcp,
    ttl: opts.ttl ?? 57,
    identification: opts.identification ?? 0x1234,
    payload: tcp({ srcPort: 40000, dstPort: 443, flags: 0x12 }),
  });
/** 20 + 20 bytes. */
const TCP_V4: Partial<SampledHeader> = {
  counted: "outer",
  ipVersion: 4,
  srcAddr: "192.0.2.10",
  dstAddr: "203.0.113.20",
  ipProtocol: 6,
  srcPort: 40000,
  dstPort: 443,
  tcpFlags: 0x12,
  ttl: 57,
  fragmentFlags: 2,
  fragmentOffset: 0,
  fragmentId: 0x1234,
};
const udpV6 = (hopLimit = 33) =>
  ipv6({ src: "2001:db8::10", dst: "2001:db8:1::20", nextHeader: PROTOCOL.udp, hopLimit, payload: udp({ srcPort: 5353, dstPort: 53 }) });
/** 40 + 8 bytes. */
const UDP_V6: Partial<SampledHeader> = {
  counted: "outer",
  ipVersion: 6,
  srcAddr: "2001:db8::10",
  dstAddr: "2001:db8:1::20",
  ipProtocol: 17,
  srcPort: 5353,
  dstPort: 53,
  ttl: 33,
};
/** The same fields as the inner packet of a tunnel. */
const inner = (
  fields: Partial<SampledHeader>,
  outerSrcAddr: string,
  outerDstAddr: string,
  encapsulations: SampledHeader["encapsulations"],
) => ({
  ...fields,
  counted: "inner" as const,
  outerSrcAddr,
  outerDstAddr,
  encapsulations,
});

describe("sampled header: Ethernet, VLANs, both address families", () => {
  it("Ethernet → IPv4 → TCP: every field, and the frame length the IP header implies", () => {
    expectHeader(parseEthernetFrame(ethernet({ etherType: ETHERTYPE.ipv4, payload: tcpV4() })), { ...TCP_V4, impliedLength: 14 + 40 });
  });

  it("Ethernet → IPv6 → UDP with its hop limit", () => {
    expectHeader(parseEthernetFrame(ethernet({ etherType: ETHERTYPE.ipv6, payload: udpV6() })), { ...UDP_V6, impliedLength: 14 + 48 });
  });

  it.each([
    ["802.1Q", [100], [100]],
    ["802.1ad + 802.1Q (QinQ)", [[0x88a8, 200], 300], [200, 300]],
    ["0x9100 + 802.1Q", [[0x9100, 4000], 1], [4000, 1]],
    ["three tags", [[0x88a8, 10], [0x8100, 20], 30], [10, 20, 30]],
  ])("%s: the VLAN ids outer first, priority bits dropped", (_name, tags, ids) => {
    const frame = ethernet({ vlans: tags as never, etherType: ETHERTYPE.ipv4, payload: tcpV4() });
    expectHeader(parseEthernetFrame(frame), { ...TCP_V4, vlans: ids as number[], impliedLength: 14 + 4 * ids.length + 40 });
  });

  it("a bare IPv4 or IPv6 packet (IE 313, sFlow header protocols 11/12)", () => {
    expectHeader(parseIpPacket(tcpV4()), { ...TCP_V4, impliedLength: 40 });
    expectHeader(parseIpPacket(udpV6()), { ...UDP_V6, impliedLength: 48 });
  });

  it("ICMP and ICMPv6: type and code, no ports", () => {
    const echo = ipv4({ src: "192.0.2.1", dst: "192.0.2.2", protocol: PROTOCOL.icmp, ttl: 64, payload: icmp({ type: 8, code: 0 }) });
    expectHeader(parseIpPacket(echo), {
      counted: "outer",
      ipVersion: 4,
      srcAddr: "192.0.2.1",
      dstAddr: "192.0.2.2",
      ipProtocol: 1,
      icmpType: 8,
      icmpCode: 0,
      ttl: 64,
      fragmentFlags: 2,
      fragmentOffset: 0,
      fragmentId: 0,
      impliedLength: 28,
    });
    const unreachable = ipv6({ src: "2001:db8::1", dst: "2001:db8::2", nextHeader: PROTOCOL.icmpv6, payload: icmp({ type: 1, code: 4 }) });
    expectHeader(parseIpPacket(unreachable), {
      counted: "outer",
      ipVersion: 6,
      srcAddr: "2001:db8::1",
      dstAddr: "2001:db8::2",
      ipProtocol: 58,
      icmpType: 1,
      icmpCode: 4,
      ttl: 64,
      impliedLength: 48,
    });
  });

  it("a protocol without ports (ESP) ends the parse with its number", () => {
    const esp = ipv4({ src: "192.0.2.1", dst: "192.0.2.2", protocol: PROTOCOL.esp, payload: Buffer.alloc(40, 0x55) });
    expect(parseIpPacket(esp)).toMatchObject({ ipProtocol: 50, srcPort: null, stop: null });
  });

  it("IPv4 fragments: flags, offset and id; a later fragment has no ports, the first one has", () => {
    const later = ipv4({
      src: "192.0.2.1",
      dst: "192.0.2.2",
      protocol: PROTOCOL.udp,
      flags: 1,
      fragmentOffset: 185,
      identification: 77,
      payload: Buffer.alloc(32, 0xab),
    });
    expect(parseIpPacket(later)).toMatchObject({
      ipProtocol: 17,
      fragmentFlags: 1,
      fragmentOffset: 185,
      fragmentId: 77,
      srcPort: null,
      stop: null,
    });
    const first = ipv4({
      src: "192.0.2.1",
      dst: "192.0.2.2",
      protocol: PROTOCOL.udp,
      flags: 1,
      identification: 77,
      payload: udp({ srcPort: 1, dstPort: 2 }),
    });
    expect(parseIpPacket(first)).toMatchObject({ fragmentFlags: 1, fragmentOffset: 0, srcPort: 1, dstPort: 2 });
  });

  it("IPv4 options and AH are stepped over to the transport header", () => {
    const options = ipv4({
      src: "192.0.2.10",
      dst: "203.0.113.20",
      protocol: PROTOCOL.tcp,
      ttl: 57,
      identification: 0x1234,
      options: Buffer.from([1, 1, 1, 0, 1, 1, 1, 0]),
      payload: tcp({ srcPort: 40000, dstPort: 443, flags: 0x12 }),
    });
    expectHeader(parseIpPacket(options), { ...TCP_V4, impliedLength: 48 });
    // AH: next header, length 4 (= 24 bytes), then the protected TCP segment.
    const ah = Buffer.concat([Buffer.from([PROTOCOL.tcp, 4]), Buffer.alloc(22), tcp({ srcPort: 40000, dstPort: 443, flags: 0x12 })]);
    const packet = ipv4({ src: "192.0.2.10", dst: "203.0.113.20", protocol: 51, ttl: 57, identification: 0x1234, payload: ah });
    expectHeader(parseIpPacket(packet), { ...TCP_V4, impliedLength: 64 });
  });

  it("IPv6 extension headers: hop-by-hop, routing, destination options, AH, first fragment → UDP", () => {
    const extensions: Ipv6Extension[] = [
      { type: 0, length: 0 },
      { type: 43, length: 2 },
      { type: 60, length: 1 },
      { type: 51, length: 4 },
      { type: 44, fragmentOffset: 0, more: true, identification: 0xdeadbeef },
    ];
    const packet = ipv6({
      src: "2001:db8::10",
      dst: "2001:db8:1::20",
      nextHeader: PROTOCOL.udp,
      hopLimit: 33,
      extensions,
      payload: udp({ srcPort: 5353, dstPort: 53 }),
    });
    expectHeader(parseIpPacket(packet), {
      ...UDP_V6,
      fragmentFlags: 1,
      fragmentOffset: 0,
      fragmentId: 0xdeadbeef,
      impliedLength: packet.length,
    });
  });

  it("a later IPv6 fragment: the protocol from the fragment header, no ports", () => {
    const packet = ipv6({
      src: "2001:db8::10",
      dst: "2001:db8:1::20",
      nextHeader: PROTOCOL.udp,
      extensions: [{ type: 44, fragmentOffset: 100, more: false, identification: 9 }],
      payload: Buffer.alloc(16, 0xcd),
    });
    expect(parseIpPacket(packet)).toMatchObject({
      ipProtocol: 17,
      fragmentFlags: 0,
      fragmentOffset: 100,
      fragmentId: 9,
      srcPort: null,
      stop: null,
    });
  });
});

describe("sampled header: MPLS", () => {
  it("a label stack over IPv4 (nibble 4): the labels in wire order", () => {
    const frame = ethernet({ etherType: ETHERTYPE.mpls, payload: mpls([16001, 24005, 3], tcpV4()) });
    expectHeader(parseEthernetFrame(frame), { ...TCP_V4, mplsLabels: [16001, 24005, 3], impliedLength: 14 + 12 + 40 });
  });

  it("a label stack over IPv6 (nibble 6), on the multicast ethertype, after a VLAN tag; labels up to 2^20 − 1", () => {
    const frame = ethernet({ vlans: [42], etherType: ETHERTYPE.mplsMulticast, payload: mpls([1048575, 2], udpV6()) });
    expectHeader(parseEthernetFrame(frame), { ...UDP_V6, vlans: [42], mplsLabels: [1048575, 2], impliedLength: 18 + 8 + 48 });
  });

  it("Ethernet over MPLS with the control word: the pseudowire's frame, its VLAN tags not the wire's", () => {
    const customer = ethernet({ vlans: [777], etherType: ETHERTYPE.ipv4, payload: tcpV4() });
    const frame = ethernet({ vlans: [10], etherType: ETHERTYPE.mpls, payload: mpls([300012, 17], controlWord(5, customer)) });
    expectHeader(parseEthernetFrame(frame), {
      ...TCP_V4,
      vlans: [10],
      mplsLabels: [300012, 17],
      encapsulations: ["eompls"],
      impliedLength: 18 + 8 + 4 + 18 + 40,
    });
  });

  it("without a control word the payload's first nibble decides: IP read directly", () => {
    // A label stack straight over IP is the common case; that is the same frame as "a label stack over IPv4" — and with a
    // payload whose first nibble is neither 0, 4 nor 6 (an Ethernet pseudowire without control word, MACs 02:…) the parse stops.
    const customer = ethernet({ etherType: ETHERTYPE.ipv4, payload: tcpV4() });
    const frame = ethernet({ etherType: ETHERTYPE.mpls, payload: mpls([100], Buffer.concat([Buffer.from([0x20]), customer.subarray(1)])) });
    expectHeader(parseEthernetFrame(frame), {
      mplsLabels: [100],
      stop: "header_unsupported",
      stopDetail: "MPLS payload starts with nibble 2 (neither IPv4, IPv6 nor a control word)",
    });
  });

  it(`more than ${MAX_MPLS_LABELS} labels stop with header_too_deep`, () => {
    const labels = Array.from({ length: MAX_MPLS_LABELS + 1 }, (_, i) => 100 + i);
    const got = parseEthernetFrame(ethernet({ etherType: ETHERTYPE.mpls, payload: mpls(labels, tcpV4()) }));
    expect(got).toMatchObject({ stop: "header_too_deep", srcAddr: null });
    expect(got.mplsLabels).toEqual(labels.slice(0, MAX_MPLS_LABELS));
  });
});

describe("sampled header: tunnels (the innermost packet counts, the outer endpoints kept)", () => {
  const outerV4 = (protocol: number, payload: Buffer) =>
    ipv4({ src: "10.0.0.1", dst: "10.0.0.2", protocol, ttl: 250, identification: 1, payload });
  const outerV6 = (nextHeader: number, payload: Buffer, extensions?: Ipv6Extension[]) =>
    ipv6({ src: "2001:db8:ff::1", dst: "2001:db8:ff::2", nextHeader, payload, extensions, hopLimit: 250 });

  it("VXLAN: the inner Ethernet frame's IPv6 packet, the outer VLANs", () => {
    const frame = ethernet({
      vlans: [10],
      etherType: ETHERTYPE.ipv4,
      payload: outerV4(
        PROTOCOL.udp,
        udp({
          srcPort: 61000,
          dstPort: 4789,
          payload: vxlan(5001, ethernet({ vlans: [99], etherType: ETHERTYPE.ipv6, payload: udpV6() })),
        }),
      ),
    });
    expectHeader(parseEthernetFrame(frame), {
      ...inner(UDP_V6, "10.0.0.1", "10.0.0.2", ["vxlan"]),
      vlans: [10],
      impliedLength: 18 + 20 + 8 + 8 + 18 + 48,
    });
  });

  it.each([
    ["IPv4 in IPv4", () => outerV4(PROTOCOL.ipv4, tcpV4()), TCP_V4, "10.0.0.1", 14 + 20 + 40],
    ["IPv6 in IPv4 (6in4)", () => outerV4(PROTOCOL.ipv6, udpV6()), UDP_V6, "10.0.0.1", 14 + 20 + 48],
    ["IPv4 in IPv6", () => outerV6(PROTOCOL.ipv4, tcpV4()), TCP_V4, "2001:db8:ff::1", 14 + 40 + 40],
    ["IPv6 in IPv6", () => outerV6(PROTOCOL.ipv6, udpV6()), UDP_V6, "2001:db8:ff::1", 14 + 40 + 48],
  ] as const)("IP-in-IP: %s", (_name, packet, fields, outerSrc, implied) => {
    const outerDst = outerSrc.includes(":") ? "2001:db8:ff::2" : "10.0.0.2";
    const frame = ethernet({ etherType: outerSrc.includes(":") ? ETHERTYPE.ipv6 : ETHERTYPE.ipv4, payload: packet() });
    expectHeader(parseEthernetFrame(frame), { ...inner(fields, outerSrc, outerDst, ["ip-in-ip"]), impliedLength: implied });
  });

  it.each([
    ["plain", {}, 4],
    ["with checksum, key and sequence", { checksum: true, key: 0xabcd, sequence: 7 }, 16],
    ["with a key only", { key: 1 }, 8],
  ])("GRE %s: IPv4 inside", (_name, flags, greLength) => {
    const frame = ethernet({
      etherType: ETHERTYPE.ipv4,
      payload: outerV4(PROTOCOL.gre, gre({ protocol: ETHERTYPE.ipv4, payload: tcpV4(), ...flags })),
    });
    expectHeader(parseEthernetFrame(frame), { ...inner(TCP_V4, "10.0.0.1", "10.0.0.2", ["gre"]), impliedLength: 14 + 20 + greLength + 40 });
  });

  it("GRE over IPv6 carrying IPv6, MPLS over GRE, and transparent Ethernet over GRE", () => {
    const v6 = ethernet({ etherType: ETHERTYPE.ipv6, payload: outerV6(PROTOCOL.gre, gre({ protocol: ETHERTYPE.ipv6, payload: udpV6() })) });
    expectHeader(parseEthernetFrame(v6), {
      ...inner(UDP_V6, "2001:db8:ff::1", "2001:db8:ff::2", ["gre"]),
      impliedLength: 14 + 40 + 4 + 48,
    });
    const overMpls = ethernet({
      etherType: ETHERTYPE.ipv4,
      payload: outerV4(PROTOCOL.gre, gre({ protocol: ETHERTYPE.mpls, payload: mpls([33], udpV6()) })),
    });
    expectHeader(parseEthernetFrame(overMpls), {
      ...inner(UDP_V6, "10.0.0.1", "10.0.0.2", ["gre"]),
      mplsLabels: [33],
      impliedLength: 14 + 20 + 4 + 4 + 48,
    });
    const bridged = gre({
      protocol: ETHERTYPE.transparentEthernet,
      key: 5,
      payload: ethernet({ vlans: [3], etherType: ETHERTYPE.ipv4, payload: tcpV4() }),
    });
    expectHeader(parseEthernetFrame(ethernet({ etherType: ETHERTYPE.ipv4, payload: outerV4(PROTOCOL.gre, bridged) })), {
      ...inner(TCP_V4, "10.0.0.1", "10.0.0.2", ["gre"]),
      impliedLength: 14 + 20 + 8 + 18 + 40,
    });
  });

  it("ERSPAN type II and III (with and without the platform subheader): the mirrored frame", () => {
    const mirrored = ethernet({ etherType: ETHERTYPE.ipv6, payload: udpV6() });
    for (const [payload, protocol, sequence] of [
      [erspan2(7, mirrored), ETHERTYPE.erspan2, 1],
      [erspan3(7, mirrored), ETHERTYPE.erspan3, 2],
      [erspan3(7, mirrored, { platform: true }), ETHERTYPE.erspan3, 3],
    ] as const) {
      const frame = ethernet({ etherType: ETHERTYPE.ipv4, payload: outerV4(PROTOCOL.gre, gre({ protocol, sequence, payload })) });
      expectHeader(parseEthernetFrame(frame), {
        ...inner(UDP_V6, "10.0.0.1", "10.0.0.2", ["erspan"]),
        impliedLength: 14 + 20 + 8 + payload.length,
      });
    }
  });

  const segments = ["2001:db8:5::100", "2001:db8:4::1", "2001:db8:ff::2"];
  it.each([
    ["IPv4 (End.DT4)", PROTOCOL.ipv4, () => tcpV4(), TCP_V4],
    ["IPv6 (End.DT6)", PROTOCOL.ipv6, () => udpV6(), UDP_V6],
    ["Ethernet (End.DX2)", PROTOCOL.ethernet, () => ethernet({ vlans: [55], etherType: ETHERTYPE.ipv4, payload: tcpV4() }), TCP_V4],
  ] as const)("SRv6 with an inner packet: %s after the SRH; its segments kept", (_name, nextHeader, payload, fields) => {
    const packet = outerV6(nextHeader, payload(), [{ type: "srh", segments, segmentsLeft: 1 }]);
    expectHeader(parseEthernetFrame(ethernet({ etherType: ETHERTYPE.ipv6, payload: packet })), {
      ...inner(fields, "2001:db8:ff::1", "2001:db8:ff::2", ["srv6"]),
      srv6Segments: segments,
      impliedLength: 14 + packet.length,
    });
  });

  it("SRv6 without an inner packet (an SRH in the packet itself): the packet counts, segments kept, no tunnel", () => {
    const packet = ipv6({
      src: "2001:db8::10",
      dst: "2001:db8:1::20",
      nextHeader: PROTOCOL.udp,
      hopLimit: 33,
      extensions: [{ type: "srh", segments }],
      payload: udp({ srcPort: 5353, dstPort: 53 }),
    });
    expectHeader(parseIpPacket(packet), { ...UDP_V6, srv6Segments: segments, impliedLength: packet.length });
  });

  it("SRv6 in SRv6: the outermost SRH's segments are the ones kept", () => {
    const innerSrv6 = ipv6({
      src: "2001:db8:9::1",
      dst: "2001:db8:9::2",
      nextHeader: PROTOCOL.ipv4,
      extensions: [{ type: "srh", segments: ["2001:db8:9::99"] }],
      payload: tcpV4(),
    });
    const packet = outerV6(PROTOCOL.ipv6, innerSrv6, [{ type: "srh", segments }]);
    expect(parseIpPacket(packet)).toMatchObject({
      ...TCP_V4,
      counted: "inner",
      encapsulations: ["srv6", "srv6"],
      outerSrcAddr: "2001:db8:ff::1",
      srv6Segments: segments,
    });
  });

  it("an IPv6 packet carrying Ethernet (143) without an SRH", () => {
    const packet = outerV6(PROTOCOL.ethernet, ethernet({ etherType: ETHERTYPE.ipv4, payload: tcpV4() }));
    expectHeader(parseIpPacket(packet), {
      ...inner(TCP_V4, "2001:db8:ff::1", "2001:db8:ff::2", ["ethernet-over-ip"]),
      impliedLength: packet.length,
    });
  });

  it("tunnels nest, up to the cap; beyond it the deepest packet read counts, with header_too_deep", () => {
    const nested = (levels: number): Buffer => (levels === 0 ? tcpV4() : outerV4(PROTOCOL.ipv4, nested(levels - 1)));
    const atCap = parseIpPacket(nested(MAX_ENCAPSULATIONS));
    expect(atCap).toMatchObject({ ...TCP_V4, counted: "inner", stop: null, outerSrcAddr: "10.0.0.1" });
    expect(atCap.encapsulations).toHaveLength(MAX_ENCAPSULATIONS);
    const beyond = parseIpPacket(nested(MAX_ENCAPSULATIONS + 1));
    expect(beyond).toMatchObject({ srcAddr: "10.0.0.1", ipProtocol: 4, stop: "header_too_deep" });
  });

  it("an inner packet cut before its addresses leaves the outer packet's fields, counted as truncated", () => {
    const frame = ethernet({
      etherType: ETHERTYPE.ipv4,
      payload: outerV4(
        PROTOCOL.udp,
        udp({ srcPort: 61000, dstPort: 4789, payload: vxlan(1, ethernet({ etherType: ETHERTYPE.ipv6, payload: udpV6() })) }),
      ),
    });
    const got = parseEthernetFrame(frame.subarray(0, 14 + 20 + 8 + 8 + 14 + 30));
    expectHeader(got, {
      counted: "outer",
      ipVersion: 4,
      srcAddr: "10.0.0.1",
      dstAddr: "10.0.0.2",
      ipProtocol: 17,
      srcPort: 61000,
      dstPort: 4789,
      ttl: 250,
      fragmentFlags: 2,
      fragmentOffset: 0,
      fragmentId: 1,
      encapsulations: ["vxlan"],
      impliedLength: frame.length,
      stop: "header_truncated",
      stopDetail: "cut at 94 bytes in an IPv6 header",
    });
  });
});

describe("sampled header: stops (a reason, never a throw)", () => {
  // Frames cut at each layer, and inside IPv6 extension headers, as sFlow raw headers with the
  // problem they count: tests/unit/collector-sflow-packets.test.ts ("cut short").
  it("a frame that carries no IP: header_not_ip, its VLANs kept", () => {
    expectHeader(parseEthernetFrame(ethernet({ vlans: [5], etherType: ETHERTYPE.arp, payload: Buffer.alloc(28) })), {
      vlans: [5],
      stop: "header_not_ip",
      stopDetail: "Ethernet carries ethertype 0x0806",
    });
  });

  it("malformed: IPv4 header length under 20, wrong version after an ethertype, GRE routing bit", () => {
    const short = tcpV4();
    short[0] = 0x44;
    expect(parseIpPacket(short)).toMatchObject({ stop: "header_malformed", srcAddr: null });
    expect(parseEthernetFrame(ethernet({ etherType: ETHERTYPE.ipv6, payload: tcpV4() }))).toMatchObject({
      stop: "header_malformed",
      stopDetail: "IPv6 header with version 4",
    });
    const routed = gre({ protocol: ETHERTYPE.ipv4, payload: tcpV4() });
    routed[0] |= 0x40;
    expect(parseIpPacket(ipv4({ src: "10.0.0.1", dst: "10.0.0.2", protocol: PROTOCOL.gre, payload: routed }))).toMatchObject({
      srcAddr: "10.0.0.1",
      ipProtocol: 47,
      stop: "header_malformed",
    });
    expect(parseIpPacket(Buffer.from([0x10, 0, 0, 0]))).toMatchObject({ stop: "header_malformed" });
  });

  it("unsupported: GRE version 1 (PPTP), an unknown GRE protocol; the outer packet kept", () => {
    const pptp = ipv4({
      src: "10.0.0.1",
      dst: "10.0.0.2",
      protocol: PROTOCOL.gre,
      payload: gre({ protocol: 0x880b, version: 1, payload: Buffer.alloc(8) }),
    });
    expect(parseIpPacket(pptp)).toMatchObject({
      srcAddr: "10.0.0.1",
      ipProtocol: 47,
      stop: "header_unsupported",
      stopDetail: "GRE version 1",
    });
    const ppp = ipv4({
      src: "10.0.0.1",
      dst: "10.0.0.2",
      protocol: PROTOCOL.gre,
      payload: gre({ protocol: 0x880b, payload: Buffer.alloc(8) }),
    });
    expect(parseIpPacket(ppp)).toMatchObject({ stop: "header_unsupported", stopDetail: "GRE protocol type 0x880b" });
  });

  it("caps: VLAN tags and IPv6 extension headers", () => {
    const tags = Array.from({ length: MAX_VLAN_TAGS + 1 }, (_, i) => i + 1);
    expect(parseEthernetFrame(ethernet({ vlans: tags, etherType: ETHERTYPE.ipv4, payload: tcpV4() }))).toMatchObject({
      stop: "header_too_deep",
      vlans: tags.slice(0, MAX_VLAN_TAGS),
    });
    // The cap is per frame: a tunnel's inner frame has its own.
    const innerTagged = ethernet({ vlans: tags.slice(1), etherType: ETHERTYPE.ipv4, payload: tcpV4() });
    const overVxlan = ethernet({
      vlans: tags.slice(1),
      etherType: ETHERTYPE.ipv4,
      payload: ipv4({
        src: "10.0.0.1",
        dst: "10.0.0.2",
        protocol: PROTOCOL.udp,
        payload: udp({ srcPort: 1, dstPort: 4789, payload: vxlan(1, innerTagged) }),
      }),
    });
    expect(parseEthernetFrame(overVxlan)).toMatchObject({ ...TCP_V4, counted: "inner", vlans: tags.slice(1), stop: null });
    const many: Ipv6Extension[] = Array.from({ length: MAX_EXTENSION_HEADERS + 1 }, () => ({ type: 60, length: 0 }));
    const packet = ipv6({
      src: "2001:db8::1",
      dst: "2001:db8::2",
      nextHeader: PROTOCOL.udp,
      extensions: many,
      payload: udp({ srcPort: 1, dstPort: 2 }),
    });
    expect(parseIpPacket(packet)).toMatchObject({ stop: "header_too_deep", srcPort: null });
    const enough = ipv6({
      src: "2001:db8::1",
      dst: "2001:db8::2",
      nextHeader: PROTOCOL.udp,
      extensions: many.slice(1),
      payload: udp({ srcPort: 1, dstPort: 2 }),
    });
    expect(parseIpPacket(enough)).toMatchObject({ stop: null, srcPort: 1 });
  });
});

describe("sampled header: any bytes", () => {
  const frames = [
    ethernet({
      vlans: [[0x88a8, 2], 3],
      etherType: ETHERTYPE.mpls,
      payload: mpls([16, 17], controlWord(1, ethernet({ etherType: ETHERTYPE.ipv4, payload: tcpV4() }))),
    }),
    ethernet({
      etherType: ETHERTYPE.ipv6,
      payload: ipv6({
        src: "2001:db8::1",
        dst: "2001:db8::2",
        nextHeader: PROTOCOL.ipv4,
        extensions: [{ type: "srh", segments: ["2001:db8::9"] }],
        payload: ipv4({
          src: "10.0.0.1",
          dst: "10.0.0.2",
          protocol: PROTOCOL.gre,
          payload: gre({
            protocol: ETHERTYPE.erspan2,
            sequence: 1,
            payload: erspan2(
              1,
              ethernet({
                etherType: ETHERTYPE.ipv4,
                payload: ipv4({
                  src: "10.1.0.1",
                  dst: "10.1.0.2",
                  protocol: PROTOCOL.udp,
                  payload: udp({ srcPort: 1, dstPort: 4789, payload: vxlan(3, ethernet({ etherType: ETHERTYPE.ipv6, payload: udpV6() })) }),
                }),
              }),
            ),
          }),
        }),
      }),
    }),
  ];

  /** What holds of any parse: a known reason with its detail or none, the caps kept, addresses exactly when a header counted. */
  const wellFormed = (got: SampledHeader) => {
    expect(got.stop === null || HEADER_STOP_REASONS.includes(got.stop)).toBe(true);
    expect(got.stop === null).toBe(got.stopDetail === null);
    expect(got.vlans.length).toBeLessThanOrEqual(MAX_VLAN_TAGS);
    expect(got.mplsLabels.length).toBeLessThanOrEqual(MAX_MPLS_LABELS * (MAX_ENCAPSULATIONS + 1));
    expect(got.encapsulations.length).toBeLessThanOrEqual(MAX_ENCAPSULATIONS);
    expect(got.counted === null).toBe(got.srcAddr === null);
  };

  it("random bytes, as a frame or an IP packet: a header with a known reason or none, never a throw", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.boolean(), (bytes, asIp) => {
        wellFormed(asIp ? parseIpPacket(bytes) : parseEthernetFrame(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("valid deep frames cut anywhere and with bytes changed: the same", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...frames),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        (frame, cutAt, edits) => {
          const bytes = Uint8Array.from(frame.subarray(0, cutAt % (frame.length + 1)));
          for (const [at, value] of edits) if (bytes.length) bytes[at % bytes.length] = value;
          wellFormed(parseEthernetFrame(bytes));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("the deep frames parse whole: every tunnel in order, the innermost packet", () => {
    expect(parseEthernetFrame(frames[1])).toMatchObject({
      ...UDP_V6,
      counted: "inner",
      encapsulations: ["srv6", "erspan", "vxlan"],
      outerSrcAddr: "2001:db8::1",
      srv6Segments: ["2001:db8::9"],
      stop: null,
    });
    expect(parseEthernetFrame(frames[0])).toMatchObject({ ...TCP_V4, vlans: [2, 3], mplsLabels: [16, 17], encapsulations: ["eompls"] });
  });

  it("the work is bounded: 64 KiB of tags, labels or extension headers cost what a few of them do", () => {
    const tags = Buffer.concat([Buffer.alloc(12), ...Array.from({ length: 16_000 }, () => Buffer.from([0x81, 0x00, 0, 1]))]);
    const labels = Buffer.concat([Buffer.alloc(12), Buffer.from([0x88, 0x47]), Buffer.alloc(64_000, 0)]);
    const extensions = Buffer.concat([
      ipv6({ src: "::1", dst: "::2", nextHeader: 60, payload: Buffer.alloc(0) }),
      ...Array.from({ length: 8000 }, () => Buffer.from([60, 0, 0, 0, 0, 0, 0, 0])),
    ]);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) {
      expect(parseEthernetFrame(tags).stop).toBe("header_too_deep");
      expect(parseEthernetFrame(labels).stop).toBe("header_too_deep");
      expect(parseIpPacket(extensions).stop).toBe("header_too_deep");
    }
    // 3000 parses of 64 KiB inputs: linear work would read ~200 MB; capped work finishes in milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
