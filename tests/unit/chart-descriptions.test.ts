import { describe, expect, it } from "vitest";
import { describePrediction, describeSankey, describeTimeseries } from "~/features/flows/ui/chart-descriptions";
import { needsModernBrowser } from "~/lib/browser-support";

describe("charts' text alternatives", () => {
  it("name the largest series by average and point to the table", () => {
    const text = describeTimeseries(
      {
        buckets: [0, 300],
        series: [
          { key: "1", name: "Small", values: [1e6, 1e6] },
          { key: "2", name: "Big", values: [3e9, 5e9] },
        ],
      },
      "01.11.2026 00:00 to 01.11.2026 00:05 (UTC)",
    );
    expect(text).toBe(
      "Stacked area chart of traffic in bit/s over time, 01.11.2026 00:00 to 01.11.2026 00:05 (UTC), for 2 values; the largest: Big (average 4.00 Gbit/s), Small (average 1.00 Mbit/s). The table below the chart lists the figures.",
    );
  });

  it("say the prediction, its model and that it is not in the table", () => {
    const timeseries = {
      buckets: [0, 300],
      series: [
        { key: "2", name: "Big", values: [3e9, 5e9] },
        { key: "-101", name: "Others", values: [1e6, 1e6] },
      ],
      prediction: {
        model: "seasonal" as const,
        buckets: [600, 900],
        series: [{ key: "2", name: "Big", values: [2e9, 4e9] }],
      },
    };
    expect(describeTimeseries(timeseries, "A to B (UTC)", "C to D")).toBe(
      "Stacked area chart of traffic in bit/s over time, A to B (UTC), for 2 values; the largest: Big (average 4.00 Gbit/s), Others (average 1.00 Mbit/s). Prediction (dashed) of the next period, C to D, from the same hours of the previous weeks with their trend, for 1 value: Big (average 3.00 Gbit/s); predicted values are not in the table. The table below the chart lists the figures.",
    );
    expect(describePrediction({ ...timeseries, prediction: { ...timeseries.prediction, model: "trend" } }, "C to D")).toMatch(
      /from the trend of the history \(less than a week of it\)/,
    );
    expect(describePrediction({ ...timeseries, prediction: null }, "C to D")).toBe("");
  });

  it("name the largest Sankey links", () => {
    const text = describeSankey({
      nodes: [
        { id: "a", name: "Google" },
        { id: "b", name: "Frankfurt" },
      ],
      links: [{ source: "a", target: "b", value: 2e9 }],
    });
    expect(text).toBe(
      "Sankey diagram of traffic in bit/s with 2 nodes and 1 link; the largest: Google to Frankfurt (2.00 Gbit/s). The table below the chart lists the figures.",
    );
  });
});

describe("incompatible-browser warning", () => {
  it("is asked for by a route handle only", () => {
    expect(needsModernBrowser([undefined, { needsModernBrowser: true }])).toBe(true);
    expect(needsModernBrowser([undefined, null, { other: 1 }])).toBe(false);
  });
});
