import { Alert, Text } from "@mantine/core";
import { Line } from "@nivo/line";
import { Sankey } from "@nivo/sankey";
import { useMemo } from "react";
import { formatBitsPerSecond } from "~/lib/units";
import { describeSankey, describeTimeseries } from "./chart-descriptions";
import { formatUnix } from "~/lib/date-format";
import { incompleteBucketsWords } from "~/lib/aggregation-window";
import { SankeyLinkTooltip, SankeyNodeTooltip, SankeyStages, SankeyTable, sankeyLabel, SANKEY_LABEL_COLOR } from "./sankey-extras";
import { timeTicks } from "~/lib/time-ticks";
import { predictionLayer, previousPeriodLayer, sliceTooltip, type PredictionData, type PreviousTotals } from "./timeseries-extras";
import { useHydrated } from "~/components/use-hydrated";

/** Above this many buckets the areas are drawn with straight segments: a third of the SVG of smooth curves, no visible difference at this width. */
const SMOOTH_CURVE_MAX_BUCKETS = 200;

export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 360;

/**
 * d3's category10: one colour per top value; the folded rest ("Others") is grey so no value shares
 * its colour. A value whose mapping gives it a colour (the AS, application and infrastructure
 * mappings) is drawn in that colour.
 */
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const OTHERS_COLOR = "#c8c8c8";
function seriesColor(id: string, index: number, mapped: string | null | undefined): string {
  if (mapped) return mapped;
  return id === "Others" ? OTHERS_COLOR : PALETTE[index % PALETTE.length];
}

export type TimeseriesData = {
  buckets: number[];
  /** `color`: the value's mapped colour, null or absent for the palette's. */
  series: { key: string; name: string; color?: string | null; values: number[] }[];
  /** Per bucket whether it is complete (isCompleteBucket of app/lib/aggregation-window.ts); absent: all are. */
  complete?: boolean[];
  /** The next period predicted (api/flows/ shouldPredict): drawn dashed after the last bucket, never in the table. */
  prediction?: PredictionData | null;
};
export type SankeyData = {
  nodes: { id: string; name: string; color?: string | null }[];
  links: { source: string; target: string; value: number }[];
};

/**
 * Stacked bit/s areas of the top values; nivo renders SVG on the server too, so the chart shows
 * without JavaScript. `previous`: the previous period's total per bucket, on this period's time
 * axis, drawn as a dashed line (timeseries-extras.tsx).
 */
