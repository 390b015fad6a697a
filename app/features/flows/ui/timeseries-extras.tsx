/**
 * What the Flow Explorer's timeseries chart adds to nivo's stacked areas: the hover tooltip (time,
 * total, the series by value), the previous period's total as a dashed line with its legend
 * entry, and the prediction of the next period as dashed lines after the last bucket, drawn as SVG
 * layers so the server's SVG and the image exports show them too.
 */
import type { LineCustomSvgLayerProps, SliceTooltipProps } from "@nivo/line";
import { formatBitsPerSecond } from "~/lib/units";
import { FloatingTooltip } from "./FloatingTooltip";
import { formatUnixRange } from "~/lib/date-format";

/** The series the chart draws: one per value, bit/s per bucket. */
export type ChartSeries = { id: string; data: { x: number; y: number }[] };

export type PreviousTotals = readonly { bucket: number; bps: number }[];

export const PREVIOUS_COLOR = "#212529";
export const PREVIOUS_LABEL = "Previous period (total)";

/** The tooltip of one bucket: its time span in the user's timezone, the total, then every series by value, largest first. */
export function sliceTooltip({
  timezone,
  window,
  previous,
}: {
  timezone: string;
  window: number;
  previous: ReadonlyMap<number, number> | null;
}) {
  return function SliceTooltip({ slice }: SliceTooltipProps<ChartSeries>) {
    const bucket = Number(slice.points[0]?.data.x);
    const rows = slice.points
      .map((p) => ({ id: String(p.seriesId), color: p.seriesColor, bps: Number(p.data.y) }))
      .sort((a, b) => b.bps - a.bps || a.id.localeCompare(b.id));
    const total = rows.reduce((a, r) => a + r.bps, 0);
    const before = previous?.get(bucket);
    return (
      <FloatingTooltip testId="chart-tooltip">
        <div style={{ fontWeight: 600 }} data-testid="tooltip-time">
          {formatUnixRange(bucket, bucket + window, timezone)}
        </div>
        <div style={{ fontWeight: 600, marginBottom: 4 }} data-testid="tooltip-total">
          Total: {formatBitsPerSecond(total)}
        </div>
        <table style={{ borderCollapse: "collapse" }}>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="tooltip-row">
                <td style={{ paddingRight: 6 }}>
                  <span style={{ display: "inline-block", width: 10, height: 10, background: r.color }} />
                </td>
                <td style={{ paddingRight: 12 }}>{r.id}</td>
                <td style={{ textAlign: "right" }}>{formatBitsPerSecond(r.bps)}</td>
              </tr>
            ))}
            {before !== undefined ? (
              <tr data-testid="tooltip-previous">
                <td style={{ paddingRight: 6, color: PREVIOUS_COLOR }}>┄</td>
                <td style={{ paddingRight: 12 }}>{PREVIOUS_LABEL}</td>
                <td style={{ textAlign: "right" }}>{formatBitsPerSecond(before)}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </FloatingTooltip>
    );
  };
}

/** The previous period's total as a dashed line over the areas, and its entry below the legend. */
export function previousPeriodLayer(previous: PreviousTotals, legendTop: number) {
  return function PreviousPeriodLayer({ xScale, yScale, innerWidth }: LineCustomSvgLayerProps<ChartSeries>) {
    const points = previous.map((p) => `${xScale(p.bucket).toFixed(1)},${yScale(p.bps).toFixed(1)}`);
    if (!points.length) return null;
    return (
      <g data-testid="previous-period-line">
        <polyline points={points.join(" ")} fill="none" stroke={PREVIOUS_COLOR} strokeWidth={2} strokeDasharray="6 4" />
        <g transform={`translate(${innerWidth + 20}, ${legendTop})`} data-testid="previous-period-legend">
          <line x1={0} x2={10} y1={5} y2={5} stroke={PREVIOUS_COLOR} strokeWidth={2} strokeDasharray="3 2" />
          <text x={16} y={9} fontSize={11} fill="#333333">
            {PREVIOUS_LABEL}
          </text>
        </g>
      </g>
    );
  };
}

export const PREDICTION_LABEL = "Prediction";

/** The prediction as the chart draws it: per predicted bucket, each series' value (bit/s). */
export type PredictionData = {
  model: "seasonal" | "trend";
  buckets: number[];
  series: { key: string; name: string; values: number[] }[];
};

/**
 * The predicted series as dashed lines stacked like the areas (each line is the top of its series'
 * area as it would be), in the series' colour, joined to the last measured bucket; and a
 * "Prediction" entry below the legend. `last`: each drawn series' stacked top at the last bucket.
 */
export function predictionLayer(
  prediction: PredictionData,
  lines: readonly { id: string; color: string; values: readonly number[]; lastTop: number; lastBucket: number }[],
  legendTop: number,
) {
  return function PredictionLayer({ xScale, yScale, innerWidth }: LineCustomSvgLayerProps<ChartSeries>) {
    const point = (x: number, y: number) => `${xScale(x).toFixed(1)},${yScale(y).toFixed(1)}`;
    return (
      <g data-testid="prediction-lines">
        {lines.map((l) => (
          <polyline
            key={l.id}
            data-testid="prediction-line"
            points={[point(l.lastBucket, l.lastTop), ...prediction.buckets.map((b, i) => point(b, l.values[i]))].join(" ")}
            fill="none"
            stroke={l.color}
            strokeWidth={2}
            strokeDasharray="6 4"
          />
        ))}
        <g transform={`translate(${innerWidth + 20}, ${legendTop})`} data-testid="prediction-legend">
          <line x1={0} x2={10} y1={5} y2={5} stroke="#555555" strokeWidth={2} strokeDasharray="3 2" />
          <text x={16} y={9} fontSize={11} fill="#333333">
            {PREDICTION_LABEL}
          </text>
        </g>
      </g>
    );
  };
}
