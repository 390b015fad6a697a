/**
 * What the flow collectors report, as the Data sources page and the health check read it: the
 * listeners that run, and the per-exporter figures (collector_exporters, summed by the collector
 * processes) matched to the inventory's routers by exporter address in one spelling
 * (exporter-address.ts): the exporter's own address (sFlow: its agent address), else a UDP source
 * its datagrams came from, so an agent behind NAT or a relay is adopted by either. Read only: the
 * collector writes these tables.
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

/**
 * The inventory's router of an exporter and the address it was matched by: its own address first,
 * then the UDP sources it was heard from (in the order given); null when the inventory has neither.
 */
export function inventoryMatch(
  inventory: Map<string, string>,
  exporter: { address: string; udpSources?: readonly string[] | null },
): { key: string; router: string } | null {
  for (const address of [exporter.address, ...(exporter.udpSources ?? [])]) {
    const key = exporterKeyOrText(address);
    const router = inventory.get(key);
    if (router !== undefined) return { key, router };
  }
  return null;
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
  /** The UDP sources its datagrams came from other than its address (an sFlow agent behind NAT or a relay), canonical. */
  udpSources: string[];
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

/** The UDP sources an exporter (canonical address) was heard from other than its address (an sFlow agent behind NAT or a relay), canonical, sorted. */
export const otherUdpSources = (address: string, sources: readonly string[] | null | undefined): string[] =>
  [...new Set((sources ?? []).map(exporterKeyOrText))].filter((source) => source !== address).sort();

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
        udpSources: [],
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
    for (const source of otherUdpSources(key, row.udpSources)) if (!t.udpSources.includes(source)) t.udpSources.push(source);
    t.datagrams += row.datagrams;
    if (row.firstSeen < t.firstSeen) t.firstSeen = row.firstSeen;
    if (row.lastSeen > t.lastSeen) t.lastSeen = row.lastSeen;
    addCounts(t.decodeErrors, row.decodeErrors);
    for (const i of row.unknownIfIndexes ?? []) if (!t.ifIndexes.includes(i)) t.ifIndexes.push(i);
  }
  for (const t of byKey.values()) {
    t.protocols.sort();
    t.udpSources.sort();
    t.ifIndexes.sort((a, b) => a - b);
  }
  return [...byKey.values()].sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime() || a.key.localeCompare(b.key));
}

/** ifIndexes the collector saw from a router's exporter addresses (an exporter's own, or a UDP source of it) that none of its interfaces has. */
export async function unnamedIfIndexes(db: Db, exporters: string[], known: number[]): Promise<number[]> {
  if (!exporters.length) return [];
  const mine = new Map(exporters.map((address) => [exporterKeyOrText(address), ""]));
  const seen = new Set<number>();
  for (const row of await exporterRows(db)) if (inventoryMatch(mine, row)) for (const i of row.unknownIfIndexes ?? []) seen.add(i);
  for (const i of known) seen.delete(i);
  return [...seen].sort((a, b) => a - b);
}
