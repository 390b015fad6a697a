/**
 * The one rule of which timeseries buckets are complete (app/lib/aggregation-window.ts), and the
 * charts that draw only those: the Flow Explorer's timeseries (also its image exports) and the
 * planners' traffic chart, rendered on the server as the no-JavaScript page gets them.
 */
import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TimeseriesChart } from "~/features/flows/ui/charts";
import { detailedRows, pivotTable } from "~/features/flows/table-views";
import { TrafficChart } from "~/features/planners/ui/PlannerCharts";
import { completeBuckets, incompleteBucketsWords, isCompleteBucket } from "~/lib/aggregation-window";

const H = 3600;
const T0 = 1_764_547_200; // 2025-12-01 00:00 UTC

describe("isCompleteBucket", () => {
  const bounds = { start: T0, end: T0 + 5 * H, window: H, now: T0 + 10 * H };
  it("a bucket inside the range that has ended is complete", () => {
    expect(isCompleteBucket(T0, bounds)).toBe(true);
    expect(isCompleteBucket(T0 + 4 * H, bounds)).toBe(true);
  });
  it("a bucket running past the range's end, or starting before what was read, is not", () => {
    expect(isCompleteBucket(T0 + 4 * H, { ...bounds, end: T0 + 4 * H + 35 * 60 })).toBe(false);
    expect(isCompleteBucket(T0 - H, bounds)).toBe(false);
    expect(isCompleteBucket(T0 + 15 * 60, { ...bounds, start: T0 + 20 * 60 })).toBe(false);
  });
  it("a bucket still running now is not, whatever the range says", () => {
    expect(isCompleteBucket(T0 + 4 * H, { ...bounds, now: T0 + 4 * H + 1 })).toBe(false);
    expect(isCompleteBucket(T0 + 4 * H, { ...bounds, now: T0 + 5 * H })).toBe(true);
  });
  it("completeBuckets flags every bucket in order; the words name the ones left out", () => {
    const buckets = [0, 1, 2, 3, 4, 5].map((i) => T0 + i * H);
    const flags = completeBuckets(buckets, bounds);
    expect(flags).toEqual([true, true, true, true, true, false]);
    expect(incompleteBucketsWords(buckets, flags, "UTC")).toBe("The bucket from 01.12.2025 05:00 is not complete and is not drawn.");
    expect(
      incompleteBucketsWords(
        buckets,
        buckets.map(() => true),
        "UTC",
      ),
    ).toBeNull();
    expect(incompleteBucketsWords(buckets, undefined, "UTC")).toBeNull();
  });
});

const render = (element: JSX.Element) => renderToStaticMarkup(createElement(MantineProvider, null, element));

describe("the charts draw complete buckets only", () => {
  const buckets = [0, 1, 2, 3].map((i) => T0 + i * H);
  const timeseries = {
    buckets,
    series: [{ key: "1", name: "Alpha", values: [100, 110, 120, 15] }],
    complete: [true, true, true, false],
  };

  it("Flow Explorer: the last, incomplete bucket is neither drawn nor in the chart's range; it is said, and the table marks it", () => {
    const markup = render(createElement(TimeseriesChart, { timeseries, timezone: "UTC", window: H }));
    expect(markup).toContain('data-testid="timeseries-incomplete"');
    expect(markup).toContain("The bucket from 01.12.2025 03:00 is not complete and is not drawn");
    // The text alternative spans the drawn buckets: up to 02:00, and the average of the complete ones (110 bit/s).
    expect(markup).toMatch(/01\.12\.2025 00:00 to 01\.12\.2025 02:00 \(UTC\)/);
    expect(markup).toContain("average 110 bit/s");
    const all = render(createElement(TimeseriesChart, { timeseries: { ...timeseries, complete: undefined }, timezone: "UTC", window: H }));
    expect(all).not.toContain("timeseries-incomplete");
    expect(all).toMatch(/to 01\.12\.2025 03:00 \(UTC\)/);
    expect(detailedRows(timeseries).map((r) => r.complete)).toEqual([true, true, true, false]);
    expect(pivotTable(timeseries).rows.map((r) => r.complete)).toEqual([true, true, true, false]);
  });

  it("planners: the peak and the words leave out the incomplete bucket", () => {
    const points = buckets.map((time, i) => ({ time, inBps: [100, 300, 200, 900][i], outBps: 50, complete: i < 3 }));
    const markup = render(
      createElement(TrafficChart, {
        timeseries: { bucketSeconds: H, points, capacityBps: 0 },
        timezone: "UTC",
        thresholds: { medium: 0.5, high: 0.85 },
      }),
    );
    // 900 bit/s was measured over part of the last bucket only: the peak is the complete buckets' 300.
    expect(markup).toContain("Peak in 300 bit/s at 01.12.2025 01:00");
    expect(markup).toContain("The bucket from 01.12.2025 03:00 is not complete and is not drawn");
  });
});
