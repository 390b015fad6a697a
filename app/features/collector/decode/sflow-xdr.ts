/**
 * Reading the XDR (RFC 4506) encoding sFlow v5 is written in: big-endian 32-bit words, opaque data
 * padded to a multiple of 4. A read past the end of its window throws XdrShortError, which the
 * sFlow decoder turns into a "truncated" problem at the enclosing sample or record: a short
 * structure is one condition to handle, not a check after every field.
 */
import { ipv4At, ipv6At } from "./packet-address";

class XdrShortError extends Error {
  constructor(what: string) {
    super(`${what} runs past the end of its data`);
  }
}

export class XdrReader {
  private readonly view: DataView;
  private offset: number;

  /** A window [start, end) of `bytes`; the reader never reads outside it. */
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = start;
  }

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  private need(length: number, what: string): void {
    if (length > this.end - this.offset) throw new XdrShortError(what);
  }

  u32(what: string): number {
    this.need(4, what);
    const value = this.view.getUint32(this.offset);
    this.offset += 4;
    return value;
  }

  skip(length: number, what: string): void {
    this.need(length, what);
    this.offset += length;
  }

  /** The next `length` bytes as their own reader, which this one steps over. */
  window(length: number, what: string): XdrReader {
    this.need(length, what);
    const inner = new XdrReader(this.bytes, this.offset, this.offset + length);
    this.offset += length;
    return inner;
  }

  /** Variable-length opaque: a length word, the bytes, padding to 4. */
  opaque(what: string): Uint8Array {
    const length = this.u32(what);
    const padded = length + ((4 - (length % 4)) % 4);
    this.need(padded, what);
    const data = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += padded;
    return data;
  }

  ipv4(what: string): string {
    this.need(4, what);
    const text = ipv4At(this.bytes, this.offset);
    this.offset += 4;
    return text;
  }

  ipv6(what: string): string {
    this.need(16, what);
    const text = ipv6At(this.bytes, this.offset);
    this.offset += 16;
    return text;
  }
}
