import { Anchor, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { TourHelpPage, loadHelpIndex } from "../help-pages.server";
import { StartTourButton } from "./HelpMenu";

/** A tour's help page: the same steps as the overlay, as a page that needs no JavaScript, to read, search and print. */
export function TourHelpView({ page }: { page: TourHelpPage }) {
  return (
    <Stack maw={860} data-testid="tour-help-page" data-tour-id={page.id}>
      <Text size="sm">
        <Anchor component={Link} to="/help">
          Help
        </Anchor>{" "}
        › {page.kind === "how-to" ? "How-to tour" : "Screen tour"}
      </Text>
      <Title order={1} size="h2">
        {page.title}
      </Title>
      <Text>{page.summary}</Text>
      <Group>
        <StartTourButton tourId={page.id} />
      </Group>
      <ol style={{ paddingLeft: 0, listStyle: "none", margin: 0 }}>
        {page.steps.map((s, i) => (
          <li key={`${s.anchor}-${i}`} style={{ marginBottom: "var(--mantine-spacing-sm)" }}>
            <Paper withBorder p="md" data-testid="help-step">
              <Text size="xs" c="dimmed">
                Step {i + 1} of {page.steps.length} ·{" "}
                <Anchor component={Link} to={s.href} size="xs">
                  {s.screen}
                </Anchor>
              </Text>
              <Title order={2} size="h4" mt={4} data-testid="help-step-title">
                {s.title}
              </Title>
              <Text size="sm" mt={4}>
                {s.body}
              </Text>
            </Paper>
          </li>
        ))}
      </ol>
      <Text size="sm">
        More answers in the{" "}
        <Anchor component={Link} to="/faq">
          FAQ
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

type HelpIndex = Awaited<ReturnType<typeof loadHelpIndex>>;

/** /help: every tour the user may take, each a link to its help page. */
export function HelpIndexView({ index }: { index: HelpIndex }) {
  return (
    <Stack maw={860}>
      <Title order={1} size="h2">
        Help
      </Title>
      <Text>
        Each screen explains itself in a guided tour: start it from the Help button in the header, or read it here. Questions and answers
        are in the{" "}
        <Anchor component={Link} to="/faq">
          FAQ
        </Anchor>
        .
      </Text>
      <TourList title="Screen tours" tours={index.screens} />
      <TourList title="How-to tours" tours={index.howTos} />
    </Stack>
  );
}

export function TourList({ title, tours }: { title: string; tours: HelpIndex["screens"] }) {
  if (!tours.length) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      <List spacing="xs" data-testid="help-tour-list">
        {tours.map((t) => (
          <List.Item key={t.id}>
            <Anchor component={Link} to={`/help/${t.id}`}>
              {t.title}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t.summary}
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
