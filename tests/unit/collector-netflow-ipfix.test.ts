import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState } from "~/features/collector/decode";
import { encodeIpfix, IE, REVERSE_PEN, VARIABLE, type FieldValue, type IpfixMessage, type TemplateSpec } from "../fixtures/flow-encoders";

const EXPORTER = "2001:db8::1";
const EXPORT_TIME = 1_700_000_000;
const DOMAIN = 42;

function message(sets: IpfixMessage["sets"], domain = DOMAIN): Uint8Array {
  return encodeIpfix({ exportTime: EXPORT_TIME, domain, sets });
}
function decodeAll(state: TemplateState, ...payloads: Uint8Array[]) {
  return payloads.map((payload) => decodeDatagram(state, EXPORTER, payload, 0));
}
function once(sets: IpfixMessage["sets"]) {
  return decodeDatagram(new TemplateState(), EXPORTER, message(sets), 0);
}

const basic: TemplateSpec = {
  id: 300,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.octetDeltaCount, length: 8 },
    { id: IE.packetDeltaCount, length: 4 },
  ],
};
const basicRow = (bytes: number): FieldValue[] => ["198.51.100.1", "203.0.113.1", bytes, 1];

describe("IPFIX", () => {
  it("reads every element the collector uses", () => {
    const t: TemplateSpec = {
      id: 256,
      fields: [
        { id: IE.sourceIPv6Address, length: 16 },
        { id: IE.destinationIPv6Address, length: 16 },
        { id: IE.sourceIPv6PrefixLength, length: 1 },
        { id: IE.destinationIPv6PrefixLength, length: 1 },
        { id: IE.sourceTransportPort, length: 2 },
        { id: IE.destinationTransportPort, length: 2 },
        { id: IE.protocolIdentifier, length: 1 },
        { id: IE.tcpControlBits, length: 2 },
        { id: IE.octetDeltaCount, length: 8 },
        { id: IE.packetDeltaCount, length: 8 },
        { id: IE.ingressInterface, length: 4 },
        { id: IE.egressInterface, length: 4 },
        { id: IE.bgpSourceAsNumber, length: 4 },
        { id: IE.bgpDestinationAsNumber, length: 4 },
        { id: IE.ipNextHopIPv6Address, length: 16 },
        { id: IE.bgpNextHopIPv6Address, length: 16 },
        { id: IE.dot1qVlanId, length: 2 },
        { id: IE.dot1qCustomerVlanId, length: 2 },
        { id: IE.postDot1qVlanId, length: 2 },
        { id: IE.flowDirection, length: 1 },
        { id: IE.ingressVRFID, length: 4 },
        { id: IE.egressVRFID, length: 4 },
        { id: IE.flowStartMilliseconds, length: 8 },
        { id: IE.flowEndMilliseconds, length: 8 },
      ],
    };
    const values: FieldValue[] = [
      "2001:db8:1::5",
      "2001:db8:2::9",
      48,
      56,
      443,
      50000,
      6,
      0x12,
      123_456_789_012,
      99,
      1001,
      1002,
      4_200_000_001,
      64512,
      "2001:db8::fe",
      "2001:db8::bb",
      100,
      200,
      300,
      1,
      7,
      8,
      1_699_999_990_123n,
      1_699_999_999_456n,
    ];
    const result = once([
      { kind: "template", templates: [t] },
      { kind: "data", template: t, records: [values] },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.flows).toEqual([
      expect.objectContaining({
        protocol: "ipfix",
        exporter: EXPORTER,
        sourceId: DOMAIN,
        ipVersion: 6,
        srcAddr: "2001:db8:1::5",
        dstAddr: "2001:db8:2::9",
        srcPrefixLen: 48,
        dstPrefixLen: 56,
        srcPort: 443,
        dstPort: 50000,
        ipProtocol: 6,
        tcpFlags: 0x12,
        bytes: 123_456_789_012,
        packets: 99,
        inIfIndex: 1001,
        outIfIndex: 1002,
        srcAs: 4_200_000_001,
        dstAs: 64512,
        nextHop: "2001:db8::fe",
        bgpNextHop: "2001:db8::bb",
        vlans: [100, 200],
        egressVlan: 300,
        direction: 1,
        ingressVrfId: 7,
        egressVrfId: 8,
        flowStartMs: 1_699_999_990_123,
        flowEndMs: 1_699_999_999_456,
        exportTimeMs: EXPORT_TIME * 1000,
        samplingRate: 1,
      }),
    ]);
  });

  it("reads IPv4 next hops, vlanId/postVlanId, prefix lengths and ICMP type and code", () => {
    const t: TemplateSpec = {
      id: 257,
      fields: [
        { id: IE.sourceIPv4Address, length: 4 },
        { id: IE.sourceIPv4PrefixLength, length: 1 },
        { id: IE.destinationIPv4PrefixLength, length: 1 },
        { id: IE.ipNextHopIPv4Address, length: 4 },
        { id: IE.bgpNextHopIPv4Address, length: 4 },
        { id: IE.vlanId, length: 2 },
        { id: IE.postVlanId, length: 2 },
        { id: IE.protocolIdentifier, length: 1 },
        { id: IE.icmpTypeCodeIPv4, length: 2 },
      ],
    };
    const t2: TemplateSpec = {
      id: 258,
      // ICMP elements count for ICMP and ICMPv6 records only: the protocol says which.
      fields: [
        { id: IE.protocolIdentifier, length: 1 },
        { id: IE.icmpTypeIPv6, length: 1 },
        { id: IE.icmpCodeIPv6, length: 1 },
      ],
    };
    const result = once([
      { kind: "template", templates: [t, t2] },
      { kind: "data", template: t, records: [["192.0.2.1", 24, 16, "192.0.2.254", "192.0.2.253", 10, 20, 1, 8 * 256]] },
      { kind: "data", template: t2, records: [[58, 128, 0]] },
    ]);
    expect(result.flows[0]).toMatchObject({
      srcPrefixLen: 24,
      dstPrefixLen: 16,
      nextHop: "192.0.2.254",
      bgpNextHop: "192.0.2.253",
      vlans: [10],
      egressVlan: 20,
      icmpType: 8,
      icmpCode: 0,
    });
    expect(result.flows[1]).toMatchObject({ icmpType: 128, icmpCode: 0 });
  });

  it("buffers data sets until their template arrives", () => {
    const state = new TemplateState();
    const [early, late] = decodeAll(
      state,
      message([{ kind: "data", template: basic, records: [basicRow(5)] }]),
      message([{ kind: "template", templates: [basic] }]),
    );
    expect(early.flows).toEqual([]);
    expect(late.flows.map((f) => f.bytes)).toEqual([5]);
  });

  it("withdraws one template (field count 0) and then all of them (template id 2)", () => {
    const other: TemplateSpec = { ...basic, id: 301 };
    const data = (t: TemplateSpec) => message([{ kind: "data", template: t, records: [basicRow(1)] }]);
    const state = new TemplateState();
    decodeAll(state, message([{ kind: "template", templates: [basic, other] }]));
    const [, afterOne, stillOther] = decodeAll(state, message([{ kind: "withdraw", setId: 2, ids: [300] }]), data(basic), data(other));
    expect(afterOne.flows).toEqual([]);
    expect(stillOther.flows).toHaveLength(1);
    const [, afterAll] = decodeAll(state, message([{ kind: "withdraw", setId: 2, ids: [2] }]), data(other));
    expect(afterAll.flows).toEqual([]);
    expect(state.stats().templates).toBe(0);
  });

  it("withdraws every options template with id 3, leaving data templates", () => {
    const options: TemplateSpec = {
      id: 400,
      scope: [{ id: IE.selectorId, length: 4 }],
      fields: [{ id: IE.samplingPacketInterval, length: 4 }],
    };
    const state = new TemplateState();
    decodeAll(
      state,
      message([
        { kind: "template", templates: [basic] },
        { kind: "options-template", templates: [options] },
      ]),
    );
    decodeAll(state, message([{ kind: "withdraw", setId: 3, ids: [3] }]));
    expect(state.stats().templates).toBe(1);
  });

  it("reads variable-length fields, short and with the 3-byte length", () => {
    const t: TemplateSpec = {
      id: 310,
      fields: [
        { id: IE.interfaceName, length: VARIABLE },
        { id: IE.octetDeltaCount, length: 4 },
        { id: IE.interfaceName, length: VARIABLE },
        { id: IE.packetDeltaCount, length: 2 },
      ],
    };
    const result = once([
      { kind: "template", templates: [t] },
      {
        kind: "data",
        template: t,
        records: [
          ["ge-0/0/1", 77, "x".repeat(300), 5],
          ["", 78, "", 6],
        ],
      },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.flows.map((f) => [f.bytes, f.packets])).toEqual([
      [77, 5],
      [78, 6],
    ]);
  });

  it("skips enterprise-specific elements it does not know, by their length", () => {
    const t: TemplateSpec = {
      id: 311,
      fields: [
        { id: 1, length: 4, enterprise: 9 },
        { id: IE.octetDeltaCount, length: 4 },
        { id: 2, length: VARIABLE, enterprise: 2636 },
        { id: IE.packetDeltaCount, length: 4 },
      ],
    };
    const result = once([
      { kind: "template", templates: [t] },
      { kind: "data", template: t, records: [[0xffffffff, 500, "vendor", 4]] },
    ]);
    expect(result.flows.map((f) => [f.bytes, f.packets])).toEqual([[500, 4]]);
  });

  describe("RFC 5103 biflows", () => {
    const bi: TemplateSpec = {
      id: 320,
      fields: [
        { id: IE.sourceIPv4Address, length: 4 },
        { id: IE.destinationIPv4Address, length: 4 },
        { id: IE.sourceTransportPort, length: 2 },
        { id: IE.destinationTransportPort, length: 2 },
        { id: IE.ingressInterface, length: 4 },
        { id: IE.egressInterface, length: 4 },
        { id: IE.bgpSourceAsNumber, length: 4 },
        { id: IE.bgpDestinationAsNumber, length: 4 },
        { id: IE.octetDeltaCount, length: 8 },
        { id: IE.packetDeltaCount, length: 8 },
        { id: IE.tcpControlBits, length: 1 },
        { id: IE.octetDeltaCount, length: 8, enterprise: REVERSE_PEN },
        { id: IE.packetDeltaCount, length: 8, enterprise: REVERSE_PEN },
        { id: IE.tcpControlBits, length: 1, enterprise: REVERSE_PEN },
      ],
    };

    it("makes two flows: the reverse one swapped, with the reverse counters", () => {
      const result = once([
        { kind: "template", templates: [bi] },
        { kind: "data", template: bi, records: [["10.0.0.1", "10.0.0.2", 5000, 80, 1, 2, 65001, 65002, 600, 6, 0x02, 9000, 8, 0x12]] },
      ]);
      expect(result.flows).toHaveLength(2);
      expect(result.flows[0]).toMatchObject({
        srcAddr: "10.0.0.1",
        dstAddr: "10.0.0.2",
        srcPort: 5000,
        dstPort: 80,
        inIfIndex: 1,
        outIfIndex: 2,
        srcAs: 65001,
        dstAs: 65002,
        bytes: 600,
        packets: 6,
        tcpFlags: 0x02,
      });
      expect(result.flows[1]).toMatchObject({
        srcAddr: "10.0.0.2",
        dstAddr: "10.0.0.1",
        srcPort: 80,
        dstPort: 5000,
        inIfIndex: 2,
        outIfIndex: 1,
        srcAs: 65002,
        dstAs: 65001,
        bytes: 9000,
        packets: 8,
        tcpFlags: 0x12,
      });
    });

    it("drops the reverse flow when its counters are zero", () => {
      const result = once([
        { kind: "template", templates: [bi] },
        { kind: "data", template: bi, records: [["10.0.0.1", "10.0.0.2", 5000, 80, 1, 2, 0, 0, 600, 6, 0, 0, 0, 0]] },
      ]);
      expect(result.flows.map((f) => f.srcAddr)).toEqual(["10.0.0.1"]);
    });
  });

  describe("sampling", () => {
    const selectorOptions: TemplateSpec = {
      id: 400,
      scope: [{ id: IE.selectorId, length: 4 }],
      fields: [
        { id: IE.selectorAlgorithm, length: 1 },
        { id: IE.samplingPacketInterval, length: 4 },
        { id: IE.samplingPacketSpace, length: 4 },
      ],
    };
    const withSelector: TemplateSpec = { id: 330, fields: [...basic.fields, { id: IE.selectorId, length: 4 }] };

    it("maps each record's selectorId to its selector's rate (1 packet in interval + space)", () => {
      const result = once([
        { kind: "options-template", templates: [selectorOptions] },
        {
          kind: "data",
          template: selectorOptions,
          records: [
            [5, 1, 1, 99],
            [6, 1, 1, 9],
          ],
        },
        { kind: "template", templates: [withSelector] },
        {
          kind: "data",
          template: withSelector,
          records: [
            [...basicRow(1), 5],
            [...basicRow(2), 6],
          ],
        },
      ]);
      expect(result.flows.map((f) => f.samplingRate)).toEqual([100, 10]);
    });

    it("takes a record's own samplingInterval first", () => {
      const own: TemplateSpec = { id: 331, fields: [...withSelector.fields, { id: IE.samplingInterval, length: 4 }] };
      const result = once([
        { kind: "options-template", templates: [selectorOptions] },
        { kind: "data", template: selectorOptions, records: [[5, 1, 1, 99]] },
        { kind: "template", templates: [own] },
        { kind: "data", template: own, records: [[...basicRow(1), 5, 64]] },
      ]);
      expect(result.flows.map((f) => f.samplingRate)).toEqual([64]);
    });
  });

  describe("flow times", () => {
    const times = (fields: TemplateSpec["fields"], values: FieldValue[]) => {
      const t: TemplateSpec = { id: 340, fields: [...basic.fields, ...fields] };
      const flow = once([
        { kind: "template", templates: [t] },
        { kind: "data", template: t, records: [[...basicRow(1), ...values]] },
      ]).flows[0];
      return [flow.flowStartMs, flow.flowEndMs];
    };
    const NTP_OFFSET = 2_208_988_800;

    it("reads seconds, and NTP micro- and nanoseconds", () => {
      expect(
        times(
          [
            { id: IE.flowStartSeconds, length: 4 },
            { id: IE.flowEndSeconds, length: 4 },
          ],
          [1_699_999_990, 1_699_999_995],
        ),
      ).toEqual([1_699_999_990_000, 1_699_999_995_000]);
      const ntp = (unixSeconds: number, fraction: number) => (BigInt(unixSeconds + NTP_OFFSET) << 32n) | BigInt(fraction);
      expect(
        times(
          [
            { id: IE.flowStartMicroseconds, length: 8 },
            { id: IE.flowEndNanoseconds, length: 8 },
          ],
          [ntp(1_699_999_990, 2 ** 31), ntp(1_699_999_991, 2 ** 30)],
        ),
      ).toEqual([1_699_999_990_500, 1_699_999_991_250]);
    });

    it("reads flowStart/EndSysUpTime from the system init time in the record or in options data", () => {
      const init = 1_699_000_000_000;
      expect(
        times(
          [
            { id: IE.systemInitTimeMilliseconds, length: 8 },
            { id: IE.flowStartSysUpTime, length: 4 },
            { id: IE.flowEndSysUpTime, length: 4 },
          ],
          [init, 1000, 2000],
        ),
      ).toEqual([init + 1000, init + 2000]);

      const initOptions: TemplateSpec = {
        id: 401,
        scope: [{ id: 149, length: 4 }],
        fields: [{ id: IE.systemInitTimeMilliseconds, length: 8 }],
      };
      const t: TemplateSpec = {
        id: 341,
        fields: [...basic.fields, { id: IE.flowStartSysUpTime, length: 4 }, { id: IE.flowEndSysUpTime, length: 4 }],
      };
      const flow = once([
        { kind: "options-template", templates: [initOptions] },
        { kind: "data", template: initOptions, records: [[DOMAIN, init]] },
        { kind: "template", templates: [t] },
        { kind: "data", template: t, records: [[...basicRow(1), 5000, 6000]] },
      ]).flows[0];
      expect([flow.flowStartMs, flow.flowEndMs]).toEqual([init + 5000, init + 6000]);
    });
  });

  describe("malformed input", () => {
    it("reports a message length beyond the datagram", () => {
      const payload = message([{ kind: "template", templates: [basic] }]);
      expect(
        decodeDatagram(new TemplateState(), EXPORTER, payload.subarray(0, payload.length - 4), 0).problems.map((p) => p.reason),
      ).toEqual(["truncated"]);
    });

    it("stores no flow of a message cut at any length, nor learns its templates", () => {
      const whole = message([
        { kind: "template", templates: [basic] },
        { kind: "data", template: basic, records: [basicRow(10), basicRow(20)] },
      ]);
      for (let length = 0; length < whole.length; length++) {
        const state = new TemplateState();
        const result = decodeDatagram(state, EXPORTER, whole.subarray(0, length), 0);
        expect([length, result.flows, result.problems.map((p) => p.reason)]).toEqual([length, [], ["truncated"]]);
        expect(state.domain("ipfix", EXPORTER, DOMAIN).templates.size).toBe(0);
      }
      expect(
        once([
          { kind: "template", templates: [basic] },
          { kind: "data", template: basic, records: [basicRow(10)] },
        ]).flows,
      ).toHaveLength(1);
    });

    it("stores nothing of a message whose last set runs past the message's length", () => {
      const payload = message([
        { kind: "template", templates: [basic] },
        { kind: "data", template: basic, records: [basicRow(10), basicRow(20)] },
      ]);
      // The message's length field, rewritten shorter, cuts its data set (a copy cut and its header fixed up, or noise).
      new DataView(payload.buffer, payload.byteOffset).setUint16(2, payload.length - 20);
      const result = decodeDatagram(new TemplateState(), EXPORTER, payload, 0);
      expect(result.flows).toEqual([]);
      expect(result.problems).toEqual([
        { reason: "truncated", detail: expect.stringMatching(/^set 300 of length \d+ runs 20 bytes beyond/) },
      ]);
    });

    it("reports a template cut inside its field specifiers and a zero-length field", () => {
      const result = once([
        { kind: "raw", id: 2, body: [0x01, 0x2c, 0, 3, 0, 1, 0, 4] },
        { kind: "template", templates: [{ id: 302, fields: [{ id: IE.octetDeltaCount, length: 0 }] }] },
      ]);
      expect(result.problems).toEqual([
        { reason: "bad-template", detail: "template 300 declares 3 fields beyond its set" },
        { reason: "bad-template", detail: "template 302 has a zero-length field (element 1)" },
      ]);
    });

    it("reports a variable-length field running past its set", () => {
      const t: TemplateSpec = { id: 312, fields: [{ id: IE.interfaceName, length: VARIABLE }] };
      const state = new TemplateState();
      decodeAll(state, message([{ kind: "template", templates: [t] }]));
      const [result] = decodeAll(state, message([{ kind: "raw", id: 312, body: [20, 65, 66, 67, 68] }]));
      expect(result.problems).toEqual([{ reason: "bad-record", detail: "a record ends before the fields of template 312" }]);
    });
  });
});
