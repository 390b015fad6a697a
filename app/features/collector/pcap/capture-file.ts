/**
 * The containers of capture files: classic libpcap (microsecond and nanosecond magic, either byte
 * order) and pcapng (sections of either byte order, interfaces with their link type and timestamp
 * resolution, enhanced, simple and obsolete packet blocks). Yields the captured frames with their
 * link type; what is inside a frame is packet-layers.ts's business.
 *
 * A file that is not a capture, or whose structure is broken before its end, is a
 * CaptureFormatError naming the byte offset. A last record cut short (a capture copied while
 * tcpdump was still writing) is not an error: the frames before it are yielded and the cut is
 * reported through `onTruncated`.
 */

export type CaptureFormat = "pcap" | "pcapng";

export type CapturedFrame = {
  /** Unix milliseconds (fractions kept); null for pcapng simple packet blocks, which carry no time. */
  timestampMs: number | null;
  linkType: number;
  data: Uint8Array;
  /** Offset of the frame's record in the file, for messages. */
  offset: number;
};

export type CaptureTruncation = { offset: number; detail: string };

export class CaptureFormatError extends Error {
  constructor(
    readonly offset: number,
    detail: string,
  ) {
    super(`not a readable capture at byte ${offset}: ${detail}`);
    this.name = "CaptureFormatError";
  }
}

/** Larger than any snapshot length tcpdump or Wireshark write: beyond it a record length is garbage, not a big packet. */
const MAX_RECORD_BYTES = 0x0100_0000;

const PCAP_MAGIC: Record<number, { littleEndian: boolean; unitsPerSecond: number }> = {
  0xd4c3b2a1: { littleEndian: true, unitsPerSecond: 1e6 },
  0xa1b2c3d4: { littleEndian: false, unitsPerSecond: 1e6 },
  0x4d3cb2a1: { littleEndian: true, unitsPerSecond: 1e9 },
  0xa1b23c4d: { littleEndian: false, unitsPerSecond: 1e9 },
};
const PCAPNG_SECTION_HEADER = 0x0a0d0d0a;
const PCAPNG_BYTE_ORDER_MAGIC = 0x1a2b3c4d;

export function captureFormat(bytes: Uint8Array): CaptureFormat {
  if (bytes.length < 4) throw new CaptureFormatError(0, `${bytes.length} bytes: too short for a capture file header`);
  const view = viewOf(bytes);
  if (view.getUint32(0, false) === PCAPNG_SECTION_HEADER) return "pcapng";
  if (view.getUint32(0, false) in PCAP_MAGIC) return "pcap";
  const magic = view.getUint32(0, false).toString(16).padStart(8, "0");
  throw new CaptureFormatError(
    0,
    `unknown magic number 0x${magic} (expected libpcap a1b2c3d4/a1b23c4d or pcapng 0a0d0d0a, either byte order)`,
  );
}

export function* captureFrames(bytes: Uint8Array, onTruncated: (cut: CaptureTruncation) => void = () => {}): Generator<CapturedFrame> {
  if (captureFormat(bytes) === "pcap") yield* pcapFrames(bytes, onTruncated);
  else yield* pcapngFrames(bytes, onTruncated);
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function* pcapFrames(bytes: Uint8Array, onTruncated: (cut: CaptureTruncation) => void): Generator<CapturedFrame> {
  const view = viewOf(bytes);
  const { littleEndian, unitsPerSecond } = PCAP_MAGIC[view.getUint32(0, false)];
  if (bytes.length < 24) {
    onTruncated({ offset: 0, detail: `file header cut short: ${bytes.length} of 24 bytes` });
    return;
  }
  // The upper bits of the link type field carry FCS information, not the type.
  const linkType = view.getUint32(20, littleEndian) & 0xffff;
  let offset = 24;
  while (offset < bytes.length) {
    if (offset + 16 > bytes.length) {
      onTruncated({ offset, detail: `record header cut short: ${bytes.length - offset} of 16 bytes` });
      return;
    }
    const seconds = view.getUint32(offset, littleEndian);
    const fraction = view.getUint32(offset + 4, littleEndian);
    const captured = view.getUint32(offset + 8, littleEndian);
    if (captured > MAX_RECORD_BYTES) throw new CaptureFormatError(offset, `record length ${captured} is not plausible`);
    if (fraction >= unitsPerSecond) throw new CaptureFormatError(offset, `timestamp fraction ${fraction} is not below one second`);
    const end = offset + 16 + captured;
    if (end > bytes.length) {
      onTruncated({ offset, detail: `record cut short: ${bytes.length - offset - 16} of ${captured} bytes` });
      return;
    }
    yield {
      timestampMs: seconds * 1000 + (fraction * 1000) / unitsPerSecond,
      linkType,
      data: bytes.subarray(offset + 16, end),
      offset,
    };
    offset = end;
  }
}

type PcapngInterface = { linkType: number; unitsPerSecond: bigint; snapLength: number };

const BLOCK = { interfaceDescription: 1, obsoletePacket: 2, simplePacket: 3, enhancedPacket: 6 } as const;

function* pcapngFrames(bytes: Uint8Array, onTruncated: (cut: CaptureTruncation) => void): Generator<CapturedFrame> {
  const view = viewOf(bytes);
  let littleEndian = true;
  let interfaces: PcapngInterface[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) {
      onTruncated({ offset, detail: `block header cut short: ${bytes.length - offset} of at least 12 bytes` });
      return;
    }
    const type = view.getUint32(offset, littleEndian);
    if (view.getUint32(offset, false) === PCAPNG_SECTION_HEADER) {
      // A new section may change the byte order: its magic says which.
      const magic = view.getUint32(offset + 8, true);
      if (magic === PCAPNG_BYTE_ORDER_MAGIC) littleEndian = true;
      else if (view.getUint32(offset + 8, false) === PCAPNG_BYTE_ORDER_MAGIC) littleEndian = false;
      else throw new CaptureFormatError(offset + 8, `section header without the byte-order magic 1a2b3c4d`);
      interfaces = [];
    } else if (offset === 0) {
      throw new CaptureFormatError(0, "pcapng file does not start with a section header block");
    }
    const length = view.getUint32(offset + 4, littleEndian);
    if (length < 12 || length % 4 !== 0 || length > MAX_RECORD_BYTES) {
      throw new CaptureFormatError(offset, `block length ${length} is not plausible (a multiple of 4, at least 12)`);
    }
    if (offset + length > bytes.length) {
      onTruncated({ offset, detail: `block cut short: ${bytes.length - offset} of ${length} bytes` });
      return;
    }
    if (view.getUint32(offset + length - 4, littleEndian) !== length) {
      throw new CaptureFormatError(offset + length - 4, `block of ${length} bytes does not end with its length`);
    }
    const body = bytes.subarray(offset + 8, offset + length - 4);
    const block = { body, view: viewOf(body), littleEndian, offset };
    if (type === BLOCK.interfaceDescription) interfaces.push(interfaceOf(block));
    else if (type === BLOCK.enhancedPacket || type === BLOCK.obsoletePacket) yield timedPacket(block, type, interfaces);
    else if (type === BLOCK.simplePacket) yield simplePacket(block, interfaces);
    offset += length;
  }
}

