/**
 * What the collector counts per exporter and protocol — the UDP source for NetFlow and IPFIX, the
 * agent address and sub-agent id for sFlow (messages.ts ExporterDelta) — in two places:
 *   - Prometheus counters of this process (flowlens_collector_*_total{exporter, protocol}, an sFlow
 *     agent's sub-agents summed under its address), at once;
 *   - PostgreSQL `collector_exporters`, where every collector process adds its deltas every few
 *     seconds, so the Data sources page reads one table whichever process listens.
 * Per flush interval the deltas are bounded (MAX_EXPORTERS_PER_FLUSH): a flood of spoofed source
 * addresses costs a counter, not the process's memory.
 */
import type { FlowDropReason } from "../drop-reasons";
import { sql } from "drizzle-orm";
import { collectorExporters, collectorListeners } from "~db/postgres/schema";
import { describeMetric, incrementCounter } from "~/server/metrics.server";
import type { Db } from "~/server/postgres.server";
import {
  emptyDelta,
  exporterKey,
  mergeDelta,
  MAX_SAMPLING_RATES,
  MAX_UDP_SOURCES,
  MAX_UNKNOWN_IF_INDEXES,
  splitExporterKey,
  type ExporterDelta,
} from "./messages";
import type { RowCounts } from "./store-queue.server";

export const METRICS = {
  datagrams: "flowlens_collector_datagrams_total",
  flows: "flowlens_collector_flows_total",
  stored: "flowlens_collector_flows_stored_total",
  decodeErrors: "flowlens_collector_decode_errors_total",
  drops: "flowlens_collector_drops_total",
  templateMisses: "flowlens_collector_template_misses_total",
} as const;

export function describeCollectorMetrics(): void {
  describeMetric(METRICS.datagrams, "Flow datagrams received, per exporter (source address; sFlow: agent address) and protocol.");
  describeMetric(METRICS.flows, "Flows decoded, per exporter and protocol.");
  describeMetric(METRICS.stored, "Flows written to flows_raw, per exporter and protocol.");
  describeMetric(METRICS.decodeErrors, "Malformed datagrams and records, per exporter, protocol and reason.");
  describeMetric(METRICS.drops, "Flows decoded but not stored, per exporter, protocol and reason (queue_full, store_failed, …).");
  describeMetric(METRICS.templateMisses, "NetFlow v9/IPFIX data sets whose template did not arrive in time, per exporter and protocol.");
}

export const MAX_EXPORTERS_PER_FLUSH = 10_000;

type Drops = { drops: Record<string, number>; stored: number };

const int32 = (n: number) => Math.max(-2_147_483_648, Math.min(2_147_483_647, Math.round(n)));

export class ExporterStats {
  private deltas = new Map<string, ExporterDelta & Drops>();
  /** Updates refused because the interval already had MAX_EXPORTERS_PER_FLUSH exporters. */
  overflow = 0;

  constructor(private readonly listener: string) {}

  private entry(address: string, protocol: ExporterDelta["protocol"], subAgentId: number): (ExporterDelta & Drops) | null {
    const key = exporterKey(address, protocol, subAgentId);
    let entry = this.deltas.get(key);
    if (!entry) {
      if (this.deltas.size >= MAX_EXPORTERS_PER_FLUSH) {
        this.overflow++;
        return null;
      }
      this.deltas.set(key, (entry = { ...emptyDelta(address, protocol, 0, subAgentId), drops: {}, stored: 0 }));
    }
    return entry;
  }

  /** A decoding thread's counts (a batch's, or a template sweep's). */
  record(delta: ExporterDelta): void {
    const labels = { exporter: delta.address, protocol: delta.protocol };
    if (delta.datagrams) incrementCounter(METRICS.datagrams, labels, delta.datagrams);
    if (delta.flows) incrementCounter(METRICS.flows, labels, delta.flows);
    if (delta.templateMisses) incrementCounter(METRICS.templateMisses, labels, delta.templateMisses);
    for (const [reason, count] of Object.entries(delta.decodeErrors)) incrementCounter(METRICS.decodeErrors, { ...labels, reason }, count);
    const entry = this.entry(delta.address, delta.protocol, delta.subAgentId);
    if (entry) mergeDelta(entry, delta);
  }

  stored(counts: RowCounts): void {
    for (const [key, rows] of counts) {
      const { address, protocol, subAgentId } = splitExporterKey(key);
      incrementCounter(METRICS.stored, { exporter: address, protocol }, rows);
      const entry = this.entry(address, protocol, subAgentId);
      if (entry) entry.stored += rows;
    }
  }

  dropped(counts: RowCounts, reason: FlowDropReason): void {
    for (const [key, rows] of counts) {
      const { address, protocol, subAgentId } = splitExporterKey(key);
      incrementCounter(METRICS.drops, { exporter: address, protocol, reason }, rows);
      const entry = this.entry(address, protocol, subAgentId);
      if (entry) entry.drops[reason] = (entry.drops[reason] ?? 0) + rows;
    }
  }

