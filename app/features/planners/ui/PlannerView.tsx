import { NotAppliedNotice } from "~/components/NotAppliedNotice";
import { DateField } from "~/components/DateFields";
import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link, useNavigate } from "@remix-run/react";
import { IconArrowDown, IconArrowsSort, IconArrowUp } from "@tabler/icons-react";
import { useHydrated } from "~/components/use-hydrated";
import { ColumnPicker } from "~/features/shared/table/ColumnPicker";
import { ExportMenu, exportHref } from "~/features/shared/table/ExportMenu";
import { NUMERIC_FILTER_HINT } from "~/lib/numeric-filter";
import { formatBitsPerSecond, formatPercent } from "~/lib/units";
import { groupingWords, STATUS_COLORS, statusFilterOptions, thresholdWords } from "../cells";
import { columnsOf, takesNumericFilter, type ScreenKind } from "../columns";
import { DATA_TYPE_LABELS, GROUPING_LABELS, GROUPINGS, plannerSearch, type PlannerParams } from "../params";
import type { PlannerScreenData } from "../screen.server";
import { LINK_STATUS_LABELS, LINK_STATUSES } from "../types";
import { LinkDetailView } from "./LinkDetailView";
import { StatusBadge } from "./StatusBadge";
import { TrafficChart, UtilisationHeatmap } from "./PlannerCharts";
import classes from "./PlannerTables.module.css";

type Props = { data: PlannerScreenData; title: string; path: string };

/** The address parameters of the state without some of them: the hidden fields of a form that sets those. */
function keepEntries(params: PlannerParams, without: readonly string[]): [string, string][] {
  return [...new URLSearchParams(plannerSearch({ ...params, page: 1, link: null })).entries()].filter(([name]) => !without.includes(name));
}

