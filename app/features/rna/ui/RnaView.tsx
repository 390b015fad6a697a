import { Alert, Anchor, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { NotAppliedNotice } from "~/components/NotAppliedNotice";
import { useHydrated } from "~/components/use-hydrated";
import { exportHref, ExportMenu } from "~/features/shared/table/ExportMenu";
import { formatDateLong } from "~/lib/date-format";
import { TABLE_FORMATS } from "~/lib/export-files";
import { rnaSearch } from "../params";
import type { RnaScreen } from "../screen.server";
import { RnaColumnFilters } from "./RnaColumnFilters";
import { RnaColumnPicker } from "./RnaColumnPicker";
import { RnaQueryForm } from "./RnaQueryForm";
import { RnaTable } from "./RnaTable";
import { RnaTimeseries } from "./RnaTimeseries";

export const EXPORT_PATH = "/rna/export";
const count = new Intl.NumberFormat("en-US");

/** "1,234 records" or, where counting all would cost a scan, "more than 10,000 records". */
export function totalText(total: { count: number; exact: boolean }, aggregated: boolean): string {
  const noun = aggregated ? (total.count === 1 ? "row" : "rows") : total.count === 1 ? "record" : "records";
  return `${total.exact ? "" : "more than "}${count.format(total.count)} ${noun}`;
}

/** What the whole query sums to (scaled by each record's sampling rate), and what the routers dropped. */
function Summary({ data }: { data: RnaScreen }) {
  const at = (t: number) => formatDateLong(t * 1000, data.timezone);
  return (
    <Stack gap={2}>
      <Text size="sm" data-testid="rna-range">
        {at(data.range.start)} – {at(data.range.end)}
      </Text>
      {data.total && data.sums ? (
        <Text size="sm" data-testid="rna-summary">
          <span data-testid="rna-total">{totalText(data.total, data.aggregated)}</span> ·{" "}
          <span data-testid="rna-sum-bytes">{count.format(data.sums.bytes)} bytes</span> ·{" "}
          <span data-testid="rna-sum-packets">{count.format(data.sums.packets)} packets</span> ·{" "}
          <span data-testid="rna-sum-flows">{count.format(data.sums.flows)} flows</span>
          {data.params.includeCopies ? " (re-exported copies included)" : ""}
          {data.durationMs !== null ? ` · ${count.format(Math.round(data.durationMs))} ms` : ""}
        </Text>
      ) : null}
      {data.dropped && data.dropped.flows > 0 ? (
        <Text size="sm" c="red" data-testid="rna-sum-dropped">
          Dropped by the router: {count.format(data.dropped.bytes)} bytes, {count.format(data.dropped.packets)} packets in{" "}
          {count.format(data.dropped.flows)} flows (not in the sums above)
        </Text>
      ) : null}
    </Stack>
  );
}

/** Keyset pages: the next page after this one's last row, and back to the first (a cursor has no way back). */
function Pager({ data, path }: { data: RnaScreen; path: string }) {
  if (!data.next && !data.params.after) return null;
  return (
    <Group gap="md" data-testid="rna-pager">
      {data.params.after ? (
        <Anchor component={Link} to={`${path}?${rnaSearch(data.params, data.timezone)}`}>
          « First page
        </Anchor>
      ) : null}
      {data.next ? (
        <Anchor component={Link} to={`${path}?${rnaSearch(data.params, data.timezone, { after: data.next })}`} data-testid="rna-next">
          Next page ›
        </Anchor>
      ) : null}
    </Group>
  );
}

/** A refused query is a toast once JavaScript runs, and an alert in the server's HTML. */
function useProblemToast(data: RnaScreen, hydrated: boolean) {
  useEffect(() => {
    if (hydrated && data.problem)
      notifications.show({ color: data.rows.length ? "yellow" : "red", title: "Raw Network Analyzer", message: data.problem });
  }, [data, hydrated]);
}

/** The Raw Network Analyzer: the query form, what was not applied, the sums, then the columns, filters, export, pages and records. */
export function RnaView({ data, path }: { data: RnaScreen; path: string }) {
  const hydrated = useHydrated();
  useProblemToast(data, hydrated);
  const search = rnaSearch(data.params, data.timezone).toString();
  return (
    // data-state: the address of what is shown, so a browser test knows when a client-side navigation has drawn its page.
    <Stack data-testid="rna-screen" data-state={search}>
      <Title order={1} size="h2">
        Raw Network Analyzer
      </Title>
      <div data-tour="rna-query">
        <RnaQueryForm data={data} path={path} />
      </div>
      <NotAppliedNotice notices={data.notices} testId="rna-notices" />
      {!hydrated && data.problem ? (
        <Alert color={data.total ? "yellow" : "red"} data-testid="rna-problem">
          {data.problem}
        </Alert>
      ) : null}
      <div data-tour="rna-summary">
        <Summary data={data} />
      </div>
      <div data-tour="rna-columns">
        <RnaColumnPicker key={`columns-${search}`} data={data} path={path} />
      </div>
      <RnaColumnFilters data={data} path={path} />
      <Stack gap={2}>
        <ExportMenu
          formats={TABLE_FORMATS}
          blocked={data.rows.length ? null : "empty"}
          href={(format) => exportHref(EXPORT_PATH, search, format)}
        />
        <Text size="xs" c="dimmed" data-testid="rna-export-cap">
          An export holds every page of this query, at most {count.format(data.exportRowCap)} rows.
        </Text>
      </Stack>
      {data.rows.length ? (
        <>
          <Pager data={data} path={path} />
          <RnaTable data={data} path={path} />
          <Pager data={data} path={path} />
          <RnaTimeseries data={data} path={path} />
        </>
      ) : null}
    </Stack>
  );
}
