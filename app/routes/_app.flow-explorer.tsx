import { Alert, Anchor, Button, Group, NativeSelect, Paper, Radio, Stack, Text, TextInput, Title } from "@mantine/core";
import { Line } from "@nivo/line";
import { Sankey } from "@nivo/sankey";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useNavigation, useRouteError, useSubmit } from "@remix-run/react";
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef } from "mantine-react-table";
import { useEffect, useMemo, useRef } from "react";
import { loadExplorer } from "~/features/flows/explorer.server";
import { CUSTOM_RANGE } from "~/features/flows/params";
import { DATE_RANGE_PRESETS } from "~/features/flows/time";
import { findToolRoute } from "~/lib/routes";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { formatBitsPerSecond } from "~/lib/units";
import { requireUser } from "~/server/auth/guard.server";

dayjs.extend(utc);
dayjs.extend(timezone);

export const meta: MetaFunction = () => [{ title: "Flow Explorer · flowlens" }];

/** Everything is computed here from the URL, so a deep link renders fully before (or without) JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute("/flow-explorer"));
  return loadExplorer(services, user, new URL(request.url));
}

type LoaderData = Awaited<ReturnType<typeof loader>>;
type Row = NonNullable<LoaderData["flows"]>["table"][number];

const CHART_WIDTH = 1000;
const CHART_HEIGHT = 360;
const SUBMIT_DELAY_MS = 400;

const PRESET_LABELS: Record<(typeof DATE_RANGE_PRESETS)[number], string> = {
  LAST_2_DAYS: "Last 2 days",
  LAST_7_DAYS: "Last 7 days",
  LAST_30_DAYS: "Last 30 days",
  LAST_90_DAYS: "Last 90 days",
  CURRENT_MONTH: "Current month",
  LAST_MONTH: "Last month",
  LAST_3_MONTHS: "Last 3 months",
  CURRENT_YEAR: "Current year",
};

const SPECIAL = new Map<string, { name: string; explanation: string }>(SPECIAL_AS_VALUES.map((s) => [String(s.asn), { name: s.name, explanation: s.explanation }]));

function fmtTime(ts: number, tz: string, pattern = "YYYY-MM-DD HH:mm") {
  return dayjs.unix(ts).tz(tz).format(pattern);
}

/** A value's name; special AS values carry their explanation as a title (a tooltip that needs no JavaScript). */
function ValueName({ row, isAs }: { row: Pick<Row, "key" | "name">; isAs: boolean }) {
  const special = isAs ? SPECIAL.get(row.key) : undefined;
  if (!special) return <>{row.name}</>;
  return (
    <span title={special.explanation} data-special-as={row.key} style={{ textDecoration: "underline dotted", cursor: "help" }}>
      {special.name}
    </span>
  );
}

/** Submits the options form 400 ms after a control changed (native `change`: selects and radios at once, text fields when committed). */
function useDebouncedAutoSubmit(formRef: React.RefObject<HTMLFormElement>) {
  const submit = useSubmit();
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => submit(form, { method: "get" }), SUBMIT_DELAY_MS);
    };
    const cancel = () => clearTimeout(timer);
    form.addEventListener("change", onChange);
    form.addEventListener("submit", cancel);
    return () => {
      cancel();
      form.removeEventListener("change", onChange);
      form.removeEventListener("submit", cancel);
    };
  }, [formRef, submit]);
}

