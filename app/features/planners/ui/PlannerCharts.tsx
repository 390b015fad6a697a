import { Alert, Text } from "@mantine/core";
import { Line } from "@nivo/line";
import { useMemo } from "react";
import { incompleteBucketsWords } from "~/lib/aggregation-window";
import { thinToPixelColumns } from "~/lib/series-thinning";
import { DATE_FORMATS, formatUnix } from "~/lib/date-format";
import { timeTicks } from "~/lib/time-ticks";
import { formatBitsPerSecond, formatPercent, formatUtilisation } from "~/lib/units";
import { thresholdWords } from "../cells";
import { CHART_WIDTH as WIDTH, plotColumns, TRAFFIC_CHART_MARGIN, UTILISATION_CHART_MARGIN } from "../chart-geometry";
import { heatmapColor } from "../heatmap-colors";
import type { PlannerHeatmap, PlannerTimeseries } from "../types";
import classes from "./PlannerTables.module.css";

const IN_COLOR = "#1f77b4";
const OUT_COLOR = "#ff7f0e";
const CAPACITY_COLOR = "#5c7080";
/** The capacity is drawn when the traffic's peak reaches half of it. */
const CAPACITY_LINE_MIN_SHARE = 0.5;

/** The peak of a series, for the text that stands in for the chart (and its accessible name). */
function peak<T>(points: readonly T[], value: (p: T) => number | null): { at: T; value: number } | null {
  let best: { at: T; value: number } | null = null;
  for (const p of points) {
    const v = value(p);
    if (v !== null && (!best || v > best.value)) best = { at: p, value: v };
  }
  return best;
}

/** The timeseries thresholds as bit rates of a capacity, in words: "Your timeseries thresholds: medium 50.0 % (5.00 Gbit/s), high …". */
export function thresholdLevelsWords(thresholds: { medium: number; high: number }, capacityBps: number): string {
  const level = (share: number) => `${formatPercent(share)} (${formatBitsPerSecond(share * capacityBps)})`;
  return `Your timeseries thresholds: medium ${level(thresholds.medium)}, high ${level(thresholds.high)} of the capacity.`;
}

/**
 * The medium and high thresholds as dashed lines of a chart: at `toY(share)` on its y scale, each
 * legend the level's share and `suffix`. One look for the detail chart and the traffic chart.
 */
function thresholdMarkers(thresholds: { medium: number; high: number }, toY: (share: number) => number, suffix = "") {
  return [
    {
      axis: "y" as const,
      value: toY(thresholds.medium),
      lineStyle: { stroke: "#f08c00", strokeDasharray: "6 4", strokeWidth: 1.5 },
      legend: `Medium ${formatPercent(thresholds.medium)}${suffix}`,
      textStyle: { fontSize: 11, fill: "#a35f00" },
    },
    {
      axis: "y" as const,
      value: toY(thresholds.high),
      lineStyle: { stroke: "#e03131", strokeDasharray: "6 4", strokeWidth: 1.5 },
      legend: `High ${formatPercent(thresholds.high)}${suffix}`,
      textStyle: { fontSize: 11, fill: "#c92a2a" },
    },
  ];
}

/**
 * In and out bit/s of the shown links (sums per bucket) with their total capacity as a line and the
 * user's timeseries thresholds as levels of that capacity. nivo renders the SVG on the server too;
 * the sentence below says the peaks and levels in words for whoever cannot see the chart.
 */
