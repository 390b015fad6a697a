/**
 * What real exporters send beside the basic flow, decoded from datagrams the project's own encoders
 * build (tests/fixtures/flow-encoders.ts): address elements of both families with one of them zero,
 * physical interfaces (IE 252 / 253), ICMP type and code (IE 32, 139, 176–179 and the NetFlow
 * convention of type × 256 + code in the destination port, v5 and v9), the forwarding status
 * (IE 89), NAT (IE 225–228, 281, 282), MPLS label stack elements (IE 70–79), and the elements the
 * decoder skips, counted by reason.
 */
import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState, type DecodedFlow } from "~/features/collector/decode";
import {
  encodeIpfix,
  encodeNetflow5,
  encodeNetflow9,
  IE,
  REVERSE_PEN,
  VARIABLE,
  type FieldSpec,
  type FieldValue,
  type TemplateSpec,
} from "../fixtures/flow-encoders";
import { ETHERTYPE, PROTOCOL, ethernet, ipv4, mpls, tcp } from "../fixtures/packet-encoder";

const EXPORTER = "192.0.2.1";
const EXPORT_TIME = 1_700_000_000;

const field = (id: number, length: number, enterprise?: number): FieldSpec => ({ id, length, enterprise });

/** One IPFIX message with the template and its records; the flows and the whole result. */
function ipfix(fields: FieldSpec[], records: FieldValue[][]) {
  const template: TemplateSpec = { id: 400, fields };
  const payload = encodeIpfix({
    exportTime: EXPORT_TIME,
    domain: 1,
    sets: [
      { kind: "template", templates: [template] },
      { kind: "data", template, records },
    ],
  });
  const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
  expect(result.problems).toEqual([]);
  return result;
}

function netflow9(fields: FieldSpec[], records: FieldValue[][]) {
  const template: TemplateSpec = { id: 260, fields };
  const payload = encodeNetflow9({
    sysUptimeMs: 100_000,
    unixSecs: EXPORT_TIME,
    sourceId: 3,
    sets: [
      { kind: "template", templates: [template] },
      { kind: "data", template, records },
    ],
  });
  const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
  expect(result.problems).toEqual([]);
  return result;
}

const pick = (flow: DecodedFlow, keys: (keyof DecodedFlow)[]) => Object.fromEntries(keys.map((k) => [k, flow[k]]));

describe("address elements of both families", () => {
  const both = [
    field(IE.sourceIPv4Address, 4),
    field(IE.destinationIPv4Address, 4),
    field(IE.sourceIPv6Address, 16),
    field(IE.destinationIPv6Address, 16),
    field(IE.octetDeltaCount, 4),
  ];
  const v6First = [both[2], both[3], both[0], both[1], both[4]];
  const keys: (keyof DecodedFlow)[] = ["ipVersion", "srcAddr", "dstAddr", "bytes"];

  for (const [name, decode] of [
    ["IPFIX", ipfix],
    ["NetFlow v9", netflow9],
  ] as const) {
    it(`${name}: keeps the set family whichever is listed first, a zero address of the other never replaces it`, () => {
      const v4 = decode(both, [["198.51.100.1", "203.0.113.9", "::", "::", 100]]).flows;
      expect(v4.map((f) => pick(f, keys))).toEqual([{ ipVersion: 4, srcAddr: "198.51.100.1", dstAddr: "203.0.113.9", bytes: 100 }]);
      const v4Last = decode(v6First, [["::", "::", "198.51.100.1", "203.0.113.9", 100]]).flows;
      expect(v4Last.map((f) => pick(f, keys))).toEqual([{ ipVersion: 4, srcAddr: "198.51.100.1", dstAddr: "203.0.113.9", bytes: 100 }]);
      const v6 = decode(both, [["0.0.0.0", "0.0.0.0", "2001:db8::1", "2001:db8:1::2", 200]]).flows;
      expect(v6.map((f) => pick(f, keys))).toEqual([{ ipVersion: 6, srcAddr: "2001:db8::1", dstAddr: "2001:db8:1::2", bytes: 200 }]);
    });
  }

  it("an ipVersion element that disagrees with the addresses kept gives way to them", () => {
    const fields = [field(IE.ipVersion, 1), ...both];
    const [flow] = ipfix(fields, [[6, "198.51.100.1", "203.0.113.9", "::", "::", 1]]).flows;
    expect(pick(flow, keys)).toEqual({ ipVersion: 4, srcAddr: "198.51.100.1", dstAddr: "203.0.113.9", bytes: 1 });
    // No address at all: the element says the family.
    const [alone] = ipfix([field(IE.ipVersion, 1), field(IE.octetDeltaCount, 4)], [[6, 5]]).flows;
    expect(alone.ipVersion).toBe(6);
  });
});

