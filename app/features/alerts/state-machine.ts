/**
 * The alert rule's state machine: one step per evaluated bucket, pure and isomorphic (the
 * evaluator, the "test against the last 7 days" preview and the tests run the same code).
 *
 * States: OK → Triggered → Resolved (→ Triggered again …), and No data from any state.
 *   - A bucket breaches when its value is above / below the rule's fixed threshold, or outside the
 *     seasonal band (seasonal-band.ts) widened by the rule's factor.
 *   - Minimum duration: the rule triggers once consecutive breaching buckets cover at least
 *     `minDurationSeconds` (from the first breaching bucket's start to the current bucket's end).
 *   - Hysteresis (a fraction, e.g. 0.1): once triggered, the rule resolves only when the value is
 *     back inside the limit moved inwards by that fraction (above 100 with 0.1: at most 90; a band
 *     limit: the band's distance from the expected value × (1 − hysteresis)). A value between the
 *     two keeps the rule triggered.
 *   - No data: a bucket without a value (no flows at all, or the data is missing) gives No data,
 *     never a trigger: an empty bucket is not "below 0 bit/s". A breach run is broken by it.
 *   - A late bucket (one not after the last evaluated bucket) changes nothing: the newest complete
 *     bucket is evaluated once, so a repeated evaluation (another process, a restart) is a no-op.
 *     A bucket further than one step after the last evaluated one breaks a breach run (the buckets
 *     between were never seen).
 *   - Acknowledge: a triggered rule can be acknowledged (who, when); the acknowledgement ends with
 *     the triggering (the next transition clears it).
 *   - Silence: until `silencedUntil`, transitions still happen and are kept in the history, but
 *     nobody is notified.
 * Every transition is reported once, with its time (the evaluated bucket's end) and the value
 * that crossed.
 */

export const ALERT_STATES = ["OK", "Triggered", "Resolved", "No data"] as const;
export type AlertStatus = (typeof ALERT_STATES)[number];

export const METRICS = ["bps", "pps"] as const;
export type AlertMetric = (typeof METRICS)[number];
export const CONDITION_KINDS = ["above", "below", "outside_band"] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export type AlertCondition =
  { kind: "above" | "below"; metric: AlertMetric; threshold: number } | { kind: "outside_band"; metric: AlertMetric; factor: number };

export type RuleLogic = {
  condition: AlertCondition;
  /** Consecutive breaching time needed before the rule triggers (0: the first breaching bucket). */
  minDurationSeconds: number;
  /** Fraction (0 ≤ h < 1) the value must come back inside the limit by before the rule resolves. */
  hysteresis: number;
};

/** The band a bucket is compared with (outside_band rules): its limits already widened by the factor. */
export type BucketBand = { expected: number; low: number; high: number };

/** One evaluated bucket: its start, length and value (null: no data); `band` for outside_band rules. */
export type BucketSample = { start: number; step: number; value: number | null; band?: BucketBand | null };

export type AlertState = {
  status: AlertStatus;
  /** When the current status began (epoch seconds: the end of the bucket that caused it); null before any. */
  since: number | null;
  /** Start of the last evaluated bucket (null before the first). */
  lastBucket: number | null;
  /** Start of the first bucket of the current breach run while it is shorter than the minimum duration. */
  breachSince: number | null;
  /** The value that made the last transition to Triggered (or Resolved) and its bucket. */
  crossingValue: number | null;
  triggeredAt: number | null;
  resolvedAt: number | null;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  silencedUntil: number | null;
};

export type AlertTransition = {
  from: AlertStatus;
  to: AlertStatus;
  /** The end of the evaluated bucket (epoch seconds). */
  at: number;
  bucketStart: number;
  /** The bucket's value (null for No data). */
  value: number | null;
  /** The limit it was compared with (threshold, or the band's limit it crossed); null for No data. */
  limit: number | null;
  /** False while the rule is silenced: kept in the history, nobody told. */
  notify: boolean;
};

export type StepOutcome = { state: AlertState; transition: AlertTransition | null; late: boolean };

export const INITIAL_STATE: AlertState = {
  status: "OK",
  since: null,
  lastBucket: null,
  breachSince: null,
  crossingValue: null,
  triggeredAt: null,
  resolvedAt: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
  silencedUntil: null,
};

/** Why a rule's logic is not usable, or null: one sentence for the form. */
export function ruleLogicError(logic: RuleLogic): string | null {
  const c = logic.condition;
  if (!(METRICS as readonly string[]).includes(c.metric)) return "The metric is bit/s (bps) or packets/s (pps).";
  if (c.kind === "outside_band") {
    if (!Number.isFinite(c.factor) || c.factor <= 0 || c.factor > 100) return "The band factor is a number above 0 and at most 100.";
  } else if (c.kind === "above" || c.kind === "below") {
    if (!Number.isFinite(c.threshold) || c.threshold < 0) return "The threshold is a number of at least 0.";
  } else return "The condition is above, below or outside_band.";
  if (!Number.isInteger(logic.minDurationSeconds) || logic.minDurationSeconds < 0 || logic.minDurationSeconds > 86_400)
    return "The minimum duration is a whole number of seconds from 0 to 86400.";
  if (!Number.isFinite(logic.hysteresis) || logic.hysteresis < 0 || logic.hysteresis >= 1)
    return "The hysteresis is a fraction from 0 up to (not including) 1.";
  return null;
}

