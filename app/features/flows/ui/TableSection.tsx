import { Anchor, Group, Stack, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { MESSAGES } from "~/lib/messages";
import { formatBitsPerSecond } from "~/lib/units";
import { COUNTED_ONCE_NOTE } from "../counted-traffic";
import { formatPercentDifference } from "../comparison";
import type { ExplorerData } from "../explorer.server";
import { ExportMenu, exportHref } from "~/features/shared/table/ExportMenu";
import { AggregatedTable, DetailedTable, PivotedTable } from "./FlowTable";
import { formatUnixRange } from "~/lib/date-format";
import { TableViewForm } from "./TableViewForm";

/**
 * Below the chart of a flows screen: the total (and the previous period's when compared), what a
 * view with a direction leaves out (with a link to the view that shows it), the table view switch,
 * the export and the table of the chosen view.
 */
export function TableSection({ data }: { data: ExplorerData }) {
  const location = useLocation();
  const flows = data.flows;
  if (!flows) return null;
  const tz = data.timezone;
  const rows = flows.table;
  const detailed = data.params.table === "detailed";
  const pivoted = detailed && data.params.pivot;
  const comparison = data.comparison;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Text fw={600} data-testid="total">
            Total: {formatBitsPerSecond(data.total)} ({rows.length} {rows.length === 1 ? "value" : "values"})
            {data.traffic ? (
              <Text span fw={400} size="sm" data-testid="counted-traffic" data-traffic={data.traffic.code}>
                {" "}
                — {data.traffic.label}
              </Text>
            ) : null}
          </Text>
          {data.leftOut ? (
            <Text size="sm" data-testid="left-out">
              Left out: {data.leftOut.text}
              {data.leftOut.link ? (
                <>
                  {" "}
                  — see the{" "}
                  <Anchor component={Link} to={data.leftOut.link.href} data-testid="left-out-link">
                    {data.leftOut.link.label}
                  </Anchor>
                </>
              ) : null}
            </Text>
          ) : null}
          <Text size="xs" data-testid="counted-once">
            {COUNTED_ONCE_NOTE}
          </Text>
          {comparison ? (
            <Text size="sm" data-testid="total-previous">
              Previous period ({formatUnixRange(comparison.range.start, comparison.range.end, tz)}):{" "}
              {formatBitsPerSecond(comparison.total.previousBps)},{" "}
              <span title={MESSAGES.percentDifferenceCutOff} style={{ textDecoration: "underline dotted", cursor: "help" }}>
                Δ {formatPercentDifference(comparison.total)}
              </span>
              {detailed ? " (per value in the Aggregated table)" : ""}
            </Text>
          ) : null}
        </Stack>
        <Group gap="lg" align="flex-end">
          <TableViewForm key={location.search} table={data.params.table} pivot={data.params.pivot} />
          <ExportMenu
            href={(f) => exportHref("/api/flows/export", location.search, f, data.scope ? { scope: data.scope } : {})}
            blocked={pivoted ? "pivoted" : rows.length === 0 ? "empty" : null}
          />
        </Group>
      </Group>
      {pivoted ? (
        <PivotedTable timeseries={flows.timeseries} timezone={tz} />
      ) : detailed ? (
        <DetailedTable timeseries={flows.timeseries} dimension={data.dimension} timezone={tz} />
      ) : (
        <AggregatedTable rows={comparison?.rows ?? rows} dimension={data.dimension} total={data.total} compared={comparison !== null} />
      )}
    </Stack>
  );
}
