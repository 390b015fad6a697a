import { Alert, Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { formatDateLong } from "~/lib/date-format";
import type { NotificationActionResult, NotificationsScreen } from "~/server/notifications/notifications-screen.server";

function ActionButton({ id, intent, label }: { id: number; intent: string; label: string }) {
  return (
    <Form method="post" style={{ display: "inline" }}>
      <CsrfField />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" size="xs" variant="default" color={intent === "delete" ? "red" : undefined}>
        {label}
      </Button>
    </Form>
  );
}

/** A message with the app's paths in it (" /manage-users") as links. */
function MessageText({ text }: { text: string }) {
  const parts = text.split(/(?<=^|\s)(\/[a-z0-9][a-z0-9\-_/]*[a-z0-9])/g);
  return (
    <Text size="sm">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Link key={i} to={part}>
            {part}
          </Link>
        ) : (
          part
        ),
      )}
    </Text>
  );
}

/** The inbox (or every notification, archived ones too) with a form per action on each; a refused action's message above the list. */
export function NotificationsView({ data, result }: { data: NotificationsScreen; result?: NotificationActionResult }) {
  const { notifications, showArchived, timezone } = data;
  const navigation = useNavigation();
  return (
    <Stack maw={860}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Notifications
        </Title>
        <SegmentedControl
          value={showArchived ? "all" : "inbox"}
          data={[
            {
              value: "inbox",
              label: (
                <Link to="/notifications" style={{ color: "inherit", textDecoration: "none" }}>
                  Inbox
                </Link>
              ),
            },
            {
              value: "all",
              label: (
                <Link to="/notifications?archived=1" style={{ color: "inherit", textDecoration: "none" }}>
                  All, with archived
                </Link>
              ),
            },
          ]}
        />
      </Group>
      {result?.error && navigation.state === "idle" ? (
        <Alert color="red" role="alert" title="Not done">
          {result.error}
        </Alert>
      ) : null}
      {notifications.length === 0 ? <Text c="dimmed">No notifications.</Text> : null}
      {notifications.map((n) => (
        <Card key={n.id} withBorder padding="md" opacity={navigation.state !== "idle" ? 0.7 : 1} data-testid="notification">
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Group gap="xs">
                <Text fw={n.is_read ? 400 : 700}>{n.title}</Text>
                {!n.is_read ? <Badge size="xs">unread</Badge> : null}
                {n.is_archived ? (
                  <Badge size="xs" color="gray">
                    archived
                  </Badge>
                ) : null}
              </Group>
              {n.message ? <MessageText text={n.message} /> : null}
              <Text size="xs" c="dimmed" data-testid="notification-time">
                {formatDateLong(n.created_at, timezone)}
              </Text>
            </Stack>
            <Group gap={6}>
              <ActionButton id={n.id} intent={n.is_read ? "unread" : "read"} label={n.is_read ? "Mark unread" : "Mark read"} />
              {n.is_archived ? (
                <ActionButton id={n.id} intent="unarchive" label="Move to inbox" />
              ) : (
                <ActionButton id={n.id} intent="archive" label="Archive" />
              )}
              <ActionButton id={n.id} intent="delete" label="Delete" />
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
