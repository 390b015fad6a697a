import {
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  Input,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { CsrfField } from "~/components/CsrfField";
import { StylePreview, type StyleColours } from "~/components/StylePreview";
import { MAX_FOOTER_ROWS } from "~/lib/footer-links";
import type { StyleJson } from "~/server/settings/site-settings.server";
import { ColourInput } from "./ColourInput";

type Colours = StyleColours;

/** The site's default style: names and colours for moderators, the branding too for staff and superusers. */
export function DefaultStyleForm({
  style,
  admin,
  fonts,
  errors,
  submitted,
  busy,
}: {
  style: StyleJson;
  admin: boolean;
  fonts: string[];
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  const pick = (name: keyof Colours) => submitted?.[name] ?? style[name];
  const [colours, setColours] = useState<Colours>({
    company_name: pick("company_name"),
    color_primary: pick("color_primary"),
    color_secondary: pick("color_secondary"),
    color_tertiary: pick("color_tertiary"),
  });
  const set = (field: keyof Colours) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setColours((c) => ({ ...c, [field]: value }));
  };
  const footerRows = submitted
    ? Array.from({ length: MAX_FOOTER_ROWS }, (_, i) => ({
        text: submitted[`footer_text_${i}`] ?? "",
        link: submitted[`footer_link_${i}`] ?? "",
      })).filter((row, i) => row.text || row.link || i < 2)
    : [...style.footer_links.map((l) => ({ text: l.text, link: l.link })), { text: "", link: "" }, { text: "", link: "" }];
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" encType={admin ? "multipart/form-data" : undefined} aria-label="Default style">
        <CsrfField />
        <input type="hidden" name="intent" value="style" />
        <Stack>
          <Title order={3}>Default style</Title>
          {Object.keys(errors).length ? (
            <Alert color="red" role="alert">
              The default style was not saved: please correct the fields marked below.
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput name="name" label="Style name" defaultValue={submitted?.name ?? style.name} error={errors.name} maxLength={100} />
            <TextInput
              name="company_name"
              label="Company name"
              value={colours.company_name}
              onChange={set("company_name")}
              error={errors.company_name}
              maxLength={100}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {(["color_primary", "color_secondary", "color_tertiary"] as const).map((field) => (
              <ColourInput
                key={field}
                name={field}
                label={{ color_primary: "Primary colour", color_secondary: "Secondary colour", color_tertiary: "Tertiary colour" }[field]}
                value={colours[field]}
                onChange={set(field)}
                error={errors[field]}
              />
            ))}
          </SimpleGrid>
          <StylePreview style={colours} />
          {admin ? (
            <>
              <Divider label="Branding (staff and superusers)" labelPosition="left" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NativeSelect name="font" label="Font" defaultValue={submitted?.font ?? style.font} data={fonts} error={errors.font} />
                <Checkbox
                  mt="xl"
                  name="branded_footer"
                  label="Branded footer"
                  defaultChecked={submitted ? Boolean(submitted.branded_footer) : style.branded_footer}
                  error={errors.branded_footer}
                />
              </SimpleGrid>
              <Group align="flex-end">
                {style.company_logo ? (
                  <img src={`data:image/png;base64,${style.company_logo}`} alt="Current logo" height={40} />
                ) : (
                  <Text size="sm" c="dimmed">
                    No logo.
                  </Text>
                )}
                <Input.Wrapper label="Company logo (PNG, at most 256 kB)" error={errors.company_logo} id="company_logo">
                  <input id="company_logo" type="file" name="company_logo" accept="image/png" style={{ display: "block", fontSize: 14 }} />
                </Input.Wrapper>
                {style.company_logo ? <Checkbox name="remove_logo" label="Remove the logo" /> : null}
              </Group>
              <Text size="sm" fw={500}>
                Footer links (text and an http(s):// address or a /path; leave both empty to drop a row)
              </Text>
              {errors.footer_links ? (
                <Text size="sm" c="red">
                  {errors.footer_links}
                </Text>
              ) : null}
              {footerRows.map((row, i) => (
                <SimpleGrid key={i} cols={2}>
                  <TextInput
                    name={`footer_text_${i}`}
                    aria-label={`Footer link ${i + 1} text`}
                    placeholder="Text"
                    defaultValue={row.text}
                    error={errors[`footer_text_${i}`]}
                  />
                  <TextInput
                    name={`footer_link_${i}`}
                    aria-label={`Footer link ${i + 1} address`}
                    placeholder="https://… or /path"
                    defaultValue={row.link}
                    error={errors[`footer_link_${i}`]}
                  />
                </SimpleGrid>
              ))}
            </>
          ) : null}
          <Group>
            <Button type="submit" loading={busy}>
              Save default style
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
