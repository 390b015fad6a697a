import { Text } from "@mantine/core";
import { Line } from "@nivo/line";
import { useMemo } from "react";
import { formatUnix } from "~/lib/date-format";
import { timeTicks } from "~/lib/time-ticks";
import { formatBitsPerSecond } from "~/lib/units";
import type { RnaTimeseriesView } from "../screen.server";

const WIDTH = 900;

/** The page's rows over time, one line per group (bit/s). Loaded lazily: only pages that ask for a timeseries fetch nivo. */
export function RnaTimeseriesChart({ view, timezone }: { view: RnaTimeseriesView; timezone: string }) {
  const data = useMemo(
    () => view.series.map((s) => ({ id: s.label, data: view.buckets.map((t, i) => ({ x: t, y: s.bps[i] ?? 0 })) })),
    [view],
  );
  const first = view.buckets[0];
  const last = view.buckets[view.buckets.length - 1];
  const ticks = timeTicks(first, last, timezone);
  const peak = Math.max(0, ...view.series.flatMap((s) => s.bps));
  const words = `${view.series.length} ${view.series.length === 1 ? "group" : "groups"} by ${view.columnLabel}, ${formatUnix(first, timezone)} to ${formatUnix(last, timezone)}; the highest is ${formatBitsPerSecond(peak)}.`;
  return (
    <div>
      <div style={{ overflowX: "auto" }} data-testid="rna-timeseries-chart" tabIndex={0} role="region" aria-label="Timeseries chart">
        <Line
          role="img"
          ariaLabel={`Timeseries of this page: ${words}`}
          width={WIDTH}
          height={300}
          animate={false}
          data={data}
          margin={{ top: 10, right: 170, bottom: 40, left: 80 }}
          xScale={first < last ? { type: "linear", min: first, max: last } : { type: "linear" }}
          yScale={{ type: "linear", min: 0, max: "auto" }}
          enablePoints={false}
          curve="linear"
          colors={{ scheme: "category10" }}
          gridXValues={ticks.values}
          axisBottom={{ tickValues: ticks.values, format: (v) => formatUnix(Number(v), timezone, ticks.format) }}
          axisLeft={{ tickValues: 5, format: (v) => formatBitsPerSecond(Number(v)) }}
          legends={[{ anchor: "top-right", direction: "column", translateX: 160, itemWidth: 150, itemHeight: 18, symbolSize: 10 }]}
        />
      </div>
      <Text size="sm" data-testid="rna-timeseries-words">
        {words}
      </Text>
    </div>
  );
}