export function TrafficChart({
  timeseries,
  timezone,
  thresholds,
}: {
  timeseries: PlannerTimeseries;
  timezone: string;
  thresholds: { medium: number; high: number };
}) {
  // Only complete buckets are drawn: one cut by the range's end would read as a drop in traffic.
  const points = useMemo(() => timeseries.points.filter((p) => p.complete), [timeseries.points]);
  const leftOut = incompleteBucketsWords(
    timeseries.points.map((p) => p.time),
    timeseries.points.map((p) => p.complete),
    timezone,
  );
  const top = Math.max(0, ...points.map((p) => Math.max(p.inBps, p.outBps)));
  // Far above the traffic the capacity line would flatten it to the axis: then the capacity is said in words only.
  const drawCapacity = timeseries.capacityBps > 0 && top >= timeseries.capacityBps * CAPACITY_LINE_MIN_SHARE;
  // What the plot's pixel columns can show (each column's lowest and highest bucket); the words use every bucket.
  const drawn = useMemo(
    () =>
      thinToPixelColumns(points, { x: (p) => p.time, y: [(p) => p.inBps, (p) => p.outBps], columns: plotColumns(TRAFFIC_CHART_MARGIN) }),
    [points],
  );
  const data = useMemo(
    () => [
      { id: "In", data: drawn.map((p) => ({ x: p.time, y: p.inBps })) },
      { id: "Out", data: drawn.map((p) => ({ x: p.time, y: p.outBps })) },
      ...(drawCapacity && points.length
        ? [
            {
              id: "Capacity",
              data: [
                { x: points[0].time, y: timeseries.capacityBps },
                { x: points[points.length - 1].time, y: timeseries.capacityBps },
              ],
            },
          ]
        : []),
    ],
    [drawn, points, timeseries.capacityBps, drawCapacity],
  );
  if (!points.length) return <Text c="dimmed">{timeseries.points.length ? leftOut : "No utilisation data in this range."}</Text>;
  const first = points[0].time;
  const last = points[points.length - 1].time;
  const ticks = timeTicks(first, last, timezone);
  const inPeak = peak(points, (p) => p.inBps)!;
  const outPeak = peak(points, (p) => p.outBps)!;
  const words =
    `Peak in ${formatBitsPerSecond(inPeak.value)} at ${formatUnix(inPeak.at.time, timezone)}, ` +
    `peak out ${formatBitsPerSecond(outPeak.value)} at ${formatUnix(outPeak.at.time, timezone)}` +
    (timeseries.capacityBps > 0
      ? `, capacity ${formatBitsPerSecond(timeseries.capacityBps)}${drawCapacity ? "" : ` (the peak is ${formatPercent(top / timeseries.capacityBps)} of it, so it is not drawn)`}`
      : "") +
    ` (${timeseries.bucketSeconds / 60}-minute averages, ${timezone}).` +
    (timeseries.capacityBps > 0 ? ` ${thresholdLevelsWords(thresholds, timeseries.capacityBps)}` : "") +
    (leftOut ? ` ${leftOut}` : "");
  return (
    <div>
      <div style={{ overflowX: "auto" }} data-testid="planner-traffic-chart" tabIndex={0} role="region" aria-label="Traffic chart">
        <Line
          role="img"
          ariaLabel={`Traffic of the shown links: ${words}`}
          width={WIDTH}
          height={300}
          animate={false}
          data={data}
          margin={TRAFFIC_CHART_MARGIN}
          xScale={first < last ? { type: "linear", min: first, max: last } : { type: "linear" }}
          yScale={{ type: "linear", min: 0, max: "auto" }}
          enablePoints={false}
          curve="linear"
          colors={[IN_COLOR, OUT_COLOR, CAPACITY_COLOR]}
          gridXValues={ticks.values}
          axisBottom={{ tickValues: ticks.values, format: (v) => formatUnix(Number(v), timezone, ticks.format) }}
          axisLeft={{ tickValues: 5, format: (v) => formatBitsPerSecond(Number(v)) }}
          markers={drawCapacity ? thresholdMarkers(thresholds, (share) => share * timeseries.capacityBps) : []}
          legends={[{ anchor: "top-right", direction: "column", translateX: 100, itemWidth: 90, itemHeight: 18, symbolSize: 10 }]}
        />
      </div>
      <Text size="sm" data-testid="planner-traffic-words">
        {words}
      </Text>
    </div>
  );
}

/**
 * The 5-minute in/out utilisation of one link (as the loader thinned it to the plot's pixel
 * columns: each column's lowest and highest sample of either direction) with the user's thresholds of the planner as lines: the
 * same ones that decide the links' status and the forecast's level, so the chart and the list agree.
 * The daily peak-hour table beside it is its text fallback.
 */