function OptionsForm({ data }: { data: LoaderData }) {
  const formRef = useRef<HTMLFormElement>(null);
  useDebouncedAutoSubmit(formRef);
  const { params } = data;
  const navigation = useNavigation();
  const dimensionOptions = data.dimensions.map((d) => ({ value: d.value, label: d.label }));
  const rangeValue = params.dateRange ?? (params.start !== undefined && params.end !== undefined ? CUSTOM_RANGE : "LAST_2_DAYS");
  return (
    <Form method="get" ref={formRef} aria-label="Flow Explorer options">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <NativeSelect label="Dimension" name="dimension" defaultValue={data.dimension?.id} data={dimensionOptions} w={260} />
            <NativeSelect
              label="Date range"
              name="dateRange"
              defaultValue={rangeValue}
              data={[...DATE_RANGE_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })), { value: CUSTOM_RANGE, label: "Custom (start / end)" }]}
              w={200}
            />
            <TextInput label="Start (unix seconds)" name="start" defaultValue={params.start ?? ""} inputMode="numeric" w={170} />
            <TextInput label="End (unix seconds)" name="end" defaultValue={params.end ?? ""} inputMode="numeric" w={170} />
            <Radio.Group label="IP version" name="ipVersion" defaultValue={params.ipVersion}>
              <Group gap="xs" mt={6}>
                <Radio value="all" label="All" />
                <Radio value="4" label="IPv4" />
                <Radio value="6" label="IPv6" />
              </Group>
            </Radio.Group>
          </Group>
          <Group align="flex-end" gap="md" wrap="wrap">
            <Radio.Group label="View" name="view" defaultValue={params.view}>
              <Group gap="xs" mt={6}>
                <Radio value="timeseries" label="Timeseries" />
                <Radio value="sankey" label="Sankey" />
              </Group>
            </Radio.Group>
            <NativeSelect
              label="Second dimension (sankey)"
              name="dimension2"
              defaultValue={params.dimension2 ?? ""}
              data={[{ value: "", label: "—" }, ...dimensionOptions]}
              w={260}
            />
          </Group>
          <Stack gap={4}>
            {params.filter.map((f, i) => (
              <TextInput key={`${i}:${f}`} name="filter" defaultValue={f} aria-label={`Filter ${i + 1}`} w={520} />
            ))}
            <TextInput
              name="filter"
              defaultValue=""
              label={params.filter.length ? "Add a filter" : "Filter"}
              aria-label="New filter"
              placeholder="AS_SRC_INGRESS:2906,!AS15169"
              description="One dimension per field: DIMENSION:value,value; a leading ! negates a value. Empty a field to remove its filter."
              w={520}
              data-testid="new-filter"
            />
          </Stack>
          <Group>
            <Button type="submit" loading={navigation.state === "loading" && navigation.location?.pathname === "/flow-explorer"}>
              Show
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Form>
  );
}

function TimeseriesChart({ data }: { data: LoaderData }) {
  const ts = data.flows?.timeseries;
  const tz = data.timezone;
  const series = useMemo(() => {
    if (!ts) return [];
    const seen = new Set<string>();
    return ts.series.map((s) => {
      const id = seen.has(s.name) ? `${s.name} (${s.key})` : s.name;
      seen.add(id);
      return { id, data: ts.buckets.map((b, i) => ({ x: b, y: s.values[i] ?? 0 })) };
    });
  }, [ts]);
  if (!ts || !ts.buckets.length || !series.length) return <Text c="dimmed">No traffic in this range.</Text>;
  const span = ts.buckets[ts.buckets.length - 1] - ts.buckets[0];
  return (
    <div data-testid="timeseries-chart" style={{ overflowX: "auto" }}>
      <Line
        width={CHART_WIDTH}
        height={CHART_HEIGHT}
        animate={false}
        data={series}
        margin={{ top: 10, right: 200, bottom: 40, left: 80 }}
        xScale={{ type: "linear", min: "auto", max: "auto" }}
        yScale={{ type: "linear", min: 0, max: "auto", stacked: true }}
        enableArea
        areaOpacity={0.6}
        enablePoints={false}
        curve="monotoneX"
        colors={{ scheme: "category10" }}
        axisBottom={{ tickValues: 6, format: (v) => fmtTime(Number(v), tz, span > 86_400 ? "MM-DD HH:mm" : "HH:mm") }}
        axisLeft={{ tickValues: 5, format: (v) => formatBitsPerSecond(Number(v)) }}
        yFormat={(v) => formatBitsPerSecond(Number(v))}
        xFormat={(v) => fmtTime(Number(v), tz)}
        enableSlices="x"
        legends={[{ anchor: "top-right", direction: "column", translateX: 190, itemWidth: 180, itemHeight: 18, symbolSize: 10 }]}
      />
    </div>
  );
}

function SankeyChart({ data }: { data: LoaderData }) {
  if (data.sankeyError) {
    return (
      <Alert color="yellow" title="Sankey" data-testid="sankey-error">
        {data.sankeyError}
      </Alert>
    );
  }
  const sankey = data.sankey;
  if (!sankey || !sankey.links.length) return <Text c="dimmed">No traffic in this range.</Text>;
  const names = new Map(sankey.nodes.map((n) => [n.id, n.name]));
  return (
    <div data-testid="sankey-chart" style={{ overflowX: "auto" }}>
      <Sankey
        width={CHART_WIDTH}
        height={480}
        animate={false}
        data={{ nodes: sankey.nodes.map((n) => ({ id: n.id })), links: sankey.links.map((l) => ({ ...l })) }}
        margin={{ top: 10, right: 180, bottom: 10, left: 180 }}
        label={(n) => names.get(String(n.id)) ?? String(n.id)}
        valueFormat={(v) => formatBitsPerSecond(Number(v))}
        colors={{ scheme: "category10" }}
        nodeOpacity={1}
        linkOpacity={0.4}
        enableLinkGradient={false}
        labelPosition="outside"
        nodeBorderWidth={0}
      />
    </div>
  );
}

