/**
 * The TCP byte streams of a capture file, per direction: what `bmp:replay` sends and `bmp:decode`
 * decodes. Pure (bytes in, streams out); the whole file is held in memory, as support captures are.
 *
 * A stream is one direction of one connection, keyed by its 4-tuple (source address and port,
 * destination address and port) and listed in the order its first segment was captured. Both
 * directions of a connection are separate streams; only those that carried payload are returned
 * (a BMP station sends nothing back, so its direction is counted, not listed) — no port is assumed.
 *
 * Reassembly, per stream:
 * - Byte 0 is the first byte after the SYN when the SYN was captured. Without it, the stream starts at
 *   the lowest sequence number among its segments (the first segment in sequence order, so a capture
 *   that begins with reordered segments still starts at its earliest byte).
 * - A SYN carrying data is read as RFC 9293 says (data from the SYN's sequence number + 1) unless the
 *   next segment starts right after the data as if the SYN took no sequence number, which is how
 *   captures written by test tools (scapy and the like) look; then the data starts at the SYN's number.
 * - Sequence numbers are unwrapped against the previous segment of the stream (32-bit wrap-around),
 *   so a stream may cross 2^32 and segments may be up to 2 GiB apart.
 * - Segments are put in sequence order; retransmitted and overlapping bytes are counted and kept once
 *   (the copy of the segment that starts earliest, then the one captured first).
 * - A hole (a segment lost before the capture saw it, or cut by the snapshot length, which makes the
 *   frame unreadable) is a gap: its offset from byte 0 and its size are reported, and a stream's
 *   `data` STOPS at its first gap. Bytes after a gap cannot be framed: a BMP message cut in the
 *   middle would make everything after it garbage. They are counted in `bytesAfterGap`, and every
 *   further gap is still listed. A FIN whose sequence number lies beyond the last byte seen is a gap
 *   at the end.
 * - A SYN with a new initial sequence number on a 4-tuple already used starts a new stream (the port
 *   was reused by a new connection). Bytes beyond a FIN's sequence number are ignored.
 *
 * IP fragments are skipped and counted, never reassembled: TCP sizes its segments to the path MTU, so
 * they are rare; a fragmented segment shows up as a gap.
 */
import { captureFormat, captureFrames, type CaptureFormat, type CaptureTruncation } from "./capture-file";
import { tcpOfFrame, type TcpSegment, type TcpSkipReason } from "./packet-layers";

export type { TcpSkipReason } from "./packet-layers";

export type TcpGap = {
  /** Offset of the first missing byte from the stream's byte 0. */
  offset: number;
  /** Missing bytes. */
  size: number;
};

export type TcpStream = {
  srcAddr: string;
  srcPort: number;
  dstAddr: string;
  dstPort: number;
  /** Where byte 0 comes from: the SYN, or (SYN not captured) the lowest sequence number seen. */
  start: "syn" | "first-segment";
  /** Capture time of the stream's first segment (Unix ms), null when the capture has none. */
  firstTimestampMs: number | null;
  /** Segments with payload. */
  segments: number;
  /** The bytes from byte 0 up to the first gap (all of them when there is none). */
  data: Uint8Array;
  /** Payload bytes captured more than once (retransmissions, overlapping segments), kept once. */
  repeatedBytes: number;
  /** Segments that were captured after a segment further on in the stream and brought bytes not seen before. */
  outOfOrderSegments: number;
  /** Every hole, in stream order. */
  gaps: TcpGap[];
  /** Captured bytes after the first gap: not in `data`. */
  bytesAfterGap: number;
  /** How the capture saw the sender end it: FIN, RST, or not at all. */
  end: "fin" | "rst" | null;
};

export type TcpCapture = {
  format: CaptureFormat;
  /** Every packet record of the file, TCP or not. */
  packets: number;
  /** TCP segments read, with or without payload. */
  segments: number;
  /** Streams that carried payload, in the order their first segment was captured. */
  streams: TcpStream[];
  /** Stream directions that carried no payload (acknowledgements only): not listed. */
  silentStreams: number;
  /** Packets that gave no TCP segment, by reason (fragments are counted, not reassembled). */
  skipped: Partial<Record<TcpSkipReason, number>>;
  /** Where the file ends in the middle of a record, if it does; everything before it was read. */
  truncated: CaptureTruncation | null;
};

/** Throws CaptureFormatError (with the byte offset) when the file is not a capture or its structure is broken. */
export function readTcpCapture(bytes: Uint8Array): TcpCapture {
  const format = captureFormat(bytes);
  let truncated: CaptureTruncation | null = null;
  let packets = 0;
  const skipped: Partial<Record<TcpSkipReason, number>> = {};
  const segments: TimedSegment[] = [];
  for (const frame of captureFrames(bytes, (cut) => (truncated = cut))) {
    packets += 1;
    const outcome = tcpOfFrame(frame.linkType, frame.data);
    if ("skipped" in outcome) skipped[outcome.skipped] = (skipped[outcome.skipped] ?? 0) + 1;
    else segments.push({ ...outcome.segment, timestampMs: frame.timestampMs });
  }
  const { streams, silentStreams } = reassembleTcpStreams(segments);
  return { format, packets, segments: segments.length, streams, silentStreams, skipped, truncated };
}

export type TimedSegment = TcpSegment & { timestampMs: number | null };

