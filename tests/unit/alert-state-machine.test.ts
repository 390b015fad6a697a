/**
 * The alert rule's state machine on fixed series: fixed thresholds, the seasonal band, minimum
 * duration, hysteresis, gaps (No data, never a trigger), a late bucket, acknowledge and silence.
 */
import { describe, expect, it } from "vitest";
import {
  acknowledge,
  acknowledgeError,
  INITIAL_STATE,
  ruleLogicError,
  runSeries,
  silence,
  step,
  type BucketSample,
  type RuleLogic,
} from "~/features/alerts/state-machine";
import { alertBand, bandLimits } from "~/lib/seasonal-band";
import { seasonalBand } from "~/lib/forecast-seasonal";
import { WEEK_SECONDS } from "~/lib/forecast-seasonal";

const STEP = 300;
const T0 = 1_700_000_100 - (1_700_000_100 % STEP);
/** Consecutive 5-minute buckets from T0 with these values (null: no data). */
const series = (values: (number | null)[], band?: BucketSample["band"]): BucketSample[] =>
  values.map((value, i) => ({ start: T0 + i * STEP, step: STEP, value, band }));
const above = (threshold: number, extra: Partial<RuleLogic> = {}): RuleLogic => ({
  condition: { kind: "above", metric: "bps", threshold },
  minDurationSeconds: 0,
  hysteresis: 0,
  ...extra,
});

describe("fixed thresholds", () => {
  it("above: triggers on the first bucket over the threshold, with its time and value, and resolves below it", () => {
    const { transitions, state } = runSeries(above(100), series([50, 90, 150, 120, 80, 70]));
    expect(transitions.map((t) => [t.from, t.to, t.at, t.value, t.limit])).toEqual([
      ["OK", "Triggered", T0 + 3 * STEP, 150, 100],
      ["Triggered", "Resolved", T0 + 5 * STEP, 80, 100],
    ]);
    expect(state.status).toBe("Resolved");
    expect(state.triggeredAt).toBe(T0 + 3 * STEP);
    expect(state.resolvedAt).toBe(T0 + 5 * STEP);
    expect(state.crossingValue).toBe(80);
  });

  it("a value equal to the threshold does not breach", () => {
    expect(runSeries(above(100), series([100, 100])).transitions).toEqual([]);
  });

  it("below (packets/s): triggers under the threshold and triggers again after resolving", () => {
    const logic: RuleLogic = { condition: { kind: "below", metric: "pps", threshold: 10 }, minDurationSeconds: 0, hysteresis: 0 };
    const { transitions } = runSeries(logic, series([20, 5, 15, 3]));
    expect(transitions.map((t) => [t.to, t.value])).toEqual([
      ["Triggered", 5],
      ["Resolved", 15],
      ["Triggered", 3],
    ]);
  });
});

describe("minimum duration", () => {
  it("needs breaching buckets covering the duration: 15 minutes is three 5-minute buckets", () => {
    const logic = above(100, { minDurationSeconds: 900 });
    const { transitions } = runSeries(logic, series([150, 150, 50, 150, 150, 150, 150]));
    // The first run (two buckets) is broken; the second triggers at the end of its third bucket.
    expect(transitions.map((t) => [t.to, t.at])).toEqual([["Triggered", T0 + 6 * STEP]]);
  });

  it("a skipped bucket (never evaluated) breaks the run", () => {
    const logic = above(100, { minDurationSeconds: 600 });
    const samples = series([150, null, 150]).filter((s) => s.value !== null);
    expect(runSeries(logic, samples).transitions).toEqual([]);
  });
});

describe("hysteresis", () => {
  it("above 100 with 10 %: stays triggered between 90 and 100, resolves at 90 or less", () => {
    const logic = above(100, { hysteresis: 0.1 });
    const { transitions } = runSeries(logic, series([120, 99, 95, 91, 90]));
    expect(transitions.map((t) => [t.to, t.value, t.limit])).toEqual([
      ["Triggered", 120, 100],
      ["Resolved", 90, 90],
    ]);
  });

  it("below 100 with 20 %: resolves only at 120 or more", () => {
    const logic: RuleLogic = { condition: { kind: "below", metric: "bps", threshold: 100 }, minDurationSeconds: 0, hysteresis: 0.2 };
    const { transitions } = runSeries(logic, series([50, 110, 119, 121]));
    expect(transitions.map((t) => [t.to, t.value])).toEqual([
      ["Triggered", 50],
      ["Resolved", 121],
    ]);
  });
});

