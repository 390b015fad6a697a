/**
 * In-process metrics of this process: counters (plain or labelled), gauges and duration summaries.
 * The query door records each named query here, long-running components their own figures;
 * GET /metrics renders all of it (metrics-exposition.server.ts). Kept in memory on purpose: each
 * replica reports its own.
 *
 * Label values come from the network (an exporter's address) as well as from code, so each metric
 * keeps at most MAX_SERIES_PER_METRIC label sets: updates of further sets are dropped and counted
 * per metric, so a flood of spoofed exporters costs a counter, not the process's memory.
 */

export type DurationSummary = { count: number; totalMs: number; maxMs: number; lastMs: number };
export type MetricsSnapshot = { counters: Record<string, number>; durations: Record<string, DurationSummary> };

export type Labels = Readonly<Record<string, string>>;
export type Series = { name: string; labels: Labels; value: number };

/** Everything recorded, for the exposition. */
export type MetricSeries = {
  counters: Series[];
  gauges: Series[];
  durations: Record<string, DurationSummary>;
  /** Per metric name: updates refused because the metric already had MAX_SERIES_PER_METRIC label sets. */
  droppedUpdates: Record<string, number>;
  /** Texts given with describeMetric. */
  help: Record<string, string>;
};

export const MAX_SERIES_PER_METRIC = 1000;

type Family = Map<string, { labels: Labels; value: number }>;

const counters = new Map<string, Family>();
const gauges = new Map<string, Family>();
const durations = new Map<string, DurationSummary>();
const droppedUpdates = new Map<string, number>();
const help = new Map<string, string>();

const NO_LABELS: Labels = Object.freeze({});

/** The same label set in any key order is one series. */
function seriesKey(labels: Labels): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function seriesOf(families: Map<string, Family>, name: string, labels: Labels): { value: number } | null {
  let family = families.get(name);
  if (!family) families.set(name, (family = new Map()));
  const key = seriesKey(labels);
  let series = family.get(key);
  if (!series) {
    if (family.size >= MAX_SERIES_PER_METRIC) {
      droppedUpdates.set(name, (droppedUpdates.get(name) ?? 0) + 1);
      return null;
    }
    family.set(key, (series = { labels: { ...labels }, value: 0 }));
  }
  return series;
}

/** `incrementCounter(name, by?)` for a plain counter, `incrementCounter(name, labels, by?)` for a labelled one. */
export function incrementCounter(name: string, by?: number): void;
export function incrementCounter(name: string, labels: Labels, by?: number): void;
export function incrementCounter(name: string, labelsOrBy?: Labels | number, by = 1): void {
  const labels = typeof labelsOrBy === "object" ? labelsOrBy : NO_LABELS;
  const amount = typeof labelsOrBy === "number" ? labelsOrBy : by;
  const series = seriesOf(counters, name, labels);
  if (series) series.value += amount;
}

export function setGauge(name: string, value: number, labels: Labels = NO_LABELS): void {
  const series = seriesOf(gauges, name, labels);
  if (series) series.value = value;
}

/** The HELP text /metrics gives for a metric name (without it, a generic one). */
export function describeMetric(name: string, text: string): void {
  help.set(name, text);
}

export function recordDuration(name: string, ms: number): void {
  const summary = durations.get(name) ?? { count: 0, totalMs: 0, maxMs: 0, lastMs: 0 };
  summary.count += 1;
  summary.totalMs += ms;
  summary.maxMs = Math.max(summary.maxMs, ms);
  summary.lastMs = ms;
  durations.set(name, summary);
}

/** A copy: callers may keep it while the figures move on. Counters without labels only, by name. */
export function metricsSnapshot(): MetricsSnapshot {
  const plain = [...counters].flatMap(([name, family]) => {
    const series = family.get(seriesKey(NO_LABELS));
    return series ? [[name, series.value] as const] : [];
  });
  return { counters: Object.fromEntries(plain), durations: copyDurations() };
}

export function metricSeries(): MetricSeries {
  const list = (families: Map<string, Family>) =>
    [...families].flatMap(([name, family]) => [...family.values()].map((s) => ({ name, labels: { ...s.labels }, value: s.value })));
  return {
    counters: list(counters),
    gauges: list(gauges),
    durations: copyDurations(),
    droppedUpdates: Object.fromEntries(droppedUpdates),
    help: Object.fromEntries(help),
  };
}

function copyDurations(): Record<string, DurationSummary> {
  return Object.fromEntries([...durations].map(([name, summary]) => [name, { ...summary }]));
}

/** For tests that assert figures from a known start. */
export function resetMetrics(): void {
  counters.clear();
  gauges.clear();
  durations.clear();
  droppedUpdates.clear();
}
