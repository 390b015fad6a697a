/**
 * The BMP messages a capture's TCP streams carry, cut at message boundaries: what `bmp:replay` sends
 * and `bmp:decode` decodes, so that both see the same bytes. Pure.
 *
 * Each stream with payload (reassembled by tcp-streams.ts, which stops a stream at its first lost
 * segment) contributes the longest run of whole BMP v3 messages from its first byte, as framed by
 * the common header (version 3, a length of 6 bytes to 16 MiB). What follows is left out and
 * reported with its offset and why: a message cut by a gap or by the end of the capture (sent on,
 * it would make the next stream's messages garbage on a shared session), or bytes that are not a BMP
 * header (a capture that began in the middle of a stream, or another protocol on another port).
 */
import type { TcpCapture, TcpStream } from "~/features/collector/pcap/tcp-streams";
import { MAX_BMP_MESSAGE_BYTES } from "./stream-decoder";

export type CapturedBmpStream = {
  /** The capture file, as given. */
  file: string;
  stream: TcpStream;
  /** The whole BMP messages from the stream's first byte. */
  bytes: Uint8Array;
  messages: number;
  /** The part of the stream's bytes that is not in `bytes`, when there is one. */
  leftOut: { offset: number; bytes: number; reason: string } | null;
};

const BMP_VERSION = 3;
const HEADER_BYTES = 6;

/** The streams of one capture file that carried payload, in capture order, cut to whole BMP messages. */
export function bmpStreamsOf(file: string, streams: readonly TcpStream[]): CapturedBmpStream[] {
  return streams.map((stream) => {
    const { length, messages, reason } = wholeMessages(stream.data, stream.gaps.length > 0);
    const leftOutBytes = stream.data.length - length;
    return {
      file,
      stream,
      bytes: stream.data.subarray(0, length),
      messages,
      leftOut: reason === null ? null : { offset: length, bytes: leftOutBytes, reason },
    };
  });
}

/** The length of the run of whole messages at the start of `data`, their count, and why it ends early. */
export function wholeMessages(data: Uint8Array, endsAtGap: boolean): { length: number; messages: number; reason: string | null } {
  let at = 0;
  let messages = 0;
  while (at < data.length) {
    if (data.length - at < HEADER_BYTES) {
      return {
        length: at,
        messages,
        reason: cutReason(`a message header cut after ${data.length - at} of ${HEADER_BYTES} bytes`, endsAtGap),
      };
    }
    const version = data[at];
    const length = ((data[at + 1] << 24) >>> 0) + (data[at + 2] << 16) + (data[at + 3] << 8) + data[at + 4];
    if (version !== BMP_VERSION || length < HEADER_BYTES || length > MAX_BMP_MESSAGE_BYTES) {
      const what =
        version !== BMP_VERSION ? `version ${version}, not ${BMP_VERSION}` : `a message length of ${length} bytes is not plausible`;
      const where =
        at === 0 ? "the stream does not start with a BMP message (did the capture begin in the middle of it?)" : "not a BMP message header";
      return { length: at, messages, reason: `${where}: ${what}` };
    }
    if (at + length > data.length) {
      return { length: at, messages, reason: cutReason(`a message of ${length} bytes cut after ${data.length - at}`, endsAtGap) };
    }
    at += length;
    messages += 1;
  }
  return { length: at, messages, reason: null };
}

function cutReason(what: string, endsAtGap: boolean): string {
  return `${what} by ${endsAtGap ? "a lost segment (gap)" : "the end of the capture"}`;
}

const number = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;
const endpoint = (address: string, port: number) => (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`);

/**
 * What a script tells about one capture file (stderr): a line for the file, then one per stream with
 * what reassembly did (retransmissions, reordering, gaps) and what was left out. `name` is how the
 * file is named in the lines (the scripts give its base name).
 */
export function captureReport(name: string, capture: TcpCapture, streams: readonly CapturedBmpStream[]): string[] {
  const skipped = Object.entries(capture.skipped).map(([reason, count]) => `${number(count)} ${reason}`);
  const notes = [
    skipped.length ? `skipped: ${skipped.join(", ")}${capture.skipped.fragment ? " (IP fragments are not reassembled)" : ""}` : "",
    capture.truncated ? `cut short at byte ${number(capture.truncated.offset)}: ${capture.truncated.detail}` : "",
  ].filter(Boolean);
  const lines = [
    `${name}: ${plural(capture.packets, "packet")}, ${plural(capture.segments, "TCP segment")}, ` +
      `${plural(streams.length, "stream")} with data` +
      notes.map((note) => `; ${note}`).join(""),
  ];
  for (const { stream, messages, bytes, leftOut } of streams) {
    const parts = [
      `${plural(stream.data.length + stream.bytesAfterGap, "byte")} in ${plural(stream.segments, "segment")}` +
        (stream.start === "syn" ? " from the SYN" : " (no SYN captured: from the lowest sequence number)"),
      `${plural(messages, "BMP message")} (${plural(bytes.length, "byte")})`,
    ];
    if (stream.repeatedBytes) parts.push(`${plural(stream.repeatedBytes, "byte")} retransmitted or overlapping, kept once`);
    if (stream.outOfOrderSegments) parts.push(`${plural(stream.outOfOrderSegments, "segment")} out of order, put in order`);
    if (stream.gaps.length) {
      const gaps = stream.gaps.map((gap) => `${plural(gap.size, "byte")} missing at byte ${number(gap.offset)}`).join(", ");
      parts.push(
        `${plural(stream.gaps.length, "gap")} (lost segments): ${gaps}; the stream stops at the first gap` +
          (stream.bytesAfterGap ? `, ${plural(stream.bytesAfterGap, "captured byte")} after it left out` : ""),
      );
    }
    if (leftOut) parts.push(`${plural(leftOut.bytes, "byte")} from byte ${number(leftOut.offset)} left out: ${leftOut.reason}`);
    if (stream.end) parts.push(`ended by ${stream.end.toUpperCase()}`);
    lines.push(`  ${endpoint(stream.srcAddr, stream.srcPort)} → ${endpoint(stream.dstAddr, stream.dstPort)}: ${parts.join("; ")}`);
  }
  return lines;
}
