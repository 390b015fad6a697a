import { describe, expect, it } from "vitest";
import { CaptureFormatError, readCapture, type UdpDatagram } from "~/features/collector/pcap/pcap-reader";
import {
  ethernetFrame,
  ipUdpPacket,
  pcapFileHeader,
  pcapFrameRecord,
  writePcap,
  type DatagramToWrite,
} from "~/features/collector/pcap/pcap-writer";

const payload = (...bytes: number[]) => Uint8Array.from(bytes);
const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

const V4: DatagramToWrite = {
  timestampMs: T0 + 1.5,
  srcAddr: "192.0.2.10",
  srcPort: 40000,
  dstAddr: "198.51.100.1",
  dstPort: 2055,
  payload: payload(0, 9, 0, 1),
};
const V6: DatagramToWrite = {
  timestampMs: T0 + 250.25,
  srcAddr: "2001:db8::a",
  srcPort: 50000,
  dstAddr: "2001:db8:0:1::1",
  dstPort: 6343,
  payload: payload(0, 0, 0, 5, 1, 2, 3),
};

/** What the reader should give for a written datagram (vlans are framing, not output). */
function expected(d: DatagramToWrite): UdpDatagram {
  return {
    timestampMs: d.timestampMs ?? 0,
    srcAddr: d.srcAddr,
    srcPort: d.srcPort,
    dstAddr: d.dstAddr,
    dstPort: d.dstPort,
    payload: d.payload,
  };
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

describe("classic libpcap", () => {
  it.each(["little", "big"] as const)("reads back what the writer wrote, %s-endian, in file order", (byteOrder) => {
    const capture = readCapture(writePcap([V4, V6, { ...V4, payload: payload(7) }], { byteOrder }));
    expect(capture.format).toBe("pcap");
    expect(capture.packets).toBe(3);
    expect(capture.datagrams).toEqual([expected(V4), expected(V6), expected({ ...V4, payload: payload(7) })]);
    expect(capture.skipped).toEqual({});
    expect(capture.truncated).toBeNull();
  });

  it.each(["little", "big"] as const)("reads nanosecond timestamps (magic a1b23c4d), %s-endian", (byteOrder) => {
    const precise = { ...V4, timestampMs: T0 + 123.456789 };
    const [datagram] = readCapture(writePcap([precise], { byteOrder, nanoseconds: true })).datagrams;
    expect(datagram.timestampMs).toBeCloseTo(T0 + 123.456789, 6);
  });

  it("follows 802.1Q and QinQ tags", () => {
    const capture = readCapture(
      writePcap([
        { ...V4, vlans: [100] },
        { ...V6, vlans: [100, 200] },
      ]),
    );
    expect(capture.datagrams).toEqual([expected(V4), expected(V6)]);
  });

  it("trims Ethernet padding by the IP length", () => {
    const short = { ...V4, payload: payload(1) };
    const padded = concat(ethernetFrame(short), new Uint8Array(20));
    const capture = readCapture(concat(pcapFileHeader(), pcapFrameRecord(padded, T0)));
    expect(capture.datagrams[0].payload).toEqual(payload(1));
  });

  it.each([
    [
      "Linux cooked (SLL, 113)",
      113,
      (ip: Uint8Array, type: number) => concat(payload(0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 0, 0, 1, type >> 8, type & 0xff), ip),
    ],
    [
      "Linux cooked v2 (SLL2, 276)",
      276,
      (ip: Uint8Array, type: number) => concat(payload(type >> 8, type & 0xff, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0), ip),
    ],
    ["raw IP (101)", 101, (ip: Uint8Array) => ip],
    ["BSD loopback, little-endian family (0)", 0, (ip: Uint8Array, type: number) => concat(payload(type === 0x0800 ? 2 : 30, 0, 0, 0), ip)],
    ["BSD loopback, big-endian family (0)", 0, (ip: Uint8Array, type: number) => concat(payload(0, 0, 0, type === 0x0800 ? 2 : 24), ip)],
  ])("reads %s frames", (_name, linkType, frameOf) => {
    const records = [V4, V6].map((d) =>
      pcapFrameRecord(frameOf(ipUdpPacket(d), d.srcAddr.includes(":") ? 0x86dd : 0x0800), d.timestampMs!),
    );
    const capture = readCapture(concat(pcapFileHeader({ linkType }), ...records));
    expect(capture.datagrams).toEqual([expected(V4), expected(V6)]);
  });

  it.each([
    [228, V4],
    [229, V6],
  ])("reads link type %d (raw IPv4 / IPv6)", (linkType, d) => {
    const capture = readCapture(concat(pcapFileHeader({ linkType }), pcapFrameRecord(ipUdpPacket(d), d.timestampMs!)));
    expect(capture.datagrams).toEqual([expected(d)]);
  });

  it("counts fragments, other protocols and unknown link layers without reading them", () => {
    const ethernet = (d: DatagramToWrite) => ethernetFrame(d);
    const firstFragment = ethernet(V4);
    firstFragment[14 + 6] = 0x20; // more fragments
    const laterFragment = ethernet(V4);
    laterFragment[14 + 7] = 0x10; // offset 16 × 8 bytes
    const tcp = ethernet(V4);
    tcp[14 + 9] = 6;
    const arp = concat(ethernet(V4).subarray(0, 12), payload(0x08, 0x06), new Uint8Array(28));
    const v6Fragment = concat(ipUdpPacket(V6).subarray(0, 40), payload(17, 0, 0, 0x11, 0, 0, 0, 1), ipUdpPacket(V6).subarray(40));
    v6Fragment[6] = 44;
    v6Fragment[5] += 8;
    const file = concat(
      pcapFileHeader(),
      ...[firstFragment, laterFragment, tcp, arp, concat(ethernet(V6).subarray(0, 14), v6Fragment), ethernet(V4)].map((f) =>
        pcapFrameRecord(f, T0),
      ),
    );
    const capture = readCapture(file);
    expect(capture.packets).toBe(6);
    expect(capture.datagrams.map((d) => d.srcAddr)).toEqual([V4.srcAddr]);
    expect(capture.skipped).toEqual({ fragment: 3, "not-udp": 1, "not-ip": 1 });
    expect(readCapture(concat(pcapFileHeader({ linkType: 147 }), pcapFrameRecord(ethernet(V4), T0))).skipped).toEqual({ "link-type": 1 });
  });

  it("walks IPv6 extension headers before UDP", () => {
    const packet = ipUdpPacket(V6);
    const withOptions = concat(packet.subarray(0, 40), payload(17, 0, 1, 4, 0, 0, 0, 0), packet.subarray(40));
    withOptions[6] = 0; // hop-by-hop options first
    withOptions[5] += 8;
    const capture = readCapture(concat(pcapFileHeader({ linkType: 229 }), pcapFrameRecord(withOptions, V6.timestampMs!)));
    expect(capture.datagrams).toEqual([expected(V6)]);
  });

  it("reports a last record cut short and keeps the ones before it", () => {
    const file = writePcap([V4, V6]);
    const cut = file.subarray(0, file.length - 5);
    const capture = readCapture(cut);
    expect(capture.datagrams).toEqual([expected(V4)]);
    const secondRecord = 24 + 16 + ethernetFrame(V4).length;
    expect(capture.truncated).toEqual({
      offset: secondRecord,
      detail: `record cut short: ${ethernetFrame(V6).length - 5} of ${ethernetFrame(V6).length} bytes`,
    });
    expect(readCapture(file.subarray(0, secondRecord + 7)).truncated).toEqual({
      offset: secondRecord,
      detail: "record header cut short: 7 of 16 bytes",
    });
  });

  it("skips a datagram the snapshot length cut, rather than hand over half of it", () => {
    const frame = ethernetFrame(V6);
    const capture = readCapture(concat(pcapFileHeader(), pcapFrameRecord(frame.subarray(0, frame.length - 2), T0)));
    expect(capture).toMatchObject({ packets: 1, datagrams: [], skipped: { short: 1 } });
  });
});

describe("files that are not captures", () => {
  it.each([
    ["an empty file", new Uint8Array(0), 0, /too short for a capture file header/],
    ["text", new TextEncoder().encode("hello, world"), 0, /unknown magic number 0x68656c6c/],
    [
      "a record length that is garbage",
      (() => {
        const file = writePcap([V4]);
        new DataView(file.buffer).setUint32(24 + 8, 0xfffffff0, true);
        return file;
      })(),
      24,
      /record length 4294967280 is not plausible/,
    ],
  ])("refuses %s with the offset and what is wrong", (_name, bytes, offset, message) => {
    let error: unknown;
    try {
      readCapture(bytes);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(CaptureFormatError);
    expect((error as CaptureFormatError).offset).toBe(offset);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(new RegExp(`at byte ${offset}:`));
  });
});

// ------------------------------------------------------------------------------------------------
// pcapng, built here from the format's description (IETF draft-ietf-opsawg-pcapng)

function block(type: number, body: Uint8Array, little = true): Uint8Array {
  const padded = concat(body, new Uint8Array((4 - (body.length % 4)) % 4));
  const out = new Uint8Array(12 + padded.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, type, little);
  view.setUint32(4, out.length, little);
  out.set(padded, 8);
  view.setUint32(out.length - 4, out.length, little);
  return out;
}

function fields(little: boolean, ...parts: [bits: 8 | 16 | 32, value: number][]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, [bits]) => n + bits / 8, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const [bits, value] of parts) {
    if (bits === 8) view.setUint8(at, value);
    else if (bits === 16) view.setUint16(at, value, little);
    else view.setUint32(at, value, little);
    at += bits / 8;
  }
  return out;
}

