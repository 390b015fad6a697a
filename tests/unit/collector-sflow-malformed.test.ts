/**
 * Malformed sFlow: every fault is a problem with its reason, the rest of the datagram still
 * decodes where its lengths allow, and nothing throws or loops, on built faults and on random
 * bytes (fast-check).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSflow } from "~/features/collector/decode/sflow";
import { counterSample, datagram, extendedGatewayRecord, flowSample, sampledIpRecord, tagged, u32 } from "../fixtures/sflow-encoder";

const EXPORTER = "198.51.100.7";
const V4_DATA = sampledIpRecord({
  length: 576,
  protocol: 17,
  src: "192.0.2.33",
  dst: "198.51.100.44",
  srcPort: 123,
  dstPort: 40001,
  tcpFlags: 0,
});
const sample = (records: Buffer[]) => flowSample({ samplingRate: 100, input: { value: 1 }, output: { value: 2 }, records });
const GOOD = sample([V4_DATA]);

const decode = (payload: Uint8Array) => decodeSflow(EXPORTER, payload, 0);

describe("malformed sFlow datagram headers", () => {
  it("refuses other versions without a protocol", () => {
    expect(decode(datagram({ version: 4, samples: [GOOD] }))).toEqual({
      protocol: null,
      agent: null,
      flows: [],
      problems: [{ reason: "unknown-version", detail: "sFlow version 4, expected 5" }],
      templateMisses: 0,
      counterSamples: 0,
      skipped: { "unknown-element": 0, "bad-element": 0 },
      unknownElements: [],
    });
  });

  it.each([0, 3, 4, 10, 27])("reports a header cut at %i bytes as truncated", (length) => {
    const result = decode(datagram({ samples: [GOOD] }).subarray(0, length));
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([{ reason: "truncated", detail: expect.stringContaining("datagram header") }]);
  });

  it("reports an agent address of an unknown type as a bad header", () => {
    const payload = datagram({ samples: [GOOD] });
    payload.writeUInt32BE(7, 4);
    expect(decode(payload).problems).toEqual([{ reason: "bad-header", detail: expect.stringContaining("agent address has type 7") }]);
  });
});

describe("malformed sFlow samples and records", () => {
  it("stores none of the samples of a datagram whose sample count promises more than it holds", () => {
    const result = decode(datagram({ samples: [GOOD], sampleCount: 1_000_000 }));
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([{ reason: "truncated", detail: expect.stringContaining("sample 2 of 1000000") }]);
  });

  it("stores none of the samples of a datagram with a sample whose length runs past it", () => {
    const result = decode(datagram({ samples: [GOOD, tagged(1, GOOD.subarray(8), { length: 10_000 })] }));
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([{ reason: "truncated", detail: expect.stringContaining("sample 2 of 2") }]);
  });

  it("reports a record longer than its sample as a bad record, and decodes the next sample", () => {
    const oversized = tagged(3, Buffer.alloc(8), { length: 400 });
    const result = decode(datagram({ samples: [sample([oversized]), counterSample({ ifIndex: 1 }), GOOD] }));
    expect(result.flows).toHaveLength(1);
    expect(result.counterSamples).toBe(1);
    expect(result.problems).toEqual([{ reason: "bad-record", detail: expect.stringMatching(/^sample 1 of 3: flow record 1 of 1/) }]);
  });

  it("reports a record shorter than its fields as a bad record", () => {
    const short = tagged(3, V4_DATA.subarray(8, 8 + 10));
    expect(decode(datagram({ samples: [sample([short])] })).problems).toEqual([
      { reason: "bad-record", detail: expect.stringContaining("source address runs past the end") },
    ]);
  });

  it("stops an AS path that announces more numbers than its record holds", () => {
    const gateway = extendedGatewayRecord({ nextHop: "192.0.2.1", as: 1, srcAs: 2, srcPeerAs: 3, path: [{ type: 2, asns: [64500] }] });
    // The segment length word follows next hop (8), the three ASes (12), the segment count (4) and type (4).
    gateway.writeUInt32BE(0xffffffff, 8 + 8 + 12 + 4 + 4);
    const result = decode(datagram({ samples: [sample([V4_DATA, gateway])] }));
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([{ reason: "bad-record", detail: expect.stringContaining("AS number") }]);
  });

  it("reports a raw header whose opaque length exceeds its record", () => {
    const record = tagged(1, Buffer.concat([u32(1), u32(100), u32(0), u32(5000), Buffer.alloc(16)]));
    expect(decode(datagram({ samples: [sample([record])] })).problems).toEqual([
      { reason: "bad-record", detail: expect.stringContaining("packet header") },
    ]);
  });

  it("never throws on a valid datagram cut at any length, and gives no flow of a cut one", () => {
    const full = datagram({ samples: [GOOD, counterSample({ ifIndex: 1 }), GOOD] });
    for (let length = 0; length < full.length; length++) {
      const result = decode(full.subarray(0, length));
      expect([length, result.flows]).toEqual([length, []]);
      expect(result.problems).toEqual([{ reason: "truncated", detail: expect.any(String) }]);
    }
    expect(decode(full)).toMatchObject({ problems: [], counterSamples: 1 });
  });
});

describe("sFlow decoding of arbitrary bytes (property)", () => {
  it("never throws and ends on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const result = decode(bytes);
        expect(Array.isArray(result.problems)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on random bytes after a version 5 header, and yields at most one flow per 8 bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 800 }), fc.nat(), (body, count) => {
        const payload = Buffer.concat([datagram({ samples: [], sampleCount: count % 64 }), body]);
        const result = decode(payload);
        expect(result.protocol).toBe("sflow5");
        expect(result.flows.length).toBeLessThanOrEqual(payload.length / 8);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on a valid datagram with random bytes overwritten", () => {
    const full = datagram({ samples: [GOOD, counterSample({ ifIndex: 1 }), sample([V4_DATA, V4_DATA])] });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: full.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (edits) => {
        const copy = Buffer.from(full);
        for (const [at, value] of edits) copy[at] = value;
        const result = decode(copy);
        expect(result.flows.length + result.problems.length).toBeLessThanOrEqual(full.length / 8);
      }),
      { numRuns: 3000 },
    );
  });
});
