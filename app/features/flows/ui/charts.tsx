import { Text } from "@mantine/core";
import { Line } from "@nivo/line";
import { useMemo } from "react";
import { formatBitsPerSecond } from "~/lib/units";
import { describeTimeseries } from "./chart-descriptions";
import { formatUnix } from "~/lib/date-format";
import { timeTicks } from "~/lib/time-ticks";
import { predictionLayer, previousPeriodLayer, sliceTooltip, type PredictionData, type PreviousTotals } from "./timeseries-extras";
import { useHydrated } from "~/components/use-hydrated";
import type { LineCustomSvgLayerProps } from "@nivo/line";
import { compactArea, compactPath, drawnBuckets } from "./chart-paths";
import { CHART_HEIGHT, CHART_WIDTH, OTHERS_COLOR, PALETTE } from "./chart-style";
import { chartNotes, completeOnly, IncompleteNote } from "./chart-notes";

/** Above this many buckets the areas are drawn with straight segments: a third of the SVG of smooth curves, no visible difference at this width. */
const SMOOTH_CURVE_MAX_BUCKETS = 200;
const MARGIN = { top: 10, right: 200, bottom: 40, left: 80 };
/** The plot's pixel columns: the most points a series draws per column is two (chart-paths.ts drawnBuckets). */
const PLOT_COLUMNS = CHART_WIDTH - MARGIN.left - MARGIN.right;
const AREA_OPACITY = 0.6;
const LINE_WIDTH = 2;

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

type ChartProps = {
  timeseries: TimeseriesData | null | undefined;
  timezone: string;
  window?: number | null;
  previous?: PreviousTotals | null;
};

/**
 * Stacked bit/s areas of the top values, with the texts around them; nivo renders SVG on the
 * server too, so the chart shows without JavaScript (and in the image exports). `previous`: the
 * previous period's total per bucket, on this period's time axis, drawn as a dashed line
 * (timeseries-extras.tsx).
 */
export function TimeseriesChart(props: ChartProps) {
  const notes = chartNotes(props.timeseries, props.timezone);
  if (!notes.drawable) return <Text c="dimmed">{notes.empty}</Text>;
  return (
    <div data-testid="timeseries-chart" style={{ overflowX: "auto" }}>
      <TimeseriesSvg {...props} />
      <IncompleteNote text={notes.leftOut} />
    </div>
  );
}

/** The chart's SVG alone (nivo, no Mantine component: the screen renders it to markup on the server); null when nothing is drawn. */
export function TimeseriesSvg({ timeseries: given, timezone, window, previous }: ChartProps) {
  // Only complete buckets are drawn: one cut by the range's end or still running would read as a drop in traffic.
  const timeseries = useMemo(() => (given ? completeOnly(given) : given), [given]);
  const leftOut = chartNotes(given, timezone).leftOut;
  const series = useMemo(() => {
    if (!timeseries) return [];
    // What is drawn: every bucket, or per pixel column the buckets of its lowest and highest total.
    const totals = timeseries.buckets.map((_, i) => timeseries.series.reduce((a, s) => a + (s.values[i] ?? 0), 0));
    const drawn = drawnBuckets(timeseries.buckets, totals, PLOT_COLUMNS);
    const seen = new Set<string>();
    return timeseries.series.map((s) => {
      const id = seen.has(s.name) ? `${s.name} (${s.key})` : s.name;
      seen.add(id);
      return { id, data: drawn.map((i) => ({ x: timeseries.buckets[i], y: s.values[i] ?? 0 })) };
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
  if (!timeseries || !timeseries.buckets.length || !series.length) return null;
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
  // Straight segments: the areas and lines as compact paths (chart-paths.ts); smooth curves keep nivo's own.
  const straight = timeseries.buckets.length > SMOOTH_CURVE_MAX_BUCKETS;
  return (
    <Line
      role="img"
      ariaLabel={[describeTimeseries(timeseries, range, predictionRange), leftOut].filter(Boolean).join(" ")}
      width={CHART_WIDTH}
      height={CHART_HEIGHT}
      animate={false}
      data={series}
      margin={MARGIN}
      xScale={first < lastX ? { type: "linear", min: first, max: lastX, nice: false } : { type: "linear", min: "auto", max: "auto" }}
      gridXValues={ticks.values}
      yScale={{ type: "linear", min: 0, max: yMax, stacked: true }}
      enableArea
      areaOpacity={AREA_OPACITY}
      lineWidth={LINE_WIDTH}
      enablePoints={false}
      curve={straight ? "linear" : "monotoneX"}
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
        straight ? CompactAreas : "areas",
        "crosshair",
        straight ? CompactLines : "lines",
        ...(overlay.length ? [previousPeriodLayer(overlay, legendTop)] : []),
        ...(prediction && predicted.length ? [predictionLayer(prediction, predicted, legendTop + (overlay.length ? 18 : 0))] : []),
        "slices",
        "points",
        "mesh",
        "legends",
      ]}
      legends={[{ anchor: "top-right", direction: "column", translateX: 190, itemWidth: 180, itemHeight: 18, symbolSize: 10 }]}
    />
  );
}

type Layer = LineCustomSvgLayerProps<{ id: string; data: { x: number; y: number }[] }>;

/** nivo's stacked areas (each down to zero, the last series painted first), as compact paths. */
function CompactAreas({ series, yScale }: Layer) {
  const baseline = yScale(0);
  return (
    <g>
      {[...series].reverse().map((s) => (
        <path
          key={s.id}
          d={compactArea(
            s.data.map((d) => d.position),
            baseline,
          )}
          fill={s.color}
          fillOpacity={AREA_OPACITY}
          strokeWidth={0}
        />
      ))}
    </g>
  );
}

/** nivo's lines on top of the areas, as compact paths. */
function CompactLines({ series }: Layer) {
  return (
    <g>
      {[...series].reverse().map((s) => (
        <path key={s.id} d={compactPath(s.data.map((d) => d.position))} fill="none" strokeWidth={LINE_WIDTH} stroke={s.color} />
      ))}
    </g>
  );
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
