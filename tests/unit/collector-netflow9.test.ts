import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState } from "~/features/collector/decode";
import { encodeNetflow9, IE, type TemplateSpec, type V9Message } from "../fixtures/flow-encoders";

const EXPORTER = "192.0.2.9";
const UPTIME = 3_600_000;
const UNIX_SECS = 1_700_000_000;
const EXPORT_MS = UNIX_SECS * 1000;

const flowTemplate: TemplateSpec = {
  id: 260,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 2 },
    { id: IE.egressInterface, length: 2 },
    { id: IE.flowStartSysUpTime, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
  ],
};
const row = (src: string, bytes: number) => [src, "203.0.113.5", 40000, 443, 6, bytes, 3, 10, 20, UPTIME - 8_000, UPTIME - 2_000];

function message(sets: V9Message["sets"], sourceId = 7, unixSecs = UNIX_SECS): Uint8Array {
  return encodeNetflow9({ sysUptimeMs: UPTIME, unixSecs, sourceId, sets });
}

describe("NetFlow v9", () => {
  it("reads data through a template announced in an earlier datagram, timed by FIRST/LAST_SWITCHED", () => {
    const state = new TemplateState();
    expect(decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }]), 0).flows).toEqual([]);
    const result = decodeDatagram(
      state,
      EXPORTER,
      message([{ kind: "data", template: flowTemplate, records: [row("198.51.100.1", 1500)] }]),
      0,
    );
    expect(result.problems).toEqual([]);
    expect(result.flows).toHaveLength(1);
    expect(result.flows[0]).toMatchObject({
      protocol: "netflow9",
      exporter: EXPORTER,
      sourceId: 7,
      samplingRate: 1,
      ipVersion: 4,
      srcAddr: "198.51.100.1",
      dstAddr: "203.0.113.5",
      srcPort: 40000,
      dstPort: 443,
      ipProtocol: 6,
      bytes: 1500,
      packets: 3,
      inIfIndex: 10,
      outIfIndex: 20,
      flowStartMs: EXPORT_MS - 8_000,
      flowEndMs: EXPORT_MS - 2_000,
      exportTimeMs: EXPORT_MS,
    });
  });

  it("reads a template and its data in the same datagram", () => {
    const payload = message([
      { kind: "template", templates: [flowTemplate] },
      { kind: "data", template: flowTemplate, records: [row("198.51.100.1", 100), row("198.51.100.2", 200)] },
    ]);
    expect(decodeDatagram(new TemplateState(), EXPORTER, payload, 0).flows.map((f) => f.bytes)).toEqual([100, 200]);
  });

  it("buffers data that comes before its template and decodes it, with its own export time, when the template arrives", () => {
    const state = new TemplateState();
    const early = decodeDatagram(
      state,
      EXPORTER,
      message([{ kind: "data", template: flowTemplate, records: [row("198.51.100.1", 100)] }], 7, UNIX_SECS - 60),
      1_000,
    );
    expect(early.flows).toEqual([]);
    expect(early.templateMisses).toBe(0);
    expect(state.stats().pendingSets).toBe(1);
    const later = decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }]), 2_000);
    expect(later.flows).toHaveLength(1);
    expect(later.flows[0]).toMatchObject({ bytes: 100, exportTimeMs: EXPORT_MS - 60_000, flowEndMs: EXPORT_MS - 62_000 });
    expect(state.stats().pendingSets).toBe(0);
  });

  it("keeps templates apart per exporter and per source id", () => {
    const state = new TemplateState();
    decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }], 1), 0);
    const data = (sourceId: number) => message([{ kind: "data", template: flowTemplate, records: [row("198.51.100.1", 1)] }], sourceId);
    expect(decodeDatagram(state, EXPORTER, data(1), 0).flows).toHaveLength(1);
    expect(decodeDatagram(state, EXPORTER, data(2), 0).flows).toHaveLength(0);
    expect(decodeDatagram(state, "192.0.2.10", data(1), 0).flows).toHaveLength(0);
  });

  it("replaces a template when the same id is announced again (refresh)", () => {
    const state = new TemplateState();
    const narrow: TemplateSpec = {
      id: 260,
      fields: [
        { id: IE.sourceIPv4Address, length: 4 },
        { id: IE.octetDeltaCount, length: 8 },
      ],
    };
    decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }]), 0);
    decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [narrow] }]), 0);
    const result = decodeDatagram(state, EXPORTER, message([{ kind: "data", template: narrow, records: [["198.51.100.3", 2 ** 40]] }]), 0);
    expect(result.problems).toEqual([]);
    expect(result.flows.map((f) => [f.srcAddr, f.bytes, f.dstAddr])).toEqual([["198.51.100.3", 2 ** 40, null]]);
  });

  describe("sampling", () => {
    const samplerOptions: TemplateSpec = {
      id: 257,
      scope: [{ id: 1, length: 4 }], // scope type 1: System
      fields: [
        { id: IE.samplerId, length: 1 },
        { id: IE.samplerMode, length: 1 },
        { id: IE.samplerRandomInterval, length: 4 },
      ],
    };
    const sampled: TemplateSpec = { id: 261, fields: [...flowTemplate.fields, { id: IE.samplerId, length: 1 }] };
    const sampledRow = (sampler: number, bytes: number) => [...row("198.51.100.1", bytes), sampler];

    it("applies the rate the options data gives the record's sampler, each sampler its own", () => {
      const state = new TemplateState();
      decodeDatagram(state, EXPORTER, message([{ kind: "options-template", templates: [samplerOptions] }]), 0);
      decodeDatagram(
        state,
        EXPORTER,
        message([
          {
            kind: "data",
            template: samplerOptions,
            records: [
              [0, 1, 2, 2000],
              [0, 2, 2, 4000],
            ],
          },
        ]),
        0,
      );
      const result = decodeDatagram(
        state,
        EXPORTER,
        message([
          { kind: "template", templates: [sampled] },
          { kind: "data", template: sampled, records: [sampledRow(2, 10), sampledRow(1, 20), sampledRow(9, 30)] },
        ]),
        0,
      );
      expect(result.problems).toEqual([]);
      // Sampler 9 is unknown and the exporter has two: nothing to go by.
      expect(result.flows.map((f) => [f.bytes, f.samplingRate])).toEqual([
        [10, 4000],
        [20, 2000],
        [30, 1],
      ]);
    });

    it("uses the exporter's only sampler for records that name none, SAMPLING_INTERVAL in system-scoped options", () => {
      const state = new TemplateState();
      const systemOptions: TemplateSpec = {
        id: 258,
        scope: [{ id: 1, length: 4 }],
        fields: [
          { id: IE.samplingInterval, length: 4 },
          { id: IE.samplingAlgorithm, length: 1 },
        ],
      };
      const payload = message([
        { kind: "options-template", templates: [systemOptions] },
        { kind: "data", template: systemOptions, records: [[0, 512, 2]] },
        { kind: "template", templates: [flowTemplate] },
        { kind: "data", template: flowTemplate, records: [row("198.51.100.1", 10)] },
      ]);
      expect(decodeDatagram(state, EXPORTER, payload, 0).flows.map((f) => f.samplingRate)).toEqual([512]);
    });

    it("lets a record's own SAMPLING_INTERVAL win over its sampler's rate", () => {
      const state = new TemplateState();
      const own: TemplateSpec = { id: 262, fields: [...sampled.fields, { id: IE.samplingInterval, length: 4 }] };
      const payload = message([
        { kind: "options-template", templates: [samplerOptions] },
        { kind: "data", template: samplerOptions, records: [[0, 1, 2, 2000]] },
        { kind: "template", templates: [own] },
        { kind: "data", template: own, records: [[...sampledRow(1, 10), 100]] },
      ]);
      expect(decodeDatagram(state, EXPORTER, payload, 0).flows.map((f) => f.samplingRate)).toEqual([100]);
    });

    it("reads options data that arrived before the options template once it comes", () => {
      const state = new TemplateState();
      decodeDatagram(state, EXPORTER, message([{ kind: "data", template: samplerOptions, records: [[0, 1, 2, 300]] }]), 0);
      decodeDatagram(state, EXPORTER, message([{ kind: "options-template", templates: [samplerOptions] }]), 0);
      const result = decodeDatagram(
        state,
        EXPORTER,
        message([
          { kind: "template", templates: [sampled] },
          { kind: "data", template: sampled, records: [sampledRow(1, 1)] },
        ]),
        0,
      );
      expect(result.flows[0].samplingRate).toBe(300);
    });
  });

  describe("malformed input", () => {
    it("refuses a template with a zero-length field and a template id below 256", () => {
      const result = decodeDatagram(
        new TemplateState(),
        EXPORTER,
        message([
          { kind: "template", templates: [{ id: 300, fields: [{ id: IE.octetDeltaCount, length: 0 }] }] },
          { kind: "template", templates: [{ id: 12, fields: [{ id: IE.octetDeltaCount, length: 4 }] }] },
        ]),
        0,
      );
      expect(result.problems).toEqual([
        { reason: "bad-template", detail: "template 300 has a zero-length field (element 1)" },
        { reason: "bad-template", detail: "template id 12 is below 256" },
      ]);
    });

    it("stores nothing of a datagram with a flowset longer than the datagram: no flow, no template", () => {
      const payload = message([
        { kind: "template", templates: [flowTemplate] },
        { kind: "data", template: flowTemplate, records: [row("198.51.100.1", 1)] },
        { kind: "raw", id: 260, body: [1, 2, 3, 4] },
      ]);
      payload[payload.length - 6] = 0x10; // the raw set's length: 4096
      const state = new TemplateState();
      const result = decodeDatagram(state, EXPORTER, payload, 0);
      expect(result.flows).toEqual([]);
      expect(result.problems).toEqual([{ reason: "truncated", detail: "set 260 of length 4104 runs 4096 bytes beyond the datagram" }]);
      // The template of the refused datagram was not learnt: data for it waits.
      const data = decodeDatagram(
        state,
        EXPORTER,
        message([{ kind: "data", template: flowTemplate, records: [row("198.51.100.1", 1)] }]),
        0,
      );
      expect([data.flows, data.templateMisses]).toEqual([[], 0]);
      expect(state.domain("netflow9", EXPORTER, 7).pending).toHaveLength(1);
    });

    it("stores no flow of a datagram cut at any length past its header, nor buffers its data sets", () => {
      const state = new TemplateState();
      decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }]), 0);
      const whole = message([
        { kind: "data", template: flowTemplate, records: [row("198.51.100.1", 1), row("198.51.100.2", 2)] },
        { kind: "data", template: { ...flowTemplate, id: 261 }, records: [row("198.51.100.3", 3)] },
      ]);
      expect(decodeDatagram(state, EXPORTER, whole, 0).flows).toHaveLength(2);
      const firstSetEnd = 20 + new DataView(whole.buffer, whole.byteOffset).getUint16(22);
      for (let length = 21; length < whole.length; length++) {
        // Cut at the end of the first flowset, the datagram is whole as far as v9 can tell (it has no length of its own).
        if (length === firstSetEnd) continue;
        const result = decodeDatagram(state, EXPORTER, whole.subarray(0, length), 0);
        expect([length, result.flows, result.problems.map((p) => p.reason)]).toEqual([length, [], ["truncated"]]);
      }
      expect(state.domain("netflow9", EXPORTER, 7).pending).toHaveLength(1);
    });

    it("reports a record cut short inside its data set", () => {
      const state = new TemplateState();
      decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [flowTemplate] }]), 0);
      const result = decodeDatagram(
        state,
        EXPORTER,
        message([{ kind: "raw", id: 260, body: [198, 51, 100, 1, 203, 0, 113, 5, 0, 80] }]),
        0,
      );
      expect(result.flows).toEqual([]);
      expect(result.problems).toEqual([{ reason: "bad-record", detail: "a record ends before the fields of template 260" }]);
    });

    it("refuses a header shorter than 20 bytes", () => {
      const result = decodeDatagram(new TemplateState(), EXPORTER, message([]).subarray(0, 12), 0);
      expect(result.problems.map((p) => p.reason)).toEqual(["truncated"]);
    });
  });
});
