import { Text } from "@mantine/core";
import { incompleteBucketsWords } from "~/lib/aggregation-window";
import type { TimeseriesData } from "./charts";

/*
 * The texts around the timeseries chart, apart from the chart's code (charts.tsx, loaded after the
 * page): the screen shows them from its loader's data before the chart has loaded.
 */

/**
 * What is said around the chart, from its data: which buckets are left out of the drawing (not
 * complete), and whether anything is drawn at all (else the text says why). The screen computes it
 * on the server beside the chart's markup (explorer.server.ts).
 */
export function chartNotes(given: TimeseriesData | null | undefined, timezone: string) {
  const drawn = given ? completeOnly(given) : null;
  const leftOut = given ? incompleteBucketsWords(given.buckets, given.complete, timezone) : null;
  const drawable = Boolean(drawn && drawn.buckets.length && drawn.series.length);
  return { leftOut, drawable, empty: drawable ? null : given?.buckets.length && leftOut ? leftOut : "No traffic in this range." };
}

/** Which buckets the drawing leaves out, under it. */
export function IncompleteNote({ text }: { text: string | null }) {
  return text ? (
    <Text size="xs" c="dimmed" data-testid="timeseries-incomplete">
      {text}
    </Text>
  ) : null;
}

/** The timeseries without its incomplete buckets (the prediction, which starts after the last bucket, is kept). */
export function completeOnly(timeseries: TimeseriesData): TimeseriesData {
  const complete = timeseries.complete;
  if (!complete || complete.every(Boolean)) return timeseries;
  const keep = (_: unknown, i: number) => complete[i];
  return {
    ...timeseries,
    buckets: timeseries.buckets.filter(keep),
    series: timeseries.series.map((s) => ({ ...s, values: s.values.filter(keep) })),
    complete: undefined,
  };
}
