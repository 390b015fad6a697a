import { compressedIpv6 } from "~/lib/ip";
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

  /** Throws MrtRecordError unless `size` more bytes are there. */
  need(size: number, what: string): void {
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

/**
 * The text of 16 bytes of IPv6 address, spelled as formatIpv6 of ~/lib/ip spells it (IPv4-mapped
 * addresses with their dotted tail, the first longest run of two or more zero groups as "::"),
 * without BigInt arithmetic: routing tables hold hundreds of thousands of IPv6 prefixes.
 */
export function ipv6Text(bytes: Buffer): string {
  let mapped = bytes[10] === 0xff && bytes[11] === 0xff;
  for (let i = 0; mapped && i < 10; i++) mapped = bytes[i] === 0;
  if (mapped) return `::ffff:${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  return compressedIpv6(groups);
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
  return readPrefixBits(cursor, cursor.u8("a prefix length"), afi);
}

/**
 * The address bytes of a prefix whose length in bits was read already (labelled and VPN NLRI carry
 * labels and a route distinguisher between the length and the address).
 */
export function readPrefixBits(cursor: Cursor, length: number, afi: 1 | 2): Prefix {
  const address = readPrefixAddress(cursor, length, afi);
  return { prefix: `${address}/${length}`, address, length, afi };
}

const scratch = Buffer.alloc(16);

/** The address text of a prefix of `length` bits whose bytes come next (the hot path of every route). */
export function readPrefixAddress(cursor: Cursor, length: number, afi: 1 | 2): string {
  const maxBits = afi === 1 ? 32 : 128;
  if (length > maxBits) throw new MrtRecordError(`prefix length ${length} exceeds ${maxBits} bits`);
  const size = (length + 7) >> 3;
  cursor.need(size, "a prefix");
  // Bits beyond the length are not part of the prefix; senders may leave garbage there.
  const lastMask = length % 8 ? (0xff << (8 - (length % 8))) & 0xff : 0xff;
  if (afi === 1) {
    const o = [0, 0, 0, 0];
    for (let i = 0; i < size; i++) o[i] = cursor.u8();
    if (size) o[size - 1] &= lastMask;
    return `${o[0]}.${o[1]}.${o[2]}.${o[3]}`;
  }
  scratch.fill(0);
  for (let i = 0; i < size; i++) scratch[i] = cursor.u8();
  if (size) scratch[size - 1] &= lastMask;
  return ipv6Text(scratch);
}