describe("physical interfaces (IE 252 / 253)", () => {
  const keys: (keyof DecodedFlow)[] = ["inIfIndex", "outIfIndex", "inPhysIfIndex", "outPhysIfIndex"];
  it("fill in where the record names no logical interface", () => {
    const [flow] = ipfix([field(IE.ingressPhysicalInterface, 4), field(IE.egressPhysicalInterface, 4)], [[17, 23]]).flows;
    expect(pick(flow, keys)).toEqual({ inIfIndex: 17, outIfIndex: 23, inPhysIfIndex: 17, outPhysIfIndex: 23 });
  });
  it("give way to the logical ones (IE 10 / 14), and are kept beside them", () => {
    const fields = [
      field(IE.ingressPhysicalInterface, 4),
      field(IE.ingressInterface, 4),
      field(IE.egressInterface, 2),
      field(IE.egressPhysicalInterface, 4),
    ];
    const [flow] = netflow9(fields, [[17, 501, 502, 23]]).flows;
    expect(pick(flow, keys)).toEqual({ inIfIndex: 501, outIfIndex: 502, inPhysIfIndex: 17, outPhysIfIndex: 23 });
  });
});

describe("ICMP type and code", () => {
  const keys: (keyof DecodedFlow)[] = ["ipProtocol", "icmpType", "icmpCode", "dstPort"];
  const combined = [
    field(IE.protocolIdentifier, 1),
    field(IE.destinationTransportPort, 2),
    field(IE.icmpTypeCodeIPv4, 2),
    field(IE.icmpTypeCodeIPv6, 2),
  ];

  it("reads the element of the record's family: 32 for ICMP, 139 for ICMPv6", () => {
    const flows = ipfix(combined, [
      [1, 0, 3 * 256 + 3, 0], // port unreachable
      [58, 0, 0, 128 * 256], // ICMPv6 echo request
      [1, 0, 0, 1 * 256 + 4], // echo reply (0/0), the ICMPv6 element naming something else
    ]).flows;
    expect(flows.map((f) => pick(f, keys))).toEqual([
      { ipProtocol: 1, icmpType: 3, icmpCode: 3, dstPort: 0 },
      { ipProtocol: 58, icmpType: 128, icmpCode: 0, dstPort: 0 },
      { ipProtocol: 1, icmpType: 0, icmpCode: 0, dstPort: 0 },
    ]);
  });

  it("reads the split elements 176 / 177 (ICMP) and 178 / 179 (ICMPv6)", () => {
    const fields = [
      field(IE.protocolIdentifier, 1),
      field(IE.icmpTypeIPv4, 1),
      field(IE.icmpCodeIPv4, 1),
      field(IE.icmpTypeIPv6, 1),
      field(IE.icmpCodeIPv6, 1),
    ];
    const flows = ipfix(fields, [
      [1, 11, 0, 0, 0],
      [58, 0, 0, 1, 4],
    ]).flows;
    expect(flows.map((f) => pick(f, keys))).toEqual([
      { ipProtocol: 1, icmpType: 11, icmpCode: 0, dstPort: null },
      { ipProtocol: 58, icmpType: 1, icmpCode: 4, dstPort: null },
    ]);
  });

  it("is null for TCP and UDP records of a template that carries ICMP elements (zero there), and the port stays", () => {
    const flows = ipfix(combined, [
      [6, 443, 0, 0],
      [17, 53, 0, 0],
    ]).flows;
    expect(flows.map((f) => pick(f, keys))).toEqual([
      { ipProtocol: 6, icmpType: null, icmpCode: null, dstPort: 443 },
      { ipProtocol: 17, icmpType: null, icmpCode: null, dstPort: 53 },
    ]);
  });

  it("NetFlow v9 without ICMP elements: type × 256 + code from the destination port, which is then 0", () => {
    const fields = [field(IE.protocolIdentifier, 1), field(IE.sourceTransportPort, 2), field(IE.destinationTransportPort, 2)];
    const flows = netflow9(fields, [
      [1, 0, 8 * 256], // echo request: "destination port 2048"
      [58, 0, 135 * 256], // neighbour solicitation
      [1, 0, 3 * 256 + 13], // communication administratively prohibited
      [17, 40_000, 2048], // UDP to port 2048 is a port
    ]).flows;
    expect(flows.map((f) => pick(f, keys))).toEqual([
      { ipProtocol: 1, icmpType: 8, icmpCode: 0, dstPort: 0 },
      { ipProtocol: 58, icmpType: 135, icmpCode: 0, dstPort: 0 },
      { ipProtocol: 1, icmpType: 3, icmpCode: 13, dstPort: 0 },
      { ipProtocol: 17, icmpType: null, icmpCode: null, dstPort: 2048 },
    ]);
  });

  it("NetFlow v5: type × 256 + code from the destination port, which is then 0", () => {
    const record = { srcAddr: "198.51.100.1", dstAddr: "203.0.113.9", packets: 1, bytes: 84, firstMs: 1, lastMs: 2 };
    const payload = encodeNetflow5({ sysUptimeMs: 10_000, unixSecs: EXPORT_TIME }, [
      { ...record, protocol: 1, dstPort: 8 * 256 },
      { ...record, protocol: 1, dstPort: 3 * 256 + 1 },
      { ...record, protocol: 6, dstPort: 2048 },
    ]);
    const { flows } = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
    expect(flows.map((f) => pick(f, keys))).toEqual([
      { ipProtocol: 1, icmpType: 8, icmpCode: 0, dstPort: 0 },
      { ipProtocol: 1, icmpType: 3, icmpCode: 1, dstPort: 0 },
      { ipProtocol: 6, icmpType: null, icmpCode: null, dstPort: 2048 },
    ]);
  });
});

