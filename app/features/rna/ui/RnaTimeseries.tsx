import { Button, Group, NativeSelect, Stack, Table, Text } from "@mantine/core";
import { Form } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useFormReset } from "~/components/EditForms";
import { useHydrated } from "~/components/use-hydrated";
import { formatUnix } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import { isTimeseriesColumn, rnaSearch } from "../params";
import type { RnaScreen, RnaTimeseriesView } from "../screen.server";
import { HiddenFields } from "./hidden-fields";

// nivo is loaded only once the page runs JavaScript and a timeseries is asked for; the table below is the chart without it.
const RnaTimeseriesChart = lazy(() => import("./RnaTimeseriesChart").then((m) => ({ default: m.RnaTimeseriesChart })));

/** The timeseries as a table: one row per bucket, one column per group of the page (bit/s). */
function TimeseriesTable({ view, timezone }: { view: RnaTimeseriesView; timezone: string }) {
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%", maxHeight: 360 }} tabIndex={0} role="region" aria-label="Timeseries table">
      <Table striped withTableBorder fz="xs" data-testid="rna-timeseries-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time ({timezone})</Table.Th>
            {view.series.map((s) => (
              <Table.Th key={s.key} style={{ textAlign: "right" }}>
                {s.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.buckets.map((t, i) => (
            <Table.Tr key={t}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{formatUnix(t, timezone)}</Table.Td>
              {view.series.map((s) => (
                <Table.Td key={s.key} style={{ textAlign: "right", whiteSpace: "nowrap" }}>
                  {formatBitsPerSecond(s.bps[i] ?? 0)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/**
 * The timeseries of the rows on this page, grouped by a column the user picks (a GET form). With
 * JavaScript the line chart replaces the table, which stays the view without it.
 */
export function RnaTimeseries({ data, path }: { data: RnaScreen; path: string }) {
  const hydrated = useHydrated();
  const ref = useFormReset();
  const shownColumns = data.params.columns.map((id) => data.catalogue.find((c) => c.id === id)!).filter((c) => c && isTimeseriesColumn(c));
  if (!shownColumns.length || !data.rows.length) return null;
  const view = data.timeseries;
  return (
    <Stack gap="xs" data-testid="rna-timeseries">
      <Form method="get" action={path} aria-label="Timeseries of this page" ref={ref}>
        <HiddenFields search={rnaSearch(data.params, data.timezone)} owned={["timeseries", "after"]} />
        {data.params.after ? <input type="hidden" name="after" value={data.params.after} /> : null}
        <Group align="flex-end" gap="sm">
          <NativeSelect
            label="Timeseries of this page, grouped by"
            name="timeseries"
            defaultValue={data.params.timeseries ?? ""}
            data={[{ value: "", label: "No timeseries" }, ...shownColumns.map((c) => ({ value: c.id, label: c.label }))]}
            w={{ base: "100%", xs: 260 }}
          />
          <Button type="submit" size="compact-sm" variant="default" mb={4}>
            Show
          </Button>
        </Group>
      </Form>
      {view ? (
        view.buckets.length ? (
          <>
            {hydrated ? (
              <Suspense fallback={<TimeseriesTable view={view} timezone={data.timezone} />}>
                <RnaTimeseriesChart view={view} timezone={data.timezone} />
              </Suspense>
            ) : (
              <TimeseriesTable view={view} timezone={data.timezone} />
            )}
          </>
        ) : (
          <Text c="dimmed">No traffic of these rows in the range.</Text>
        )
      ) : null}
    </Stack>
  );
}
