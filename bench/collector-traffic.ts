/**
 * The collector bench's traffic: NetFlow v9 (IPv4) and IPFIX (IPv6) datagrams of 25 records each,
 * with a template, whose addresses and interfaces are those of the synthetic network
 * (bench/synthetic-network.ts), so enrichment does real longest-prefix matches and interface
 * lookups. Datagrams are built in pools and only their headers (export time, sequence) are
 * rewritten when sent: building each one anew would cost the sender more than the collector.
 * `sampledPair` makes the same sampled packets twice: as IPFIX address fields and as 128-byte
 * sampled headers (IE 315 with IE 312), to price the header parse.
 */
import { encodeIpfix, encodeNetflow9, IE, VARIABLE, type TemplateSpec } from "../tests/fixtures/flow-encoders";
import { ETHERTYPE, PROTOCOL, ethernet, ipv4, ipv6, tcp, udp } from "../tests/fixtures/packet-encoder";
import { FIRST_IF_INDEX, INTERFACES, syntheticNetwork, type SyntheticNetwork } from "./synthetic-network";

export const RECORDS = 25;
export const BENCH_PREFIXES = Number(process.env.BENCH_COLLECTOR_PREFIXES ?? 100_000);

const V9: TemplateSpec = {
  id: 256,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.bgpSourceAsNumber, length: 4 },
    { id: IE.bgpDestinationAsNumber, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
  ],
};
const IPFIX: TemplateSpec = {
  id: 300,
  fields: [
    { id: IE.sourceIPv6Address, length: 16 },
    { id: IE.destinationIPv6Address, length: 16 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 8 },
    { id: IE.packetDeltaCount, length: 8 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.flowEndMilliseconds, length: 8 },
  ],
};

export function v9Datagram(network: SyntheticNetwork, seq: number): Uint8Array {
  const { int } = network;
  return encodeNetflow9({
    sysUptimeMs: 3_600_000,
    unixSecs: Math.floor(Date.now() / 1000),
    sequence: seq,
    sourceId: 1,
    sets: [
      { kind: "template", templates: [V9] },
      {
        kind: "data",
        template: V9,
        records: Array.from({ length: RECORDS }, (_, i) => [
          network.v4Address(),
          network.v4Address(),
          1024 + int(60_000),
          443,
          6,
          40 + int(1460) * (i + 1),
          i + 1,
          FIRST_IF_INDEX + int(INTERFACES),
          FIRST_IF_INDEX + int(INTERFACES),
          // A third carry the source AS, as routers that export BGP ASes do; the others are looked up.
          int(3) === 0 ? 64500 + (i % 7) : 0,
          0,
          3_599_000 - int(50_000),
        ]),
      },
    ],
  });
}

export function ipfixDatagram(network: SyntheticNetwork, seq: number): Uint8Array {
  const { int } = network;
  const now = Date.now();
  return encodeIpfix({
    exportTime: Math.floor(now / 1000),
    sequence: seq,
    domain: 1,
    sets: [
      { kind: "template", templates: [IPFIX] },
      {
        kind: "data",
        template: IPFIX,
        records: Array.from({ length: RECORDS }, (_, i) => [
          network.v6Address(),
          network.v6Address(),
          2048 + int(60_000),
          53,
          17,
          BigInt(200 * (i + 1)),
          BigInt(i + 1),
          FIRST_IF_INDEX + int(INTERFACES),
          FIRST_IF_INDEX + int(INTERFACES),
          BigInt(now - int(50_000)),
        ]),
      },
    ],
  });
}

/**
 * Datagrams alternating v9 and IPFIX, from pools of `pool` each rebuilt every `refreshMs` (so flow
 * end times stay recent); `next()` stamps the export time and the sequence of the one it returns.
 */
export function trafficSource(options: { pool?: number; refreshMs?: number } = {}) {
  const network = syntheticNetwork({ prefixes: BENCH_PREFIXES });
  const size = options.pool ?? 200;
  const refreshMs = options.refreshMs ?? 10_000;
  let builtAt = 0;
  let v9: Uint8Array[] = [];
  let ipfix: Uint8Array[] = [];
  let seq = 0;
  return {
    network,
    next(): Uint8Array {
      const now = Date.now();
      if (now - builtAt > refreshMs) {
        v9 = Array.from({ length: size }, (_, i) => v9Datagram(network, i));
        ipfix = Array.from({ length: size }, (_, i) => ipfixDatagram(network, i));
        builtAt = now;
      }
      const n = seq++;
      const datagram = (n % 2 ? ipfix : v9)[(n >> 1) % size];
      const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
      // v9: unix_secs at 8, sequence at 12; IPFIX: export time at 4, sequence at 8.
      view.setUint32(n % 2 ? 4 : 8, Math.floor(now / 1000));
      view.setUint32(n % 2 ? 8 : 12, n >>> 0);
      return datagram;
    },
  };
}