describe("forwarding status (IE 89) and NAT (IE 225–228, 281, 282)", () => {
  it("keeps the status byte as sent, one byte or four", () => {
    const one = ipfix(
      [field(IE.forwardingStatus, 1), field(IE.octetDeltaCount, 4)],
      [
        [0x82, 10],
        [0x40, 20],
        [0xc0, 30],
      ],
    ).flows;
    expect(one.map((f) => [f.forwardingStatus, f.bytes])).toEqual([
      [0x82, 10],
      [0x40, 20],
      [0xc0, 30],
    ]);
    const four = netflow9([field(IE.forwardingStatus, 4), field(IE.octetDeltaCount, 4)], [[0x87, 10]]).flows;
    expect(four.map((f) => f.forwardingStatus)).toEqual([0x87]);
    const none = ipfix([field(IE.octetDeltaCount, 4)], [[10]]).flows;
    expect(none[0].forwardingStatus).toBeNull();
  });

  it("keeps the addresses and ports after translation, IPv4 and IPv6", () => {
    const keys: (keyof DecodedFlow)[] = ["srcAddr", "postNatSrcAddr", "postNatDstAddr", "postNatSrcPort", "postNatDstPort"];
    const v4 = ipfix(
      [
        field(IE.sourceIPv4Address, 4),
        field(IE.postNATSourceIPv4Address, 4),
        field(IE.postNATDestinationIPv4Address, 4),
        field(IE.postNAPTSourceTransportPort, 2),
        field(IE.postNAPTDestinationTransportPort, 2),
      ],
      [["10.0.0.5", "198.51.100.7", "203.0.113.9", 61_000, 443]],
    ).flows;
    expect(v4.map((f) => pick(f, keys))).toEqual([
      { srcAddr: "10.0.0.5", postNatSrcAddr: "198.51.100.7", postNatDstAddr: "203.0.113.9", postNatSrcPort: 61_000, postNatDstPort: 443 },
    ]);
    const v6 = ipfix(
      [field(IE.sourceIPv6Address, 16), field(IE.postNATSourceIPv6Address, 16), field(IE.postNATDestinationIPv6Address, 16)],
      [["fd00::5", "2001:db8::7", "2001:db8:1::9"]],
    ).flows;
    expect(v6.map((f) => pick(f, keys))).toEqual([
      { srcAddr: "fd00::5", postNatSrcAddr: "2001:db8::7", postNatDstAddr: "2001:db8:1::9", postNatSrcPort: null, postNatDstPort: null },
    ]);
  });

  it("does not carry the forward direction's status and NAT over to the reverse half of a biflow", () => {
    const fields = [
      field(IE.sourceIPv4Address, 4),
      field(IE.destinationIPv4Address, 4),
      field(IE.forwardingStatus, 1),
      field(IE.postNATSourceIPv4Address, 4),
      field(IE.octetDeltaCount, 4),
      field(IE.octetDeltaCount, 4, REVERSE_PEN),
    ];
    const [forward, reverse] = ipfix(fields, [["10.0.0.5", "203.0.113.9", 0x40, "198.51.100.7", 100, 50]]).flows;
    expect([forward.forwardingStatus, forward.postNatSrcAddr, forward.bytes]).toEqual([0x40, "198.51.100.7", 100]);
    expect([reverse.srcAddr, reverse.forwardingStatus, reverse.postNatSrcAddr, reverse.bytes]).toEqual(["203.0.113.9", null, null, 50]);
  });
});

