/**
 * The UDP datagrams of a capture file, in file order: what `flows:replay` sends and `flows:decode`
 * decodes. Pure (bytes in, datagrams out), so a browser upload could use it as well as a script.
 * The whole file is held in memory: flow captures an operator hands over are small.
 */
import { captureFormat, captureFrames, type CaptureFormat, type CaptureTruncation } from "./capture-file";
import { udpOfFrame, type SkipReason, type UdpDatagram } from "./packet-layers";

export { CaptureFormatError, type CaptureTruncation } from "./capture-file";
export type { SkipReason, UdpDatagram } from "./packet-layers";

export type Capture = {
  format: CaptureFormat;
  /** Every packet record of the file, UDP or not. */
  packets: number;
  datagrams: UdpDatagram[];
  /** Packets that gave no datagram, by reason (fragments are counted, not reassembled). */
  skipped: Partial<Record<SkipReason, number>>;
  /** Where the file ends in the middle of a record, if it does; everything before it was read. */
  truncated: CaptureTruncation | null;
};

/** Throws CaptureFormatError (with the byte offset) when the file is not a capture or its structure is broken. */
export function readCapture(bytes: Uint8Array): Capture {
  const capture: Capture = { format: captureFormat(bytes), packets: 0, datagrams: [], skipped: {}, truncated: null };
  for (const frame of captureFrames(bytes, (cut) => (capture.truncated = cut))) {
    capture.packets += 1;
    const outcome = udpOfFrame(frame.linkType, frame.data);
    if ("skipped" in outcome) capture.skipped[outcome.skipped] = (capture.skipped[outcome.skipped] ?? 0) + 1;
    else capture.datagrams.push({ timestampMs: frame.timestampMs, ...outcome.datagram });
  }
  return capture;
}