export function TimeseriesChart({
  timeseries: given,
  timezone,
  window,
  previous,
}: {
  timeseries: TimeseriesData | null | undefined;
  timezone: string;
  window?: number | null;
  previous?: PreviousTotals | null;
}) {
  // Only complete buckets are drawn: one cut by the range's end or still running would read as a drop in traffic.
  const timeseries = useMemo(() => (given ? completeOnly(given) : given), [given]);
  const leftOut = given ? incompleteBucketsWords(given.buckets, given.complete, timezone) : null;
  const series = useMemo(() => {
    if (!timeseries) return [];
    const seen = new Set<string>();
    return timeseries.series.map((s) => {
      const id = seen.has(s.name) ? `${s.name} (${s.key})` : s.name;
      seen.add(id);
      return { id, data: timeseries.buckets.map((b, i) => ({ x: b, y: s.values[i] ?? 0 })) };
    });
  }, [timeseries]);
  // nivo formats every point's x eagerly (buckets × series); a timezone conversion per bucket, once, keeps that cheap.
  const labels = useMemo(() => new Map((timeseries?.buckets ?? []).map((b) => [b, formatUnix(b, timezone)])), [timeseries, timezone]);
  const colorOf = useMemo(
    () => new Map(series.map((s, i) => [s.id, seriesColor(s.id, i, timeseries?.series[i]?.color)])),
    [series, timeseries],
  );
  // The hover slices (one rect per bucket) only matter with JavaScript: the server's HTML goes without them.
  const hydrated = useHydrated();
  if (!timeseries || !timeseries.buckets.length || !series.length)
    return <Text c="dimmed">{given?.buckets.length && leftOut ? leftOut : "No traffic in this range."}</Text>;
  const first = timeseries.buckets[0];
  const last = timeseries.buckets[timeseries.buckets.length - 1];
  const prediction = timeseries.prediction?.buckets.length ? timeseries.prediction : null;
  const predicted = prediction
    ? predictedLines(
        series,
        timeseries.series.map((s) => s.key),
        prediction,
        colorOf,
        last,
      )
    : [];
  // With a prediction the time axis runs on to its last bucket.
  const lastX = prediction ? prediction.buckets[prediction.buckets.length - 1] : last;
  const ticks = timeTicks(first, lastX, timezone);
  const bucketSeconds = window ?? (timeseries.buckets.length > 1 ? timeseries.buckets[1] - first : 300);
  const overlay = (previous ?? []).filter((p) => p.bucket >= first && p.bucket <= last);
  const previousByBucket = previous ? new Map(overlay.map((p) => [p.bucket, p.bps])) : null;
  // The stack's top decides the scale unless the previous period's line reaches higher.
  const stackTop = Math.max(0, ...timeseries.buckets.map((_, i) => timeseries.series.reduce((a, s) => a + (s.values[i] ?? 0), 0)));
  const lineTop = Math.max(...overlay.map((p) => p.bps), ...predicted.flatMap((l) => l.values));
  const yMax = overlay.length || predicted.length ? Math.max(stackTop, lineTop) * 1.05 : ("auto" as const);
  const range = `${labels.get(first)} to ${labels.get(last)} (${timezone})`;
  const predictionRange = prediction ? `${formatUnix(prediction.buckets[0], timezone)} to ${formatUnix(lastX, timezone)}` : "";
  const legendTop = series.length * 18 + 8;
  return (
    <div data-testid="timeseries-chart" style={{ overflowX: "auto" }}>
      <Line
        role="img"
        ariaLabel={[describeTimeseries(timeseries, range, predictionRange), leftOut].filter(Boolean).join(" ")}
        width={CHART_WIDTH}
        height={CHART_HEIGHT}
        animate={false}
        data={series}
        margin={{ top: 10, right: 200, bottom: 40, left: 80 }}
        xScale={first < lastX ? { type: "linear", min: first, max: lastX, nice: false } : { type: "linear", min: "auto", max: "auto" }}
        gridXValues={ticks.values}
        yScale={{ type: "linear", min: 0, max: yMax, stacked: true }}
        enableArea
        areaOpacity={0.6}
        enablePoints={false}
        curve={timeseries.buckets.length > SMOOTH_CURVE_MAX_BUCKETS ? "linear" : "monotoneX"}
        colors={(serie) => colorOf.get(String(serie.id)) ?? OTHERS_COLOR}
        axisBottom={{
          tickValues: ticks.values,
          format: (v) => formatUnix(Number(v), timezone, ticks.format),
        }}
        axisLeft={{ tickValues: 5, format: (v) => formatBitsPerSecond(Number(v)) }}
        yFormat={(v) => formatBitsPerSecond(Number(v))}
        xFormat={(v) => labels.get(Number(v)) ?? formatUnix(Number(v), timezone)}
        enableSlices={hydrated ? "x" : false}
        sliceTooltip={sliceTooltip({ timezone, window: bucketSeconds, previous: previousByBucket })}
        layers={[
          "grid",
          "markers",
          "axes",
          "areas",
          "crosshair",
          "lines",
          ...(overlay.length ? [previousPeriodLayer(overlay, legendTop)] : []),
          ...(prediction && predicted.length ? [predictionLayer(prediction, predicted, legendTop + (overlay.length ? 18 : 0))] : []),
          "slices",
          "points",
          "mesh",
          "legends",
        ]}
        legends={[{ anchor: "top-right", direction: "column", translateX: 190, itemWidth: 180, itemHeight: 18, symbolSize: 10 }]}
      />
      {leftOut ? (
        <Text size="xs" c="dimmed" data-testid="timeseries-incomplete">
          {leftOut}
        </Text>
      ) : null}
    </div>
  );
}

