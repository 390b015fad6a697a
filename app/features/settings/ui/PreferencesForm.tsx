import { Alert, Button, Divider, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { SettingsScreen } from "~/server/settings/settings-screen.server";
import type { EditableSettingName } from "~/server/settings/user-settings.server";
import { ThresholdInput } from "./ThresholdInput";

const THRESHOLD_ROWS = [
  { group: "timeseries", label: "Timeseries" },
  { group: "intlinks", label: "Core Planner (internal links)" },
  { group: "extlinks", label: "Border Planner (external links)" },
] as const;

/**
 * The user's preferences (timezone, CSV delimiter, the thresholds and build-out settings of the tools
 * they can use), with the values and errors of a submission that was not saved.
 */
export function PreferencesForm({
  data,
  submitted,
  errors: settingsErrors,
  busy,
}: {
  data: SettingsScreen;
  submitted: Record<string, string>;
  errors: Record<string, string>;
  busy: boolean;
}) {
  const { settings, visible, timezones, labels } = data;
  const shown = new Set<string>(visible);
  const valueOf = (name: EditableSettingName) => submitted[name] ?? String(settings[name]);
  // Inputs are uncontrolled: a new key when the stored value changes brings a fresh default.
  const keyOf = (name: EditableSettingName) => `${name}:${settings[name]}:${submitted[name] ?? ""}`;
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/settings" aria-label="User settings">
        <CsrfField />
        <input type="hidden" name="intent" value="settings" />
        <Stack>
          <Title order={3}>Preferences</Title>
          {Object.keys(settingsErrors).length ? (
            <Alert color="red" role="alert">
              Your settings were not saved: please correct the fields marked below.
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect
              key={keyOf("timezone")}
              name="timezone"
              label={labels.timezone}
              description="Dates and times are shown in this timezone."
              defaultValue={valueOf("timezone")}
              error={settingsErrors.timezone}
              data={timezones.includes(valueOf("timezone")) ? timezones : [valueOf("timezone"), ...timezones]}
            />
            <NativeSelect
              key={keyOf("csv_delimiter")}
              name="csv_delimiter"
              label={labels.csv_delimiter}
              description="Separator of exported CSV files."
              defaultValue={valueOf("csv_delimiter")}
              error={settingsErrors.csv_delimiter}
              data={[
                { value: ",", label: "Comma (,)" },
                { value: ";", label: "Semicolon (;)" },
              ]}
            />
          </SimpleGrid>

          {THRESHOLD_ROWS.some((row) => shown.has(`${row.group}_util_threshold_medium`)) ? (
            <Divider label="Utilization thresholds (0 to 1; medium must be lower than high)" labelPosition="left" />
          ) : null}
          {THRESHOLD_ROWS.filter((row) => shown.has(`${row.group}_util_threshold_medium`)).map((row) => (
            <SimpleGrid key={row.group} cols={{ base: 1, sm: 2 }}>
              {(["medium", "high"] as const).map((level) => {
                const name = `${row.group}_util_threshold_${level}` as EditableSettingName;
                return (
                  <ThresholdInput
                    key={keyOf(name)}
                    group={row.group}
                    level={level}
                    name={name}
                    label={`${row.label}: ${level}`}
                    defaultValue={valueOf(name)}
                    error={settingsErrors[name]}
                  />
                );
              })}
            </SimpleGrid>
          ))}

          {shown.has("extlinks_buildout_threshold") || shown.has("intlinks_buildout_threshold") ? (
            <Divider label="Build-out" labelPosition="left" />
          ) : null}
          {(["extlinks", "intlinks"] as const)
            .filter((group) => shown.has(`${group}_buildout_threshold`))
            .map((group) => {
              const threshold = `${group}_buildout_threshold` as const;
              const type = `${group}_buildout_type` as const;
              return (
                <SimpleGrid key={group} cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    key={keyOf(threshold)}
                    name={threshold}
                    type="number"
                    min={1}
                    step={1}
                    label={labels[threshold]}
                    defaultValue={valueOf(threshold)}
                    error={settingsErrors[threshold]}
                  />
                  <NativeSelect
                    key={keyOf(type)}
                    name={type}
                    label={labels[type]}
                    defaultValue={valueOf(type)}
                    error={settingsErrors[type]}
                    data={[
                      { value: "DAYS", label: "Days" },
                      { value: "PERCENT", label: "Percent" },
                    ]}
                  />
                </SimpleGrid>
              );
            })}
          <Group>
            <Button type="submit" loading={busy}>
              Save settings
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
