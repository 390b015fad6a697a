/**
 * The RPKI to Router protocol's PDUs (RFC 8210, version 1; RFC 6810, version 0): reading them
 * from a TCP stream and writing the ones a router and — for the tests — a cache send. Pure.
 *
 * Every PDU starts with version (1 byte), type (1), a 16-bit field (session id, error code, or
 * zero) and the PDU's length (4 bytes, header included), all in network byte order.
 */
import { formatIpv4, formatIpv6 } from "~/lib/ip";

export const PDU_TYPE = {
  SERIAL_NOTIFY: 0,
  SERIAL_QUERY: 1,
  RESET_QUERY: 2,
  CACHE_RESPONSE: 3,
  IPV4_PREFIX: 4,
  IPV6_PREFIX: 6,
  END_OF_DATA: 7,
  CACHE_RESET: 8,
  ROUTER_KEY: 9,
  ERROR_REPORT: 10,
  /** ASPA (draft-ietf-sidrops-8210bis, version 2): skipped. */
  ASPA: 11,
} as const;

/** Error Report codes (RFC 8210 §12); all but No Data Available end the session. */
export const RTR_ERROR = {
  CORRUPT_DATA: 0,
  INTERNAL_ERROR: 1,
  NO_DATA_AVAILABLE: 2,
  INVALID_REQUEST: 3,
  UNSUPPORTED_PROTOCOL_VERSION: 4,
  UNSUPPORTED_PDU_TYPE: 5,
  WITHDRAWAL_OF_UNKNOWN_RECORD: 6,
  DUPLICATE_ANNOUNCEMENT: 7,
  UNEXPECTED_PROTOCOL_VERSION: 8,
} as const;

export const RTR_ERROR_NAMES: Record<number, string> = {
  0: "Corrupt Data",
  1: "Internal Error",
  2: "No Data Available",
  3: "Invalid Request",
  4: "Unsupported Protocol Version",
  5: "Unsupported PDU Type",
  6: "Withdrawal of Unknown Record",
  7: "Duplicate Announcement Received",
  8: "Unexpected Protocol Version",
};

export const errorName = (code: number) => RTR_ERROR_NAMES[code] ?? `error code ${code}`;

/** The longest PDU accepted; a length beyond it is taken for a corrupt stream rather than waited for. */
export const MAX_PDU_BYTES = 1 << 20;
const HEADER = 8;

export type RtrVrp = { prefix: string; length: number; maxLength: number; asn: number; family: 4 | 6 };

export type RtrPdu =
  | { type: "serial-notify"; version: number; sessionId: number; serial: number }
  | { type: "serial-query"; version: number; sessionId: number; serial: number }
  | { type: "reset-query"; version: number }
  | { type: "cache-response"; version: number; sessionId: number }
  | { type: "prefix"; version: number; announce: boolean; vrp: RtrVrp }
  | {
      type: "end-of-data";
      version: number;
      sessionId: number;
      serial: number;
      /** Version 1 only (version 0 leaves the router's defaults). */
      intervals: { refresh: number; retry: number; expire: number } | null;
    }
  | { type: "cache-reset"; version: number }
  | { type: "error-report"; version: number; code: number; pdu: Buffer; text: string }
  /** Router Key and ASPA PDUs: well formed, not used here. */
  | { type: "skipped"; version: number; pduType: number };

/** A PDU that cannot be read: the Error Report code to answer with, and the PDU's bytes (as far as known). */
export class RtrDecodeError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly pdu: Buffer,
  ) {
    super(message);
    this.name = "RtrDecodeError";
  }
}

const expectLength = (raw: Buffer, type: string, length: number) => {
  if (raw.length !== length)
    throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, `${type} PDU of ${raw.length} bytes (expected ${length})`, raw);
};

function decodePrefix(raw: Buffer, family: 4 | 6): RtrPdu {
  const version = raw[0];
  expectLength(raw, `IPv${family} Prefix`, family === 4 ? 20 : 32);
  const flags = raw[8];
  const length = raw[9];
  const maxLength = raw[10];
  const bits = family === 4 ? 32 : 128;
  if (length > bits || maxLength > bits || maxLength < length)
    throw new RtrDecodeError(
      RTR_ERROR.CORRUPT_DATA,
      `IPv${family} Prefix PDU with prefix length ${length} and max length ${maxLength}`,
      raw,
    );
  let value = 0n;
  for (let i = 0; i < (family === 4 ? 4 : 16); i++) value = (value << 8n) | BigInt(raw[12 + i]);
  const hostBits = BigInt(bits - length);
  if ((value & ((1n << hostBits) - 1n)) !== 0n)
    throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, `IPv${family} Prefix PDU with host bits set`, raw);
  const asn = raw.readUInt32BE(family === 4 ? 16 : 28);
  const address = family === 4 ? formatIpv4(value) : formatIpv6(value);
  return { type: "prefix", version, announce: (flags & 1) === 1, vrp: { prefix: `${address}/${length}`, length, maxLength, asn, family } };
}