export function UtilisationChart({
  samples,
  timezone,
  thresholds,
}: {
  samples: readonly [number, number | null, number | null][];
  timezone: string;
  thresholds: { medium: number; high: number };
}) {
  const data = useMemo(
    () => [
      { id: "In", data: samples.map(([t, i]) => ({ x: t, y: i === null ? null : i * 100 })) },
      { id: "Out", data: samples.map(([t, , o]) => ({ x: t, y: o === null ? null : o * 100 })) },
    ],
    [samples],
  );
  if (!samples.length) return <Text c="dimmed">No 5-minute samples in this range.</Text>;
  if (samples.every(([, i, o]) => i === null && o === null))
    return <Text c="dimmed">The link's capacity is not known, so no utilisation can be drawn.</Text>;
  const first = samples[0][0];
  const last = samples[samples.length - 1][0];
  const ticks = timeTicks(first, last, timezone);
  const top = Math.max(thresholds.high * 100, ...samples.flatMap(([, i, o]) => [(i ?? 0) * 100, (o ?? 0) * 100])) * 1.05;
  return (
    <div
      style={{ overflowX: "auto" }}
      data-testid="planner-detail-chart"
      tabIndex={0}
      role="region"
      aria-label="5-minute utilisation chart"
    >
      <Line
        role="img"
        ariaLabel={`5-minute utilisation in and out, ${formatUnix(first, timezone)} to ${formatUnix(last, timezone)} (${timezone}); thresholds ${thresholdWords(thresholds)}. The daily peak-hour table lists the figures.`}
        width={WIDTH}
        height={260}
        animate={false}
        data={data}
        margin={UTILISATION_CHART_MARGIN}
        xScale={first < last ? { type: "linear", min: first, max: last } : { type: "linear" }}
        yScale={{ type: "linear", min: 0, max: top }}
        enablePoints={false}
        curve="linear"
        colors={[IN_COLOR, OUT_COLOR]}
        gridXValues={ticks.values}
        axisBottom={{ tickValues: ticks.values, format: (v) => formatUnix(Number(v), timezone, ticks.format) }}
        axisLeft={{ tickValues: 5, format: (v) => `${Number(v).toFixed(0)} %` }}
        markers={thresholdMarkers(thresholds, (share) => share * 100, " (your setting)")}
        legends={[{ anchor: "top-right", direction: "column", translateX: 100, itemWidth: 90, itemHeight: 18, symbolSize: 10 }]}
      />
    </div>
  );
}

/** The heatmap's colour scale: 0 % (no traffic) to 100 % of the capacity; above 100 % stays the darkest. */
export const HEATMAP_SCALE_PERCENT = { min: 0, max: 100 } as const;

const HEATMAP_ROW = 22;
const HEATMAP_TOP = 50;
const HEATMAP_LEGEND_ROOM = 60;
const HEATMAP_LEGEND_TICKS = [0, 25, 50, 75, 100];
/** Space between cells, as a share of a cell. */
const HEATMAP_GAP = 0.05;

/**
 * The daily maximum 5-minute utilisation of the page's links (rows: the link and, on the Border
 * Planner, its neighbour AS) per day (columns), with its colour scale under it, or the spec's
 * message when the range is too long for it. Drawn as one plain SVG (a rectangle a cell, its value
 * in the cell's title for hovering), so a page of 50 links over 62 days stays small and quick to
 * render. The table under "As a table" holds the same values for reading without the colours.
 */