/** Whether the value breaches the condition, and the limit it is compared with; null without a band for a band rule. */
export function breaches(
  condition: AlertCondition,
  value: number,
  band: BucketBand | null | undefined,
  inwards = 0,
): { breach: boolean; limit: number } | null {
  if (condition.kind === "above") {
    const limit = condition.threshold * (1 - inwards);
    return { breach: value > limit, limit };
  }
  if (condition.kind === "below") {
    const limit = condition.threshold * (1 + inwards);
    return { breach: value < limit, limit };
  }
  if (!band) return null;
  const high = band.expected + (band.high - band.expected) * (1 - inwards);
  const low = band.expected - (band.expected - band.low) * (1 - inwards);
  if (value > high) return { breach: true, limit: high };
  if (value < low) return { breach: true, limit: low };
  return { breach: false, limit: value >= band.expected ? high : low };
}

/** One evaluated bucket: the new state and the transition it caused, if any. `now` decides the silence. */
export function step(state: AlertState, logic: RuleLogic, sample: BucketSample, now = sample.start + sample.step): StepOutcome {
  if (state.lastBucket !== null && sample.start <= state.lastBucket) return { state, transition: null, late: true };
  const end = sample.start + sample.step;
  const consecutive = state.lastBucket !== null && sample.start === state.lastBucket + sample.step;
  const next: AlertState = { ...state, lastBucket: sample.start };
  const silenced = state.silencedUntil !== null && now < state.silencedUntil;
  const move = (to: AlertStatus, value: number | null, limit: number | null): StepOutcome => {
    const transition: AlertTransition = {
      from: state.status,
      to,
      at: end,
      bucketStart: sample.start,
      value,
      limit,
      notify: !silenced,
    };
    next.status = to;
    next.since = end;
    next.acknowledgedAt = null;
    next.acknowledgedBy = null;
    if (to === "Triggered") {
      next.triggeredAt = end;
      next.crossingValue = value;
    } else if (to === "Resolved") {
      next.resolvedAt = end;
      next.crossingValue = value;
    }
    return { state: next, transition, late: false };
  };

  const noData = sample.value === null || !Number.isFinite(sample.value) || (logic.condition.kind === "outside_band" && !sample.band);
  if (noData) {
    next.breachSince = null;
    return state.status === "No data" ? { state: next, transition: null, late: false } : move("No data", null, null);
  }
  const value = sample.value as number;

  if (state.status === "Triggered") {
    // Still triggered unless back inside the limit moved inwards by the hysteresis.
    const check = breaches(logic.condition, value, sample.band, logic.hysteresis)!;
    next.breachSince = null;
    return check.breach ? { state: next, transition: null, late: false } : move("Resolved", value, check.limit);
  }

  const check = breaches(logic.condition, value, sample.band)!;
  if (!check.breach) {
    next.breachSince = null;
    return state.status === "No data" ? move("OK", value, check.limit) : { state: next, transition: null, late: false };
  }
  const runStart = state.breachSince !== null && consecutive ? state.breachSince : sample.start;
  if (end - runStart >= logic.minDurationSeconds) {
    next.breachSince = null;
    return move("Triggered", value, check.limit);
  }
  next.breachSince = runStart;
  return { state: next, transition: null, late: false };
}

/** Runs a series of buckets through the machine: the final state and every transition (the preview, the tests). */
export function runSeries(
  logic: RuleLogic,
  samples: readonly BucketSample[],
  initial: AlertState = INITIAL_STATE,
): { state: AlertState; transitions: AlertTransition[] } {
  let state = initial;
  const transitions: AlertTransition[] = [];
  for (const sample of samples) {
    const outcome = step(state, logic, sample);
    state = outcome.state;
    if (outcome.transition) transitions.push(outcome.transition);
  }
  return { state, transitions };
}

/** Why a rule cannot be acknowledged now, or null. */
export function acknowledgeError(state: AlertState): string | null {
  if (state.status !== "Triggered") return "Only a triggered alert can be acknowledged.";
  if (state.acknowledgedAt !== null) return "This alert is already acknowledged.";
  return null;
}

/** The state acknowledged by `who` at `at` (epoch seconds); throws when not Triggered (see acknowledgeError). */
export function acknowledge(state: AlertState, who: string, at: number): AlertState {
  const error = acknowledgeError(state);
  if (error) throw new Error(error);
  return { ...state, acknowledgedAt: at, acknowledgedBy: who };
}

/** Longest silence: a week. */
export const MAX_SILENCE_SECONDS = 7 * 86_400;

/** The state silenced from `at` for `seconds` (0 ends a silence). */
export function silence(state: AlertState, at: number, seconds: number): AlertState {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_SILENCE_SECONDS)
    throw new Error("A silence lasts a whole number of seconds from 0 to 604800.");
  return { ...state, silencedUntil: seconds === 0 ? null : at + seconds };
}
