import { WARNING_TEXT } from "~/lib/colors";
import { Alert, Stack, Text, Title } from "@mantine/core";
import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { newestDataEnd } from "./flows-client";
import type { ExplorerData } from "../explorer.server";
import { SankeyChart } from "./lazy-charts";
import { ScreenTimeseries } from "./ScreenTimeseries";
import { formatUnix, formatUnixRange } from "~/lib/date-format";
import { OptionsForm } from "./OptionsForm";
import { TableSection } from "./TableSection";

/**
 * The body of a flows screen (Flow Explorer, AS Flows Egress): options form, messages, range,
 * chart of the view, then the table section (total, table view, export, table) — all from the loader's data, so a deep link renders
 * fully on the server.
 */
export function ExplorerView({ data, title, path }: { data: ExplorerData; title: string; path: string }) {
  const location = useLocation();
  const flows = data.flows;
  const range = flows?.range ?? null;
  const tz = data.timezone;
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      {/* Keyed by the URL: Back/Forward and submissions reset the uncontrolled controls to the URL's state. */}
      <OptionsForm key={location.search} data={data} path={path} label={title} />
      <MessageList title="Some options could not be applied" color="red" testId="filter-errors" messages={data.errors} />
      <MessageList color="yellow" testId="notices" messages={data.notices} />
      {data.filterLabels.length ? (
        <Text size="sm" data-testid="active-filters">
          Active filters: {data.filterLabels.join("; ")}
        </Text>
      ) : null}
      {range ? (
        <Text size="sm" data-testid="range">
          {formatUnixRange(range.start, range.end, tz)}
          {flows?.window ? `, ${windowLabel(flows.window)} buckets` : ""}
          {data.rangeNotice ? (
            <Text span c={WARNING_TEXT} size="sm" data-testid="range-adjusted">
              {" "}
              — {data.rangeNotice}
            </Text>
          ) : null}
        </Text>
      ) : flows?.noData ? (
        <Alert color="gray">No flow data is available yet.</Alert>
      ) : null}
      {data.newestData !== null ? <NewestData initial={data.newestData} timezone={tz} /> : null}
      {flows ? (
        data.params.view === "sankey" ? (
          <SankeyChart sankey={data.sankey} error={data.sankeyError} stages={sankeyStages(data)} />
        ) : (
          <>
            <ScreenTimeseries data={data} path={path} />
            <PredictionNote text={data.chart?.predictionNote ?? null} />
          </>
        )
      ) : null}
      <TableSection data={data} />
    </Stack>
  );
}

/** How often the newest data's time is asked for again while the screen is open. */
const NEWEST_DATA_REFRESH_MS = 60_000;

/**
 * The fetchMaxTimestamp feature flag: when the newest flow data ends, from the loader, then kept
 * current from api/max_timestamp/ with JavaScript (a failed call keeps the last value).
 */
function NewestData({ initial, timezone }: { initial: number; timezone: string }) {
  const [newest, setNewest] = useState(initial);
  useEffect(() => {
    setNewest(initial);
    let active = true;
    const timer = setInterval(() => {
      void newestDataEnd().then((t) => {
        if (active && t !== null) setNewest(t);
      });
    }, NEWEST_DATA_REFRESH_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [initial]);
  return (
    <Text size="sm" c="dimmed" data-testid="newest-data">
      Newest data: {formatUnix(newest, timezone)} ({timezone})
    </Text>
  );
}

/** The prediction said in words under the chart: what the dashed lines are, also without JavaScript. */
function PredictionNote({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="prediction-note">
      {text}
    </Text>
  );
}

function MessageList({ messages, color, title, testId }: { messages: readonly string[]; color: string; title?: string; testId: string }) {
  if (!messages.length) return null;
  return (
    <Alert color={color} title={title} data-testid={testId}>
      <Stack gap={2}>
        {messages.map((m, i) => (
          <Text key={i} size="sm">
            {m}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** The sankey's column headings: the two dimensions' labels. */
function sankeyStages(data: ExplorerData): string[] | undefined {
  const second = data.dimensions.find((d) => d.value === data.params.dimension2);
  return data.dimension && second ? [data.dimension.label, second.label] : undefined;
}

/** "5-minute", "1-hour", "1-day": the aggregation window as the range line says it. */
function windowLabel(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400}-day`;
  if (seconds % 3600 === 0) return `${seconds / 3600}-hour`;
  return `${seconds / 60}-minute`;
}
