import { describe, expect, it } from "vitest";
import { reassembleTcpStreams, type TimedSegment } from "~/features/collector/pcap/tcp-streams";
import { bmpStreamsOf, captureReport, wholeMessages } from "~/features/routing/bmp/capture-streams";

/** A BMP v3 frame of `type` around a body of `bodyBytes` bytes (the content does not matter for framing). */
function frame(type: number, bodyBytes: number): Uint8Array {
  const length = 6 + bodyBytes;
  return Uint8Array.from([
    3,
    length >>> 24,
    (length >> 16) & 0xff,
    (length >> 8) & 0xff,
    length & 0xff,
    type,
    ...new Array(bodyBytes).fill(type),
  ]);
}

const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

const ENDS = { srcAddr: "192.0.2.61", srcPort: 40000, dstAddr: "2001:db8::6", dstPort: 1790 };

function segment(seq: number, payload: Uint8Array, flags: Partial<TimedSegment> = {}): TimedSegment {
  return { ...ENDS, seq, syn: false, fin: false, rst: false, payload, timestampMs: 0, ...flags };
}

describe("whole BMP messages of a captured stream", () => {
  const messages = [frame(4, 20), frame(3, 100), frame(0, 60)];
  const stream = join(...messages);

  it("takes every message of a stream that ends on a message boundary", () => {
    expect(wholeMessages(stream, false)).toEqual({ length: stream.length, messages: 3, reason: null });
  });

  it("stops before a message cut by the end of the capture or by a gap, and says which", () => {
    const cut = stream.subarray(0, stream.length - 10);
    expect(wholeMessages(cut, false)).toEqual({
      length: 132,
      messages: 2,
      reason: "a message of 66 bytes cut after 56 by the end of the capture",
    });
    expect(wholeMessages(stream.subarray(0, 130), true)).toEqual({
      length: 26,
      messages: 1,
      reason: "a message of 106 bytes cut after 104 by a lost segment (gap)",
    });
    expect(wholeMessages(stream.subarray(0, 136), true).reason).toBe("a message header cut after 4 of 6 bytes by a lost segment (gap)");
  });

  it("takes nothing from a stream that does not start with a BMP header, and stops at one that is not", () => {
    expect(wholeMessages(stream.subarray(5), false)).toMatchObject({ length: 0, messages: 0 });
    expect(wholeMessages(stream.subarray(5), false).reason).toBe(
      "the stream does not start with a BMP message (did the capture begin in the middle of it?): version 4, not 3",
    );
    const garbage = join(messages[0], Uint8Array.from([3, 0, 0, 0, 2, 0]), messages[1]);
    expect(wholeMessages(garbage, false)).toEqual({
      length: 26,
      messages: 1,
      reason: "not a BMP message header: a message length of 2 bytes is not plausible",
    });
    const huge = join(messages[0], Uint8Array.from([3, 0x7f, 0, 0, 0, 0]));
    expect(wholeMessages(huge, false).reason).toBe("not a BMP message header: a message length of 2130706432 bytes is not plausible");
  });

  it("reports per stream what reassembly did and what was left out", () => {
    // Messages of 26, 106 and 66 bytes: bytes 150–197 lost, in the third; a fourth message after the gap.
    const fourth = frame(0, 30);
    const { streams } = reassembleTcpStreams([
      segment(100, new Uint8Array(0), { syn: true }),
      segment(101 + 26, stream.subarray(26, 126)),
      segment(101, stream.subarray(0, 26)),
      segment(101, stream.subarray(0, 26)),
      segment(101 + 100, stream.subarray(100, 150)),
      segment(101 + stream.length, fourth),
    ]);
    const bmp = bmpStreamsOf("router.pcap", streams);
    expect(bmp).toHaveLength(1);
    expect(bmp[0]).toMatchObject({ file: "router.pcap", messages: 2, leftOut: { offset: 132, bytes: 18 } });
    expect(bmp[0].bytes).toEqual(stream.subarray(0, 132));
    const capture = {
      format: "pcap" as const,
      packets: 8,
      segments: 6,
      streams,
      silentStreams: 0,
      skipped: { "not-tcp": 2 },
      truncated: null,
    };
    expect(captureReport("router.pcap", capture, bmp)).toEqual([
      "router.pcap: 8 packets, 6 TCP segments, 1 stream with data; skipped: 2 not-tcp",
      "  192.0.2.61:40000 → [2001:db8::6]:1790: 186 bytes in 5 segments from the SYN; 2 BMP messages (132 bytes); " +
        "52 bytes retransmitted or overlapping, kept once; 1 segment out of order, put in order; " +
        "1 gap (lost segments): 48 bytes missing at byte 150; the stream stops at the first gap, 36 captured bytes after it left out; " +
        "18 bytes from byte 132 left out: a message of 66 bytes cut after 18 by a lost segment (gap)",
    ]);
  });
});
