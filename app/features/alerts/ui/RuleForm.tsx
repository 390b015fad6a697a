import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem, ScrollBox, useFormReset, type FormErrors } from "~/components/EditForms";
import type { RuleForm as RuleFormValues } from "../params";
import type { AlertsScreen, PreviewView } from "../screen.server";

const IP_VERSIONS = [
  { value: "all", label: "IPv4 and IPv6" },
  { value: "4", label: "IPv4 only" },
  { value: "6", label: "IPv6 only" },
];
const METRICS = [
  { value: "bps", label: "bit/s" },
  { value: "pps", label: "packets/s" },
];

/** The preview of "Test against the last 7 days": when the rule would have changed state. */
function PreviewResult({ preview, days }: { preview: PreviewView; days: number }) {
  const fired = preview.transitions.filter((t) => t.to === "Triggered").length;
  return (
    <Paper withBorder p="sm" role="region" aria-labelledby="alert-preview-title" data-testid="alert-preview">
      <Stack gap="xs">
        <Title order={3} size="h5" id="alert-preview-title">
          Test against the last {days} days
        </Title>
        <Text size="sm" data-testid="alert-preview-summary">
          {preview.range}: {preview.buckets} buckets of 5 minutes, {preview.withData} with data. The rule would have fired {fired}{" "}
          {fired === 1 ? "time" : "times"}
          {preview.transitions.length ? ` (${preview.transitions.length} changes of state).` : " and never changed state."}
        </Text>
        {preview.transitions.length ? (
          <ScrollBox label="Changes of state in the test">
            <Table striped miw={520} data-testid="alert-preview-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th>Limit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.transitions.map((t) => (
                  <Table.Tr key={`${t.at}-${t.to}`}>
                    <Table.Td>{t.at}</Table.Td>
                    <Table.Td>{t.from}</Table.Td>
                    <Table.Td>{t.to}</Table.Td>
                    <Table.Td>{t.value}</Table.Td>
                    <Table.Td>{t.limit}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The create (no `id`) or edit form of a rule; its "Test against the last 7 days" posts the form as typed. */
export function RuleForm({
  data,
  id,
  values,
  errors,
  preview,
  action,
}: {
  data: AlertsScreen;
  id: number | null;
  values: RuleFormValues;
  errors: FormErrors;
  preview: PreviewView | null;
  action: string;
}) {
  const ref = useFormReset();
  const { view: viewError, ...fieldErrors } = errors;
  return (
    <Paper withBorder p="md">
      <Form
        ref={ref}
        method="post"
        action={action}
        aria-label={id ? "Edit the alert rule" : "Add an alert rule"}
        data-testid="alert-rule-form"
      >
        <CsrfField />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <Stack>
          <Title order={2} size="h4">
            {id ? `Edit alert rule ${values.name}`.trim() : "Add an alert rule"}
          </Title>
          <FormProblem errors={errors} />
          <TextInput label="Name" required maxLength={200} name="name" defaultValue={values.name} error={fieldErrors.name} />
          <Fieldset legend="The view (the Flow Explorer's)">
            <Stack gap="xs">
              {viewError ? (
                <Text size="sm" c="red" role="alert" data-testid="alert-view-error">
                  {viewError}
                </Text>
              ) : null}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NativeSelect
                  label="Dimension"
                  name="dimension"
                  defaultValue={values.dimension}
                  data={data.dimensions}
                  error={fieldErrors.dimension}
                />
                <TextInput
                  label="Value"
                  name="value"
                  maxLength={200}
                  defaultValue={values.value}
                  description="One value of the dimension (an AS number, a router, an interface); empty for the view's total."
                  error={fieldErrors.value}
                />
              </SimpleGrid>
              <Textarea
                label="Filters"
                name="filter"
                autosize
                minRows={2}
                spellCheck={false}
                defaultValue={values.filter}
                description="As in the Flow Explorer's address, one per line: DIMENSION:value1,value2 (!value excludes it)."
                error={fieldErrors.filter}
              />
              <NativeSelect
                label="IP version"
                name="ipVersion"
                defaultValue={values.ipVersion}
                data={IP_VERSIONS}
                error={fieldErrors.ipVersion}
              />
            </Stack>
          </Fieldset>
          <Fieldset legend="The condition">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                label="Condition"
                name="condition"
                defaultValue={values.condition}
                data={data.conditions}
                error={fieldErrors.condition}
              />
              <NativeSelect label="Unit" name="metric" defaultValue={values.metric} data={METRICS} error={fieldErrors.metric} />
              <TextInput
                label="Threshold (above or below)"
                name="threshold"
                defaultValue={values.threshold}
                description="In the unit; k, M, G and T allowed (1.5G is 1,500,000,000)."
                error={fieldErrors.threshold}
              />
              <TextInput
                label="Band factor (outside the band)"
                name="bandFactor"
                inputMode="decimal"
                defaultValue={values.bandFactor}
                description="1: outside what the previous weeks did in this slot; 2: twice as far from the expected value."
                error={fieldErrors.bandFactor}
              />
              <TextInput
                label="Minimum duration (minutes)"
                name="minDuration"
                inputMode="decimal"
                defaultValue={values.minDuration}
                description="How long the condition must hold before the rule triggers (15: three 5-minute buckets)."
                error={fieldErrors.minDuration}
              />
              <TextInput
                label="Hysteresis (%)"
                name="hysteresis"
                inputMode="decimal"
                defaultValue={values.hysteresis}
                description="A triggered rule resolves only this far back inside its limit (10: above 100 resolves at 90)."
                error={fieldErrors.hysteresis}
              />
              <NativeSelect
                label="Severity"
                name="severity"
                defaultValue={values.severity}
                data={data.severities}
                error={fieldErrors.severity}
              />
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend="Who is told">
            <Stack gap="xs">
              <Textarea
                label="Users"
                name="users"
                autosize
                minRows={1}
                spellCheck={false}
                defaultValue={values.users}
                description="E-mail addresses of flowlens accounts, one per line: a notification each (a pop-up unless the severity is info)."
                error={fieldErrors.users}
              />
              {data.groups.length ? (
                <Fieldset legend="Groups" variant="unstyled" p={0}>
                  {fieldErrors.groups ? (
                    <Text size="sm" c="red" role="alert">
                      {fieldErrors.groups}
                    </Text>
                  ) : null}
                  <Group gap="md" mt={4}>
                    {data.groups.map((g) => (
                      <Checkbox
                        key={g.value}
                        name="groups"
                        value={g.value}
                        defaultChecked={values.groups.includes(g.value)}
                        label={g.label}
                      />
                    ))}
                  </Group>
                </Fieldset>
              ) : null}
              <Textarea
                label="E-mail addresses"
                name="emails"
                autosize
                minRows={1}
                spellCheck={false}
                defaultValue={values.emails}
                description="A mail to each, one per line."
                error={fieldErrors.emails}
              />
              <NativeSelect
                label="Team chat"
                name="webhook"
                defaultValue={values.webhook}
                data={[{ value: "", label: "None" }, ...data.webhooks]}
                description={data.webhooks.length ? "One of the webhooks staff configured." : "Staff have configured no team-chat webhook."}
                error={fieldErrors.webhook}
              />
            </Stack>
          </Fieldset>
          <Checkbox name="enabled" value="on" defaultChecked={values.enabled} label="Enabled (evaluated every minute)" />
          {preview ? <PreviewResult preview={preview} days={data.previewDays} /> : null}
          <Group gap="sm">
            <Button type="submit" name="intent" value={id ? "update" : "create"}>
              {id ? "Save the rule" : "Add the rule"}
            </Button>
            <Button type="submit" name="intent" value="preview" variant="light" data-testid="alert-preview-button">
              Test against the last {data.previewDays} days
            </Button>
          </Group>
          {preview ? null : (
            <Text size="xs" c="dimmed">
              The test runs the rule as typed over the last {data.previewDays} days of 5-minute buckets: nothing is saved and nobody is
              told.
            </Text>
          )}
        </Stack>
      </Form>
    </Paper>
  );
}
