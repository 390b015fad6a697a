import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { isDefaultColumns } from "~/features/controlplane/columns";
import { ColumnPicker, ControlPlaneTable } from "~/features/controlplane/ControlPlaneTable";
import { CONTROL_PLANE_QUERY_LABELS, CONTROL_PLANE_QUERY_TYPES, controlPlaneSearch, toLocalInput } from "~/features/controlplane/params";
import { loadControlPlane } from "~/features/controlplane/screen.server";
import { DATE_RANGE_PRESETS, PRESET_LABELS, TIME_PRESETS } from "~/features/flows/time";
import { useHydrated } from "~/features/flows/ui/use-hydrated";
import { formatDateLong } from "~/lib/date-format";
import { resultsLimited } from "~/lib/messages";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";

const PATH = "/controlplane";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: "Control Plane · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadControlPlane(services, user.id, new URL(request.url));
}

type Data = Awaited<ReturnType<typeof loader>>;

const PLACEHOLDERS = { AsPathQuery: "e.g. ? 3320 *", IpPrefixQuery: "e.g. 192.0.2.0/30" } as const;
const HELP = {
  AsPathQuery: "AS numbers, ? and * separated by spaces: ? is exactly one AS, * any number of ASes. Empty finds routes with an empty AS path.",
  IpPrefixQuery: "An IPv4 or IPv6 address (the longest matching prefix) or a prefix (itself and its more-specifics).",
} as const;

/**
 * Problems (no data, a failed query) are toasts once JavaScript runs (spec: warning / problem
 * toasts) and an alert in the server's HTML. What of the address was not applied stays on the
 * page as an alert either way: it explains the range the form and caption show.
 */
function useProblemToast(data: Data, hydrated: boolean) {
  useEffect(() => {
    if (!hydrated || !data.problem) return;
    notifications.show({ color: data.status === "Aborted" ? "red" : "yellow", title: "Control Plane", message: data.problem });
  }, [data, hydrated]);
}

function QueryForm({ data }: { data: Data }) {
  const navigation = useNavigation();
  const { params, range, dates, timezone } = data;
  const busy = navigation.state === "loading" && navigation.location?.pathname === PATH;
  const presets = [...TIME_PRESETS, ...DATE_RANGE_PRESETS];
  return (
    <Form method="get" action={PATH} aria-label="Control Plane query">
      {isDefaultColumns(data.columns) ? null : data.columns.map((c) => <input key={c} type="hidden" name="columns" value={c} />)}
      <Paper withBorder p="md">
        <Group align="flex-start" gap="md" wrap="wrap">
          <NativeSelect
            label="Query type"
            name="queryType"
            defaultValue={params.queryType}
            data={CONTROL_PLANE_QUERY_TYPES.map((t) => ({ value: t, label: CONTROL_PLANE_QUERY_LABELS[t] }))}
            w={{ base: "100%", xs: 170 }}
          />
          <TextInput
            label="Query"
            name="queryTerm"
            defaultValue={params.queryTerm}
            placeholder={PLACEHOLDERS[params.queryType]}
            description={HELP[params.queryType]}
            error={data.termError}
            w={{ base: "100%", xs: 340 }}
            data-testid="cp-term"
          />
          <NativeSelect
            label="Date range"
            name="dateRange"
            defaultValue=""
            data={[{ value: "", label: "Start / end below" }, ...presets.map((p) => ({ value: p, label: PRESET_LABELS[p] }))]}
            w={{ base: "100%", xs: 190 }}
          />
          <TextInput
            label={`Start (${timezone})`}
            name="start"
            type="datetime-local"
            defaultValue={range ? toLocalInput(range.start, timezone) : ""}
            min={dates ? toLocalInput(dates.min, timezone) : undefined}
            max={dates ? toLocalInput(dates.max, timezone, "up") : undefined}
            w={{ base: "100%", xs: 210 }}
          />
          <TextInput
            label={`End (${timezone})`}
            name="end"
            type="datetime-local"
            defaultValue={range ? toLocalInput(range.end, timezone, "up") : ""}
            min={dates ? toLocalInput(dates.min, timezone) : undefined}
            max={dates ? toLocalInput(dates.max, timezone, "up") : undefined}
            w={{ base: "100%", xs: 210 }}
          />
          <Button type="submit" mt={25} loading={busy}>
            Submit
          </Button>
        </Group>
      </Paper>
    </Form>
  );
}

function Pager({ data }: { data: Data }) {
  if (data.pages <= 1 || !data.range) return null;
  const href = (page: number) => {
    const search = new URLSearchParams(controlPlaneSearch({ queryType: data.params.queryType, queryTerm: data.params.queryTerm, start: data.range!.start, end: data.range!.end, page }, data.timezone));
    if (!isDefaultColumns(data.columns)) for (const c of data.columns) search.append("columns", c);
    return `${PATH}?${search}`;
  };
  return (
    <Group gap="xs" data-testid="cp-pager">
      {data.page > 1 ? <Anchor component={Link} to={href(data.page - 1)}>‹ Previous</Anchor> : null}
      <Text size="sm">
        Page {data.page} of {data.pages} ({data.totalRows} rows)
      </Text>
      {data.page < data.pages ? <Anchor component={Link} to={href(data.page + 1)}>Next ›</Anchor> : null}
    </Group>
  );
}

export default function ControlPlane() {
  const data = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  useProblemToast(data, hydrated);
  const { dates, timezone } = data;
  const at = (t: number) => formatDateLong(t * 1000, timezone);
  const keep = new URLSearchParams(
    data.range ? controlPlaneSearch({ queryType: data.params.queryType, queryTerm: data.params.queryTerm, start: data.range.start, end: data.range.end }, timezone) : "",
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Control Plane</Title>
        {data.minutesSinceNewest !== null ? (
          <Badge color={data.minutesSinceNewest <= 15 ? "green" : "gray"} variant="light" data-testid="cp-new-data" title="Minutes since the newest routing data">
            New data: {data.minutesSinceNewest} min ago
          </Badge>
        ) : null}
      </Group>
      {dates ? (
        <Text size="sm" c="dimmed" data-testid="cp-dates">
          Routing data from {at(dates.min)} to {at(dates.max)}
        </Text>
      ) : null}
      <QueryForm key={JSON.stringify(data.params) + String(data.range?.start) + String(data.range?.end)} data={data} />
      {data.notices.length ? (
        <Alert color="blue" data-testid="cp-notices" title="Not applied as asked">
          <Stack gap={2}>
            {data.notices.map((n) => (
              <Text key={n} size="sm">
                {n}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
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
      {data.status === "Idle" && !data.termError ? <Text c="dimmed">To view the data, click the &quot;Submit&quot; button above.</Text> : null}
      {data.resultsLimit !== null && data.resultsMaximum !== null ? (
        <Alert color="yellow" data-testid="cp-results-banner">
          {resultsLimited(data.resultsMaximum, data.resultsLimit)}
        </Alert>
      ) : null}
      {data.rows.length ? (
        <>
          <ColumnPicker action={PATH} columns={data.columns} timezone={timezone} keep={keep} />
          <Pager data={data} />
          <ControlPlaneTable rows={data.rows} columns={data.columns} timezone={timezone} vantagePointNames={data.vantagePointNames} />
          <Pager data={data} />
        </>
      ) : null}
    </Stack>
  );
}