  /** Adds this interval's deltas to collector_exporters; on failure they stay for the next attempt. */
  async flush(db: Db): Promise<void> {
    if (!this.deltas.size) return;
    const taken = this.deltas;
    this.deltas = new Map();
    const rows = [...taken.values()].map((d) => ({
      address: d.address,
      protocol: d.protocol,
      subAgentId: d.subAgentId,
      udpSources: d.udpSources,
      listener: this.listener,
      // Template sweeps carry no arrival: they do not make an exporter "seen".
      firstSeen: new Date(d.lastSeenMs || Date.now()),
      lastSeen: new Date(d.lastSeenMs || 0),
      datagrams: d.datagrams,
      flows: d.flows,
      flowsStored: d.stored,
      templateMisses: d.templateMisses,
      decodeErrors: d.decodeErrors,
      drops: d.drops,
      samplingRates: d.samplingRates,
      unknownIfIndexes: d.unknownIfIndexes,
      clockSkewMs: d.clockSkewMs === null ? null : int32(d.clockSkewMs),
      clockSkewed: d.clockSkewed ?? false,
      // Whether this interval said anything about the clock: an interval without export times keeps the stored state.
      skewKnown: d.clockSkewed !== null,
    }));
    try {
      for (let i = 0; i < rows.length; i += 500) await upsert(db, rows.slice(i, i + 500));
    } catch (error) {
      for (const [key, delta] of taken) {
        const entry = this.deltas.get(key);
        if (!entry) this.deltas.set(key, delta);
        else {
          mergeDelta(entry, delta);
          entry.stored += delta.stored;
          for (const [reason, count] of Object.entries(delta.drops)) entry.drops[reason] = (entry.drops[reason] ?? 0) + count;
        }
      }
      throw error;
    }
  }
}

type Row = typeof collectorExporters.$inferInsert & { skewKnown: boolean };

/** { reason: count } maps added key by key. */
const addCounts = (column: string) =>
  sql.raw(`(
  SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
    SELECT key, sum(value::bigint) AS total
    FROM (SELECT * FROM jsonb_each_text(collector_exporters.${column}) UNION ALL SELECT * FROM jsonb_each_text(excluded.${column})) s
    GROUP BY key) t)`);

/** Distinct values of both arrays, the smallest `max` kept (numbers, or addresses in text order). */
const mergeDistinct = (column: string, max: number) =>
  sql.raw(`(
  SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (
    SELECT DISTINCT v FROM unnest(collector_exporters.${column} || excluded.${column}) AS v ORDER BY v LIMIT ${max}) t)`);

async function upsert(db: Db, rows: Row[]): Promise<void> {
  // Rows with and without clock news need different updates of the clock columns.
  for (const skewKnown of [true, false]) {
    const part = rows.filter((r) => r.skewKnown === skewKnown).map(({ skewKnown: _, ...row }) => row);
    if (!part.length) continue;
    await db
      .insert(collectorExporters)
      .values(part)
      .onConflictDoUpdate({
        target: [collectorExporters.address, collectorExporters.protocol, collectorExporters.subAgentId],
        set: {
          listener: sql`excluded.listener`,
          lastSeen: sql`greatest(collector_exporters.last_seen, excluded.last_seen)`,
          datagrams: sql`collector_exporters.datagrams + excluded.datagrams`,
          flows: sql`collector_exporters.flows + excluded.flows`,
          flowsStored: sql`collector_exporters.flows_stored + excluded.flows_stored`,
          templateMisses: sql`collector_exporters.template_misses + excluded.template_misses`,
          decodeErrors: addCounts("decode_errors"),
          drops: addCounts("drops"),
          samplingRates: mergeDistinct("sampling_rates", MAX_SAMPLING_RATES),
          unknownIfIndexes: mergeDistinct("unknown_if_indexes", MAX_UNKNOWN_IF_INDEXES),
          udpSources: mergeDistinct("udp_sources", MAX_UDP_SOURCES),
          ...(skewKnown
            ? { clockSkewMs: sql`excluded.clock_skew_ms`, clockSkewed: sql`excluded.clock_skewed` }
            : { clockSkewMs: sql`collector_exporters.clock_skew_ms` }),
        },
      });
  }
}

/** This process's listener row: written at start, its heartbeat refreshed while it runs, removed at stop. */
export async function heartbeatListener(db: Db, row: { component: string; address: string; host: string; pid: number; startedAt: Date }) {
  await db
    .insert(collectorListeners)
    .values({ ...row, heartbeatAt: new Date() })
    .onConflictDoUpdate({
      target: [collectorListeners.component, collectorListeners.host, collectorListeners.pid],
      set: { address: row.address, startedAt: row.startedAt, heartbeatAt: new Date() },
    });
}

export async function removeListener(db: Db, row: { component: string; host: string; pid: number }) {
  await db
    .delete(collectorListeners)
    .where(
      sql`${collectorListeners.component} = ${row.component} and ${collectorListeners.host} = ${row.host} and ${collectorListeners.pid} = ${row.pid}`,
    );
}
