/**
 * Records that carry the sampled packet itself, end to end through decodeDatagram: IPFIX (and
 * NetFlow v9) dataLinkFrameSection (IE 315) with dataLinkFrameSize (IE 312), ipHeaderPacketSection
 * (IE 313), sFlow's raw packet header; what the record's own elements keep; the header's stops
 * counted per exporter and reason by the decoding thread.
 */
import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState } from "~/features/collector/decode";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { encodeIpfix, encodeNetflow9, IE, VARIABLE, type FieldValue, type TemplateSpec } from "../fixtures/flow-encoders";
import { ETHERTYPE, PROTOCOL, ethernet, ipv4, ipv6, mpls, tcp, udp, vxlan } from "../fixtures/packet-encoder";
import { datagram, flowSample, rawHeaderRecord } from "../fixtures/sflow-encoder";

const EXPORTER = "192.0.2.77";

const frameTcp = ethernet({
  vlans: [[0x88a8, 231], 12],
  etherType: ETHERTYPE.mpls,
  payload: mpls(
    [20005, 524250],
    ipv4({
      src: "51.51.51.51",
      dst: "52.52.52.52",
      protocol: PROTOCOL.tcp,
      ttl: 119,
      identification: 0x8f00,
      payload: tcp({ srcPort: 55501, dstPort: 443, flags: 0x18 }),
    }),
  ),
});

const onlyFrame: TemplateSpec = {
  id: 400,
  fields: [
    { id: IE.dataLinkFrameSize, length: 2 },
    { id: IE.dataLinkFrameSection, length: VARIABLE },
  ],
};

function ipfix(template: TemplateSpec, records: FieldValue[][]) {
  return encodeIpfix({
    exportTime: 1_700_000_000,
    domain: 1,
    sets: [
      { kind: "template", templates: [template] },
      { kind: "data", template, records },
    ],
  });
}

describe("IPFIX records of sampled frames", () => {
  it("a record of only IE 315 + IE 312 decodes to a flow with addresses, ports, protocol, VLANs, TCP flags, bytes, one packet", () => {
    const result = decodeDatagram(new TemplateState(), EXPORTER, ipfix(onlyFrame, [[1514, frameTcp.subarray(0, 128)]]), 0);
    expect(result.problems).toEqual([]);
    expect(result.flows).toHaveLength(1);
    expect(result.flows[0]).toMatchObject({
      protocol: "ipfix",
      exporter: EXPORTER,
      ipVersion: 4,
      srcAddr: "51.51.51.51",
      dstAddr: "52.52.52.52",
      srcPort: 55501,
      dstPort: 443,
      ipProtocol: 6,
      tcpFlags: 0x18,
      vlans: [231, 12],
      bytes: 1514,
      packets: 1,
      samplingRate: 1,
      header: { counted: "outer", mplsLabels: [20005, 524250], ttl: 119, fragmentId: 0x8f00, stop: null },
    });
  });

  it("the sampling rate comes as for any record (here the record's samplingInterval); bytes stay as sampled", () => {
    const sampled: TemplateSpec = { id: 401, fields: [{ id: IE.samplingInterval, length: 4 }, ...onlyFrame.fields] };
    const [flow] = decodeDatagram(new TemplateState(), EXPORTER, ipfix(sampled, [[1000, 1514, frameTcp]]), 0).flows;
    expect(flow).toMatchObject({ samplingRate: 1000, bytes: 1514, packets: 1, srcAddr: "51.51.51.51" });
  });

  it("without IE 312 the bytes are the frame up to the end of its IP packet, by the IP header's length", () => {
    const frame = ethernet({
      etherType: ETHERTYPE.ipv6,
      payload: ipv6({
        src: "2001:db8::1",
        dst: "2001:db8::2",
        nextHeader: PROTOCOL.udp,
        payload: udp({ srcPort: 1, dstPort: 53, payload: Buffer.alloc(1000) }),
      }),
    });
    const t: TemplateSpec = { id: 402, fields: [{ id: IE.dataLinkFrameSection, length: VARIABLE }] };
    const [flow] = decodeDatagram(new TemplateState(), EXPORTER, ipfix(t, [[frame.subarray(0, 128)]]), 0).flows;
    expect(flow).toMatchObject({ ipVersion: 6, srcAddr: "2001:db8::1", dstPort: 53, bytes: 14 + 40 + 8 + 1000, packets: 1 });
  });

  it("the record's counters win over the frame size; IE 313 (from the IP header) is read as a bare IP packet", () => {
    const t: TemplateSpec = {
      id: 403,
      fields: [
        { id: IE.octetDeltaCount, length: 8 },
        { id: IE.packetDeltaCount, length: 4 },
        { id: IE.ipHeaderPacketSection, length: VARIABLE },
      ],
    };
    const packet = ipv4({ src: "10.0.0.1", dst: "10.0.0.2", protocol: PROTOCOL.udp, payload: udp({ srcPort: 5, dstPort: 6 }) });
    const [flow] = decodeDatagram(new TemplateState(), EXPORTER, ipfix(t, [[9000n, 6, packet]]), 0).flows;
    expect(flow).toMatchObject({
      srcAddr: "10.0.0.1",
      dstAddr: "10.0.0.2",
      srcPort: 5,
      dstPort: 6,
      ipProtocol: 17,
      bytes: 9000,
      packets: 6,
    });
  });

  it("the record's own address elements win; the header fills what they lack — unless it counted another (inner) packet", () => {
    const t: TemplateSpec = {
      id: 404,
      fields: [{ id: IE.sourceIPv4Address, length: 4 }, { id: IE.destinationIPv4Address, length: 4 }, ...onlyFrame.fields],
    };
    const [own] = decodeDatagram(new TemplateState(), EXPORTER, ipfix(t, [["198.51.100.1", "198.51.100.2", 100, frameTcp]]), 0).flows;
    expect(own).toMatchObject({
      srcAddr: "198.51.100.1",
      dstAddr: "198.51.100.2",
      srcPort: 55501,
      dstPort: 443,
      ipProtocol: 6,
      vlans: [231, 12],
    });
    const tunnel = ethernet({
      etherType: ETHERTYPE.ipv4,
      payload: ipv4({
        src: "198.51.100.1",
        dst: "198.51.100.2",
        protocol: PROTOCOL.udp,
        payload: udp({ srcPort: 9, dstPort: 4789, payload: vxlan(1, frameTcp) }),
      }),
    });
    const [outer] = decodeDatagram(new TemplateState(), EXPORTER, ipfix(t, [["198.51.100.1", "198.51.100.2", 100, tunnel]]), 0).flows;
    expect(outer).toMatchObject({
      srcAddr: "198.51.100.1",
      srcPort: null,
      ipProtocol: null,
      header: { counted: "inner", srcAddr: "51.51.51.51" },
    });
  });

  it("a header the parser stops in: the flow is kept with what it gave, the stop is a problem with its reason", () => {
    const result = decodeDatagram(
      new TemplateState(),
      EXPORTER,
      ipfix(onlyFrame, [
        [1514, frameTcp.subarray(0, 40)],
        [1514, frameTcp],
      ]),
      0,
    );
    expect(result.flows.map((f) => [f.srcAddr, f.bytes])).toEqual([
      [null, 1514],
      ["51.51.51.51", 1514],
    ]);
    expect(result.problems).toEqual([{ reason: "header_truncated", detail: "sampled header: cut at 40 bytes in an IPv4 header" }]);
  });

  it("NetFlow v9 with the same element (IOS-XR exports it there too)", () => {
    const payload = encodeNetflow9({
      sysUptimeMs: 1000,
      unixSecs: 1_700_000_000,
      sourceId: 1,
      sets: [
        {
          kind: "template",
          templates: [
            {
              id: 300,
              fields: [
                { id: IE.dataLinkFrameSize, length: 2 },
                { id: IE.dataLinkFrameSection, length: 128 },
              ],
            },
          ],
        },
        {
          kind: "data",
          template: {
            id: 300,
            fields: [
              { id: IE.dataLinkFrameSize, length: 2 },
              { id: IE.dataLinkFrameSection, length: 128 },
            ],
          },
          records: [[900, Uint8Array.from(Buffer.concat([frameTcp, Buffer.alloc(128 - frameTcp.length)]))]],
        },
      ],
    });
    const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
    expect(result.problems).toEqual([]);
    expect(result.flows[0]).toMatchObject({ protocol: "netflow9", srcAddr: "51.51.51.51", dstPort: 443, bytes: 900, packets: 1 });
  });
});

