import { NotAppliedNotice } from "~/components/NotAppliedNotice";
import { DateTimeField } from "~/components/DateFields";
import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { formatDateLong, toDateTimeField } from "~/lib/date-format";
import { resultsLimited } from "~/lib/messages";
import { CONTROL_PLANE_HELP, CONTROL_PLANE_PLACEHOLDERS, QUERY_TYPE_LABELS, RIB_QUERY_TYPES } from "~/lib/routing-query-types";
import { DATE_RANGE_PRESETS, PRESET_LABELS, TIME_PRESETS } from "~/lib/time-range";
import { RIB_VIEW_CHOICES, RIB_VIEW_CHOICE_LABELS, RIB_VIEW_PARAM } from "~/features/routing/rib-views";
import { screenSearch, tableEntries } from "../links";
import type { ControlPlaneScreen } from "../screen.server";
import { isFiltered, nextSort } from "../table-state";
import { ColumnPicker, ControlPlaneTable } from "./ControlPlaneTable";
import { FilterForm } from "./FilterForm";

/**
 * Problems (no data, a failed query) are toasts once JavaScript runs (spec: warning / problem
 * toasts) and an alert in the server's HTML. What of the address was not applied stays on the
 * page as an alert either way: it explains the range the form and caption show.
 */
function useProblemToast(data: ControlPlaneScreen, hydrated: boolean) {
  useEffect(() => {
    if (!hydrated) return;
    // The spec's invalid-input toast for a filter that could not apply (its field says it too).
    for (const message of Object.values(data.table.errors)) notifications.show({ color: "red", title: "Control Plane", message });
    if (data.problem)
      notifications.show({ color: data.status === "Aborted" ? "red" : "yellow", title: "Control Plane", message: data.problem });
  }, [data, hydrated]);
}