/** One whole PDU (header included) → its content; RtrDecodeError when it is malformed or unknown. */
export function decodePdu(raw: Buffer): RtrPdu {
  const version = raw[0];
  const type = raw[1];
  const field = raw.readUInt16BE(2);
  switch (type) {
    case PDU_TYPE.SERIAL_NOTIFY:
    case PDU_TYPE.SERIAL_QUERY:
      expectLength(raw, type === 0 ? "Serial Notify" : "Serial Query", 12);
      return { type: type === 0 ? "serial-notify" : "serial-query", version, sessionId: field, serial: raw.readUInt32BE(8) };
    case PDU_TYPE.RESET_QUERY:
      expectLength(raw, "Reset Query", 8);
      return { type: "reset-query", version };
    case PDU_TYPE.CACHE_RESPONSE:
      expectLength(raw, "Cache Response", 8);
      return { type: "cache-response", version, sessionId: field };
    case PDU_TYPE.IPV4_PREFIX:
      return decodePrefix(raw, 4);
    case PDU_TYPE.IPV6_PREFIX:
      return decodePrefix(raw, 6);
    case PDU_TYPE.END_OF_DATA:
      if (version === 0) {
        expectLength(raw, "End of Data", 12);
        return { type: "end-of-data", version, sessionId: field, serial: raw.readUInt32BE(8), intervals: null };
      }
      expectLength(raw, "End of Data", 24);
      return {
        type: "end-of-data",
        version,
        sessionId: field,
        serial: raw.readUInt32BE(8),
        intervals: { refresh: raw.readUInt32BE(12), retry: raw.readUInt32BE(16), expire: raw.readUInt32BE(20) },
      };
    case PDU_TYPE.CACHE_RESET:
      expectLength(raw, "Cache Reset", 8);
      return { type: "cache-reset", version };
    case PDU_TYPE.ERROR_REPORT: {
      if (raw.length < 16) throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, `Error Report PDU of ${raw.length} bytes`, raw);
      const pduLength = raw.readUInt32BE(8);
      if (12 + pduLength + 4 > raw.length)
        throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, "Error Report PDU whose encapsulated PDU runs past its end", raw);
      const textLength = raw.readUInt32BE(12 + pduLength);
      if (16 + pduLength + textLength !== raw.length)
        throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, "Error Report PDU whose lengths do not add up", raw);
      return {
        type: "error-report",
        version,
        code: field,
        pdu: Buffer.from(raw.subarray(12, 12 + pduLength)),
        text: raw.subarray(16 + pduLength).toString("utf8"),
      };
    }
    case PDU_TYPE.ROUTER_KEY:
    case PDU_TYPE.ASPA:
      return { type: "skipped", version, pduType: type };
    default:
      throw new RtrDecodeError(RTR_ERROR.UNSUPPORTED_PDU_TYPE, `PDU type ${type} is not one of RFC 8210`, raw);
  }
}

/**
 * Cuts a TCP stream into PDUs: `push` what arrived, then take PDUs with `next` until it returns
 * null (the rest has not arrived yet). A header that cannot start a PDU (a length below 8 or beyond
 * MAX_PDU_BYTES) throws RtrDecodeError: the stream cannot be resynchronised after it.
 */
