import { Anchor, Button, Group, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { LEGAL_PAGES, LEGAL_TEXT_MAX } from "~/lib/legal-pages";
import type { LegalTexts } from "~/server/settings/legal-pages.server";

/** The texts of the public /imprint and /privacy-policy pages (staff and superusers). */
export function LegalTextsForm({
  stored,
  errors,
  submitted,
  busy,
}: {
  stored: LegalTexts;
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" aria-label="Imprint and privacy policy">
        <CsrfField />
        <input type="hidden" name="intent" value="legal" />
        <Stack>
          <Title order={2} size="h3">
            Imprint and privacy policy
          </Title>
          <Text size="sm">
            The texts of the public pages the footer links to. Plain text: a blank line starts a new paragraph, a line starting with &quot;#
            &quot; is a heading, lines starting with &quot;- &quot; make a list. HTML is shown as written, not interpreted.
          </Text>
          {Object.values(LEGAL_PAGES).map((page) => (
            <Textarea
              key={page.field}
              name={page.field}
              label={
                <>
                  {page.title} (<Anchor href={page.path}>{page.path}</Anchor>)
                </>
              }
              autosize
              minRows={4}
              maxLength={LEGAL_TEXT_MAX}
              defaultValue={submitted ? (submitted[page.field] ?? "") : stored[page.field]}
              error={errors[page.field]}
            />
          ))}
          <Group>
            <Button type="submit" loading={busy}>
              Save imprint and privacy policy
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
