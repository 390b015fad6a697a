import { describe, expect, it } from "vitest";
import {
  compareRows,
  compareTotals,
  formatPercentDifference,
  PERCENT_DIFFERENCE_CAP,
  percentDifference,
  previousPeriod,
} from "~/features/flows/comparison";

describe("previousPeriod", () => {
  it("is the range of equal length that ends where the range starts", () => {
    expect(previousPeriod({ start: 1000, end: 1600 })).toEqual({ start: 400, end: 1000 });
    expect(previousPeriod({ start: 86_400 * 2, end: 86_400 * 4 })).toEqual({ start: 0, end: 86_400 * 2 });
  });
});

describe("percentDifference", () => {
  it("is (now − previous) / previous · 100 within the cut-off", () => {
    expect(percentDifference(150, 100)).toEqual({ percent: 50, capped: false });
    expect(percentDifference(25, 100)).toEqual({ percent: -75, capped: false });
    expect(percentDifference(0, 100)).toEqual({ percent: -100, capped: false });
    expect(percentDifference(1100, 100)).toEqual({ percent: 1000, capped: false });
  });

  it("is cut off at ±1000 %", () => {
    expect(PERCENT_DIFFERENCE_CAP).toBe(1000);
    expect(percentDifference(1101, 100)).toEqual({ percent: 1000, capped: true });
    expect(percentDifference(1e9, 1)).toEqual({ percent: 1000, capped: true });
    // A fall can reach −100 % only, but negative inputs (differences of differences) are capped too.
    expect(percentDifference(-2000, 100)).toEqual({ percent: -1000, capped: true });
  });

  it("previous 0: +1000 % capped when there is traffic now, 0 % when neither has any", () => {
    expect(percentDifference(5, 0)).toEqual({ percent: 1000, capped: true });
    expect(percentDifference(0, 0)).toEqual({ percent: 0, capped: false });
  });
});

describe("compareRows / compareTotals", () => {
  const current = [
    { key: "a", name: "A", bps: 300 },
    { key: "b", name: "B", bps: 50 },
    { key: "new", name: "New", bps: 10 },
  ];
  const previous = [
    { key: "a", bps: 100 },
    { key: "b", bps: 100 },
    { key: "gone", bps: 40 },
  ];

  it("joins the previous bit/s by key; values absent before count as 0", () => {
    expect(compareRows(current, previous)).toEqual([
      { key: "a", name: "A", bps: 300, previousBps: 100, differencePercent: 200, differenceCapped: false },
      { key: "b", name: "B", bps: 50, previousBps: 100, differencePercent: -50, differenceCapped: false },
      { key: "new", name: "New", bps: 10, previousBps: 0, differencePercent: 1000, differenceCapped: true },
    ]);
  });

  it("totals include values that only the previous period had", () => {
    expect(compareTotals(current, previous)).toEqual({ bps: 360, previousBps: 240, differencePercent: 50, differenceCapped: false });
  });
});

describe("formatPercentDifference", () => {
  it("signs, one decimal, and marks the cut-off", () => {
    expect(formatPercentDifference({ differencePercent: 12.345, differenceCapped: false })).toBe("+12.3 %");
    expect(formatPercentDifference({ differencePercent: -4, differenceCapped: false })).toBe("−4.0 %");
    expect(formatPercentDifference({ differencePercent: 0, differenceCapped: false })).toBe("0.0 %");
    expect(formatPercentDifference({ differencePercent: 1000, differenceCapped: true })).toBe("≥ +1000 %");
    expect(formatPercentDifference({ differencePercent: -1000, differenceCapped: true })).toBe("≤ −1000 %");
  });
});
