// The NetFlow v9 writer of the flow generator, read back by the collector's own decoder: IPv4 and IPv6 records,
// the header's sequence and source id, padding, packets split by size, and the templates' refresh.
import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState, type DecodedFlow } from "~/features/collector/decode";
import { NETFLOW9_RECORD_LENGTH, Netflow9Writer, type ExportFlow } from "~/features/collector/export/netflow9-writer";

const EXPORTER = "127.0.1.1";
/** A whole second: the header carries seconds, and the writer times sysUptime at the same instant. */
const NOW = 1_763_000_000_000;
const BOOT = NOW - 5 * 86_400_000 - 123;

const v4: ExportFlow = {
  ipVersion: 4,
  srcAddr: "198.18.4.17",
  dstAddr: "203.0.113.77",
  srcPrefixLen: 22,
  dstPrefixLen: 24,
  srcPort: 443,
  dstPort: 51_234,
  protocol: 6,
  tcpFlags: 0x18,
  bytes: 4_380,
  packets: 3,
  inIfIndex: 517,
  outIfIndex: 70_001,
  srcAs: 15_169,
  dstAs: 0,
  bgpNextHop: null,
  firstSwitchedMs: NOW - 41_250,
  lastSwitchedMs: NOW - 1_500,
  direction: 0,
  samplingInterval: 1000,
};

const v6: ExportFlow = {
  ...v4,
  ipVersion: 6,
  srcAddr: "2001:db8:4:11::25",
  dstAddr: "2001:db8:0:ff::1",
  srcPrefixLen: 48,
  dstPrefixLen: 36,
  protocol: 17,
  tcpFlags: 0,
  srcPort: 51_000,
  dstPort: 443,
  srcAs: 0,
  dstAs: 4_200_000_001,
  bgpNextHop: "2001:db8:ffff::c612:1",
  direction: 1,
  samplingInterval: 2000,
};

/** What the decoder must give for a flow the writer was handed. */
function expected(flow: ExportFlow, sourceId: number): Partial<DecodedFlow> {
  const unspecified = flow.ipVersion === 4 ? "0.0.0.0" : "::";
  return {
    protocol: "netflow9",
    exporter: EXPORTER,
    sourceId,
    samplingRate: flow.samplingInterval,
    ipVersion: flow.ipVersion,
    srcAddr: flow.srcAddr,
    dstAddr: flow.dstAddr,
    srcPrefixLen: flow.srcPrefixLen,
    dstPrefixLen: flow.dstPrefixLen,
    srcPort: flow.srcPort,
    dstPort: flow.dstPort,
    ipProtocol: flow.protocol,
    tcpFlags: flow.tcpFlags,
    bytes: flow.bytes,
    packets: flow.packets,
    inIfIndex: flow.inIfIndex,
    outIfIndex: flow.outIfIndex,
    srcAs: flow.srcAs,
    dstAs: flow.dstAs,
    bgpNextHop: flow.bgpNextHop ?? unspecified,
    direction: flow.direction,
    flowStartMs: flow.firstSwitchedMs,
    flowEndMs: flow.lastSwitchedMs,
    exportTimeMs: NOW,
  };
}

const header = (packet: Uint8Array) => {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  return {
    version: view.getUint16(0),
    count: view.getUint16(2),
    uptime: view.getUint32(4),
    secs: view.getUint32(8),
    sequence: view.getUint32(12),
    sourceId: view.getUint32(16),
  };
};