export class RtrFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  get pending(): number {
    return this.buffered;
  }

  /** The next whole PDU's bytes, or null. */
  nextRaw(): Buffer | null {
    if (this.buffered < HEADER) return null;
    if (this.chunks.length > 1 && this.chunks[0].length < HEADER) this.chunks = [Buffer.concat(this.chunks)];
    const head = this.chunks[0];
    const length = head.readUInt32BE(4);
    if (length < HEADER || length > MAX_PDU_BYTES)
      throw new RtrDecodeError(RTR_ERROR.CORRUPT_DATA, `PDU length ${length} is impossible`, Buffer.from(head.subarray(0, HEADER)));
    if (this.buffered < length) return null;
    if (head.length < length) this.chunks = [Buffer.concat(this.chunks)];
    const first = this.chunks[0];
    const raw = first.subarray(0, length);
    if (first.length === length) this.chunks.shift();
    else this.chunks[0] = first.subarray(length);
    this.buffered -= length;
    return raw;
  }

  /** The next PDU, decoded; RtrDecodeError for a malformed one. */
  next(): RtrPdu | null {
    const raw = this.nextRaw();
    return raw ? decodePdu(raw) : null;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing PDUs

function header(version: number, type: number, field: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  b[0] = version;
  b[1] = type;
  b.writeUInt16BE(field, 2);
  b.writeUInt32BE(length, 4);
  return b;
}

export const encodeResetQuery = (version: number) => header(version, PDU_TYPE.RESET_QUERY, 0, 8);

export function encodeSerialQuery(version: number, sessionId: number, serial: number): Buffer {
  const b = header(version, PDU_TYPE.SERIAL_QUERY, sessionId, 12);
  b.writeUInt32BE(serial >>> 0, 8);
  return b;
}

export function encodeSerialNotify(version: number, sessionId: number, serial: number): Buffer {
  const b = header(version, PDU_TYPE.SERIAL_NOTIFY, sessionId, 12);
  b.writeUInt32BE(serial >>> 0, 8);
  return b;
}

export const encodeCacheResponse = (version: number, sessionId: number) => header(version, PDU_TYPE.CACHE_RESPONSE, sessionId, 8);
export const encodeCacheReset = (version: number) => header(version, PDU_TYPE.CACHE_RESET, 0, 8);

/** An IPv4 or IPv6 Prefix PDU: `prefix` as "192.0.2.0/24" or "2001:db8::/32". */
export function encodePrefix(version: number, announce: boolean, prefix: string, maxLength: number, asn: number): Buffer {
  const [address, lengthText] = prefix.split("/");
  const family = address.includes(":") ? 6 : 4;
  const b = header(version, family === 4 ? PDU_TYPE.IPV4_PREFIX : PDU_TYPE.IPV6_PREFIX, 0, family === 4 ? 20 : 32);
  b[8] = announce ? 1 : 0;
  b[9] = Number(lengthText);
  b[10] = maxLength;
  if (family === 4) address.split(".").forEach((octet, i) => (b[12 + i] = Number(octet)));
  else {
    const [head, tail = ""] = address.split("::");
    const groups = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
    const h = groups(head);
    const t = address.includes("::") ? groups(tail) : [];
    const all = [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
    all.forEach((g, i) => b.writeUInt16BE(g, 12 + i * 2));
  }
  b.writeUInt32BE(asn >>> 0, family === 4 ? 16 : 28);
  return b;
}

export function encodeEndOfData(
  version: number,
  sessionId: number,
  serial: number,
  intervals: { refresh: number; retry: number; expire: number } = { refresh: 3600, retry: 600, expire: 7200 },
): Buffer {
  if (version === 0) {
    const b = header(0, PDU_TYPE.END_OF_DATA, sessionId, 12);
    b.writeUInt32BE(serial >>> 0, 8);
    return b;
  }
  const b = header(version, PDU_TYPE.END_OF_DATA, sessionId, 24);
  b.writeUInt32BE(serial >>> 0, 8);
  b.writeUInt32BE(intervals.refresh, 12);
  b.writeUInt32BE(intervals.retry, 16);
  b.writeUInt32BE(intervals.expire, 20);
  return b;
}

export function encodeErrorReport(version: number, code: number, pdu: Buffer, text: string): Buffer {
  const message = Buffer.from(text, "utf8");
  const b = header(version, PDU_TYPE.ERROR_REPORT, code, 16 + pdu.length + message.length);
  b.writeUInt32BE(pdu.length, 8);
  pdu.copy(b, 12);
  b.writeUInt32BE(message.length, 12 + pdu.length);
  message.copy(b, 16 + pdu.length);
  return b;
}

/** A Router Key PDU (RFC 8210 §5.10) with a made-up key: the client must skip it. */
export function encodeRouterKey(version: number, asn: number, keyInfo: Buffer): Buffer {
  const b = header(version, PDU_TYPE.ROUTER_KEY, 0x0100, 8 + 20 + 4 + keyInfo.length);
  b.writeUInt32BE(asn, 28);
  keyInfo.copy(b, 32);
  return b;
}