/** The timeseries without its incomplete buckets (the prediction, which starts after the last bucket, is kept). */
function completeOnly(timeseries: TimeseriesData): TimeseriesData {
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

/**
 * The predicted series stacked like the areas: in the chart's order (Others, last, is not
 * predicted), each line the running sum of the predictions up to its series, starting from the
 * stack's top of that series at the last measured bucket.
 */
function predictedLines(
  series: readonly { id: string; data: { y: number }[] }[],
  keys: readonly string[],
  prediction: PredictionData,
  colorOf: ReadonlyMap<string, string>,
  lastBucket: number,
) {
  const byKey = new Map(prediction.series.map((s) => [s.key, s.values]));
  let running = prediction.buckets.map(() => 0);
  let lastTop = 0;
  const lines: { id: string; color: string; values: number[]; lastTop: number; lastBucket: number }[] = [];
  for (const [index, s] of series.entries()) {
    lastTop += s.data[s.data.length - 1]?.y ?? 0;
    const values = byKey.get(keys[index]);
    if (!values) continue;
    running = running.map((v, i) => v + (values[i] ?? 0));
    lines.push({ id: s.id, color: colorOf.get(s.id) ?? OTHERS_COLOR, values: running, lastTop, lastBucket });
  }
  return lines;
}

/**
 * A Sankey of two or more dimensions (node ids are dimension:key, labels the names with their
 * bit/s). `stages`: the heading of each column. Hovering a node or a link shows its value; the
 * table below lists every link with its value, also without JavaScript.
 */
export function SankeyChart({
  sankey,
  error,
  height = 480,
  stages,
}: {
  sankey: SankeyData | null | undefined;
  error?: string | null;
  height?: number;
  stages?: readonly string[];
}) {
  if (error) {
    return (
      <Alert color="yellow" title="Sankey" data-testid="sankey-error">
        {error}
      </Alert>
    );
  }
  if (!sankey || !sankey.links.length) return <Text c="dimmed">No traffic in this range.</Text>;
  return (
    <div>
      <div data-testid="sankey-chart" style={{ overflowX: "auto" }}>
        <SankeyDiagram sankey={sankey} height={height} stages={stages} />
      </div>
      <SankeyTable sankey={sankey} stages={stages} />
    </div>
  );
}

/** The Sankey's SVG alone (no Mantine components: the image export renders it without a provider). */
export function SankeyDiagram({ sankey, height = 480, stages }: { sankey: SankeyData; height?: number; stages?: readonly string[] }) {
  const names = new Map(sankey.nodes.map((n) => [n.id, n.name]));
  const colorOf = new Map(sankey.nodes.map((n, i) => [n.id, n.color || PALETTE[i % PALETTE.length]]));
  const top = stages?.length ? 34 : 10;
  return (
    <Sankey
      role="img"
      ariaLabel={describeSankey(sankey)}
      width={CHART_WIDTH}
      height={height + top - 10}
      animate={false}
      data={{ nodes: sankey.nodes.map((n) => ({ id: n.id })), links: sankey.links.map((l) => ({ ...l })) }}
      margin={{ top, right: 220, bottom: 10, left: 220 }}
      label={(n) => sankeyLabel(names.get(String(n.id)) ?? String(n.id), n.value)}
      valueFormat={(v) => formatBitsPerSecond(Number(v))}
      colors={(node) => colorOf.get(String(node.id)) ?? OTHERS_COLOR}
      nodeOpacity={1}
      linkOpacity={0.4}
      enableLinkGradient={false}
      labelPosition="outside"
      labelTextColor={SANKEY_LABEL_COLOR}
      nodeBorderWidth={0}
      nodeTooltip={SankeyNodeTooltip}
      linkTooltip={SankeyLinkTooltip}
      layers={["links", "nodes", "labels", ...(stages?.length ? [SankeyStages(stages)] : []), "legends"]}
    />
  );
}