describe("NetFlow v9 writer", () => {
  it("writes IPv4 and IPv6 records the decoder reads back field for field", () => {
    const writer = new Netflow9Writer({ sourceId: 42, bootTimeMs: BOOT });
    const packets = writer.write([v4, v6, { ...v4, srcAddr: "192.0.2.200", bgpNextHop: "198.19.250.7" }], NOW);
    expect(packets).toHaveLength(1);
    expect(packets[0].length % 4).toBe(0);
    expect(header(packets[0])).toEqual({ version: 9, count: 2 + 3, uptime: NOW - BOOT, secs: NOW / 1000, sequence: 0, sourceId: 42 });

    const result = decodeDatagram(new TemplateState(), EXPORTER, packets[0], NOW);
    expect(result.problems).toEqual([]);
    expect(result.templateMisses).toBe(0);
    // Each family in its own flowset: the IPv4 records first.
    expect(result.flows).toHaveLength(3);
    expect(result.flows[0]).toMatchObject(expected(v4, 42));
    expect(result.flows[1]).toMatchObject(expected({ ...v4, srcAddr: "192.0.2.200", bgpNextHop: "198.19.250.7" }, 42));
    expect(result.flows[2]).toMatchObject(expected(v6, 42));
  });

  it("pads data flowsets to 4 bytes and the decoder sees no cut record", () => {
    expect(NETFLOW9_RECORD_LENGTH[4] % 4).not.toBe(0);
    const writer = new Netflow9Writer({ sourceId: 1, bootTimeMs: BOOT });
    const state = new TemplateState();
    for (let n = 1; n <= 4; n++) {
      const [packet] = writer.write(
        Array.from({ length: n }, () => v4),
        NOW,
      );
      expect(packet.length % 4).toBe(0);
      const result = decodeDatagram(state, EXPORTER, packet, NOW);
      expect(result.problems).toEqual([]);
      expect(result.flows).toHaveLength(n);
    }
  });

  it("splits many flows over packets no larger than asked, numbered in sequence", () => {
    const writer = new Netflow9Writer({ sourceId: 7, bootTimeMs: BOOT, maxPacketBytes: 600, templateEveryPackets: 1000 });
    const flows = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? { ...v6, srcPort: i } : { ...v4, srcPort: i }));
    const packets = writer.write(flows, NOW);
    expect(packets.length).toBeGreaterThan(1);
    expect(packets.every((p) => p.length <= 600)).toBe(true);
    expect(packets.map((p) => header(p).sequence)).toEqual(packets.map((_, i) => i));
    expect(writer.nextSequence).toBe(packets.length);

    const state = new TemplateState();
    const decoded = packets.flatMap((p) => {
      const result = decodeDatagram(state, EXPORTER, p, NOW);
      expect(result.problems).toEqual([]);
      expect(header(p).count).toBe((header(p).sequence === 0 ? 2 : 0) + result.flows.length);
      return result.flows;
    });
    expect(decoded.map((f) => f.srcPort).sort((a, b) => a! - b!)).toEqual(flows.map((f) => f.srcPort));
  });

  it("resends the templates every N packets, so a collector started late decodes from the next refresh on", () => {
    const writer = new Netflow9Writer({ sourceId: 3, bootTimeMs: BOOT, templateEveryPackets: 5, templateEverySeconds: 3600 });
    const packets = Array.from({ length: 12 }, (_, i) => writer.write([{ ...v4, srcPort: i }], NOW + i * 1000)[0]);
    const withTemplates = packets.map((p, i) => (header(p).count === 3 ? i : -1)).filter((i) => i >= 0);
    expect(withTemplates).toEqual([0, 5, 10]);

    // A collector that missed the first packet: records wait for the templates, and are decoded when they come.
    const late = new TemplateState();
    const flows = packets.slice(1).flatMap((p, i) => decodeDatagram(late, EXPORTER, p, NOW + (i + 1) * 1000).flows);
    expect(flows.map((f) => f.srcPort)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("resends the templates after T seconds, and on demand; with nothing to send, only when due", () => {
    const writer = new Netflow9Writer({ sourceId: 3, bootTimeMs: BOOT, templateEveryPackets: 1000, templateEverySeconds: 10 });
    const carries = (at: number, flows: ExportFlow[] = [v4]) => writer.write(flows, at).map((p) => header(p).count - flows.length === 2);
    expect(carries(NOW)).toEqual([true]);
    expect(carries(NOW + 9_000)).toEqual([false]);
    expect(carries(NOW + 9_500, [])).toEqual([]);
    expect(carries(NOW + 10_000)).toEqual([true]);
    expect(carries(NOW + 21_000, [])).toEqual([true]);
    writer.resendTemplates();
    expect(carries(NOW + 22_000)).toEqual([true]);
  });

  it("keeps flow times exact across the uptime counter's wrap and a record stamped after the export second", () => {
    const boot = NOW - 2 ** 32 - 10_000; // the counter wrapped 10 s ago
    const writer = new Netflow9Writer({ sourceId: 9, bootTimeMs: boot });
    const flow = { ...v4, firstSwitchedMs: NOW - 30_000, lastSwitchedMs: NOW + 400 };
    const [packet] = writer.write([flow], NOW + 400);
    const [decoded] = decodeDatagram(new TemplateState(), EXPORTER, packet, NOW + 400).flows;
    expect(decoded.flowStartMs).toBe(flow.firstSwitchedMs);
    expect(decoded.flowEndMs).toBe(flow.lastSwitchedMs);
  });

  it("saturates counters beyond 32 bits instead of wrapping them", () => {
    const writer = new Netflow9Writer({ sourceId: 9, bootTimeMs: BOOT });
    const [packet] = writer.write([{ ...v4, bytes: 2 ** 40, packets: -5 }], NOW);
    const [decoded] = decodeDatagram(new TemplateState(), EXPORTER, packet, NOW).flows;
    expect(decoded.bytes).toBe(2 ** 32 - 1);
    expect(decoded.packets).toBe(0);
  });

  it("refuses options that cannot make a valid packet", () => {
    expect(() => new Netflow9Writer({ sourceId: 1, bootTimeMs: BOOT, templateIds: { ipv4: 255, ipv6: 300 } })).toThrow(RangeError);
    expect(() => new Netflow9Writer({ sourceId: 1, bootTimeMs: BOOT, templateIds: { ipv4: 300, ipv6: 300 } })).toThrow(RangeError);
    expect(() => new Netflow9Writer({ sourceId: 1, bootTimeMs: BOOT, maxPacketBytes: 200 })).toThrow(RangeError);
  });
});
