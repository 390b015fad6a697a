/**
 * A decoding thread from datagram to flows_raw row (DecodeThread.decodeBatch): the ICMP, forwarding
 * status, NAT and physical interface of an IPFIX record reach their columns of the TabSeparated
 * body, and the elements skipped are counted per exporter under their reasons (what the Data
 * sources page and flowlens_collector_decode_errors_total show); the VLANs and MPLS labels of
 * sampled headers (IPFIX IE 315, sFlow's raw packet header) and of VLAN elements reach theirs.
 */
import { describe, expect, it } from "vitest";
import { FLOW_ROW_COLUMNS } from "~/features/collector/enrich/flow-row";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { encodeIpfix, IE, VARIABLE, type TemplateSpec } from "../fixtures/flow-encoders";
import { fixtureSnapshot } from "../fixtures/enrichment-network";
import { ETHERTYPE, PROTOCOL, ethernet, ipv4, mpls, tcp } from "../fixtures/packet-encoder";
import { datagram, extendedSwitchRecord, flowSample, rawHeaderRecord } from "../fixtures/sflow-encoder";

const EXPORT_TIME = 1_790_000_000;
const template: TemplateSpec = {
  id: 410,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.ingressPhysicalInterface, length: 4 },
    { id: IE.forwardingStatus, length: 1 },
    { id: IE.postNATSourceIPv4Address, length: 4 },
    { id: IE.postNAPTSourceTransportPort, length: 2 },
    { id: IE.ipClassOfService, length: 1 },
    { id: 77, length: 4, enterprise: 2636 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 9 },
  ],
};

function batch(exporter: string, payloads: Uint8Array[]) {
  const total = payloads.reduce((n, p) => n + p.length, 0);
  const bytes = new Uint8Array(total);
  const offsets = [0];
  for (const p of payloads) {
    bytes.set(p, offsets[offsets.length - 1]);
    offsets.push(offsets[offsets.length - 1] + p.length);
  }
  return { buffer: bytes.buffer, offsets, exporters: payloads.map(() => exporter), arrivalsMs: payloads.map(() => EXPORT_TIME * 1000) };
}

/** The body's rows as column → text. */
function rowsOf(body: Uint8Array): Record<string, string>[] {
  return new TextDecoder()
    .decode(body)
    .trim()
    .split("\n")
    .map((line) => Object.fromEntries(line.split("\t").map((value, i) => [FLOW_ROW_COLUMNS[i], value])));
}

const pick = (rows: Record<string, string>[], columns: string[]) => rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));

/**
 * A frame as an MPLS core port of a QinQ provider samples it: service tag 100 (802.1ad), customer
 * tag 2001 (802.1Q), a transport label and a service label, then the customer's TCP packet.
 */
const QINQ_MPLS_FRAME = ethernet({
  vlans: [[0x88a8, 100], 2001],
  etherType: ETHERTYPE.mpls,
  payload: mpls(
    [299_792, 16],
    ipv4({ src: "8.8.8.8", dst: "203.0.113.10", protocol: PROTOCOL.tcp, payload: tcp({ srcPort: 443, dstPort: 50_000, flags: 0x18 }) }),
  ),
});

const VLAN_COLUMNS = [
  "src_addr",
  "dst_addr",
  "protocol",
  "src_port",
  "dst_port",
  "src_vlan",
  "src_inner_vlan",
  "dst_vlan",
  "mpls_labels",
  "bytes",
];

