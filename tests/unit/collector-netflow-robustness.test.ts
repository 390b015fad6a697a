import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState, type DecodeResult } from "~/features/collector/decode";
import { encodeIpfix, encodeNetflow5, encodeNetflow9, IE, VARIABLE, type TemplateSpec } from "../fixtures/flow-encoders";

const EXPORTER = "192.0.2.200";
const template: TemplateSpec = {
  id: 256,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.interfaceName, length: VARIABLE },
  ],
};
const v9Template: TemplateSpec = { id: 256, fields: template.fields.slice(0, 2) };

/** Valid datagrams of each version, as seeds the property cuts and corrupts. */
const SEEDS = [
  encodeNetflow5({ sysUptimeMs: 1000, unixSecs: 1_700_000_000 }, [
    { srcAddr: "10.0.0.1", dstAddr: "10.0.0.2", packets: 1, bytes: 1, firstMs: 0, lastMs: 0, protocol: 6 },
  ]),
  encodeNetflow9({
    sysUptimeMs: 1000,
    unixSecs: 1_700_000_000,
    sourceId: 1,
    sets: [
      { kind: "template", templates: [v9Template] },
      { kind: "data", template: v9Template, records: [["10.0.0.1", 5]] },
    ],
  }),
  encodeIpfix({
    exportTime: 1_700_000_000,
    domain: 1,
    sets: [
      { kind: "template", templates: [template] },
      { kind: "data", template, records: [["10.0.0.1", 5, "eth0"]] },
    ],
  }),
];

function isResult(result: DecodeResult): boolean {
  return (
    Array.isArray(result.flows) && Array.isArray(result.problems) && result.problems.every((p) => !p.detail.startsWith("decoder fault"))
  );
}

describe("malformed datagrams", () => {
  it("never throws and always terminates on random bytes, whatever the version", () => {
    const state = new TemplateState({ maxDomains: 8, maxTemplates: 32 });
    const versioned = fc
      .tuple(fc.constantFrom(5, 9, 10, 0), fc.uint8Array({ maxLength: 600 }))
      .map(([version, rest]) => Uint8Array.from([version >> 8, version & 0xff, ...rest]));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), versioned), (payload) => {
        expect(isResult(decodeDatagram(state, EXPORTER, payload, 0))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on valid datagrams cut at any length or with any byte changed", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (seed, cut, at, byte) => {
        const state = new TemplateState();
        const corrupt = seed.slice();
        corrupt[at % corrupt.length] = byte;
        // The template first, so the corrupted data reaches the record reader.
        decodeDatagram(state, EXPORTER, seed, 0);
        expect(isResult(decodeDatagram(state, EXPORTER, corrupt, 0))).toBe(true);
        expect(isResult(decodeDatagram(state, EXPORTER, seed.subarray(0, cut % (seed.length + 1)), 0))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("names what is wrong with datagrams of no known format", () => {
    const state = new TemplateState();
    expect(decodeDatagram(state, EXPORTER, Uint8Array.from([0, 7, 0, 0, 1, 2]), 0).problems).toEqual([
      { reason: "unknown-version", detail: "version 7 is none of NetFlow 5, 9, IPFIX 10 or sFlow 5" },
    ]);
    expect(decodeDatagram(state, EXPORTER, Uint8Array.from([0, 9]), 0).problems.map((p) => p.reason)).toEqual(["truncated"]);
  });

  it("hands sFlow (a 32-bit version 5) to the sFlow decoder", () => {
    expect(decodeDatagram(new TemplateState(), EXPORTER, Uint8Array.from([0, 0, 0, 5, 0, 0, 0, 1]), 0).protocol).toBe("sflow5");
  });
});