const sectionHeader = (little = true) =>
  block(0x0a0d0d0a, concat(fields(little, [32, 0x1a2b3c4d], [16, 1], [16, 0], [32, 0xffffffff], [32, 0xffffffff])), little);

function interfaceDescription(linkType: number, little = true, tsresol?: number): Uint8Array {
  const options =
    tsresol === undefined
      ? new Uint8Array(0)
      : concat(fields(little, [16, 9], [16, 1], [8, tsresol]), new Uint8Array(3), fields(little, [16, 0], [16, 0]));
  return block(1, concat(fields(little, [16, linkType], [16, 0], [32, 262144]), options), little);
}

function enhancedPacket(iface: number, ticks: bigint, frame: Uint8Array, little = true): Uint8Array {
  const high = Number(ticks >> 32n);
  const low = Number(ticks & 0xffffffffn);
  return block(6, concat(fields(little, [32, iface], [32, high], [32, low], [32, frame.length], [32, frame.length]), frame), little);
}

const simplePacket = (frame: Uint8Array, little = true) => block(3, concat(fields(little, [32, frame.length]), frame), little);

describe("pcapng", () => {
  it("reads enhanced and simple packet blocks of several interfaces with their link types and resolutions", () => {
    const sll = (d: DatagramToWrite) => concat(payload(0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 0, 0, 1, 0x86, 0xdd), ipUdpPacket(d));
    const file = concat(
      sectionHeader(),
      interfaceDescription(1),
      interfaceDescription(113, true, 9),
      block(5, new Uint8Array(8)), // an interface statistics block: not a packet
      enhancedPacket(0, BigInt(Math.round(V4.timestampMs! * 1000)), ethernetFrame(V4)),
      enhancedPacket(1, BigInt(V6.timestampMs! * 1e6), sll(V6)),
      simplePacket(ethernetFrame({ ...V4, payload: payload(9, 9) })),
    );
    const capture = readCapture(file);
    expect(capture.format).toBe("pcapng");
    expect(capture.packets).toBe(3);
    expect(capture.datagrams).toEqual([expected(V4), expected(V6), { ...expected({ ...V4, payload: payload(9, 9) }), timestampMs: null }]);
  });

  it("reads a big-endian section after a little-endian one", () => {
    const file = concat(
      sectionHeader(true),
      interfaceDescription(1, true),
      enhancedPacket(0, 1000n, ethernetFrame(V4), true),
      sectionHeader(false),
      interfaceDescription(101, false),
      enhancedPacket(0, 2000n, ipUdpPacket(V6), false),
    );
    const capture = readCapture(file);
    expect(capture.datagrams.map((d) => [d.srcAddr, d.timestampMs])).toEqual([
      [V4.srcAddr, 1],
      [V6.srcAddr, 2],
    ]);
  });

  it("reports a last block cut short and refuses a broken structure with its offset", () => {
    const head = concat(sectionHeader(), interfaceDescription(1));
    const packets = [enhancedPacket(0, 0n, ethernetFrame(V4)), enhancedPacket(0, 0n, ethernetFrame(V6))];
    const whole = concat(head, ...packets);
    const capture = readCapture(whole.subarray(0, whole.length - 3));
    expect(capture.datagrams).toHaveLength(1);
    expect(capture.truncated?.offset).toBe(head.length + packets[0].length);

    const unknownInterface = concat(head, enhancedPacket(3, 0n, ethernetFrame(V4)));
    expect(() => readCapture(unknownInterface)).toThrow(
      `not a readable capture at byte ${head.length}: packet names interface 3, but 1 are described`,
    );
    const badLength = concat(head, ...packets);
    new DataView(badLength.buffer).setUint32(head.length + 4, 13, true);
    expect(() => readCapture(badLength)).toThrow(`at byte ${head.length}: block length 13 is not plausible`);
    const badTrailer = concat(head, ...packets);
    new DataView(badTrailer.buffer).setUint32(head.length + packets[0].length - 4, 8, true);
    expect(() => readCapture(badTrailer)).toThrow(/does not end with its length/);
  });
});
