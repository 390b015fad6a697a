/**
 * The process's metrics in the Prometheus text format 0.0.4, for GET /metrics. Metrics recorded
 * under Prometheus names (`flowlens_collector_datagrams_total`) keep them; the kernel's dotted
 * names become families with the varying part as a label, so the number of families stays fixed:
 *   ch.<query>                     → flowlens_clickhouse_query_duration_seconds{query}
 *   component.<name>.<metric>      → flowlens_component_<metric>_total{component} (counters),
 *                                    flowlens_component_<metric>_duration_seconds{component} (durations, `_ms` dropped)
 *   any other dotted name          → flowlens_events_total{name} / flowlens_duration_seconds{name}
 */
import type { ComponentHealth } from "./components/contract.server";
import type { DurationSummary, Labels, MetricSeries } from "./metrics.server";

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type ProcessFigures = { residentMemoryBytes: number; heapUsedBytes: number; startTimeSeconds: number };

type Sample = { suffix: string; labels: Labels; value: number };
type Family = { type: "counter" | "gauge" | "summary"; help: string; samples: Sample[] };

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** A fragment of a metric or label name: anything but letters, digits and `_` becomes `_`. */
function nameFragment(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_]/g, "_");
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (!entries.length) return "";
  return `{${entries.map(([name, value]) => `${nameFragment(name)}="${escapeLabelValue(value)}"`).join(",")}}`;
}

class Families {
  private readonly byName = new Map<string, Family>();

  add(name: string, type: Family["type"], help: string, sample: Sample): void {
    const family = this.byName.get(name) ?? { type, help, samples: [] };
    // One name, one type: a later metric of another kind under the same name is left out, not mixed in.
    if (family.type !== type) return;
    family.samples.push(sample);
    this.byName.set(name, family);
  }

  render(): string {
    const lines = [...this.byName].flatMap(([name, family]) => [
      `# HELP ${name} ${escapeHelp(family.help)}`,
      `# TYPE ${name} ${family.type}`,
      ...family.samples.map((s) => `${name}${s.suffix}${formatLabels(s.labels)} ${formatValue(s.value)}`),
    ]);
    return lines.join("\n") + "\n";
  }
}

function counterFamily(name: string, labels: Labels, help: Record<string, string>): { name: string; labels: Labels; help: string } {
  const component = /^component\.([^.]+)\.(.+)$/.exec(name);
  if (component) {
    const metric = nameFragment(component[2]).replace(/_total$/, "");
    return {
      name: `flowlens_component_${metric}_total`,
      labels: { component: component[1], ...labels },
      help: `Ingest component events: ${metric}.`,
    };
  }
  if (METRIC_NAME.test(name)) return { name, labels, help: help[name] ?? `Counter ${name}.` };
  return { name: "flowlens_events_total", labels: { name, ...labels }, help: "Events counted under an internal name." };
}

function durationFamily(name: string): { name: string; labels: Labels; help: string } {
  if (name.startsWith("ch.")) {
    return {
      name: "flowlens_clickhouse_query_duration_seconds",
      labels: { query: name.slice(3) },
      help: "ClickHouse queries by name, through the query door.",
    };
  }
  const component = /^component\.([^.]+)\.(.+?)(?:_ms)?$/.exec(name);
  if (component) {
    const metric = nameFragment(component[2]);
    return {
      name: `flowlens_component_${metric}_duration_seconds`,
      labels: { component: component[1] },
      help: `Ingest component durations: ${metric}.`,
    };
  }
  return { name: "flowlens_duration_seconds", labels: { name }, help: "Durations recorded under an internal name." };
}

function addSummary(families: Families, target: { name: string; labels: Labels; help: string }, summary: DurationSummary): void {
  families.add(target.name, "summary", target.help, { suffix: "_sum", labels: target.labels, value: summary.totalMs / 1000 });
  families.add(target.name, "summary", target.help, { suffix: "_count", labels: target.labels, value: summary.count });
}

export function renderPrometheus(series: MetricSeries, components: Record<string, ComponentHealth>, process: ProcessFigures): string {
  const families = new Families();
  for (const counter of series.counters) {
    const target = counterFamily(counter.name, counter.labels, series.help);
    families.add(target.name, "counter", target.help, { suffix: "", labels: target.labels, value: counter.value });
  }
  for (const gauge of series.gauges) {
    if (!METRIC_NAME.test(gauge.name)) continue;
    families.add(gauge.name, "gauge", series.help[gauge.name] ?? `Gauge ${gauge.name}.`, {
      suffix: "",
      labels: gauge.labels,
      value: gauge.value,
    });
  }
  for (const [name, summary] of Object.entries(series.durations)) addSummary(families, durationFamily(name), summary);
  for (const [name, health] of Object.entries(components)) {
    families.add("flowlens_component_up", "gauge", "1 while the ingest component reports itself healthy, else 0.", {
      suffix: "",
      labels: { component: name },
      value: health.ok ? 1 : 0,
    });
  }
  for (const [metric, dropped] of Object.entries(series.droppedUpdates)) {
    families.add(
      "flowlens_metrics_dropped_updates_total",
      "counter",
      "Updates refused because the metric already had its maximum number of label sets.",
      {
        suffix: "",
        labels: { metric },
        value: dropped,
      },
    );
  }
  families.add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", {
    suffix: "",
    labels: {},
    value: process.residentMemoryBytes,
  });
  families.add("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch in seconds.", {
    suffix: "",
    labels: {},
    value: process.startTimeSeconds,
  });
  families.add("nodejs_heap_size_used_bytes", "gauge", "JavaScript heap in use, in bytes.", {
    suffix: "",
    labels: {},
    value: process.heapUsedBytes,
  });
  return families.render();
}
