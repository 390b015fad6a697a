/**
 * "Test against the last 7 days" (docs/alerts.md): the rule as typed in the form, run through the
 * same state machine (runSeries) over the last 7 days of complete 5-minute buckets of its view,
 * read for the user as the evaluator reads it for the owner (ruleSelection: the restriction
 * applied) with the same grouped read (readRuleSeries) and, for a band rule, the same band per
 * bucket (sampleOf over the four weeks before it). Nothing is stored and nobody is told.
 */
import { operatorAsn } from "~/features/filter/operator-as.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { alertBand, bandLimits } from "~/lib/seasonal-band";
import { BAND_HISTORY_SECONDS, newestCompleteBucket, readRuleSeries, ruleSelection } from "./evaluate.server";
import type { AlertRuleBody } from "./request-schema";
import { BUCKET_SECONDS } from "./sql";
import { runSeries, type AlertCondition, type AlertTransition, type BucketSample, type RuleLogic } from "./state-machine";

export const PREVIEW_DAYS = 7;
export const PREVIEW_SECONDS = PREVIEW_DAYS * 86_400;

export type RulePreview = {
  /** The buckets run: the first's start and the last's end (epoch seconds). */
  range: { start: number; end: number };
  buckets: number;
  /** Buckets with a value (the others are No data). */
  withData: number;
  transitions: AlertTransition[];
};

export function logicOfBody(
  body: Pick<AlertRuleBody, "condition" | "metric" | "threshold" | "bandFactor" | "minDurationSeconds" | "hysteresis">,
): RuleLogic {
  const condition: AlertCondition =
    body.condition === "outside_band"
      ? { kind: "outside_band", metric: body.metric, factor: body.bandFactor ?? 0 }
      : { kind: body.condition, metric: body.metric, threshold: body.threshold ?? 0 };
  return { condition, minDurationSeconds: body.minDurationSeconds, hysteresis: body.hysteresis };
}

/** The preview of `body` for `user` at `now` (epoch seconds), or the reason its view cannot be read. */
export async function previewRule(
  services: Pick<Services, "pg" | "ch">,
  user: UserContext,
  body: AlertRuleBody,
  now = Math.floor(Date.now() / 1000),
): Promise<RulePreview | { error: string }> {
  const selected = await ruleSelection(services, user, { ...body.view, value: body.view.value || null });
  if ("error" in selected) return { error: selected.error };
  const last = newestCompleteBucket(now);
  const end = last + BUCKET_SECONDS;
  const start = end - PREVIEW_SECONDS;
  const band = body.condition === "outside_band";
  const readStart = band ? start - BAND_HISTORY_SECONDS : start;
  const [series] = await readRuleSeries(
    services,
    [{ selection: selected.selection, metric: body.metric }],
    { start: readStart, end },
    await operatorAsn(services),
  );
  // The series once as an array; each bucket's band from the four weeks before it, as sampleOf
  // (evaluate.server.ts) gives the evaluator's, without a map lookup per history bucket.
  const values = Array.from({ length: (end - readStart) / BUCKET_SECONDS }, (_, i) => series.get(readStart + i * BUCKET_SECONDS) ?? null);
  const history = BAND_HISTORY_SECONDS / BUCKET_SECONDS;
  const samples: BucketSample[] = [];
  for (let t = start; t < end; t += BUCKET_SECONDS) {
    const i = (t - readStart) / BUCKET_SECONDS;
    const sample: BucketSample = { start: t, step: BUCKET_SECONDS, value: values[i] };
    if (band) {
      const before = values.slice(i - history, i);
      const b = before.some((v) => v !== null)
        ? alertBand({ start: t - BAND_HISTORY_SECONDS, step: BUCKET_SECONDS, values: before }, t)
        : null;
      sample.band = b ? { expected: b.expected, ...bandLimits(b, body.bandFactor ?? 0) } : null;
    }
    samples.push(sample);
  }
  const { transitions } = runSeries(logicOfBody(body), samples);
  return {
    range: { start, end },
    buckets: samples.length,
    withData: samples.filter((s) => s.value !== null).length,
    transitions,
  };
}
