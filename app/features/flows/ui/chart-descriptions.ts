import { formatBitsPerSecond } from "~/lib/units";
import type { SankeyData, TimeseriesData } from "./charts";

/** How many of the largest values or links a chart's text alternative names. */
const NAMED = 5;
const TABLE_POINTER = "The table below the chart lists the figures.";
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * The text alternative of the stacked timeseries: what it shows, its largest series by average
 * bit/s, and where the exact figures are (a screen reader cannot read a chart's areas).
 */
export function describeTimeseries(timeseries: TimeseriesData, rangeText: string, predictionRangeText = ""): string {
  const averages = timeseries.series
    .map((s) => ({ name: s.name, avg: s.values.reduce((sum, v) => sum + v, 0) / Math.max(1, s.values.length) }))
    .sort((a, b) => b.avg - a.avg)
    .slice(0, NAMED);
  const largest = averages.map((s) => `${s.name} (average ${formatBitsPerSecond(s.avg)})`).join(", ");
  return `Stacked area chart of traffic in bit/s over time, ${rangeText}, for ${count(timeseries.series.length, "value")}; the largest: ${largest}. ${[describePrediction(timeseries, predictionRangeText), TABLE_POINTER].filter(Boolean).join(" ")}`;
}

/**
 * The prediction's sentence (empty without one): it is not in the table, so its largest values are
 * said here, with the model that made them.
 */
export function describePrediction(timeseries: TimeseriesData, rangeText: string): string {
  const p = timeseries.prediction;
  if (!p || !p.buckets.length || !p.series.length) return "";
  const model =
    p.model === "seasonal" ? "the same hours of the previous weeks with their trend" : "the trend of the history (less than a week of it)";
  const averages = p.series
    .map((s) => ({ name: s.name, avg: s.values.reduce((sum, v) => sum + v, 0) / Math.max(1, s.values.length) }))
    .sort((a, b) => b.avg - a.avg)
    .slice(0, NAMED)
    .map((s) => `${s.name} (average ${formatBitsPerSecond(s.avg)})`)
    .join(", ");
  return `Prediction (dashed) of the next period, ${rangeText}, from ${model}, for ${count(p.series.length, "value")}: ${averages}; predicted values are not in the table.`;
}

/** The text alternative of a Sankey: its stages' largest flows, and where the exact figures are. */
export function describeSankey(sankey: SankeyData, tableBelow = true): string {
  const names = new Map(sankey.nodes.map((n) => [n.id, n.name]));
  const largest = [...sankey.links]
    .sort((a, b) => b.value - a.value)
    .slice(0, NAMED)
    .map((l) => `${names.get(l.source) ?? l.source} to ${names.get(l.target) ?? l.target} (${formatBitsPerSecond(l.value)})`)
    .join(", ");
  return `Sankey diagram of traffic in bit/s with ${count(sankey.nodes.length, "node")} and ${count(sankey.links.length, "link")}; the largest: ${largest}.${tableBelow ? ` ${TABLE_POINTER}` : ""}`;
}