function QueryForm({ data, path }: { data: ControlPlaneScreen; path: string }) {
  const navigation = useNavigation();
  const { params, range, timezone } = data;
  const busy = navigation.state === "loading" && navigation.location?.pathname === path;
  const presets = [...TIME_PRESETS, ...DATE_RANGE_PRESETS];
  return (
    <Form method="get" action={path} aria-label="Control Plane query">
      {/* A new query keeps the table's columns, sort and filters. */}
      {tableEntries(data).map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <Paper withBorder p="md">
        <Group align="flex-start" gap="md" wrap="wrap">
          <Group align="flex-start" gap="md" wrap="wrap" data-tour="cp-query">
            <NativeSelect
              label="Query type"
              name="queryType"
              defaultValue={params.queryType}
              data={RIB_QUERY_TYPES.map((t) => ({ value: t, label: QUERY_TYPE_LABELS[t] }))}
              w={{ base: "100%", xs: 170 }}
            />
            <TextInput
              label="Query"
              name="queryTerm"
              defaultValue={params.queryTerm}
              placeholder={CONTROL_PLANE_PLACEHOLDERS[params.queryType]}
              description={CONTROL_PLANE_HELP[params.queryType]}
              error={data.termError}
              w={{ base: "100%", xs: 340 }}
              data-testid="cp-term"
            />
          </Group>
          <Group align="flex-start" gap="md" wrap="wrap" data-tour="cp-range">
            <NativeSelect
              label="Date range"
              name="dateRange"
              defaultValue=""
              data={[{ value: "", label: "Start / end below" }, ...presets.map((p) => ({ value: p, label: PRESET_LABELS[p] }))]}
              w={{ base: "100%", xs: 190 }}
            />
            <DateTimeField
              label={`Start (${timezone})`}
              name="start"
              defaultValue={range ? toDateTimeField(range.start, timezone) : ""}
              w={{ base: "100%", xs: 210 }}
            />
            <DateTimeField
              label={`End (${timezone})`}
              name="end"
              defaultValue={range ? toDateTimeField(range.end, timezone, "up") : ""}
              w={{ base: "100%", xs: 210 }}
            />
          </Group>
          <NativeSelect
            label="RIB view"
            name={RIB_VIEW_PARAM}
            defaultValue={params.ribView}
            data={RIB_VIEW_CHOICES.map((v) => ({ value: v, label: RIB_VIEW_CHOICE_LABELS[v] }))}
            w={{ base: "100%", xs: 230 }}
            wrapperProps={{ "data-tour": "cp-rib-view" }}
          />
          <Button type="submit" mt={25} loading={busy} data-tour="cp-submit">
            Submit
          </Button>
        </Group>
      </Paper>
    </Form>
  );
}

function Pager({ data, path }: { data: ControlPlaneScreen; path: string }) {
  if (data.pages <= 1 || !data.range) return null;
  const href = (page: number) => `${path}?${screenSearch(data, { page })}`;
  return (
    <Group gap="xs" data-testid="cp-pager">
      {data.page > 1 ? (
        <Anchor component={Link} to={href(data.page - 1)}>
          ‹ Previous
        </Anchor>
      ) : null}
      <Text size="sm">
        Page {data.page} of {data.pages} ({data.totalRows} rows)
      </Text>
      {data.page < data.pages ? (
        <Anchor component={Link} to={href(data.page + 1)}>
          Next ›
        </Anchor>
      ) : null}
    </Group>
  );
}

/** The Control Plane screen: query form, messages, range, then the table's filters, columns, pages and rows. */
export function ControlPlaneView({ data, path }: { data: ControlPlaneScreen; path: string }) {
  const hydrated = useHydrated();
  useProblemToast(data, hydrated);
  const { dates, timezone } = data;
  const at = (t: number) => formatDateLong(t * 1000, timezone);
  const queried = data.status === "Completed" || (data.status === "NoData" && data.range !== null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Control Plane
        </Title>
        {data.minutesSinceNewest !== null ? (
          <Badge
            color={data.minutesSinceNewest <= 15 ? "green" : "gray"}
            variant="light"
            data-testid="cp-new-data"
            title="Minutes since the newest routing data"
          >
            New data: {data.minutesSinceNewest} min ago
          </Badge>
        ) : null}
      </Group>
      {dates ? (
        <Text size="sm" c="dimmed" data-testid="cp-dates">
          Routing data from {at(dates.min)} to {at(dates.max)}
        </Text>
      ) : null}
      <QueryForm key={JSON.stringify(data.params) + String(data.range?.start) + String(data.range?.end)} data={data} path={path} />
      <NotAppliedNotice notices={data.notices} testId="cp-notices" />
      {!hydrated && data.problem ? (
        <Alert color={data.status === "Aborted" ? "red" : "yellow"} data-testid="cp-messages">
          {data.problem}
        </Alert>
      ) : null}
      {data.range ? (
        <Text size="sm" data-testid="cp-range">
          {at(data.range.start)} – {at(data.range.end)}
        </Text>
      ) : null}
      {data.status === "Idle" && !data.termError ? (
        <Text c="dimmed">To view the data, click the &quot;Submit&quot; button above.</Text>
      ) : null}
      {data.resultsLimit !== null && data.resultsMaximum !== null ? (
        <Alert color="yellow" data-testid="cp-results-banner">
          {resultsLimited(data.resultsMaximum, data.resultsLimit)}
        </Alert>
      ) : null}
      {queried && (data.rows.length || isFiltered(data.table) || Object.keys(data.table.errors).length) ? (
        <FilterForm
          action={path}
          table={data.table}
          keep={[...screenSearch(data, { without: ["filters"] })]}
          clearHref={`${path}?${screenSearch(data, { without: ["filters"] })}`}
        />
      ) : null}
      {data.rows.length ? (
        <>
          <ColumnPicker action={path} columns={data.columns} timezone={timezone} keep={screenSearch(data, { without: ["columns"] })} />
          <Pager data={data} path={path} />
          <ControlPlaneTable
            rows={data.rows}
            columns={data.columns}
            timezone={timezone}
            vantagePointNames={data.vantagePointNames}
            sort={{
              column: data.table.sort,
              order: data.table.order,
              href: (c) => `${path}?${screenSearch(data, { sort: nextSort(data.table, c) })}`,
            }}
          />
          <Pager data={data} path={path} />
        </>
      ) : null}
    </Stack>
  );
}
