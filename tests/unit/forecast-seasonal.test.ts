/**
 * The seasonal model of the Flow Explorer's prediction (app/lib/forecast-seasonal.ts) on fixed
 * series with hand-computed values, and its error on a held-out week of a synthetic history.
 */
import { describe, expect, it } from "vitest";
import { theilSen } from "~/lib/forecast";
import { seasonalPrediction, smape, trendPrediction, weeklyLevels, WEEK_SECONDS } from "~/lib/forecast-seasonal";

const DAY = 86_400;
const HOUR = 3_600;
const days = (...values: number[]) => values;

describe("seasonalPrediction on daily buckets", () => {
  // Two weeks of daily values: levels 4 and 6, a trend of +2 per week.
  const history = { start: 0, step: DAY, values: [...days(1, 2, 3, 4, 5, 6, 7), ...days(3, 4, 5, 6, 7, 8, 9)] };

  it("the weekly levels are the means of the complete weeks counted back from the end", () => {
    expect(weeklyLevels(history)).toEqual([4, 6]);
    // A partial oldest week is left out.
    expect(weeklyLevels({ ...history, values: [100, ...history.values] })).toEqual([4, 6]);
  });

  it("same weekday of the previous weeks, each moved forward by the trend, median of them", () => {
    const p = seasonalPrediction(history, [14 * DAY, 15 * DAY, 20 * DAY, 21 * DAY]);
    expect(p?.model).toBe("seasonal");
    expect(p?.slopePerWeek).toBe(2);
    expect(p?.weeks).toBe(2);
    // Day 14: 3 + 2 (a week ago) and 1 + 2·2 (two weeks ago) → 5. Day 15: 4 + 2 and 2 + 4 → 6.
    // Day 20: 9 + 2 and 7 + 4 → 11. Day 21 (second week ahead): day 14 is not known; 3 + 2·2 and 1 + 3·2 → 7.
    expect(p?.values).toEqual([5, 6, 11, 7]);
  });

  it("the median, not the mean: one outlier week does not move the prediction", () => {
    const flat = Array(7).fill(10);
    const values = [...flat, 1000, ...flat.slice(1), ...flat];
    const p = seasonalPrediction({ start: 0, step: DAY, values }, [21 * DAY, 22 * DAY]);
    // Levels 10, 151.43, 10: pairwise slopes +141.43, 0, −141.43 → median 0.
    expect(p?.slopePerWeek).toBe(0);
    // Slot 0: 10, 1000, 10 → 10 (the mean would be 340).
    expect(p?.values).toEqual([10, 10]);
  });

  it("never below 0", () => {
    const p = seasonalPrediction({ start: 0, step: DAY, values: [...Array(7).fill(10), ...Array(7).fill(2)] }, [14 * DAY]);
    // Slope −8 per week: 2 − 8 and 10 − 16 are both −6.
    expect(p?.slopePerWeek).toBe(-8);
    expect(p?.values).toEqual([0]);
  });

  it("at most `weeks` previous weeks are read", () => {
    const values = [...Array(7).fill(100), ...Array(7).fill(1), ...Array(7).fill(1)];
    // Levels 100, 1, 1: slopes −99, −49.5, 0 → −49.5.
    const all = seasonalPrediction({ start: 0, step: DAY, values }, [21 * DAY]);
    expect(all?.values).toEqual([Math.max(0, 1 - 2 * 49.5)]);
    const one = seasonalPrediction({ start: 0, step: DAY, values }, [21 * DAY], { weeks: 1 });
    // Only a week ago: 1 − 49.5 → 0.
    expect(one?.values).toEqual([0]);
    const two = seasonalPrediction({ start: 0, step: DAY, values: values.map(() => 5) }, [21 * DAY], { weeks: 2 });
    expect(two?.values).toEqual([5]);
  });

  it("a slot unknown in every previous week falls back to the trend line there", () => {
    const values: (number | null)[] = [...days(1, 2, 3, 4, 5, 6, 7), ...days(3, 4, 5, 6, 7, 8, 9)];
    values[0] = null;
    values[7] = null;
    const p = seasonalPrediction({ start: 0, step: DAY, values }, [14 * DAY]);
    const trend = trendPrediction({ start: 0, step: DAY, values }, [14 * DAY]);
    expect(trend).not.toBeNull();
    expect(p?.values).toEqual(trend);
  });
});

