import { beforeEach, describe, expect, it } from "vitest";
import { incrementCounter, metricsSnapshot, recordDuration, resetMetrics } from "~/server/metrics.server";

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
