/**
 * What the flow collectors report, as the Data sources page and the health check read it: the
 * listeners that run, and the per-exporter figures (collector_exporters, summed by the collector
 * processes) matched to the inventory's routers by exporter address in one spelling
 * (exporter-address.ts). Read only: the collector writes these tables.
 */
import { eq } from "drizzle-orm";
import { collectorExporters, collectorListeners, routerExporters, routers } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import { exporterKeyOrText } from "../exporter-address";

export type ExporterRow = typeof collectorExporters.$inferSelect;
export type ListenerRow = typeof collectorListeners.$inferSelect;

/** A listener counts as running while its heartbeat is at most this old. */
export const LISTENER_STALE_MS = 60_000;

/** Exporter address (canonical key) → the name of the router that exports from it. */
export async function inventoryExporters(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ address: routerExporters.address, router: routers.name })
    .from(routerExporters)
    .innerJoin(routers, eq(routers.id, routerExporters.routerId));
  return new Map(rows.map((r) => [exporterKeyOrText(r.address), r.router]));
}

export async function exporterRows(db: Db): Promise<ExporterRow[]> {
  return db.select().from(collectorExporters);
}

/**
 * The listeners, newest row per component, address and host: a restarted process writes a row
 * under its new pid, and the old one would otherwise stay listed as not running for ever.
 */
export async function listenerRows(db: Db): Promise<ListenerRow[]> {
  const rows = await db.select().from(collectorListeners);
  const newest = new Map<string, ListenerRow>();
  for (const row of rows) {
    const key = `${row.component}\u0000${row.address}\u0000${row.host}`;
    const seen = newest.get(key);
    if (!seen || row.heartbeatAt > seen.heartbeatAt) newest.set(key, row);
  }
  return [...newest.values()].sort(
    (a, b) => a.component.localeCompare(b.component) || a.address.localeCompare(b.address) || a.host.localeCompare(b.host),
  );
}

export const listenerRunning = (row: Pick<ListenerRow, "heartbeatAt">, now: Date) =>
  now.getTime() - row.heartbeatAt.getTime() <= LISTENER_STALE_MS;

/** One exporter address over its protocols: what the unknown list and the health check count. */
export type ExporterTotals = {
  key: string;
  /** The addresses as the collector wrote them (one per spelling). */
  spellings: string[];
  protocols: string[];
  datagrams: number;
  firstSeen: Date;
  lastSeen: Date;
  decodeErrors: Record<string, number>;
  ifIndexes: number[];
};

const addCounts = (into: Record<string, number>, from: Record<string, number> | null | undefined) => {
  for (const [reason, n] of Object.entries(from ?? {}))
    if (typeof n === "number" && Number.isFinite(n)) into[reason] = (into[reason] ?? 0) + n;
};

/** The rows summed per exporter address (its canonical key), in the order of their last datagram, newest first. */
export function totalsByAddress(rows: ExporterRow[]): ExporterTotals[] {
  const byKey = new Map<string, ExporterTotals>();
  for (const row of rows) {
    const key = exporterKeyOrText(row.address);
    let t = byKey.get(key);
    if (!t) {
      t = {
        key,
        spellings: [],
        protocols: [],
        datagrams: 0,
        firstSeen: row.firstSeen,
        lastSeen: row.lastSeen,
        decodeErrors: {},
        ifIndexes: [],
      };
      byKey.set(key, t);
    }
    if (!t.spellings.includes(row.address)) t.spellings.push(row.address);
    if (!t.protocols.includes(row.protocol)) t.protocols.push(row.protocol);
    t.datagrams += row.datagrams;
    if (row.firstSeen < t.firstSeen) t.firstSeen = row.firstSeen;
    if (row.lastSeen > t.lastSeen) t.lastSeen = row.lastSeen;
    addCounts(t.decodeErrors, row.decodeErrors);
    for (const i of row.unknownIfIndexes ?? []) if (!t.ifIndexes.includes(i)) t.ifIndexes.push(i);
  }
  for (const t of byKey.values()) {
    t.protocols.sort();
    t.ifIndexes.sort((a, b) => a - b);
  }
  return [...byKey.values()].sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime() || a.key.localeCompare(b.key));
}

/** ifIndexes the collector saw from a router's exporter addresses that none of its interfaces has. */
export async function unnamedIfIndexes(db: Db, exporters: string[], known: number[]): Promise<number[]> {
  if (!exporters.length) return [];
  const keys = new Set(exporters.map(exporterKeyOrText));
  const seen = new Set<number>();
  for (const row of await exporterRows(db))
    if (keys.has(exporterKeyOrText(row.address))) for (const i of row.unknownIfIndexes ?? []) seen.add(i);
  for (const i of known) seen.delete(i);
  return [...seen].sort((a, b) => a - b);
}