export function UtilisationHeatmap({ heatmap, timezone }: { heatmap: PlannerHeatmap; timezone: string }) {
  if (!heatmap.ok)
    return (
      <Alert color="yellow" data-testid="planner-heatmap-refused">
        {heatmap.message}
      </Alert>
    );
  if (!heatmap.rows.length) return null;
  const dayLabel = (d: string) => formatUnix(Date.parse(`${d}T12:00:00Z`) / 1000, "UTC", DATE_FORMATS.short).slice(0, 5);
  const days = heatmap.days.map(dayLabel);
  const cell = Math.max(12, Math.min(28, Math.floor(860 / Math.max(1, heatmap.days.length))));
  // Room for the longest link name at the left (about 6.5 px a character at the axis' 11 px).
  const left = Math.min(420, Math.max(120, Math.ceil(Math.max(...heatmap.rows.map((r) => r.label.length)) * 6.5) + 12));
  const width = left + heatmap.days.length * cell + 20;
  const height = HEATMAP_TOP + heatmap.rows.length * HEATMAP_ROW + HEATMAP_LEGEND_ROOM;
  const gapX = cell * HEATMAP_GAP;
  const gapY = HEATMAP_ROW * HEATMAP_GAP;
  const legendLength = Math.min(320, Math.max(160, width - left - 40));
  const legendTop = HEATMAP_TOP + heatmap.rows.length * HEATMAP_ROW + 20;
  const round = (v: number) => Math.round(v * 10) / 10;
  return (
    <div>
      <div style={{ overflowX: "auto" }} data-testid="planner-heatmap" tabIndex={0} role="region" aria-label="Heatmap">
        <svg
          role="img"
          aria-label={`Daily maximum utilisation of ${heatmap.rows.length} links over ${heatmap.days.length} days (${timezone}); the table below lists the values.`}
          width={width}
          height={height}
          fontSize={11}
          fill="#333"
        >
          <g transform={`translate(${left},${HEATMAP_TOP})`}>
            {days.map((d, i) => (
              <text key={heatmap.days[i]} transform={`translate(${round((i + 0.5) * cell)},-4) rotate(-60)`}>
                {d}
              </text>
            ))}
            {heatmap.rows.map((r, row) => (
              <g key={r.key} transform={`translate(0,${row * HEATMAP_ROW})`}>
                <text x={-6} y={HEATMAP_ROW / 2} textAnchor="end" dominantBaseline="central">
                  {r.label}
                </text>
                {r.values.map((v, i) => {
                  const percent = v === null ? null : v * 100;
                  return (
                    <rect
                      key={heatmap.days[i]}
                      x={round(i * cell + gapX / 2)}
                      y={round(gapY / 2)}
                      width={round(cell - gapX)}
                      height={round(HEATMAP_ROW - gapY)}
                      fill={heatmapColor(percent)}
                    >
                      <title>{`${days[i]}: ${formatUtilisation(v)}`}</title>
                    </rect>
                  );
                })}
              </g>
            ))}
          </g>
          <g transform={`translate(${left},${legendTop})`} data-testid="planner-heatmap-legend">
            <defs>
              <linearGradient id="planner-heatmap-scale">
                {HEATMAP_LEGEND_TICKS.flatMap((t, i) =>
                  i === 0 ? [t] : [HEATMAP_LEGEND_TICKS[i - 1] + (t - HEATMAP_LEGEND_TICKS[i - 1]) / 2, t],
                ).map((t) => (
                  <stop key={t} offset={`${t}%`} stopColor={heatmapColor(t)} />
                ))}
              </linearGradient>
            </defs>
            <text y={-4}>Daily maximum utilisation (grey: no samples)</text>
            <rect width={legendLength} height={10} fill="url(#planner-heatmap-scale)" />
            {HEATMAP_LEGEND_TICKS.map((t) => {
              const x = round((t / HEATMAP_SCALE_PERCENT.max) * legendLength);
              return (
                <g key={t} transform={`translate(${x},10)`}>
                  <line y2={3} stroke="#333" />
                  <text y={15} textAnchor={t === 0 ? "start" : t === 100 ? "end" : "middle"}>
                    {`${t} %`}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <details data-testid="planner-heatmap-table">
        <summary style={{ cursor: "pointer" }}>
          <Text component="span" size="sm">
            The heatmap as a table
          </Text>
        </summary>
        <div style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label="Heatmap as a table">
          <table className={classes.compact}>
            <thead>
              <tr>
                <th className={classes.start}>Link</th>
                {days.map((d, i) => (
                  <th key={heatmap.days[i]}>{d}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {heatmap.rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row" className={classes.start}>
                    {r.label}
                  </th>
                  {r.values.map((v, i) => (
                    <td key={heatmap.days[i]}>{formatUtilisation(v)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
