import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTcpCapture } from "~/features/collector/pcap/tcp-streams";
import {
  ipTcpPacket,
  pcapFileHeader,
  pcapFrameRecord,
  tcpPcapRecord,
  writeTcpPcap,
  writePcap,
  type SegmentToWrite,
} from "~/features/collector/pcap/pcap-writer";

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const ROUTER = { srcAddr: "192.0.2.61", srcPort: 40123, dstAddr: "198.51.100.6", dstPort: 1790 };
const STATION = { srcAddr: ROUTER.dstAddr, srcPort: ROUTER.dstPort, dstAddr: ROUTER.srcAddr, dstPort: ROUTER.srcPort };
const ROUTER6 = { srcAddr: "2001:db8::61", srcPort: 50000, dstAddr: "2001:db8:1::6", dstPort: 11019 };

/** Distinct bytes, so that a byte in the wrong place shows. */
const bytes = (length: number, seed = 0) => Uint8Array.from({ length }, (_, i) => (i * 7 + seed + (i >> 8)) & 0xff);

type Endpoints = typeof ROUTER;

/** The data cut into segments of `size` bytes starting at sequence number `first`, in order. */
function segmentsOf(ends: Endpoints, data: Uint8Array, first: number, size: number): SegmentToWrite[] {
  const out: SegmentToWrite[] = [];
  for (let at = 0; at < data.length; at += size) {
    out.push({ ...ends, timestampMs: T0 + out.length, seq: first + at, ack: 1, payload: data.subarray(at, at + size) });
  }
  return out;
}

const handshake = (isn: number): SegmentToWrite[] => [
  { ...ROUTER, timestampMs: T0, seq: isn, syn: true },
  { ...STATION, timestampMs: T0, seq: 9_000, ack: isn + 1, syn: true },
  { ...ROUTER, timestampMs: T0, seq: isn + 1, ack: 9_001 },
];

const read = (segments: SegmentToWrite[]) => readTcpCapture(writeTcpPcap(segments));