/** IPFIX records of one sampled packet each, by their fields: what an exporter sends when it parses the packet itself. */
const sampledFields = (id: number, v6: boolean): TemplateSpec => ({
  id,
  fields: [
    { id: v6 ? IE.sourceIPv6Address : IE.sourceIPv4Address, length: v6 ? 16 : 4 },
    { id: v6 ? IE.destinationIPv6Address : IE.destinationIPv4Address, length: v6 ? 16 : 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.tcpControlBits, length: 1 },
    { id: IE.dot1qVlanId, length: 2 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.samplingInterval, length: 4 },
  ],
});
const SAMPLED_FIELDS_V4 = sampledFields(310, false);
const SAMPLED_FIELDS_V6 = sampledFields(312, true);
/** The same packets as their first 128 bytes (the usual cut) and their size on the wire. */
const SAMPLED_HEADERS: TemplateSpec = {
  id: 311,
  fields: [
    { id: IE.dataLinkFrameSize, length: 2 },
    { id: IE.dataLinkFrameSection, length: VARIABLE },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.samplingInterval, length: 4 },
  ],
};
export const SAMPLED_HEADER_BYTES = 128;

/**
 * One datagram's worth of sampled packets (alternately TCP over IPv4 and UDP over IPv6, behind an
 * 802.1Q tag) encoded both ways (by fields: an IPv4 and an IPv6 data set); the two decode to the
 * same addresses, ports, protocol, VLAN, bytes and packets.
 */
export function sampledPair(network: SyntheticNetwork, seq: number): { fields: Uint8Array; headers: Uint8Array; frames: Uint8Array[] } {
  const { int } = network;
  const fieldRows: { v4: (string | number)[][]; v6: (string | number)[][] } = { v4: [], v6: [] };
  const headerRows: (number | Uint8Array)[][] = [];
  for (let i = 0; i < RECORDS; i++) {
    const v6 = i % 2 === 1;
    const src = v6 ? network.v6Address() : network.v4Address();
    const dst = v6 ? network.v6Address() : network.v4Address();
    const srcPort = 1024 + int(60_000);
    const dstPort = v6 ? 53 : 443;
    const vlan = 1 + int(4000);
    const size = 64 + int(1450);
    const inIf = FIRST_IF_INDEX + int(INTERFACES);
    const outIf = FIRST_IF_INDEX + int(INTERFACES);
    const transport = v6 ? udp({ srcPort, dstPort, payload: Buffer.alloc(120) }) : tcp({ srcPort, dstPort, flags: 0x10 });
    const packet = v6
      ? ipv6({ src, dst, nextHeader: PROTOCOL.udp, payload: transport })
      : ipv4({ src, dst, protocol: PROTOCOL.tcp, payload: Buffer.concat([transport, Buffer.alloc(120)]) });
    const frame = ethernet({ vlans: [vlan], etherType: v6 ? ETHERTYPE.ipv6 : ETHERTYPE.ipv4, payload: packet });
    fieldRows[v6 ? "v6" : "v4"].push([src, dst, srcPort, dstPort, v6 ? 17 : 6, v6 ? 0 : 0x10, vlan, size, 1, inIf, outIf, 1000]);
    headerRows.push([size, Uint8Array.from(frame.subarray(0, SAMPLED_HEADER_BYTES)), inIf, outIf, 1000]);
  }
  const exportTime = Math.floor(Date.now() / 1000);
  return {
    frames: headerRows.map((row) => row[1] as Uint8Array),
    fields: encodeIpfix({
      exportTime,
      sequence: seq,
      domain: 2,
      sets: [
        { kind: "template", templates: [SAMPLED_FIELDS_V4, SAMPLED_FIELDS_V6] },
        { kind: "data", template: SAMPLED_FIELDS_V4, records: fieldRows.v4 },
        { kind: "data", template: SAMPLED_FIELDS_V6, records: fieldRows.v6 },
      ],
    }),
    headers: encodeIpfix({
      exportTime,
      sequence: seq,
      domain: 3,
      sets: [
        { kind: "template", templates: [SAMPLED_HEADERS] },
        { kind: "data", template: SAMPLED_HEADERS, records: headerRows },
      ],
    }),
  };
}
