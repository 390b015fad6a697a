import { Alert, Anchor, Stack, Text, Title } from "@mantine/core";
import { useLocation } from "@remix-run/react";
import type { ExplorerData } from "../explorer.server";
import { SankeyChart, TimeseriesChart } from "./charts";
import { fmtTime } from "./format";
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
      <Title order={1} size="h2">{title}</Title>
      {/* Keyed by the URL: Back/Forward and submissions reset the uncontrolled controls to the URL's state. */}
      <OptionsForm key={location.search} data={data} path={path} label={title} />
      <MessageList title="Some options could not be applied" color="red" testId="filter-errors" messages={data.errors} />
      <MessageList color="yellow" testId="notices" messages={data.notices} />
      {flows?.filters.length ? (
        <Text size="sm" data-testid="active-filters">
          Active filters: {flows.filters.map((f) => `${f.isNegation ? "not " : ""}${f.dimension} ${f.value}${f.locked ? " (locked)" : ""}`).join("; ")}
        </Text>
      ) : null}
      {range ? (
        <Text size="sm" data-testid="range">
          {fmtTime(range.start, tz)} – {fmtTime(range.end, tz)} ({tz}){flows?.window ? `, ${flows.window / 60}-minute buckets` : ""}
          {rangeNoticeWorthy(range) ? (
            <Text span c="orange" size="sm" data-testid="range-adjusted">
              {" "}
              — adjusted to the available data (requested {fmtTime(range.requested.start, tz)} – {fmtTime(range.requested.end, tz)})
            </Text>
          ) : null}
        </Text>
      ) : flows?.noData ? (
        <Alert color="gray">No flow data is available yet.</Alert>
      ) : null}
      {flows ? data.params.view === "sankey" ? <SankeyChart sankey={data.sankey} error={data.sankeyError} /> : <TimeseriesChart timeseries={flows.timeseries} timezone={tz} /> : null}
      <TableSection data={data} />
    </Stack>
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

/**
 * The end of a preset is "now" and the newest 5-minute bucket is always a few minutes older:
 * that routine lag is not worth a notice; a moved start or a larger gap is.
 */
function rangeNoticeWorthy(range: { adjusted: string; end: number; requested: { end: number } }): boolean {
  if (range.adjusted === "none") return false;
  if (range.adjusted === "end-clamped") return range.requested.end - range.end > 15 * 60;
  return true;
}

/** The error boundary body of a flows screen. */
export function ExplorerError({ error, title, path }: { error: unknown; title: string; path: string }) {
  return (
    <Alert color="red" title={`The ${title} could not be shown`}>
      {error instanceof Error ? error.message : "Unexpected error."} Change the options in the address or go back to <Anchor href={path}>the default view</Anchor>.
    </Alert>
  );
}
