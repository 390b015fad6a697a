/**
 * The work of one decoding thread, without the thread: decode each datagram of a batch with the
 * thread's TemplateState, enrich its flows with the thread's Enricher, and count per exporter. Kept
 * apart from the worker_threads wiring (decode-worker.ts) so it can be read and tested as a plain
 * class.
 */
import { decodeDatagram } from "../decode";
import { SKIP_REASONS } from "../decode/flow-record";
import { TemplateState } from "../decode/templates";
import type { Enricher } from "../enrich/enricher";
import { createEnricher } from "../enrich/enrich";
import type { FlowRowFormat } from "../enrich/flow-row";
import { flowRowWriter, type FlowRowWriter } from "../enrich/flow-row-writer";
import type { EnrichmentSnapshot } from "../enrich/snapshot";
import {
  addDistinct,
  emptyDelta,
  exporterKey,
  MAX_SAMPLING_RATES,
  MAX_UNKNOWN_IF_INDEXES,
  MAX_UDP_SOURCES,
  type DatagramBatch,
  type ExporterDelta,
  type ExporterProtocol,
} from "./messages";

/** Exporters whose clock state is remembered; beyond, the least recently heard is forgotten. */
const MAX_CLOCK_STATES = 8192;

/** The batch's rows as the body of an insert in FLOW_ROW_COLUMNS order, in the thread's format (its own ArrayBuffer, transferable). */
export type BatchResult = { body: Uint8Array; rows: number; exporters: ExporterDelta[] };

export class DecodeThread {
  readonly templates = new TemplateState();
  private enricher: Enricher | null = null;
  /** Reused from batch to batch: it keeps the size the batches need. */
  private readonly writer: FlowRowWriter;
  /** Per exporter and protocol: is its clock off by more than the allowed skew (as of its last export time). */
  private readonly skewed = new Map<string, boolean>();

  constructor(
    private readonly maxClockSkewMs: number,
    format: FlowRowFormat = "TabSeparated",
  ) {
    this.writer = flowRowWriter(format);
  }

  useSnapshot(snapshot: EnrichmentSnapshot): void {
    this.enricher = createEnricher(snapshot);
  }

  decodeBatch(batch: Pick<DatagramBatch, "buffer" | "offsets" | "exporters" | "arrivalsMs">): BatchResult {
    const out = this.writer;
    const deltas = new Map<string, ExporterDelta>();
    const bytes = new Uint8Array(batch.buffer);
    for (let i = 0; i < batch.exporters.length; i++) {
      const udpSource = batch.exporters[i];
      const arrivalMs = batch.arrivalsMs[i];
      const result = decodeDatagram(this.templates, udpSource, bytes.subarray(batch.offsets[i], batch.offsets[i + 1]), arrivalMs);
      const protocol: ExporterProtocol = result.protocol ?? "unknown";
      // sFlow's exporter is the agent its header names; the others' is the UDP source.
      const address = result.agent?.address ?? udpSource;
      const subAgentId = result.agent?.subAgentId ?? 0;
      const key = exporterKey(address, protocol, subAgentId);
      let delta = deltas.get(key);
      if (!delta) deltas.set(key, (delta = emptyDelta(address, protocol, arrivalMs, subAgentId)));
      addDistinct(delta.udpSources, udpSource, MAX_UDP_SOURCES);
      delta.datagrams++;
      delta.lastSeenMs = Math.max(delta.lastSeenMs, arrivalMs);
      delta.templateMisses += result.templateMisses;
      for (const problem of result.problems) delta.decodeErrors[problem.reason] = (delta.decodeErrors[problem.reason] ?? 0) + 1;
      // Fields read past (unknown or malformed elements): counted under the same reasons' map, per field.
      for (const reason of SKIP_REASONS) {
        const skipped = result.skipped[reason];
        if (skipped) delta.decodeErrors[reason] = (delta.decodeErrors[reason] ?? 0) + skipped;
      }
      if (!result.flows.length) continue;

      const clockSkewed = this.clockCheck(key, delta, result.flows, arrivalMs);
      for (const flow of result.flows) {
        delta.flows++;
        addDistinct(delta.samplingRates, flow.samplingRate, MAX_SAMPLING_RATES);
        try {
          const enricher = this.enricher;
          if (!enricher) throw new Error("no enrichment snapshot yet");
          for (const index of enricher.unknownIfIndexes(flow)) addDistinct(delta.unknownIfIndexes, index, MAX_UNKNOWN_IF_INDEXES);
          const row = enricher.enrich(flow, { arrivalMs, clockSkewed });
          out.row(row);
        } catch {
          // The enricher promises not to throw; a fault of its own costs the flow, counted, never the batch.
          delta.enrichFailed++;
        }
      }
    }
    const rows = out.rows;
    return { body: out.take(), rows, exporters: [...deltas.values()] };
  }

  /**
   * Data sets that waited longer than their limit for a template: template misses. `final` counts
   * every set still waiting (the thread is stopping and its templates go with it).
   */
  sweep(nowMs: number, final = false): ExporterDelta[] {
    const deltas = new Map<string, ExporterDelta>();
    for (const miss of this.templates.sweep(final ? Number.MAX_SAFE_INTEGER : nowMs)) {
      const key = exporterKey(miss.exporter, miss.protocol);
      let delta = deltas.get(key);
      if (!delta) deltas.set(key, (delta = emptyDelta(miss.exporter, miss.protocol, 0)));
      delta.templateMisses += miss.templateMisses;
    }
    return [...deltas.values()];
  }

  /**
   * The exporter's clock against the arrival: the newest export time among the datagram's flows
   * (flows of data sets that waited for their template carry their own, older datagram's time).
   * Beyond the allowed skew its flows are timed by their arrival, until a datagram is on time again.
   */
  private clockCheck(key: string, delta: ExporterDelta, flows: { exportTimeMs: number | null }[], arrivalMs: number): boolean {
    let exportTimeMs: number | null = null;
    for (const flow of flows)
      if (flow.exportTimeMs !== null && (exportTimeMs === null || flow.exportTimeMs > exportTimeMs)) exportTimeMs = flow.exportTimeMs;
    if (exportTimeMs === null) return this.skewed.get(key) ?? false;
    const skewMs = Math.round(exportTimeMs - arrivalMs);
    const skewed = Math.abs(skewMs) > this.maxClockSkewMs;
    this.skewed.delete(key);
    this.skewed.set(key, skewed);
    if (this.skewed.size > MAX_CLOCK_STATES) this.skewed.delete(this.skewed.keys().next().value as string);
    delta.clockSkewMs = skewMs;
    delta.clockSkewed = skewed;
    return skewed;
  }
}
