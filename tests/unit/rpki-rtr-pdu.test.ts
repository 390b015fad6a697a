/**
 * RTR PDUs (RFC 8210 §5, RFC 6810): bytes laid out by hand as the RFC draws them, read back; the
 * stream cut at every byte; and what the reader refuses, with the Error Report code to answer.
 */
import { describe, expect, it } from "vitest";
import {
  decodePdu,
  encodeEndOfData,
  encodeErrorReport,
  encodePrefix,
  encodeResetQuery,
  encodeRouterKey,
  encodeSerialQuery,
  RTR_ERROR,
  RtrDecodeError,
  RtrFramer,
} from "~/features/routing/rpki/rtr-pdu";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

describe("reading PDUs laid out as RFC 8210 §5 draws them", () => {
  it("IPv4 and IPv6 Prefix: flags, lengths, prefix, AS", () => {
    // version 1, type 4, zero, length 20 | flags 1, prefix length 24, max length 24, zero | 192.0.2.0 | AS 64496
    expect(decodePdu(hex("01 04 0000 00000014  01 18 18 00  c0000200  0000fbf0"))).toEqual({
      type: "prefix",
      version: 1,
      announce: true,
      vrp: { prefix: "192.0.2.0/24", length: 24, maxLength: 24, asn: 64496, family: 4 },
    });
    // version 1, type 6, length 32 | withdraw, /32, max 48 | 2001:db8:: | AS 4200000000
    expect(decodePdu(hex("01 06 0000 00000020  00 20 30 00  20010db8000000000000000000000000  fa56ea00"))).toEqual({
      type: "prefix",
      version: 1,
      announce: false,
      vrp: { prefix: "2001:db8::/32", length: 32, maxLength: 48, asn: 4200000000, family: 6 },
    });
  });

  it("End of Data with intervals (version 1) and without (version 0), Cache Response, Serial Notify, Cache Reset", () => {
    expect(decodePdu(hex("01 07 002a 00000018  00000005  00000e10 00000258 00001c20"))).toEqual({
      type: "end-of-data",
      version: 1,
      sessionId: 42,
      serial: 5,
      intervals: { refresh: 3600, retry: 600, expire: 7200 },
    });
    expect(decodePdu(hex("00 07 002a 0000000c  00000005"))).toEqual({
      type: "end-of-data",
      version: 0,
      sessionId: 42,
      serial: 5,
      intervals: null,
    });
    expect(decodePdu(hex("01 03 1234 00000008"))).toEqual({ type: "cache-response", version: 1, sessionId: 0x1234 });
    expect(decodePdu(hex("01 00 1234 0000000c 0000ffff"))).toEqual({ type: "serial-notify", version: 1, sessionId: 0x1234, serial: 65535 });
    expect(decodePdu(hex("01 08 0000 00000008"))).toEqual({ type: "cache-reset", version: 1 });
  });

  it("Error Report with its encapsulated PDU and text; Router Key and ASPA skipped", () => {
    const report = decodePdu(hex("00 0a 0004 00000019  00000008 01020000 00000008  00000005 68656c6c6f"));
    expect(report).toEqual({ type: "error-report", version: 0, code: 4, pdu: hex("01020000 00000008"), text: "hello" });
    expect(decodePdu(encodeRouterKey(1, 64496, Buffer.alloc(91, 7)))).toEqual({ type: "skipped", version: 1, pduType: 9 });
    expect(decodePdu(hex("02 0b 0000 00000010 00000001 0000fbf0"))).toEqual({ type: "skipped", version: 2, pduType: 11 });
  });

  it("what the router sends: Reset Query, Serial Query, Error Report", () => {
    expect(encodeResetQuery(1)).toEqual(hex("01 02 0000 00000008"));
    expect(encodeSerialQuery(1, 0x1234, 7)).toEqual(hex("01 01 1234 0000000c 00000007"));
    expect(encodeErrorReport(1, 5, hex("01 63 0000 00000008"), "no")).toEqual(
      hex("01 0a 0005 0000001a 00000008 01630000 00000008 00000002 6e6f"),
    );
  });

  it("writes what it reads (the test cache's PDUs)", () => {
    for (const [prefix, max, asn] of [
      ["10.0.0.0/8", 24, 64500],
      ["0.0.0.0/0", 0, 0],
      ["2001:db8:ff00::/40", 48, 65000],
      ["::/0", 0, 1],
      ["2001:db8::1:0:0:1/128", 128, 7],
    ] as const) {
      const pdu = decodePdu(encodePrefix(1, true, prefix, max, asn));
      expect(pdu).toMatchObject({ type: "prefix", vrp: { prefix, maxLength: max, asn } });
    }
    expect(decodePdu(encodeEndOfData(1, 9, 1, { refresh: 1, retry: 2, expire: 3 }))).toMatchObject({
      intervals: { refresh: 1, retry: 2, expire: 3 },
    });
  });
});

