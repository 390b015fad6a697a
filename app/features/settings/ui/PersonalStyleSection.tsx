import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { CsrfField } from "~/components/CsrfField";
import { StylePreview, type StyleColours } from "~/components/StylePreview";
import type { SettingsFormErrors } from "~/server/settings/settings-screen.server";
import { ColourInput } from "./ColourInput";

type StyleView = StyleColours;

/** The user's own company name and colours, or the site's default while they keep none. */
export function PersonalStyleSection({
  personal,
  siteDefault,
  errors,
  submitted,
  busy,
}: {
  personal: StyleView | null;
  siteDefault: StyleView;
  errors: SettingsFormErrors;
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
  errors: SettingsFormErrors;
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
