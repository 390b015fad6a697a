/**
 * Flow-derived interface utilisation, the pure part: the bytes each router exported per interface
 * and 5 minutes (already × sampling rate) → interface_util_5m rows with source 'flows', for the
 * interfaces of the inventory.
 *
 * A router's own records describe its own interfaces: a record exported by router R says which of
 * R's interfaces the traffic entered on and which it left by. Only R's records are read for R's
 * interfaces, so a flow that several routers export (it entered on one, crossed a core link, left by
 * another) lands once on every interface it crossed, each time as that interface's owner saw it. The
 * `counted` flag does not apply here: it keeps a flow once in the traffic totals of flows_5m, where
 * the re-exports (counted = 0) would add it again; for the interfaces, those re-exports are exactly
 * the records that describe the core interface the flow came in by and the interface it left by on
 * the second router.
 *
 * A router that exported records in an interval gets a row for each of its inventory interfaces,
 * with 0 where no record named the interface (with sampling, no sampled packet is the best estimate
 * of little traffic); a router that exported nothing in an interval gets none (its exports may have
 * been lost: not known is not zero). Interfaces the inventory does not have are skipped.
 * Aggregates (LAG bundles) are treated as the SNMP poller treats them: the bundle has its own row
 * from the records that name it, members in the inventory keep theirs, and nothing is added from
 * members to the bundle (the planners plan on the bundle and never add its members to it).
 */
import type { UtilSource } from "../snmp/util-source";

export const FLOWS_SOURCE: UtilSource = "flows";
export const INTERVAL_SECONDS = 300;

/** Sums of one router's records for one of its interfaces (or "" when the record named none it knows) and interval. */
export type ExportedBytes = { time: number; router: string; interface: string; inBytes: number; outBytes: number };

export type InventoryInterface = { name: string; kind: string; neighbour_as: number | null; capacity: number };
export type InventoryRouter = { name: string; interfaces: readonly InventoryInterface[] };

export type FlowUtilRow = {
  time: number;
  router: string;
  interface: string;
  kind: string;
  neighbor_asn: number;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
  source: UtilSource;
  interpolated: 0;
};

export function flowUtilRows(exported: readonly ExportedBytes[], inventory: readonly InventoryRouter[]): FlowUtilRow[] {
  const routers = new Map(inventory.map((r) => [r.name, r]));
  // Per (interval, router): the sums per interface name. A router appears once it exported anything.
  const byInterval = new Map<string, { time: number; router: InventoryRouter; sums: Map<string, { in: number; out: number }> }>();
  for (const e of exported) {
    const router = routers.get(e.router);
    if (!router) continue;
    const key = `${e.time}|${e.router}`;
    let entry = byInterval.get(key);
    if (!entry) byInterval.set(key, (entry = { time: e.time, router, sums: new Map() }));
    const sum = entry.sums.get(e.interface) ?? { in: 0, out: 0 };
    sum.in += e.inBytes;
    sum.out += e.outBytes;
    entry.sums.set(e.interface, sum);
  }
  const rows: FlowUtilRow[] = [];
  for (const { time, router, sums } of byInterval.values()) {
    for (const iface of router.interfaces) {
      const sum = sums.get(iface.name);
      rows.push({
        time,
        router: router.name,
        interface: iface.name,
        kind: iface.kind,
        neighbor_asn: iface.neighbour_as ?? 0,
        in_bytes: sum?.in ?? 0,
        out_bytes: sum?.out ?? 0,
        capacity_bps: Math.round(iface.capacity),
        source: FLOWS_SOURCE,
        interpolated: 0,
      });
    }
  }
  rows.sort((a, b) => a.time - b.time || a.router.localeCompare(b.router) || a.interface.localeCompare(b.interface));
  return rows;
}

/**
 * The intervals one run writes, unix seconds, [from, to): from the watermark less the late-flow
 * margin (or, on the first run, the backfill limit), never before the demo's generated history nor
 * before the backfill limit, to the end of the last closed interval, at most `maxSeconds` long.
 */
export function runRange(opts: {
  now: number;
  watermark: number | null;
  lateMarginSeconds: number;
  backfillSeconds: number;
  maxSeconds: number;
  demoEnd: number | null;
}): { from: number; to: number } {
  const lastClosedEnd = Math.floor(opts.now / INTERVAL_SECONDS) * INTERVAL_SECONDS;
  const earliest = lastClosedEnd - opts.backfillSeconds;
  let from = opts.watermark === null ? earliest : opts.watermark - opts.lateMarginSeconds;
  from = Math.max(from, earliest, opts.demoEnd ?? -Infinity);
  from = Math.floor(from / INTERVAL_SECONDS) * INTERVAL_SECONDS;
  const to = Math.max(from, Math.min(lastClosedEnd, from + opts.maxSeconds));
  return { from, to };
}