type Block = { body: Uint8Array; view: DataView; littleEndian: boolean; offset: number };

function need(block: Block, bytes: number, what: string): void {
  if (block.body.length < bytes)
    throw new CaptureFormatError(block.offset, `${what} of ${block.body.length} bytes, at least ${bytes} needed`);
}

function interfaceOf(block: Block): PcapngInterface {
  need(block, 8, "interface description block");
  const linkType = block.view.getUint16(0, block.littleEndian);
  const snapLength = block.view.getUint32(4, block.littleEndian);
  let unitsPerSecond = 1_000_000n;
  // Options: code, length, value padded to 4 bytes; if_tsresol (9) is the one that matters here.
  for (let at = 8; at + 4 <= block.body.length;) {
    const code = block.view.getUint16(at, block.littleEndian);
    const size = block.view.getUint16(at + 2, block.littleEndian);
    if (code === 0) break;
    if (code === 9 && size >= 1 && at + 5 <= block.body.length) {
      const resolution = block.body[at + 4];
      unitsPerSecond = resolution & 0x80 ? 2n ** BigInt(resolution & 0x7f) : 10n ** BigInt(resolution);
    }
    at += 4 + Math.ceil(size / 4) * 4;
  }
  return { linkType, unitsPerSecond, snapLength };
}

function interfaceAt(block: Block, interfaces: PcapngInterface[], id: number): PcapngInterface {
  const found = interfaces[id];
  if (!found) throw new CaptureFormatError(block.offset, `packet names interface ${id}, but ${interfaces.length} are described`);
  return found;
}

function timedPacket(block: Block, type: number, interfaces: PcapngInterface[]): CapturedFrame {
  need(block, 20, "packet block");
  const { view, littleEndian } = block;
  // The obsolete packet block has a 16-bit interface id followed by a 16-bit drop count.
  const id = type === BLOCK.obsoletePacket ? view.getUint16(0, littleEndian) : view.getUint32(0, littleEndian);
  const iface = interfaceAt(block, interfaces, id);
  const ticks = (BigInt(view.getUint32(4, littleEndian)) << 32n) | BigInt(view.getUint32(8, littleEndian));
  const captured = view.getUint32(12, littleEndian);
  if (20 + captured > block.body.length) {
    throw new CaptureFormatError(block.offset, `packet of ${captured} bytes in a block with room for ${block.body.length - 20}`);
  }
  const units = iface.unitsPerSecond;
  return {
    timestampMs: Number(ticks / units) * 1000 + (Number(ticks % units) * 1000) / Number(units),
    linkType: iface.linkType,
    data: block.body.subarray(20, 20 + captured),
    offset: block.offset,
  };
}

function simplePacket(block: Block, interfaces: PcapngInterface[]): CapturedFrame {
  need(block, 4, "simple packet block");
  const iface = interfaceAt(block, interfaces, 0);
  const original = block.view.getUint32(0, block.littleEndian);
  // Its captured length is implied: the original length, cut at the interface's snapshot length.
  const captured = Math.min(original, iface.snapLength || original, block.body.length - 4);
  return { timestampMs: null, linkType: iface.linkType, data: block.body.subarray(4, 4 + captured), offset: block.offset };
}
