import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CsrfField } from "~/components/CsrfField";
import { SavedNotices, ScrollBox } from "~/components/EditForms";
import { alertsUrl, ALERTS_PATH } from "../params";
import type { AlertsActionResult, AlertsScreen } from "../screen.server";
import { RuleForm } from "./RuleForm";

type Row = AlertsScreen["rows"][number];

function StateCell({ row }: { row: Row }) {
  return (
    <Stack gap={2}>
      <Badge color={row.statusColor} variant="light" w="fit-content">
        {row.status}
      </Badge>
      {row.acknowledged ? (
        <Text size="xs">
          Acknowledged by {row.acknowledged.by}, {row.acknowledged.at}
        </Text>
      ) : null}
      {row.silencedUntil ? <Text size="xs">Silenced until {row.silencedUntil}</Text> : null}
      {row.enabled ? null : <Text size="xs">Disabled</Text>}
    </Stack>
  );
}

/** A small POST form of one rule: acknowledge, or silence for a chosen period. */
function RuleActions({ data, row }: { data: AlertsScreen; row: Row }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      {row.status === "Triggered" && !row.acknowledged ? (
        <Form method="post" action={ALERTS_PATH} aria-label={`Acknowledge ${row.name}`}>
          <CsrfField />
          <input type="hidden" name="id" value={row.id} />
          <Button type="submit" name="intent" value="acknowledge" size="xs" variant="light">
            Acknowledge
          </Button>
        </Form>
      ) : null}
      <Form method="post" action={ALERTS_PATH} aria-label={`Silence ${row.name}`}>
        <CsrfField />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="intent" value="silence" />
        <Group gap={4} wrap="nowrap" align="flex-end">
          <NativeSelect
            size="xs"
            name="seconds"
            aria-label={`Silence ${row.name} for`}
            data={[
              ...data.silences.map((s) => ({ value: String(s.seconds), label: s.label })),
              ...(row.silencedUntil ? [{ value: "0", label: "End the silence" }] : []),
            ]}
          />
          <Button type="submit" size="xs" variant="light">
            Silence
          </Button>
        </Group>
      </Form>
    </Group>
  );
}

