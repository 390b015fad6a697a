/**
 * A decoding thread from datagram to flows_raw row (DecodeThread.decodeBatch): the ICMP, forwarding
 * status, NAT and physical interface of an IPFIX record reach their columns of the TabSeparated
 * body, and the elements skipped are counted per exporter under their reasons (what the Data
 * sources page and flowlens_collector_decode_errors_total show).
 */
import { describe, expect, it } from "vitest";
import { FLOW_ROW_COLUMNS } from "~/features/collector/enrich/flow-row";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { encodeIpfix, IE, type TemplateSpec } from "../fixtures/flow-encoders";
import { fixtureSnapshot } from "../fixtures/enrichment-network";

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

describe("a decoding thread", () => {
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
