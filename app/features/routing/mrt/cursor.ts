import { formatIpv6 } from "~/lib/ip";
import { MrtRecordError } from "./errors";

/** Bounds-checked big-endian reads over one record's body: a bad length raises MrtRecordError, never a RangeError. */
export class Cursor {
  constructor(
    private readonly buffer: Buffer,
    public position = 0,
    private readonly end = buffer.length,
  ) {}

  get remaining(): number {
    return this.end - this.position;
  }

  private need(size: number, what: string): void {
    if (size < 0 || this.position + size > this.end) {
      throw new MrtRecordError(`${what} needs ${size} bytes, ${this.remaining} left`);
    }
  }

  u8(what = "a byte"): number {
    this.need(1, what);
    return this.buffer[this.position++];
  }

  u16(what = "a 2-byte field"): number {
    this.need(2, what);
    const value = this.buffer.readUInt16BE(this.position);
    this.position += 2;
    return value;
  }

  u32(what = "a 4-byte field"): number {
    this.need(4, what);
    const value = this.buffer.readUInt32BE(this.position);
    this.position += 4;
    return value;
  }

  bytes(size: number, what = "a field"): Buffer {
    this.need(size, what);
    const out = this.buffer.subarray(this.position, this.position + size);
    this.position += size;
    return out;
  }

  /** A cursor over the next `size` bytes (an attribute, a message), advancing past them. */
  slice(size: number, what = "a field"): Cursor {
    this.need(size, what);
    const inner = new Cursor(this.buffer, this.position, this.position + size);
    this.position += size;
    return inner;
  }

  ipv4(what = "an IPv4 address"): string {
    return ipv4Text(this.bytes(4, what));
  }

  ipv6(what = "an IPv6 address"): string {
    return ipv6Text(this.bytes(16, what));
  }
}

export function ipv4Text(bytes: Buffer): string {
  return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
}

export function ipv6Text(bytes: Buffer): string {
  return formatIpv6(bytes.readBigUInt64BE(0) * 2n ** 64n + bytes.readBigUInt64BE(8));
}

/** An address of either family from its bytes (4 or 16). */
export function addressText(bytes: Buffer): string {
  if (bytes.length === 4) return ipv4Text(bytes);
  if (bytes.length === 16) return ipv6Text(bytes);
  throw new MrtRecordError(`an address of ${bytes.length} bytes is neither IPv4 nor IPv6`);
}

export type Prefix = { prefix: string; address: string; length: number; afi: 1 | 2 };

/** A prefix as BGP encodes it: the length in bits, then only the bytes that length covers. */
export function readPrefix(cursor: Cursor, afi: 1 | 2): Prefix {
  const length = cursor.u8("a prefix length");
  const maxBits = afi === 1 ? 32 : 128;
  if (length > maxBits) throw new MrtRecordError(`prefix length ${length} exceeds ${maxBits} bits`);
  const raw = cursor.bytes(Math.ceil(length / 8), "a prefix");
  const full = Buffer.alloc(afi === 1 ? 4 : 16);
  raw.copy(full);
  // Bits beyond the length are not part of the prefix; senders may leave garbage there.
  if (length % 8) full[raw.length - 1] &= 0xff << (8 - (length % 8));
  const address = afi === 1 ? ipv4Text(full) : ipv6Text(full);
  return { prefix: `${address}/${length}`, address, length, afi };
}