function RulesTable({ data }: { data: AlertsScreen }) {
  if (!data.rows.length)
    return (
      <Text size="sm" data-testid="alerts-empty">
        No alert rules yet.{data.manage ? " Add one below, or from a Flow Explorer view (Alert on this view)." : ""}
      </Text>
    );
  return (
    <ScrollBox label="Alert rules">
      <Table striped miw={1000} data-testid="alerts-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rule</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Since ({data.timezone})</Table.Th>
            <Table.Th>Severity</Table.Th>
            <Table.Th>Condition</Table.Th>
            <Table.Th>Value that crossed</Table.Th>
            <Table.Th>Limit</Table.Th>
            <Table.Th>Links</Table.Th>
            {data.manage ? <Table.Th>Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.rows.map((r) => (
            <Table.Tr key={r.id} data-testid={`alert-row-${r.id}`}>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm" fw={600}>
                    {r.name}
                  </Text>
                  <Text size="xs">{r.view}</Text>
                  {data.showOwner ? <Text size="xs">Owner: {r.owner}</Text> : null}
                </Stack>
              </Table.Td>
              <Table.Td>
                <StateCell row={r} />
              </Table.Td>
              <Table.Td>{r.since ?? (r.evaluated ? "no change of state yet" : "not evaluated yet")}</Table.Td>
              <Table.Td>{r.severity}</Table.Td>
              <Table.Td>
                {r.condition}
                <Text size="xs">for at least {r.minDuration}</Text>
              </Table.Td>
              <Table.Td>{r.value}</Table.Td>
              <Table.Td>{r.limit}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Anchor component={Link} to={r.viewHref} size="sm" aria-label={`The view of ${r.name} in the Flow Explorer`}>
                    View
                  </Anchor>
                  <Anchor component={Link} to={alertsUrl({ rule: r.id })} size="sm" aria-label={`History of ${r.name}`}>
                    History
                  </Anchor>
                  {r.rootCause ? (
                    <Anchor
                      component={Link}
                      to={r.rootCause}
                      size="sm"
                      aria-label={`Root-cause analysis of ${r.name}`}
                      data-testid="alert-root-cause"
                    >
                      Root cause
                    </Anchor>
                  ) : null}
                </Stack>
              </Table.Td>
              {data.manage ? (
                <Table.Td>
                  <Stack gap={4}>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor component={Link} to={alertsUrl({ edit: r.id })} size="sm" aria-label={`Edit ${r.name}`}>
                        Edit
                      </Anchor>
                      <Anchor component={Link} to={alertsUrl({ confirmDelete: r.id })} size="sm" c="red" aria-label={`Delete ${r.name}`}>
                        Delete
                      </Anchor>
                    </Group>
                    <RuleActions data={data} row={r} />
                  </Stack>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}

function History({ history, timezone }: { history: NonNullable<AlertsScreen["history"]>; timezone: string }) {
  return (
    <Paper withBorder p="md" role="region" aria-labelledby="alert-history-title" data-testid="alert-history">
      <Stack gap="xs">
        <Title order={2} size="h4" id="alert-history-title">
          History of {history.name}
        </Title>
        {history.events.length ? (
          <ScrollBox label={`History of ${history.name}`}>
            <Table striped miw={620}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time ({timezone})</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th>Limit</Table.Th>
                  <Table.Th>Told</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.events.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>{e.at}</Table.Td>
                    <Table.Td>{e.from}</Table.Td>
                    <Table.Td>{e.to}</Table.Td>
                    <Table.Td>{e.value}</Table.Td>
                    <Table.Td>{e.limit}</Table.Td>
                    <Table.Td>{e.notified ? "Yes" : "No (silenced)"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        ) : (
          <Text size="sm">No change of state yet.</Text>
        )}
        <Anchor component={Link} to={ALERTS_PATH} size="sm">
          Close the history
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** The confirm step of a deletion; it takes the focus when it appears (with JavaScript the page is not reloaded). */
function DeleteStep({ step }: { step: NonNullable<AlertsScreen["toDelete"]> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [step.id]);
  return (
    <Paper withBorder p="md" role="region" aria-labelledby="alert-delete-title" data-testid="alert-delete-step">
      <Stack gap="sm">
        <Title order={2} size="h4" id="alert-delete-title" ref={heading} tabIndex={-1}>
          Delete alert rule {step.name}?
        </Title>
        <Text size="sm">Its history is deleted with it; nobody is told about it any more.</Text>
        <Group gap="sm">
          <Form method="post" action={ALERTS_PATH} aria-label={`Delete ${step.name}`}>
            <CsrfField />
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={step.id} />
            <input type="hidden" name="confirm" value="yes" />
            <Button type="submit" color="red">
              Delete the rule
            </Button>
          </Form>
          <Anchor component={Link} to={ALERTS_PATH}>
            Cancel, keep it
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}

export function AlertsView({ data, result }: { data: AlertsScreen; result: AlertsActionResult | undefined }) {
  const edited = data.edited;
  const forEdit = result && result.id !== null && result.id === edited?.id && result.form ? result : null;
  const forNew = result && result.id === null && result.form ? result : null;
  const otherError = result && !result.form && Object.keys(result.errors).length ? Object.values(result.errors).join(" ") : null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Alerts
      </Title>
      <Text size="sm">
        A rule watches one Flow Explorer view and tells its recipients when the view's traffic goes above or below a limit, or outside its
        seasonal band, for at least the minimum duration. Rules are evaluated every minute on the newest complete 5-minute bucket. Alerts
        are an extension of the spec.
      </Text>
      <SavedNotices saved={data.savedMessage} notices={data.notices} testId="alerts" />
      {otherError ? (
        <Alert color="red" role="alert" data-testid="alerts-error">
          {otherError}
        </Alert>
      ) : null}
      {data.toDelete ? <DeleteStep step={data.toDelete} /> : null}
      <RulesTable data={data} />
      {data.history ? <History history={data.history} timezone={data.timezone} /> : null}
      {edited ? (
        <Stack>
          <Anchor component={Link} to={ALERTS_PATH}>
            Back to the list
          </Anchor>
          <RuleForm
            data={data}
            id={edited.id}
            values={forEdit?.form ?? edited.form}
            errors={forEdit?.errors ?? {}}
            preview={forEdit?.preview ?? null}
            action={alertsUrl({ edit: edited.id })}
          />
        </Stack>
      ) : data.newForm ? (
        <RuleForm
          data={data}
          id={null}
          values={forNew?.form ?? data.newForm}
          errors={forNew?.errors ?? {}}
          preview={forNew?.preview ?? null}
          action={data.creating ? `${ALERTS_PATH}?new=1` : ALERTS_PATH}
        />
      ) : null}
      {!data.manage ? (
        <Text size="sm" c="dimmed">
          Changing alert rules needs the Manage alerts permission.
        </Text>
      ) : null}
    </Stack>
  );
}
