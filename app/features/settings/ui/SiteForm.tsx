import { Alert, Button, Checkbox, Divider, Group, Paper, SimpleGrid, Stack, Textarea, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { SiteSettingsForm } from "~/server/settings/site-settings.server";

type SiteView = SiteSettingsForm;

/** Every site setting (staff and superusers). */
export function SiteForm({
  site,
  autocompleteKeys,
  errors,
  submitted,
  busy,
}: {
  site: SiteView;
  autocompleteKeys: (keyof SiteView["autocomplete_min_lengths"])[];
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  const text = (name: string, stored: string) => (submitted ? (submitted[name] ?? "") : stored);
  const flag = (name: keyof SiteView, stored: boolean) => (submitted ? Boolean(submitted[name]) : stored);
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" aria-label="Site settings">
        <CsrfField />
        <input type="hidden" name="intent" value="site" />
        <Stack>
          <Title order={3}>Site</Title>
          {Object.keys(errors).length ? (
            <Alert color="red" role="alert">
              The site settings were not saved: please correct the fields marked below.
            </Alert>
          ) : null}
          <Checkbox
            name="mandatory_2fa"
            label="Two-factor authentication is mandatory for every user"
            defaultChecked={flag("mandatory_2fa", site.mandatory_2fa)}
            error={errors.mandatory_2fa}
          />
          <Checkbox
            name="welcome_page_enabled"
            label="Show the welcome page to delegated users"
            defaultChecked={flag("welcome_page_enabled", site.welcome_page_enabled)}
            error={errors.welcome_page_enabled}
          />
          <Checkbox
            name="enable_user_self_signup"
            label="Visitors may sign up by themselves"
            defaultChecked={flag("enable_user_self_signup", site.enable_user_self_signup)}
            error={errors.enable_user_self_signup}
          />
          <Checkbox
            name="public_looking_glass_enabled"
            label="Public Looking Glass enabled"
            defaultChecked={flag("public_looking_glass_enabled", site.public_looking_glass_enabled)}
            error={errors.public_looking_glass_enabled}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              name="clickhouse_db_version"
              label="ClickHouse database version"
              defaultValue={text("clickhouse_db_version", site.clickhouse_db_version)}
              error={errors.clickhouse_db_version}
            />
            <TextInput
              name="as_name_of_deployment"
              label="AS name of this deployment"
              defaultValue={text("as_name_of_deployment", site.as_name_of_deployment)}
              error={errors.as_name_of_deployment}
            />
          </SimpleGrid>
          <Divider label="Autocomplete: minimum term lengths" labelPosition="left" />
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {autocompleteKeys.map((key) => (
              <TextInput
                key={key}
                type="number"
                min={0}
                name={`autocomplete_min_lengths.${key}`}
                label={key.replace("_", " ")}
                defaultValue={text(`autocomplete_min_lengths.${key}`, String(site.autocomplete_min_lengths[key]))}
                error={errors[`autocomplete_min_lengths.${key}`]}
              />
            ))}
          </SimpleGrid>
          <Textarea
            name="rna_default_query"
            label="Raw Network Analyzer default query (JSON object)"
            description='What the Raw Network Analyzer shows before anyone chooses: each field may be left out. columns (column ids, e.g. ["time_received", "src_addr", "bytes"]), aggregationPrefixes ({"v4": 24, "v6": null}), filters ([{"dimension": "AS_DST", "values": ["64500"]}]), filterExpression (nfdump language), range (LAST_30_MINUTES … LAST_7_DAYS), sort ({"column": "bytes", "direction": "desc"}). {} is the built-in default: the last hour with the default columns.'
            autosize
            minRows={3}
            styles={{ input: { fontFamily: "monospace" } }}
            defaultValue={text("rna_default_query", JSON.stringify(site.rna_default_query, null, 2))}
            error={errors.rna_default_query}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Save site settings
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
