/**
 * In-process metrics of this process: counters and duration summaries by name. The query door
 * records each named query here, long-running components their own figures; /healthz and a
 * future metrics endpoint read the snapshot. Kept in memory on purpose: each replica reports its own.
 */

export type DurationSummary = { count: number; totalMs: number; maxMs: number; lastMs: number };
export type MetricsSnapshot = { counters: Record<string, number>; durations: Record<string, DurationSummary> };

const counters = new Map<string, number>();
const durations = new Map<string, DurationSummary>();

export function incrementCounter(name: string, by = 1): void {
  counters.set(name, (counters.get(name) ?? 0) + by);
}

export function recordDuration(name: string, ms: number): void {
  const summary = durations.get(name) ?? { count: 0, totalMs: 0, maxMs: 0, lastMs: 0 };
  summary.count += 1;
  summary.totalMs += ms;
  summary.maxMs = Math.max(summary.maxMs, ms);
  summary.lastMs = ms;
  durations.set(name, summary);
}

/** A copy: callers may keep it while the figures move on. */
export function metricsSnapshot(): MetricsSnapshot {
  return {
    counters: Object.fromEntries(counters),
    durations: Object.fromEntries([...durations].map(([name, summary]) => [name, { ...summary }])),
  };
}

/** For tests that assert figures from a known start. */
export function resetMetrics(): void {
  counters.clear();
  durations.clear();
}