/** The streams of segments given in capture order (see the module's comment for the rules). */
export function reassembleTcpStreams(segments: Iterable<TimedSegment>): { streams: TcpStream[]; silentStreams: number } {
  const open = new Map<string, Direction>();
  const all: Direction[] = [];
  for (const segment of segments) {
    const key = `${segment.srcAddr}|${segment.srcPort}|${segment.dstAddr}|${segment.dstPort}`;
    let direction = open.get(key);
    if (direction && segment.syn && isNewConnection(direction, segment.seq)) direction = undefined;
    if (!direction) {
      direction = newDirection(segment);
      open.set(key, direction);
      all.push(direction);
    }
    add(direction, segment);
  }
  const streams = all.filter((d) => d.pieces.length > 0).map(assemble);
  return { streams, silentStreams: all.length - streams.length };
}

/** A captured payload at its unwrapped position (sequence number relative to the direction's first segment). */
type Piece = { at: number; bytes: Uint8Array; captured: number };

type Direction = {
  first: TimedSegment;
  /** Unwrapping: the previous segment's raw sequence number and its unwrapped position. */
  lastSeq: number;
  lastAt: number;
  syn: { at: number; seq: number; length: number } | null;
  /** The first FIN: where it was and how much data its segment carried. */
  fin: { at: number; length: number; withSyn: boolean } | null;
  rst: boolean;
  pieces: Piece[];
};

function newDirection(segment: TimedSegment): Direction {
  return { first: segment, lastSeq: segment.seq, lastAt: 0, syn: null, fin: null, rst: false, pieces: [] };
}

/** A SYN is a new connection on a used 4-tuple when its initial sequence number differs from the one seen, or data came without one. */
function isNewConnection(direction: Direction, seq: number): boolean {
  if (direction.syn) return direction.syn.seq !== seq;
  return direction.pieces.length > 0;
}

function add(direction: Direction, segment: TimedSegment): void {
  // The signed 32-bit distance from the previous segment: wrap-around and reordering both unwrap.
  const at = direction.lastAt + ((segment.seq - direction.lastSeq) | 0);
  direction.lastSeq = segment.seq;
  direction.lastAt = at;
  if (segment.syn && !direction.syn) direction.syn = { at, seq: segment.seq, length: segment.payload.length };
  if (segment.rst) direction.rst = true;
  // The SYN's own data is placed once the other segments are known (see the module's comment).
  if (segment.payload.length > 0 && !segment.syn) direction.pieces.push({ at, bytes: segment.payload, captured: direction.pieces.length });
  if (segment.syn && segment.payload.length > 0 && direction.syn?.seq === segment.seq) {
    direction.pieces.push({ at: Number.NaN, bytes: segment.payload, captured: direction.pieces.length });
  }
  if (segment.fin && direction.fin === null) direction.fin = { at, length: segment.payload.length, withSyn: segment.syn };
}

function assemble(direction: Direction): TcpStream {
  const { syn } = direction;
  let base: number;
  if (syn) {
    // Data in the SYN: at SYN + 1 as the RFC says, or at SYN when the next segment follows it as if the SYN took no number.
    const toolWritten = syn.length > 0 && direction.pieces.some((p) => p.at === syn.at + syn.length);
    base = toolWritten ? syn.at : syn.at + 1;
    for (const piece of direction.pieces) if (Number.isNaN(piece.at)) piece.at = base;
  } else {
    base = direction.pieces.reduce((lowest, p) => Math.min(lowest, p.at), Infinity);
  }
  // The FIN's sequence number follows the last byte sent: nothing at or beyond it is data.
  const { fin } = direction;
  const end = fin === null ? Infinity : fin.withSyn ? fin.length : fin.at + fin.length - base;

  const outOfOrder = outOfOrderPieces(direction.pieces);
  const ordered = [...direction.pieces].sort((a, b) => a.at - b.at || a.captured - b.captured);
  const kept: Uint8Array[] = [];
  const gaps: TcpGap[] = [];
  let repeatedBytes = 0;
  let bytesAfterGap = 0;
  let outOfOrderSegments = 0;
  let cursor = 0;
  for (const piece of ordered) {
    let from = piece.at - base;
    const to = Math.min(from + piece.bytes.length, end);
    if (to <= from) continue; // beyond the FIN
    if (from < 0) {
      // Before byte 0 (before the SYN's number): nothing new can be there.
      repeatedBytes += Math.min(-from, to - from);
      from = 0;
      if (to <= 0) continue;
    }
    if (from > cursor) {
      gaps.push({ offset: cursor, size: from - cursor });
      cursor = from;
    }
    if (to <= cursor) {
      repeatedBytes += to - from;
      continue;
    }
    repeatedBytes += cursor - from;
    const fresh = piece.bytes.subarray(cursor - (piece.at - base), to - (piece.at - base));
    if (outOfOrder.has(piece)) outOfOrderSegments += 1;
    if (gaps.length) bytesAfterGap += fresh.length;
    else kept.push(fresh);
    cursor = to;
  }
  if (end !== Infinity && end > cursor) gaps.push({ offset: cursor, size: end - cursor });
  return {
    srcAddr: direction.first.srcAddr,
    srcPort: direction.first.srcPort,
    dstAddr: direction.first.dstAddr,
    dstPort: direction.first.dstPort,
    start: syn ? "syn" : "first-segment",
    firstTimestampMs: direction.first.timestampMs,
    segments: direction.pieces.length,
    data: concat(kept),
    repeatedBytes,
    outOfOrderSegments,
    gaps,
    bytesAfterGap,
    end: direction.fin !== null ? "fin" : direction.rst ? "rst" : null,
  };
}

/** Pieces captured after a piece that starts further on in the stream. */
function outOfOrderPieces(pieces: Piece[]): Set<Piece> {
  const late = new Set<Piece>();
  let furthest = -Infinity;
  for (const piece of pieces) {
    if (piece.at < furthest) late.add(piece);
    furthest = Math.max(furthest, piece.at);
  }
  return late;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