describe("gaps", () => {
  it("an empty bucket gives No data, never a trigger (even for a 'below' rule), and data again gives OK", () => {
    const logic: RuleLogic = { condition: { kind: "below", metric: "bps", threshold: 10 }, minDurationSeconds: 0, hysteresis: 0 };
    const { transitions } = runSeries(logic, series([50, null, null, 40]));
    expect(transitions.map((t) => [t.from, t.to, t.at, t.value])).toEqual([
      ["OK", "No data", T0 + 2 * STEP, null],
      ["No data", "OK", T0 + 4 * STEP, 40],
    ]);
  });

  it("a gap breaks a breach run and ends a triggering; breaching after it starts a new run", () => {
    const logic = above(100, { minDurationSeconds: 600 });
    const { transitions } = runSeries(logic, series([150, 150, null, 150, 150]));
    expect(transitions.map((t) => [t.from, t.to, t.at])).toEqual([
      ["OK", "Triggered", T0 + 2 * STEP],
      ["Triggered", "No data", T0 + 3 * STEP],
      ["No data", "Triggered", T0 + 5 * STEP],
    ]);
  });

  it("a band rule without a band for the bucket (no history) is No data", () => {
    const logic: RuleLogic = { condition: { kind: "outside_band", metric: "bps", factor: 3 }, minDurationSeconds: 0, hysteresis: 0 };
    expect(runSeries(logic, series([1e9], null)).transitions.map((t) => t.to)).toEqual(["No data"]);
  });
});

describe("a late bucket", () => {
  it("a bucket not after the last evaluated one changes nothing (evaluating the same bucket twice is a no-op)", () => {
    const logic = above(100);
    const first = step(INITIAL_STATE, logic, { start: T0 + STEP, step: STEP, value: 50 });
    const again = step(first.state, logic, { start: T0 + STEP, step: STEP, value: 500 });
    const older = step(first.state, logic, { start: T0, step: STEP, value: 500 });
    for (const outcome of [again, older]) {
      expect(outcome.late).toBe(true);
      expect(outcome.transition).toBeNull();
      expect(outcome.state).toBe(first.state);
    }
  });
});

describe("acknowledge", () => {
  it("only a triggered rule can be acknowledged; the acknowledgement ends with the triggering", () => {
    const logic = above(100);
    expect(acknowledgeError(INITIAL_STATE)).toBe("Only a triggered alert can be acknowledged.");
    expect(() => acknowledge(INITIAL_STATE, "alice", T0)).toThrow("Only a triggered alert can be acknowledged.");
    const triggered = runSeries(logic, series([150])).state;
    const acked = acknowledge(triggered, "alice", T0 + 400);
    expect([acked.acknowledgedBy, acked.acknowledgedAt]).toEqual(["alice", T0 + 400]);
    expect(acknowledgeError(acked)).toBe("This alert is already acknowledged.");
    // Still breaching: still acknowledged. Resolved: the acknowledgement is gone.
    const still = step(acked, logic, { start: T0 + STEP, step: STEP, value: 160 }).state;
    expect(still.acknowledgedBy).toBe("alice");
    const resolved = step(still, logic, { start: T0 + 2 * STEP, step: STEP, value: 10 }).state;
    expect([resolved.status, resolved.acknowledgedBy, resolved.acknowledgedAt]).toEqual(["Resolved", null, null]);
  });
});

describe("silence", () => {
  it("transitions while silenced are kept but not notified; after the silence they are notified", () => {
    const logic = above(100);
    const silenced = silence(INITIAL_STATE, T0, 2 * STEP + 60);
    const { transitions } = runSeries(logic, series([150, 50, 150]), silenced);
    expect(transitions.map((t) => [t.to, t.at, t.notify])).toEqual([
      ["Triggered", T0 + STEP, false],
      ["Resolved", T0 + 2 * STEP, false],
      ["Triggered", T0 + 3 * STEP, true],
    ]);
    expect(silence(silenced, T0, 0).silencedUntil).toBeNull();
    expect(() => silence(INITIAL_STATE, T0, 8 * 86_400)).toThrow("A silence lasts");
  });
});

