import { beforeEach, describe, expect, it } from "vitest";
import { escapeLabelValue, renderPrometheus } from "~/server/metrics-exposition.server";
import {
  describeMetric,
  incrementCounter,
  MAX_SERIES_PER_METRIC,
  metricSeries,
  metricsSnapshot,
  recordDuration,
  resetMetrics,
  setGauge,
} from "~/server/metrics.server";

describe("in-process metrics", () => {
  beforeEach(() => resetMetrics());

  it("sums counters and summarises durations by name", () => {
    incrementCounter("flows.packets");
    incrementCounter("flows.packets", 4);
    recordDuration("query.flows_table", 12);
    recordDuration("query.flows_table", 30);
    recordDuration("query.flows_table", 6);
    expect(metricsSnapshot()).toEqual({
      counters: { "flows.packets": 5 },
      durations: { "query.flows_table": { count: 3, totalMs: 48, maxMs: 30, lastMs: 6 } },
    });
  });

  it("hands out a copy that later figures do not change", () => {
    recordDuration("q", 1);
    const before = metricsSnapshot();
    recordDuration("q", 9);
    expect(before.durations.q).toEqual({ count: 1, totalMs: 1, maxMs: 1, lastMs: 1 });
  });
});

describe("labelled counters and gauges", () => {
  beforeEach(() => resetMetrics());

  it("keeps one series per label set, whatever the key order, beside the plain counters", () => {
    incrementCounter("flowlens_collector_datagrams_total", { exporter: "192.0.2.1", protocol: "netflow9" });
    incrementCounter("flowlens_collector_datagrams_total", { protocol: "netflow9", exporter: "192.0.2.1" }, 4);
    incrementCounter("flowlens_collector_datagrams_total", { exporter: "192.0.2.2", protocol: "ipfix" });
    incrementCounter("plain.counter", 2);
    setGauge("flowlens_collector_templates", 3, { exporter: "192.0.2.1" });
    setGauge("flowlens_collector_templates", 5, { exporter: "192.0.2.1" });
    const series = metricSeries();
    expect(series.counters).toEqual([
      { name: "flowlens_collector_datagrams_total", labels: { exporter: "192.0.2.1", protocol: "netflow9" }, value: 5 },
      { name: "flowlens_collector_datagrams_total", labels: { exporter: "192.0.2.2", protocol: "ipfix" }, value: 1 },
      { name: "plain.counter", labels: {}, value: 2 },
    ]);
    expect(series.gauges).toEqual([{ name: "flowlens_collector_templates", labels: { exporter: "192.0.2.1" }, value: 5 }]);
    // The snapshot of /healthz and the tests stays what it was: plain counters by name.
    expect(metricsSnapshot().counters).toEqual({ "plain.counter": 2 });
  });

  it("caps the label sets of a metric and counts the updates it refused", () => {
    for (let i = 0; i < MAX_SERIES_PER_METRIC + 5; i++) incrementCounter("flowlens_x_total", { exporter: `10.0.${i >> 8}.${i & 255}` });
    incrementCounter("flowlens_x_total", { exporter: "10.0.0.0" }, 2); // an existing set still counts
    incrementCounter("flowlens_y_total", { exporter: "10.9.9.9" }); // other metrics are not affected
    const series = metricSeries();
    expect(series.counters.filter((s) => s.name === "flowlens_x_total")).toHaveLength(MAX_SERIES_PER_METRIC);
    expect(series.counters.find((s) => s.labels.exporter === "10.0.0.0")?.value).toBe(3);
    expect(series.counters.filter((s) => s.name === "flowlens_y_total")).toHaveLength(1);
    expect(series.droppedUpdates).toEqual({ flowlens_x_total: 5 });
  });
});