describe("trendPrediction (less than a week of history)", () => {
  it("the Theil–Sen line of the history", () => {
    const p = seasonalPrediction({ start: 0, step: DAY, values: [1, 2, 3] }, [3 * DAY, 5 * DAY]);
    expect(p).toEqual({ model: "trend", values: [4, 6], slopePerWeek: null, weeks: 0 });
    expect(seasonalPrediction({ start: 0, step: DAY, values: [1, 0.5, 0] }, [4 * DAY])?.values).toEqual([0]);
  });

  it("fitted to means of groups of buckets, the line of a linear series is kept exactly", () => {
    // 336 hourly buckets → groups of 2; 337 → groups of 3, the oldest bucket left out.
    for (const n of [336, 337, 1000]) {
      const values = Array.from({ length: n }, (_, i) => 5 + 2 * i);
      const p = trendPrediction({ start: 1000 * HOUR, step: HOUR, values }, [(1000 + n) * HOUR, (1000 + n + 9) * HOUR]);
      expect(p?.[0]).toBeCloseTo(5 + 2 * n, 9);
      expect(p?.[1]).toBeCloseTo(5 + 2 * (n + 9), 9);
    }
  });

  it("no prediction with fewer than two known values", () => {
    expect(seasonalPrediction({ start: 0, step: DAY, values: [3, null] }, [2 * DAY])).toBeNull();
    expect(trendPrediction({ start: 0, step: DAY, values: [] }, [0])).toBeNull();
  });
});

describe("smape", () => {
  it("is the mean of |p − a| / mean(|p|, |a|)", () => {
    // |110 − 90| / 100 = 0.2, |0 − 0| counts as exact, |50 − 150| / 100 = 1.
    expect(smape([110, 0, 50], [90, 0, 150])).toBeCloseTo(0.4, 12);
    expect(() => smape([1], [1, 2])).toThrow();
  });
});

/** A seeded generator (mulberry32): the same noise on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Four weeks of hourly bit/s: a daily cycle (night trough at 40 % of the evening peak), weekends
 * at 70 %, +3 % per week of growth, ±10 % uniform noise (seeded).
 */
function syntheticHistory(seed: number): number[] {
  const next = random(seed);
  return Array.from({ length: 4 * 168 }, (_, h) => {
    const hourOfDay = h % 24;
    const weekday = Math.floor(h / 24) % 7;
    const daily = 0.7 - 0.3 * Math.cos(((hourOfDay - 3) / 24) * 2 * Math.PI);
    const weekly = weekday >= 5 ? 0.7 : 1;
    const trend = 1 + (0.03 * h) / 168;
    const noise = 1 + 0.2 * (next() - 0.5);
    return 2e9 * daily * weekly * trend * noise;
  });
}

describe("held-out error on a synthetic history (weekly pattern + trend + noise)", () => {
  it("predicts the last week from the three before it better than the trend alone", () => {
    const start = 1_700_000_000 - (1_700_000_000 % WEEK_SECONDS);
    const errors: { seed: number; seasonal: number; trend: number }[] = [];
    for (const seed of [1, 2, 3]) {
      const all = syntheticHistory(seed);
      const history = { start, step: HOUR, values: all.slice(0, 3 * 168) };
      const heldOut = all.slice(3 * 168);
      const targets = heldOut.map((_, i) => start + (3 * 168 + i) * HOUR);
      const seasonal = seasonalPrediction(history, targets);
      const trend = trendPrediction(history, targets);
      expect(seasonal?.model).toBe("seasonal");
      errors.push({ seed, seasonal: smape(seasonal!.values, heldOut), trend: smape(trend!, heldOut) });
    }
    console.info(
      "held-out week sMAPE:",
      errors.map((e) => `seed ${e.seed}: seasonal ${(e.seasonal * 100).toFixed(2)} %, trend only ${(e.trend * 100).toFixed(2)} %`),
    );
    for (const e of errors) {
      // The noise alone is ±10 % uniform on the held-out value (mean |error| 5 %) and on each of the
      // three slots the median is taken of (which shrinks it): a correct model stays under 8 %;
      // a model that missed the weekly or daily shape would be far above (the trend alone is).
      expect(e.seasonal).toBeLessThan(0.08);
      expect(e.seasonal).toBeLessThan(e.trend / 2);
    }
  });

  it("the trend added to the slots is the Theil–Sen slope of the weekly levels", () => {
    const all = syntheticHistory(7);
    const history = { start: 0, step: HOUR, values: all };
    const p = seasonalPrediction(history, [4 * WEEK_SECONDS]);
    expect(p?.slopePerWeek).toBe(theilSen(weeklyLevels(history))!.slope);
    // Growth of 3 % a week on a mean level near 2e9 × 0.7 × (5 + 2 × 0.7) / 7.
    expect(p!.slopePerWeek! / weeklyLevels(history)[0]!).toBeGreaterThan(0.015);
  });
});