describe("MPLS label stack elements (IE 70–79)", () => {
  /** A label stack entry as IE 70–79 carry it (RFC 3032 without the TTL), traffic class 5 set to show it is dropped. */
  const entry = (label: number, bottom: boolean) =>
    new Uint8Array([(label >> 12) & 0xff, (label >> 4) & 0xff, ((label & 0xf) << 4) | (5 << 1) | (bottom ? 1 : 0)]);
  const UNUSED = new Uint8Array(3);
  const stack = [field(IE.mplsTopLabelStackSection, 3), field(IE.mplsLabelStackSection2, 3), field(IE.mplsLabelStackSection3, 3)];

  it("reads the labels top first, up to the bottom of the stack; unused (all-zero) slots are not labels", () => {
    const flows = ipfix(
      [...stack, field(IE.octetDeltaCount, 4)],
      [
        [entry(299_792, false), entry(16, true), UNUSED, 1],
        [entry(1_048_575, true), entry(17, false), entry(18, true), 2], // nothing after the bottom of the stack
        [UNUSED, UNUSED, UNUSED, 3],
        [entry(24_001, false), entry(0, true), UNUSED, 4], // IPv4 explicit null at the bottom: a label
      ],
    ).flows;
    expect(flows.map((f) => f.mplsLabels)).toEqual([[299_792, 16], [1_048_575], [], [24_001, 0]]);
    // NetFlow v9 field types 70–79 are the same, also at the tenth position alone; a 4-byte entry carries the TTL last.
    const v9 = netflow9(
      [field(IE.mplsTopLabelStackSection, 4), field(IE.mplsLabelStackSection10, 3), field(IE.octetDeltaCount, 4)],
      [[new Uint8Array([...entry(300, false), 64]), entry(301, true), 5]],
    ).flows;
    expect(v9.map((f) => f.mplsLabels)).toEqual([[300, 301]]);
  });

  it("counts an entry of another length as a bad element; a record without them has no labels", () => {
    const result = ipfix([field(IE.mplsTopLabelStackSection, 2), field(IE.octetDeltaCount, 4)], [[new Uint8Array(2), 7]]);
    expect(result.flows.map((f) => [f.mplsLabels, f.bytes])).toEqual([[[], 7]]);
    expect(result.skipped).toEqual({ "unknown-element": 0, "bad-element": 1 });
    expect(ipfix([field(IE.octetDeltaCount, 4)], [[7]]).flows[0].mplsLabels).toEqual([]);
  });

  it("win over a sampled header's labels, which fill in where the record has none", () => {
    const frame = ethernet({
      etherType: ETHERTYPE.mpls,
      payload: mpls(
        [500, 501],
        ipv4({ src: "192.0.2.1", dst: "192.0.2.2", protocol: PROTOCOL.tcp, payload: tcp({ srcPort: 1, dstPort: 2, flags: 0 }) }),
      ),
    });
    const flows = ipfix(
      [field(IE.mplsTopLabelStackSection, 3), field(IE.dataLinkFrameSection, VARIABLE)],
      [
        [entry(700, true), frame],
        [UNUSED, frame],
      ],
    ).flows;
    expect(flows.map((f) => [f.mplsLabels, f.header?.mplsLabels])).toEqual([
      [[700], [500, 501]],
      [
        [500, 501],
        [500, 501],
      ],
    ]);
  });

  it("gives the reverse half of a biflow the labels of its own elements, not the forward ones", () => {
    const fields = [
      field(IE.sourceIPv4Address, 4),
      field(IE.mplsTopLabelStackSection, 3),
      field(IE.mplsTopLabelStackSection, 3, REVERSE_PEN),
      field(IE.octetDeltaCount, 4),
      field(IE.octetDeltaCount, 4, REVERSE_PEN),
    ];
    const [forward, reverse] = ipfix(fields, [["10.0.0.5", entry(800, true), entry(900, true), 100, 50]]).flows;
    expect([forward.mplsLabels, reverse.mplsLabels]).toEqual([[800], [900]]);
    const [, none] = ipfix(fields.slice(0, 2).concat(fields.slice(3)), [["10.0.0.5", entry(800, true), 100, 50]]).flows;
    expect(none.mplsLabels).toEqual([]);
  });
});

