import { Alert, Anchor, Button, Group, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { SupportMessagesScreen } from "~/server/support-messages.server";

/** The support messages for staff: open ones to answer by mail and mark as done, or the done ones. */
export function SupportMessagesView({ data }: { data: SupportMessagesScreen }) {
  const busy = useNavigation().state === "submitting";
  const open = data.show === "open";
  return (
    <Stack maw={960} gap="md">
      <Title order={1} size="h2">
        Support messages
      </Title>
      <Text size="sm">
        Messages users sent from the support form (times in {data.timezone}).{" "}
        <Anchor component={Link} to="/site-settings">
          Back to the site settings
        </Anchor>
        .
      </Text>
      <Group gap="md" role="navigation" aria-label="Which messages">
        {open ? (
          <Text fw={700} size="sm" aria-current="page">
            Open
          </Text>
        ) : (
          <Anchor component={Link} to="/site-settings/support-messages" size="sm">
            Open
          </Anchor>
        )}
        {open ? (
          <Anchor component={Link} to="/site-settings/support-messages?show=done" size="sm">
            Done
          </Anchor>
        ) : (
          <Text fw={700} size="sm" aria-current="page">
            Done
          </Text>
        )}
      </Group>
      {data.notice ? (
        <Alert color="green" role="status" data-testid="support-messages-notice">
          {data.notice}
        </Alert>
      ) : null}
      {data.messages.length === 0 ? (
        <Text data-testid="support-messages-empty">{open ? "No open support messages." : "No support messages marked as done."}</Text>
      ) : null}
      {data.messages.map((m) => (
        <Paper key={m.id} withBorder p="md" component="article" aria-labelledby={`support-${m.id}`} data-testid="support-message">
          <Stack gap="xs">
            <Title order={2} size="h4" id={`support-${m.id}`}>
              {`#${m.id} · ${m.type} · from ${m.sender}`}
            </Title>
            <Text size="xs" c="dimmed">{`Sent ${m.sent}`}</Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {m.message}
            </Text>
            {m.answer ? (
              <Paper bg="var(--mantine-color-default-hover)" p="sm">
                <Text size="xs" c="dimmed">{`Answered ${m.answered ?? ""}`}</Text>
                <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                  {m.answer}
                </Text>
              </Paper>
            ) : null}
            {m.done ? <Text size="xs" c="dimmed">{`Done ${m.done}`}</Text> : null}
            {open && m.canAnswer ? (
              <Form method="post">
                <CsrfField />
                <input type="hidden" name="intent" value="answer" />
                <input type="hidden" name="id" value={m.id} />
                <Stack gap="xs">
                  <Textarea name="answer" label={`Answer to message #${m.id} by e-mail`} autosize minRows={3} maxLength={10_000} required />
                  <div>
                    <Button type="submit" size="xs" disabled={busy}>
                      Send answer
                    </Button>
                  </div>
                </Stack>
              </Form>
            ) : null}
            {open ? (
              <Form method="post">
                <CsrfField />
                <input type="hidden" name="intent" value="done" />
                <input type="hidden" name="id" value={m.id} />
                <Button type="submit" size="xs" variant="light" disabled={busy} aria-label={`Mark message #${m.id} as done`}>
                  Mark as done
                </Button>
              </Form>
            ) : null}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
