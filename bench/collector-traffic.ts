/**
 * The collector bench's traffic: NetFlow v9 (IPv4) and IPFIX (IPv6) datagrams of 25 records each,
 * with a template, whose addresses and interfaces are those of the synthetic network
 * (bench/synthetic-network.ts), so enrichment does real longest-prefix matches and interface
 * lookups. Datagrams are built in pools and only their headers (export time, sequence) are
 * rewritten when sent: building each one anew would cost the sender more than the collector.
 */
import { encodeIpfix, encodeNetflow9, IE, type TemplateSpec } from "../tests/fixtures/flow-encoders";
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