function FlowTable({ data }: { data: LoaderData }) {
  const rows = data.flows?.table ?? [];
  const isAs = data.dimension?.isAs ?? false;
  const total = data.total;
  const columns = useMemo<MRT_ColumnDef<Row>[]>(
    () => [
      { accessorKey: "name", header: data.dimension?.label ?? "Value", Cell: ({ row }) => <ValueName row={row.original} isAs={isAs} /> },
      ...(isAs ? [{ accessorFn: (r: Row) => Number(r.key), id: "asn", header: "AS number", Cell: ({ row }: { row: { original: Row } }) => row.original.key } satisfies MRT_ColumnDef<Row>] : []),
      { accessorKey: "bps", header: "Traffic", sortDescFirst: true, Cell: ({ cell }) => formatBitsPerSecond(cell.getValue<number>()) },
      { accessorFn: (r) => (total > 0 ? (r.bps / total) * 100 : 0), id: "share", header: "Share", sortDescFirst: true, Cell: ({ cell }) => `${cell.getValue<number>().toFixed(1)} %` },
    ],
    [isAs, total, data.dimension?.label],
  );
  const table = useMantineReactTable({
    columns,
    data: rows,
    getRowId: (r) => r.key,
    enablePagination: false,
    enableRowVirtualization: false,
    enableColumnActions: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableGlobalFilter: false,
    enableColumnFilters: false,
    enableHiding: false,
    enableTopToolbar: false,
    enableBottomToolbar: false,
    initialState: { sorting: [{ id: "bps", desc: true }], density: "xs" },
    mantineTableProps: { "data-testid": "flow-table" } as Record<string, string>,
    mantineTableContainerProps: { style: { maxHeight: 640 } },
    enableStickyHeader: true,
  });
  return <MantineReactTable table={table} />;
}

export default function FlowExplorer() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const flows = data.flows;
  const range = flows?.range ?? null;
  const tz = data.timezone;
  const rows = flows?.table ?? [];
  const exportHref = `/api/flows/export${location.search}`;
  return (
    <Stack>
      <Title order={2}>Flow Explorer</Title>
      {/* Keyed by the URL: Back/Forward and submissions reset the uncontrolled controls to the URL's state. */}
      <OptionsForm key={location.search} data={data} />
      {data.errors.length ? (
        <Alert color="red" title="Some options could not be applied" data-testid="filter-errors">
          <Stack gap={2}>
            {data.errors.map((e, i) => (
              <Text key={i} size="sm">
                {e}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {data.notices.length ? (
        <Alert color="yellow" data-testid="notices">
          <Stack gap={2}>
            {data.notices.map((n, i) => (
              <Text key={i} size="sm">
                {n}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {flows?.filters.length ? (
        <Text size="sm" data-testid="active-filters">
          Active filters:{" "}
          {flows.filters.map((f) => `${f.isNegation ? "not " : ""}${f.dimension} ${f.value}${f.locked ? " (locked)" : ""}`).join("; ")}
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
      {flows ? data.params.view === "sankey" ? <SankeyChart data={data} /> : <TimeseriesChart data={data} /> : null}
      {flows ? (
        <>
          <Group justify="space-between">
            <Text fw={600} data-testid="total">
              Total: {formatBitsPerSecond(data.total)} ({rows.length} {rows.length === 1 ? "value" : "values"})
            </Text>
            {rows.length ? (
              <Anchor href={exportHref} download data-testid="csv-export">
                Export CSV
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed">
                Table is empty, nothing to export
              </Text>
            )}
          </Group>
          <FlowTable data={data} />
        </>
      ) : null}
    </Stack>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Alert color="red" title="The Flow Explorer could not be shown">
      {error instanceof Error ? error.message : "Unexpected error."} Change the options in the address or go back to <Anchor href="/flow-explorer">the default view</Anchor>.
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
