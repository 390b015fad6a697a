/**
 * The Theil–Sen fit and the build-out forecast on fixed daily series, against values computed by
 * hand in the comments. Slopes of 1/64 per day keep the hand arithmetic exact in binary floating point.
 */
import { describe, expect, it } from "vitest";
import { forecastBuildout, FORECAST_HORIZON_DAYS, MIN_FORECAST_DAYS, theilSen } from "~/lib/forecast";

/** 0.25 + d/64 for d = 0..6: fitted last day 0.34375. */
const GROWING = [0, 1, 2, 3, 4, 5, 6].map((d) => 0.25 + d / 64);

describe("theilSen", () => {
  it("slope = median of pairwise slopes, intercept = median of y − slope·x", () => {
    // Pairs: (0,0)-(1,1): 1; (0,0)-(2,3): 1.5; (1,1)-(2,3): 2 → slope 1.5; y − 1.5x: 0, −0.5, 0 → intercept 0.
    expect(theilSen([0, 1, 3])).toEqual({ slope: 1.5, intercept: 0, points: 3 });
    // A null is skipped and keeps the others' x: points (0,0) (1,2) (3,3) (4,8); slopes 2, 1, 2, 0.5, 2, 5
    // → sorted 0.5 1 2 2 2 5, an even count: median (2 + 2) / 2 = 2.
    expect(theilSen([0, 2, null, 3, 8])?.slope).toBe(2);
    expect(theilSen([1])).toBeNull();
    expect(theilSen([null, 1, null])).toBeNull();
  });
});

describe("forecastBuildout", () => {
  it("DAYS: whole days until the fitted line reaches the level, from the last day", () => {
    // (0.95 − 0.34375) · 64 = 38.8 → the line is at or above 95 % on day 39.
    const f = forecastBuildout(GROWING, { level: 0.95, type: "DAYS" });
    expect(f).toMatchObject({ outcome: "reaches", daysLeft: 39, points: 7, words: "Reaches 95 % in 39 days" });
    expect(f.slopePerDay).toBe(1 / 64);
    expect(f.fittedLast).toBe(0.34375);
    // Both figures are always there: (0.34375 + 90/64) · 100 = 175 %.
    expect(f.percentAtHorizon).toBe(175);
    expect(f.horizonDays).toBe(FORECAST_HORIZON_DAYS);
  });

  it("PERCENT: the fitted utilisation at the horizon, in words", () => {
    const f = forecastBuildout(GROWING, { level: 0.95, type: "PERCENT" });
    expect(f).toMatchObject({ outcome: "reaches", daysLeft: 39, percentAtHorizon: 175, words: "175 % in 90 days" });
    // 0.5 + d/640 for d = 0..6: last 0.509375 + 90/640 = 0.65 → "65 % in 90 days"; at 30 days 0.55625 → 55.6 %.
    const slow = [0, 1, 2, 3, 4, 5, 6].map((d) => 0.5 + d / 640);
    expect(forecastBuildout(slow, { level: 0.95, type: "PERCENT" }).words).toBe("65 % in 90 days");
    expect(forecastBuildout(slow, { level: 0.95, type: "PERCENT", horizonDays: 30 }).words).toBe("55.6 % in 30 days");
  });

  it("PERCENT never goes below 0", () => {
    // 0.5 − d/64: last 0.40625, at 90 days 0.40625 − 1.40625 = −1 → 0.
    const falling = [0, 1, 2, 3, 4, 5, 6].map((d) => 0.5 - d / 64);
    const f = forecastBuildout(falling, { level: 0.95, type: "PERCENT" });
    expect(f.percentAtHorizon).toBe(0);
    expect(f.words).toBe("0 % in 90 days");
    expect(f.outcome).toBe("no growth");
  });

  it("no growth: slope ≤ 0 below the level", () => {
    const f = forecastBuildout(Array(10).fill(0.3), { level: 0.95, type: "DAYS" });
    expect(f).toMatchObject({ outcome: "no growth", daysLeft: null, words: "No growth", slopePerDay: 0 });
    expect(f.percentAtHorizon).toBeCloseTo(30, 12);
  });

  it("already above: the fitted last day at or over the level", () => {
    expect(forecastBuildout(Array(7).fill(0.96), { level: 0.95, type: "DAYS" })).toMatchObject({
      outcome: "already above",
      daysLeft: 0,
      words: "Already above 95 %",
    });
    // Exactly at the level counts as above; a level with a decimal: 87.5 %.
    expect(forecastBuildout(Array(7).fill(0.875), { level: 0.875, type: "DAYS" }).words).toBe("Already above 87.5 %");
  });

  it("not enough data: fewer than 7 values present (nulls do not count)", () => {
    expect(MIN_FORECAST_DAYS).toBe(7);
    const f = forecastBuildout([0.1, null, 0.2, 0.3, null, 0.4, 0.5], { level: 0.95, type: "DAYS" });
    expect(f).toMatchObject({
      outcome: "not enough data",
      points: 5,
      daysLeft: null,
      percentAtHorizon: null,
      words: "Not enough data (5 of 7 days)",
    });
  });

  it("a day without a value keeps the others' positions; the horizon counts from the period's last day", () => {
    // Day 3 missing: the same line 0.25 + d/64 through the other 6 and one more day (d = 7): last 0.359375.
    // (0.95 − 0.359375) · 64 = 37.8 → 38 days.
    const withGap = [...GROWING.slice(0, 3), null, ...GROWING.slice(4), 0.25 + 7 / 64];
    expect(forecastBuildout(withGap, { level: 0.95, type: "DAYS" })).toMatchObject({ daysLeft: 38, points: 7 });
    // Trailing empty days: the line is evaluated on the last day of the period, 2 days later: 38.8 − 2 → 37.
    expect(forecastBuildout([...GROWING, null, null], { level: 0.95, type: "DAYS" }).daysLeft).toBe(37);
  });

  it("an outlier day moves the Theil–Sen line not at all (least squares would)", () => {
    // Day 3 at 5.0 (a DDoS): 21 pairwise slopes, 15 of them 1/64, 3 far below, 3 far above → median 1/64;
    // y − x/64: six 0.25 and one 4.953125 → median 0.25. Same forecast as without the outlier.
    const spiky = GROWING.map((v, d) => (d === 3 ? 5 : v));
    const f = forecastBuildout(spiky, { level: 0.95, type: "DAYS" });
    expect(f).toMatchObject({ daysLeft: 39, slopePerDay: 1 / 64, fittedLast: 0.34375, words: "Reaches 95 % in 39 days" });
  });

  it("more than ten years is said as such; daysLeft keeps the figure", () => {
    // +1/8192 a day from 0.25 (exact in binary): (0.95 − 0.25 − 6/8192) · 8192 = 5728.4 → day 5729.
    const slow = Array.from({ length: 7 }, (_, i) => 0.25 + i / 8192);
    const f = forecastBuildout(slow, { level: 0.95, type: "DAYS" });
    expect(f.daysLeft).toBe(5729);
    expect(f.words).toBe("Reaches 95 % in more than 10 years");
  });

  it("one day left is said in the singular", () => {
    // 0.25 + d/64 up to d = 6 → 0.34375; a level of 0.35 is (0.35 − 0.34375)·64 = 0.4 days away → 1 day.
    expect(forecastBuildout(GROWING, { level: 0.35, type: "DAYS" }).words).toBe("Reaches 35 % in 1 day");
  });
});
