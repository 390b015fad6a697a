/**
 * The planners' traffic chart draws the user's timeseries thresholds (timeseries_util_threshold_*)
 * as levels of the shown links' capacity, and says them in words with their bit rates.
 */
import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TrafficChart } from "~/features/planners/ui/PlannerCharts";
import { timeseriesThresholdsOf } from "~/features/planners/plan.server";
import { DEFAULT_USER_SETTINGS } from "~/server/settings/user-settings.server";

const H = 3600;
const T0 = 1_764_547_200; // 2025-12-01 00:00 UTC
const points = [0, 1, 2, 3].map((i) => ({ time: T0 + i * H, inBps: [4e9, 7e9, 6e9, 5e9][i], outBps: 1e9, complete: true }));
const chart = (capacityBps: number, thresholds: { medium: number; high: number }) =>
  renderToStaticMarkup(
    createElement(
      MantineProvider,
      null,
      createElement(TrafficChart, { timeseries: { bucketSeconds: H, points, capacityBps }, timezone: "UTC", thresholds }),
    ),
  );

describe("planners' traffic chart thresholds", () => {
  it("reads the timeseries settings, not the planner's", () => {
    expect(
      timeseriesThresholdsOf({ ...DEFAULT_USER_SETTINGS, timeseries_util_threshold_medium: 0.3, extlinks_util_threshold_medium: 0.9 }),
    ).toEqual({
      medium: 0.3,
      high: DEFAULT_USER_SETTINGS.timeseries_util_threshold_high,
    });
  });

  it("draws both levels at their share of the capacity and names their bit rates", () => {
    const markup = chart(10e9, { medium: 0.4, high: 0.8 });
    // 40 % and 80 % of 10 Gbit/s, worked out by hand.
    expect(markup).toContain(
      "capacity 10.0 Gbit/s (60-minute averages, UTC). Your timeseries thresholds: medium 40.0 % (4.00 Gbit/s), high 80.0 % (8.00 Gbit/s) of the capacity.",
    );
    expect(markup).toContain(">Medium 40.0 %<");
    expect(markup).toContain(">High 80.0 %<");
  });

  it("draws no level when the capacity is not drawn, but still says them", () => {
    const markup = chart(100e9, { medium: 0.5, high: 0.85 });
    expect(markup).toContain(
      "so it is not drawn) (60-minute averages, UTC). Your timeseries thresholds: medium 50.0 % (50.0 Gbit/s), high 85.0 % (85.0 Gbit/s)",
    );
    expect(markup).not.toContain(">Medium 50.0 %<");
  });

  it("says no level without a known capacity", () => {
    expect(chart(0, { medium: 0.5, high: 0.85 })).not.toContain("timeseries thresholds");
  });
});
