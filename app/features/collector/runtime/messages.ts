/**
 * What the collector's main thread and its decoding threads say to each other. Datagrams travel in
 * batches: their payloads packed into one ArrayBuffer that is transferred, not copied, with the
 * exporter and arrival time of each. Results come back as the body of an insert — the rows in
 * FLOW_ROW_COLUMNS order (RowBinary on chDB, else TabSeparated text), in a transferred ArrayBuffer, with their count — and
 * counters per exporter and protocol (which say how many of those rows are each exporter's).
 */
import type { FlowProtocol } from "../decode/flow-record";
import type { EnrichmentSnapshot } from "../enrich/snapshot";

/** A datagram whose version names no flow protocol (garbage, another service) has no protocol. */
export type ExporterProtocol = FlowProtocol | "unknown";

export type DatagramBatch = {
  type: "batch";
  id: number;
  /** Payloads back to back; datagram i is bytes offsets[i] … offsets[i + 1]. */
  buffer: ArrayBuffer;
  offsets: number[];
  /** The UDP source of each datagram. */
  exporters: string[];
  arrivalsMs: number[];
};

export type ToThread = DatagramBatch | { type: "snapshot"; snapshot: EnrichmentSnapshot } | { type: "finish" };

/**
 * What one exporter did in a batch or a template sweep. An exporter is its address and protocol, and
 * for sFlow its sub-agent id: NetFlow's and IPFIX's address is the UDP source, sFlow's the agent
 * address the datagram names (the UDP source then kept beside it).
 */
export type ExporterDelta = {
  address: string;
  protocol: ExporterProtocol;
  /** sFlow's sub-agent id; 0 for the other protocols. */
  subAgentId: number;
  /** The UDP source addresses its datagrams came from (distinct, bounded). */
  udpSources: string[];
  datagrams: number;
  /** Flows decoded: rows produced plus flows whose enrichment failed. */
  flows: number;
  /** Decoded flows that gave no row (the enricher failed on them). */
  enrichFailed: number;
  templateMisses: number;
  decodeErrors: Record<string, number>;
  /** Distinct, bounded. */
  samplingRates: number[];
  unknownIfIndexes: number[];
  /** Exporter clock minus arrival at the last datagram that carried an export time. */
  clockSkewMs: number | null;
  clockSkewed: boolean | null;
  lastSeenMs: number;
};

export type FromThread =
  | { type: "result"; id: number; datagrams: number; body: ArrayBuffer; rows: number; exporters: ExporterDelta[] }
  /** Data sets whose template never came (periodic sweep, and all that wait at the finish). */
  | { type: "misses"; exporters: ExporterDelta[]; final: boolean }
  | { type: "log"; level: "info" | "warn" | "error"; message: string };

export const MAX_SAMPLING_RATES = 16;
export const MAX_UNKNOWN_IF_INDEXES = 256;
export const MAX_UDP_SOURCES = 16;

export function emptyDelta(address: string, protocol: ExporterProtocol, nowMs: number, subAgentId = 0): ExporterDelta {
  return {
    address,
    protocol,
    subAgentId,
    udpSources: [],
    datagrams: 0,
    flows: 0,
    enrichFailed: 0,
    templateMisses: 0,
    decodeErrors: {},
    samplingRates: [],
    unknownIfIndexes: [],
    clockSkewMs: null,
    clockSkewed: null,
    lastSeenMs: nowMs,
  };
}

/** Adds a value to a distinct list kept at most `max` long (later values beyond it are not kept). */
export function addDistinct<T extends number | string>(list: T[], value: T, max: number): void {
  if (list.length < max && !list.includes(value)) list.push(value);
}

/** `into` += `from`, both of one exporter (address, protocol, sub-agent). */
export function mergeDelta(into: ExporterDelta, from: ExporterDelta): void {
  into.datagrams += from.datagrams;
  into.flows += from.flows;
  into.enrichFailed += from.enrichFailed;
  into.templateMisses += from.templateMisses;
  for (const [reason, count] of Object.entries(from.decodeErrors)) into.decodeErrors[reason] = (into.decodeErrors[reason] ?? 0) + count;
  for (const rate of from.samplingRates) addDistinct(into.samplingRates, rate, MAX_SAMPLING_RATES);
  for (const index of from.unknownIfIndexes) addDistinct(into.unknownIfIndexes, index, MAX_UNKNOWN_IF_INDEXES);
  for (const source of from.udpSources) addDistinct(into.udpSources, source, MAX_UDP_SOURCES);
  if (from.clockSkewMs !== null) into.clockSkewMs = from.clockSkewMs;
  if (from.clockSkewed !== null) into.clockSkewed = from.clockSkewed;
  into.lastSeenMs = Math.max(into.lastSeenMs, from.lastSeenMs);
}

export const exporterKey = (address: string, protocol: ExporterProtocol, subAgentId = 0) => `${protocol}|${subAgentId}|${address}`;

/** The parts of an exporterKey. */
export function splitExporterKey(key: string): { protocol: ExporterProtocol; subAgentId: number; address: string } {
  const [protocol, subAgentId] = key.split("|", 2);
  return {
    protocol: protocol as ExporterProtocol,
    subAgentId: Number(subAgentId),
    address: key.slice(protocol.length + subAgentId.length + 2),
  };
}
