import { Text } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";
import type { SankeyChart as SankeyChartType } from "./sankey-chart";

/*
 * The Sankey chart's code (nivo) as a screen loads it: once the page runs, not among the scripts the
 * page loads first. The server renders it whole (it waits for every Suspense boundary); in the
 * browser the server-rendered Sankey stays as the server sent it until its code has arrived, then
 * the chart takes it over (hover tooltips). A timeseries view loads none of it (its chart:
 * ScreenTimeseries.tsx).
 */
const SankeyView = lazy(() => import("./sankey-chart").then((m) => ({ default: m.SankeyChart })));

/** Shown only when the browser changes the view before the chart's code has arrived. */
const loading = (
  <Text c="dimmed" size="sm">
    Loading the chart…
  </Text>
);

export function SankeyChart(props: ComponentProps<typeof SankeyChartType>) {
  return (
    <Suspense fallback={loading}>
      <SankeyView {...props} />
    </Suspense>
  );
}