describe("a decoding thread", () => {
  it("writes the VLANs and MPLS labels of a sampled QinQ frame with a label stack, and of VLAN elements, into the row", () => {
    const thread = new DecodeThread(60_000);
    thread.useSnapshot(fixtureSnapshot());
    const frameTemplate: TemplateSpec = {
      id: 411,
      fields: [
        { id: IE.ingressInterface, length: 4 },
        { id: IE.postVlanId, length: 2 },
        { id: IE.dataLinkFrameSize, length: 2 },
        { id: IE.dataLinkFrameSection, length: VARIABLE },
      ],
    };
    const elementTemplate: TemplateSpec = {
      id: 412,
      fields: [
        { id: IE.sourceIPv4Address, length: 4 },
        { id: IE.destinationIPv4Address, length: 4 },
        { id: IE.protocolIdentifier, length: 1 },
        { id: IE.dot1qVlanId, length: 2 },
        { id: IE.dot1qCustomerVlanId, length: 2 },
        { id: IE.postDot1qVlanId, length: 2 },
        { id: IE.mplsTopLabelStackSection, length: 3 },
        { id: IE.mplsLabelStackSection2, length: 3 },
        { id: IE.octetDeltaCount, length: 4 },
        { id: IE.packetDeltaCount, length: 4 },
      ],
    };
    const ipfix = encodeIpfix({
      exportTime: EXPORT_TIME,
      domain: 1,
      sets: [
        { kind: "template", templates: [frameTemplate, elementTemplate] },
        { kind: "data", template: frameTemplate, records: [[10, 300, 1_514, new Uint8Array(QINQ_MPLS_FRAME)]] },
        // The record's own elements name outer 42, inner 7 and egress 43 (e.g. a BNG's subscriber VLANs) and
        // a label stack of IE 70 / 71 (label 24 008, then 20 bottom of stack); the second record no labels.
        {
          kind: "data",
          template: elementTemplate,
          records: [
            ["8.8.8.8", "203.0.113.10", 17, 42, 7, 43, new Uint8Array([0x05, 0xdc, 0x80]), new Uint8Array([0x00, 0x01, 0x41]), 900, 3],
            ["8.8.8.8", "203.0.113.10", 17, 42, 7, 43, new Uint8Array(3), new Uint8Array(3), 800, 2],
          ],
        },
      ],
    });
    // sFlow: the same frame; the extended switch record adds the egress VLAN the header cannot show.
    const sflow = datagram({
      agent: "192.0.2.1",
      samples: [
        flowSample({
          samplingRate: 512,
          input: { value: 10 },
          output: { value: 30 },
          records: [rawHeaderRecord({ frameLength: 1_518, header: QINQ_MPLS_FRAME }), extendedSwitchRecord({ srcVlan: 100, dstVlan: 200 })],
        }),
      ],
    });
    const result = thread.decodeBatch(batch("192.0.2.1", [ipfix, new Uint8Array(sflow)]));
    expect(result.rows).toBe(4);
    const tuple = { src_addr: "::ffff:8.8.8.8", dst_addr: "::ffff:203.0.113.10" };
    expect(pick(rowsOf(result.body), VLAN_COLUMNS)).toEqual([
      {
        ...tuple,
        protocol: "6",
        src_port: "443",
        dst_port: "50000",
        src_vlan: "100",
        src_inner_vlan: "2001",
        dst_vlan: "300",
        mpls_labels: "[299792,16]",
        bytes: "1514",
      },
      {
        ...tuple,
        protocol: "17",
        src_port: "0",
        dst_port: "0",
        src_vlan: "42",
        src_inner_vlan: "7",
        dst_vlan: "43",
        mpls_labels: "[24008,20]",
        bytes: "900",
      },
      {
        ...tuple,
        protocol: "17",
        src_port: "0",
        dst_port: "0",
        src_vlan: "42",
        src_inner_vlan: "7",
        dst_vlan: "43",
        mpls_labels: "[]",
        bytes: "800",
      },
      {
        ...tuple,
        protocol: "6",
        src_port: "443",
        dst_port: "50000",
        src_vlan: "100",
        src_inner_vlan: "2001",
        dst_vlan: "200",
        mpls_labels: "[299792,16]",
        bytes: "1518",
      },
    ]);
  });

  it("writes ICMP, forwarding status, NAT and the physical interface into the row and counts skipped fields per exporter", () => {
    const thread = new DecodeThread(60_000);
    thread.useSnapshot(fixtureSnapshot());
    const payload = encodeIpfix({
      exportTime: EXPORT_TIME,
      domain: 1,
      sets: [
        { kind: "template", templates: [template] },
        {
          kind: "data",
          template,
          records: [
            // An echo request the router dropped (ACL deny), entering on physical port 10 (xe-0/0/1 of fra-er1).
            ["8.8.8.8", "203.0.113.10", 1, 8 * 256, 10, 0x81, "0.0.0.0", 0, 0, 0, 84, new Uint8Array(9)],
            ["8.8.8.8", "203.0.113.10", 6, 443, 10, 0x40, "198.51.100.7", 61_000, 0, 0, 1500, new Uint8Array(9)],
          ],
        },
      ],
    });
    const result = thread.decodeBatch(batch("192.0.2.1", [payload]));
    expect(result.rows).toBe(2);
    const rows = new TextDecoder()
      .decode(result.body)
      .trim()
      .split("\n")
      .map((line) => Object.fromEntries(line.split("\t").map((value, i) => [FLOW_ROW_COLUMNS[i], value])));
    const columns = [
      "protocol",
      "dst_port",
      "icmp_type",
      "icmp_code",
      "forwarding_status",
      "in_if",
      "in_if_index",
      "post_nat_src_addr",
      "post_nat_src_port",
      "bytes",
    ];
    expect(rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])))).toEqual([
      {
        protocol: "1",
        dst_port: "0",
        icmp_type: "8",
        icmp_code: "0",
        forwarding_status: "129",
        in_if: "xe-0/0/1",
        in_if_index: "10",
        post_nat_src_addr: "::",
        post_nat_src_port: "0",
        bytes: "84",
      },
      {
        protocol: "6",
        dst_port: "443",
        icmp_type: "\\N",
        icmp_code: "\\N",
        forwarding_status: "64",
        in_if: "xe-0/0/1",
        in_if_index: "10",
        post_nat_src_addr: "::ffff:198.51.100.7",
        post_nat_src_port: "61000",
        bytes: "1500",
      },
    ]);
    // Per record: IE 5 and the enterprise element not decoded, the 9-byte packet counter unreadable.
    expect(result.exporters.map((e) => [e.address, e.protocol, e.decodeErrors])).toEqual([
      ["192.0.2.1", "ipfix", { "unknown-element": 4, "bad-element": 2 }],
    ]);
  });
});
