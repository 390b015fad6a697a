import { ipv6AtView } from "./packet-address";

/** A big-endian view over one datagram; every read is bounds-checked by the caller against `length`. */
export function viewOf(payload: Uint8Array): DataView {
  return new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
}

/**
 * Unsigned integer of 1 to 8 bytes (IPFIX reduced-size encoding, RFC 7011 §6.2). Values beyond
 * 2^53 lose precision, which no counter of one flow reaches; longer fields are not numbers: null.
 */
export function readUnsigned(view: DataView, offset: number, length: number): number | null {
  switch (length) {
    case 1:
      return view.getUint8(offset);
    case 2:
      return view.getUint16(offset);
    case 4:
      return view.getUint32(offset);
    case 8:
      return view.getUint32(offset) * 2 ** 32 + view.getUint32(offset + 4);
    default: {
      if (length < 1 || length > 8) return null;
      let value = 0;
      for (let i = 0; i < length; i++) value = value * 256 + view.getUint8(offset + i);
      return value;
    }
  }
}

export function readIpv4(view: DataView, offset: number): string {
  return `${view.getUint8(offset)}.${view.getUint8(offset + 1)}.${view.getUint8(offset + 2)}.${view.getUint8(offset + 3)}`;
}

export function readIpv6(view: DataView, offset: number): string {
  return ipv6AtView(view, offset);
}

/** An address field: 4 bytes IPv4, 16 bytes IPv6, anything else is not an address (null). */
export function readAddress(view: DataView, offset: number, length: number): string | null {
  if (length === 4) return readIpv4(view, offset);
  if (length === 16) return readIpv6(view, offset);
  return null;
}

const NTP_TO_UNIX_SECONDS = 2_208_988_800;

/** NTP timestamp (RFC 7011 dateTimeMicroseconds/Nanoseconds: seconds since 1900, 32-bit fraction) → Unix ms. */
export function readNtpMs(view: DataView, offset: number): number {
  const seconds = view.getUint32(offset);
  const fraction = view.getUint32(offset + 4);
  return (seconds - NTP_TO_UNIX_SECONDS) * 1000 + Math.floor((fraction / 2 ** 32) * 1000);
}

/**
 * When a flow started or ended, from an uptime stamp: `exportTimeMs` is the export time by the
 * exporter's clock and `uptimeMs` its uptime then. The signed 32-bit difference survives the
 * uptime counter's wrap (every 49.7 days) and a stamp slightly after the export.
 */
export function fromUptime(exportTimeMs: number, uptimeMs: number, stampMs: number): number {
  return exportTimeMs - ((uptimeMs - stampMs) | 0);
}
