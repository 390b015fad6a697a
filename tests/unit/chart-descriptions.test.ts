import { describe, expect, it } from "vitest";
import { describeSankey, describeTimeseries } from "~/features/flows/ui/chart-descriptions";
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