describe("the stream", () => {
  it("gives the same PDUs however the bytes are cut", () => {
    const stream = Buffer.concat([
      hex("01 03 002a 00000008"),
      encodePrefix(1, true, "192.0.2.0/24", 24, 64496),
      encodePrefix(1, false, "2001:db8::/32", 48, 64497),
      encodeRouterKey(1, 64496, Buffer.alloc(40, 1)),
      encodeEndOfData(1, 42, 3),
    ]);
    const whole = new RtrFramer();
    whole.push(stream);
    const expected = [];
    for (let p = whole.next(); p; p = whole.next()) expected.push(p);
    expect(expected.map((p) => p.type)).toEqual(["cache-response", "prefix", "prefix", "skipped", "end-of-data"]);
    for (let cut = 1; cut < stream.length; cut++) {
      const framer = new RtrFramer();
      const got = [];
      for (const piece of [stream.subarray(0, cut), stream.subarray(cut)]) {
        framer.push(piece);
        for (let p = framer.next(); p; p = framer.next()) got.push(p);
      }
      expect(got).toEqual(expected);
    }
    // Byte by byte.
    const framer = new RtrFramer();
    const got = [];
    for (const byte of stream) {
      framer.push(Buffer.from([byte]));
      for (let p = framer.next(); p; p = framer.next()) got.push(p);
    }
    expect(got).toEqual(expected);
    expect(framer.pending).toBe(0);
  });

  it("refuses malformed PDUs with the Error Report code to answer", () => {
    const code = (bytes: Buffer) => {
      try {
        const framer = new RtrFramer();
        framer.push(bytes);
        framer.next();
      } catch (error) {
        if (error instanceof RtrDecodeError) return [error.code, error.message];
      }
      return null;
    };
    expect(code(hex("01 63 0000 00000008"))).toEqual([RTR_ERROR.UNSUPPORTED_PDU_TYPE, "PDU type 99 is not one of RFC 8210"]);
    expect(code(hex("01 04 0000 00000010 01181800 c0000200"))).toEqual([
      RTR_ERROR.CORRUPT_DATA,
      "IPv4 Prefix PDU of 16 bytes (expected 20)",
    ]);
    expect(code(hex("01 04 0000 00000014 01 18 10 00 c0000200 0000fbf0"))?.[1]).toBe(
      "IPv4 Prefix PDU with prefix length 24 and max length 16",
    );
    expect(code(hex("01 04 0000 00000014 01 18 18 00 c0000201 0000fbf0"))?.[1]).toBe("IPv4 Prefix PDU with host bits set");
    expect(code(hex("01 04 0000 00000004"))).toEqual([RTR_ERROR.CORRUPT_DATA, "PDU length 4 is impossible"]);
    expect(code(hex("01 04 0000 7fffffff"))).toEqual([RTR_ERROR.CORRUPT_DATA, "PDU length 2147483647 is impossible"]);
    expect(code(hex("01 0a 0000 00000010 000000ff 00000000"))?.[1]).toBe("Error Report PDU whose encapsulated PDU runs past its end");
  });
});
