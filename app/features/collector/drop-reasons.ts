/**
 * Why the collector did not store flows it decoded: the reason codes it counts (per exporter in
 * collector_exporters.drops, and as the `reason` label of flowlens_collector_drops_total) with what
 * people read for each. One catalogue, so the Data sources page knows every code the runtime writes.
 * Pure and isomorphic.
 */
export const DROP_REASON_LABELS = {
  queue_full: "Write queue full (the store was slower than the network)",
  store_failed: "Store failed (insert retried, then given up)",
  shutdown: "Stopped before written",
  enrich_failed: "Enrichment failed",
} as const;

export type FlowDropReason = keyof typeof DROP_REASON_LABELS;