describe("the Prometheus text format", () => {
  beforeEach(() => resetMetrics());

  const PROCESS = { residentMemoryBytes: 123_456_789, heapUsedBytes: 45_678, startTimeSeconds: 1_790_000_000 };
  const render = (components = {}) => renderPrometheus(metricSeries(), components, PROCESS);

  it("writes HELP and TYPE once per family, then its samples, labels escaped", () => {
    describeMetric("flowlens_collector_decode_errors_total", "Datagrams or records that could not be decoded, by reason.\nPer exporter.");
    incrementCounter("flowlens_collector_decode_errors_total", { exporter: "192.0.2.1", protocol: "ipfix", reason: "truncated" }, 2);
    incrementCounter("flowlens_collector_decode_errors_total", {
      exporter: "192.0.2.1",
      protocol: "ipfix",
      reason: 'odd "quote" \\ and\nline',
    });
    expect(render()).toContain(
      [
        "# HELP flowlens_collector_decode_errors_total Datagrams or records that could not be decoded, by reason.\\nPer exporter.",
        "# TYPE flowlens_collector_decode_errors_total counter",
        'flowlens_collector_decode_errors_total{exporter="192.0.2.1",protocol="ipfix",reason="truncated"} 2',
        'flowlens_collector_decode_errors_total{exporter="192.0.2.1",protocol="ipfix",reason="odd \\"quote\\" \\\\ and\\nline"} 1',
        "",
      ].join("\n"),
    );
  });

  it("turns the query door's durations into a summary in seconds labelled by query", () => {
    recordDuration("ch.flows.table", 120);
    recordDuration("ch.flows.table", 30);
    recordDuration("ch.menu.tablesWithRows", 2);
    expect(render()).toContain(
      [
        "# HELP flowlens_clickhouse_query_duration_seconds ClickHouse queries by name, through the query door.",
        "# TYPE flowlens_clickhouse_query_duration_seconds summary",
        'flowlens_clickhouse_query_duration_seconds_sum{query="flows.table"} 0.15',
        'flowlens_clickhouse_query_duration_seconds_count{query="flows.table"} 2',
        'flowlens_clickhouse_query_duration_seconds_sum{query="menu.tablesWithRows"} 0.002',
        'flowlens_clickhouse_query_duration_seconds_count{query="menu.tablesWithRows"} 1',
      ].join("\n"),
    );
  });

  it("gives the components' figures a family per metric, labelled by component, and their health", () => {
    incrementCounter("component.flows-netflow.starts");
    incrementCounter("component.flows-sflow.starts");
    recordDuration("component.flows-netflow.start_ms", 250);
    const text = render({ "flows-netflow": { ok: true, detail: "listening" }, "flows-sflow": { ok: false, detail: "socket closed" } });
    expect(text).toContain(
      [
        "# TYPE flowlens_component_starts_total counter",
        'flowlens_component_starts_total{component="flows-netflow"} 1',
        'flowlens_component_starts_total{component="flows-sflow"} 1',
      ].join("\n"),
    );
    expect(text).toContain('flowlens_component_start_duration_seconds_sum{component="flows-netflow"} 0.25\n');
    expect(text).toContain('flowlens_component_up{component="flows-netflow"} 1\nflowlens_component_up{component="flows-sflow"} 0\n');
  });

  it("keeps internal names as label values, reports the refused updates and the process's memory", () => {
    incrementCounter("login.failures", 3);
    recordDuration("mail.send", 1500);
    for (let i = 0; i <= MAX_SERIES_PER_METRIC; i++) incrementCounter("flowlens_x_total", { n: String(i) });
    const text = render();
    expect(text).toContain('flowlens_events_total{name="login.failures"} 3\n');
    expect(text).toContain('flowlens_duration_seconds_sum{name="mail.send"} 1.5\n');
    expect(text).toContain('flowlens_metrics_dropped_updates_total{metric="flowlens_x_total"} 1\n');
    expect(text).toContain("# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 123456789\n");
    expect(text).toContain("process_start_time_seconds 1790000000\n");
    // Every line is a comment or `name{labels} value`: nothing a scraper would refuse.
    for (const line of text.trimEnd().split("\n"))
      expect(line).toMatch(/^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? \S+)$/);
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });
});