describe("elements the decoder skips", () => {
  it("counts unknown elements per field of each data record and names them once", () => {
    const fields = [
      field(IE.sourceIPv4Address, 4),
      field(IE.ipClassOfService, 1), // an IANA element the collector does not read
      field(12_345, 2, 9), // an enterprise element of vendor 9
      field(IE.octetDeltaCount, 4),
    ];
    const result = ipfix(fields, [
      ["198.51.100.1", 0, 7, 1],
      ["198.51.100.2", 0, 7, 2],
      ["198.51.100.3", 0, 7, 3],
    ]);
    expect(result.flows.map((f) => [f.srcAddr, f.bytes])).toEqual([
      ["198.51.100.1", 1],
      ["198.51.100.2", 2],
      ["198.51.100.3", 3],
    ]);
    expect(result.skipped).toEqual({ "unknown-element": 6, "bad-element": 0 });
    expect(result.unknownElements).toEqual(["5", "9/12345"]);
  });

  it("counts a known element sent at a length it cannot be read at, and reads the rest of the record", () => {
    const fields = [field(IE.sourceIPv4Address, 6), field(IE.octetDeltaCount, 9), field(IE.packetDeltaCount, 4)];
    const result = ipfix(fields, [[new Uint8Array([1, 2, 3, 4, 5, 6]), new Uint8Array(9).fill(1), 7]]);
    expect(result.flows.map((f) => [f.srcAddr, f.bytes, f.packets])).toEqual([[null, 0, 7]]);
    expect(result.skipped).toEqual({ "unknown-element": 0, "bad-element": 2 });
  });

  it("does not count the fields of options records, which describe the exporter and not flows", () => {
    const options: TemplateSpec = {
      id: 500,
      scope: [field(IE.selectorId, 4)],
      fields: [field(IE.samplingPacketInterval, 4), field(IE.interfaceName, 8)],
    };
    const payload = encodeIpfix({
      exportTime: EXPORT_TIME,
      domain: 1,
      sets: [
        { kind: "options-template", templates: [options] },
        { kind: "data", template: options, records: [[1, 1, new Uint8Array(8)]] },
      ],
    });
    const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
    expect(result.problems).toEqual([]);
    expect(result.skipped).toEqual({ "unknown-element": 0, "bad-element": 0 });
  });
});