describe("the seasonal band", () => {
  // Three weeks of a daily sine between 100 and 300 Mbit/s, 1-hour buckets, with ±2 % noise that repeats.
  const step1h = 3600;
  const start = 1_699_920_000; // a Monday 00:00 UTC
  const daily = (t: number) => 200e6 + 100e6 * Math.sin((2 * Math.PI * ((t - start) % 86_400)) / 86_400);
  const noise = (i: number) => 1 + 0.02 * (((i * 7919) % 11) / 5 - 1);
  const values = Array.from({ length: (3 * WEEK_SECONDS) / step1h }, (_, i) => daily(start + i * step1h) * noise(i));
  const history = { start, step: step1h, values };
  const target = start + values.length * step1h;

  it("is the root-cause analysis's band (one function), widened by the factor around the expected value", () => {
    const band = alertBand(history, target)!;
    const point = seasonalBand(history, [target])!.points[0];
    expect(band.expected).toBe(point.value);
    expect(band.weeks).toBe(point.samples);
    // The same slot one, two and three weeks back: near the sine's value.
    expect(Math.abs(band.expected - daily(target)) / daily(target)).toBeLessThan(0.03);
    // Each side: how far the previous weeks went, at least 2 % of the expected value.
    expect(band.above).toBeCloseTo(Math.max(point.high - point.value, 0.02 * point.value), 6);
    expect(band.below).toBeCloseTo(Math.max(point.value - point.low, 0.02 * point.value), 6);
    const { low, high } = bandLimits(band, 3);
    expect(high - band.expected).toBeCloseTo(3 * band.above, 6);
    expect(band.expected - low).toBeCloseTo(3 * band.below, 6);
    // Less than a week of history: no baseline, no band.
    expect(alertBand({ start, step: step1h, values: values.slice(0, 100) }, start + 100 * step1h)).toBeNull();
  });

  it("outside the band by a factor: a DDoS-like spike triggers, normal traffic does not, the return resolves", () => {
    const logic: RuleLogic = { condition: { kind: "outside_band", metric: "bps", factor: 3 }, minDurationSeconds: 0, hysteresis: 0.2 };
    const band = alertBand(history, target)!;
    const limits = bandLimits(band, 3);
    const b = { expected: band.expected, ...limits };
    const samples: BucketSample[] = [band.expected, limits.high * 2, band.expected * 1.001, limits.low / 2].map((value, i) => ({
      start: target + i * step1h,
      step: step1h,
      value,
      band: b,
    }));
    const { transitions } = runSeries(logic, samples);
    expect(transitions.map((t) => [t.to, t.value])).toEqual([
      ["Triggered", limits.high * 2],
      ["Resolved", band.expected * 1.001],
      ["Triggered", limits.low / 2],
    ]);
    expect(transitions[0].limit).toBeCloseTo(limits.high, 3);
  });

  it("band hysteresis: between the narrowed and the full limit the rule stays triggered", () => {
    const logic: RuleLogic = { condition: { kind: "outside_band", metric: "bps", factor: 1 }, minDurationSeconds: 0, hysteresis: 0.5 };
    const b = { expected: 100, low: 80, high: 120 };
    const samples = [130, 115, 110, 109].map((value, i) => ({ start: T0 + i * STEP, step: STEP, value, band: b }));
    expect(runSeries(logic, samples).transitions.map((t) => [t.to, t.value, t.limit])).toEqual([
      ["Triggered", 130, 120],
      ["Resolved", 110, 110],
    ]);
  });
});

describe("rule logic checks", () => {
  it("names what is wrong", () => {
    expect(ruleLogicError(above(100))).toBeNull();
    expect(ruleLogicError(above(-1))).toBe("The threshold is a number of at least 0.");
    expect(ruleLogicError(above(1, { hysteresis: 1 }))).toBe("The hysteresis is a fraction from 0 up to (not including) 1.");
    expect(ruleLogicError(above(1, { minDurationSeconds: 1.5 }))).toBe(
      "The minimum duration is a whole number of seconds from 0 to 86400.",
    );
    expect(ruleLogicError({ condition: { kind: "outside_band", metric: "bps", factor: 0 }, minDurationSeconds: 0, hysteresis: 0 })).toBe(
      "The band factor is a number above 0 and at most 100.",
    );
  });
});
