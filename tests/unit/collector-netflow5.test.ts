import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState } from "~/features/collector/decode";
import { encodeNetflow5, type V5Record } from "../fixtures/flow-encoders";

const EXPORTER = "192.0.2.1";
const RECEIVED = 1_700_000_100_000;
const record: V5Record = {
  srcAddr: "198.51.100.7",
  dstAddr: "203.0.113.9",
  nextHop: "192.0.2.254",
  input: 3,
  output: 7,
  packets: 12,
  bytes: 9000,
  firstMs: 995_000,
  lastMs: 999_000,
  srcPort: 443,
  dstPort: 51000,
  tcpFlags: 0x1b,
  protocol: 6,
  srcAs: 64500,
  dstAs: 64501,
  srcMask: 24,
  dstMask: 22,
};

function decode(payload: Uint8Array) {
  return decodeDatagram(new TemplateState(), EXPORTER, payload, RECEIVED);
}

describe("NetFlow v5", () => {
  it("reads every field of the record and times it from the header's uptime and export time", () => {
    // Export at 1 700 000 000.250 s, uptime 1 000 000 ms: the flow ran from 5 s to 1 s before the export.
    const result = decode(encodeNetflow5({ sysUptimeMs: 1_000_000, unixSecs: 1_700_000_000, unixNsecs: 250_000_000 }, [record]));
    expect(result.problems).toEqual([]);
    expect(result.protocol).toBe("netflow5");
    expect(result.flows).toHaveLength(1);
    expect(result.flows[0]).toMatchObject({
      protocol: "netflow5",
      exporter: EXPORTER,
      sourceId: 0,
      samplingRate: 1,
      ipVersion: 4,
      srcAddr: "198.51.100.7",
      dstAddr: "203.0.113.9",
      nextHop: "192.0.2.254",
      inIfIndex: 3,
      outIfIndex: 7,
      packets: 12,
      bytes: 9000,
      srcPort: 443,
      dstPort: 51000,
      tcpFlags: 0x1b,
      ipProtocol: 6,
      srcAs: 64500,
      dstAs: 64501,
      srcPrefixLen: 24,
      dstPrefixLen: 22,
      exportTimeMs: 1_700_000_000_250,
      flowStartMs: 1_700_000_000_250 - 5_000,
      flowEndMs: 1_700_000_000_250 - 1_000,
      icmpType: null,
    });
  });

  it("takes the sampling interval from the low 14 bits of the header's sampling field", () => {
    const result = decode(
      encodeNetflow5({ sysUptimeMs: 1_000_000, unixSecs: 1_700_000_000, samplingMode: 1, samplingInterval: 1000 }, [record]),
    );
    expect(result.flows[0].samplingRate).toBe(1000);
  });

  it("survives the uptime counter's wrap: a flow that began before it", () => {
    const result = decode(
      encodeNetflow5({ sysUptimeMs: 2_000, unixSecs: 1_700_000_000 }, [{ ...record, firstMs: 2 ** 32 - 3_000, lastMs: 1_000 }]),
    );
    expect(result.flows[0].flowStartMs).toBe(1_700_000_000_000 - 5_000);
    expect(result.flows[0].flowEndMs).toBe(1_700_000_000_000 - 1_000);
  });

  it("reads ICMP type and code from the destination port, where v5 exporters put them", () => {
    const result = decode(
      encodeNetflow5({ sysUptimeMs: 1_000, unixSecs: 1_700_000_000 }, [{ ...record, protocol: 1, srcPort: 0, dstPort: 3 * 256 + 4 }]),
    );
    expect(result.flows[0]).toMatchObject({ icmpType: 3, icmpCode: 4 });
  });

  it("decodes no record of a datagram shorter than its header's count says, cut at any length", () => {
    const payload = encodeNetflow5({ sysUptimeMs: 1_000, unixSecs: 1_700_000_000 }, [record, record, record]);
    expect(decode(payload.subarray(0, payload.length - 10))).toMatchObject({
      flows: [],
      problems: [{ reason: "truncated", detail: "NetFlow v5 header announces 3 records (168 bytes), the datagram has 158 bytes" }],
    });
    for (let length = 24; length < payload.length; length++) {
      const result = decode(payload.subarray(0, length));
      expect([length, result.flows, result.problems.map((p) => p.reason)]).toEqual([length, [], ["truncated"]]);
    }
  });

  it("decodes no record of a datagram longer than its header's count says (bytes after a valid header)", () => {
    const payload = encodeNetflow5({ sysUptimeMs: 1_000, unixSecs: 1_700_000_000 }, [record, record]);
    // The header says one record; the second's 48 bytes and a few more follow.
    const extended = Buffer.concat([payload, Buffer.from([1, 2, 3])]);
    extended.writeUInt16BE(1, 2);
    expect(decode(extended)).toMatchObject({
      flows: [],
      problems: [{ reason: "bad-header", detail: "NetFlow v5 header announces 1 records (72 bytes), the datagram has 123 bytes" }],
    });
  });

  it("refuses a header shorter than 24 bytes", () => {
    const payload = encodeNetflow5({ sysUptimeMs: 1_000, unixSecs: 1_700_000_000 }, []);
    expect(decode(payload.subarray(0, 20)).problems[0].reason).toBe("truncated");
  });
});
