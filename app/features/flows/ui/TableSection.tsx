import { Anchor, Group, Stack, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { useMemo } from "react";
import { MESSAGES } from "~/lib/messages";
import { formatBitsPerSecond } from "~/lib/units";
import { COUNTED_ONCE_NOTE } from "../counted-traffic";
import { formatPercentDifference } from "../comparison";
import type { ExplorerData } from "../explorer.server";
import { ExportMenu, exportHref } from "~/features/shared/table/ExportMenu";
import { AggregatedTable, DetailedTable, PivotedTable } from "./FlowTable";
import { formatUnixRange } from "~/lib/date-format";
import { TableViewForm } from "./TableViewForm";
import { flowRowRnaHref } from "../rna-link";
import { rootCauseFormHref, rootCauseRowHref } from "../rootcause/link";
import { alertOnViewHref } from "~/lib/alert-link";

/**
 * Below the chart of a flows screen: the total (and the previous period's when compared), what a
 * view with a direction leaves out (with a link to the view that shows it), the table view switch,
 * the export and the table of the chosen view.
 */
export function TableSection({ data }: { data: ExplorerData }) {
  const location = useLocation();
  const links = useRnaLinks(data);
  const flows = data.flows;
  if (!flows) return null;
  const tz = data.timezone;
  const rows = flows.table;
  const detailed = data.params.table === "detailed";
  const pivoted = detailed && data.params.pivot;
  const comparison = data.comparison;
  const analysis = data.showRootCause && data.dimension && flows.range ? rootCauseFormHref(data.dimension.id, flows.range) : null;
  const alertHref =
    data.showAlertOnView && data.dimension
      ? alertOnViewHref({ dimension: data.dimension.id, filter: data.params.filter, ipVersion: data.params.ipVersion })
      : null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2} data-tour="explorer-total">
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
          {analysis ? (
            <Anchor component={Link} to={analysis} size="sm" data-testid="root-cause-form-link">
              Why did one of these values change? Root-cause analysis of this period
            </Anchor>
          ) : null}
          {alertHref ? (
            <Anchor href={alertHref} size="sm" data-testid="alert-on-view-link">
              Alert on this view
            </Anchor>
          ) : null}
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
          <div data-tour="explorer-table-view">
            <TableViewForm key={location.search} table={data.params.table} pivot={data.params.pivot} />
          </div>
          <ExportMenu
            href={(f) => exportHref("/api/flows/export", location.search, f, data.scope ? { scope: data.scope } : {})}
            blocked={pivoted ? "pivoted" : rows.length === 0 ? "empty" : null}
          />
        </Group>
      </Group>
      {pivoted ? (
        <PivotedTable timeseries={flows.timeseries} timezone={tz} />
      ) : detailed ? (
        <DetailedTable timeseries={flows.timeseries} dimension={data.dimension} timezone={tz} rnaHref={links.detailed} />
      ) : (
        <AggregatedTable
          rows={comparison?.rows ?? rows}
          dimension={data.dimension}
          total={data.total}
          compared={comparison !== null}
          rnaHref={links.aggregated}
          rootCauseHref={links.rootCause}
        />
      )}
    </Stack>
  );
}

/**
 * 'Show in RNA' per row (rna-link.ts), where the user is offered it: the row's value, the view's
 * filters and the range the row covers — the view's for an aggregated row, the bucket's in the
 * detailed table. Kept stable across renders, so the tables keep their columns.
 */
function useRnaLinks(data: ExplorerData) {
  const shown = data.dimension?.id ?? null;
  const dimension = data.showInRna ? shown : null;
  const rootCauseDimension = data.showRootCause ? shown : null;
  const range = data.flows?.range ?? null;
  const window = data.flows?.window ?? null;
  const filters = data.params.filter;
  return useMemo(() => {
    const rootCause =
      rootCauseDimension && range && rootCauseRowHref(rootCauseDimension, "0", range)
        ? (value: string) => rootCauseRowHref(rootCauseDimension, value, range)
        : null;
    if (!dimension || !range) return { aggregated: null, detailed: null, rootCause };
    const href = (value: string, rowRange: { start: number; end: number }) =>
      flowRowRnaHref({ dimension, value, viewFilters: filters, range: rowRange });
    return {
      aggregated: (value: string) => href(value, range),
      detailed: window ? (value: string, time: number) => href(value, { start: time, end: time + window }) : null,
      rootCause,
    };
    // The range and filters by value: the loader's data is a new object on every navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dimension, rootCauseDimension, range?.start, range?.end, window, filters.join("\n")]);
}
