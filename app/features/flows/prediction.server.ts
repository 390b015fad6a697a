/**
 * The Flow Explorer's prediction (api/flows/ `shouldPredict`, the screen's "Prediction" option):
 * the next period of the shown range's length, bucketed like the chart, for each series the chart
 * shows except Others, from the history before the range's end (app/lib/forecast-seasonal.ts).
 *
 * The history is read with the same timeseries query as the chart, with the request's resolved
 * filters (so a delegated user's locked filters apply) plus a filter on the shown values: every
 * shown series then comes back on its own whatever its rank over the history. Others is not
 * predicted: it is the rest of the shown range's top N, and another period has another top N.
 */
import { seasonalPrediction, SEASONAL_WEEKS, WEEK_SECONDS, type PredictionModel } from "~/lib/forecast-seasonal";
import type { Services } from "~/server/services.server";
import type { NameViewer } from "~/features/tags/effective-names.server";
import type { AggregationWindow } from "./aggregation-window";
import { getDimension, OTHERS_LABEL, type DimensionId } from "~/features/filter/dimensions";
import type { FlowFilter } from "~/features/filter/filters";
import { flowTimeseries, type QueryBase, type Timeseries } from "./service.server";

type Stores = Pick<Services, "pg" | "ch">;

/** The history read for a prediction: at most this many weeks before the range's end. */
export const PREDICTION_HISTORY_WEEKS = SEASONAL_WEEKS;

/** Said when a prediction was asked for and none could be made. */
export const PREDICTION_UNAVAILABLE =
  "No prediction: the chart shows no series but Others, or there is too little history before the range's end.";

export type FlowPrediction = {
  /** "seasonal" with at least a week of history, "trend" otherwise. */
  model: PredictionModel;
  /** Start of each predicted bucket: the next period, right after the last shown bucket. */
  buckets: number[];
  /** Predicted bit/s per bucket of each shown series (Others excepted), in the chart's order. */
  series: { key: string; name: string; values: number[] }[];
  /** The history read: [start, end) unix seconds, complete buckets only. */
  history: { start: number; end: number };
};

/** The key Others has in a dimension's timeseries. */
export function othersKey(dimension: DimensionId): string {
  return String(getDimension(dimension).valueType === "Int64" ? -101 : OTHERS_LABEL);
}

/**
 * The prediction of the shown timeseries, or null when there is nothing to predict (no series,
 * or less history than two buckets).
 */
export async function flowPrediction(
  stores: Stores,
  viewer: NameViewer,
  dimension: DimensionId,
  q: QueryBase & { window: AggregationWindow; dataStart: number },
  shown: Timeseries,
): Promise<FlowPrediction | null> {
  const others = othersKey(dimension);
  const series = shown.series.filter((s) => s.key !== others);
  if (!series.length || !shown.buckets.length) return null;
  const window = q.window;
  const lastBucket = shown.buckets[shown.buckets.length - 1];
  // The history ends before the last shown bucket when it is partial (the range ends inside it).
  const end = Math.floor(q.range.end / window) * window;
  const start = Math.max(end - PREDICTION_HISTORY_WEEKS * WEEK_SECONDS, Math.ceil(q.dataStart / window) * window);
  if (end - start < 2 * window) return null;
  const keyFilters: FlowFilter[] = series.map((s) => ({ dimension, value: s.key, isNegation: false }));
  const history = await flowTimeseries(stores, viewer, dimension, {
    ...q,
    filters: [...q.filters, ...keyFilters],
    range: { start, end },
    topN: series.length,
  });
  const buckets = shown.buckets.map((_, i) => lastBucket + (i + 1) * window);
  const byKey = new Map(history.series.map((s) => [s.key, s.values]));
  let model: PredictionModel = "trend";
  const predicted: FlowPrediction["series"] = [];
  for (const s of series) {
    // A shown value without traffic in the history (not returned) had 0 bit/s in every bucket.
    const values = byKey.get(s.key) ?? history.buckets.map(() => 0);
    const p = seasonalPrediction({ start, step: window, values }, buckets);
    if (!p) return null;
    model = p.model;
    predicted.push({ key: s.key, name: s.name, values: p.values });
  }
  return { model, buckets, series: predicted, history: { start, end } };
}
