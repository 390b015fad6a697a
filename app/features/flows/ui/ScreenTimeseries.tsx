import { Text } from "@mantine/core";
import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { useRenderOnly } from "~/lib/render-only";
import { CHART_DATA_PARAM, TIMESERIES_MARKUP } from "../chart-data";
import type { ExplorerData } from "../explorer.server";
import { IncompleteNote } from "./chart-notes";
import { CHART_HEIGHT } from "./chart-style";
import type { TimeseriesSvg } from "./charts";

/**
 * The timeseries chart of a flows screen. The page carries the chart as the server drew it (SVG
 * markup, kept for the render: explorer.server.ts timeseriesForScreen), not its data; with
 * JavaScript the screen then asks its own loader for the whole timeseries (CHART_DATA_PARAM) and
 * the interactive chart (hover tooltips with every bucket's figures) takes the server's SVG over,
 * drawing the same. After a navigation in the browser the chart shows once its data have arrived.
 */
export function ScreenTimeseries({ data, path }: { data: ExplorerData; path: string }) {
  const location = useLocation();
  const markup = useRenderOnly<string>(TIMESERIES_MARKUP);
  const hydrated = useHydrated();
  // One fetcher per URL: a navigation starts afresh, and a late answer for another URL is never drawn.
  const fetcher = useFetcher<ExplorerData>({ key: `flows-chart:${path}${location.search}` });
  const wanted = hydrated && data.chart?.drawable === true;
  const { load, state } = fetcher;
  const loaded = fetcher.data !== undefined;
  useEffect(() => {
    if (!wanted || loaded || state !== "idle") return;
    const search = new URLSearchParams(location.search);
    search.set(CHART_DATA_PARAM, "1");
    load(`${path}?${search}`);
  }, [wanted, loaded, state, load, path, location.search]);
  // The chart's code (nivo), fetched beside its data: the server's SVG is swapped only once both are here, never for a blank.
  const [Chart, setChart] = useState<typeof TimeseriesSvg | null>(null);
  useEffect(() => {
    if (!wanted || Chart) return;
    let active = true;
    void import("./charts").then((m) => {
      if (active) setChart(() => m.TimeseriesSvg);
    });
    return () => {
      active = false;
    };
  }, [wanted, Chart]);

  const chart = data.chart;
  if (!chart) return null;
  if (!chart.drawable) return <Text c="dimmed">{chart.empty}</Text>;
  const full = Chart ? fetcher.data?.flows : undefined;
  // The server's SVG as sent: the browser keeps an element's HTML from the server when it starts the page.
  const served = (
    <div
      key={location.search}
      style={{ minHeight: CHART_HEIGHT }}
      dangerouslySetInnerHTML={{ __html: markup ?? "" }}
      suppressHydrationWarning
    />
  );
  return (
    <div
      data-testid="timeseries-chart"
      data-tour="explorer-chart"
      data-interactive={full ? "true" : undefined}
      style={{ overflowX: "auto" }}
    >
      {full && Chart ? (
        <Chart timeseries={full.timeseries} timezone={data.timezone} window={full.window} previous={fetcher.data?.comparison?.totals} />
      ) : (
        served
      )}
      <IncompleteNote text={chart.leftOut} />
    </div>
  );
}
