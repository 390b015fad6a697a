/**
 * The margin per neighbour AS (docs/revenues-and-costs.md "Margin per neighbour AS"), pure: a cost
 * link's bill shared among the ASes whose traffic crossed it, by share of the month's bytes or by
 * share at the intervals that set the link's 95th (the default: who caused the bill).
 */
import { billingPercentile } from "~/lib/billing-percentile";
import type { BilledDirection } from "./contract-input";

export const ALLOCATIONS = ["p95", "bytes"] as const;
export type Allocation = (typeof ALLOCATIONS)[number];
export const ALLOCATION_LABELS: Record<Allocation, string> = {
  p95: "share at the intervals that set the link's 95th",
  bytes: "share of the month's bytes",
};

/** The direction(s) whose bytes a link's bill rests on: in, out, or both (billed on in + out). */
export type CountedDirections = readonly ("in" | "out")[];

/** The direction(s) of a bill: `max` is the one whose 95th was the higher (out on a tie). */
export function countedDirections(billed: BilledDirection, in95: number | null, out95: number | null): CountedDirections {
  if (billed === "in") return ["in"];
  if (billed === "out") return ["out"];
  if (billed === "sum") return ["in", "out"];
  return (in95 ?? 0) > (out95 ?? 0) ? ["in"] : ["out"];
}

/**
 * The intervals that set a link's 95th: of the billed series (one value per interval, the counted
 * directions summed), those at or above its billing 95th — the dropped top 5 % and the interval of
 * the 95th itself.
 */
export function peakIntervals(series: ReadonlyMap<number, number>): Set<number> {
  const p95 = billingPercentile([...series.values()]);
  if (p95 === null) return new Set();
  return new Set([...series].filter(([, v]) => v >= p95).map(([t]) => t));
}

export type FlowBytes = { t: number; dir: "in" | "out"; asn: number; b: number };

/** Each AS's share (0–1) of a link's counted bytes, over every interval (bytes) or the peak intervals only (p95). */
export function sharesOf(flows: readonly FlowBytes[], dirs: CountedDirections, at: Set<number> | null): Map<number, number> {
  const by = new Map<number, number>();
  let total = 0;
  for (const f of flows) {
    if (!dirs.includes(f.dir) || (at !== null && !at.has(f.t))) continue;
    by.set(f.asn, (by.get(f.asn) ?? 0) + f.b);
    total += f.b;
  }
  const shares = new Map<number, number>();
  if (total > 0) for (const [asn, b] of by) shares.set(asn, b / total);
  return shares;
}