describe("TCP streams of a capture", () => {
  it("reassembles a whole connection from its SYN; the direction without payload is counted, not listed", () => {
    const data = bytes(5_000);
    const isn = 1_000_000;
    const acks = segmentsOf(ROUTER, data, isn + 1, 1_460).map((s, i) => ({ ...STATION, seq: 9_001, ack: isn + 1 + (i + 1) * 1_460 }));
    const capture = read([
      ...handshake(isn),
      ...segmentsOf(ROUTER, data, isn + 1, 1_460).flatMap((s, i) => [s, acks[i]]),
      { ...ROUTER, seq: isn + 1 + data.length, ack: 9_001, fin: true },
      { ...STATION, seq: 9_001, ack: isn + 2 + data.length, fin: true },
    ]);
    expect(capture).toMatchObject({ format: "pcap", packets: 13, segments: 13, silentStreams: 1, skipped: {}, truncated: null });
    expect(capture.streams).toHaveLength(1);
    expect(capture.streams[0]).toEqual({
      ...ROUTER,
      start: "syn",
      firstTimestampMs: T0,
      segments: 4,
      data,
      repeatedBytes: 0,
      outOfOrderSegments: 0,
      gaps: [],
      bytesAfterGap: 0,
      end: "fin",
    });
  });

  it("puts out-of-order segments in order and keeps retransmitted and overlapping bytes once", () => {
    const data = bytes(4_000, 3);
    const isn = 77;
    const [a, b, c, d] = segmentsOf(ROUTER, data, isn + 1, 1_000);
    // b and a swapped, c retransmitted whole, d sent as two overlapping pieces.
    const overlapping = { ...d, payload: data.subarray(2_500, 3_600), seq: isn + 1 + 2_500 };
    const rest = { ...d, payload: data.subarray(3_200, 4_000), seq: isn + 1 + 3_200 };
    const capture = read([...handshake(isn), b, a, c, c, overlapping, rest]);
    const [stream] = capture.streams;
    expect(stream.data).toEqual(data);
    expect(stream.gaps).toEqual([]);
    // c again (1,000), the overlap's first 500 bytes with c, then 400 bytes of rest over the overlap.
    expect(stream.repeatedBytes).toBe(1_000 + 500 + 400);
    expect(stream.outOfOrderSegments).toBe(1);
    expect(stream.end).toBeNull();
  });

  it("stops a stream at its first gap and reports every gap with its offset and size", () => {
    const data = bytes(6_000);
    const isn = 5;
    const pieces = segmentsOf(ROUTER, data, isn + 1, 1_000);
    // Segments 2 (bytes 2,000–2,999) and 4 (4,000–4,999) were lost; the FIN says 1,000 more bytes came after the last one seen.
    const fin = { ...ROUTER, seq: isn + 1 + 7_000, ack: 1, fin: true };
    const capture = read([...handshake(isn), pieces[0], pieces[1], pieces[3], pieces[5], fin]);
    const [stream] = capture.streams;
    expect(stream.data).toEqual(data.subarray(0, 2_000));
    expect(stream.gaps).toEqual([
      { offset: 2_000, size: 1_000 },
      { offset: 4_000, size: 1_000 },
      { offset: 6_000, size: 1_000 },
    ]);
    expect(stream.bytesAfterGap).toBe(2_000);
    expect(stream.end).toBe("fin");
  });

  it("reports a lost first segment as a gap at byte 0 when the SYN was captured", () => {
    const data = bytes(3_000);
    const [, second, third] = segmentsOf(ROUTER, data, 101, 1_000);
    const [stream] = read([...handshake(100), second, third]).streams;
    expect(stream.data).toHaveLength(0);
    expect(stream.gaps).toEqual([{ offset: 0, size: 1_000 }]);
    expect(stream.bytesAfterGap).toBe(2_000);
  });

  it("follows sequence numbers across the 32-bit wrap-around", () => {
    const data = bytes(10_000, 9);
    const isn = 2 ** 32 - 4_321;
    const segments = segmentsOf(ROUTER, data, isn + 1, 1_448);
    // One segment straddles the wrap; two arrive late across it.
    const shuffled = [segments[0], segments[1], segments[4], segments[2], segments[3], ...segments.slice(5)];
    const [stream] = read([...handshake(isn), ...shuffled]).streams;
    expect(stream.data).toEqual(data);
    expect(stream.outOfOrderSegments).toBe(2);
    expect(stream.gaps).toEqual([]);
  });

  it("without a SYN starts at the lowest sequence number seen, even when the capture begins with reordered segments", () => {
    const data = bytes(3_000, 1);
    const [a, b, c] = segmentsOf(ROUTER, data, 2 ** 32 - 1_500, 1_000);
    const [stream] = read([b, a, c]).streams;
    expect(stream.start).toBe("first-segment");
    expect(stream.data).toEqual(data);
    expect(stream.outOfOrderSegments).toBe(1);
  });

  it("reads IPv6 streams, and IPv4 ones behind VLAN tags, each in the order first seen", () => {
    const v6 = bytes(2_500, 5);
    const v4 = bytes(1_200, 6);
    const capture = read([
      ...segmentsOf(ROUTER6, v6, 10, 1_000).slice(0, 1),
      ...segmentsOf(ROUTER, v4, 50, 600).map((s) => ({ ...s, vlans: [100, 200] })),
      ...segmentsOf(ROUTER6, v6, 10, 1_000).slice(1),
    ]);
    expect(capture.streams.map((s) => [s.srcAddr, s.dstAddr, s.dstPort, s.data])).toEqual([
      [ROUTER6.srcAddr, ROUTER6.dstAddr, ROUTER6.dstPort, v6],
      [ROUTER.srcAddr, ROUTER.dstAddr, ROUTER.dstPort, v4],
    ]);
  });

  it("reads raw IP and Linux cooked captures (link types 101 and 276)", () => {
    const data = bytes(1_800, 2);
    const segments = segmentsOf(ROUTER6, data, 1, 900);
    const raw = Uint8Array.from([
      ...pcapFileHeader({ linkType: 101 }),
      ...segments.flatMap((s) => [...pcapFrameRecord(ipTcpPacket(s), T0)]),
    ]);
    expect(readTcpCapture(raw).streams[0].data).toEqual(data);
    const sll2 = (packet: Uint8Array) => Uint8Array.from([0x86, 0xdd, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, ...packet]);
    const cooked = Uint8Array.from([
      ...pcapFileHeader({ linkType: 276 }),
      ...segments.flatMap((s) => [...pcapFrameRecord(sll2(ipTcpPacket(s)), T0)]),
    ]);
    expect(readTcpCapture(cooked).streams[0].data).toEqual(data);
  });

  it("starts a new stream when a SYN with a new initial sequence number reuses a 4-tuple", () => {
    const first = bytes(700, 1);
    const second = bytes(900, 2);
    const capture = read([
      { ...ROUTER, seq: 10, syn: true },
      ...segmentsOf(ROUTER, first, 11, 500),
      { ...ROUTER, seq: 11 + first.length, rst: true },
      { ...ROUTER, seq: 70_000, syn: true },
      { ...ROUTER, seq: 70_000, syn: true }, // the SYN retransmitted: the same connection
      ...segmentsOf(ROUTER, second, 70_001, 500),
    ]);
    expect(capture.streams.map((s) => [s.data, s.end])).toEqual([
      [first, "rst"],
      [second, null],
    ]);
  });

  it("places data carried by a SYN after it, or at it when the next segment follows as if the SYN took no number", () => {
    const data = bytes(1_000);
    // RFC 9293: the SYN's data starts at its sequence number + 1.
    const rfc = read([
      { ...ROUTER, seq: 500, syn: true, payload: data.subarray(0, 300) },
      { ...ROUTER, seq: 801, payload: data.subarray(300) },
    ]).streams[0];
    expect(rfc.data).toEqual(data);
    // As test tools write them (and as the Huawei capture of pmacct's tests is): no number taken by the SYN.
    const tool = read([
      { ...ROUTER, seq: 1, syn: true, payload: data.subarray(0, 300) },
      { ...ROUTER, seq: 301, payload: data.subarray(300) },
    ]).streams[0];
    expect(tool.data).toEqual(data);
    expect(read([{ ...ROUTER, seq: 0, syn: true, payload: data }]).streams[0].data).toEqual(data);
  });

  it("ignores bytes beyond the FIN's sequence number", () => {
    const data = bytes(1_000);
    const [stream] = read([
      { ...ROUTER, seq: 1, payload: data },
      { ...ROUTER, seq: 1_001, fin: true },
      { ...ROUTER, seq: 1_001, payload: bytes(50) },
    ]).streams;
    expect(stream.data).toEqual(data);
    expect(stream.gaps).toEqual([]);
  });

  it("skips and counts IP fragments, UDP and other frames; a fragmented segment shows as a gap", () => {
    const data = bytes(3_000);
    const segments = segmentsOf(ROUTER, data, 1, 1_000);
    const records = segments.map((s) => tcpPcapRecord(s));
    // The second segment, fragmented: both fragments are skipped.
    const fragment = (offsetWord: number) => {
      const record = tcpPcapRecord(segments[1]);
      record[16 + 14 + 6] = offsetWord >> 8;
      record[16 + 14 + 7] = offsetWord & 0xff;
      return record;
    };
    const udp = writePcap([{ ...ROUTER, payload: bytes(10) }]).subarray(24);
    const capture = readTcpCapture(
      Uint8Array.from([...pcapFileHeader(), ...records[0], ...fragment(0x2000), ...fragment(0x0010), ...udp, ...records[2]]),
    );
    expect(capture.skipped).toEqual({ fragment: 2, "not-tcp": 1 });
    expect(capture.streams[0].data).toEqual(data.subarray(0, 1_000));
    expect(capture.streams[0].gaps).toEqual([{ offset: 1_000, size: 1_000 }]);
  });

  it("gives back the bytes sent, whatever the segmentation, order, repetition and sequence numbers", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 3_000 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 700 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        (data, isn, size, moves, withSyn) => {
          const segments = segmentsOf(ROUTER, data, isn + (withSyn ? 1 : 0), size);
          // Moves swap segments and repeat some, never losing one.
          const sent = [...segments];
          for (const move of moves) {
            const i = move % sent.length;
            const j = (move >> 3) % sent.length;
            [sent[i], sent[j]] = [sent[j], sent[i]];
            if (move % 5 === 0) sent.push(sent[i]);
          }
          const capture = read(withSyn ? [{ ...ROUTER, seq: isn, syn: true }, ...sent] : sent);
          expect(capture.streams).toHaveLength(1);
          expect(capture.streams[0].data).toEqual(data);
          expect(capture.streams[0].gaps).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