describe("sFlow raw packet header, end to end", () => {
  it("a flow sample with only the raw header decodes to a flow with addresses, ports, protocol and bytes", () => {
    const payload = datagram({
      samples: [
        flowSample({
          samplingRate: 512,
          input: { value: 1 },
          output: { value: 2 },
          records: [rawHeaderRecord({ frameLength: 1518, header: frameTcp })],
        }),
      ],
    });
    const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
    expect(result.problems).toEqual([]);
    expect(result.flows[0]).toMatchObject({
      protocol: "sflow5",
      srcAddr: "51.51.51.51",
      dstAddr: "52.52.52.52",
      srcPort: 55501,
      dstPort: 443,
      ipProtocol: 6,
      bytes: 1518,
      packets: 1,
      samplingRate: 512,
    });
  });
});

describe("header stops, counted per exporter and reason", () => {
  it("the decoding thread adds them to the exporter's decode errors, beside its flows", () => {
    const thread = new DecodeThread(120_000);
    const arp = ethernet({ etherType: ETHERTYPE.arp, payload: Buffer.alloc(28) });
    const datagrams = [
      ipfix(onlyFrame, [
        [64, arp],
        [1514, frameTcp.subarray(0, 30)],
        [1514, frameTcp],
      ]),
      ipfix(onlyFrame, [[64, arp]]),
    ];
    const offsets = [0, datagrams[0].length, datagrams[0].length + datagrams[1].length];
    const buffer = new Uint8Array(offsets[2]);
    buffer.set(datagrams[0], 0);
    buffer.set(datagrams[1], offsets[1]);
    const { exporters } = thread.decodeBatch({ buffer: buffer.buffer, offsets, exporters: [EXPORTER, EXPORTER], arrivalsMs: [0, 0] });
    expect(exporters).toHaveLength(1);
    expect(exporters[0]).toMatchObject({ address: EXPORTER, flows: 4, decodeErrors: { header_not_ip: 2, header_truncated: 1 } });
  });
});