function Hidden({ entries }: { entries: [string, string][] }) {
  return (
    <>
      {entries.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** Range, grouping (Border Planner), which links (Core Planner) and the filters: one GET form. */
function ControlsForm({ data, path }: { data: PlannerScreenData; path: string }) {
  const { params, options, screen } = data;
  const pair = params.pair;
  const controlled = [
    "dateRange",
    "start",
    "end",
    "group",
    "as",
    "router",
    "interface",
    "dataType",
    "inRouter",
    "outRouter",
    "startInterface",
    "endInterface",
  ];
  return (
    <Form method="get" action={path} aria-label={`${screen === "border" ? "Border" : "Core"} Planner options`} data-tour="planner-controls">
      <Hidden entries={keepEntries(params, controlled)} />
      <Paper withBorder p="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <NativeSelect
            label="Date range"
            name="dateRange"
            defaultValue={params.dateRange ?? ""}
            data={[...data.presets, { value: "", label: "The dates below" }]}
            w={{ base: "100%", xs: 170 }}
            data-testid="planner-preset"
          />
          <DateField label="Start date" name="start" defaultValue={data.rangeDays.start} w={{ base: "47%", xs: 160 }} />
          <DateField label="End date" name="end" defaultValue={data.rangeDays.end} w={{ base: "47%", xs: 160 }} />
          {screen === "border" ? (
            <NativeSelect
              label="Group by"
              name="group"
              defaultValue={params.group}
              data={GROUPINGS.map((g) => ({ value: g, label: GROUPING_LABELS[g] }))}
              w={{ base: "100%", xs: 160 }}
              data-testid="planner-group"
            />
          ) : (
            <NativeSelect
              label="Links"
              name="dataType"
              defaultValue={params.dataType}
              data={Object.entries(DATA_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
              w={{ base: "100%", xs: 180 }}
              data-testid="planner-datatype"
            />
          )}
          {screen === "border" ? (
            <NativeSelect
              label="Neighbour AS"
              name="as"
              defaultValue={params.asns.length === 1 ? String(params.asns[0]) : ""}
              data={[{ value: "", label: "All" }, ...options.asns.map((a) => ({ value: String(a.asn), label: a.label }))]}
              w={{ base: "100%", xs: 220 }}
            />
          ) : null}
          <NativeSelect
            label="Router"
            name="router"
            defaultValue={params.routers.length === 1 ? params.routers[0] : ""}
            data={[{ value: "", label: "All" }, ...options.routers]}
            w={{ base: "100%", xs: 160 }}
          />
          <TextInput
            label="Interface"
            name="interface"
            defaultValue={params.interfaces.join(", ")}
            placeholder="e.g. et-0/0/1"
            list="planner-interfaces"
            w={{ base: "100%", xs: 160 }}
          />
          <datalist id="planner-interfaces">
            {options.interfaces.map((i) => (
              <option key={i} value={i} />
            ))}
          </datalist>
        </Group>
        {screen === "core" ? (
          <Group align="flex-end" gap="md" wrap="wrap" mt="sm">
            <Text size="sm" w="100%">
              One interface pair (with Links: One interface pair): the two ends of an internal link.
            </Text>
            <TextInput
              label="Router a"
              name="inRouter"
              defaultValue={pair?.inRouter ?? ""}
              list="planner-routers"
              w={{ base: "47%", xs: 150 }}
            />
            <TextInput
              label="Interface a"
              name="startInterface"
              defaultValue={pair?.startInterface ?? ""}
              list="planner-interfaces"
              w={{ base: "47%", xs: 150 }}
            />
            <TextInput
              label="Router b"
              name="outRouter"
              defaultValue={pair?.outRouter ?? ""}
              list="planner-routers"
              w={{ base: "47%", xs: 150 }}
            />
            <TextInput
              label="Interface b"
              name="endInterface"
              defaultValue={pair?.endInterface ?? ""}
              list="planner-interfaces"
              w={{ base: "47%", xs: 150 }}
            />
            <datalist id="planner-routers">
              {options.routers.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
          </Group>
        ) : null}
        <Group mt="md">
          <Button type="submit" data-testid="planner-apply">
            Show
          </Button>
          <Text size="sm" c="dimmed">
            A preset wins over the dates; choose "The dates below" for your own range.
          </Text>
        </Group>
      </Paper>
    </Form>
  );
}

function Card({ label, value, testId, children }: { label: string; value?: string; testId: string; children?: React.ReactNode }) {
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {value !== undefined ? (
        <Text fw={700} size="lg">
          {value}
        </Text>
      ) : null}
      {children}
    </Paper>
  );
}

function SummaryCards({ data }: { data: PlannerScreenData }) {
  const s = data.summary;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="planner-summary" data-tour="planner-summary">
      <Card label="Links" value={String(s.links)} testId="summary-links" />
      <Card label="Capacity" value={formatBitsPerSecond(s.totalCapacityBps)} testId="summary-capacity" />
      <Card label="Billed 95th (sum)" value={formatBitsPerSecond(s.billedP95SumBps)} testId="summary-billed" />
      <Card label="Links per status" testId="summary-status">
        <Group gap={4} mt={4}>
          {LINK_STATUSES.map((st) => (
            <Badge key={st} color={STATUS_COLORS[st]} variant="light" tt="none" data-testid={`summary-status-${st.replace(" ", "-")}`}>
              {LINK_STATUS_LABELS[st]}: {s.statusCounts[st]}
            </Badge>
          ))}
        </Group>
      </Card>
      <Card label="Build-out due" value={String(s.buildoutDue)} testId="summary-buildout" />
    </SimpleGrid>
  );
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

function SortHeader({ data, id, label }: { data: PlannerScreenData; id: string; label: string }) {
  const { params } = data;
  const sorted = params.sort === id;
  const def = columnsOf(data.screen).find((c) => c.id === id)!;
  const first = def.kind === "text" ? "asc" : "desc";
  const order = sorted ? (params.order === "asc" ? "desc" : "asc") : first;
  const Icon = !sorted ? IconArrowsSort : params.order === "asc" ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={sorted ? ARIA_SORT[params.order] : "none"} style={{ whiteSpace: "nowrap" }}>
      <Anchor
        component={Link}
        to={plannerSearch(params, { sort: id, order, page: 1 }) || "?"}
        c="inherit"
        fw={700}
        underline="hover"
        title={`Sort by ${label}`}
        data-testid={`planner-sort-${id}`}
        style={{ display: "inline-flex", alignItems: "center", gap: 4 }}
      >
        {label}
        <Icon size={14} aria-hidden="true" style={{ opacity: sorted ? 1 : 0.6 }} />
      </Anchor>
    </Table.Th>
  );
}

/**
 * The '>' / '<' filters of the shown numeric columns (the spec's numeric column filters) and the
 * Status filter, whose choices say the user's thresholds: one GET form.
 */
function ColumnFilters({ data, path }: { data: PlannerScreenData; path: string }) {
  const { params, screen } = data;
  const numeric = columnsOf(screen).filter((c) => takesNumericFilter(c) && params.columns.includes(c.id));
  const withStatus = params.columns.includes("status");
  if (!numeric.length && !withStatus) return null;
  const open = Object.keys(params.typedFilters).length > 0 || params.statuses.length > 0;
  const applied = params.filters.length + (params.statuses.length ? 1 : 0);
  const statusOptions = statusFilterOptions(data.thresholds);
  const statusValue = params.statuses.join(",");
  return (
    <details open={open} data-testid="planner-column-filters" data-tour="planner-column-filters">
      <summary style={{ cursor: "pointer" }}>
        <Text component="span" size="sm">
          Column filters ({applied} applied)
        </Text>
      </summary>
      <Form method="get" action={path}>
        <Hidden entries={keepEntries(params, [...numeric.map((c) => c.id), ...(withStatus ? ["status"] : [])])} />
        <Group align="flex-end" gap="sm" wrap="wrap" mt="xs">
          {withStatus ? (
            <NativeSelect
              size="xs"
              name="status"
              label="Status"
              defaultValue={statusValue}
              // A list the choices do not name (e.g. typed in the address) is still shown as it applies.
              data={
                statusOptions.some((o) => o.value === statusValue)
                  ? statusOptions
                  : [...statusOptions, { value: statusValue, label: params.statuses.map((st) => LINK_STATUS_LABELS[st]).join(", ") }]
              }
              w={{ base: "100%", xs: 220 }}
              data-testid="planner-status-filter"
            />
          ) : null}
          {numeric.map((c) => (
            <TextInput
              key={c.id}
              size="xs"
              name={c.id}
              label={c.label[screen]}
              defaultValue={params.typedFilters[c.id] ?? ""}
              placeholder={c.kind === "bps" ? "> 10G" : `> ${formatPercent(data.thresholds.medium)}`}
              title={NUMERIC_FILTER_HINT}
              error={params.filterErrors[c.id]}
              w={{ base: "47%", xs: 150 }}
            />
          ))}
          <Button type="submit" size="xs" variant="default">
            Filter
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          {NUMERIC_FILTER_HINT}. Utilisations are in percent, rates in bit/s. Status: {thresholdWords(data.thresholds)}.
        </Text>
      </Form>
    </details>
  );
}

/** The column picker: the "Select a column" dialog with JavaScript, a GET form without. */
function Columns({ data, path }: { data: PlannerScreenData; path: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { params, screen } = data;
  const all = columnsOf(screen);
  if (hydrated)
    return (
      <ColumnPicker
        columns={all.map((c) => ({ id: c.id, header: c.label[screen], visible: params.columns.includes(c.id) }))}
        onApply={(visible) => {
          const columns = all.map((c) => c.id).filter((id) => visible[id]);
          navigate(`${path}${plannerSearch(params, { columns, page: 1 })}`);
        }}
      />
    );
  return (
    <details data-testid="planner-column-form">
      <summary style={{ cursor: "pointer" }}>
        <Text component="span" size="sm">
          Columns ({params.columns.length} of {all.length})
        </Text>
      </summary>
      <form method="get" action={path}>
        <Hidden entries={keepEntries(params, ["columns"])} />
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing={4} mt="xs">
          {all.map((c) => (
            <label key={c.id} style={{ fontSize: 13 }}>
              <input type="checkbox" name="columns" value={c.id} defaultChecked={params.columns.includes(c.id)} /> {c.label[screen]}
            </label>
          ))}
        </SimpleGrid>
        <Button type="submit" size="compact-sm" variant="default" mt="xs">
          Show these columns
        </Button>
      </form>
    </details>
  );
}

function LinkTable({ data }: { data: PlannerScreenData }) {
  const { params, screen, groups } = data;
  const labels = Object.fromEntries(columnsOf(screen).map((c) => [c.id, c.label[screen]]));
  const grouped = screen === "border";
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }} tabIndex={0} role="region" aria-label="Links" data-tour="planner-table">
      <Table striped withTableBorder fz="xs" data-testid="planner-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Detail</Table.Th>
            {params.columns.map((c) => (
              <SortHeader key={c} data={data} id={c} label={labels[c]} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <tbody className={classes.rows}>
          {groups.map((g) => (
            <GroupRows key={g.key || "all"} data={data} group={g} grouped={grouped} />
          ))}
        </tbody>
      </Table>
    </div>
  );
}

/**
 * The rows of one group: plain rows and cells (PlannerTables.module.css gives them Mantine's table
 * look), as a page renders up to PAGE_SIZE of them with a dozen cells each.
 */
function GroupRows({ data, group, grouped }: { data: PlannerScreenData; group: PlannerScreenData["groups"][number]; grouped: boolean }) {
  const { params } = data;
  return (
    <>
      {grouped ? (
        <tr data-testid="planner-group-row">
          <th colSpan={params.columns.length + 1} scope="colgroup" className={classes.groupHeader}>
            {group.label} ({group.rows.length} {group.rows.length === 1 ? "link" : "links"})
          </th>
        </tr>
      ) : null}
      {group.rows.map((row) => (
        <tr key={row.key} data-testid="planner-row" data-key={row.key} aria-selected={params.link === row.key}>
          <td>
            <Link to={plannerSearch(params, { link: row.key })} className={classes.link} data-testid="planner-open-detail">
              Open
            </Link>
          </td>
          {params.columns.map((c) => (
            <td key={c} className={c === "forecast" || c === "neighbour" ? classes.wraps : undefined}>
              {c === "status" ? <StatusBadge status={row.status} /> : row.cells[c]}
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function Pager({ data }: { data: PlannerScreenData }) {
  if (data.pages <= 1) return null;
  const { params, page, pages } = data;
  return (
    <Group gap="xs" data-testid="planner-pager">
      {page > 1 ? (
        <Anchor component={Link} to={plannerSearch(params, { page: page - 1 }) || "?"}>
          Previous page
        </Anchor>
      ) : null}
      <Text size="sm">
        Page {page} of {pages}
      </Text>
      {page < pages ? (
        <Anchor component={Link} to={plannerSearch(params, { page: page + 1 })}>
          Next page
        </Anchor>
      ) : null}
    </Group>
  );
}

function EmptyState({ data, screen }: { data: PlannerScreenData; screen: ScreenKind }) {
  const what = screen === "border" ? "external" : "internal";
  return (
    <Alert color="blue" title={`No ${what} links in the inventory`} data-testid="planner-empty">
      {data.isStaff ? (
        <>
          Links come from the network inventory: interfaces of kind {screen === "border" ? "external" : "core (paired by their remote end)"}
          .{" "}
          <Anchor component={Link} to="/site-settings/inventory">
            Open the network inventory
          </Anchor>
          .
        </>
      ) : screen === "border" ? (
        "There are no external links you may see. Ask your administrator if you expected some."
      ) : (
        "There are no internal links you may see. Ask your administrator if you expected some."
      )}
    </Alert>
  );
}

export function PlannerView({ data, title, path }: Props) {
  const { params, screen } = data;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text size="sm" data-testid="planner-range">
          {data.rangeLabel}
        </Text>
      </Group>
      <NotAppliedNotice notices={data.notices} testId="planner-notices" />
      {data.noLinks ? (
        <EmptyState data={data} screen={screen} />
      ) : (
        <>
          <ControlsForm data={data} path={path} />
          <SummaryCards data={data} />
          {data.noData ? (
            <Alert color="yellow" title="No utilisation data" data-testid="planner-no-data">
              None of the shown links has 5-minute samples in this range. Choose another range
              {data.dates.last !== null ? " (data exists up to the last day with data)" : ""}.
            </Alert>
          ) : null}
          {data.detail ? <LinkDetailView data={data} detail={data.detail} /> : null}
          {data.timeseries && !data.noData ? (
            <Paper withBorder p="sm">
              <Title order={2} size="h5" mb="xs">
                Traffic of the shown links
              </Title>
              <TrafficChart timeseries={data.timeseries} timezone={data.timezone} thresholds={data.timeseriesThresholds} />
            </Paper>
          ) : null}
          <Stack gap="xs">
            <Group justify="space-between" align="flex-end" wrap="wrap">
              <Text size="sm" data-testid="planner-count">
                {data.totalRows} {data.totalRows === 1 ? "link" : "links"}
                {screen === "border" ? `, ${groupingWords(screen, params)}` : ""}. Status from the peak-hour daily utilisation:{" "}
                {thresholdWords(data.thresholds)}.
              </Text>
              <Group gap="md" align="center">
                <Columns data={data} path={path} />
                <ExportMenu
                  href={(f) => exportHref(`${path}/export`, data.search, f)}
                  blocked={data.totalRows === 0 ? "empty" : null}
                  imageTitle="The table as an image"
                />
              </Group>
            </Group>
            <ColumnFilters data={data} path={path} />
            {data.totalRows ? <LinkTable data={data} /> : <Text c="dimmed">No link matches the filters.</Text>}
            <Pager data={data} />
          </Stack>
          {data.heatmap && !data.noData ? (
            <Paper withBorder p="sm">
              <Title order={2} size="h5" mb="xs">
                Daily maximum utilisation{data.pages > 1 ? " (the links of this page)" : ""}
              </Title>
              <UtilisationHeatmap heatmap={data.heatmap} timezone={data.timezone} />
            </Paper>
          ) : null}
        </>
      )}
    </Stack>
  );
}
