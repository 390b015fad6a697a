import { Text } from "@mantine/core";
import { lazy, Suspense, type ComponentProps, type ReactNode } from "react";
import type { SankeyChart as SankeyChartType } from "./sankey-chart";
import type { TimeseriesSvg as TimeseriesSvgType } from "./charts";

/*
 * The charts' code (nivo, d3) as a screen loads it: once the page runs, not among the scripts the
 * page loads first. The server renders them whole (it waits for every Suspense boundary); in the
 * browser a server-rendered Sankey stays as the server sent it until its code has arrived, then
 * the chart takes it over (hover tooltips). A view loads only its own chart's code: a timeseries
 * view none of the Sankey's.
 */
const TimeseriesView = lazy(() => import("./charts").then((m) => ({ default: m.TimeseriesSvg })));
const SankeyView = lazy(() => import("./sankey-chart").then((m) => ({ default: m.SankeyChart })));

/** Shown only when the browser changes the view before the chart's code has arrived. */
const loading = (
  <Text c="dimmed" size="sm">
    Loading the chart…
  </Text>
);

/** The timeseries chart's SVG; `fallback`: what shows until its code has arrived. */
export function LazyTimeseriesSvg({ fallback, ...props }: ComponentProps<typeof TimeseriesSvgType> & { fallback: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <TimeseriesView {...props} />
    </Suspense>
  );
}

export function SankeyChart(props: ComponentProps<typeof SankeyChartType>) {
  return (
    <Suspense fallback={loading}>
      <SankeyView {...props} />
    </Suspense>
  );
}
