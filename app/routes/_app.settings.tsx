import { Alert, Anchor, Box, Button, Divider, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { CsrfField, useCsrfHeaders } from "~/components/CsrfField";
import { StylePreview, type StyleColours } from "~/components/StylePreview";
import { isHexColor } from "~/lib/colors";
import { readProtectedForm, requireUser } from "~/server/auth/guard.server";
import {
  getPersonalStyle,
  PERSONAL_FIELDS,
  resetPersonalStyle,
  setPersonalStyle,
  siteSettingsRole,
  ensureDefaultStyle,
  styleToJson,
} from "~/server/settings/site-settings.server";
import {
  getUserSettings,
  settingsForPermissions,
  SETTING_LABELS,
  TIMEZONES,
  updateUserSettings,
  type EditableSettingName,
} from "~/server/settings/user-settings.server";

/**
 * /settings — the "Settings (user profile)" screen (shell §2 dialogs, §3 user_settings): timezone,
 * CSV delimiter, utilization thresholds, build-out settings and a personal style override. Works
 * as plain forms; with JavaScript the thresholds also save themselves (debounced 500 ms, §7/§9).
 */

export const meta: MetaFunction = () => [{ title: "Settings · flowlens" }];

const SAVED_MESSAGES: Record<string, string> = {
  settings: "Your settings were saved.",
  style: "Your personal style was saved. Only you see it.",
  "style-reset": "Your personal style was removed: you see the site's default style again.",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  const db = services.pg.db;
  const [all, personal, siteDefault] = await Promise.all([
    getUserSettings(db, user.id),
    getPersonalStyle(db, user.id),
    ensureDefaultStyle(db),
  ]);
  const saved = new URL(request.url).searchParams.get("saved");
  // Only the settings of tools the user can use reach the page (a delegated user has no Core Planner thresholds).
  const visible = settingsForPermissions(user.permissions);
  const settings = Object.fromEntries(visible.map((name) => [name, all[name]])) as Partial<Pick<typeof all, EditableSettingName>>;
  return {
    settings,
    visible,
    timezones: TIMEZONES,
    personal,
    siteDefault: styleToJson(siteDefault),
    savedMessage: saved ? (SAVED_MESSAGES[saved] ?? null) : null,
    canEditSite: siteSettingsRole(user) !== null,
    labels: SETTING_LABELS,
  };
}

type FormErrors = Record<string, string>;
type ActionResult = { intent: string; errors: FormErrors; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  const form = await readProtectedForm(request);
  const db = services.pg.db;
  const intent = String(form.get("intent") ?? "settings");
  const values: Record<string, string> = {};
  if (intent === "settings") {
    // Fields of settings the user may not see are ignored, whatever the form carried.
    for (const name of settingsForPermissions(user.permissions)) {
      const v = form.get(name);
      if (typeof v === "string") values[name] = v;
    }
    const result = await updateUserSettings(db, user.id, values);
    if (!result.ok) return data<ActionResult>({ intent, errors: result.errors as FormErrors, values }, { status: 400 });
    return redirect("/settings?saved=settings");
  }
  if (intent === "style") {
    for (const name of PERSONAL_FIELDS) values[name] = String(form.get(name) ?? "");
    const result = await setPersonalStyle(db, user.id, values);
    if (!result.ok) return data<ActionResult>({ intent, errors: result.errors, values }, { status: 400 });
    return redirect("/settings?saved=style");
  }
  if (intent === "style-reset") {
    await resetPersonalStyle(db, user.id);
    return redirect("/settings?saved=style-reset");
  }
  return data<ActionResult>({ intent, errors: { intent: "Unknown action." }, values }, { status: 400 });
}

const THRESHOLD_ROWS = [
  { group: "timeseries", label: "Timeseries" },
  { group: "intlinks", label: "Core Planner (internal links)" },
  { group: "extlinks", label: "Border Planner (external links)" },
] as const;

export default function SettingsPage() {
  const { settings, visible, timezones, personal, siteDefault, savedMessage, canEditSite, labels } = useLoaderData<typeof loader>();
  const shown = new Set<string>(visible);
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const settingsErrors = result?.intent === "settings" ? result.errors : {};
  const styleErrors = result?.intent === "style" ? result.errors : {};
  const submitted = result?.intent === "settings" ? result.values : {};
  const valueOf = (name: EditableSettingName) => submitted[name] ?? String(settings[name]);
  // Inputs are uncontrolled: a new key when the stored value changes brings a fresh default.
  const keyOf = (name: EditableSettingName) => `${name}:${settings[name]}:${submitted[name] ?? ""}`;

  return (
    <Stack maw={900} gap="lg">
      <Title order={1} size="h2">
        Settings
      </Title>
      {savedMessage ? (
        <Alert color="green" role="status" data-testid="settings-saved">
          {savedMessage}
        </Alert>
      ) : null}

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
              <Button type="submit" loading={busy && navigation.formData?.get("intent") === "settings"}>
                Save settings
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>

      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={3}>Security</Title>
          <Text size="sm">
            Two-factor authentication and recovery codes:{" "}
            <Anchor component={Link} to="/settings/security">
              Two-factor authentication settings
            </Anchor>
          </Text>
          {canEditSite ? (
            <Text size="sm">
              Site-wide defaults:{" "}
              <Anchor component={Link} to="/site-settings">
                Site settings
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </Paper>

      <PersonalStyleSection
        personal={personal}
        siteDefault={siteDefault}
        errors={styleErrors}
        submitted={result?.intent === "style" ? result.values : null}
        busy={busy}
      />

      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={3}>Privacy</Title>
          <Text size="sm">
            flowlens processes your account data and your use of the application only with your consent. Withdrawing it logs you out; you
            will be asked again at your next login.
          </Text>
          <Form method="post" action="/consent">
            <CsrfField />
            <input type="hidden" name="intent" value="withdraw" />
            <Button type="submit" variant="default" color="red">
              Withdraw consent and log out
            </Button>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** A threshold field: part of the form, and with JavaScript saved by itself 500 ms after the last change. */
function ThresholdInput({
  group,
  level,
  name,
  label,
  defaultValue,
  error,
}: {
  group: string;
  level: "medium" | "high";
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
}) {
  const [value, setValue] = useState(defaultValue);
  const csrf = useCsrfHeaders();
  const save = useDebouncedCallback(async (raw: string) => {
    if (raw.trim() === "" || !Number.isFinite(Number(raw))) return;
    try {
      const response = await fetch(`/auth/settings/${group}_util_threshold/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...csrf },
        body: JSON.stringify({ value: Number(raw), level }),
      });
      if (response.ok) {
        notifications.show({ color: "green", title: "Saved", message: `${label} set to ${Number(raw)}.` });
      } else {
        const body = (await response.json().catch(() => null)) as { detail?: string; errors?: { message: string }[] } | null;
        notifications.show({
          color: "red",
          title: "Not saved",
          message: body?.errors?.[0]?.message ?? body?.detail ?? `HTTP ${response.status}`,
        });
      }
    } catch {
      notifications.show({
        color: "red",
        title: "Not saved",
        message: "Could not connect to server. Please check your internet connection and refresh the page.",
      });
    }
  }, 500);
  return (
    <TextInput
      name={name}
      type="number"
      min={0}
      max={1}
      step={0.01}
      label={label}
      value={value}
      error={error}
      data-threshold={name}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        save(event.currentTarget.value);
      }}
    />
  );
}

type StyleView = StyleColours;

function PersonalStyleSection({
  personal,
  siteDefault,
  errors,
  submitted,
  busy,
}: {
  personal: StyleView | null;
  siteDefault: StyleView;
  errors: FormErrors;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  const base = personal ?? siteDefault;
  const initial: StyleView = {
    company_name: submitted?.company_name ?? base.company_name,
    color_primary: submitted?.color_primary ?? base.color_primary,
    color_secondary: submitted?.color_secondary ?? base.color_secondary,
    color_tertiary: submitted?.color_tertiary ?? base.color_tertiary,
  };
  const formKey = JSON.stringify(initial);
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/settings" aria-label="Personal style" key={formKey}>
        <CsrfField />
        <PersonalStyleFields initial={initial} errors={errors} personal={personal !== null} siteDefault={siteDefault} busy={busy} />
      </Form>
    </Paper>
  );
}

function PersonalStyleFields({
  initial,
  errors,
  personal,
  siteDefault,
  busy,
}: {
  initial: StyleView;
  errors: FormErrors;
  personal: boolean;
  siteDefault: StyleView;
  busy: boolean;
}) {
  const [style, setStyle] = useState(initial);
  const set = (field: keyof StyleView) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setStyle((s) => ({ ...s, [field]: value }));
  };
  return (
    <Stack>
      <Title order={3}>Personal style</Title>
      <Text size="sm" c="dimmed">
        Your own company name and colours. Only you see them; everybody else keeps the site's default style
        {personal ? "." : " (which you see now)."} Site default: {siteDefault.company_name}, {siteDefault.color_primary} /{" "}
        {siteDefault.color_secondary} / {siteDefault.color_tertiary}.
      </Text>
      {Object.keys(errors).length ? (
        <Alert color="red" role="alert">
          Your personal style was not saved: please correct the fields marked below.
        </Alert>
      ) : null}
      <TextInput
        name="company_name"
        label="Company name"
        value={style.company_name}
        onChange={set("company_name")}
        error={errors.company_name}
        maxLength={100}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <ColourInput
          name="color_primary"
          label="Primary colour"
          value={style.color_primary}
          onChange={set("color_primary")}
          error={errors.color_primary}
        />
        <ColourInput
          name="color_secondary"
          label="Secondary colour"
          value={style.color_secondary}
          onChange={set("color_secondary")}
          error={errors.color_secondary}
        />
        <ColourInput
          name="color_tertiary"
          label="Tertiary colour"
          value={style.color_tertiary}
          onChange={set("color_tertiary")}
          error={errors.color_tertiary}
        />
      </SimpleGrid>
      <StylePreview style={style} />
      <Group>
        <Button type="submit" name="intent" value="style" loading={busy}>
          Save personal style
        </Button>
        {personal ? (
          <Button type="submit" name="intent" value="style-reset" variant="default">
            Reset to site default
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

function ColourInput({
  name,
  label,
  value,
  onChange,
  error,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
  error?: string;
}) {
  return (
    <TextInput
      name={name}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      placeholder="#rrggbb"
      maxLength={7}
      leftSection={
        <Box w={16} h={16} style={{ borderRadius: 3, border: "1px solid #ccc", background: isHexColor(value) ? value : "transparent" }} />
      }
    />
  );
}
